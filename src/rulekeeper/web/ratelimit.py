"""Per-client limits on guessing links and on creating battles (a pure ASGI middleware).

A battle's links are 192-bit secrets, so guessing is hopeless, but nothing stopped a client
from trying thousands a second or filling the store with battles. Per client address, over a
sliding window: failed link checks (a 404 on a battle's page or API) and battle creations are
counted; past the limit the client is answered 429 ``rate_limited`` (the project's error
format, with ``Retry-After``) until the window has moved on. Memory is bounded: at most
:data:`MAX_CLIENTS` addresses are tracked, the oldest dropped first.

A valid link is never locked out by someone else's bad guesses: a convention hall's players
share one address (its Wi-Fi's NAT), so past the guess limit an address's requests are still
answered when their link opens a battle; only the ones that would have been a 404 (another
guess) become 429.  The check costs what the 404 cost, so guessing gains nothing.

The client address is the connection's peer.  ``X-Forwarded-For`` is believed only from the
proxies the keeper is told to trust (``rulekeeper serve --forwarded-allow-ips``, none by
default): uvicorn then rewrites the peer before this middleware sees it.  Trusting it from
127.0.0.1 let anything on the keeper's machine — or any client of a local tunnel — claim a
new address per request.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict, deque
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: How many addresses are remembered at most.
MAX_CLIENTS = 10_000


@dataclass(frozen=True)
class RateLimits:
    window: float = 600.0  # seconds
    guesses: int = 120  # failed link checks per client per window
    creations: int = 60  # battles created per client per window
    verifications: int = 30  # exports pasted into POST /verify per client per window


def _is_battle_path(path: str) -> bool:
    return path.startswith(("/b/", "/host", "/created/")) or (path.startswith("/api/battles/") and len(path) > len("/api/battles/"))


def _is_creation(method: str, path: str) -> bool:
    return method == "POST" and path in ("/api/battles", "/new")


class RateLimit:
    def __init__(self, app: ASGIApp, limits: RateLimits | None = None) -> None:
        self.app = app
        self.limits = limits or RateLimits()
        self.seen: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()

    def _events(self, client: str, kind: str, now: float) -> deque[float]:
        key = (client, kind)
        events = self.seen.get(key)
        if events is None:
            events = self.seen[key] = deque()
            while len(self.seen) > MAX_CLIENTS:
                self.seen.popitem(last=False)
        else:
            self.seen.move_to_end(key)
        while events and events[0] <= now - self.limits.window:
            events.popleft()
        return events

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("unknown", 0))[0]
        method, path = scope.get("method", "GET"), scope.get("path", "")
        now = time.monotonic()
        guesses = self._events(client, "guess", now)
        guessing = _is_battle_path(path) and len(guesses) >= self.limits.guesses
        creations = self._events(client, "create", now)
        if _is_creation(method, path) and len(creations) >= self.limits.creations:
            await self._refuse(send, creations, "too many battles created")
            return
        if method == "POST" and path == "/verify":  # anyone may send one, and each costs a replay
            verifications = self._events(client, "verify", now)
            if len(verifications) >= self.limits.verifications:
                await self._refuse(send, verifications, "too many exports verified")
                return
            verifications.append(now)
        status = 0

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                if guessing and status == 404:  # one guess too many: refused, a valid link still opens
                    await self._refuse(send, guesses, "too many links that did not open a battle")
                    return
            if guessing and status == 404:
                return  # the 404's body: already answered by the refusal
            await send(message)

        await self.app(scope, receive, watched)
        if status == 404 and _is_battle_path(path) and not guessing:  # bounded: counted up to the limit
            guesses.append(now)
        elif status == 201 and _is_creation(method, path):
            creations.append(now)

    async def _refuse(self, send: Send, events: deque[float], why: str) -> None:
        wait = max(1, int(events[0] + self.limits.window - time.monotonic()) + 1)
        body = json.dumps({"error": "rate_limited", "message": f"{why} from this address: try again in {wait} s",
                           "retry_after": wait}).encode()
        await send({"type": "http.response.start", "status": 429, "headers": [
            (b"content-type", b"application/json"), (b"retry-after", str(wait).encode()),
            (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
