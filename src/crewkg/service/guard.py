"""What stands in front of the app: the ASGI middleware (the Host check, the request size limit and the request log —
method, path, status, milliseconds — for every request, the refused ones included) and the HTTP protocol under it,
uvicorn's with a deadline for each request's head and body (no slowloris) and a bound on the head's size, on the
httptools parser where it is installed and on h11 where not (`bounded_http`)."""

from __future__ import annotations

import logging
import re
import time
from typing import Any

log = logging.getLogger("crewkg.server")


#: a Host header as RFC 9110 § 7.2 has it: a name or an IPv4 address (a trailing dot allowed) or an IPv6 literal in
#: brackets, then at most a port: nothing else (`localhost:80@evil.example` was read as 'localhost', issue 44)
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?\.?)(?::([0-9]{1,5}))?")


def host_name(header: str) -> str | None:
    """The host of a Host header without its port: 'localhost:8080' → 'localhost', '[::1]:80' → '::1'; None for a
    header that is no host (user information, a path, a second port, a port past 65535)."""
    m = _HOST.fullmatch(header.strip().lower())
    if m is None or (m.group(2) is not None and int(m.group(2)) > 65535):
        return None
    name = m.group(1)
    return name[1:-1] if name.startswith("[") else name.rstrip(".")


class _TooLarge(Exception):
    pass


