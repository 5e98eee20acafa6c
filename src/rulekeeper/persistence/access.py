"""Secret access links for a battle: one per side and one for spectators, stored hashed.

Tokens are 192-bit random URL-safe strings (``secrets.token_urlsafe(24)``); only their
SHA-256 is stored, so a leaked database does not leak the links. A lookup by token
returns the role it grants, or nothing — callers answer an unknown battle and a bad
token the same way, so nobody can probe which battles exist.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, datetime

from sqlalchemy import Column, MetaData, String, Table, UniqueConstraint, select
from sqlalchemy.engine import Connection

from .sqlstore import SqlStore

ROLES = ("A", "B", "spectator")

_meta = MetaData()
_access = Table(
    "rk_access",
    _meta,
    Column("battle_id", String(100), nullable=False),
    Column("role", String(20), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", String(40), nullable=False),
    UniqueConstraint("battle_id", "role", name="uq_access_battle_role"),
)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class AccessStore(SqlStore):
    """Issue and check access tokens on the same database as the battles."""

    kind = "access store"

    def _setup(self, conn: Connection) -> None:
        _meta.create_all(conn)

    def issue(self, battle_id: str) -> dict[str, str]:
        """New tokens for every role of ``battle_id`` (returned once, never stored in clear)."""
        tokens = {role: secrets.token_urlsafe(24) for role in ROLES}
        now = datetime.now(UTC).isoformat()
        with self._transaction(write=True) as conn:
            conn.execute(_access.delete().where(_access.c.battle_id == battle_id))
            conn.execute(_access.insert(), [
                {"battle_id": battle_id, "role": r, "token_hash": _hash(t), "created": now} for r, t in tokens.items()
            ])
        return tokens

    def role(self, battle_id: str, token: str | None) -> str | None:
        """The role ``token`` grants on ``battle_id``, or ``None``."""
        if not token or len(token) > 200:
            return None
        with self._transaction(write=False) as conn:
            row = conn.execute(
                select(_access.c.battle_id, _access.c.role).where(_access.c.token_hash == _hash(token))
            ).first()
        if row is None or not hmac.compare_digest(str(row.battle_id), battle_id):
            return None
        return str(row.role)
