"""ASGI middleware in front of the app: the request size limit and the request log (method, path, status,
milliseconds) for every request, the refused ones included."""

from __future__ import annotations

import logging
import time

log = logging.getLogger("crewkg.server")


def host_name(header: str) -> str:
    """The host of a Host header without its port: 'localhost:8080' → 'localhost', '[::1]:80' → '::1'."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


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
