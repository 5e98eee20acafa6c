"""Orders: what every unit does this round (move, Attack, Reclaim, Delve, hold), and Faith spent.

Every side gives its orders at once, then the round resolves (:mod:`.rounds`). Orders are
checked here against the state *before* the round, so a refusal names the unit and the reason
and nothing happens; what depends on the other side's simultaneous orders (a target that moved
away) is decided during resolution instead and reported there.

The campaign's one action, :class:`GiveOrders`, is typed, with one JSON codec (:data:`ORDERS`, a
``core.actioncodec`` codec): the log, the API, the web form and the command line all reach it, and
it encodes to the very JSON the log has always stored (``kind``, ``side``, ``round``, ``orders``
as ``{unit, order[, target]}``, ``faith``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Literal, get_args

from rulekeeper.core.actioncodec import ActionCodec
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.wording import counted

from ..model import fold
from .model import CampaignOptions, CampaignState, FieldUnit

OrderKind = Literal["hold", "move", "attack", "reclaim", "delve"]
ORDER_KINDS: tuple[OrderKind, ...] = get_args(OrderKind)
_KIND: dict[str, OrderKind] = {k: k for k in ORDER_KINDS}
#: The words a request may use for the campaign's one action, and for no Faith.
ORDER_WORDS = ("orders", "order", "give orders")
NO_FAITH = ("", "none", "no", "-")
_FIELDS = ("kind", "side", "round", "orders", "faith")


class OrderError(IllegalActionError):
    """An order the rules refuse (unknown kind, a move out of range, a Reclaim with no Enclave…)."""


class CampaignActionError(IllegalActionError):
    """An action a campaign refuses (not ``orders``, a side that has already given its orders…)."""


@dataclass(frozen=True)
class Order:
    """One unit's order: ``target`` is a region (move), a unit label or Enclave name (attack)."""

    unit: str
    kind: OrderKind = "hold"
    target: str | None = None


def order_kind(unit: str, word: str) -> OrderKind:
    """The order ``word`` names (any case), or an :class:`OrderError` naming the unit and the orders."""
    kind = _KIND.get(fold(word))
    if kind is None:
        raise OrderError(f"{unit}: unknown order {fold(word)!r} (orders: {', '.join(ORDER_KINDS)})", unit=unit)
    return kind


@dataclass(frozen=True)
class GiveOrders:
    """The campaign's one action: a side's orders for a round (a unit it names no order for holds) and the
    Enclaves it spends Faith on. ``side`` is the side's key once checked (:func:`.actions.checked`); ``round``
    None is the round in play (a request may leave it out; the log always names it)."""

    kind: ClassVar[str] = "orders"
    side: str
    round: int | None = None
    orders: tuple[Order, ...] = ()
    faith: tuple[str, ...] = ()


def order_of(item: object, where: str) -> Order:
    """One unit's order from its JSON (``{"unit": …, "order": …, "target": …}``; ``kind`` for ``order`` too)."""
    if not isinstance(item, Mapping) or not isinstance(item.get("unit"), str):
        raise CampaignActionError(f"{where}: expected {{unit, order, target}}, got {item!r}", field=where)
    unit: str = item["unit"]
    target = item.get("target")
    if target is not None and not isinstance(target, str):
        raise CampaignActionError(f"{where}.target: expected a region, unit or Enclave name, got {target!r}",
                                  field=f"{where}.target")
    return Order(unit, order_kind(unit, str(item.get("order") or item.get("kind") or "hold")), target or None)


