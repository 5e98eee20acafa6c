"""The campaign store: musters, campaign units, players and recorded battles.

It lives in the same database as the battles (:class:`~rulekeeper.persistence.store.BattleStore`),
with its own tables (``rk_muster_*``, ``rk_campaign_*``, own SQLAlchemy ``MetaData``), made and
upgraded on open by the same migrations as every table (:mod:`.migrate`), and the same guarantees:

* **One transaction per record.**  :meth:`CampaignStore.record` reads the campaign, lets a pure
  function decide the new levels, and writes every unit, every player, both musters and the
  "recorded" mark together, or nothing.  SQLite write transactions are ``BEGIN IMMEDIATE``, so
  two processes recording at once queue on the lock and the second one sees the first one's
  units (and its mark: a battle is never recorded twice).
* **Refusal before writing.**  A battle already recorded raises :class:`AlreadyRecordedError`
  inside the transaction, which rolls back: nothing changes.
* **Rules elsewhere.**  The store keeps numbers and JSON documents; the rules
  (:mod:`rulekeeper.rulesets.exillis.campaign`) and the orchestration
  (:mod:`rulekeeper.rulesets.exillis.campaign_service`) decide what they mean.
* **No leaking SQLAlchemy.**  Callers see :class:`~rulekeeper.persistence.store.StoreError`,
  never a driver exception.

Keys: a unit by (muster name, slot) — slot ``#3`` for the muster's 3rd entry, ``hero:Decurion``
for a hero (a hero is unique in a muster and may change units); a player by name; a muster by
name; a recorded battle by battle id.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypedDict

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Connection,
    Integer,
    MetaData,
    Row,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from rulekeeper.core.errors import RulekeeperError

from .schema import MAX_ID_LENGTH, find_non_json
from .sqlstore import SqlStore, StoreError, is_text

__all__ = [
    "CAMPAIGN_SCHEMA_VERSION", "AlreadyRecordedError", "CampaignStore", "CampaignUnit", "CampaignView", "Player",
    "RecordedBattle", "Recording", "StoredMuster", "hero_slot", "unit_slot",
]

#: ``rk_campaign_meta.schema_version``.  Since migrations the Alembic revision is what a store
#: checks; this marker keeps rulekeepers from before migrations off campaign tables they would
#: mishandle (a revision that changes the campaign tables incompatibly bumps it).
CAMPAIGN_SCHEMA_VERSION = 1

_meta = MetaData()

_campaign_meta = Table(
    "rk_campaign_meta", _meta,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

_musters = Table(
    "rk_muster_musters", _meta,
    Column("name", String(200), primary_key=True),
    Column("document", JSON(none_as_null=True), nullable=False),
    Column("created", String(40), nullable=False),
    Column("updated", String(40), nullable=False),
)

_units = Table(
    "rk_campaign_units", _meta,
    Column("muster", String(200), primary_key=True),
    Column("slot", String(200), primary_key=True),
    Column("kind", String(10), nullable=False),
    Column("entry", Integer, nullable=False),
    Column("unit", String(200), nullable=False),
    Column("label", Text, nullable=False, default=""),
    Column("level", Integer, nullable=False),
    Column("bp", Integer, nullable=False),
    Column("bp_total", Integer, nullable=False),
    Column("skill_points", Integer, nullable=False),
    Column("battles", Integer, nullable=False),
    Column("max_level", Integer, nullable=False),
    Column("named", Boolean, nullable=False, default=False),
    Column("created", String(40), nullable=False),
    Column("updated", String(40), nullable=False),
)

_players = Table(
    "rk_campaign_players", _meta,
    Column("name", String(200), primary_key=True),
    Column("level", Integer, nullable=False),
    Column("bp", Integer, nullable=False),
    Column("bp_total", Integer, nullable=False),
    Column("renown", Integer, nullable=False),
    Column("battles", Integer, nullable=False),
    Column("created", String(40), nullable=False),
    Column("updated", String(40), nullable=False),
)

_battles = Table(
    "rk_campaign_battles", _meta,
    Column("battle_id", String(MAX_ID_LENGTH), primary_key=True),
    Column("recorded", String(40), nullable=False),
    Column("bp", Integer, nullable=False),
    Column("note", Text, nullable=False, default=""),
    Column("summary", JSON(none_as_null=True), nullable=False),
)


def unit_slot(entry: int) -> str:
    """The slot of a muster's ``entry``-th unit (1-based)."""
    return f"#{entry}"


