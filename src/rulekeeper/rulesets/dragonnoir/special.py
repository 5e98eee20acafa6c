"""Special powers that change what a result means for one character (the seed's "Special Powers").

The tables give one letter; what it does depends on who suffers it: the Black Dragon never
retreats and is "wounded" by D, E and F; spectres only retreat; a dog dies of one wound; Zed's
curare turns "wounded" into "killed"... :func:`combat_notes` and :func:`fire_notes` say, for the
characters of one fight or shot, how each possible letter reads for them; :func:`suffer` applies one
letter to one character (his counter side after, his wounds, whether he retreats). The other powers
the battle asks about: who ignores the infiltration roll, when spectres dematerialise, how far a
Gargoyle flies, Lucifer defending Godiva. The Black Dragon's five parts are :mod:`.blackdragon`'s.
Decisions: docs/rules/dragonnoir-magic.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Protocol

from rulekeeper.boards.hexes import Hex, hex_distance, hex_line
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError

from .data import Harm, State
from .fighters import Fighter
from .scene import Scene


class _Result(Protocol):
    @property
    def text(self) -> str: ...


def _letters(letters: Mapping[str, Fraction], wanted: Iterable[str]) -> str:
    hit = [w for w in wanted if w in letters]
    return ", ".join(hit)


def _defender_notes(d: Fighter, letters: Mapping[str, Fraction], zed: bool) -> list[str]:
    kind, name = d.character.kind, d.name
    out: list[str] = []
    if d.horse:
        return [f"{d.label}: E, F, G or H kill the horse; the other results have no effect ('the results C, D, E or F "
                "for shots, and E, F, G or H for combats, cause the death of the horse')"]
    if kind == "dragon part":
        if hit := _letters(letters, "DEF"):
            out.append(f"{name}: {hit} become 'Dragon wounded' ('The results D, E and F become \"Dragon wounded\"')")
        if "C" in letters:
            out.append(f"{name}: C is ignored ('the dragon never retreats (results that make it retreat are "
                       "ignored)')")
    elif kind == "dragon":
        if hit := _letters(letters, "DEF"):
            out.append(f"{name}: {hit} become 'Dragon wounded' (the Baby Dragon 'obeys the same rules as the Black "
                       "Dragon'); it 'retreats normally'")
    elif kind == "spectre":
        out.append(f"{name}: stunned, wounded and killed become a simple retreat ('all the results \"stunned\", "
                   "\"wounded\" or \"killed\" are turned into a simple retreat')")
    elif kind == "dog":
        out.append(f"{name}: stunned becomes a retreat, one wound kills ('\"stunned\" results are turned into a "
                   "simple retreat. A single wound is enough to kill them.')")
    elif kind == "troll":
        out.append(f"{name}: stunned becomes a retreat ('They can never be stunned'); 'They must be wounded three "
                   "times to be killed.'")
    elif kind == "ork" and d.state == "berserk":
        out.append(f"{name} is berserk: 'Defender stunned' and the retreats no longer apply to him; one more wound "
                   "kills him ('It is only by wounding him a further time that one succeeds in killing him.')")
    elif kind == "ork":
        out.append(f"{name}: a stunned or wounded result makes him go berserk instead ('As soon as he suffers a "
                   "wounded or stunned result ... Crazy Ork goes berserk')")
    if zed and kind not in ("spectre", "dragon part", "dragon"):
        out.append(f"{name}: wounded means killed: Zed takes part ('any \"wounded\" result is equal to \"killed\"')")
    return out


def combat_notes(attackers: Iterable[Fighter], defenders: Iterable[Fighter], letters: Mapping[str, Fraction],
                 key: Mapping[str, _Result]) -> list[str]:
    """How the possible letters read for these characters (one line per special power at work)."""
    atk, dfn = list(attackers), list(defenders)
    zed = any(a.name == "Zed" or a.character.poison for a in atk)
    out: list[str] = []
    for d in dfn:
        out += _defender_notes(d, letters, zed)
    if "B" in letters:
        for a in atk:
            if a.character.kind == "dragon part":
                out.append(f"{a.name}: B is ignored (the dragon 'never retreats', in attack as in defence)")
            elif a.character.kind == "ork" and a.state == "berserk":
                out.append(f"{a.name} is berserk: 'Attacker retreats' no longer applies to him")
    if len(dfn) > 1 and any(k in letters for k in "DEFGH"):
        out.append("several defenders: 'it is the player of the side concerned who decides which of his "
                   "characters takes the blow'; retreats apply to all of them")
    return out


def fire_notes(target: Fighter, letters: Mapping[str, Fraction]) -> list[str]:
    """How the fire letters read for this target."""
    kind, name = target.character.kind, target.name
    if target.horse:
        return [f"{target.label}: C, D, E or F kill the horse; the other results have no effect"]
    if kind == "dragon":
        return [f"{name}: D, E and F become 'Dragon wounded'; 'The other results have no effect.'"]
    if kind == "spectre":
        return [f"{name}: stunned, wounded and killed become a simple retreat"]
    if kind == "dog":
        return [f"{name}: stunned becomes a retreat; a single wound kills"]
    if kind == "troll":
        return [f"{name}: stunned becomes a retreat; three wounds kill"]
    if kind == "ork" and target.state == "berserk":
        return [f"{name} is berserk: stunned and retreats no longer apply; one more wound kills him"]
    if kind == "ork":
        return [f"{name}: a stunned or wounded result makes him go berserk"]
    return []


# -- applying a result to one character ------------------------------------------------------------

#: Wounds a counter side stands for (the Baby Dragon's count goes beyond its one wounded side: pass ``wounds``).
WOUNDS_OF: Mapping[str, int] = {"healthy": 0, "stunned": 0, "berserk": 0, "wounded": 1, "wounded_twice": 2}
#: "They must be wounded three times to be killed." (Trolls); the Baby Dragon "obeys the same rules as the Black
#: Dragon", whose centre must be wounded three times (estimated reading, docs/rules/dragonnoir-magic.md).
THREE_WOUNDS = 3
DRAGON_WOUNDING = "DEF"
""""The results D, E and F become 'Dragon wounded'." (combat, and the Baby Dragon's shots)."""
#: Zed's curare spares those who cannot be wounded or whose wounds the seed counts otherwise (estimated).
CURARE_SPARES = ("spectre", "dragon", "dragon part")


@dataclass(frozen=True)
class Aftermath:
    """One character after one result: his counter side (None: dead), wounds carried, whether he retreats."""

    name: str
    before: State
    after: State | None
    wounds: int
    retreat: bool
    newly_wounded: bool
    why: str

    @property
    def dead(self) -> bool:
        return self.after is None


def _ordinary(f: Fighter, harm: Harm, wounds: int) -> tuple[State | None, int, str]:
    """Men, wizards, Elves, Dwarves, Goblins: the Cry Havoc key the issue names (estimated): "a stunned or
    wounded character wounded or stunned again is dead"."""
    hurt = f.state in ("stunned", "wounded", "wounded_twice")
    if harm == "killed":
        return None, wounds, "killed"
    if hurt:
        return None, wounds, f"{harm} when already {f.state}: dead (Cry Havoc: 'a stunned or wounded character " \
                             "wounded or stunned again is dead'; estimated)"
    if harm == "stunned":
        return "stunned", wounds, "stunned"
    return "wounded", wounds + 1, "wounded"


def _troll(harm: Harm, wounds: int) -> tuple[State | None, int, bool, str]:
    if harm == "stunned":
        return _side(wounds), wounds, True, "'They can never be stunned. Any \"stunned\" result is turned into a " \
                                            "simple retreat.'"
    if harm == "killed":
        return None, wounds, False, "killed (estimated: a 'killed' result is not a wound; the three wounds count " \
                                    "wounds)"
    wounds += 1
    if wounds >= THREE_WOUNDS:
        return None, wounds, False, "third wound: 'They must be wounded three times to be killed.'"
    return _side(wounds), wounds, False, f"wound {wounds} of 3 ('They must be wounded three times to be killed.')"


def _side(wounds: int) -> State:
    return ("healthy", "wounded", "wounded_twice")[min(wounds, 2)]


def _ork(f: Fighter, harm: Harm, wounds: int) -> tuple[State | None, int, bool, str]:
    if f.state == "berserk":
        if harm in ("stunned", "retreat"):
            return "berserk", wounds, False, f"{harm} ignored: 'As soon as he has gone mad, the results \"Defender " \
                                             "stunned\" and \"Attacker retreats\" or \"Defender retreats\" are no " \
                                             "longer applied to him.'"
        return None, wounds + 1, False, "'It is only by wounding him a further time that one succeeds in killing him.'"
    if harm in ("stunned", "wounded"):
        return "berserk", wounds, False, f"{harm}: 'Crazy Ork goes berserk. The counter representing him in good " \
                                         "health is then replaced by the counter that represents him stronger.' " \
                                         "(estimated: he is mad at once, so a retreat in the same result is ignored)"
    if harm == "killed":
        return None, wounds, False, "killed"
    return f.state, wounds, True, "retreat"


def _baby_dragon(letter: str, harm: Harm | None, wounds: int, source: str) -> tuple[State | None, int, bool, str]:
    """Shots: the letters D, E, F wound it, the rest do nothing. Combat: the letters whose key harms it (D, E, F
    on the foot table, when it is the one harmed: an attacker is not wounded by the defender's E) wound it."""
    hit = letter in DRAGON_WOUNDING if source == "fire" else harm in ("stunned", "wounded", "killed")
    side = _side(min(wounds, 1))
    if hit:
        wounds += 1
        why = f"{letter}: 'Dragon wounded' ('The results D, E and F become \"Dragon wounded\"'), wound {wounds} of 3"
        return (None if wounds >= THREE_WOUNDS else "wounded"), wounds, False, why
    if source == "fire":
        return side, wounds, False, f"{letter}: 'The other results have no effect.'"
    if harm == "retreat":
        return side, wounds, True, f"{letter}: 'it retreats normally, in attack as in defence'"
    return side, wounds, False, f"{letter}: no effect"


def suffer(f: Fighter, letter: str, harm: Harm | None, *, source: Literal["combat", "fire"] = "combat",
           retreat: bool = False, wounds: int | None = None, zed: bool = False) -> Aftermath:
    """What one letter does to one character, his special powers applied.

    ``harm`` is what the key gives this character (``CombatResult.attacker``/``.defender``, or
    ``FireResult.target``), ``retreat`` the fire key's extra retreat (``FireResult.retreat``), ``wounds``
    the wounds he already carries when his counter side does not say (the Baby Dragon), ``zed`` that Zed
    fights on the other side ("Any enemy character wounded in a combat in which Zed takes part dies").
    Horses (the key's ``horse``) and the Black Dragon's parts (:func:`.blackdragon.dragon_defends`) are
    applied elsewhere.
    """
    kind = f.character.kind
    if f.horse or kind == "dragon part":
        raise ImpossibleRequestError(f"{f.label}: a horse's result is the key's 'horse' field, a Black Dragon "
                                     "part's is blackdragon.dragon_defends.", character=f.label)
    w = WOUNDS_OF[f.state] if wounds is None else wounds
    curare = zed and source == "combat" and harm == "wounded" and kind not in CURARE_SPARES
    if curare:
        harm = "killed"
    after, w2, back, why = _apply(f, letter, harm, w, source, retreat)
    if curare:
        why = "wounded with Zed in the combat: 'any \"wounded\" result is equal to \"killed\"'"
    return Aftermath(f.name, f.state, after, w2, back, w2 > w, why)


def _apply(f: Fighter, letter: str, harm: Harm | None, w: int, source: str,
           retreat: bool) -> tuple[State | None, int, bool, str]:
    kind = f.character.kind
    if kind == "dragon":
        return _baby_dragon(letter, harm, w, source)
    if kind == "spectre":
        if harm is None and not retreat:
            return f.state, w, False, f"{letter}: no effect"
        return f.state, w, True, "'all the results \"stunned\", \"wounded\" or \"killed\" are turned into a simple " \
                                 "retreat'"
    if harm is None or (harm == "retreat" and kind != "ork"):
        return f.state, w, retreat or harm == "retreat", f"{letter}: {'retreat' if harm or retreat else 'no effect'}"
    if kind == "ork":
        return _ork(f, harm, w)
    if kind == "troll":
        after, w2, back, why = _troll(harm, w)
        return after, w2, back or (retreat and after is not None), why
    if kind == "dog":
        if harm == "stunned":
            return f.state, w, True, "'\"stunned\" results are turned into a simple retreat.'"
        return None, w + (harm == "wounded"), False, "'A single wound is enough to kill them.'"
    after, w2, why = _ordinary(f, harm, w)
    return after, w2, retreat and after is not None, why


# -- the other special powers --------------------------------------------------------------------------------


def ignores_infiltration(f: Fighter, advancing: bool = False) -> str | None:
    """Why ``f`` rolls no infiltration die when crossing hexes next to enemies (None: he rolls)."""
    kind = f.character.kind
    if kind == "dragon part":
        return "'The infiltration of enemy lines rule does not apply to the dragon.'"
    if kind == "dragon":
        return "Baby Dragon: 'When it moves or fights, it ignores the infiltration of enemy lines rule.'"
    if kind == "dog":
        return ("dogs: 'They ignore the infiltration of enemy lines rule when they move.'"
                + (" (estimated: an advance after combat is a move)" if advancing else ""))
    return None


#: "They remain only 4 game turns" (Gargoyles); "They remain 2 complete game turns" (Living Deads).
SPECTRE_GAME_TURNS: Mapping[str, int] = {"Gargoyle": 4, "Living Dead": 2}


def dematerialise_after(appeared: int, game_turns: int) -> int:
    """The last player turn (numbered 1, 2, … across both sides) a spectre stays on the map.

    "(*) The player turn during which they appear counts as half a turn." A game turn is two player
    turns, so a spectre that stays ``game_turns`` game turns stays ``2 × game_turns`` player turns,
    the one it appeared in included, and is removed at the end of the last.
    """
    if game_turns < 1 or appeared < 1:
        raise InvalidStatError("Player turns and game turns count from 1.", appeared=appeared, game_turns=game_turns)
    return appeared + 2 * game_turns - 1


def spectre_game_turns(name: str) -> int:
    """How long the spectre ``name`` ("Gargoyle 2", "Living Dead 1") stays, in game turns."""
    for prefix, turns in SPECTRE_GAME_TURNS.items():
        if name.casefold().startswith(prefix.casefold()):
            return turns
    raise ImpossibleRequestError(f"{name} is not a spectre (Gargoyles, Living Deads).", character=name)


FLIGHT_HEXES = 5
""""They can fly short distances (5 hexes maximum)\"."""
#: How high an obstacle stands (estimated; the seed: "pass over level 1 obstacles"): trees, buildings, towers and
#: rock stand higher than a man; everything else (brush, water, crevasses, walls, characters, a level-1 slope)
#: is level 1 at most. A hex's own elevation (slopes, hills) counts too.
OBSTACLE_LEVEL: Mapping[str, int] = {"trees": 2, "house": 2, "door": 2, "window": 2, "tower": 3,
                                     "tower centre": 3, "rock": 9}


def flight_refusal(scene: Scene, frm: Hex, to: Hex) -> str | None:
    """Why a Gargoyle may not fly from ``frm`` to ``to`` (None: it may)."""
    n = hex_distance(frm, to)
    if n > FLIGHT_HEXES:
        return f"{n} hexes: Gargoyles 'can fly short distances (5 hexes maximum)'"
    for h in hex_line(frm, to)[1:-1]:
        level = max(OBSTACLE_LEVEL.get(scene.terrain(h), 0), scene.level(h) - scene.level(frm))
        if level > 1:
            return f"{scene.terrain(h)} at {scene.board.label(h)} is higher than level 1 ('pass over level 1 obstacles')"
    return None


def obliged_defenders(defenders: Sequence[Fighter], lucifer: Fighter | None, beside_godiva: bool) -> list[Fighter]:
    """The defenders of a combat with Lucifer added when Godiva is attacked and he is beside her.

    "In combat, if Godiva is attacked, one is obliged to add Lucifer's defence potential to that of his
    mistress if the dog is on a hex adjacent to the young woman."
    """
    out = list(defenders)
    if lucifer is not None and beside_godiva and any(d.name == "Godiva" for d in out) \
            and all(d.name != lucifer.name for d in out):
        out.append(lucifer)
    return out
