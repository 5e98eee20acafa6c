"""One watcher per keeper process: it notices changes made elsewhere and wakes the live streams.

Why: each live stream used to read its battle's revision every 0.25 s, so 600 idle streams made
2,400 reads a second.  Now the streams of a process only wait on :class:`~.live.Changes`, which
three things wake:

* a write made by this process (the request that wrote calls :meth:`Changes.notify`);
* on **PostgreSQL**, one listening connection per process (``LISTEN``, migration 0006's
  trigger): any write to a battle — another keeper process of a convention hall, the command
  line — is announced by the database when it commits, and this process wakes that battle's
  streams.  No polling.  If the connection is lost, the watcher reconnects after
  :data:`RECONNECT` seconds and wakes every watched battle once (a notice may have been missed);
* on **SQLite**, one loop per process reads the revisions of every battle that has a live
  stream in one query every :data:`~.live.CHECK_EVERY` seconds and wakes those that moved
  (SQLite cannot announce; its writers are this process or a command line on the same machine).

The watcher starts with the first stream and runs in one daemon thread; it knows which battles
to watch from the streams (:meth:`Watcher.watch`/:meth:`Watcher.unwatch`).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.persistence.notices import announced_changes
from rulekeeper.persistence.store import BattleStore

from .live import CHECK_EVERY, Changes

log = logging.getLogger(__name__)

#: Seconds before a lost PostgreSQL listening connection is opened again.
RECONNECT = 1.0


class Watcher:
    """Wakes the streams of this process when another process changes their battle (thread-safe)."""

    def __init__(self, store: BattleStore, changes: Changes) -> None:
        self.store, self.changes = store, changes
        self.listens = store.dialect == "postgresql"
        self._lock = threading.Lock()
        self._watched: Counter[str] = Counter()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.ready = threading.Event()  # set once the listener listens (or the poll loop runs)
        self.checks = 0  # revision reads (SQLite) or listener beats (PostgreSQL): for the tests and the bench

    def watch(self, battle_id: str) -> None:
        with self._lock:
            self._watched[battle_id] += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="rulekeeper-watch", daemon=True)
                self._thread.start()

    def unwatch(self, battle_id: str) -> None:
        with self._lock:
            self._watched[battle_id] -= 1
            if self._watched[battle_id] <= 0:
                del self._watched[battle_id]

    def watched(self) -> list[str]:
        with self._lock:
            return list(self._watched)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen() if self.listens else self._poll()
            except RulekeeperError as exc:  # the store is busy or the connection was lost: wake all, retry
                log.warning("live updates: %s; retrying in %.0f s", exc, RECONNECT)
                self._wake_all()
                self._stop.wait(RECONNECT)

    def _listen(self) -> None:
        for battle_id in announced_changes(self.store, self._stop):
            self.checks += 1
            if battle_id is None:
                if not self.ready.is_set():
                    self.ready.set()
                    self._wake_all()  # anything written while the listener connected
                continue
            self.changes.notify(battle_id)

    def _poll(self) -> None:
        seen: dict[str, int] = {}
        self.ready.set()
        while not self._stop.is_set():
            ids = self.watched()
            if ids:
                now = self.store.revisions(ids)
                self.checks += 1
                for battle_id in ids:  # a battle watched since the last check is woken once: its stream re-reads
                    if now.get(battle_id) != seen.get(battle_id, -1):
                        self.changes.notify(battle_id)
                seen = {b: r for b, r in now.items()}
            self._stop.wait(CHECK_EVERY)

    def _wake_all(self) -> None:
        for battle_id in self.watched():
            self.changes.notify(battle_id)

