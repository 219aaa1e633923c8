"""Twenty phones at once: every upload is answered and every sheet kept, read two at a time by the warm reader."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from printgen.scan.reader import Reader
from printgen.serve.app import create_app
from printgen.serve.uploads import WAITING
from tests.serve.conftest import another

PHONES = 20


def test_twenty_uploads_at_once_are_all_answered_and_kept(tmp_path: Path, demo: Any) -> None:
    assert PHONES <= WAITING
    app = create_app(tmp_path, reader=Reader())  # a plain reader (not conftest's ReadOnce): every upload is read

    async def night() -> tuple[list[httpx.Response], httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8420") as client:
            answers = await asyncio.gather(*(
                client.post("/api/score", files={"photo": ("p.jpg", another(demo.jpeg, n), "image/jpeg")},
                            data={"game": "Night", "player": f"Player {n % 6}"}) for n in range(PHONES)))
            return list(answers), await client.get("/api/games/Night/standings")

    answers, standings = asyncio.run(night())
    assert [a.status_code for a in answers] == [200] * PHONES
    ids = {a.json()["sheets"][0]["id"] for a in answers}
    assert len(ids) == PHONES
    players = standings.json()["players"]
    assert sorted(len(p["rounds"]) for p in players) == [3, 3, 3, 3, 4, 4]
    assert {r["sheet"] for p in players for r in p["rounds"]} == ids
