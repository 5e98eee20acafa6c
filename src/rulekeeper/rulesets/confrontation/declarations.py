"""What a fighter's player declared before a fight's INI test, read into his card for that fight.

Why a card: War fury, Sequence/X and Resolute/X already act through the card's abilities (:mod:`.combat_effects`,
:mod:`.abilities`, :attr:`.fray.Fray.sequence`), so a declaration is the card the fight reads, not a new path
through the fray: "Sequence/2" taking one die is the card "Sequence/1"; War fury not used is the card without it;
War fury not used by a fighter who used it earlier this round is "War fury/lasting", its constraints without its
die ("the following lasts until the end of the round: he must place more dice in attack than in defence; he
suffers a -1 to the natural result of his DEF"); Resolute not used, or used already this round ("once per
round"), is the card without it.

The declarations sit in the state as flat triples (fighter, ability, value) after the fight's side and lead
(:attr:`~.state.SkirmishState.before_ini`); :mod:`.before_ini` makes them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .cards import FighterCard, canonical_ability
from .state import Fighter

#: The option and what a battle that does not name it reads (one stored before the choice existed).
OPTION = "declarations"
STORED_BEFORE = "keeper"
#: The active abilities that activate "before the INI test", in the order a fighter declares them.
BEFORE_INI = ("War fury", "Sequence", "Resolute")
#: War fury's X when its die is not taken but an earlier use this round still binds him.
LASTING = "lasting"
#: Additional limb's X once its player announced he uses it (the card as printed: the keeper's policy decides).
USED = "used"


def triples(said: Sequence[str]) -> Iterator[tuple[str, str, int]]:
    """(fighter, ability, value) of each declaration made (the state's flat list after side and lead)."""
    for k in range(0, len(said) - 2, 3):
        yield said[k], said[k + 1], int(said[k + 2])


def as_declared(card: FighterCard, f: Fighter, said: Sequence[str]) -> FighterCard:
    """``card`` as fighter ``f``'s declarations make it for this fight (a declaration not made yet: the card as
    printed, which is the keeper's proposal: War fury used, every Sequence die he may take, Resolute used), without
    the Resolute he used in an earlier fight this round."""
    mine = {ability: value for key, ability, value in triples(said) if key == f.key}
    if not mine and not f.resolute:
        return card
    written: list[str] = []
    for ability in card.abilities:
        name, _ = canonical_ability(ability)
        if name == "War fury" and mine.get(name) == 0:
            written.extend([f"War fury/{LASTING}"] if f.furious else [])
        elif name == "Sequence" and name in mine:
            written.append(f"Sequence/{mine[name]}")
        elif name == "Resolute" and mine.get(name, 0 if f.resolute else 1) == 0:
            continue  # not used now, or "once per round" used already
        elif name == "Additional limb" and name in mine:  # announced after the INI test (after_ini.py)
            written.extend([f"Additional limb/{USED}"] if mine[name] else [])
        elif name == "Fencer" and mine.get(name) == 0:  # no die held in reserve this fight (after_ini.py)
            continue
        else:
            written.append(ability)
    return card.model_copy(update={"abilities": written})
