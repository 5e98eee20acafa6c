"""The one action of a campaign round: a side gives its orders (every unit's, and its Faith).

Three spellings reach the same canonical JSON (:meth:`.session.SideOrders.action`):

* JSON: ``{"kind": "orders", "side": "oathsworn", "orders": [{"unit": "Hearthmere Guard",
  "order": "reclaim"}, {"unit": "Lantern Wardens", "order": "move", "target": "Lantern Hill"}],
  "faith": ["Lantern Hill"]}``;
* the web keeper's order form: flat fields ``order:Hearthmere Guard = reclaim``,
  ``order:Lantern Wardens = move:Lantern Hill``, ``faith = Lantern Hill``;
* the command line: ``oathsworn "Hearthmere Guard: reclaim" "Lantern Wardens: move Lantern Hill"
  "faith: Lantern Hill"``.

A unit the side names no order for holds. Orders are checked against the state before the round
(:func:`.orders.checked_orders`), naming the unit and the reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from rulekeeper.core.wording import possessive

from ..model import fold
from .model import CampaignState, FieldUnit
from .orders import (
    ORDERS,
    CampaignActionError,
    FaithOrder,
    GiveOrders,
    Order,
    OrderError,
    check_kind,
    checked_faith,
    checked_orders,
    spoken_order,
)
from .session import CampaignGameState, SideOrders

#: Above this many combinations a side's legal actions are its "one unit differs from holding" set.
PRODUCT_CAP = 256


def find_side(state: CampaignGameState, name: str) -> str:
    wanted = fold(name)
    for key, faction in state.sides:
        if wanted in (fold(key), fold(faction)):
            return key
    names = [k for k, _ in state.sides]
    raise CampaignActionError(f"unknown side {name!r}: expected one of {', '.join(names)}", side=name)


def read_orders(state: CampaignGameState, data: Mapping[str, object]) -> GiveOrders:
    """The action a request spells, read through the one codec :data:`.orders.ORDERS`, the round in play and
    (when only one side still has to give them) the side filled in; its names are checked by :func:`checked`."""
    check_kind(data)
    waiting = [k for k, _ in state.sides if k not in state.given()]
    if data.get("side") in (None, "") and len(waiting) != 1:
        raise CampaignActionError("name the side giving these orders (side: " + ", ".join(waiting) + ")")
    return ORDERS.decode(data, {"side": waiting[0] if len(waiting) == 1 else "", "round": state.round})


def checked(state: CampaignGameState, given: GiveOrders) -> SideOrders:
    """The side's orders made canonical (exact names, every standing unit listed), or a typed refusal naming why."""
    side = find_side(state, given.side)
    faction = state.faction_of(side)
    c = state.campaign
    for o in given.orders:
        unit = c.unit(o.unit)
        if unit.faction != faction:
            raise OrderError(f"{unit.label} is {possessive(unit.faction)}, not {possessive(faction)} to order", unit=unit.label)
    every = checked_orders(c, given.orders, state.options)
    own = tuple(o for label, o in every.items() if c.unit(label).faction == faction)
    faith = checked_faith(c, [FaithOrder(faction, e) for e in given.faith])
    if len({f.enclave for f in faith}) != len(faith):
        raise OrderError(f"{faction} names one Enclave twice for Faith")
    return SideOrders(side, own, tuple(faith))


def _listed_order(state: CampaignGameState, part: str) -> Order | None:
    """An order as the legal actions list it (:func:`order_text`): ``Ford Horde moves to Old Watch``…

    None when ``part`` starts with no unit's label followed by one of the listed verbs.
    """
    folded = fold(part)
    for u in sorted(state.campaign.units, key=lambda u: -len(u.label)):
        head = fold(u.label) + " "
        if not folded.startswith(head):
            continue
        rest = part.strip()[len(head):].strip()
        verb, _, target = rest.partition(" ")
        words = fold(rest)
        if words in ("holds", "hold"):
            return Order(u.label)
        if words in ("reclaims", "reclaim"):
            return Order(u.label, "reclaim")
        if words in ("delves", "delve"):
            return Order(u.label, "delve")
        if fold(verb) in ("attacks", "attack") and target.strip():
            return Order(u.label, "attack", target.strip())
        if fold(verb) in ("moves", "move") and target.strip():
            region = target.strip()
            return Order(u.label, "move", region[3:].strip() if fold(region).startswith("to ") else region)
    return None


