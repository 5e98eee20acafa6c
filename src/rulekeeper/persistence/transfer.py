"""A battle out of the store and back: export, import, and the hash chain's verification.

Why a module of its own: these are the store's doors to the outside, where a file a
player may have edited comes in.  An export (format ``rulekeeper-battle`` version 2)
carries the hash chain (:mod:`.chain`); importing one recomputes every seal and refuses
the file at the first that does not match, naming the part that changed, before
anything is written.  Version 1 files, from before the chain, are sealed as they are.
"""

from __future__ import annotations

import builtins
from datetime import UTC, datetime
from typing import Any, NotRequired, TypedDict

from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError

from rulekeeper.core import ids

from . import chain
from .dice_store import BattleDice, commitment_of
from .errors import BattleNotFoundError, StoreError
from .records import ExportedBattle
from .schema import (
    ENTRY_COLUMNS,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    RECORD_COLUMNS,
    BattleRow,
    DiceDoc,
    DiceRow,
    ExportDoc,
    LogRow,
    validate_export,
)


class BattleValues(ExportedBattle):
    """A new battle row as :func:`insert_battle` writes it (``initial`` and ``meta``: its JSON columns)."""

    initial: dict[str, Any]
    genesis: str
    head: str


class ExportedEntry(TypedDict):
    """One entry of an export's log (``action`` and ``result``: the log's JSON, as stored)."""

    action: dict[str, Any]
    result: dict[str, Any]
    shown: bool
    created: str
    chain: str | None


class ExportedChain(TypedDict):
    genesis: str | None
    head: str | None


class ExportedDice(TypedDict):
    """An export's verifiable dice (``secret`` once the battle is over; ``commitments`` in rows made since 0005)."""

    commitment: str
    roles: list[str]
    contributions: dict[str, str]
    secret: str | None
    commitments: NotRequired[dict[str, str]]


class Exported(TypedDict):
    """A whole exported battle: format ``rulekeeper-battle``, read back by :class:`.schema.ExportDoc`."""

    format: str
    version: int
    battle: ExportedBattle
    initial: dict[str, Any]
    log: list[ExportedEntry]
    chain: ExportedChain
    dice: NotRequired[ExportedDice]


def insert_battle(conn: Connection, values: BattleValues) -> None:
    """Insert a battle row; an id already there is a :class:`StoreError`, not a driver error."""
    bid = values["id"]
    if conn.execute(select(BattleRow.id).where(BattleRow.id == bid)).first() is not None:
        raise StoreError(f"a battle with id {bid!r} already exists", battle_id=bid)
    try:
        conn.execute(insert(BattleRow).values(**values))
    except IntegrityError as exc:  # lost a race to the same id (PostgreSQL)
        raise StoreError(f"a battle with id {bid!r} already exists", battle_id=bid) from exc


def _refused(field: str, problem: str) -> StoreError:
    return StoreError(f"not a valid rulekeeper battle document: {field}: {problem}", field=field,
                      problems=[f"{field}: {problem}"])


def _sealed(parsed: ExportDoc, now: str) -> tuple[str, list[str]]:
    """The genesis and links of an export as it is; for version 2, checked against its own."""
    battle = parsed.battle.model_dump()
    start = chain.genesis(battle, parsed.initial)
    entries = [chain.Sealed(e.action, e.result, e.created or now, e.shown) for e in parsed.log]
    links = chain.links(start, entries)
    if parsed.chain is None:
        return start, links
    if parsed.chain.genesis != start:
        raise _refused("battle", "its set-up (ruleset, scenario, seed, title, meta, created time or initial "
                                 "document) was changed after the export: the genesis seal does not match")
    for index, (computed, entry) in enumerate(zip(links, parsed.log, strict=True)):
        if computed != entry.chain:
            raise _refused(f"log.{index}", f"entry {index} was changed after it was recorded (action, result, "
                                           "time or shown flag): its link in the hash chain does not match")
    if parsed.chain.head != (links[-1] if links else start):
        raise _refused("chain.head", "is not the last link of the log")
    return start, links


def _check_dice(dice: DiceDoc) -> None:
    """The dice block's own consistency (whether its seed is the battle's is the service's check)."""
    if dice.secret is not None and commitment_of(dice.secret) != dice.commitment:
        raise _refused("dice.secret", "its SHA-256 is not the commitment: the secret or the commitment was changed")
    unknown = sorted((set(dice.contributions) | set(dice.commitments or {})) - set(dice.roles))
    if unknown or len(set(dice.roles)) != len(dice.roles):
        raise _refused("dice.contributions", f"sides {unknown or dice.roles} do not match the dice's sides")


