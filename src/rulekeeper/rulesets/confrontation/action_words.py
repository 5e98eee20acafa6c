"""What a player types or posts for a skirmish action, read into its typed action (:mod:`.action_types`), and the
words the log gives each action (``Game.action_text``).

Why a module of its own: the web form, the API and the command line name fighters loosely ("alahan guard"),
give the kind in words of their own ("walk", "melee", "jump", "call"), write a destination as ``30,20`` or
``30 20``, leave the side or the General out; this is where those words become one action, in the order the
log has always kept, before the one codec checks its shape by type. Whether it is legal now is the rules'
question (:func:`.checks.check`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from rulekeeper.core.errors import IllegalActionError, UnknownNameError
from rulekeeper.core.wording import counted

from .accumulators import named_of
from .action_types import (
    ACTIONS,
    Absorb,
    Cast,
    Charge,
    Concentrate,
    Cure,
    Declare,
    Disengage,
    Lead,
    Place,
    Pursue,
    Shoot,
    SkirmishAction,
    Split,
    ToPoint,
)
from .after_ini import pending as announcement
from .before_ini import pending
from .checks import KINDS
from .concentration import points_of
from .disengage import way_out
from .skirmish import groups
from .spells import mystic_rules
from .state import SIDES, SkirmishState, replace
from .tactical import general

KIND_WORDS = {"move": "move", "walk": "move", "charge": "charge", "hold": "hold", "wait": "hold",
              "fight": "fight", "melee": "fight", "combat": "fight", "shoot": "shoot", "shot": "shoot", "fire": "shoot",
              "tactical": "tactical", "roll": "tactical", "lead": "lead", "first": "lead", "flee": "flee",
              "pursue": "pursue", "stay": "stay", "remove": "remove", "keep": "keep", "return": "return",
              "disengage": "disengage", "split": "split", "leap": "leap", "jump": "leap", "authority": "authority",
              "authority_split": "authority_split", "decline": "decline", "pass": "pass", "allow": "allow",
              "force": "force", "cover": "cover", "ready": "ready", "cast": "cast", "call": "cast",
              "counter": "counter", "censure": "counter", "let": "let", "concentrate": "concentrate",
              "concentration": "concentrate", "steady": "steady", "absorb": "absorb", "assault": "charge",
              "react": "react", "withhold": "withhold", "place": "place", "placement": "place",
              "declare": "declare", "cure": "cure", "heal": "cure"}
#: The kinds a side's General makes (the side's choice): the form may leave the fighter out.
GENERALS = ("tactical", "lead", "authority", "decline", "pass", "allow", "force", "ready", "let", "steady")
#: Words that name no one as a cure's target.
NO_ONE = ("none", "nobody", "no one", "no")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
_POINTS = re.compile(r"\b(INI|ATT|STR|DEF|RES|MOV|AIM|COU|DIS)\s*[+=:]?\s*(\d+)\b", re.IGNORECASE)


def _coords(value: object) -> list[float]:
    """``[30, 20]``, ``"30,20"`` or ``"30 20"`` as a destination in cm (to the millimetre)."""
    parts: list[object]
    if isinstance(value, str):
        parts = [p for p in re.split(r"[,\s;]+", value.strip().strip("()[]")) if p]
    elif isinstance(value, list | tuple):
        parts = list(value)
    else:
        parts = []
    try:
        x, y = (_number(p) for p in parts)
    except (TypeError, ValueError):
        raise IllegalActionError(f"a destination is X,Y in cm (e.g. 30,20), got {value!r}", field="to") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise IllegalActionError(f"a destination is two finite numbers of cm, got {value!r}", field="to")
    return [round(x, 1), round(y, 1)]  # as the offers keep a point (``offers.point``)


def _number(part: object) -> float:
    if isinstance(part, int | float | str):
        return float(part)
    raise TypeError(part)


def fighter_name(state: SkirmishState, text: str) -> str:
    """The key of the fighter ``text`` names (case and spacing aside), or a typed error listing them."""
    wanted = " ".join(text.split()).casefold()
    for f in state.fighters:
        if f.key.casefold() == wanted:
            return f.key
    raise UnknownNameError("fighter", text, [f.key for f in state.fighters])


def parse_form(state: SkirmishState, data: Mapping[str, object]) -> SkirmishAction:
    """A form's, a request's or the command line's fields as the action they name (``Game.parse_action``)."""
    word = str(data.get("kind", "")).strip().lower()
    kind = KIND_WORDS.get(word)
    if word == "assault":  # a charge with assault fire (assault.py)
        data = {**data, "assault": True}
    if kind is None:
        raise IllegalActionError(f"not a Confrontation skirmish action: {data.get('kind')!r} "
                                 f"({', '.join(KINDS)})", kind=str(data.get("kind")))
    named = data.get("side")
    side = state.to_act if named in (None, "") else str(named).strip().upper()
    if side not in SIDES:
        raise IllegalActionError(f"no side {side!r} in a skirmish (A or B)", side=side)
    if kind in ("react", "withhold") and state.reacting and data.get("fighter") in (None, ""):
        data = {**data, "fighter": state.reacting[1]}  # the charged fighter answers
    if kind in GENERALS:  # the General's
        if not state.standing(side):
            raise IllegalActionError(f"side {side} has no fighter standing", side=side)
        data = {**data, "fighter": data.get("fighter") or general(state, side).key}
    if data.get("fighter") in (None, ""):
        raise IllegalActionError(f"a {kind} needs a fighter", field="fighter")
    out: dict[str, object] = {"kind": kind, "side": side, "fighter": fighter_name(state, str(data["fighter"]))}
    out.update(_fields(state, kind, data, str(out["fighter"])))
    return ACTIONS.decode(out)


