"""The store's side of verifiable dice: the committed secret, the contributions, the reseeding.

Why a module of its own: the battle store is long enough, and these are the only writes
that change a battle's set-up after it was created.  What the numbers mean (commitment,
contributions, the seed made from them) is :mod:`rulekeeper.service.dice`'s business; the
store keeps them and makes each change in one transaction:

* :meth:`BattleDice.add_dice` keeps the secret and its commitment when a battle is created;
* :meth:`BattleDice.commit` keeps one side's commitment to its contribution (a hash: the
  value itself stays on the side's device until every side has committed);
* :meth:`BattleDice.contribute` adds one side's contribution under a lock on the dice row
  (two sides contributing at once on PostgreSQL cannot lose one): a side that committed is
  refused before every side has committed, and refused when its value does not hash to its
  commitment; a side that did not commit hands its value over as it is (the keeper records
  its commitment for it).  When the last one arrives it rebuilds the battle's set-up with the
  seed the caller computes — new seed, new initial document, the public dice in ``meta`` —
  and seals it again (genesis and head of the hash chain), only while the log is empty.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, insert, select, update

from rulekeeper.core.errors import RulekeeperError, UnknownNameError
from rulekeeper.core.wording import counted

from . import chain
from .documents import check_json
from .errors import BattleNotFoundError, StoreError
from .schema import BattleRow, DiceRow
from .stdlib_paths import StdlibPaths

#: 32 bytes as lower-case hex: a secret, a commitment, a contribution.
HEX_LENGTH = 64


class NotVerifiableError(RulekeeperError):
    """The battle has a plain seed: there is no commitment to show and nothing to contribute."""

    code = "not_verifiable"


class AlreadyContributedError(RulekeeperError):
    """A side's contribution is final: a second one would let it choose the dice."""

    code = "dice_contributed"


class DiceNotCommittedError(RulekeeperError):
    """A contribution revealed before every side has committed: whoever saw it could adapt its own."""

    code = "dice_not_committed"


class ContributionMismatchError(RulekeeperError):
    """A revealed contribution that does not hash to the commitment its side gave: it would be a chosen one."""

    code = "contribution_mismatch"


#: What a side's commitment hashes with its contribution (the side's name too: nobody can reuse another's).
COMMIT_LABEL = b"rulekeeper-dice/2 commitment\n"


def contribution_commitment(role: str, value: str) -> str:
    """SHA-256(label ‖ side ‖ newline ‖ the contribution's 32 bytes), as hex: what a side commits to."""
    return hashlib.sha256(COMMIT_LABEL + role.encode() + b"\n" + bytes.fromhex(value)).hexdigest()


@dataclass(frozen=True)
class DiceRecord:
    """A battle's verifiable dice as stored (``secret`` is for the service to reveal, never to show)."""

    battle_id: str
    commitment: str
    secret: str | None
    roles: tuple[str, ...]
    contributions: dict[str, str] = field(default_factory=dict)
    created: str = ""
    commitments: dict[str, str] = field(default_factory=dict)

    @property
    def waiting(self) -> tuple[str, ...]:
        """The sides still to contribute, in order."""
        return tuple(r for r in self.roles if r not in self.contributions)

    @property
    def uncommitted(self) -> tuple[str, ...]:
        """The sides that have neither committed nor contributed, in order."""
        return tuple(r for r in self.roles if r not in self.commitments and r not in self.contributions)

    @property
    def committed(self) -> bool:
        """Every side has committed: the contributions may now be revealed (and shown)."""
        return not self.uncommitted

    @property
    def ready(self) -> bool:
        return not self.waiting

    def ordered(self) -> list[tuple[str, str]]:
        """The contributions received, in the order they are hashed (the roles' order)."""
        return [(r, self.contributions[r]) for r in self.roles if r in self.contributions]


#: What the caller computes when the last contribution arrives: from the dice and the stored
#: initial document, ``(seed, new initial document, the public dice to keep in meta)``.
Sealer = Callable[[DiceRecord, dict[str, Any]], tuple[int, dict[str, Any], Mapping[str, object]]]


