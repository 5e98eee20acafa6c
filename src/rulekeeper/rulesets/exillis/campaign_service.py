"""The campaign around stored battles: battles from musters, and recording their Battle Points.

``battle new --muster a --muster b`` stores, in the battle's meta, what each side fielded
(:func:`muster_meta`); ``campaign record`` (:func:`record_battle`) reads it back once the
battle is over, works out the game's Battle Points, and hands a pure plan to
:meth:`CampaignStore.record`, which applies it to the campaign in one transaction.
Rules: :mod:`rulekeeper.rulesets.exillis.campaign`; decisions: ``docs/rules/exillis-campaign.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulekeeper.core.armylist import ArmyList
from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.registered import rules_of
from rulekeeper.core.wording import counted
from rulekeeper.persistence.campaign import (
    CampaignStore,
    CampaignUnit,
    CampaignView,
    Player,
    Recording,
    hero_slot,
    unit_slot,
)
from rulekeeper.rulesets.exillis import campaign as rules
from rulekeeper.rulesets.exillis.battle.state import BattleState
from rulekeeper.rulesets.exillis.muster import Muster
from rulekeeper.rulesets.exillis.musters_data import MustersData, load_musters_data
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.pricing import ExIllisArmyRules
from rulekeeper.rulesets.exillis.profiles import Roster
from rulekeeper.service.battles import BattleService

from .campaign_records import EntryDoc, MusterSide, PlayerLine, SideReport, UnitAdvance

__all__ = [
    "DEFAULT_PLAYERS", "MUSTERS_META", "CampaignMismatchError", "NotFromMustersError", "NotOverError", "SideMuster",
    "check_musters", "muster_meta", "record_battle", "sides_from_meta",
]

#: Key of the battle meta that holds what each side fielded.
MUSTERS_META = "musters"
#: Players credited when ``campaign record`` is not told who played.
DEFAULT_PLAYERS = {"A": "Player A", "B": "Player B"}


class NotOverError(RulekeeperError):
    """The battle is still being fought: there is nothing to record yet."""

    code = "battle_not_over"


class NotFromMustersError(RulekeeperError):
    """The battle was set up from a scenario file, so no muster (and no campaign unit) fought it."""

    code = "not_from_musters"


class CampaignMismatchError(RulekeeperError):
    """A muster no longer matches the campaign units recorded under its name."""

    code = "campaign_mismatch"


@dataclass(frozen=True)
class Entry:
    """One muster entry as the campaign needs it (canonical names)."""

    unit: str
    level: int
    hero: str | None = None
    hero_level: int = 1
    label: str = ""


@dataclass(frozen=True)
class SideMuster:
    """What one side fielded: its muster's name, Type, entries and whole document."""

    side: str
    name: str
    game_type: str
    earns_bp: bool
    points: int
    entries: tuple[Entry, ...]
    document: dict[str, Any]

    def size(self) -> int:
        return rules.army_size(self.entries)


def _entry_dicts(army: ArmyList, roster: Roster) -> list[EntryDoc]:
    out = []
    for e in army.units:
        item: EntryDoc = {"unit": roster.get(e.unit).name, "level": e.level, "label": e.label}
        if e.attached is not None:
            item["hero"] = roster.get(e.attached).name
            item["hero_level"] = e.attached_level
        out.append(item)
    return out


def muster_meta(a: Muster, b: Muster, roster: Roster, data: MustersData) -> dict[str, dict[str, MusterSide]]:
    """The battle meta of a battle from musters: each side's muster name, game type, points (the
    muster's total: Shortage, Faction rules and promotion included), entries and document."""
    pricing = ExIllisArmyRules(roster, data)
    sides: dict[str, MusterSide] = {}
    for side, m in (("A", a), ("B", b)):
        army = m.to_army_list()
        game = data.game_type(m.game_type)
        sides[side] = {"name": m.name, "game_type": game.name, "earns_bp": game.earns_bp,
                       "points": pricing.report(army).total, "entries": _entry_dicts(army, roster),
                       "document": m.to_dict()}
    return {MUSTERS_META: sides}