def _fields(state: SkirmishState, kind: str, data: Mapping[str, object], fighter: str) -> dict[str, object]:
    """The fields of a ``kind`` after its fighter, in the order the log keeps them (names folded, points counted)."""
    out: dict[str, object] = {}
    if kind == "cast":
        out["spell"] = str(data.get("spell", "")).strip()
    if kind == "concentrate":
        out["points"] = points_of(data.get("points"))
    if kind == "absorb":
        named = data.get("from")
        named = [n for n in named.split(",") if n.strip()] if isinstance(named, str) else named
        out["from"] = [fighter_name(state, n) if isinstance(n, str) else n for n in named_of(named)]
    if kind in ("charge", "shoot", "pursue", "cast"):
        if data.get("target") in (None, ""):
            raise IllegalActionError(f"a {kind} needs a target", field="target")
        out["target"] = fighter_name(state, str(data["target"]))
        if kind in ("charge", "pursue") and data.get("leap"):
            out["leap"] = True
        if kind == "charge" and data.get("assault"):
            out["assault"] = True
        if kind == "charge" and data.get("resolute"):
            out["resolute"] = True
    elif kind in ("move", "return", "leap", "cover"):
        out["to"] = _coords(data.get("to"))
    elif kind == "disengage":
        out["test"] = str(data.get("test") or "INI").strip().upper()
        f = state.fighter(fighter)
        if data.get("to") not in (None, ""):
            out["to"] = _coords(data.get("to"))
        elif f.engaged and (way := way_out(state, f)) is not None:
            out["to"] = way
        else:
            raise IllegalActionError(f"{f.key} has no way out of his fight: name one (X,Y)", field="to")
    elif kind in ("split", "authority_split"):
        apart = data.get("apart")
        names = apart.split(",") if isinstance(apart, str) else apart if isinstance(apart, list) else []
        out["apart"] = [fighter_name(state, str(n)) for n in names if str(n).strip()]
        if not out["apart"] and kind == "split":
            raise IllegalActionError("a split names the fighters it splits off: split NAME, NAME, …", field="apart")
    elif kind == "cure":  # whom he cures (cure.py): a fighter, or none
        named = str(data.get("target") or "").strip()
        if named and named.lower() not in NO_ONE:
            out["target"] = fighter_name(state, named)
    elif kind == "place":  # place FIGHTER N: his dice in attack (placing.py)
        try:
            out["attack"] = int(str(data.get("attack", "")).strip())
        except ValueError:
            raise IllegalActionError(f"a placement gives the dice in attack as a whole number, got "
                                     f"{data.get('attack')!r}", field="attack") from None
    elif kind == "declare":  # declare FIGHTER N: War fury, Resolute (1 used, 0 not) or Sequence's dice (before_ini.py)
        out.update(_declared(state, fighter, data))
    elif kind == "lead":
        first = str(data.get("first", "")).strip()
        out["first"] = next((s for s in SIDES if first.upper() == s or first.casefold() == state.name(s).casefold()),
                            first)
    return out


_YES_NO = {"yes": 1, "no": 0, "use": 1, "not": 0}