class RequestGuard:
    """Refuses bodies over the limit with 413 (by Content-Length, or while streaming) and logs every request."""

    def __init__(self, app, max_body_bytes: int, allowed_hosts: tuple[str, ...] | None = None) -> None:
        self.app = app
        self.limit = max_body_bytes
        self.hosts = None if allowed_hosts is None else {h.lower() for h in allowed_hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        start = time.perf_counter()
        status = {"code": 0}

        async def send_logged(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        def done() -> None:
            client = scope.get("client") or ("-", 0)
            log.info("%s %s %s %d %.1f ms", client[0], scope["method"], scope["path"], status["code"],
                     (time.perf_counter() - start) * 1000)

        headers = dict(scope.get("headers") or [])
        if self.hosts is not None and host_name(headers.get(b"host", b"").decode("latin-1")) not in self.hosts:
            await _plain(send_logged, 400, "this service does not answer to that Host name (crewkg serve --allow-host)")
            done()
            return
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            await _plain(send_logged, 413, f"request body too large: {int(length)} bytes > limit of {self.limit} bytes")
            done()
            return
        try:
            if length is None and scope["method"] in ("POST", "PUT", "PATCH"):
                # a body without Content-Length (chunked) is read here, up to the limit, before the app sees it:
                # refused inside the app, the app's own error handler would already have answered 500
                receive = await self._buffered(receive)
            await self.app(scope, self._limited(receive), send_logged)
        except _TooLarge:
            if not status["code"]:
                await _plain(send_logged, 413, f"request body too large: limit of {self.limit} bytes")
        finally:
            done()

    async def _buffered(self, receive):
        """The whole body, read now (raising _TooLarge past the limit), handed on as one message."""
        chunks, seen = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return _replay([message], receive)
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                return _replay([{"type": "http.request", "body": b"".join(chunks), "more_body": False}], receive)

    def _limited(self, receive):
        """`receive` that raises _TooLarge once the body read so far passes the limit."""
        seen = 0

        async def receive_limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        return receive_limited


def _replay(messages: list[dict], then):
    """A `receive` that gives these messages, then the server's own (which waits for the client to disconnect)."""
    queue = list(messages)

    async def receive():
        if queue:
            return queue.pop(0)
        return await then()

    return receive


async def _plain(send, code: int, text: str) -> None:
    body = text.encode("utf-8")
    await send({"type": "http.response.start", "status": code,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class _Coalesced:
    """A connection's transport whose writes of one turn of the event loop leave as one send. uvicorn writes an
    answer's head and its body apart, two sends where one does; on loopback a send costs the sender the receiver's
    side too, and it was the event loop's largest single cost under the warm load mix (a quarter of its time,
    docs/service.md). What is written is sent when the answer is complete (`flush`, from the protocol), or when the
    connection is closed, or at the latest before the loop turns again (a streamed body's parts); everything else is
    the transport's own."""

    __slots__ = ("_loop", "_pending", "_size", "_transport")

    #: bytes held at most: a larger answer (a streamed export, a file) goes on to the transport as it is written, so
    #: that it is never held whole twice, and its flow control (pause_writing) sees it
    HELD = 65_536

    def __init__(self, transport: Any, loop: Any) -> None:
        self._transport, self._loop, self._pending, self._size = transport, loop, [], 0

    def write(self, data: bytes) -> None:
        if not data:
            return
        if not self._pending:
            self._loop.call_soon(self.flush)
        self._pending.append(bytes(data))
        self._size += len(data)
        if self._size > self.HELD:
            self.flush()

    def writelines(self, lines) -> None:
        for data in lines:
            self.write(data)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def flush(self) -> None:
        if not self._pending:
            return
        data = self._pending[0] if len(self._pending) == 1 else b"".join(self._pending)
        self._pending.clear()
        self._size = 0
        if not self._transport.is_closing():
            self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _Bounded:
    """The deadlines of a connection, for the protocol of either parser (mixed in before uvicorn's class): a head not
    complete `head_seconds` after the connection opened or the previous answer was sent is answered 408 and the
    connection closed; a body not complete `body_seconds` after its head ends the connection (the app reads a
    disconnect). A request read whole is the app's, unbounded here. The parser's subclass says when a head and a body
    were read whole (`_head_read`, `_body_read`); the rest is here, once. Writes are coalesced (`_Coalesced`)."""

    head_seconds: float
    body_seconds: float
    loop: Any
    transport: Any
    _deadline: Any = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self.transport = _Coalesced(transport, self.loop)
        self._arm(self.head_seconds, self._head_too_slow)

    def on_response_complete(self) -> None:
        self.transport.flush()  # now, not a turn of the loop later: /health waited a whole turn more
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._arm(self.head_seconds, self._head_too_slow)  # the next request's head (or uvicorn's keep-alive)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def _head_read(self, more_body: bool) -> None:
        if more_body:
            self._arm(self.body_seconds, self._body_too_slow)
        else:
            self._disarm()

    def _body_read(self) -> None:
        self._disarm()

    def _arm(self, seconds: float, then) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, then)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _head_too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        body = b"request head not complete in time"
        self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                             b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        self.transport.close()

    def _body_too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def bounded_h11(head_seconds: float, body_seconds: float) -> type:
    """uvicorn's h11 protocol with a deadline for each request's head and for its body (`_Bounded`; slowloris, issue
    44: 301 half-sent requests were held open for as long as their senders liked; uvicorn bounds only an idle
    keep-alive connection, and not even the first request's). The head's size is h11's to bound (uvicorn's
    `h11_max_incomplete_event_size`)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedH11Protocol(_Bounded, H11Protocol):
        def connection_made(self, transport) -> None:  # type: ignore[override]
            self._cycle_seen = None
            super().connection_made(transport)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            cycle = self.cycle  # h11 has no callbacks: a new cycle is a head read whole
            if cycle is not None and cycle is not self._cycle_seen:
                self._cycle_seen = cycle
                self._head_read(cycle.more_body)
            elif cycle is not None and not cycle.more_body and self._deadline is not None and not cycle.response_complete:
                self._body_read()

    BoundedH11Protocol.head_seconds, BoundedH11Protocol.body_seconds = head_seconds, body_seconds
    return BoundedH11Protocol


def bounded_httptools(head_seconds: float, body_seconds: float, head_bytes: int) -> type:
    """uvicorn's protocol on the httptools parser (llhttp: a fraction of h11's cost a request, which in the warm load
    mix was a sixth of the event loop's time) with the same deadlines (`_Bounded`), and a bound on the head's size,
    which h11 has and llhttp has not (it hands on a URL or a header whole, however long): a head still incomplete
    past `head_bytes` is answered 400 and the connection closed, as h11 answers it. The bytes of a head are counted
    from the read in which it began — from its first byte, or, when another request ended in that read, from the next
    read — so a head is refused at `head_bytes`, or at most one read (256 KiB) later."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class BoundedHttpToolsProtocol(_Bounded, HttpToolsProtocol):
        def connection_made(self, transport) -> None:  # type: ignore[override]
            self._head_open, self._head_bytes, self._heads, self._ended_in_read = False, 0, 0, False
            super().connection_made(transport)

        def data_received(self, data: bytes) -> None:
            heads, self._ended_in_read = self._heads, False
            super().data_received(data)
            if not self._head_open or self.transport.is_closing():
                return
            if self._heads == heads:
                self._head_bytes += len(data)
            else:  # the head began in this read
                self._head_bytes = 0 if self._ended_in_read else len(data)
            if self._head_bytes > head_bytes:
                self._disarm()
                self.send_400_response("Invalid HTTP request received.")

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._head_open, self._heads = True, self._heads + 1

        def on_headers_complete(self) -> None:
            self._head_open = False
            super().on_headers_complete()
            self._head_read(True)  # no body: on_message_complete follows at once

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._ended_in_read = True
            if self._deadline is not None and self.cycle is not None and not self.cycle.response_complete:
                self._body_read()

    BoundedHttpToolsProtocol.head_seconds, BoundedHttpToolsProtocol.body_seconds = head_seconds, body_seconds
    return BoundedHttpToolsProtocol


def bounded_http(head_seconds: float, body_seconds: float, head_bytes: int) -> type:
    """The protocol `crewkg serve` runs: on httptools where it is installed (the `service` extra installs it), else on
    h11, bounded alike. uvicorn must be given `h11_max_incomplete_event_size=head_bytes` too, for h11's bound."""
    try:
        import httptools  # noqa: F401
    except ImportError:
        return bounded_h11(head_seconds, body_seconds)
    return bounded_httptools(head_seconds, body_seconds, head_bytes)
