"""``core.actioncodec``: one JSON codec for typed actions, with numbers arriving as numbers (issue 22, scope 2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

import pytest

from rulekeeper.core.actioncodec import ActionCodec
from rulekeeper.core.errors import IllegalActionError


@dataclass(frozen=True)
class Shoot:
    kind: ClassVar[str] = "shoot"
    side: str
    unit: str
    dice: int
    range_cm: float
    aimed: bool = False
    at: tuple[str, ...] = ()


@dataclass(frozen=True)
class Turn:
    kind: Literal["wait", "end"]
    side: Literal["A", "B"]


CODEC = ActionCodec(Shoot, Turn)


def test_a_typed_action_goes_to_json_and_back() -> None:
    shot = Shoot("A", "Bank Archers", 3, 12.5, True, ("B2", "B3"))
    encoded = CODEC.encode(shot)
    assert encoded == {"kind": "shoot", "side": "A", "unit": "Bank Archers", "dice": 3, "range_cm": 12.5,
                       "aimed": True, "at": ["B2", "B3"]}
    assert list(encoded) == ["kind", "side", "unit", "dice", "range_cm", "aimed", "at"]
    assert CODEC.decode(encoded) == shot
    assert CODEC.kinds == ("shoot", "wait", "end")
    assert CODEC.decode({"kind": "END", "side": "b"}) == Turn("end", "B")


def test_a_forms_text_arrives_typed() -> None:
    form = {"kind": " Shoot ", "side": "A", "unit": " Bank Archers ", "dice": "3", "range_cm": "12.5", "aimed": "true"}
    assert CODEC.decode(form) == Shoot("A", "Bank Archers", 3, 12.5, True)
    assert CODEC.decode({"kind": "shoot", "unit": "X", "dice": 2, "range_cm": 4}, {"side": "B"}) == Shoot("B", "X", 2, 4.0)


@pytest.mark.parametrize(("data", "named"), [
    ({"kind": "charge", "side": "A"}, "kind"),
    ({"kind": "shoot", "side": "A", "unit": "X", "dice": "three", "range_cm": 1}, "shoot.dice"),
    ({"kind": "shoot", "side": "A", "unit": "X", "dice": True, "range_cm": 1}, "shoot.dice"),
    ({"kind": "shoot", "side": "A", "unit": "X", "range_cm": 1}, "dice"),
    ({"kind": "shoot", "side": "A", "unit": "X", "dice": 1, "range_cm": 1, "colour": "red"}, "colour"),
    ({"kind": "wait", "side": "C"}, "wait.side"),
    ({"kind": "shoot", "side": "A", "unit": 7, "dice": 1, "range_cm": 1}, "shoot.unit"),
])
def test_a_malformed_action_is_refused_naming_what_is_wrong(data: dict[str, object], named: str) -> None:
    with pytest.raises(IllegalActionError) as refused:
        CODEC.decode(data)
    assert named in refused.value.message


@dataclass(frozen=True)
class Order:
    """A nested record: one unit's order inside a side's orders (the War Table campaign's shape)."""

    omit_none: ClassVar[bool] = True
    order: Literal["hold", "move"]
    unit: str
    target: str | None = None


@dataclass(frozen=True)
class Orders:
    kind: ClassVar[str] = "orders"
    side: str
    round: int
    orders: tuple[Order, ...]


def test_nested_records_go_to_json_and_back_leaving_out_what_the_log_never_wrote() -> None:
    codec = ActionCodec(Orders)
    typed = Orders("oathsworn", 1, (Order("hold", "Hearthmere Guard"), Order("move", "Lantern Wardens", "Lantern Hill")))
    logged = {"kind": "orders", "side": "oathsworn", "round": 1, "orders": [
        {"order": "hold", "unit": "Hearthmere Guard"}, {"order": "move", "unit": "Lantern Wardens", "target": "Lantern Hill"}]}
    assert codec.encode(typed) == logged and codec.decode(logged) == typed
    assert codec.decode({**logged, "round": "1", "orders": [{"order": " MOVE ", "unit": "X", "target": "Y"}]}).orders == (
        Order("move", "X", "Y"),)
    for wrong, named in (([{"order": "fly", "unit": "X"}], "orders.orders.order"), ([{"unit": "X"}], "orders.orders.order"),
                         (["X"], "orders.orders"), ([{"order": "hold", "unit": "X", "colour": 1}], "orders.orders")):  # kind.field
        with pytest.raises(IllegalActionError) as refused:
            codec.decode({**logged, "orders": wrong})
        assert refused.value.details["field"] == named, wrong
