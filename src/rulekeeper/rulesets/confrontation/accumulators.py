"""Absorb/X (issue 24): an accumulator draws his friends' mystic resources into his own reserve.

The seed: "Absorb/X (active, *): An accumulator with this ability can, as a Mystic action and once per round,
designate a number of fighters equal to his rank within X cm of him. These fighters must have the resources he needs
to generate charges. Each designated fighter loses the needed resources to grant the accumulator 1 charge, which the
accumulator gets immediately. Fighters that can be designated, type of resources and their conversion rate is defined
in the accumulator's capacities."

The capacities are cards the seed does not print, so the accumulator capacity of a Mystic is **estimated** in
``data/spells.yaml`` (``accumulators:``, each number with its reasoning; the player's cards replace it):

* a Magician with Absorb draws mana Gems from friendly Magicians, a Faithful T.F. from friendly Faithful;
* each designated fighter loses ``rate`` of them (1) and grants him 1 charge, which is a Gem (a T.F.) of his reserve:
  it pays his spells (miracles) and goes, as his reserve does, at the round's end (a temporary reserve);
* ``absorb FIGHTER FROM[, FROM…]`` (API ``{"kind": "absorb", "fighter", "from": [keys]}``) is made when he is to be
  activated, before his action: a Mystic action that does not end his activation (a **decision**: the Gems he
  gains would otherwise be lost before he could spend them); at most his rank fighters (a card's ``rank``, 1 when
  absent), each within X cm edge to edge, with the resources; once per round; not in rout (an active ability).
"""

from __future__ import annotations

from rulekeeper.boards.table import edge_distance
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction, OddsPreview

from .action_types import Absorb, offer
from .spells import mystic_rules
from .state import Fighter, SkirmishState, replace


def reach(f: Fighter) -> float | None:
    """X of Absorb/X in cm (``None`` without it)."""
    x = f.card.value_of("Absorb")
    return None if x is None else float(x.strip().lstrip("+"))


def rank(f: Fighter) -> int:
    return f.card.rank or 1


def resource(f: Fighter) -> str:
    """What he draws: a Magician's Gems, else a Faithful's T.F."""
    return "Gems" if f.card.POW is not None else "T.F."


def held(f: Fighter, what: str) -> int:
    return f.gems if what == "Gems" else f.faith


def _holding(f: Fighter, what: str, n: int) -> Fighter:
    return replace(f, gems=n) if what == "Gems" else replace(f, faith=n)


def may_absorb(f: Fighter) -> bool:
    return reach(f) is not None and (f.card.POW is not None or f.card.FAI is not None) and f.standing \
        and not f.rout and not f.activated and not f.absorbed


def donors(state: SkirmishState, f: Fighter) -> list[Fighter]:
    """The friends he may designate now: within X cm (edge to edge), with ``rate`` of his resource; richest first."""
    x, what, rate = reach(f), resource(f), mystic_rules().absorb_rate
    if x is None:
        return []
    found = [g for g in state.standing(f.side) if g.key != f.key and held(g, what) >= rate
             and (g.card.POW if what == "Gems" else g.card.FAI) is not None and edge_distance(f.base, g.base) <= x]
    return sorted(found, key=lambda g: (-held(g, what), g.key))


def absorb_problem(state: SkirmishState, f: Fighter, named: list[str]) -> str | None:
    if not may_absorb(f):
        return f"{f.key} may not absorb now (Absorb/X, once per round, before his action, not in rout)"
    if not named or len(set(named)) != len(named):
        return "designate one fighter or more, each once"
    if len(named) > rank(f):
        return f"{f.key} designates at most his rank, {rank(f)}, not {len(named)}"
    allowed = {g.key for g in donors(state, f)}
    wrong = [k for k in named if k not in allowed]
    if wrong:
        return f"{', '.join(wrong)}: not a friendly {'Magician' if resource(f) == 'Gems' else 'Faithful'} within " \
               f"{reach(f):g} cm with {mystic_rules().absorb_rate} {resource(f)}"
    return None


def named_of(value: object) -> list[str]:
    """An action's ``from``: a list of fighters' keys, or a typed error naming it."""
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise IllegalActionError(f"an absorb designates fighters: a list of names, got {value!r}", field="from")
    return [str(k) for k in value]


def absorb_offers(state: SkirmishState, f: Fighter) -> list[LegalAction]:
    """The richest friends up to his rank, then each one alone (any legal set may be named)."""
    if not may_absorb(f):
        return []
    found = [g.key for g in donors(state, f)]
    sets = [found[:rank(f)], *([k] for k in found)] if found else []
    out, seen = [], set()
    for keys in sets:
        if tuple(keys) in seen:
            continue
        seen.add(tuple(keys))
        out.append(offer(Absorb(f.side, f.key, tuple(keys)),
                         f"{f.key} absorbs {resource(f)} from {' and '.join(keys)} (+{len(keys)}, Absorb; his "
                         "activation goes on)", f.side, float(len(keys)), "", f"absorb from {' and '.join(keys)}",
                         f"{f.key}: spell"))
    return out


def do_absorb(state: SkirmishState, f: Fighter, named: list[str]) -> tuple[SkirmishState, str]:
    what, rate = resource(f), mystic_rules().absorb_rate
    givers = [state.fighter(k) for k in named]
    lost = [_holding(g, what, held(g, what) - rate) for g in givers]
    gained = replace(_holding(f, what, held(f, what) + len(givers)), absorbed=True)
    text = f"{f.key} absorbs: {' and '.join(g.key for g in givers)} lose {rate} {what} each, he gains " \
           f"{len(givers)} ({held(f, what)} → {held(gained, what)} {what})"
    return state.with_fighters(gained, *lost), text


def absorb_preview(state: SkirmishState, f: Fighter, named: list[str]) -> OddsPreview:
    """No draw: the reserves before and after."""
    after, _ = do_absorb(state, f, named)
    what = resource(f)
    return OddsPreview(tuple((g.key, f"{held(g, what)} → {held(after.fighter(g.key), what)} {what}")
                             for g in (f, *(state.fighter(k) for k in named))))