def _add_part(state: CampaignGameState, orders: list[Order], faith: list[str], part: str) -> None:
    """One order of a listed action text or of the ``UNIT: ORDER`` form, added to ``orders`` (or ``faith``)."""
    folded = fold(part)
    if folded in ("every unit holds", "no unit standing", ""):
        return
    if folded.startswith("faith restores "):
        faith.append(part.strip()[len("faith restores "):].strip())
        return
    listed = _listed_order(state, part)
    if listed is None:
        label, sep, spec = part.partition(":")
        if not sep:
            raise CampaignActionError(f'{part!r}: write each order as "UNIT: ORDER [TARGET]" (or "faith: ENCLAVE"), '
                                      "or as the legal actions list it (\"Ford Horde moves to Old Watch\")")
        if fold(label) == "faith":
            faith.append(spec.strip())
            return
        listed = spoken_order(label.strip(), spec.strip())
    orders.append(listed)


def parse_order_words(state: CampaignGameState, words: Sequence[str]) -> GiveOrders:
    """``oathsworn "Hearthmere Guard: reclaim" "Lantern Wardens: move Lantern Hill" "faith: Lantern Hill"``.

    Every legal action's text is accepted back verbatim too (issue 30): ``"Oathsworn: every unit
    holds"``, ``"Oathsworn: Hearthmere Guard Reclaims; Faith restores Lantern Hill"`` (one word), or
    the side and then the listed orders (``oathsworn "every unit holds"``). Names are checked by :func:`checked`.
    """
    if not words:
        raise CampaignActionError('give the side, then each order as "UNIT: ORDER [TARGET]"')
    first, rest = words[0], list(words[1:])
    if fold(first) in ("orders", "order") and rest:
        first, rest = rest[0], rest[1:]
    head, sep, tail = first.partition(":")
    if sep and any(fold(head) in (fold(k), fold(f)) for k, f in state.sides):
        first, rest = head, [tail, *rest]
    orders: list[Order] = []
    faith: list[str] = []
    for w in rest:
        for part in w.split(";"):
            _add_part(state, orders, faith, part)
    return ORDERS.decode({"kind": GiveOrders.kind, "side": first, "round": state.round, "faith": faith,
                          "orders": [{"unit": o.unit, "order": o.kind, "target": o.target} for o in orders]})


def action_text(given: GiveOrders) -> str:
    """A logged action in the campaign's words (every order but a hold, then the Faith spent)."""
    parts = [f"{o.unit} {o.kind}" + (f" {o.target}" if o.target else "") for o in given.orders if o.kind != "hold"]
    parts += [f"Faith: {f}" for f in given.faith]
    return f"{given.side} orders for round {'?' if given.round is None else given.round}: " + ("; ".join(parts) or "every unit holds")


def order_text(o: Order) -> str:
    return {"hold": f"{o.unit} holds", "move": f"{o.unit} moves to {o.target}", "attack": f"{o.unit} attacks {o.target}",
            "reclaim": f"{o.unit} Reclaims", "delve": f"{o.unit} delves"}[o.kind]


def orders_text(faction: str, so: SideOrders) -> str:
    parts = [order_text(o) for o in so.orders] + [f"Faith restores {f.enclave}" for f in so.faith]
    return f"{faction}: " + ("; ".join(parts) or "no unit standing")


# ---------------------------------------------------------------- legal orders and the policy


