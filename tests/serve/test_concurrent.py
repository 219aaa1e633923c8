"""Twenty phones at once: every upload is answered and every sheet kept, read two at a time by the warm reader."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from printgen.scan.reader import Result
from printgen.serve.app import create_app
from printgen.serve.uploads import WAITING, WORKERS
from tests.scan.read_once import ReadOnce
from tests.serve.conftest import another

PHONES = 20


class Counted(ReadOnce):
    """ReadOnce, counting the pictures it is handed and the most it reads for real at once. All twenty uploads
    are the same photo: the first two are read at once, for real, and the others wait for them and get copies."""

    def __init__(self) -> None:
        super().__init__()
        self.handed = self.reading = self.most = 0

    def read_image(self, image: np.ndarray, name: str) -> list[Result]:
        with self.lock:
            self.handed += 1
        return super().read_image(image, name)

    def first_reading(self, image: np.ndarray, name: str) -> list[Result]:
        with self.lock:
            self.reading += 1
            self.most = max(self.most, self.reading)
        try:
            return super().first_reading(image, name)
        finally:
            with self.lock:
                self.reading -= 1


def test_twenty_uploads_at_once_are_all_answered_and_kept(tmp_path: Path, demo: Any) -> None:
    assert PHONES <= WAITING
    reader = Counted()
    app = create_app(tmp_path, reader=reader)

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
    assert reader.handed == PHONES and reader.most == WORKERS, "every upload is read, two at a time"
