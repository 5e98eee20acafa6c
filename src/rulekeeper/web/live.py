"""Live updates pushed by the server: server-sent events telling a page its battle changed.

Why: polling every 2 s showed the other side's move a median 1.25 s late.  Each battle page
opens one ``EventSource`` (htmx's SSE extension, vendored) on ``/b/{id}/events``; the server
sends ``changed`` as soon as the battle's *version* (log position and whether the last results
are face down, the key of the live fragment) moves, and the page fetches its fragment at once.

How a change is noticed: a write made through this keeper wakes every stream of its battle
at once (:meth:`Changes.notify`, callable from the worker threads that write); a write made
elsewhere (the CLI, another keeper process on the same database) is noticed by the process's
one :class:`~.watch.Watcher` — PostgreSQL's ``NOTIFY``, or on SQLite one revision check of every
watched battle per :data:`CHECK_EVERY` seconds — which wakes the streams the same way.  A stream
never reads the store unless woken (it reads its battle's version then).  A stream carries no
battle data: only the version, which the page already shows, so it tells nobody more than the
page does.

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
from typing import Protocol

from rulekeeper.core.errors import RulekeeperError

#: Seconds between two revision checks of the watched battles on SQLite (one query per process).
CHECK_EVERY = 0.25
#: Seconds between two looks at whether a stream's client went away (no database read).
CHECK_CLIENT = 1.0
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


class Watching(Protocol):
    """What a stream tells its process's watcher (``web/watch.py``): which battle it follows."""

    def watch(self, battle_id: str) -> None: ...

    def unwatch(self, battle_id: str) -> None: ...


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

    def subscribe(self, battle_id: str) -> asyncio.Event:
        """An event set whenever ``battle_id`` is notified, until :meth:`unsubscribe` (one per stream).

        Held for the stream's whole life, so a notice arriving while the stream reads the
        version is not lost: the stream clears the event *before* reading, and finds it set after.
        """
        event = asyncio.Event()
        with self._lock:
            self._waiters[battle_id].add((asyncio.get_running_loop(), event))
        return event

    def unsubscribe(self, battle_id: str, event: asyncio.Event) -> None:
        with self._lock:
            self._waiters[battle_id] = {w for w in self._waiters[battle_id] if w[1] is not event}
            if not self._waiters[battle_id]:
                del self._waiters[battle_id]

    async def wait(self, battle_id: str, timeout: float) -> bool:
        """Return when ``battle_id`` is notified (True) or after ``timeout`` seconds (False)."""
        event = self.subscribe(battle_id)
        try:
            return await _woken(event, timeout)
        finally:
            self.unsubscribe(battle_id, event)

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


async def _woken(event: asyncio.Event, timeout: float) -> bool:
    try:
        await asyncio.wait_for(event.wait(), timeout)
    except TimeoutError:
        return False
    return True


async def version_events(
    changes: Changes,
    battle_id: str,
    seen: str | None,
    version: Callable[[], Awaitable[str]],
    disconnected: Callable[[], Awaitable[bool]],
    link: str = "",
    watcher: Watching | None = None,
) -> AsyncIterator[str]:
    """The event stream of one page: ``changed`` with the new version whenever it moves.

    ``seen`` is the version the page was drawn at: a change made while it connected is
    sent at once.  ``version`` is read at the start and then only when the battle is notified
    (by this process's writes or its ``watcher``); in between the stream only looks, every
    :data:`CHECK_CLIENT` seconds, whether its client is still there.
    """
    started = last_ping = time.monotonic()
    woken = changes.subscribe(battle_id)
    if watcher is not None:
        watcher.watch(battle_id)
    try:
        yield "retry: 1000\n\n"
        fresh = True
        while time.monotonic() - started < LIFETIME and not await disconnected():
            if fresh:
                woken.clear()  # before the read: a notice arriving during it is kept for the next turn
                try:
                    now = await version()
                except RulekeeperError:  # the battle is gone or the store is busy: the page's next poll says so
                    return
                if now != seen:
                    seen = now
                    yield f"event: changed\ndata: {now}\n\n"
            if time.monotonic() - last_ping > KEEP_ALIVE:
                last_ping = time.monotonic()
                yield ": keep-alive\n\n"
            fresh = await _woken(woken, CHECK_CLIENT)
    finally:
        changes.unsubscribe(battle_id, woken)
        if watcher is not None:
            watcher.unwatch(battle_id)
        changes.leave(battle_id, link)
