"""Live updates pushed by the server: server-sent events telling a page its battle changed.

Why: polling every 2 s showed the other side's move a median 1.25 s late.  Each battle page
opens one ``EventSource`` (htmx's SSE extension, vendored) on ``/b/{id}/events``; the server
sends ``changed`` as soon as the battle's *version* (log position and whether the last results
are face down, the key of the live fragment) moves, and the page fetches its fragment at once.

How a change is noticed: a write made through this keeper wakes every stream of its battle
at once (:meth:`Changes.notify`, callable from the worker threads that write); a write made
elsewhere (the CLI, another keeper on the same database) is seen by a cheap check of the
battle's revision every :data:`CHECK_EVERY` seconds.  A stream carries no battle data: only
the version, which the page already shows, so it tells nobody more than the page does.

Bounded: at most :data:`MAX_STREAMS` streams at once, :data:`MAX_PER_BATTLE` on one battle and
:data:`MAX_PER_LINK` on one link (more get 503 ``busy``: one spectator link once held every live
stream of the keeper for 10 minutes), each closed
after :data:`LIFETIME` seconds (the browser reconnects by itself), a comment every
:data:`KEEP_ALIVE` seconds so proxies keep the connection open.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable

from rulekeeper.core.errors import RulekeeperError

#: Seconds between two checks of the stored revision (writes from other processes).
CHECK_EVERY = 0.25
#: Seconds a stream stays open before the server closes it (the browser reopens it).
LIFETIME = 600.0
#: Seconds between keep-alive comments.
KEEP_ALIVE = 15.0
#: Streams open at once, over every battle.
MAX_STREAMS = 1024
#: Streams open at once on one battle (two sides, a few devices each, and spectators).
MAX_PER_BATTLE = 32
#: Streams open at once on one link (a player's phone and laptop, a few tabs).
MAX_PER_LINK = 4


class Changes:
    """Wakes the streams of a battle when this process changed it (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = defaultdict(set)
        self.open = 0
        self._per_battle: Counter[str] = Counter()
        self._per_link: Counter[tuple[str, str]] = Counter()

    def notify(self, battle_id: str) -> None:
        """Wake every stream of ``battle_id`` (from any thread)."""
        with self._lock:
            waiters = list(self._waiters.get(battle_id, ()))
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)

    async def wait(self, battle_id: str, timeout: float) -> None:
        """Return when ``battle_id`` is notified or after ``timeout`` seconds."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters[battle_id].add(waiter)
        try:
            await asyncio.wait_for(waiter[1].wait(), timeout)
        except TimeoutError:
            pass
        finally:
            with self._lock:
                self._waiters[battle_id].discard(waiter)
                if not self._waiters[battle_id]:
                    del self._waiters[battle_id]

    def admit(self, battle_id: str = "", link: str = "") -> bool:
        """Count a new stream in, unless the keeper, the battle or the link has its most open."""
        with self._lock:
            if (self.open >= MAX_STREAMS or self._per_battle[battle_id] >= MAX_PER_BATTLE
                    or self._per_link[battle_id, link] >= MAX_PER_LINK):
                return False
            self.open += 1
            self._per_battle[battle_id] += 1
            self._per_link[battle_id, link] += 1
            return True

    def leave(self, battle_id: str = "", link: str = "") -> None:
        with self._lock:
            self.open -= 1
            self._per_battle[battle_id] -= 1
            self._per_link[battle_id, link] -= 1
            self._per_battle += Counter()  # drops the battles and links with no stream left
            self._per_link += Counter()


async def version_events(
    changes: Changes,
    battle_id: str,
    seen: str | None,
    revision: Callable[[], Awaitable[int]],
    version: Callable[[], Awaitable[str]],
    disconnected: Callable[[], Awaitable[bool]],
    link: str = "",
) -> AsyncIterator[str]:
    """The event stream of one page: ``changed`` with the new version whenever it moves.

    ``seen`` is the version the page was drawn at: a change made while it connected is
    sent at once.  ``revision`` is the cheap check (one primary-key read); ``version`` is
    read only when the revision moved.
    """
    started = last_ping = time.monotonic()
    last_revision = None
    try:
        yield "retry: 1000\n\n"
        while time.monotonic() - started < LIFETIME and not await disconnected():
            try:
                current = await revision()
            except RulekeeperError:  # the battle is gone or the store is busy: the page's next poll says so
                return
            if current != last_revision:
                last_revision = current
                now = await version()
                if now != seen:
                    seen = now
                    yield f"event: changed\ndata: {now}\n\n"
            if time.monotonic() - last_ping > KEEP_ALIVE:
                last_ping = time.monotonic()
                yield ": keep-alive\n\n"
            await changes.wait(battle_id, CHECK_EVERY)
    finally:
        changes.leave(battle_id, link)
