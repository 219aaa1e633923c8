"""Shared fixtures of the server's tests: a reader that reads each picture once, a server on a fresh data folder, a
client, and the doubtful photo (once; the demo photo is tests/conftest.py's)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

NEEDS_SERVE = "printgen serve needs the serve and scan extras: pip install '.[serve,scan]' in printgen's folder"

for _module in ("cv2", "numpy", "starlette", "uvicorn", "multipart", "segno"):
    pytest.importorskip(_module, reason=NEEDS_SERVE)

from starlette.testclient import TestClient

from printgen.scan.reader import Reader
from printgen.serve.app import create_app
from tests.conftest import made_once
from tests.scan.read_once import ReadOnce


@pytest.fixture(scope="session")
def reader() -> Reader:
    """The server's reader in these tests: one that reads each picture once (ReadOnce). These tests upload copies
    of the demo photo dozens of times to test what the server does with a reading."""
    return ReadOnce()


@pytest.fixture
def make_client(tmp_path: Path, reader: Reader) -> Iterator[Callable[..., TestClient]]:
    """Clients of servers on one data folder (`tmp_path/data`): each call starts another server there."""
    opened: list[TestClient] = []

    def make(**options: Any) -> TestClient:
        client = TestClient(create_app(tmp_path / "data", reader=reader, **options), base_url="http://127.0.0.1:8420")
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


def another(photo: bytes, n: int) -> bytes:
    """Photo `photo` with `n` bytes more after its end (ignored by any JPEG reader): another photo of the same
    sheet, as the server tells uploads apart by their bytes."""
    return photo + b"\0" * n


def upload(client: TestClient, photo: bytes, game: str = "Friday", player: str = "Anna",
           kind: str = "image/jpeg") -> Any:
    """POST /api/score as a phone's form does."""
    return client.post("/api/score", files={"photo": ("IMG_0001.jpg", photo, kind)},
                       data={"game": game, "player": player})


@pytest.fixture(scope="session")
def doubtful(request: pytest.FixtureRequest) -> bytes:
    from tests.serve.doubtful import doubtful_photo

    return made_once(request, "doubtful", doubtful_photo)
