"""Battle actions and the list of legal ones for the active group.

An :class:`Action` is plain data (kind, unit, target, option), so it can be typed on the
command line, stored in the log and compared: an action is legal exactly when it is in
:func:`legal_actions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.wording import counted

from ..morale import state_of
from .charging import challengeable
from .moves import charge_routes, group_of, move_routes
from .state import BattleState, BattleUnit
from .tables import BattleTables

#: The kinds of battle action; a typo in a rule's ``Action(kind=...)`` is a type error, not a silent no-match.
ActionKind = Literal[
    "move", "charge", "fight", "shoot", "cast", "retreat", "wait", "stance", "take_off", "land",
    "reload", "rally", "verse", "finale", "flee",
]
KINDS: tuple[ActionKind, ...] = get_args(ActionKind)


@dataclass(frozen=True)
class Action:
    kind: ActionKind
    unit: str
    target: str | None = None  # a zone name ("C2") or a unit key
    option: str | None = None  # shot type, spell, stance

    def to_dict(self) -> dict[str, str]:
        """The logged form: kind and unit, then target and option when the action has them."""
        d = {"kind": self.kind, "unit": self.unit}
        if self.target is not None:
            d["target"] = self.target
        if self.option is not None:
            d["option"] = self.option
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> Action:
        kind = next((known for known in KINDS if known == d.get("kind")), None)
        if kind is None:
            raise IllegalActionError(f"unknown action kind {d.get('kind')!r}; kinds are {', '.join(KINDS)}")
        return cls(kind, str(_text(d, "unit")), _text(d, "target"), _text(d, "option"))

    def text(self) -> str:
        parts = [self.kind, self.unit]
        if self.target:
            parts.append(self.target)
        if self.option:
            parts.append(f"[{self.option}]")
        return " ".join(parts)


def _text(d: Mapping[str, object], key: str) -> str | None:
    """A name or a zone is text: a number, a list or a yes/no from the API or a hand-made form is refused
    here, naming the field, before any rule reads it (a cast at target 7 was an AttributeError: a 500)."""
    value = d.get(key)
    if isinstance(value, str) or (value is None and key != "unit"):
        return value
    raise IllegalActionError(f"an action's {key} is a name or a zone written as text, not {value!r:.40}", field=key)


@dataclass(frozen=True)
class Legal:
    """A legal action with its AcP cost and a short note (odds are added by the caller)."""

    action: Action
    acp: float
    note: str = ""


def leader(state: BattleState) -> BattleUnit | None:
    """The unit that names the active group: the retinue when a hero is attached."""
    if not state.active:
        return None
    units = [state.unit(k) for k in state.active]
    non_heroes = [u for u in units if not u.is_hero]
    return (non_heroes or units)[0]


def is_fleeing(state: BattleState) -> bool:
    return any(state.unit(k).c.fleeing for k in state.active)


def is_disabled(u: BattleUnit) -> bool:
    """Soulless: 'If its morale turns negative, the unit is disabled.'"""
    return u.has_rule("Soulless") and u.c.morale < 0


def _compulsive(state: BattleState, t: BattleTables, u: BattleUnit, charges: list[Legal]) -> list[Legal]:
    """Impetuous / For Glory: charge compulsively when Confident or Overconfident.

    "This rule ignores units located in a zone containing a terrain feature."
    """
    if state_of(u.c, False) not in ("Confident", "Overconfident"):
        return []
    out = []
    for lg in charges:
        z = state.zone_at(lg.action.target or "")
        if state.terrain_at(z) != "fields":
            continue
        enemies = state.enemies_in(z, u.side)
        if u.has_rule("For Glory") and any(e.is_hero for e in enemies):
            out.append(lg)
        elif u.has_rule("Impetuous"):
            out.append(lg)
    return out


def _melee_actions(
    state: BattleState, t: BattleTables, u: BattleUnit, members: list[BattleUnit], polearm: float
) -> list[Legal]:
    """An engaged group fights (everyone in the zone, or a hero it challenges) or retreats.

    A flying enemy can be fought only by flyers; Laborious Movements forbid the retreat.
    """
    assert u.zone is not None
    out: list[Legal] = []
    fight = fight_on_zone(state, u, polearm)
    if fight is not None:
        out.append(fight)
        for m in members:  # the Baneret's Challenge: a Fight whose target is an enemy hero
            out += [Legal(Action("fight", u.key, e.key), 1000.0 + polearm, f"{m.key} attacks {e.key} directly")
                    for e in challengeable(state, m)]
    if not any(m.has_rule("Laborious Movements") for m in members):
        for r in move_routes(state, t.rules, u):
            out.append(Legal(Action("retreat", u.key, state.zone_name(r.to)), r.acp, "risks being cut down"))
    return out


def fight_on_zone(state: BattleState, u: BattleUnit, polearm: float) -> Legal | None:
    """An engaged group's Fight on everyone in its zone: None when every enemy there flies and it does not."""
    assert u.zone is not None
    if not any(not e.flying or u.flying for e in state.enemies_in(u.zone, u.side)):
        return None
    return Legal(Action("fight", u.key), 1000.0 + polearm, "attack the enemies in the zone")