def hero_slot(hero: str) -> str:
    """The slot of a hero of a muster (canonical name)."""
    return f"hero:{hero}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


# --------------------------------------------------------------------------- records


class AlreadyRecordedError(RulekeeperError):
    """The battle's Battle Points were already awarded; nothing was changed."""

    code = "already_recorded"

    def __init__(self, battle_id: str, recorded: str) -> None:
        super().__init__(
            f"battle {battle_id!r} was already recorded in the campaign (at {recorded}); "
            "a battle awards its Battle Points once — nothing was changed",
            battle_id=battle_id, recorded=recorded,
        )
        self.battle_id = battle_id


class CampaignUnitDoc(TypedDict):
    """A :class:`CampaignUnit` as JSON (``campaign show --json``), field for field."""

    muster: str
    slot: str
    kind: str
    entry: int
    unit: str
    level: int
    bp: int
    max_level: int
    label: str
    bp_total: int
    skill_points: int
    battles: int
    named: bool
    created: str
    updated: str


class PlayerDoc(TypedDict):
    """A :class:`Player` as JSON, field for field."""

    name: str
    level: int
    bp: int
    bp_total: int
    renown: int
    battles: int
    created: str
    updated: str


class StoredMusterDoc(TypedDict):
    """A :class:`StoredMuster` as JSON (``document``: the muster file's own JSON, as stored)."""

    name: str
    document: dict[str, Any]
    created: str
    updated: str


class RecordedBattleDoc(TypedDict):
    """A :class:`RecordedBattle` as JSON (``summary``: the record's JSON, as stored)."""

    battle_id: str
    recorded: str
    bp: int
    note: str
    summary: dict[str, Any]


@dataclass(frozen=True)
class CampaignUnit:
    """A unit (or hero) of a muster as the campaign knows it."""

    muster: str
    slot: str
    kind: str  # "unit" | "hero"
    entry: int  # 1-based muster entry it fought in last
    unit: str  # canonical roster name
    level: int
    bp: int
    max_level: int
    label: str = ""
    bp_total: int = 0
    skill_points: int = 0
    battles: int = 0
    named: bool = False
    created: str = ""
    updated: str = ""

    def to_dict(self) -> CampaignUnitDoc:
        return {"muster": self.muster, "slot": self.slot, "kind": self.kind, "entry": self.entry, "unit": self.unit,
                "level": self.level, "bp": self.bp, "max_level": self.max_level, "label": self.label,
                "bp_total": self.bp_total, "skill_points": self.skill_points, "battles": self.battles,
                "named": self.named, "created": self.created, "updated": self.updated}


@dataclass(frozen=True)
class Player:
    """A player: level, BP toward the next level, total BP, Renown Points, battles played."""

    name: str
    level: int = 1
    bp: int = 0
    bp_total: int = 0
    renown: int = 0
    battles: int = 0
    created: str = ""
    updated: str = ""

    def to_dict(self) -> PlayerDoc:
        return {"name": self.name, "level": self.level, "bp": self.bp, "bp_total": self.bp_total,
                "renown": self.renown, "battles": self.battles, "created": self.created, "updated": self.updated}


@dataclass(frozen=True)
class StoredMuster:
    name: str
    document: dict[str, Any]
    created: str
    updated: str

    def to_dict(self) -> StoredMusterDoc:
        """(``document`` a copy of its own, as ``dataclasses.asdict`` made it.)"""
        return {"name": self.name, "document": deepcopy(self.document), "created": self.created,
                "updated": self.updated}


@dataclass(frozen=True)
class RecordedBattle:
    battle_id: str
    recorded: str
    bp: int
    note: str
    summary: dict[str, Any]

    def to_dict(self) -> RecordedBattleDoc:
        """(``summary`` a copy of its own, as ``dataclasses.asdict`` made it.)"""
        return {"battle_id": self.battle_id, "recorded": self.recorded, "bp": self.bp, "note": self.note,
                "summary": deepcopy(self.summary)}


