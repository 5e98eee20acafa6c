"""What a player types or posts for a Battle System action, read into its typed action (:mod:`.actions`).

Why a module of its own: the web form, the API and the command line give the kind in words of their own
("melee", "fire", "end turn"), name units in any case and leave the side out; this is where those words
become one action, through the one codec (:data:`.actions.ACTIONS`, which checks its shape by type), its
unit names and hexes then in their canonical case. Whether it is legal now is the rules' question.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rulekeeper.core.errors import IllegalActionError, UnknownNameError
from rulekeeper.core.wording import counted

from .actions import ACTIONS, FIELDS, KINDS, AtHex, BSAction, Move, Targeted
from .state import SIDES, BattleState

#: Loose spellings a player may type for a kind.
KIND_WORDS = {"move": "move", "attack": "attack", "melee": "attack", "shoot": "shoot", "missile": "shoot",
              "fire": "shoot", "barrage": "barrage", "end_turn": "end_turn", "end": "end_turn", "end turn": "end_turn",
              "end-turn": "end_turn", "pass": "end_turn", "pursue": "pursue", "pursuit": "pursue",
              "chase": "pursue", "rally": "rally", "tend": "tend", "heal": "tend", "resupply": "resupply",
              "supply": "resupply", "bridge": "bridge"}


def unit_name(state: BattleState, text: str) -> str:
    """The unit ``text`` names, whatever its case, or an :class:`UnknownNameError` suggesting the nearest."""
    wanted = text.strip().casefold()
    for p in state.units:
        if p.name.casefold() == wanted:
            return p.name
    raise UnknownNameError("unit", text, [p.name for p in state.units])


def read_action(state: BattleState, data: Mapping[str, object]) -> BSAction:
    """The action a form, the API or the command line names (see the module's docstring)."""
    word = str(data.get("kind", "")).strip().lower()
    kind = KIND_WORDS.get(word) or KIND_WORDS.get(word.replace(" ", "_"))
    if kind is None:
        raise IllegalActionError(f"not a Battle System action: {data.get('kind')!r} ({', '.join(KINDS)})",
                                 kind=str(data.get("kind")))
    given = data.get("side")
    side = state.to_act if given in (None, "") else str(given).strip().upper()
    if side not in SIDES:
        raise IllegalActionError(f"no side {side!r} in a Battle System battle (A or B)", side=side)
    typed = ACTIONS.decode({"kind": kind, "side": side, **{k: data.get(k) for k in FIELDS[kind]}})
    match typed:  # the shape checked by type; names and hexes in their canonical case
        case Move():
            return replace(typed, unit=unit_name(state, typed.unit), to=typed.to.upper())
        case Targeted():
            return replace(typed, unit=unit_name(state, typed.unit), target=unit_name(state, typed.target))
        case AtHex():
            return replace(typed, unit=unit_name(state, typed.unit), hex=typed.hex.upper())
    return typed


def read_words(state: BattleState, words: Sequence[str]) -> BSAction:
    """``move "Riverguard Foot" C2``, ``attack X Y``, ``shoot X Y``, ``barrage X E3``, ``pursue X Y``,
    ``rally GENERAL Y``, ``tend MEDICS Y``, ``resupply SUPPLY Y``, ``bridge ENGINEERS D3``, ``end``."""
    if not words:
        raise IllegalActionError("an action is KIND [UNIT] [TARGET|HEX], e.g. end")
    kind = KIND_WORDS.get(words[0].strip().lower())
    if kind is None:
        raise IllegalActionError(f"not a Battle System action: {words[0]!r} ({', '.join(KINDS)})")
    keys = FIELDS[kind]
    if len(words) != len(keys) + 1:
        raise IllegalActionError(f"{kind} takes {counted(len(keys), 'word')}: {' '.join(k.upper() for k in keys) or '-'}")
    return read_action(state, {"kind": kind, **dict(zip(keys, words[1:], strict=True))})
