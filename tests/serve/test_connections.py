"""A real server on loopback, spoken to through raw sockets: a connection that does not finish its request head in
time is closed (so half-open connections cannot lock phones out), refusals by the server itself are JSON, and a
stop does not wait for an upload whose body stopped arriving."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
import uvicorn

from printgen.scan.reader import Reader
from printgen.serve import connections
from printgen.serve.app import create_app
from printgen.serve.terminal import bind, config

WAIT = 1.0
"""The head's time limit in these tests (HEADER_WAIT, 10 s in use)."""
MOST = 4
"""Connections at once in these tests (MOST_CONNECTIONS, 64 in use)."""
HEAD = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"


class Running(NamedTuple):
    port: int
    server: uvicorn.Server
    thread: threading.Thread


@pytest.fixture
def server(tmp_path: Path, reader: Reader, monkeypatch: pytest.MonkeyPatch) -> Iterator[Running]:
    """A server as `printgen serve` runs it (its uvicorn config), in a thread."""
    monkeypatch.setattr(connections, "HEADER_WAIT", WAIT)
    sock = bind("127.0.0.1", 0)
    settings = config(create_app(tmp_path / "data", reader=reader))
    settings.limit_concurrency = MOST
    running = uvicorn.Server(settings)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield Running(sock.getsockname()[1], running, thread)
    running.should_exit = True
    thread.join(30)
    sock.close()


def connect(port: int, sent: bytes = b"") -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=10)
    if sent:
        client.sendall(sent)
    return client


def answer(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one request sent whole on a new connection (closed by the request)."""
    with connect(port, request) as client:
        data = b""
        while chunk := client.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def closed_within(client: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed `client` (reading nothing from it), or None if it did not within `seconds`."""
    start = time.monotonic()
    client.settimeout(seconds)
    try:
        while client.recv(4096):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - start


GAMES = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def test_half_open_connections_are_closed_and_let_others_in(server: Running) -> None:
    port = server.port
    held = [connect(port, HEAD) for _ in range(MOST - 1)] + [connect(port)]  # half a head, and nothing at all
    time.sleep(0.2)
    status, headers, body = answer(port, GAMES)  # every place is taken: refused, in JSON
    assert status == 503 and headers["content-type"] == "application/json"
    assert json.loads(body) == {"error": connections.BUSY}
    for client in held:
        took = closed_within(client, WAIT + 5)
        assert took is not None and took < WAIT + 2, "a connection without a whole head was kept"
        client.close()
    status, _, body = answer(port, GAMES)
    assert status == 200 and json.loads(body) == {"games": []}


def test_one_device_holds_at_most_its_share_of_the_connections(server: Running,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone or laptop on the network that opens connection after connection keeps the rest for the others
    (the test's own address, loopback, is taken for such a device here)."""
    monkeypatch.setattr(connections, "limited_device", lambda host: True)
    monkeypatch.setattr(connections, "PER_DEVICE", 2)
    monkeypatch.setattr(connections, "HEADER_WAIT", 30.0)  # (no head timing out: only the share closes one)
    first, second = connect(server.port), connect(server.port)
    with connect(server.port) as third:
        took = closed_within(third, 10)
        assert took is not None, "a device held more than its share"
    second.close()
    deadline = time.monotonic() + 10
    while True:  # a place again, once the server has seen the second go
        try:
            status, _, body = answer(server.port, GAMES)
            break
        except (IndexError, ValueError, ConnectionError):  # (closed as it opened: not yet)
            assert time.monotonic() < deadline, "the place of a closed connection was not given back"
            time.sleep(0.05)
    assert status == 200 and json.loads(body) == {"games": []}
    first.close()


def test_only_this_computer_is_free_of_the_limit_a_device_has() -> None:
    assert [connections.limited_device(host) for host in ("127.0.0.1", "::1", "192.168.1.20", "fe80::1")] == [
        False, False, True, True]


def test_a_head_sent_a_byte_at_a_time_gets_no_more_time(server: Running) -> None:
    port = server.port
    with connect(port) as client:
        start = time.monotonic()
        try:
            for byte in HEAD * 10:
                client.send(bytes([byte]))
                time.sleep(0.05)
                assert time.monotonic() - start < WAIT + 2, "the trickle was let go on"
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert closed_within(client, WAIT + 2) is not None


def test_a_kept_alive_connection_has_the_same_limit_for_its_next_head(server: Running) -> None:
    port = server.port
    with connect(port, HEAD + b"\r\n") as client:
        assert client.recv(65536).startswith(b"HTTP/1.1 200")
        client.sendall(HEAD)  # the next request's head, never finished
        assert closed_within(client, WAIT + 5) is not None


@pytest.mark.parametrize("request_bytes, status", [
    (b"NOT HTTP AT ALL\r\n\r\n", 400),
    (b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nbad header line\r\n\r\n", 400),
    (b"GET /api/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 404),
    (b"DELETE /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 405),
])
def test_the_servers_own_refusals_are_json(server: Running, request_bytes: bytes,
                                           status: int) -> None:
    got, headers, body = answer(server.port, request_bytes)
    assert got == status and headers["content-type"] == "application/json"
    (message,) = json.loads(body).values()
    assert list(json.loads(body)) == ["error"] and "\n" not in message


def test_a_stop_does_not_wait_for_an_upload_that_stalled(server: Running) -> None:
    port, running, thread = server
    head = (b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
            b"Content-Length: 100000\r\n\r\n--x\r\nContent-Disposition: form-data; name=\"game\"\r\n\r\nFriday\r\n")
    with connect(port, head) as client:
        time.sleep(0.3)
        start = time.monotonic()
        running.should_exit = True
        thread.join(10)
        assert not thread.is_alive() and time.monotonic() - start < 3, "the stop waited for the stalled upload"
        assert closed_within(client, 1) is not None
