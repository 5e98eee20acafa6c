"""Secret access links for a battle: one per role (each side, spectators), stored hashed.

Tokens are 192-bit random URL-safe strings (``secrets.token_urlsafe(24)``); only their
SHA-256 is stored, so a leaked database does not leak the links. A lookup by token
returns the role it grants, or nothing — callers answer an unknown battle and a bad
token the same way, so nobody can probe which battles exist.

The roles are the caller's: a game's sides plus ``"spectator"`` (``ROLES`` is the
default, the two sides of the first games).  The store only checks that they fit the
``role`` column and are distinct, so one token never stands for two roles.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import Column, MetaData, String, Table, UniqueConstraint, bindparam, select

from .sqlstore import SqlStore, StoreError

#: The default roles: sides ``A`` and ``B`` and the spectators.
ROLES = ("A", "B", "spectator")

#: Longest role name (the ``role`` column is ``VARCHAR(20)``; PostgreSQL enforces it).
MAX_ROLE_LENGTH = 20

_meta = MetaData()
_access = Table(
    "rk_access",
    _meta,
    Column("battle_id", String(100), nullable=False),
    Column("role", String(MAX_ROLE_LENGTH), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", String(40), nullable=False),
    UniqueConstraint("battle_id", "role", name="uq_access_battle_role"),
)

#: Which battle and role a token opens: every request asks, so the statement is built once (see store._GET).
_ROLE = select(_access.c.battle_id, _access.c.role).where(_access.c.token_hash == bindparam("token_hash"))


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _check_roles(roles: Sequence[str]) -> tuple[str, ...]:
    """The roles as a tuple, or a StoreError naming the first that would not store cleanly."""
    if isinstance(roles, str):  # a str is a Sequence[str]: "AB" must not become roles "A" and "B"
        raise StoreError(f"roles must be a list of role names, not the string {roles!r}", field="roles")
    found = tuple(roles)
    if not found:
        raise StoreError("a battle needs at least one role", field="roles")
    for role in found:
        if not isinstance(role, str) or not 1 <= len(role) <= MAX_ROLE_LENGTH or not role.strip():
            raise StoreError(f"a role is a name of 1 to {MAX_ROLE_LENGTH} characters, got {role!r}", field="roles")
    if len(set(found)) != len(found):
        raise StoreError(f"roles must be distinct, got {list(found)}", field="roles")
    return found


class AccessStore(SqlStore):
    """Issue and check access tokens on the same database as the battles."""

    kind = "access store"

    def issue(self, battle_id: str, roles: Sequence[str] = ROLES) -> dict[str, str]:
        """New tokens for each of ``roles`` on ``battle_id`` (returned once, never stored in clear).

        Replaces every token the battle had, so a role left out loses its link.
        """
        tokens = {role: secrets.token_urlsafe(24) for role in _check_roles(roles)}
        now = datetime.now(UTC).isoformat()
        with self._transaction(write=True) as conn:
            conn.execute(_access.delete().where(_access.c.battle_id == battle_id))
            conn.execute(_access.insert(), [
                {"battle_id": battle_id, "role": r, "token_hash": _hash(t), "created": now} for r, t in tokens.items()
            ])
        return tokens

    def reissue(self, battle_id: str, role: str) -> str:
        """A new token for ``role`` alone on ``battle_id``: its old link stops opening the battle, the
        other roles' links keep working (the host replacing one lost phone's link, issue 26)."""
        (role,) = _check_roles([role])
        token = secrets.token_urlsafe(24)
        now = datetime.now(UTC).isoformat()
        with self._transaction(write=True) as conn:
            conn.execute(_access.delete().where((_access.c.battle_id == battle_id) & (_access.c.role == role)))
            conn.execute(_access.insert(), [{"battle_id": battle_id, "role": role, "token_hash": _hash(token),
                                              "created": now}])
        return token

    def role(self, battle_id: str, token: str | None) -> str | None:
        """The role ``token`` grants on ``battle_id``, or ``None``."""
        if not token or len(token) > 200:
            return None
        with self._transaction(write=False) as conn:
            row = conn.execute(_ROLE, {"token_hash": _hash(token)}).first()
        if row is None or not hmac.compare_digest(str(row.battle_id).encode("utf-8"), battle_id.encode("utf-8")):
            return None
        return str(row.role)
