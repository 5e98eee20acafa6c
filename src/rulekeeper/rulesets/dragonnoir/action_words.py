"""What a player types or posts for a Dragon Noir action, read into its typed action (:mod:`.action_types`).

Why a module of its own: the web form, the API and the command line name characters and spells loosely
("grast", "goblin 1", "heal"), give the kind in words of their own ("fire", "end", "spell") and leave the
side out; this is where those words become one action, the characters in the battle's order (the order
the legal list names them in), before the one codec checks its shape by type. Whether it is legal now is
the rules' question (:func:`.actions.check`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rulekeeper.core.errors import IllegalActionError, UnknownNameError
from rulekeeper.core.wording import counted

from .action_types import ACTIONS, KINDS, Attack, Cast, Clear, DNAction, DragonMove
from .magic import spell_on

if TYPE_CHECKING:
    from .state import DNState

#: The sides (``state.SIDES``), here so that reading an action does not load the battle modules.
SIDES = ("A", "B")

KIND_WORDS = {"shoot": "shoot", "fire": "shoot", "hold": "hold", "pass": "hold", "move": "move", "step": "move",
              "half_turn": "half_turn", "turn": "half_turn", "about": "half_turn", "mount": "mount",
              "dismount": "dismount", "attack": "attack", "fight": "attack", "take_blow": "take_blow",
              "blow": "take_blow", "victim": "take_blow", "advance": "advance", "stay": "stay",
              "end_phase": "end_phase", "end": "end_phase", "next": "end_phase", "done": "end_phase",
              "cast": "cast", "spell": "cast", "counter": "counter", "counterspell": "counter", "let_be": "let_be",
              "let": "let_be", "dragon_move": "dragon_move", "dragon": "dragon_move",
              "clear": "clear", "carry": "carry", "lift": "carry", "set_down": "set_down", "drop": "set_down",
              "jump": "jump", "lead": "lead", "bridle": "lead", "fly": "fly", "flight": "fly",
              "no_spell": "no_spell", "nospell": "no_spell", "no_magic": "no_spell", "place": "place",
              "retreat": "place", "put": "place"}
#: Each kind's fields after its side, in order (the command line's words: ``move CHARACTER HEX``).
FIELDS: dict[str, tuple[str, ...]] = {
    "shoot": ("unit", "target"), "hold": (), "move": ("unit", "to"), "half_turn": ("unit",), "mount": ("unit",),
    "dismount": ("unit", "to"), "attack": ("units", "targets"), "take_blow": ("unit",), "advance": ("unit", "to"),
    "stay": (), "end_phase": (), "cast": ("unit", "spell", "target"), "counter": ("unit",), "let_be": (),
    "dragon_move": ("to",), "clear": ("units", "frm", "to"), "carry": ("unit", "to"), "set_down": ("unit", "to"),
    "jump": ("unit", "to"), "lead": ("unit", "horse"), "fly": ("unit", "to"), "no_spell": (), "place": ("unit", "to")}


def names(state: DNState, value: object) -> list[str]:
    """The characters a request names (a list, or one text of comma-separated names), in the battle's order."""
    items = value if isinstance(value, list) else str(value).split(",")
    wanted = [" ".join(str(i).split()).casefold() for i in items if str(i).strip()]
    out = []
    for w in wanted:
        found = next((m.name for m in state.men if m.name.casefold() == w), None)
        if found is None:
            raise UnknownNameError("character", w, [m.name for m in state.men])
        out.append(found)
    order = [m.name for m in state.men]
    return sorted(dict.fromkeys(out), key=order.index)


def spell_name(text: str) -> str:
    """The canonical name of a spell typed loosely."""
    from .magic import shipped_spells

    return shipped_spells().spell(text)[0]


def _kind(word: object) -> str:
    typed = str(word or "").strip().lower()
    kind = KIND_WORDS.get(typed) or KIND_WORDS.get(typed.replace(" ", "_").replace("-", "_"))
    if kind is None:
        raise IllegalActionError(f"not a Dragon Noir action: {word!r} ({', '.join(KINDS)})", kind=str(word))
    return kind


def _side(state: DNState, kind: str, data: Mapping[str, object]) -> str:
    """The side named, else a casting wizard's own, else the side to decide."""
    side = data.get("side")
    if side in (None, "") and kind == "cast" and data.get("unit"):  # a wizard casts for his own side
        side = state.man(names(state, [data["unit"]])[0]).side
    side = state.to_act if side in (None, "") else str(side).strip().upper()
    if side not in SIDES:
        raise IllegalActionError(f"no side {side!r} in a Dragon Noir battle (A or B)", side=side)
    return side