def moves(state: BattleState, t: BattleTables, u: BattleUnit) -> list[Legal]:
    """Every move of a group not engaged (its routes, :func:`.moves.move_routes`)."""
    return [Legal(Action("move", u.key, state.zone_name(r.to)), r.acp) for r in move_routes(state, t.rules, u)]


def _charges(state: BattleState, t: BattleTables, u: BattleUnit, polearm: float) -> list[Legal]:
    """Every charge the group may make; Cowards charge only engaged enemies (unless acting as a Retinue)."""
    charges = []
    for r in charge_routes(state, t.rules, u):
        if u.has_rule("Cowards") and not _acting_as_retinue(state, u):
            enemies = state.enemies_in(r.to, u.side)
            if not any(state.engaged(e) for e in enemies):
                continue  # "cannot charge unengaged enemies" unless acting as a Retinue
        charges.append(Legal(Action("charge", u.key, state.zone_name(r.to)), r.acp + polearm))
    return charges


def _stance_and_flight(state: BattleState, t: BattleTables, u: BattleUnit, engaged: bool) -> list[Legal]:
    """Changing stance, and for a flyer not engaged taking off or landing (never in a forest)."""
    assert u.zone is not None
    out: list[Legal] = []
    for st in ("defensive", "offensive"):
        if u.c.stance != st:
            out.append(Legal(Action("stance", u.key, option=st), t.rules.num("stance_acp")))
    if not engaged:
        if str(u.c.profile.movement) == "flyer":
            if u.flying:
                if state.terrain_at(u.zone) != "forests":
                    out.append(Legal(Action("land", u.key), t.rules.num("take_off_acp")))
            elif state.terrain_at(u.zone) != "forests":
                out.append(Legal(Action("take_off", u.key), t.rules.num("take_off_acp")))
    return out


def _command_actions(
    state: BattleState, t: BattleTables, u: BattleUnit, members: list[BattleUnit], engaged: bool
) -> list[Legal]:
    """A General's Rally (a Broken or fleeing ally within range), and a Chant's Verse and Finale."""
    assert u.zone is not None
    out: list[Legal] = []
    if any(m.general for m in members):
        rng = int(t.rules.num("rally_range"))
        if any(x.side == u.side and x.on_board and (x.c.morale < 0 or x.c.fleeing) and x.zone is not None
               and state.board.distance(x.zone, u.zone) <= rng for x in state.units):
            out.append(Legal(Action("rally", u.key), t.rules.num("rally_acp")))
    if any(m.has_rule("Chant") for m in members):
        if not engaged:  # "or becomes engaged": a Verse sung in a melee would end at once
            out.append(Legal(Action("verse", u.key), 1000.0, "allies within 2 zones gain morale while it sings"))
        sung = max(m.verses for m in members)
        if sung and not engaged:
            out.append(Legal(Action("finale", u.key), 1000.0, f"ends {counted(sung, 'Verse')}: allies within 2 zones gain morale"))
    return out


def legal_actions(state: BattleState, t: BattleTables) -> list[Legal]:
    """Every legal action of the active group, in a stable order.

    A fleeing group may only flee, a disabled one only wait, and a compulsive charge
    (Impetuous, For Glory) replaces every other choice.
    """
    if state.over or not state.active:
        return []
    u = leader(state)
    assert u is not None and u.zone is not None
    members = group_of(state, u)
    if is_fleeing(state):
        return [Legal(Action("flee", u.key), 0.0, "compulsory: the unit routs")]
    if all(is_disabled(m) for m in members):
        return [Legal(Action("wait", u.key), 1000.0, "disabled (Soulless with negative morale)")]
    engaged = state.engaged(u)
    out: list[Legal] = []
    polearm = t.rules.num("polearm_extra_acp") if any(m.has_rule("Polearm") for m in members) else 0.0
    if engaged:
        out += _melee_actions(state, t, u, members, polearm)
    else:
        out += moves(state, t, u)
        if not any(m.has_rule("Laborious Movements") for m in members):
            charges = _charges(state, t, u, polearm)
            forced = _compulsive(state, t, u, charges)
            if forced:
                return forced
            out += charges
    out += _ranged(state, t, u, engaged)
    out += _spells(state, t, u)
    out += _stance_and_flight(state, t, u, engaged)
    out += _command_actions(state, t, u, members, engaged)
    out.append(wait_legal(t, u, members, engaged))
    return out