@dataclass(frozen=True)
class CampaignView:
    """What a record may read: the units of the musters involved and the players involved."""

    units: dict[tuple[str, str], CampaignUnit]
    players: dict[str, Player]


@dataclass(frozen=True)
class Recording:
    """Everything one record writes (built by a pure function from a :class:`CampaignView`)."""

    bp: int
    note: str
    units: tuple[CampaignUnit, ...] = ()
    players: tuple[Player, ...] = ()
    musters: dict[str, dict[str, Any]] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)


#: A row of ``rk_campaign_units`` (its columns in the table's order).
UnitRow = Row[str, str, str, int, str, str, int, int, int, int, int, int, bool, str, str]
#: A row of ``rk_campaign_players``.
PlayerRow = Row[str, int, int, int, int, int, str, str]


def _unit_from(row: UnitRow) -> CampaignUnit:
    muster, slot, kind, entry, unit, label, level, bp, bp_total, skill_points, battles, max_level, named, created, \
        updated = row
    return CampaignUnit(muster=muster, slot=slot, kind=kind, entry=entry, unit=unit, level=level, bp=bp,
                        max_level=max_level, label=label, bp_total=bp_total, skill_points=skill_points,
                        battles=battles, named=named, created=created, updated=updated)


def _player_from(row: PlayerRow) -> Player:
    return Player(*row)  # the table's columns are the dataclass' fields, in order


