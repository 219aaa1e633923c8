"""`printgen serve` as a program: it prints where it listens, answers, keeps to 127.0.0.1 unless --lan (then a
token, kept for the next start, and its QR code), stops on Ctrl-C at once and quietly, and refuses a taken port or a file as --data in one line."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from printgen.serve.terminal import TOKEN_FILE, announce, default_data, lan_token

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def serving(*arguments: str) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """`printgen serve ARGUMENTS` running, and the lines it printed up to the one saying where games are kept."""
    process = subprocess.Popen([sys.executable, "-m", "printgen", "serve", *arguments], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines: list[str] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("games are kept in"):
                break
        yield process, lines
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def address_in(lines: list[str]) -> str:
    found = re.search(r"open (http://\S+)", lines[0])
    assert found, lines
    return found.group(1)


def test_serve_listens_on_127_0_0_1_prints_its_address_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    with serving("--port", "0", "--data", str(tmp_path / "night")) as (process, lines):
        address = address_in(lines)
        assert address.startswith("http://127.0.0.1:") and address.endswith("/")
        with urllib.request.urlopen(address) as answer:
            assert answer.status == 200 and b"Score a sheet" in answer.read()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert out.strip().endswith("printgen serve: stopped") and err == ""
    assert (tmp_path / "night" / "printgen.db").is_file()


def test_lan_asks_for_the_token_it_prints_and_shows_as_a_qr_code(tmp_path: Path) -> None:
    with serving("--lan", "--port", "0", "--data", str(tmp_path)) as (process, lines):
        address = address_in(lines)
        token = address.split("?token=", 1)[1]
        assert len(token) >= 20
        port = address.split(":")[2].split("/")[0]
        assert sum("█" in line or "▀" in line or "▄" in line for line in lines) > 10  # the QR code
        bare = f"http://127.0.0.1:{port}/"
        try:
            urllib.request.urlopen(bare)
            raise AssertionError("answered without the token")
        except urllib.error.HTTPError as refused:
            assert refused.code == 401
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # (it keeps the cookie)
        with browser.open(f"{bare}?token={token}") as answer:
            assert answer.status == 200 and answer.url == bare  # (the address keeps no token)
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
    assert process.returncode == 0


def test_a_taken_port_is_one_line_and_exit_1(tmp_path: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "printgen", "serve", "--port", str(port), "--data",
                               str(tmp_path)], check=False, cwd=ROOT, capture_output=True, text=True, timeout=60)
    finally:
        taken.close()
    assert done.returncode == 1
    assert done.stderr.startswith(f"Error: cannot listen on 127.0.0.1:{port}") and done.stderr.count("\n") == 1


def test_a_file_as_data_folder_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    done = subprocess.run([sys.executable, "-m", "printgen", "serve", "--port", "0", "--data", str(tmp_path / "file")],
                          check=False, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "is a file" in done.stderr


def test_games_are_kept_in_the_users_data_directory_by_default(monkeypatch: object) -> None:
    folder = default_data()
    assert folder.name == "printgen" and folder.is_absolute()


def test_announce_without_a_token_says_it_is_for_this_computer_only() -> None:
    out = io.StringIO()
    announce("http://127.0.0.1:8420", None, out)
    assert out.getvalue() == "printgen serve: open http://127.0.0.1:8420/ (this computer only; --lan lets phones in)\n"


def test_the_lan_token_is_kept_for_the_next_start_until_a_new_one_is_asked_for(tmp_path: Path) -> None:
    tokens = []
    for extra in ((), (), ("--new-token",)):
        with serving("--lan", "--port", "0", "--data", str(tmp_path), *extra) as (process, lines):
            address = address_in(lines)
            tokens.append(address.split("?token=", 1)[1])
            browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # (it keeps the cookie)
            with browser.open(address.replace(address.split("/")[2].split(":")[0], "127.0.0.1")) as page:
                assert page.status == 200  # (and the server is up: SIGTERM stops it as it should)
            process.send_signal(signal.SIGTERM)
            process.communicate(timeout=20)
        assert process.returncode == 0
        kept = tmp_path / TOKEN_FILE
        assert kept.read_text().strip() == tokens[-1] and stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert tokens[0] == tokens[1] != tokens[2]


def test_a_kept_token_readable_by_others_is_made_private_and_a_broken_one_replaced(tmp_path: Path) -> None:
    first = lan_token(tmp_path)
    os.chmod(tmp_path / TOKEN_FILE, 0o644)
    assert lan_token(tmp_path) == first and stat.S_IMODE((tmp_path / TOKEN_FILE).stat().st_mode) == 0o600
    (tmp_path / TOKEN_FILE).write_text("short\n")
    fresh = lan_token(tmp_path)
    assert fresh != first and len(fresh) >= 20 and lan_token(tmp_path) == fresh


def test_new_token_without_lan_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "printgen", "serve", "--new-token", "--port", "0", "--data",
                           str(tmp_path)], check=False, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--new-token" in done.stderr


def test_a_client_gone_mid_upload_and_a_stop_during_a_stalled_one_are_quiet(tmp_path: Path) -> None:
    head = ("POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
            "Content-Length: 100000\r\n\r\n--x\r\nContent-Disposition: form-data; name=\"game\"\r\n\r\nFriday\r\n")
    with serving("--port", "0", "--data", str(tmp_path)) as (process, lines):
        port = int(address_in(lines).split(":")[2].split("/")[0])
        with socket.create_connection(("127.0.0.1", port)) as gone:  # a phone that left mid-upload
            gone.sendall(head.encode())
            time.sleep(0.5)
        garbled = urllib.request.Request(f"http://127.0.0.1:{port}/api/score", data=b"garbage--zzz", method="POST",
                                         headers={"content-type": "multipart/form-data; boundary=zzz"})
        try:  # a garbled form: a 400 to the client, and nothing on the terminal
            urllib.request.urlopen(garbled)
        except urllib.error.HTTPError as refused:
            assert refused.code == 400
        stalled = socket.create_connection(("127.0.0.1", port))  # one still sending when the server stops
        stalled.sendall(head.encode())
        time.sleep(1)
        start = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        took = time.monotonic() - start
        stalled.close()
    assert process.returncode == 0 and err == ""  # no traceback, no warning
    assert out.strip().endswith("printgen serve: stopped") and took < 4
