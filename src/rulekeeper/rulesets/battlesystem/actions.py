"""The actions of a side's turn: what is legal, what each one does, and its odds beforehand.

Actions are typed (:class:`Move`, :class:`Targeted`, :class:`AtHex`, :class:`EndTurn`) with one JSON
codec, :data:`ACTIONS` (``core.actioncodec``): the log, the API, the web form and the command line
share its JSON objects, and ``parse_action`` reads every one through it:
``move`` (``unit``, ``to``), ``attack`` (a normal attack on an adjacent ``target``), ``shoot``
(a missile attack on a ``target`` in range and in sight), ``barrage`` (``unit`` chooses a
``hex`` in range; it fires at the start of the side's next turn), ``pursue`` (an adjacent
fleeing ``target``: pursuit.py), ``rally`` (the general ``unit`` rallies a fleeing ``target`` of
its side: rally.py), the support units' ``tend``, ``resupply`` (a ``target``) and ``bridge`` (a
``hex``: support.py) and ``end_turn``. Each carries
its ``side``. Each unit may move up to its rating, split around its one attack (the guide: "move
a few hexes, then perform a missile attack, and then move again").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar, Literal

from rulekeeper.boards.hexes import HexCell, hex_distance
from rulekeeper.core.actioncodec import ActionCodec
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import LegalAction, OddsPreview
from rulekeeper.core.memo import legal_list, remembered
from rulekeeper.core.wording import counted, possessive

from .combat import Reach, Unit, attack_request, resolve_attack
from .ground import ground_bonus, ground_text
from .movement import left, moves
from .odds import attack_odds, barrage_share
from .options import BattleSystemOptions
from .pursuit import pursuit_request, quarry
from .rally import ralliable, rally_request
from .report import Lines
from .rolls import ATTACK_DICE, simply
from .state import BattleState, Piece, Terrain, board_of, evolved, unit_types
from .support import bridgeable, resuppliable, tend_request, tendable
from .support_data import support_numbers
from .turns import barrage_draws, under_fire
from .units import NO_AMMUNITION, AttackKind

KINDS = ("move", "attack", "shoot", "barrage", "pursue", "rally", "tend", "resupply", "bridge", "end_turn")


@dataclass(frozen=True)
class Move:
    """A unit moves to a hex, within its movement rating (movement.py)."""

    kind: Literal["move"]
    side: str
    unit: str
    to: str


@dataclass(frozen=True)
class Targeted:
    """A unit acts on another: attacks, shoots at, pursues, rallies, tends or resupplies it."""

    kind: Literal["attack", "shoot", "pursue", "rally", "tend", "resupply"]
    side: str
    unit: str
    target: str


@dataclass(frozen=True)
class AtHex:
    """A unit chooses a hex: a barrage's target, or the river hex its engineers bridge."""

    kind: Literal["barrage", "bridge"]
    side: str
    unit: str
    hex: str


@dataclass(frozen=True)
class EndTurn:
    """The side to act ends its turn."""

    kind: ClassVar[str] = "end_turn"
    side: str


BSAction = Move | Targeted | AtHex | EndTurn


