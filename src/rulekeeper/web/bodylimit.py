"""Request bodies are capped before they are read (a 100 MB body used to be read in full first).

A pure ASGI middleware: a declared ``Content-Length`` over the cap is refused at once, and a
body sent without one (chunked) is counted as it arrives and cut off at the cap. The answer is
the project's error format, 413 ``too_large``.
"""

from __future__ import annotations

import json
from typing import Any

#: The largest body the keeper accepts: the new-battle form with two pasted musters is the biggest.
MAX_BODY = 128 * 1024

Scope = dict[str, Any]
Message = dict[str, Any]


class BodyLimit:
    def __init__(self, app: Any, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await self._refuse(send)
            return
        seen = 0
        over = False
        refused = False
        started = False  # an answer already under way is left alone

        async def counted() -> Message:
            nonlocal seen, over
            message: Message = await receive()  # after the cut: only a disconnect is still awaited
            if message["type"] == "http.request" and not over:
                seen += len(message.get("body", b""))
                if seen > self.max_body and not started:  # cut the body off here; the answer is replaced below
                    over = True
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def watched(message: Message) -> None:
            nonlocal refused, started
            if not over:
                started = started or message["type"] == "http.response.start"
                await send(message)
            elif not refused:  # whatever the app answered to a cut-off body, the client gets the 413
                refused = True
                await self._refuse(send)

        await self.app(scope, counted, watched)

    async def _refuse(self, send: Any) -> None:
        body = json.dumps({"error": "too_large",
                           "message": f"the request body is larger than {self.max_body:,} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
