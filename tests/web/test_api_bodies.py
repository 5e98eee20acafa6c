"""The API's typed answers say what the service's objects say: key for key, in the same order."""

from rulekeeper.service.bot_seat import BotSeat
from rulekeeper.service.dice import DiceStatus
from rulekeeper.web.api_bodies import dice_body, dice_fields, seat_body


def test_dice_fields_are_the_dice_status_as_json() -> None:
    for status in (DiceStatus(False), DiceStatus(True, "c" * 64, ("A", "B"), {"A": "a" * 64, "B": None}, ("B",),
                                                 False, True, "s" * 64, 2**63 - 1, commitments={"A": "d" * 64},
                                                 uncommitted=("B",), committed=False)):
        assert list(dice_fields(status).items()) == list(status.to_dict().items())
        assert list(dice_body(status, "A").items()) == [*status.to_dict().items(), ("role", "A")]


def test_the_seat_body_is_the_seat_as_its_battle_keeps_it() -> None:
    for seat in (BotSeat("B", "steady", 7), BotSeat("A", "simple", None)):
        body = seat_body(seat)
        assert body is not None and list(body.items()) == list(seat.to_meta().items())
    assert seat_body(None) is None