def _declared(state: SkirmishState, fighter: str, data: Mapping[str, object]) -> dict[str, object]:
    """A declaration's ability (the one his player declares now, if not named) and value (a whole number, or
    yes/no for War fury)."""
    said = str(data.get("value", "")).strip().lower()
    try:
        value = _YES_NO[said] if said in _YES_NO else int(said)
    except ValueError:
        raise IllegalActionError(f"a declaration gives a whole number (War fury, Resolute: 1 or yes, 0 or no; Sequence: the "
                                 f"dice he takes), got {data.get('value')!r}", field="value") from None
    ability = str(data.get("ability") or "").strip()
    if not ability and state.rapid_flight == fighter:  # his opponent's choice on his Rapidity (flight.py)
        ability = "Rapidity"
    if not ability and state.crying == fighter:  # his Rallying cry (rallying_cry.py)
        ability = "Rallying cry"
    if not ability and state.steeling[:1] == (fighter,):  # Resolute on his COU test (steeling.py)
        ability = "Resolute"
    if not ability:
        now = pending(state) if state.before_ini and not state.placing else None
        ability = now.ability if now is not None and now.fighter.key == fighter else "War fury"
        now_after = announcement(state) if state.placing else None  # Additional limb or Fencer (after_ini.py)
        ability = now_after.ability if now_after is not None and now_after.fighter.key == fighter else ability
    return {"ability": ability, "value": value}


def parse_words(state: SkirmishState, words: Sequence[str]) -> SkirmishAction:
    """``move Alahan guard 30,20`` (or ``… 30 20``), ``charge Wolfen hunter Alahan guard``, ``shoot Alahan
    crossbowman Wolfen hunter``, ``hold Alahan guard``, ``fight Alahan guard`` (his fray), ``tactical`` (the
    Tactical roll), ``lead A`` (the roll's winner: side A acts first): names need no quotes."""
    if not words:
        raise IllegalActionError("an action is KIND FIGHTER [TARGET|X,Y], e.g. hold Alahan guard")
    kind = KIND_WORDS.get(words[0].strip().lower())
    if kind is None:
        raise IllegalActionError(f"not a Confrontation skirmish action: {words[0]!r} ({', '.join(KINDS)})")
    rest = " ".join(words[1:]).split()
    if kind == "authority" and rest and rest[0].lower() in ("split", "whole"):
        return _token_split(state, rest)
    if kind in GENERALS and kind != "lead":
        return parse_form(state, {"kind": kind})
    if kind in ("react", "withhold", "hold", "fight", "flee", "stay", "remove", "keep", "counter"):
        return parse_form(state, {"kind": kind, "fighter": " ".join(rest)})
    if kind == "place":  # place FIGHTER N: his combat dice in attack, the rest in defence
        if len(rest) < 2 or not rest[-1].isdigit():
            raise IllegalActionError("a placement is place FIGHTER N (N: his dice in attack), e.g. place Alahan guard 2")
        return parse_form(state, {"kind": kind, "fighter": " ".join(rest[:-1]), "attack": rest[-1]})
    if kind == "declare":  # declare FIGHTER N: before the INI test, War fury, Resolute (yes/no) or Sequence's dice
        if len(rest) < 2 or not (rest[-1].isdigit() or rest[-1].lower() in _YES_NO):
            raise IllegalActionError("a declaration is declare FIGHTER N (War fury, Resolute: yes or no; Sequence: the dice he "
                                     "takes), e.g. declare Wolfen predator yes")
        return parse_form(state, {"kind": kind, "fighter": " ".join(rest[:-1]), "value": rest[-1]})
    if kind == "cure":  # cure CURER on TARGET, cure CURER none (cure.py)
        text = " ".join(rest)
        curer, _, target = text.partition(" on ")
        if not target and text.lower().split()[-1:] and text.lower().split()[-1] in NO_ONE:
            curer, target = " ".join(text.split()[:-1]), "none"
        if not curer.strip() or not target.strip():
            raise IllegalActionError("a cure is cure CURER on TARGET (or cure CURER none), e.g. cure Alahan priest on "
                                     "Alahan guard", kind="cure")
        return parse_form(state, {"kind": kind, "fighter": curer, "target": target})
    if kind in ("absorb", "concentrate", "cast", "lead", "split", "disengage"):
        return _special_words(state, kind, rest)
    if kind == "charge" and rest and rest[-1].lower() == "resolute":  # charge X Y resolute: Resolute on his COU test
        return parse_form(state, {**ACTIONS.encode(parse_words(state, [words[0], *rest[:-1]])), "resolute": True})
    if words[0].strip().lower() == "assault":  # assault CHARGER TARGET: a charge with assault fire
        return parse_form(state, {**ACTIONS.encode(parse_words(state, ["charge", *rest])), "assault": True})
    if kind == "leap" and not (rest and (_NUMBER.match(rest[-1].strip(",")) or "," in rest[-1])):
        chase = "pursue" if state.phase == "combat" else "charge"  # leap CHARGER TARGET: a charge (a pursuit)
        chasing = parse_words(state, [chase, *rest])
        assert isinstance(chasing, Charge | Pursue)  # what a charge's or a pursuit's words make
        return replace(chasing, leap=True)
    if kind in ("move", "return", "leap", "cover"):
        tail = 2 if len(rest) >= 3 and all(_NUMBER.match(w.strip(",")) for w in rest[-2:]) else 1
        return parse_form(state, {"kind": kind, "fighter": " ".join(rest[:-tail]), "to": " ".join(rest[-tail:])})
    keys = {f.key.casefold() for f in state.fighters}
    for cut in range(1, len(rest)):
        a, b = " ".join(rest[:cut]), " ".join(rest[cut:])
        if a.casefold() in keys and b.casefold() in keys:
            return parse_form(state, {"kind": kind, "fighter": a, "target": b})
    raise IllegalActionError(f"{kind} takes two fighters' names: CHARGER TARGET "
                             f"(known: {', '.join(f.key for f in state.fighters)})")


