"""The guard's time rule: an upload that stops arriving is given up with 408 and holds nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("starlette", reason="needs the serve extra (pip install '.[serve]')")

from printgen.serve import guard


def test_a_stalled_upload_is_given_up_with_408(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "BODY_WAIT", 0.2)
    held: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:  # reads the whole body, as an upload does
        held.append("slot")
        try:
            while (await receive()).get("more_body"):
                pass
        finally:
            held.remove("slot")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"read"})

    async def run(parts: list[bytes], stall: bool) -> list[dict[str, Any]]:
        pending = [{"type": "http.request", "body": part, "more_body": True} for part in parts]
        pending[-1]["more_body"] = stall

        async def receive() -> dict[str, Any]:
            if pending:
                return pending.pop(0)
            await asyncio.sleep(3600)  # a phone that left the Wi-Fi
            return {"type": "http.disconnect"}

        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/score", "query_string": b"",
                 "headers": [(b"host", b"127.0.0.1:8420"), (b"content-length", b"5000")]}
        await asyncio.wait_for(guard.Guard(app, None, 1 << 20)(scope, receive, send), 5)
        return sent

    stalled = asyncio.run(run([b"x" * 100], stall=True))
    assert stalled[0]["status"] == 408 and held == []
    assert json.loads(stalled[1]["body"]) == {"error": "the upload stalled: nothing arrived for 0 s"}
    whole = asyncio.run(run([b"x" * 100, b"y" * 100], stall=False))
    assert whole[0]["status"] == 200 and whole[-1]["body"] == b"read"