def sides_from_meta(meta: Mapping[str, object], battle_id: str) -> dict[str, SideMuster]:
    """Read back :func:`muster_meta`; :class:`NotFromMustersError` when the battle has none."""
    found = meta.get(MUSTERS_META)
    if not isinstance(found, dict) or set(found) != {"A", "B"}:
        raise NotFromMustersError(
            f"battle {battle_id!r} was not created from musters (it came from a scenario file), so no campaign "
            "unit fought it; start battles to record with: rulekeeper battle new --muster A.yaml --muster B.yaml",
            battle_id=battle_id)
    sides = {}
    for side in ("A", "B"):
        m = found[side]
        try:
            entries = tuple(Entry(unit=str(e["unit"]), level=int(e["level"]), hero=e.get("hero"),
                                  hero_level=int(e.get("hero_level", 1)), label=str(e.get("label", "")))
                            for e in m["entries"])
            sides[side] = SideMuster(side, str(m["name"]), str(m["game_type"]), bool(m["earns_bp"]),
                                     int(m["points"]), entries, dict(m.get("document") or {}))
        except (KeyError, TypeError, ValueError) as exc:
            raise NotFromMustersError(f"battle {battle_id!r}: the musters stored with it are damaged ({exc})",
                                      battle_id=battle_id) from exc
    return sides


# -- the rule "a unit can never play a higher level than the one it has reached" ---------------------


def _mismatch(muster: str, entry: int, slot_unit: str, unit: str) -> str:
    return (f"muster {muster!r} entry {entry} is {unit} but the campaign holds {slot_unit} in that slot; "
            "a campaign unit is its muster's entry — keep entries in place (add new ones at the end) or give "
            "the changed muster a new name")


def check_musters(store: CampaignStore, musters: Sequence[Muster], roster: Roster) -> None:
    """Refuse musters that field a unit above the level it has reached in the campaign, or that
    put another unit in an entry the campaign knows ("A unit can never play a higher level than
    the one it has reached, but it can always be demoted")."""
    problems: list[str] = []
    for m in musters:
        known = {u.slot: u for u in store.units(m.name)}
        for i, e in enumerate(_entry_dicts(m.to_army_list(), roster), 1):
            cu = known.get(unit_slot(i))
            if cu is not None and cu.unit != e["unit"]:
                problems.append(_mismatch(m.name, i, cu.unit, e["unit"]))
            elif cu is not None and not cu.named and e["level"] > cu.level:
                problems.append(f"muster {m.name!r} entry {i}: {e['unit']} has reached level {cu.level} in the "
                                f"campaign and cannot play at level {e['level']} (it can be demoted, not promoted)")
            hero = e.get("hero")
            ch = known.get(hero_slot(hero)) if hero else None
            if ch is not None and not ch.named and e["hero_level"] > ch.level:
                problems.append(f"muster {m.name!r} entry {i}: {hero} has reached level {ch.level} in the "
                                f"campaign and cannot play at level {e['hero_level']}")
    if problems:
        raise CampaignMismatchError("; ".join(problems), problems=problems)




# -- recording ------------------------------------------------------------------------------------


def _statuses(state: BattleState, side: str) -> list[tuple[str, str | None]]:
    """(entry status, hero status) per muster entry: units of a side in order, heroes after their Retinue."""
    out: list[tuple[str, str | None]] = []
    for u in state.units:
        if u.side != side or u.retinue is not None:
            continue
        hero = state.unit(u.hero).status if u.hero else None
        out.append((u.status, hero))
    return out