def _special_words(state: SkirmishState, kind: str, rest: list[str]) -> SkirmishAction:
    """The words of the kinds with fields of their own: absorb, concentrate, cast, lead, split, disengage."""
    if kind == "absorb":  # absorb ACCUMULATOR FROM[, FROM…]: names need no quotes
        cut = next((c for c in range(1, len(rest)) if " ".join(rest[:c]).casefold() in
                    {f.key.casefold() for f in state.fighters}), len(rest))
        return parse_form(state, {"kind": kind, "fighter": " ".join(rest[:cut]), "from": " ".join(rest[cut:])})
    if kind == "concentrate":  # concentrate FIGHTER ATT 2 [DEF 1 …] (or ATT+2, ATT=2)
        text = " ".join(rest)
        found = _POINTS.findall(text)
        start = _POINTS.search(text)
        return parse_form(state, {"kind": kind, "fighter": text[:start.start()] if start else text,
                                  "points": {c.upper(): int(n) for c, n in found}})
    if kind == "cast":
        return _cast_words(state, rest)
    if kind == "lead":
        return parse_form(state, {"kind": kind, "first": " ".join(rest)})
    if kind == "split":  # split NAME, NAME, …: the block split off (the Tactical roll's winner's first fighter)
        named = [n for n in " ".join(rest).split(",") if n.strip()]
        lead = next((mine[0].key for mine, theirs in groups(state)
                     if named and fighter_name(state, named[0]) in {f.key for f in (*mine, *theirs)}), "")
        return parse_form(state, {"kind": kind, "fighter": lead or (named[0] if named else ""), "apart": named})
    # disengage FIGHTER [INI|STR] [X,Y]
    to = None
    if len(rest) >= 3 and all(_NUMBER.match(w.strip(",")) for w in rest[-2:]):
        to, rest = " ".join(rest[-2:]), rest[:-2]
    elif rest and "," in rest[-1]:
        to, rest = rest[-1], rest[:-1]
    test = rest.pop().upper() if rest and rest[-1].upper() in ("INI", "STR") else "INI"
    return parse_form(state, {"kind": kind, "fighter": " ".join(rest), "test": test, "to": to})


def _cast_words(state: SkirmishState, rest: list[str]) -> SkirmishAction:
    """``cast CASTER CARD TARGET`` (``call`` for a miracle): names need no quotes."""
    keys = {f.key.casefold() for f in state.fighters}
    cards = {c.name.casefold() for c in mystic_rules().cards}
    for i in range(1, len(rest)):
        for j in range(i + 1, len(rest)):
            a, b, c = " ".join(rest[:i]), " ".join(rest[i:j]), " ".join(rest[j:])
            if a.casefold() in keys and b.casefold() in cards and c.casefold() in keys:
                return parse_form(state, {"kind": "cast", "fighter": a, "spell": b, "target": c})
    raise IllegalActionError("cast takes CASTER CARD TARGET (cards: "
                             f"{', '.join(c.name for c in mystic_rules().cards)})", field="spell")


