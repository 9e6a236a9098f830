"""ASGI middleware in front of the app: the request size limit and the request log (method, path, status,
milliseconds) for every request, the refused ones included."""

from __future__ import annotations

import logging
import time

log = logging.getLogger("crewkg.server")


class _TooLarge(Exception):
    pass


class RequestGuard:
    """Refuses bodies over the limit with 413 (by Content-Length, or while streaming) and logs every request."""

    def __init__(self, app, max_body_bytes: int) -> None:
        self.app = app
        self.limit = max_body_bytes

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
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            await _plain(send_logged, 413, f"request body too large: {int(length)} bytes > limit of {self.limit} bytes")
            done()
            return
        try:
            await self.app(scope, self._limited(receive), send_logged)
        except _TooLarge:
            if not status["code"]:
                await _plain(send_logged, 413, f"request body too large: limit of {self.limit} bytes")
        finally:
            done()

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


async def _plain(send, code: int, text: str) -> None:
    body = text.encode("utf-8")
    await send({"type": "http.response.start", "status": code,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
