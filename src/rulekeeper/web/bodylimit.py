"""Request bodies are capped before they are read (a 100 MB body used to be read in full first).

A pure ASGI middleware: a declared ``Content-Length`` over the cap is refused at once, and a
body sent without one (chunked) is counted as it arrives and cut off at the cap. The answer is
the project's error format, 413 ``too_large`` — or, to a browser asking for a page (``Accept: text/html``),
a readable page saying the same: a form post used to replace the page with raw JSON.

One path has its own cap: ``/verify`` takes a battle export, up to :data:`MAX_EXPORT_BODY` (issue 26: a
36-action Ex illis starter battle exports to 739 KB, past the 128 KiB every other body is held to).

Bounded in time too: a body must arrive within :data:`BODY_TIMEOUT` seconds of the first read
of it (1,000 slow-body connections were held 60–90 s), else 408 ``too_slow``.  A client that
goes away mid-body is one line in the log, not a ``ClientDisconnect`` traceback (1,000 aborted
slow POSTs wrote 86,000 lines).  The head's own timeout is the server's (:mod:`.server`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulekeeper.core.wording import noun_for

log = logging.getLogger("rulekeeper.web")

#: Seconds a request body may take to arrive, from the first read of it.
BODY_TIMEOUT = float(os.environ.get("RULEKEEPER_BODY_TIMEOUT") or 20.0)

#: The largest body the keeper accepts: the new-battle form with two pasted musters is the biggest.
MAX_BODY = 128 * 1024
#: The largest export ``POST /verify`` takes: above the largest export the keeper writes (docs/web.md).
MAX_EXPORT_BODY = 32 * 1024 * 1024
#: Paths whose bodies may be larger than :data:`MAX_BODY`, and their own cap.
PATH_LIMITS = {"/verify": MAX_EXPORT_BODY}



class BodyLimit:
    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY, paths: dict[str, int] | None = None,
                 body_timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.max_body = max_body
        self.paths = PATH_LIMITS if paths is None else paths
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        cap = self.paths.get(scope.get("path", ""), self.max_body)
        page = b"text/html" in headers.get(b"accept", b"")
        if declared is not None and (not declared.isdigit() or int(declared) > cap):
            await self._refuse(send, cap, page)
            return
        seen = 0
        over = False
        slow = False
        complete = False  # the whole body is in: later reads only wait for a disconnect, unbounded
        refused = False
        started = False  # an answer already under way is left alone
        deadline: float | None = None

        async def counted() -> Message:
            nonlocal seen, over, slow, complete, deadline
            if complete or over:
                return dict(await receive())  # after the cut: only a disconnect is still awaited
            deadline = deadline or time.monotonic() + self.body_timeout
            try:
                message: Message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                slow = over = True  # the answer is replaced below, by a 408
                return {"type": "http.request", "body": b"", "more_body": False}
            if message["type"] != "http.request" or not message.get("more_body", False):
                complete = True
            if message["type"] == "http.request" and not over:
                seen += len(message.get("body", b""))
                if seen > cap and not started:  # cut the body off here; the answer is replaced below
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
                await self._refuse(send, cap, page, slow)

        try:
            await self.app(scope, counted, watched)
        except ClientDisconnect:
            log.warning("client went away before its request was read: %s %s", scope.get("method"), scope.get("path"))

    async def _refuse(self, send: Send, cap: int, page: bool, slow: bool = False) -> None:
        message = f"the request body is larger than {cap:,} {noun_for(cap, 'byte')}"
        if slow:
            body = json.dumps({"error": "too_slow", "message": f"the request body did not arrive within "
                                                               f"{self.body_timeout:g} s"}).encode()
            await send({"type": "http.response.start", "status": 408,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        if page:
            body = _PAGE.format(cap=f"{cap // 1024:,}").encode()
            ctype = b"text/html; charset=utf-8"
        else:
            body = json.dumps({"error": "too_large", "message": message}).encode()
            ctype = b"application/json"
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", ctype), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


#: The refusal a browser reads (no template: the body was never read, and nothing of it is echoed).
_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Too large · rulekeeper</title>
<link rel="stylesheet" href="/static/style.css"></head><body><main id="main">
<div class="banner error" role="alert" id="verify-result"><strong>Too large</strong> <small>(too_large)</small>
<p>What was sent is larger than the {cap} KiB the keeper takes here.</p></div>
<p><a class="btn" href="/">Home</a> <a class="btn" href="/verify">Verify an export</a></p></main></body></html>
"""