def _advance(current: CampaignUnit | None, *, muster: str, slot: str, kind: str, entry: int, unit: str,
             level: int, label: str, max_level: int, bp: int, options: ExIllisOptions, named_level: int | None,
             ) -> tuple[CampaignUnit, UnitAdvance]:
    """One unit's new campaign row after earning ``bp``, and a line for the report."""
    named = named_level is not None
    level = named_level if named_level is not None else min(level, max_level)  # "a Character of level 40"
    if current is None or level > current.level:
        # New to the campaign, or fielded (in a battle set up before the campaign knew it) above its
        # record: the muster's level is a level it has reached.
        start_level, start_bp = level, 0
        skill = 0 if named else (current.skill_points if current else 0) + rules.skill_points_between(
            current.level if current else 0, level)
    else:
        start_level, start_bp, skill = current.level, current.bp, current.skill_points
    battles, total = (current.battles, current.bp_total) if current else (0, 0)
    if named:  # "set in time, i.e. they do not gain experience or specialisation as they fight"
        done = rules.Award(start_level, 0, 0, 0, 0)
    else:
        done = rules.award_detail(start_level, start_bp, bp, max_level)
    row = CampaignUnit(
        muster=muster, slot=slot, kind=kind, entry=entry, unit=unit, level=done.level, bp=done.bp,
        max_level=max_level, label=label, bp_total=total + done.bp_received, skill_points=skill + done.skill_points,
        battles=battles + 1, named=named, created=current.created if current else "",
    )
    line: UnitAdvance = {
        "muster": muster, "slot": slot, "kind": kind, "entry": entry, "unit": unit, "label": label, "named": named,
        "level_before": start_level, "level": done.level, "bp_before": start_bp, "bp": done.bp,
        "bp_received": done.bp_received, "levels_gained": done.levels_gained, "skill_points_gained": done.skill_points,
        "bp_to_next": rules.bp_to_next(done.level, done.bp, max_level), "max_level": max_level,
        "stat_growth": round(rules.growth(done.level, options)[0], 4),
        "level_growth": round(rules.growth(done.level, options)[1], 4),
    }
    return row, line


@dataclass(frozen=True)
class _RecordingPlan:
    """What :meth:`CampaignStore.record` calls, inside its transaction, with the campaign as it stands.

    Everything about the finished battle (its sides, state, Battle Points and players) is read
    before the transaction; only the campaign's current rows (``view``) are read inside it, so
    the plan is pure and a refused recording writes nothing.
    """

    battle_id: str
    sides: Mapping[str, SideMuster]
    state: BattleState
    names: Mapping[str, str]
    bp: int
    note: str
    roster: Roster
    data: MustersData

    def __call__(self, view: CampaignView) -> Recording:
        rows: list[CampaignUnit] = []
        report = {side: self._side(view, side, rows) for side in ("A", "B")}
        people, player_lines = self._players(view)
        state, sides = self.state, self.sides
        summary = {"battle": self.battle_id, "battle_points": self.bp, "note": self.note, "winner": state.winner,
                   "winner_army": dict(state.armies).get(state.winner or "", state.winner), "sides": report,
                   "players": player_lines}
        return Recording(bp=self.bp, note=self.note, units=tuple(rows), players=tuple(people),
                         musters={sides[s].name: sides[s].document for s in ("A", "B") if sides[s].document},
                         summary=summary)

    def named(self, unit: str) -> int | None:
        """A Named Character's own level ("a Character of level 40"), None for everyone else."""
        nc = self.data.named(unit)
        return None if nc is None else min(nc.level, self.roster.get(unit).max_level)

    def _side(self, view: CampaignView, side: str, rows: list[CampaignUnit]) -> SideReport:
        """Side ``side``'s campaign units after the battle (appended to ``rows``) and its report.

        A unit's campaign slot is its muster entry, so an entry now naming another unit than the
        campaign holds there is refused; a hero follows in its own slot, after its Retinue.
        """
        sm, state = self.sides[side], self.state
        status = _statuses(state, side)
        lines: list[UnitAdvance] = []
        for i, e in enumerate(sm.entries, 1):
            current = view.units.get((sm.name, unit_slot(i)))
            if current is not None and current.unit != e.unit:
                raise CampaignMismatchError(_mismatch(sm.name, i, current.unit, e.unit), muster=sm.name, entry=i)
            st = status[i - 1] if i - 1 < len(status) else ("active", None)
            row, line = _advance(current, muster=sm.name, slot=unit_slot(i), kind="unit", entry=i, unit=e.unit,
                                 level=e.level, label=e.label, max_level=self.roster.get(e.unit).max_level, bp=self.bp,
                                 options=state.options, named_level=self.named(e.unit))
            rows.append(row)
            lines.append({**line, "status": st[0]})
            if e.hero is not None:
                slot = hero_slot(e.hero)
                row, line = _advance(view.units.get((sm.name, slot)), muster=sm.name, slot=slot, kind="hero",
                                     entry=i, unit=e.hero, level=e.hero_level, label="",
                                     max_level=self.roster.get(e.hero).max_level, bp=self.bp, options=state.options,
                                     named_level=self.named(e.hero))
                rows.append(row)
                lines.append({**line, "status": st[1] or "active"})
        return {"muster": sm.name, "game_type": sm.game_type, "player": self.names[side],
                "army_size": sm.size(), "army_bp": rules.bp_for(sm.size()), "points": sm.points,
                "basic_points": dict(state.army_points).get(side, 0),
                "units": lines}

    def _players(self, view: CampaignView) -> tuple[list[Player], list[PlayerLine]]:
        """Each player's new level, BP and Renown, and a line for the report; one person playing
        both sides plays one battle."""
        people: list[Player] = []
        player_lines: list[PlayerLine] = []
        for side in ("A", "B"):
            name = self.names[side]
            if any(p.name == name for p in people):
                continue
            before = view.players.get(name) or Player(name)
            level, pbp = rules.player_award(before.level, before.bp, self.bp)
            renown = rules.renown_for(before.level)
            people.append(Player(name, level, pbp, before.bp_total + self.bp, before.renown + renown,
                                 before.battles + 1, created=before.created))
            player_lines.append({"player": name, "sides": [s for s in ("A", "B") if self.names[s] == name],
                                 "level_before": before.level, "level": level, "bp": pbp,
                                 "bp_to_next": rules.bp_to_next(level, pbp, rules.PLAYER_MAX_LEVEL),
                                 "renown_gained": renown, "renown": before.renown + renown})
        return people, player_lines


