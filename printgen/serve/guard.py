"""The network rules every request meets: an ASGI request in, refused with a JSON error (401, 403, 408, 413) or passed on with security headers added out.

- Access token (`--lan`): given once as `?token=...` (the address the
  terminal prints and its QR code), then kept in a same-site cookie; or as
  `Authorization: Bearer ...`. None: 401; a wrong one: 403. Compared in
  constant time.
- Host: without a token (the server listens on 127.0.0.1 only) a request
  must name this computer (`127.0.0.1`, `localhost`, `[::1]`) as its host,
  so a web page whose name was re-pointed at 127.0.0.1 (DNS rebinding)
  gets nothing (403).
- Cross-site requests: a request that changes anything (POST and the like)
  is refused (403) when the browser says it comes from another site
  (`Sec-Fetch-Site`) or names another origin (`Origin`), so a page elsewhere
  cannot make a phone's browser post to the server (CSRF). Clients that are
  not browsers send neither and pass.
- Size: a body larger than `max_body` is refused with 413, by its
  Content-Length before it is received and by counting as it arrives.
- Time: a body that stops arriving for BODY_WAIT seconds (a phone that left
  the Wi-Fi), or that comes slower than BODY_RATE once it has taken that
  long (someone holding a slot by sending a byte now and then), is given up
  with 408, so it holds no place in the reading queue.
- Headers on every answer: a content security policy allowing only this
  server's own scripts, styles and pictures, no framing, no sniffing, no
  referrer (the address may hold the token).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from html import escape
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs, parse_qsl, quote, urlencode, urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "printgen_token"
LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
"""The host names a server without a token answers to."""
HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:[0-9]{1,5})?")
"""A Host header: a name or an IPv4 or bracketed IPv6 address, and maybe a port."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
HEADERS = [
    (b"content-security-policy", (b"default-src 'self'; img-src 'self' blob: data:; style-src 'self'; "
                                  b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                                  b"form-action 'self'; base-uri 'none'; object-src 'none'")),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


COOKIE_AGE = 30 * 24 * 3600
"""Seconds a phone keeps the access token's cookie: past the browser's session (a bookmark opened next week
gets in; the token itself lasts until --new-token)."""
BODY_WAIT = 20.0
"""Seconds a request body may pause between two of its parts..."""
BODY_RATE = 8 * 1024
"""...and bytes a second it must come at on average once it has taken that long (a phone on a poor 2G link
sends more; a client holding an upload slot by sending a byte now and then, less)."""


class TooLarge(Exception):
    """A request body went past the limit while it was being received."""


class TooSlow(Exception):
    """A request body stopped arriving for BODY_WAIT seconds, or came slower than BODY_RATE; its message says
    which."""

    def __init__(self, stalled: bool) -> None:
        super().__init__(f"the upload stalled: nothing arrived for {BODY_WAIT:.0f} s" if stalled else
                         f"the upload came too slowly: less than {BODY_RATE // 1024} kB a second")


class Guard:
    """Wraps the app in the rules above; `token` None: no token is asked for (the server listens on
    127.0.0.1 only)."""

    def __init__(self, app: App, token: str | None, max_body: int) -> None:
        self.app = app
        self.token = token
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        set_cookie = False
        if self.token is None and _host_name(headers.get("host", "")) not in LOCAL_NAMES:
            await _refuse(send, 403, "refused: without --lan this server answers only to 127.0.0.1 and localhost")
            return
        if self.token is not None:
            given, from_query = _token(scope, headers)
            page = "text/html" in headers.get("accept", "") and scope["method"] == "GET"  # (a browser's page)
            if not given:
                await _refuse(send, 401, "this server needs its access token: open the address with ?token= that "
                                         "printgen serve printed", page)
                return
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                await _refuse(send, 403, "wrong access token", page)
                return
            set_cookie = from_query
            if from_query and scope["method"] == "GET" and not scope["path"].startswith(("/api/", "/static/")):
                await _without_token(scope, send, self.token)  # (a page: its address keeps no token)
                return
        if scope["method"] not in SAFE_METHODS and _cross_site(headers):
            await _refuse(send, 403, "refused: the request came from another site")
            return
        length = headers.get("content-length", "")
        if length.isascii() and length.isdigit() and int(length) > self.max_body:
            await _refuse(send, 413, f"too large: at most {self.max_body // 2**20} MB")
            return
        started = False
        received = 0
        complete = False
        began: float | None = None

        async def counted() -> Message:
            nonlocal received, complete, began
            if complete:  # after the body only a disconnect comes, whenever it comes
                return await receive()
            clock = asyncio.get_running_loop().time
            began = clock() if began is None else began
            try:
                message = await asyncio.wait_for(receive(), BODY_WAIT)
            except TimeoutError:
                raise TooSlow(stalled=True) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise TooLarge
                complete = not message.get("more_body", False)
                taken = clock() - began
                if not complete and taken > BODY_WAIT and received < BODY_RATE * taken:
                    raise TooSlow(stalled=False)
            return message

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                extra = list(HEADERS)
                if set_cookie and self.token is not None:
                    extra.append((b"set-cookie", _cookie(self.token)))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            await self.app(scope, counted, with_headers)
        except TooLarge:
            if not started:
                await _refuse(send, 413, f"too large: at most {self.max_body // 2**20} MB")
        except TooSlow as slow:
            if not started:
                await _refuse(send, 408, str(slow))


def _token(scope: Scope, headers: dict[str, str]) -> tuple[str, bool]:
    """The token a request gives, and whether it came in the address."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if query.get("token"):
        return query["token"][0], True
    authorization = headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip(), False
    cookie: SimpleCookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except CookieError:  # a malformed cookie header gives no token
        return "", False
    morsel = cookie.get(COOKIE)
    return (morsel.value if morsel else ""), False


def _host_name(host: str) -> str:
    """The name in a Host header, without its port."""
    host = host.strip().lower()
    if not HOST.fullmatch(host):  # (`localhost:80@evil` is no name of this computer)
        return ""
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _cross_site(headers: dict[str, str]) -> bool:
    """Whether a browser says this request comes from a page of another site (or origin)."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return True
    origin = headers.get("origin")
    if origin is None:
        return False
    if origin == "null":  # (a form posted without JavaScript under `Referrer-Policy: no-referrer` says null too:
        return fetch_site != "same-origin"  # the browser's own same-origin is trusted; a sandboxed frame's is not)
    return urlsplit(origin).netloc.lower() != headers.get("host", "").lower()


async def _without_token(scope: Scope, send: Send, token: str) -> None:
    """A page opened with ?token=: to the same address without it (which the browser's address bar, history and
    bookmarks then keep), the token set as the cookie that lets the browser in from then on."""
    query = [(k, v) for k, v in parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
             if k != "token"]
    target = quote(scope["path"]) + (f"?{urlencode(query)}" if query else "")
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", target.encode("latin-1")), (b"content-length", b"0"), *HEADERS,
                            (b"set-cookie", _cookie(token))]})
    await send({"type": "http.response.body", "body": b""})


