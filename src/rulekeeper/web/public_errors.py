"""What a client may read of an error: a store's failure never tells where the store is.

Why: a refusal used to carry the database's location — the SQLite file's path, or the
PostgreSQL URL (``user@host:port/db``) — in its message and its ``url`` detail, to any
client holding a link (or none).  The keeper's operator finds the full message in the
server's log; the client gets the stable code and a message that names no location.
"""

from __future__ import annotations

import logging

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.persistence.errors import StoreError

log = logging.getLogger("rulekeeper.web")

#: What the client reads for the store's own failures (the operator's log has the details).
STORE_MESSAGES = {
    "busy": "the database is busy (another writer holds a lock on it); nothing was changed — try again",
    "store": "the database cannot be used just now; nothing was changed — try again later (the keeper's log "
             "has the details)",
}
#: Details that may name where the store is.
PRIVATE_DETAILS = ("url", "path", "db")


def public_message(exc: RulekeeperError) -> str:
    """``exc``'s message as a client may read it (store failures logged in full, told in general)."""
    if not isinstance(exc, StoreError):
        return exc.message
    log.warning("store refusal (%s): %s", exc.code, exc.message)
    if exc.code in STORE_MESSAGES:
        return STORE_MESSAGES[exc.code]
    message = exc.message
    for key in PRIVATE_DETAILS:
        where = exc.details.get(key) if isinstance(exc.details, dict) else None
        if isinstance(where, str) and where:
            message = message.replace(where, "the database")
    return message


def public_body(exc: RulekeeperError) -> dict[str, object]:
    """``exc.to_dict()`` without what names the store's location."""
    body = exc.to_dict()
    if isinstance(exc, StoreError):
        body = {key: value for key, value in body.items() if key not in PRIVATE_DETAILS}
        body["message"] = public_message(exc)
    return body