def read_action(state: DNState, data: Mapping[str, object]) -> DNAction:
    """The action a form, the API or the command line names (see the module's docstring)."""
    kind = _kind(data.get("kind"))
    out: dict[str, object] = {"kind": kind, "side": _side(state, kind, data)}
    for key in FIELDS[kind]:
        value = data.get(key, data.get(key.rstrip("s")) if key in ("units", "targets") else None)
        if value is None or (not isinstance(value, list) and str(value).strip() == ""):
            raise IllegalActionError(f"a {kind} needs {key}", field=key)
        if key in ("units", "targets"):
            out[key] = names(state, value)
        elif key in ("unit", "target", "horse"):
            out[key] = names(state, [value])[0]
        elif key == "spell":
            out[key] = spell_name(str(value))
        else:
            out[key] = str(value).strip().upper()
    horse = data.get("horse")
    if kind == "mount" and horse not in (None, ""):  # another character's horse
        out["horse"] = names(state, [horse])[0]
    via = data.get("via")
    if kind == "attack" and isinstance(via, list) and len(via) == 2:  # the dragon's centre from a limb's hex
        out["via"] = [names(state, [via[0]])[0], str(via[1]).strip().upper()]
    return ACTIONS.decode(out)  # its shape checked by type, through the one codec


def read_words(state: DNState, words: Sequence[str]) -> DNAction:
    """``shoot Laberne "Goblin 1"``, ``move Grast D4``, ``attack Grast,Thrug "Crazy Ork"``, ``hold``, ``end``."""
    if not words:
        raise IllegalActionError("an action is KIND [CHARACTER] [TARGET|HEX], e.g. end")
    kind = KIND_WORDS.get(words[0].strip().lower())
    if kind is None:
        raise IllegalActionError(f"not a Dragon Noir action: {words[0]!r} ({', '.join(KINDS)})")
    keys = FIELDS[kind]
    if kind == "attack" and len(words) == 4:  # attack UNITS "Black Dragon body" HEX: the first from a limb's hex
        first = names(state, words[1])[0]
        return read_action(state, {"kind": kind, "units": words[1], "targets": words[2], "via": [first, words[3]]})
    if kind == "mount" and len(words) == 3:  # mount UNIT HORSE: another character's horse
        return read_action(state, {"kind": kind, "unit": words[1], "horse": words[2]})
    if len(words) != len(keys) + 1:
        raise IllegalActionError(f"{kind} takes {counted(len(keys), 'word')}: {' '.join(k.upper() for k in keys) or '-'}")
    return read_action(state, {"kind": kind, **dict(zip(keys, words[1:], strict=True))})


#: A side's decision without a character (``Decide``), as the log and "Last action" say it. Why not the kind's
#: own name: the spectator's page read "Last action: side B: end phase", which says neither what ended nor who.
DECISION_WORDS = {"end_phase": "ends its sequence", "hold": "holds its fire", "stay": "does not advance",
                  "no_spell": "casts no spell now", "let_be": "lets the spell be cast"}


def action_text(action: DNAction) -> str:
    """An action as the log and the pages say it: "Laberne shoots at Goblin 1", "Grast + Thrug attack Crazy Ork"."""
    match action:
        case Attack():
            return f"{' + '.join(action.units)} attack {' + '.join(action.targets)}"
        case DragonMove():
            return f"the Black Dragon moves to {action.to}"
        case Clear():
            return f"{' and '.join(action.units)} move the dead from {action.frm}"
        case Cast():
            return f"{action.unit} casts {spell_on(action.spell, action.target)}"
    kind, side = action.kind, action.side
    rest = {"shoot": "shoots at {target}", "move": "moves to {to}", "half_turn": "turns about",
            "mount": "mounts", "dismount": "dismounts onto {to}", "take_blow": "takes the blow",
            "advance": "advances to {to}",
            "counter": "counters the spell", "carry": "picks up the stunned man on {to}",
            "set_down": "sets his load down on {to}", "jump": "jumps to {to}",
            "lead": "takes {horse} by the bridle", "place": "is placed on {to}"}.get(kind)
    if rest is None:
        return f"side {side} {DECISION_WORDS.get(kind, kind.replace('_', ' '))}"
    logged = ACTIONS.encode(action)
    return f"{logged['unit']} {rest.format(**logged)}"