class OrdersCodec(ActionCodec[GiveOrders]):
    """:class:`GiveOrders` as the JSON the log stores, and back: the core codec for the side, the round and the
    Faith (checked by type), each unit's order by :func:`order_of`; a ``target`` is written only when there is one.

    Decoding also reads what a request may write besides the log's form: ``order`` or ``give orders`` for the
    kind, one Enclave's name for ``faith`` (``none`` for no Faith), the web form's flat fields
    (``order:Lantern Wardens = move:Lantern Hill``) and the round as text."""

    def encode(self, action: GiveOrders) -> dict[str, object]:
        return {"kind": action.kind, "side": action.side, **({} if action.round is None else {"round": action.round}),
                "orders": [{"unit": o.unit, "order": o.kind, **({"target": o.target} if o.target else {})}
                           for o in action.orders],
                "faith": list(action.faith)}

    def decode(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> GiveOrders:
        check_kind(data)
        extra = sorted(str(k) for k in data if k not in _FIELDS and not str(k).startswith("order:"))
        if extra:
            raise CampaignActionError(f"unexpected fields in an orders action: {', '.join(extra)}", fields=extra)
        round_ = data.get("round")
        if round_ is not None and (isinstance(round_, bool) or not (
                isinstance(round_, int) or (isinstance(round_, str) and round_.strip().isdigit()))):
            raise CampaignActionError(f"round: expected a round number, got {round_!r}", field="round")
        plain = {"kind": GiveOrders.kind, "side": data.get("side"), "round": round_, "faith": _faith(data.get("faith"))}
        given = super().decode(plain, defaults)
        listed = data.get("orders") or []
        if not isinstance(listed, list):
            raise CampaignActionError(f"orders: expected a list of unit orders, got {listed!r}", field="orders")
        orders = tuple(order_of(o, f"orders[{i}]") for i, o in enumerate(listed))
        return replace(given, orders=orders + _form_orders(data))


def check_kind(data: Mapping[str, object]) -> None:
    """A request for the campaign's one action (``orders``), else a refusal naming it."""
    kind = fold(str(data.get("kind") or ""))
    if kind not in ORDER_WORDS:
        raise CampaignActionError(f"unknown campaign action {data.get('kind')!r}: the one action is orders",
                                  kind=kind, legal=["orders"])


def _faith(value: object) -> list[str]:
    """The Enclaves Faith restores: a list of names, or one name (``none``, ``no``, ``-``: none)."""
    names = [value] if isinstance(value, str) else value or []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise CampaignActionError(f"faith: expected Enclave names, got {value!r}", field="faith")
    return [n for n in names if fold(n) not in NO_FAITH]


def spoken_order(unit: str, spec: str) -> Order:
    """An order in words: ``"move:Old Watch"``, ``"move Old Watch"``, ``"reclaim"`` (the form, the command line)."""
    head, sep, rest = spec.strip().partition(":")
    if not sep:
        head, _, rest = spec.strip().partition(" ")
    return Order(unit, order_kind(unit, head), rest.strip() or None)


def _form_orders(data: Mapping[str, object]) -> tuple[Order, ...]:
    """The web form's flat fields, one per unit: ``order:Lantern Wardens = move:Lantern Hill``."""
    out: list[Order] = []
    for key, value in data.items():
        if not key.startswith("order:") or value in (None, ""):
            continue
        unit = key.removeprefix("order:")
        if isinstance(value, Mapping):
            out.append(order_of({**value, "unit": unit}, key))
        elif isinstance(value, str):
            out.append(spoken_order(unit, value))
        else:
            raise CampaignActionError(f"{unit}: an order is a word such as 'move Old Watch', got {value!r}", field=key)
    return tuple(out)


#: The one JSON codec of the campaign's action.
ORDERS = OrdersCodec(GiveOrders)


@dataclass(frozen=True)
class FaithOrder:
    """A faction spends Faith to restore one of its non-Fallen Enclaves to full (end of the round)."""

    faction: str
    enclave: str


def _attack_target(state: CampaignState, unit: FieldUnit, target: str | None) -> str:
    """The exact label of the unit, or name of the Enclave, an Attack names (another faction's)."""
    for u in state.units:
        if target is not None and fold(u.label) == fold(target):
            if u.faction == unit.faction:
                raise OrderError(f"{unit.label} cannot Attack {u.label}: both are {unit.faction}")
            return u.label
    for e in state.enclaves:
        if target is not None and fold(e.name) == fold(target):
            if e.faction == unit.faction:
                raise OrderError(f"{unit.label} cannot Attack {e.name}: it is held by {unit.faction}")
            return e.name
    raise OrderError(f"{unit.label}: an Attack names another faction's unit or Enclave, got {target!r}")


def _check(state: CampaignState, unit: FieldUnit, order: Order, opts: CampaignOptions) -> Order:
    """``order`` with its names made exact, or :class:`OrderError` saying why it cannot be given."""
    if order.kind not in ORDER_KINDS:
        raise OrderError(f"{unit.label}: unknown order {order.kind!r} (orders: {', '.join(ORDER_KINDS)})")
    if unit.health <= 0:
        raise OrderError(f"{unit.label} has 0 Health and takes no orders")
    if order.kind == "move":
        target = state.map.resolve(order.target or "")
        if target == unit.region or not state.map.reachable(unit.region, target, opts.move_range):
            raise OrderError(
                f"{unit.label} cannot move from {unit.region} to {target}: more than {counted(opts.move_range, 'border')}"
            )
        return Order(unit.label, "move", target)
    if order.kind == "attack":
        return Order(unit.label, "attack", _attack_target(state, unit, order.target))
    if order.kind == "reclaim":
        enclave = state.enclave_in(unit.region)
        if enclave is None or enclave.faction != unit.faction:
            raise OrderError(f"{unit.label}: no Enclave of {unit.faction} in {unit.region} to Reclaim")
    if order.kind == "delve" and not any(d.region == unit.region for d in state.dungeons):
        raise OrderError(f"{unit.label}: no Dungeon in {unit.region} to delve")
    return Order(unit.label, order.kind, None)


def checked_orders(
    state: CampaignState, orders: Sequence[Order], options: CampaignOptions | None = None
) -> dict[str, Order]:
    """Every standing unit's order by label (``hold`` for a unit given none), each checked once."""
    opts = options or CampaignOptions()
    given: dict[str, Order] = {}
    for order in orders:
        unit = state.unit(order.unit)
        if unit.label in given:
            raise OrderError(f"{unit.label} was given two orders")
        given[unit.label] = _check(state, unit, order, opts)
    return {u.label: given.get(u.label, Order(u.label)) for u in state.units if u.health > 0}


def checked_faith(state: CampaignState, orders: Sequence[FaithOrder]) -> list[FaithOrder]:
    """Faith orders with exact names; an Enclave of another faction is refused."""
    out: list[FaithOrder] = []
    for o in orders:
        faction, enclave = state.faction(o.faction), state.enclave(o.enclave)
        if fold(enclave.faction) != fold(faction.name):
            raise OrderError(f"{faction.name} cannot spend Faith on {enclave.name}, held by {enclave.faction}")
        out.append(FaithOrder(faction.name, enclave.name))
    return out