def record_battle(svc: BattleService, store: CampaignStore, battle_id: str, players: Mapping[str, str] | None = None,
                  data: MustersData | None = None) -> Recording:
    """Award the Battle Points of a finished battle from musters, once. See the module docstring."""
    rec = svc.record(battle_id)
    sides = sides_from_meta(rec.meta, battle_id)
    state = svc.state(battle_id)
    if not isinstance(state, BattleState):  # the service holds states opaque: another game's battle
        raise NotFromMustersError(f"battle {battle_id!r} is a {svc.game(battle_id).title} battle, not an Ex illis one",
                                  battle_id=battle_id)
    if not state.over:
        raise NotOverError(
            f"battle {battle_id!r} is not over yet ({counted(state.activations, 'action')} played); finish it "
            f"(rulekeeper battle autoplay {battle_id}, or play it out) before recording it", battle_id=battle_id)
    names = {side: ((players or {}).get(side) or DEFAULT_PLAYERS[side]).strip() or DEFAULT_PLAYERS[side]
             for side in ("A", "B")}
    bp, note = rules.game_battle_points(
        [sides[s].size() for s in ("A", "B")], practice=state.practice, width=state.board.width,
        height=state.board.height, points=[sides[s].points for s in ("A", "B")],
        earns_bp=[sides[s].earns_bp for s in ("A", "B")])
    from .game import ExIllisBattles

    found = svc.game(battle_id)
    game = rules_of(found)
    if not isinstance(game, ExIllisBattles):
        raise NotFromMustersError(f"battle {battle_id!r} is a {found.title} battle, not an Ex illis one", battle_id=battle_id)
    plan = _RecordingPlan(battle_id, sides, state, names, bp, note, game.t.roster,
                          load_musters_data() if data is None else data)
    return store.record(battle_id, plan, musters=[sides["A"].name, sides["B"].name], players=list(names.values()))
