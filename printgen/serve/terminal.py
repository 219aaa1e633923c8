"""Starting the server from a terminal: `printgen serve`'s options in, the socket bound, its address (and QR code) printed and uvicorn running out.

Without `--lan` the server listens on 127.0.0.1 only and asks for no
token. With `--lan` it listens on every interface and prints the address
with its access token, also as a QR code a phone's camera opens. The token
is kept in the data folder (TOKEN_FILE, readable by its owner only), so
phones that scanned it once still get in after a restart; `--new-token`
makes another (every phone must scan again). The socket is bound here,
before uvicorn starts, so a port in use is one line of printgen's own.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from printgen.errors import PrintgenError, Terminated, UsageProblem

if TYPE_CHECKING:
    import uvicorn

DEFAULT_PORT = 8420
LOOPBACK = "127.0.0.1"
EVERYWHERE = "0.0.0.0"
"""Where `--lan` listens (and why it asks for a token)."""
MOST_CONNECTIONS = 64
"""Connections uvicorn serves at once; more are answered 503 (the upload queue has its own bound)."""
STOP_WAIT = 5
"""Seconds a stop (Ctrl-C) waits for requests still being answered (a reading, a build) before it cuts them."""
TOKEN_FILE = "lan-token"
"""The `--lan` access token, in the data folder (mode 0600)."""
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")
"""What a kept token must look like to be used again (else a new one is made)."""


def default_data() -> Path:
    """Where games are kept unless --data says: a `printgen` folder in the user's data directory."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "printgen"


def lan_address() -> str:
    """This machine's address on the local network (the route a packet out would take; none is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
        return str(probe.getsockname()[0])
    except OSError:
        return LOOPBACK
    finally:
        probe.close()


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port; PrintgenError (one line) when it cannot be had."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise PrintgenError(f"cannot listen on {host}:{port}: {error.strerror or error} (try --port)") from None
    sock.set_inheritable(True)
    return sock


def lan_token(folder: Path, new: bool = False) -> str:
    """The access token kept in `folder` (made, and kept readable by its owner only, when there is none, when
    it is not one, or when `new`)."""
    path = folder / TOKEN_FILE
    if not new:
        try:
            kept = path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            kept = ""
        if TOKEN.fullmatch(kept):
            os.chmod(path, 0o600)
            return kept
    token = secrets.token_urlsafe(18)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    fresh = path.with_name(f".{TOKEN_FILE}.{secrets.token_hex(4)}")
    descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as out:
        out.write(token + "\n")
    os.replace(fresh, path)
    return token


def config(app: Any) -> uvicorn.Config:
    """How uvicorn runs `app`: quiet, at most MOST_CONNECTIONS at once, headers timed (`connections`), a stop
    that waits STOP_WAIT seconds at most."""
    import uvicorn

    from printgen.serve.connections import Connection

    return uvicorn.Config(app, http=Connection, log_level="warning", access_log=False, server_header=False,
                          limit_concurrency=MOST_CONNECTIONS, timeout_keep_alive=5,
                          timeout_graceful_shutdown=STOP_WAIT)


def announce(address: str, token: str | None, out: TextIO) -> None:
    """Print where the server listens; with a token, the address with it and its QR code."""
    if token is None:
        print(f"printgen serve: open {address}/ (this computer only; --lan lets phones in)", file=out)
        return
    import segno

    url = f"{address}/?token={token}"
    print(f"printgen serve: open {url}", file=out)
    print("scan this with a phone on the same network:", file=out)
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)


def serve(data: Path | None, lan: bool, port: int, out: TextIO = sys.stdout, new_token: bool = False) -> None:
    """Run the server until Ctrl-C or SIGTERM (either is the normal way to stop it: exit 0)."""
    import uvicorn

    from printgen.serve.app import create_app

    if new_token and not lan:
        raise UsageProblem("--new-token: only with --lan (without it no token is asked for)")
    folder = data if data is not None else default_data()
    if folder.exists() and not folder.is_dir():
        raise UsageProblem(f"--data: {folder} is a file, not a folder")
    sock = bind(EVERYWHERE if lan else LOOPBACK, port)
    try:
        token = lan_token(folder, new_token) if lan else None
        app = create_app(folder, token)
    except (OSError, sqlite3.Error) as error:
        sock.close()
        why = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise PrintgenError(f"--data: {folder}: cannot keep games there ({why})") from None
    host = lan_address() if lan else LOOPBACK
    announce(f"http://{host}:{sock.getsockname()[1]}", token, out)
    print(f"games are kept in {folder}; Ctrl-C stops the server", file=out)
    out.flush()
    try:
        uvicorn.Server(config(app)).run(sockets=[sock])
    except (KeyboardInterrupt, Terminated):  # uvicorn has shut down cleanly, then passes the signal on
        pass
    finally:
        sock.close()
    print("printgen serve: stopped", file=out)
