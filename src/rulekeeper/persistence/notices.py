"""The battles PostgreSQL announces as changed (``LISTEN``), for a keeper's one listener.

Migration 0006 makes every change to a battle row ``NOTIFY`` its id on :data:`CHANNEL`; this
yields those ids as they arrive, on a connection of its own in autocommit mode (a listening
connection must not sit in a transaction).  Why here: the web keeper must not know the
driver, and only the store knows how to reach its database.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import suppress
from typing import Any

from .errors import StoreError
from .sqlstore import SqlStore

#: The channel of migration 0006's trigger.
CHANNEL = "rk_battle_changed"


def announced_changes(store: SqlStore, stop: threading.Event, every: float = 1.0) -> Iterator[str | None]:
    """The id of each battle changed by anyone, as PostgreSQL announces it; ``None`` every ``every`` seconds.

    The ``None`` beats let the caller check ``stop`` (and know the listener is alive).  Raises
    :class:`StoreError` when the database is not PostgreSQL or the connection is lost (the
    caller reconnects, and must then assume any battle may have changed meanwhile).
    """
    raw: Any = store._driver_connection()
    try:
        conn = raw.driver_connection
        if conn is None or not hasattr(conn, "notifies"):
            raise StoreError("only PostgreSQL announces changes")
        raw.rollback()
        conn.autocommit = True
        conn.execute(f"LISTEN {CHANNEL}")
        yield None  # listening: anything changed from now on is announced
        while not stop.is_set():
            try:
                for notice in conn.notifies(timeout=every):
                    yield str(notice.payload)
            except Exception as exc:  # the driver's OperationalError and kin: the connection is gone
                raise StoreError(f"the listening connection was lost ({type(exc).__name__})") from None
            yield None
    finally:
        with suppress(Exception):
            raw.invalidate() if hasattr(raw, "invalidate") else raw.close()
