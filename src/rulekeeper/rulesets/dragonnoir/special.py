"""Special powers that change what a result means for one character (the seed's "Special Powers").

The tables give one letter; what it does depends on who suffers it: the Black Dragon never
retreats and is "wounded" by D, E and F; spectres only retreat; a dog dies of one wound; Zed's
curare turns "wounded" into "killed"... :func:`combat_notes` and :func:`fire_notes` say, for the
characters of one fight or shot, how each possible letter reads for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Protocol

from .fighters import Fighter


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
