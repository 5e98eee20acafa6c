"""The API's answer shapes that mirror the service's (FastAPI's pydantic reads a TypedDict on Python 3.11 only
from ``typing_extensions``) have the same keys in the same order, and the dice answer is the dice as JSON."""

from rulekeeper.service.bot_seat import SeatJson
from rulekeeper.service.dice import DiceStatus, DiceStatusJson
from rulekeeper.web.api_bodies import DiceStatusBody, SeatBody, dice_body


def test_the_mirrored_shapes_have_the_services_keys_in_order() -> None:
    assert list(SeatBody.__annotations__) == list(SeatJson.__annotations__)
    assert list(DiceStatusBody.__annotations__) == list(DiceStatusJson.__annotations__)


def test_the_dice_answer_is_the_dice_as_json_and_the_role() -> None:
    status = DiceStatus(True, "c" * 64, ("A", "B"), {"A": "a" * 64, "B": None}, ("B",), False, seed=2**63 - 1)
    assert list(dice_body(status, "A").items()) == [*status.to_dict().items(), ("role", "A")]