def _json_doc(name: str, value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise StoreError(f"{name} must be a JSON object, got {type(value).__name__}", field=name)
    hit = find_non_json(value, name)
    if hit is not None:
        raise StoreError(f"{name} is not plain JSON: {hit[0]}: {hit[1]}", field=hit[0])
    return value


def _check_unit(u: CampaignUnit) -> None:
    where = f"campaign unit {u.muster!r} {u.slot}"
    if u.kind not in ("unit", "hero"):
        raise StoreError(f"{where}: kind must be 'unit' or 'hero', got {u.kind!r}")
    for name in ("level", "max_level"):
        if getattr(u, name) < 1:
            raise StoreError(f"{where}: {name} must be at least 1, got {getattr(u, name)}")
    for name in ("bp", "bp_total", "skill_points", "battles", "entry"):
        if getattr(u, name) < 0:
            raise StoreError(f"{where}: {name} cannot be negative, got {getattr(u, name)}")
    if u.level > u.max_level:
        raise StoreError(f"{where}: level {u.level} is above its maximum {u.max_level}")


def _check_player(p: Player) -> None:
    if not p.name or p.level < 1 or min(p.bp, p.bp_total, p.renown, p.battles) < 0:
        raise StoreError(f"player {p.name!r}: a name, a level of at least 1 and no negative count are required")


# ----------------------------------------------------------------------------- store


class CampaignStore(SqlStore):
    """Musters and the campaign in a SQL database (the battles' database by default)."""

    kind = "campaign store"

    # -- musters -------------------------------------------------------------------------------

    def save_muster(self, name: str, document: dict[str, Any]) -> None:
        """Store (or replace) the muster called ``name``."""
        doc = _json_doc("muster document", document)
        with self._transaction(write=True) as conn:
            self._put_muster(conn, name, doc, _now())

    @staticmethod
    def _put_muster(conn: Connection, name: str, doc: dict[str, Any], now: str) -> None:
        if not name:
            raise StoreError("a muster needs a name")
        done = conn.execute(update(_musters).where(_musters.c.name == name).values(document=doc, updated=now)).rowcount
        if done != 1:
            conn.execute(insert(_musters).values(name=name, document=doc, created=now, updated=now))

    def muster(self, name: str) -> StoredMuster | None:
        with self._transaction(write=False) as conn:
            row = conn.execute(select(_musters).where(_musters.c.name == name)).first()
        return None if row is None else StoredMuster(**row._asdict())

    def musters(self) -> list[StoredMuster]:
        with self._transaction(write=False) as conn:
            rows = conn.execute(select(_musters).order_by(_musters.c.name)).all()
        return [StoredMuster(**r._asdict()) for r in rows]

    # -- reading the campaign --------------------------------------------------------------------

    def units(self, muster: str | None = None) -> list[CampaignUnit]:
        """Campaign units (of one muster, or all), by muster then entry, each hero after its entry."""
        query = select(_units)
        if muster is not None and not is_text(muster):
            return []  # no muster can be stored under a name that is not text
        if muster is not None:
            query = query.where(_units.c.muster == muster)
        with self._transaction(write=False) as conn:
            rows = conn.execute(query).all()
        units = [_unit_from(r) for r in rows]
        return sorted(units, key=lambda u: (u.muster, u.entry, u.kind != "unit", u.slot))

    def players(self) -> list[Player]:
        with self._transaction(write=False) as conn:
            rows = conn.execute(select(_players).order_by(_players.c.name)).all()
        return [_player_from(r) for r in rows]

    def recorded(self, battle_id: str) -> RecordedBattle | None:
        with self._transaction(write=False) as conn:
            row = conn.execute(select(_battles).where(_battles.c.battle_id == battle_id)).first()
        return None if row is None else RecordedBattle(**row._asdict())

    def battles(self) -> list[RecordedBattle]:
        """Every recorded battle, first recorded first."""
        with self._transaction(write=False) as conn:
            rows = conn.execute(select(_battles).order_by(_battles.c.recorded, _battles.c.battle_id)).all()
        return [RecordedBattle(**r._asdict()) for r in rows]

    # -- recording -----------------------------------------------------------------------------

    def record(self, battle_id: str, plan: Callable[[CampaignView], Recording], *, musters: Sequence[str],
               players: Sequence[str]) -> Recording:
        """Record ``battle_id`` once: read, let ``plan`` decide, write it all in one transaction.

        Raises :class:`AlreadyRecordedError` (nothing written) when the battle is already
        recorded; any error raised by ``plan`` rolls everything back too.
        """
        if not battle_id or len(battle_id) > MAX_ID_LENGTH:
            raise StoreError(f"not a battle id: {battle_id!r}")
        with self._transaction(write=True) as conn:
            done = conn.execute(select(_battles.c.recorded).where(_battles.c.battle_id == battle_id)).scalar()
            if done is not None:
                raise AlreadyRecordedError(battle_id, str(done))
            rows = conn.execute(select(_units).where(_units.c.muster.in_(list(musters)))).all() if musters else []
            prows = conn.execute(select(_players).where(_players.c.name.in_(list(players)))).all() if players else []
            view = CampaignView(
                units={(u.muster, u.slot): u for u in map(_unit_from, rows)},
                players={p.name: p for p in map(_player_from, prows)},
            )
            rec = plan(view)
            now = _now()
            for name, doc in rec.musters.items():
                self._put_muster(conn, name, _json_doc("muster document", doc), now)
            for u in rec.units:
                _check_unit(u)
                values = {k: v for k, v in u.to_dict().items() if k not in ("muster", "slot", "created")}
                values["updated"] = now
                key = (_units.c.muster == u.muster) & (_units.c.slot == u.slot)
                if conn.execute(update(_units).where(key).values(**values)).rowcount != 1:
                    conn.execute(insert(_units).values(**u.to_dict() | {"created": now, "updated": now}))
            for p in rec.players:
                _check_player(p)
                values = {k: v for k, v in p.to_dict().items() if k not in ("name", "created")}
                values["updated"] = now
                if conn.execute(update(_players).where(_players.c.name == p.name).values(**values)).rowcount != 1:
                    conn.execute(insert(_players).values(**p.to_dict() | {"created": now, "updated": now}))
            try:
                conn.execute(insert(_battles).values(battle_id=battle_id, recorded=now, bp=rec.bp, note=rec.note,
                                                     summary=_json_doc("record summary", rec.summary)))
            except IntegrityError as exc:  # lost a race on PostgreSQL
                raise AlreadyRecordedError(battle_id, now) from exc
        return rec