class BattleTransfers(BattleDice):
    """Export, import and chain verification, shared by :class:`~.store.BattleStore`."""

    def export(self, battle_id: str) -> Exported:
        """The whole battle as one JSON document (format ``rulekeeper-battle`` v2), chain included.

        Snapshots and checkpoints are left out: they are caches that replaying the
        log rebuilds.  So is the revision, which counts writes to this copy only.
        """
        with self._transaction(write=False) as conn:
            row = conn.execute(
                select(*RECORD_COLUMNS, BattleRow.initial, BattleRow.genesis).where(BattleRow.id == battle_id)
            ).first()
            if row is None:
                raise BattleNotFoundError(battle_id)
            log = conn.execute(
                select(*ENTRY_COLUMNS, LogRow.chain).where(LogRow.battle_id == battle_id).order_by(LogRow.entry_index)
            ).all()
            dice = conn.execute(select(DiceRow.commitment, DiceRow.secret, DiceRow.roles, DiceRow.contributions,
                                       DiceRow.commitments).where(DiceRow.battle_id == battle_id)).first()
        battle: ExportedBattle = {
            "id": row.id, "ruleset": row.ruleset, "scenario": row.scenario, "seed": row.seed, "created": row.created,
            "updated": row.updated, "position": row.position, "status": row.status, "turn": row.turn,
            "title": row.title, "meta": row.meta,
        }
        initial, genesis, head = row.initial, row.genesis, row.head
        doc: Exported = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "battle": battle,
            "initial": initial,
            "log": [{"action": e.action, "result": e.result, "shown": e.shown, "created": e.created,
                     "chain": e.chain} for e in log],
            "chain": {"genesis": genesis, "head": head},
        }
        if dice is not None:
            # the secret once the battle is over: the export carries every result anyway (a link gets the
            # export only once the last ones are revealed: web/downloads.py)
            shown_dice: ExportedDice = {"commitment": dice.commitment, "roles": list(dice.roles),
                                        "contributions": dict(dice.contributions),
                                        "secret": dice.secret if battle["status"] == "over" else None}
            if dice.commitments is not None:
                shown_dice["commitments"] = dict(dice.commitments)
            doc["dice"] = shown_dice
        return doc

    def import_(self, doc: object, *, new_id: bool = False) -> str:
        """Store an exported battle; returns its id.

        The document is validated first (a :class:`StoreError` names each bad field),
        then its seals (a version 2 file whose chain does not match is refused, naming
        the first entry that changed).  An id already in the store is refused unless
        ``new_id`` is true, in which case the battle gets a fresh id.  Everything is
        written in one transaction.  The entries get no checkpoints and the battle
        starts at revision 0, as a created one.
        """
        parsed, problems = validate_export(doc)
        if parsed is None:
            text = "; ".join(f"{loc}: {msg}" for loc, msg in problems)
            raise StoreError(
                f"not a valid rulekeeper battle document: {text}",
                field=problems[0][0],
                problems=[f"{loc}: {msg}" for loc, msg in problems],
            )
        if parsed.dice is not None:
            _check_dice(parsed.dice)
        now = datetime.now(UTC).isoformat(timespec="microseconds")
        start, links = _sealed(parsed, now)
        b = parsed.battle
        values: BattleValues = {
            "id": ids.new_id("b") if new_id else b.id,  # (the flag shadows core.ids.new_id here)
            "ruleset": b.ruleset, "scenario": b.scenario, "seed": b.seed, "created": b.created, "updated": b.updated,
            "position": b.position, "status": b.status, "turn": b.turn, "title": b.title, "meta": b.meta,
            "initial": parsed.initial, "genesis": start, "head": links[-1] if links else start,
        }
        rows = [
            dict(e.model_dump(), battle_id=values["id"], entry_index=i, created=e.created or now, chain=links[i])
            for i, e in enumerate(parsed.log)
        ]
        with self._transaction(write=True) as conn:
            if not new_id and conn.execute(select(BattleRow.id).where(BattleRow.id == values["id"])).first():
                raise StoreError(
                    f"a battle with id {values['id']!r} already exists; import with a new id to keep both",
                    battle_id=values["id"],
                    field="battle.id",
                )
            insert_battle(conn, values)
            if rows:
                conn.execute(insert(LogRow), rows)
            if parsed.dice is not None:
                d = parsed.dice
                self._insert_dice(conn, values["id"], d.commitment, d.secret, d.roles, d.contributions, d.commitments)
        return str(values["id"])

    def verify_chain(self, battle_id: str) -> builtins.list[str]:
        """Every seal of the stored battle computed again: the problems found (none: intact).

        Catches what no replay recomputes — an edited seed, title or set-up, a changed
        time or shown flag — wherever the edit was made (an import, the database itself).
        """
        doc = self.export(battle_id)
        battle, sealed = doc["battle"], doc["chain"]
        start = chain.genesis(battle, doc["initial"])
        problems: builtins.list[str] = []
        if sealed["genesis"] != start:
            problems.append("the battle's set-up (ruleset, scenario, seed, title, meta, created time or initial "
                            "document) was changed after it was created: its genesis seal does not match")
        entries = [chain.Sealed(e["action"], e["result"], e["created"], e["shown"]) for e in doc["log"]]
        broken = chain.first_break(start, entries, [e["chain"] for e in doc["log"]])
        if broken is not None:
            problems.append(f"action {broken}: changed after it was recorded (its link in the hash chain does "
                            "not match)")
        links = chain.links(start, entries)
        if sealed["head"] != (links[-1] if links else start):
            problems.append("the battle's fingerprint is not the last link of its log")
        return problems