def unit_choices(c: CampaignState, u: FieldUnit, move_range: int) -> list[Order]:
    """A unit's orders worth listing: hold, moves in range, Attacks on enemies in its region, Reclaim, Delve."""
    out = [Order(u.label)]
    reach = c.map.within(u.region, move_range)
    out += [Order(u.label, "move", r) for r, d in sorted(reach.items(), key=lambda x: (x[1], x[0])) if d > 0]
    out += [Order(u.label, "attack", e.label) for e in c.units_in(u.region) if e.faction != u.faction]
    enclave = c.enclave_in(u.region)
    if enclave is not None and enclave.faction != u.faction:
        out.append(Order(u.label, "attack", enclave.name))
    if enclave is not None and enclave.faction == u.faction:
        out.append(Order(u.label, "reclaim"))
    if any(d.region == u.region for d in c.dungeons):
        out.append(Order(u.label, "delve"))
    return out


def faith_choices(state: CampaignGameState, faction: str) -> list[tuple[FaithOrder, ...]]:
    c = state.campaign
    if c.faction(faction).faith < state.options.faith_cost:
        return [()]
    return [(), *((FaithOrder(faction, e.name),) for e in c.enclaves
                  if e.faction == faction and not e.fallen and e.stability < e.full)]


def side_choices(state: CampaignGameState, side: str) -> list[SideOrders]:
    """Every combination of the side's unit orders and Faith (or, above the cap, one change at a time)."""
    faction = state.faction_of(side)
    c = state.campaign
    units = [u for u in c.units if u.faction == faction and u.health > 0]
    per_unit = [unit_choices(c, u, state.options.move_range) for u in units]
    faiths = faith_choices(state, faction)
    size = len(faiths)
    for p in per_unit:
        size *= len(p)
    if size <= PRODUCT_CAP:
        return [SideOrders(side, tuple(combo), f) for combo in itertools.product(*per_unit) for f in faiths]
    hold = tuple(p[0] for p in per_unit)
    out = [SideOrders(side, hold, f) for f in faiths]
    for i, p in enumerate(per_unit):
        out += [SideOrders(side, hold[:i] + (o,) + hold[i + 1:], ()) for o in p[1:]]
    policy = policy_orders(state, side)
    return out if policy in out else [*out, policy]


def _step_towards(c: CampaignState, u: FieldUnit, goal: str, move_range: int) -> Order:
    path = c.map.path(u.region, goal)
    if not path or len(path) < 2:
        return Order(u.label)
    return Order(u.label, "move", path[min(move_range, len(path) - 1)])


def _unit_policy(state: CampaignGameState, u: FieldUnit) -> Order:
    """Attack an enemy in the region; Bloodless march on the nearest standing Enclave; mortals Reclaim."""
    c = state.campaign
    foes = [e for e in c.units_in(u.region) if e.faction != u.faction]
    if foes:
        return Order(u.label, "attack", foes[0].label)
    enclave = c.enclave_in(u.region)
    if not u.bloodless:
        if enclave is not None and enclave.faction == u.faction and enclave.stability < enclave.full:
            return Order(u.label, "reclaim")
        return Order(u.label)
    if enclave is not None and enclave.faction != u.faction and not enclave.fallen:
        return Order(u.label)  # it stays: an undefended Enclave falls to it
    targets = sorted((d, e.name, e.region) for e in c.enclaves if e.faction != u.faction and not e.fallen
                     for d in [c.map.distance(u.region, e.region)] if d is not None)
    if not targets:
        return Order(u.label)
    return _step_towards(c, u, targets[0][2], state.options.move_range)


def policy_orders(state: CampaignGameState, side: str) -> SideOrders:
    faction = state.faction_of(side)
    c = state.campaign
    orders = tuple(_unit_policy(state, u) for u in c.units if u.faction == faction and u.health > 0)
    faiths = faith_choices(state, faction)
    low = sorted((fo for fo in faiths if fo), key=lambda fo: (c.enclave(fo[0].enclave).stability, fo[0].enclave))
    faith = low[0] if low and c.enclave(low[0][0].enclave).stability * 2 <= c.enclave(low[0][0].enclave).full else ()
    return SideOrders(side, orders, faith)