def wait_legal(t: BattleTables, u: BattleUnit, members: list[BattleUnit], engaged: bool) -> Legal:
    """The Wait every group that is neither fleeing nor disabled may take (the legal list's last entry)."""
    return Legal(Action("wait", u.key), 1000.0, wait_note(t, members, engaged))


def wait_note(t: BattleTables, members: list[BattleUnit], engaged: bool) -> str:
    """What a Wait recovers, as :func:`.handlers._wait` does it: "If a unit is too tired, it can Wait
    for a turn to reduce the accumulated Fatigue Points and Veil Points by 50%. This can only be
    done if it is not in a melee." / "If the Wait action is performed while flying, it does not
    allow the unit to restore Fatigue." (Meditation: 75 %.)"""
    if engaged:
        return "recovers nothing in a melee"
    resting = [m for m in members if not m.flying]
    if not resting:
        return "recovers nothing while flying"
    shares = sorted({t.rules.num("meditation_recovery" if m.has_rule("Meditation") else "wait_recovery") for m in resting})
    text = " / ".join(f"{s:.0%}" for s in shares)
    return f"recovers {text} of Fatigue and Veil" + ("" if len(resting) == len(members) else " (not while flying)")


def _acting_as_retinue(state: BattleState, u: BattleUnit) -> bool:
    """A unit acts as a Retinue while its hero lives and stands with it."""
    if u.hero is None:
        return False
    h = state.unit(u.hero)
    return h.on_board and h.zone == u.zone


def _ranged(state: BattleState, t: BattleTables, u: BattleUnit, engaged: bool) -> list[Legal]:
    if u.flying:
        return []
    shots = [s for s in u.c.profile.shots if s in t.rules.actions and t.rules.actions[s].kind == "ranged"]
    if not shots or (engaged and u.name not in t.rules.shoot_engaged.value):
        return []
    if (u.has_rule("Reload") or u.has_rule("Artillery")) and not u.reloaded:  # Artillery: "Must reload between each shot"
        return [Legal(Action("reload", u.key), t.rules.num("reload_acp"), "must reload between each shot")]
    out: list[Legal] = []
    assert u.zone is not None
    for z in sorted(state.zones_with_enemies(u.side), key=lambda z: (z[1], z[0])):  # the board's reading order
        d = state.board.distance(u.zone, z)
        if d == 0 and not engaged:
            continue
        for s in shots:
            act = t.rules.actions[s]
            reach = u.c.stat("range")
            if act.spell is not None:
                reach = t.rules.spells[act.spell].range.value
            if act.range is not None and not u.has_rule("Artillery"):
                reach = min(reach, act.range.value)
            if d <= reach:
                out.append(Legal(Action("shoot", u.key, state.zone_name(z), s), act.acp.value))
    return out


def _spells(state: BattleState, t: BattleTables, u: BattleUnit) -> list[Legal]:
    out: list[Legal] = []
    assert u.zone is not None
    zone_spells = {a.spell for a in t.rules.actions.values() if a.resolution != "bow"}
    for sp in u.c.profile.spells:
        if sp not in t.rules.spells or sp in zone_spells:
            continue  # lightning falls on a zone (a shoot action), it is not cast at one unit
        spell = t.rules.spells[sp]
        for e in state.units:
            if e.side == u.side or not e.on_board or e.zone is None:
                continue
            if state.board.distance(u.zone, e.zone) <= spell.range.value and spell.element not in e.c.profile.immune:
                out.append(Legal(Action("cast", u.key, e.key, sp), spell.acp.value))
    return out


def find_legal(state: BattleState, t: BattleTables, action: Action) -> Legal:
    """The legal entry matching ``action`` (unit names are matched case-insensitively)."""
    legal = legal_actions(state, t)
    for lg in legal:
        a = lg.action
        if (a.kind == action.kind and a.unit.lower() == action.unit.lower()
                and (a.target or "").lower() == (action.target or "").lower()
                and (a.option or "shot" if a.kind == "shoot" else a.option or "") ==
                (action.option or "shot" if action.kind == "shoot" else action.option or "")):
            return lg
    if state.over:
        raise IllegalActionError("the battle is over", code_detail="game_over")
    kinds = sorted({lg.action.kind for lg in legal})
    raise IllegalActionError(
        f"{action.text()} is not legal now; {', '.join(state.active)} may: {', '.join(kinds)}"
        + ("" if not legal else f" (e.g. {legal[0].action.text()})"),
        legal=[lg.action.to_dict() for lg in legal],
    )