def _token_split(state: SkirmishState, rest: list[str]) -> SkirmishAction:
    """``authority split NAME, NAME, …`` (the block split off with a token) or ``authority whole NAME``."""
    named = [n for n in " ".join(rest[1:]).split(",") if n.strip()]
    if rest[0].lower() == "whole":
        return parse_form(state, {"kind": "authority_split", "fighter": " ".join(rest[1:]), "apart": []})
    keys = {fighter_name(state, n) for n in named}
    lead = next((f.key for mine, theirs in groups(state) for f in (*mine, *theirs)
                 if f.side == state.to_act and keys & {g.key for g in (*mine, *theirs)}), "")
    return parse_form(state, {"kind": "authority_split", "fighter": lead or (named[0] if named else ""),
                              "apart": named})


def _to_text(to: tuple[float, float]) -> str:
    return f"({to[0]:g}, {to[1]:g})"


def action_text(action: SkirmishAction) -> str:
    """The log's words for an action (no state: the stored log is read without replaying it)."""
    who, side = action.fighter, action.side
    match action:
        case ToPoint(kind="move"):
            return f"{who} walks to {_to_text(action.to)}"
        case ToPoint(kind="leap"):
            return f"{who} leaps to {_to_text(action.to)}"
        case ToPoint(kind="return"):
            return f"{who} comes back at {_to_text(action.to)}"
        case ToPoint():
            return f"{who} moves under cover to {_to_text(action.to)}"
        case Charge():
            return f"{who} charges {action.target}" + (", firing (assault fire)" if action.assault else "")
        case Shoot():
            return f"{who} shoots {action.target}"
        case Pursue():
            return f"{who} pursues {action.target}" + (", leaping" if action.leap else "")
        case Disengage():
            return f"{who} tries to disengage ({action.test} test)"
        case Lead():
            return f"side {side} chooses: side {action.first} acts first"
        case Cast():
            card = mystic_rules().card(action.spell)
            return f"{who} {card.verb if card else 'casts'} {action.spell} on {action.target}"
        case Concentrate():
            return f"{who} concentrates: " + ", ".join(f"{c} +{n}" for c, n in action.points.given().items())
        case Absorb():
            return f"{who} absorbs from {' and '.join(action.from_)}"
        case Split(kind="authority_split"):
            return f"side {side} spends an Authority token on {who}'s fray"
        case Split():
            return f"side {side} splits {' and '.join(action.apart)} off their fray"
        case Place():  # without the state the dice War fury adds are unknown: the report line gives the counts
            return f"{who} places his combat dice"
        case Cure():
            return f"{who} cures {action.target or 'no one'}"
        case Declare(ability="Sequence"):
            return f"{who} takes {counted(action.value, 'Sequence die', 'Sequence dice')}"
        case Declare(ability="Rapidity"):  # the opponent's choice on a fleeing fighter's Rapidity (flight.py)
            return f"side {side} {'lets' if action.value else 'does not let'} {who} run with Rapidity"
        case Declare(ability="Fencer"):
            return f"{who} holds {'one' if action.value else 'no'} combat die in reserve"
        case Declare():  # War fury, Resolute, Additional limb: used or not
            return f"{who} {'uses' if action.value else 'does not use'} {action.ability}"
    return FIGHTER_WORDS[action.kind].format(who=who, side=side)


#: The words of the actions that name one fighter and nothing else.
FIGHTER_WORDS = {
    "fight": "{who} fights", "hold": "{who} holds", "tactical": "side {side} rolls the Tactical roll",
    "flee": "{who} flees", "stay": "{who} does not pursue", "remove": "{who} is removed from play",
    "keep": "{who} stays in the area of losses", "counter": "{who} counters",
    "let": "side {side} lets the spell work", "react": "{who} fires at his charger (reaction fire)",
    "withhold": "{who} holds his fire", "steady": "side {side} is steady (no more Concentration)",
    "ready": "side {side} is ready (no more moves under cover)", "pass": "side {side} passes",
    "allow": "side {side} lets them pass", "force": "side {side} forces them to play (Authority)",
    "decline": "side {side} spends no Authority token", "authority": "side {side}: authority",
}