class BSCodec(ActionCodec[BSAction]):
    """The core codec, and :meth:`listed` for the policy, which reads every action of a legal list."""

    def __init__(self, *classes: type[BSAction]) -> None:
        super().__init__(*classes)
        #: each kind's class as a constructor, and whether it takes the kind (a ``Literal`` field) or not (a ClassVar)
        self._make: dict[str, tuple[Callable[..., BSAction], bool]] = {
            kind: (cls, any(f.name == "kind" for f in fields(cls))) for cls in classes for kind in self._kinds_of(cls)}
        #: each kind's fields besides its kind (every one a word, none optional)
        self._fields = {kind: {f.name for f in fields(cls) if f.name != "kind"}
                        for cls in classes for kind in self._kinds_of(cls)}
        #: each class's fields besides its kind, in their declared order (:meth:`encode`)
        self._order: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls) if f.name != "kind")
                                                     for cls in classes}

    def decode(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> BSAction:
        """The core's decode, read straight when ``data`` is already what :meth:`encode` writes (the log's and the
        legal list's actions, decoded for every preview: the core's coercions cost twice as much, measured)."""
        return self._as_written(data) or super().decode(data, defaults)

    def _as_written(self, data: Mapping[str, object]) -> BSAction | None:
        """The action ``data`` spells if it is exactly canonical — a known kind as written and exactly its fields,
        each a word with nothing to trim — else None (the core decodes it then: it coerces, fills the defaults,
        or refuses naming the field)."""
        kind = data.get("kind")
        if not isinstance(kind, str) or kind not in self._make:
            return None
        make, with_kind = self._make[kind]
        words = {k: v for k, v in data.items() if k != "kind"}
        if words.keys() != self._fields[kind] or not all(isinstance(v, str) and v and v == v.strip()
                                                          for v in words.values()):
            return None
        return make(**({"kind": kind, **words} if with_kind else words))

    def encode(self, action: BSAction) -> dict[str, object]:
        """The core's encode, read straight when every field is a word (always, for an action the rules built): the
        same object, ``kind`` first and the fields in their declared order (the search bot encodes every action its
        simulations play: the core's walk over the fields was a twentieth of a simulation, issue 28)."""
        names = self._order.get(type(action))
        if names is None:
            return super().encode(action)
        out: dict[str, object] = {"kind": action.kind}
        for name in names:
            value = getattr(action, name)
            if type(value) is not str:
                return super().encode(action)
            out[name] = value
        return out

    def listed(self, data: Mapping[str, object]) -> BSAction:
        """The typed action of one of the legal list's JSON actions (canonical by construction: no checks, nothing
        to coerce; a fifth of the time of :meth:`decode`, which autoplay would pay for every action listed)."""
        make, with_kind = self._make[str(data["kind"])]
        return make(**{k: v for k, v in data.items() if with_kind or k != "kind"})


#: The one JSON codec of the Battle System's actions.
ACTIONS = BSCodec(Move, Targeted, AtHex, EndTurn)
#: Each kind's fields after its side, in order (the command line's words: ``move UNIT TO``).
FIELDS = {kind: ACTIONS.fields_of(kind)[1:] for kind in KINDS}
KIND_OF: dict[str, AttackKind] = {"attack": "melee", "shoot": "missile"}


def distance(state: BattleState, a: str, b: str) -> int:
    return hex_distance(state.board.parse(a), state.board.parse(b))


def in_sight(state: BattleState, a: str, b: str) -> bool:
    """"In sight" on a hex map: no hex between is dense forest or higher than the higher of the two ends."""
    board = state.board
    ha, hb = board.parse(a), board.parse(b)
    top = max(board.cells[ha].elevation, board.cells[hb].elevation)

    def blocks(_: object, cell: HexCell) -> bool:
        return cell.blocks_sight or cell.elevation > top

    return board.line_of_sight(ha, hb, blocks)


def armed(piece: Piece) -> bool:
    return piece.ammunition > 0 or piece.type.has(NO_AMMUNITION)


def targets(state: BattleState, piece: Piece, kind: AttackKind) -> list[Piece]:
    """The enemies ``piece`` may attack now with a ``kind`` attack (none once it has attacked this turn)."""
    if not piece.can_fight or piece.attacked or piece.type.skill(kind) is None:
        return []
    enemies = [p for p in state.units if p.on_map and p.side != piece.side]
    if kind == "melee":  # attacking a fleeing unit is pursuing it (pursuit.py)
        return [e for e in enemies if distance(state, piece.hex, e.hex) == 1 and not e.fleeing]
    if not armed(piece):
        return []
    return [e for e in enemies
            if distance(state, piece.hex, e.hex) <= piece.type.range and in_sight(state, piece.hex, e.hex)]


def barrage_hexes(state: BattleState, piece: Piece) -> list[str]:
    """Hexes ``piece`` may choose for a barrage: in range, sight not needed, not its own hex nor one next to it."""
    if not piece.can_fight or piece.attacked or piece.barrage is not None or piece.type.barrage is None:
        return []
    if not armed(piece):
        return []
    return list(_barrage_ring(state.width, state.height, state.terrain, piece.hex, piece.type.range))


@lru_cache(maxsize=4096)
def _barrage_ring(width: int, height: int, terrain: Terrain, label: str, reach: int) -> tuple[str, ...]:
    """The labels of the hexes within ``reach`` of ``label`` but not next to it, ring by ring (pure geometry of
    one map: an artillery unit's simulation asked it anew at every step, issue 28)."""
    board = board_of(width, height, terrain)
    here = board.parse(label)
    return tuple(board.label(h) for h in board.within(here, reach) if hex_distance(h, here) >= 2)


def _unit_actions(state: BattleState, p: Piece) -> list[LegalAction]:
    """``p``'s legal actions, grouped "<unit>: <kind>" so a page's action list says which unit each
    "→ target" link moves or fires; ``text`` (the CLI form) stays the replayable sentence."""
    s = state.to_act
    out = []
    for kind, verb in (("attack", "attacks"), ("shoot", "shoots at")):
        for e in targets(state, p, KIND_OF[kind]):
            out.append(LegalAction({"kind": kind, "side": s, "unit": p.name, "target": e.name},
                                   f"{p.name} {verb} {e.name}", s, None, f"{e.card} on {e.hex}", f"→ {e.name}",
                                   f"{p.name}: {kind}"))
    for e in quarry(state, p):
        follow = " (following up)" if p.attacked else ""
        out.append(LegalAction({"kind": "pursue", "side": s, "unit": p.name, "target": e.name},
                               f"{p.name} pursue {e.name}{follow}", s, None, f"fleeing, on {e.hex}", f"→ {e.name}",
                               f"{p.name}: pursue"))
    for u in ralliable(state, p):
        out.append(LegalAction({"kind": "rally", "side": s, "unit": p.name, "target": u.name},
                               f"{p.name} rally {u.name}", s, None, f"fleeing, on {u.hex}", f"→ {u.name}",
                               f"{p.name}: rally"))
    out += _support_actions(state, p)
    for label in barrage_hexes(state, p):
        out.append(LegalAction({"kind": "barrage", "side": s, "unit": p.name, "hex": label},
                               f"{p.name} target {label} with a barrage", s, None, "fires at the start of your next turn",
                               f"→ {label}", f"{p.name}: barrage"))
    for label, cost in moves(state, p).items():
        out.append(LegalAction({"kind": "move", "side": s, "unit": p.name, "to": label},
                               f"{p.name} move to {label}", s, float(cost), f"costs {cost} of {counted(left(p), 'point')}",
                               f"→ {label}", f"{p.name}: move"))
    return out


def _support_actions(state: BattleState, p: Piece) -> list[LegalAction]:
    """The support units' work (support.py): Medics tend, Supply resupply, Engineers bridge."""
    s = state.to_act
    out = []
    for u in tendable(state, p):
        out.append(LegalAction({"kind": "tend", "side": s, "unit": p.name, "target": u.name},
                               f"{p.name} tend {u.name}", s, None, f"{u.soldiers} of {counted(u.type.soldiers, 'soldier')}",
                               f"→ {u.name}", f"{p.name}: tend"))
    for u in resuppliable(state, p):
        out.append(LegalAction({"kind": "resupply", "side": s, "unit": p.name, "target": u.name},
                               f"{p.name} resupply {u.name}", s, None,
                               f"{u.ammunition} of {u.type.ammunition} ammunition", f"→ {u.name}",
                               f"{p.name}: resupply"))
    for label in bridgeable(state, p):
        out.append(LegalAction({"kind": "bridge", "side": s, "unit": p.name, "hex": label},
                               f"{p.name} bridge {label}", s, None, "shallow river: then 1 point to enter",
                               f"→ {label}", f"{p.name}: bridge"))
    return out


def legal_actions(state: BattleState) -> list[LegalAction]:
    """Every legal action of the side to act, built once per state (``check`` and each preview reuse it)."""
    return legal_list(state, _legal_actions)


def _legal_actions(state: BattleState) -> list[LegalAction]:
    if state.over:
        return []
    s = state.to_act
    out: list[LegalAction] = []
    for p in state.units:
        if p.side == s and p.can_fight:
            out += _unit_actions(state, p)
    out.append(LegalAction({"kind": "end_turn", "side": s}, f"{state.name(s)} end their turn", s, None,
                           "", "End turn", "Turn"))
    return out


def check(state: BattleState, action: BSAction) -> None:
    """Refuse (typed, nothing changed) an action that is not one of the legal ones now: it is exactly one of the
    listed actions (:func:`listed`; equal typed actions are exactly those whose JSON objects are equal), asked of
    its own unit and kind only (``offers.offered``: the search bot applies thousands of actions nobody listed)."""
    from .offers import offered

    if state.over:
        raise IllegalActionError("the battle is over")
    if action.side != state.to_act:
        raise IllegalActionError(f"it is {possessive(state.name(state.to_act))} turn (side {state.to_act}), "
                                 f"not side {action.side}'s")
    if not offered(state, action):
        # in the game's words: the page printed "not legal now: {'kind': 'move', …}"
        raise IllegalActionError(f"not legal now: {action_text(action)} (see the legal actions)",
                                 action=ACTIONS.encode(action))


def listed(state: BattleState) -> frozenset[BSAction]:
    """The legal list's actions as typed values, built once per state.

    Why not ``core.memo.allows``: it would encode each checked action to JSON and freeze it into a
    hashable key, the largest share of a preview's check (a list of 150 actions is checked 150 times);
    the typed actions are frozen values that hash as they are."""
    return remembered(state, listed, lambda: frozenset(ACTIONS.listed(lg.action) for lg in legal_actions(state)))


#: What each targeted kind does to its target, in the pages' words.
VERBS = {"attack": "attacks", "shoot": "shoots at", "pursue": "pursues", "rally": "rallies", "tend": "tends",
         "resupply": "resupplies"}


def action_text(action: BSAction) -> str:
    """A (logged or refused) action as the pages say it: "Bank Archers shoots at Raider Horse"."""
    match action:
        case Move():
            return f"{action.unit} moves to {action.to}"
        case Targeted():
            return f"{action.unit} {VERBS[action.kind]} {action.target}"
        case AtHex(kind="barrage"):
            return f"{action.unit} targets {action.hex} with a barrage"
        case AtHex():
            return f"{action.unit} bridges {action.hex}"
    return f"side {action.side} ends its turn"  # not "side B: end turn", the spectator card's "Last action"


def do_move(state: BattleState, action: Move) -> tuple[BattleState, Lines]:
    p = state.piece(action.unit)
    cost = moves(state, p)[action.to]
    moved = evolved(p, hex=action.to, spent=p.spent + cost)
    text = f"{p.name} move {p.hex} → {moved.hex} ({counted(cost, 'point')}, {left(moved)} left)"
    return state.with_pieces(moved), [{"text": text, "kind": "move"}]


def do_attack(state: BattleState, action: Targeted, fate: Fate) -> tuple[BattleState, Lines]:
    """A normal or missile attack: casualties, a failed attack's losses, morale damage (combat.py)."""
    a, d = state.piece(action.unit), state.piece(action.target)
    kind = KIND_OF[action.kind]
    reach = Reach(distance(state, a.hex, d.hex), True)
    res = resolve_attack(fate, a.unit(), d.unit(), reach, ground_bonus(state, a, d, kind), state.rules, kind)
    lines: Lines = [{"text": f"{a.name} {'attack' if kind == 'melee' else 'shoot at'} {d.name}: "
                                      f"{res.formula} rolls {res.roll}", "kind": "roll"}]
    if res.casualties:
        lines.append({"text": f"  {d.name} lose {counted(res.casualties, 'soldier')} "
                              f"({d.soldiers} → {res.defender.soldiers})", "kind": "casualties"})
    elif res.attacker_losses:
        lines.append({"text": f"  the attack fails: {a.name} lose {counted(res.attacker_losses, 'soldier')} instead",
                      "kind": "fails"})
    else:
        lines.append({"text": "  nobody falls", "kind": "none"})
    if res.ammunition_spent:
        lines.append({"text": f"  {a.name} spend 1 ammunition ({res.attacker.ammunition} left)", "kind": "note"})
    m = res.morale
    if m is not None:
        lines.append({"text": f"  {m.victim} take {m.damage} morale damage (1d10+{m.casualties} = {m.roll}"
                              f"{', ×2' if m.multiplier == 2 else ''}{', halved' if m.halved else ''}): "
                              f"morale {m.morale_after}{' — they flee!' if m.morale_after == 0 else ''}",
                      "kind": "flees" if m.morale_after == 0 else "morale"})
    # the unit whose normal attack broke its target may follow up and pursue it this turn (pursuit.py)
    broke = d.name if kind == "melee" and d.morale > 0 and res.defender.morale == 0 and \
        not res.defender.destroyed else None
    attacker = replace(a.took(res.attacker), attacked=True, broke=broke)
    if broke:
        lines.append({"text": f"  {a.name} may pursue {d.name} this turn, or let them go", "kind": "note"})
    return state.with_pieces(attacker, d.took(res.defender)), lines


def do_barrage(state: BattleState, action: AtHex) -> tuple[BattleState, Lines]:
    p = state.piece(action.unit)
    # the guns are laid: the unit stays where it is until the barrage fires
    chosen = replace(p, barrage=action.hex, attacked=True, spent=p.type.movement)
    text = (f"{p.name} target {action.hex} with a barrage: it fires at the start of "
            f"{possessive(state.name(p.side))} next turn")
    return state.with_pieces(chosen), [{"text": text, "kind": "note"}]


def preview(state: BattleState, action: BSAction) -> OddsPreview:
    """Exact odds (odds.py) and the very request the resolution draws first (of a legal action: :func:`checked`)."""
    kind = action.kind
    if isinstance(action, Targeted) and kind in KIND_OF:
        a, d = state.piece(action.unit), state.piece(action.target)
        bonus = ground_bonus(state, a, d, KIND_OF[kind])
        odds = attack_odds(a.unit(), d.unit(), KIND_OF[kind], bonus, state.rules)
        mean = sum(o * p for o, p in odds.casualties.items())
        headline: tuple[tuple[str, float | str], ...] = (
            ("expected casualties", f"{float(mean):.1f}"), ("attack fails", float(odds.p_fail)),
            ("target flees", "already fleeing: no morale roll" if d.fleeing else float(odds.p_breaks(d.morale))))
        if bonus or ground_text(state, a, d, KIND_OF[kind]):
            headline += (("ground", ground_text(state, a, d, KIND_OF[kind])),)
        return OddsPreview(headline, (attack_request(a.unit(), d.unit(), KIND_OF[kind], bonus),))
    if isinstance(action, Targeted) and kind != "resupply":
        return _one_die_preview(state, action)
    if isinstance(action, Targeted):
        return OddsPreview((("ammunition after", str(min(state.piece(action.target).type.ammunition,
                                                         state.piece(action.target).ammunition
                                                         + support_numbers().resupply))),))
    if isinstance(action, AtHex) and kind == "bridge":
        return OddsPreview((("bridge", f"{action.hex} costs 1 point to enter from now on, for both sides"),))
    if isinstance(action, AtHex):
        return barrage_preview(state, action)
    if isinstance(action, EndTurn):
        draws = barrage_draws(state)
        return OddsPreview((("barrages to fire", str(len(draws))),), draws)
    # a move draws nothing, and its note says its cost ("costs 2 of 4 points", as Dragon Noir's moves): its headline
    # "movement points left after this move: 2" said it again, and a phone's move picker, showing "→ A1 — movement
    # points left after this move: 2 · costs 2 of 4 points left", cut it after 30 characters, before any figure
    return OddsPreview()


def _one_die_preview(state: BattleState, action: Targeted) -> OddsPreview:
    """A pursuit, a rally or tending: the one die each draws, and what it does on average."""
    kind = action.kind
    if kind == "pursue":
        p, t = state.piece(action.unit), state.piece(action.target)
        request = pursuit_request(p, t)
        dist = {int(o): pr for o, pr in request.odds()}
        hurt = sum(pr for o, pr in dist.items() if o > 0)
        avg = sum(min(max(o, 0), t.soldiers) * pr for o, pr in dist.items())
        return OddsPreview((("expected casualties", f"{avg:.1f}"), ("any casualties", float(hurt)),
                            ("destroys them", float(sum(pr for o, pr in dist.items() if o >= t.soldiers)))),
                           (request,))
    if kind == "rally":
        g, u = state.piece(action.unit), state.piece(action.target)
        request = rally_request(g, u)
        avg = sum(min(int(o), u.type.morale) * pr for o, pr in request.odds())
        return OddsPreview((("expected morale restored", f"{avg:.1f}"),), (request,))
    m, u = state.piece(action.unit), state.piece(action.target)
    request = tend_request(m, u)
    avg = sum(min(int(o), u.type.soldiers - u.soldiers) * pr for o, pr in request.odds())
    return OddsPreview((("expected soldiers back", f"{avg:.1f}"),), (request,))


def barrage_preview(state: BattleState, action: AtHex) -> OddsPreview:
    """A barrage's odds when it is laid, if whoever stands on and around the hex now stays there.

    Why here: laying it draws nothing (its ``draws`` stay empty: the roll is drawn when it lands, and
    the End-turn preview before that lists it), so without these numbers a player chose the hex blind.
    Headline only: when it lands, its roll, and for each unit it would hit (``turns.under_fire``, the
    same units it hits when it lands if nobody moves) its mean casualties and chance to flee (exact).
    """
    p = state.piece(action.unit)
    label = action.hex
    target, around = under_fire(state, label)
    headline: list[tuple[str, float | str]] = [
        ("lands", f"at the start of {possessive(state.name(p.side))} next turn"),
        ("hits", f"whoever then stands on {label} (in full) and next to it (half); below, if nobody moves"),
        ("roll", f"{simply(ATTACK_DICE, p.type.barrage or 0)}, minus each unit's DR")]
    target_dr = None if target is None else target.type.damage_reduction
    hit = [(q, q is target) for q in ([target] if target is not None else []) + around if not q.destroyed]
    if not hit:
        headline.append(("now", f"nobody is on {label} or next to it"))
    for q, on_target in hit:
        mean, flee = _share(p.card, q.card, q.soldiers, q.morale, on_target, target_dr, state.rules)
        where = (f"on {label}" if on_target else "next to it") + (", yours" if q.side == p.side else "")
        headline.append((f"{q.name} ({where}): expected casualties", f"{mean:.1f}"))
        if q.morale > 0:
            headline.append((f"{q.name} flee", flee))
    return OddsPreview(tuple(headline))


@lru_cache(maxsize=2048)
def _share(artillery: str, card: str, soldiers: int, morale: int, on_target: bool, target_dr: int | None,
           rules: BattleSystemOptions) -> tuple[float, float]:
    """Expected casualties and the chance of fleeing of one unit hit (odds.barrage_share), cached by what
    decides them: an artillery's list holds forty hexes, and the same units stand around many of them."""
    casualties, damage = _share_odds(artillery, card, soldiers, morale == 0, on_target, target_dr, rules)
    mean = sum(o * pr for o, pr in casualties.items())
    return float(mean), float(sum(pr for o, pr in damage.items() if o >= morale))


@lru_cache(maxsize=1024)
def _share_odds(artillery: str, card: str, soldiers: int, fleeing: bool, on_target: bool, target_dr: int | None,
                rules: BattleSystemOptions) -> tuple[Mapping[int, Fraction], Mapping[int, Fraction]]:
    """One hit unit's casualties and morale damage (odds.barrage_share, shared: never changed by a caller).

    Why apart from :func:`_share`: they read the unit's morale only as 0 or not (``odds.morale_die``
    rolls nothing against a fleeing unit), so a unit whose morale fell keeps its odds; only the chance
    of fleeing, a sum over them, is worked out again."""
    types = unit_types()
    guns = Unit.fresh(types.get(artillery))
    unit = Unit(types.get(card), card, soldiers, 0 if fleeing else types.get(card).morale, 0)
    odds = barrage_share(guns, unit, on_target, target_dr, 0, rules)
    return odds.casualties, odds.morale
