"""Shared helpers for the Ex illis battle rule tests (not a test module).

Build a small scenario from plain dicts, start a battle from it, then put the state in
exactly the position a rule needs with ``dataclasses.replace``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from rulekeeper.rulesets.exillis.battle.actions import Action, legal_actions
from rulekeeper.rulesets.exillis.battle.engine import Outcome, apply
from rulekeeper.rulesets.exillis.battle.moves import group_of
from rulekeeper.rulesets.exillis.battle.setup import initial_state
from rulekeeper.rulesets.exillis.battle.state import BattleState, BattleUnit
from rulekeeper.rulesets.exillis.battle.tables import BattleTables
from rulekeeper.rulesets.exillis.combatants import Combatant, Modifier
from rulekeeper.rulesets.exillis.modifiers import put as put_modifier
from rulekeeper.rulesets.exillis.scenario import Scenario


@lru_cache(maxsize=1)
def tables() -> BattleTables:
    return BattleTables.shipped()


def unit(name: str, zone: str, **extra: Any) -> dict[str, Any]:
    """One ``[[armies.units]]`` entry (extra: miniatures, level, hero, hero_level)."""
    return {"unit": name, "zone": zone, **extra}


def scenario_dict(
    a: list[dict[str, Any]],
    b: list[dict[str, Any]],
    *,
    width: int = 5,
    height: int = 4,
    terrain: dict[str, str] | None = None,
    turn_limit: int = 0,
    general_a: str | None = None,
    general_b: str | None = None,
    first: str = "A",
) -> dict[str, Any]:
    def army(side: str, units: list[dict[str, Any]], general: str | None) -> dict[str, Any]:
        zones = list(dict.fromkeys(u["zone"] for u in units))
        d: dict[str, Any] = {"side": side, "name": f"Army {side}", "deployment": zones, "units": units}
        if general:
            d["general"] = general
        return d

    return {
        "name": "rule test",
        "first": first,
        "board": {"width": width, "height": height, "turn_limit": turn_limit},
        "terrain": [{"zone": z, "feature": f} for z, f in (terrain or {}).items()],
        "armies": [army("A", a, general_a), army("B", b, general_b)],
    }


def battle(a: list[dict[str, Any]], b: list[dict[str, Any]], seed: int = 1, practice: bool = False,
           **kw: Any) -> BattleState:
    """The initial state of a battle (rule checks of the scenario are skipped, so
    test positions may put both sides in one zone)."""
    sc = Scenario.from_dict(scenario_dict(a, b, **kw), check=False)
    return initial_state(sc, seed, tables(), practice=practice)


def zone(state: BattleState, name: str) -> tuple[int, int]:
    return state.board.parse(name)


def zname(state: BattleState, z: tuple[int, int] | None) -> str | None:
    return None if z is None else state.board.name(z)


def put(state: BattleState, key: str, **fields: Any) -> BattleState:
    """Replace fields of a BattleUnit; ``zone`` may be a zone name."""
    u = state.unit(key)
    if isinstance(fields.get("zone"), str):
        fields["zone"] = state.board.parse(fields["zone"])
    return state.with_units({key: replace(u, **fields)})


def combatant_with(c: Combatant, **fields: Any) -> Combatant:
    """``c`` with these fields; ``intimidation_mod=x`` sets its live Intimidation modifier and
    ``morale=m`` the base that makes its morale read ``m`` with the modifiers it then has."""
    mod = fields.pop("intimidation_mod", None)
    morale = fields.pop("morale", None)
    c = replace(c, **fields)
    if mod is not None:
        c = put_modifier(c, Modifier("morale", mod, "intimidation"))
    if morale is not None:
        c = replace(c, morale_base=morale - c.modified("morale"))
    return c


def setc(state: BattleState, key: str, **fields: Any) -> BattleState:
    """Replace fields of a unit's Combatant (fatigue, veil, morale, fleeing, flying, hp...)."""
    u = state.unit(key)
    return state.with_units({key: replace(u, c=combatant_with(u.c, **fields))})


def act(state: BattleState, key: str) -> BattleState:
    """Make ``key``'s group the active group."""
    members = tuple(sorted((m.key for m in group_of(state, state.unit(key))), key=lambda k: state.unit(k).deploy_index))
    return replace(state, active=members)


def legal(state: BattleState) -> list[Any]:
    return legal_actions(state, tables())


def kinds(state: BattleState) -> list[str]:
    return [lg.action.kind for lg in legal(state)]


def targets(state: BattleState, kind: str) -> dict[str, float]:
    """Legal targets of ``kind`` for the active group, with their AcP."""
    return {lg.action.target: lg.acp for lg in legal(state) if lg.action.kind == kind}


def do(state: BattleState, kind: str, key: str, target: str | None = None, option: str | None = None) -> Outcome:
    return apply(state, Action(kind, key, target, option), tables())


def chances(outcome: Outcome, label_start: str) -> list[Any]:
    """The chance records whose label starts with ``label_start``."""
    return [c for c in outcome.chance if c.request.label.startswith(label_start)]


def p_yes(record: Any) -> float:
    """Probability of the first outcome of a yes/no chance record."""
    return record.request.probabilities[0]


def reports(outcome: Outcome, kind: str) -> list[dict[str, Any]]:
    return [r for r in outcome.report if r.get("kind") == kind]


def nobody_acts(state: BattleState) -> BattleState:
    """Set every unit's AcP to 0 (so that after an action no one else acts first by accident)."""
    return state.with_units({u.key: replace(u, acp=0.0) for u in state.units})


BU = BattleUnit
