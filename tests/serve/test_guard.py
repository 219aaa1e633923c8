"""The guard's time rule: an upload that stops arriving is given up with 408 and holds nothing, also when the
server's own routes are the ones reading it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("starlette", reason="needs the serve extra (pip install '.[serve]')")

from printgen.scan.reader import Reader
from printgen.serve import guard
from printgen.serve.app import create_app


def _posted(app: Any, parts: list[bytes], stall: bool, path: str = "/api/score",
            kind: bytes = b"application/octet-stream") -> list[dict[str, Any]]:
    """What `app` sends for a POST to `path` of a body (of type `kind`, declared 5,000 bytes) that arrives as
    `parts`, then stops arriving when `stall` (a phone that left the Wi-Fi), or ends."""
    pending = [{"type": "http.request", "body": part, "more_body": True} for part in parts]
    pending[-1]["more_body"] = stall

    async def receive() -> dict[str, Any]:
        if pending:
            return pending.pop(0)
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "query_string": b"", "scheme": "http",
             "server": ("127.0.0.1", 8420), "client": ("127.0.0.1", 50000), "http_version": "1.1",
             "headers": [(b"host", b"127.0.0.1:8420"), (b"content-length", b"5000"), (b"content-type", kind)]}
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 5))
    return sent


def test_a_stalled_upload_to_the_servers_routes_is_408_not_an_internal_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any, reader: Reader) -> None:
    monkeypatch.setattr(guard, "BODY_WAIT", 0.2)
    app = create_app(tmp_path, reader=reader)
    photo = (b'--b\r\nContent-Disposition: form-data; name="photo"; filename="sheet.jpg"\r\n'
             b"Content-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0")
    for path, kind, start in (("/api/score", b"multipart/form-data; boundary=b", photo),
                              ("/api/preview", b"application/json", b'{"layout": "qwixx-stan')):
        sent = _posted(app, [start], True, path, kind)
        assert sent[0]["status"] == 408, (path, sent)
        assert json.loads(sent[1]["body"])["error"].startswith("the upload stalled"), (path, sent)


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

    guarded = guard.Guard(app, None, 1 << 20)
    stalled = _posted(guarded, [b"x" * 100], stall=True)
    assert stalled[0]["status"] == 408 and held == []
    assert json.loads(stalled[1]["body"]) == {"error": "the upload stalled: nothing arrived for 0 s"}
    whole = _posted(guarded, [b"x" * 100, b"y" * 100], stall=False)
    assert whole[0]["status"] == 200 and whole[-1]["body"] == b"read"


def test_an_upload_trickling_in_is_given_up_with_408(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that sends a byte now and then never pauses BODY_WAIT, yet held an upload slot for as long as it
    liked (a helper's 24 of them kept every phone out)."""
    monkeypatch.setattr(guard, "BODY_WAIT", 0.2)
    monkeypatch.setattr(guard, "BODY_RATE", 2048)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"read"})

    def posted(part: bytes, pause: float, parts: int) -> list[dict[str, Any]]:
        """What the guard sends back for a body of `parts` parts, one every `pause` seconds."""
        sent_parts = 0

        async def receive() -> dict[str, Any]:
            nonlocal sent_parts
            await asyncio.sleep(pause)
            sent_parts += 1
            return {"type": "http.request", "body": part, "more_body": sent_parts < parts}

        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/score", "query_string": b"",
                 "headers": [(b"host", b"127.0.0.1:8420"), (b"content-length", str(len(part) * parts).encode())]}
        asyncio.run(asyncio.wait_for(guard.Guard(app, None, 1 << 20)(scope, receive, send), 60))
        return sent

    trickle = posted(b"x", 0.05, 1000)
    assert trickle[0]["status"] == 408
    assert json.loads(trickle[1]["body"]) == {"error": "the upload came too slowly: less than 2 kB a second"}
    # a steady one, as long as BODY_WAIT three times over, is read whole: 4 kB a part, so that only a stall of
    # about 2 s (a loaded host) could bring it under 2 kB a second (it was once cut off by the test's own 2 s
    # timeout racing such a stall in CI)
    steady = posted(b"x" * 4096, 0.02, 30)
    assert steady[0]["status"] == 200 and steady[1]["body"] == b"read"