def is_hex32(value: object) -> bool:
    return isinstance(value, str) and len(value) == HEX_LENGTH and all(c in "0123456789abcdef" for c in value)


def commitment_of(secret: str) -> str:
    """SHA-256 of the secret's 32 bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _record(row: Row[str, str, str | None, object, object, str, object]) -> DiceRecord:
    """A battle's dice from a row of :data:`_COLUMNS` (its JSON columns checked: a hand-edited row is damage)."""
    battle_id, commitment, secret, roles, given, created, promised = row
    promised = promised or {}
    if not (isinstance(roles, list) and all(isinstance(r, str) for r in roles) and isinstance(given, dict)
            and isinstance(promised, dict)):
        from .errors import DamagedStoreError

        raise DamagedStoreError(f"battle {battle_id!r}: its dice in the database cannot be read",
                                battle_id=battle_id)
    return DiceRecord(battle_id, commitment, secret, tuple(roles),
                      {str(k): str(v) for k, v in given.items()}, created,
                      {str(k): str(v) for k, v in promised.items()})


_COLUMNS = (DiceRow.battle_id, DiceRow.commitment, DiceRow.secret, DiceRow.roles, DiceRow.contributions,
            DiceRow.created, DiceRow.commitments)


class BattleDice(StdlibPaths):
    """The dice tables of a :class:`~.store.BattleStore` (it inherits these methods)."""

    def add_dice(self, battle_id: str, *, commitment: str, secret: str | None, roles: Sequence[str],
                 contributions: Mapping[str, str] | None = None, commitments: Mapping[str, str] | None = None) -> None:
        """Keep a battle's dice (at creation, or from an import)."""
        with self._transaction(write=True) as conn:
            self._insert_dice(conn, battle_id, commitment, secret, roles, contributions, commitments)

    def _insert_dice(self, conn: Connection, battle_id: str, commitment: str, secret: str | None,
                     roles: Sequence[str], contributions: Mapping[str, str] | None,
                     commitments: Mapping[str, str] | None = None) -> None:
        if not is_hex32(commitment) or (secret is not None and not is_hex32(secret)):
            raise StoreError("dice: the commitment and the secret are 32 bytes in lower-case hex", field="dice")
        names = [str(r) for r in roles]
        if not names or len(set(names)) != len(names) or any(not 0 < len(r) <= 20 for r in names):
            raise StoreError("dice: the sides must be distinct short names", field="dice.roles")
        if conn.execute(select(BattleRow.id).where(BattleRow.id == battle_id)).first() is None:
            raise BattleNotFoundError(battle_id)
        conn.execute(insert(DiceRow).values(
            battle_id=battle_id, commitment=commitment, secret=secret, roles=names,
            contributions=check_json("contributions", dict(contributions or {})), created=_now(),
            commitments=None if commitments is None else check_json("commitments", dict(commitments))))

    def dice(self, battle_id: str) -> DiceRecord | None:
        """The battle's dice, or None for a battle with a plain seed."""
        with self._transaction(write=False) as conn:
            row = conn.execute(select(*_COLUMNS).where(DiceRow.battle_id == battle_id)).first()
        return None if row is None else _record(row)

    def _locked(self, conn: Connection, battle_id: str, role: str) -> DiceRecord:
        """The battle's dice, its row locked for the change; refused for a plain seed or a stranger."""
        row = conn.execute(select(*_COLUMNS).where(DiceRow.battle_id == battle_id).with_for_update()).first()
        if row is None:
            if conn.execute(select(BattleRow.id).where(BattleRow.id == battle_id)).first() is None:
                raise BattleNotFoundError(battle_id)
            raise NotVerifiableError(f"battle {battle_id!r} has a plain seed: it takes no dice contributions",
                                     battle_id=battle_id)
        dice = _record(row)
        if role not in dice.roles:
            raise UnknownNameError("side of this battle", role, dice.roles)
        if role in dice.contributions:
            raise AlreadyContributedError(
                f"side {role} has already added its contribution to the dice; it cannot be changed",
                battle_id=battle_id, role=role)
        return dice

    def commit(self, battle_id: str, role: str, commitment: str) -> DiceRecord:
        """Keep ``role``'s commitment to the contribution it will reveal once every side has committed.

        Refused as :meth:`contribute` is, and for a side that has already committed
        (:class:`AlreadyContributedError`: a second commitment would let it choose).
        """
        if not is_hex32(commitment):
            raise StoreError("a commitment is 32 bytes in lower-case hex", field="commitment")
        with self._transaction(write=True) as conn:
            dice = self._locked(conn, battle_id, role)
            if role in dice.commitments:
                raise AlreadyContributedError(
                    f"side {role} has already committed to its contribution; it cannot be changed",
                    battle_id=battle_id, role=role)
            promised = {**dice.commitments, role: commitment}
            conn.execute(update(DiceRow).where(DiceRow.battle_id == battle_id).values(commitments=promised))
        return replace(dice, commitments=promised)

    def contribute(self, battle_id: str, role: str, value: str, seal: Sealer) -> DiceRecord:
        """Add ``role``'s contribution; with the last one, reseed and reseal the battle (one transaction).

        Refused: a battle without dice (:class:`NotVerifiableError`), a role that is not a
        side (:class:`UnknownNameError`), a second contribution of a side
        (:class:`AlreadyContributedError`), a value that is not 32 bytes of hex; for a side
        that committed, a reveal before every side has committed (:class:`DiceNotCommittedError`)
        or one that does not hash to its commitment (:class:`ContributionMismatchError`).
        """
        if not is_hex32(value):
            raise StoreError("a contribution is 32 bytes in lower-case hex", field="contribution")
        with self._transaction(write=True) as conn:
            dice = self._locked(conn, battle_id, role)
            promised = dict(dice.commitments)
            if role in promised:
                if not dice.committed:
                    raise DiceNotCommittedError(
                        f"side {role} reveals its contribution only once every side has committed (still waiting "
                        f"for side {', '.join(dice.uncommitted)})", battle_id=battle_id, role=role)
                if contribution_commitment(role, value) != promised[role]:
                    raise ContributionMismatchError(
                        f"side {role}'s contribution does not hash to the commitment it gave: refused",
                        battle_id=battle_id, role=role, field="contribution")
            given = {**dice.contributions, role: value}
            for r, v in given.items():  # handed over as they are (no commitment first): the keeper records it
                promised.setdefault(r, contribution_commitment(r, v))
            conn.execute(update(DiceRow).where(DiceRow.battle_id == battle_id).values(
                contributions=given, commitments=promised))
            dice = replace(dice, contributions=given, commitments=promised)
            if dice.ready:
                self._reseed(conn, dice, seal)
        return dice

    def _reseed(self, conn: Connection, dice: DiceRecord, seal: Sealer) -> None:
        """The battle's set-up with the seed of its dice, sealed again (only before the first action)."""
        bid = dice.battle_id
        row = conn.execute(
            select(BattleRow.ruleset, BattleRow.scenario, BattleRow.title, BattleRow.meta, BattleRow.created,
                   BattleRow.initial, BattleRow.position).where(BattleRow.id == bid).with_for_update()
        ).first()
        if row is None:
            raise BattleNotFoundError(bid)
        if row.position != 0:
            raise StoreError(f"battle {bid!r} has {counted(row.position, 'action')}: its seed can no longer change",
                             battle_id=bid)
        seed, initial, public = seal(dice, dict(row.initial))
        values: dict[str, Any] = {
            "ruleset": row.ruleset, "scenario": row.scenario, "title": row.title or "", "created": row.created,
            "seed": int(seed), "meta": check_json("meta", {**dict(row.meta or {}), "dice": public}),
        }
        genesis = chain.genesis(values, initial)
        conn.execute(update(BattleRow).where(BattleRow.id == bid, BattleRow.position == 0).values(
            seed=values["seed"], meta=values["meta"], initial=check_json("initial", initial), genesis=genesis,
            head=genesis, updated=_now(), revision=BattleRow.revision + 1))