def _cookie(token: str) -> bytes:
    """The Set-Cookie value that keeps the access token in a phone's browser (COOKIE_AGE)."""
    return f"{COOKIE}={token}; Path=/; Max-Age={COOKIE_AGE}; HttpOnly; SameSite=Strict".encode()


ASK_FOR_THE_TOKEN = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
                     "content=\"width=device-width, initial-scale=1\"><title>printgen: access token needed</title>"
                     "</head><body><h1>printgen"
                     "</h1><p>{error}.</p><p>Scan the QR code that <code>printgen serve --lan</code> shows in its "
                     "window, or open the address it printed (it ends in <code>?token=</code>): this phone then "
                     "stays let in for 30 days.</p></body></html>")
"""What a browser's page gets instead of a refusal's JSON line when the access token is missing or wrong (a
bookmark opened after the cookie has gone showed raw JSON)."""


async def _refuse(send: Send, status: int, error: str, page: bool = False) -> None:
    """One line of JSON `{"error": ...}` with `status` (or, for a browser's `page`, ASK_FOR_THE_TOKEN)."""
    if page:
        words = escape(error[:1].upper() + error[1:])
        body, kind = ASK_FOR_THE_TOKEN.format(error=words).encode(), b"text/html; charset=utf-8"
    else:
        body, kind = json.dumps({"error": error}, separators=(",", ":")).encode(), b"application/json"  # (as the app's)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})
