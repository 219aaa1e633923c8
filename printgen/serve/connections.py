"""Connections as uvicorn holds them: bytes from a socket in, requests for the app out, with a time limit on headers, a share per device, JSON refusals and a prompt stop.

uvicorn's own HTTP/1.1 protocol (h11) is used, with five changes:

- Headers have HEADER_WAIT seconds: a connection that has not sent a whole
  request head that long after it opened (or after its last answer) is
  closed. Without this, MOST_CONNECTIONS connections that send half a
  request and wait would keep every phone out (slowloris). Once the head
  has arrived, `guard.Guard` times the body.
- Too many connections at once (`limit_concurrency`): 503 as one line of
  JSON, like every other refusal, instead of uvicorn's plain text.
- One device (any address but loopback's) holds at most PER_DEVICE of
  them: a connection past that is closed as it opens, so a single phone or
  laptop on the network cannot take every place.
- A request uvicorn cannot parse: 400 as one line of JSON.
- At shutdown (Ctrl-C), a connection whose request body is still arriving
  is cut: its handler sees the client go away at once, instead of the
  server waiting for an upload that may never finish.

The class is passed to `uvicorn.Config(http=...)` by `terminal.config`, so
it is the same whether or not uvicorn would have picked httptools.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from printgen.serve.guard import HEADERS

HEADER_WAIT = 10.0
"""Seconds a connection has to send a request's head (method, address and headers)."""
PER_DEVICE = 16
"""Connections one address other than loopback's may hold at once (a browser opens about six to a
server; the server holds 64 in all, `terminal.MOST_CONNECTIONS`)."""
BUSY = "busy: too many connections at once; try again in a moment"
MALFORMED = "malformed request: this server speaks HTTP/1.1"


class Connection(H11Protocol):
    """uvicorn's h11 protocol with the changes above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.most = self.limit_concurrency  # enforced below, in JSON
        self.limit_concurrency = None
        self.app = self._limited(self.app)
        self.header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self._one_too_many():
            transport.close()
            return
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_in()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self._in_request():
            self._headers_in()

    def on_response_complete(self) -> None:
        self._await_headers()  # before the next request's head is looked for (it may be here already)
        super().on_response_complete()

    def shutdown(self) -> None:
        if self._in_request() and self.cycle.more_body and not self.cycle.response_started:
            self.transport.close()  # a body still arriving: its handler sees a disconnect
            return
        super().shutdown()

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse: answered 400 in JSON, then the connection closed."""
        body = json.dumps({"error": MALFORMED}).encode()
        head = h11.Response(status_code=400, reason=b"Bad Request", headers=[
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"), *HEADERS])
        try:
            self.transport.write(self.conn.send(head) + self.conn.send(h11.Data(data=body)) +
                                 self.conn.send(h11.EndOfMessage()))
        except h11.LocalProtocolError:  # h11 cannot answer in this state: close without a word
            pass
        self.transport.close()

    def _one_too_many(self) -> bool:
        """Whether this connection's device (not loopback: `limited_device`) already holds PER_DEVICE
        connections besides it."""
        if self.client is None or not limited_device(self.client[0]):
            return False
        host = self.client[0]
        held = [getattr(other, "client", None) for other in self.connections]
        return sum(1 for client in held if client and client[0] == host) > PER_DEVICE

    def _in_request(self) -> bool:
        """Whether a request's head has arrived and its answer is not complete."""
        return self.cycle is not None and not self.cycle.response_complete

    def _await_headers(self) -> None:
        self._headers_in()
        self.header_timer = self.loop.call_later(HEADER_WAIT, self._headers_late)

    def _headers_in(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _headers_late(self) -> None:
        self.header_timer = None
        if not self._in_request() and not self.transport.is_closing():
            self.transport.close()

    def _limited(self, app: Any) -> Any:
        connections, tasks, most = self.connections, self.tasks, self.most

        async def limited(scope: Any, receive: Any, send: Any) -> None:
            # this request's own connection and task are counted: at most `most` of each, itself included
            if most is not None and (len(connections) > most or len(tasks) > most):
                body = json.dumps({"error": BUSY}).encode()
                await send({"type": "http.response.start", "status": 503, "headers": [
                    (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"), *HEADERS]})
                await send({"type": "http.response.body", "body": body})
                return
            await app(scope, receive, send)

        return limited


def limited_device(host: str) -> bool:
    """Whether connections from `host` count against PER_DEVICE: every address but loopback's (127.0.0.1, ::1),
    whose users are all one address. (This computer's own browser at the --lan address is a device too.)"""
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:  # (a Unix socket's path)
        return False
