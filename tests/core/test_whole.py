"""``core.whole``: the whole-action odds type (issue 27: "see the distribution of its whole result ... each
outcome with its probability, the expected values"), its checks, its marginals, its JSON and its text."""

from __future__ import annotations

import json
import math

import pytest

from rulekeeper.core.base import BaseGame
from rulekeeper.core.errors import InvalidOddsError, RulekeeperError
from rulekeeper.core.whole import (
    WholeMeasure,
    WholeOdds,
    bar,
    event_odds,
    marginals,
    percent,
    whole_odds_of,
)

#: Two strikes that each kill with 1/2, and our losses 0 or 1 with 3/4, 1/4, independent.
JOINT = {(k, n): pk * pn for k, pk in ((0, 0.25), (1, 0.5), (2, 0.25)) for n, pn in ((0, 0.75), (1, 0.25))}


def test_a_measure_checks_its_probabilities() -> None:
    WholeMeasure("kills", "enemy killed", (("0", 0.25), ("1", 0.75)), 0.75)
    with pytest.raises(InvalidOddsError, match="sum to"):
        WholeMeasure("kills", "enemy killed", (("0", 0.25), ("1", 0.7)))
    with pytest.raises(InvalidOddsError, match="not a number"):
        WholeMeasure("kills", "enemy killed", (("0", -0.25), ("1", 1.25)))
    with pytest.raises(InvalidOddsError, match="not a number"):
        WholeMeasure("kills", "enemy killed", (("0", math.nan), ("1", 1.0)))
    with pytest.raises(InvalidOddsError, match="unique"):
        WholeMeasure("kills", "enemy killed", (("0", 0.5), ("0", 0.5)))
    with pytest.raises(InvalidOddsError, match="at least one"):
        WholeMeasure("kills", "enemy killed", ())
    # within the rounding of a float sum is accepted
    WholeMeasure("k", "k", tuple((str(i), 0.1) for i in range(10)))


def test_the_error_is_typed_and_a_value_error() -> None:
    with pytest.raises(RulekeeperError) as caught:
        WholeMeasure("kills", "enemy killed", (("0", 0.5),))
    assert caught.value.code == "invalid_odds" and isinstance(caught.value, ValueError)
    assert caught.value.to_dict()["measure"] == "kills"


def test_odds_check_method_bound_and_events() -> None:
    m = WholeMeasure("k", "k", (("0", 1.0),), 0.0)
    with pytest.raises(InvalidOddsError, match="unknown method"):
        WholeOdds((m,), method="guess")
    with pytest.raises(InvalidOddsError, match="error bound"):
        WholeOdds((m,), method="grid", error_bound=-1e-3)
    with pytest.raises(InvalidOddsError, match="event rout"):
        WholeOdds((m,), events=(("rout", 1.5),))
    with pytest.raises(InvalidOddsError, match="unique"):
        WholeOdds((m, m))


def test_marginals_and_events_of_a_joint_distribution() -> None:
    kills, losses = marginals(JOINT, [("kills", "enemy killed"), ("losses", "our losses")])
    assert kills.outcomes == (("0", 0.25), ("1", 0.5), ("2", 0.25))
    assert kills.mean == pytest.approx(1.0)
    assert losses.outcomes == (("0", 0.75), ("1", 0.25))
    assert losses.mean == pytest.approx(0.25)
    events = event_odds(JOINT, [("we lose more than they", lambda o: o[1] > o[0])])
    assert events == (("we lose more than they", pytest.approx(0.25 * 0.25)),)


def test_marginals_sort_words_by_the_order_given() -> None:
    joint = {("steady",): 0.5, ("shaken",): 0.3, ("routs",): 0.2}
    rank = {"steady": 0, "shaken": 1, "routs": 2}
    (morale,) = marginals(joint, [("morale", "morale after")], order=[rank.__getitem__])
    assert [o for o, _ in morale.outcomes] == ["steady", "shaken", "routs"]
    assert morale.mean is None


def test_from_weights_normalises_and_refuses_bad_weights() -> None:
    m = WholeMeasure.from_weights("hp", "hit points left", [(0, 1.0), (2.0, 3.0)])
    assert m.outcomes == (("0", 0.25), ("2", 0.75)) and m.mean == pytest.approx(1.5)
    with pytest.raises(InvalidOddsError, match="sum to"):
        WholeMeasure.from_weights("hp", "hp", [(0, 0.0)])
    with pytest.raises(InvalidOddsError, match="weight"):
        WholeMeasure.from_weights("hp", "hp", [(0, math.inf)])


def test_json_form_round_trips_through_json() -> None:
    odds = WholeOdds(marginals(JOINT, [("kills", "enemy killed"), ("losses", "our losses")]),
                     (("enemy routs", 0.34),), "grid", 1e-4, "damage on a 0.01 grid")
    data = json.loads(json.dumps(odds.to_dict()))
    assert data["method"] == "grid" and data["error_bound"] == 1e-4
    assert data["measures"][0] == {"key": "kills", "label": "enemy killed", "mean": 1.0,
                                   "outcomes": [["0", 0.25], ["1", 0.5], ["2", 0.25]]}
    assert data["events"] == [["enemy routs", 0.34]]
    assert odds.measure("losses").probability("1") == 0.25 and odds.event("enemy routs") == 0.34
    with pytest.raises(InvalidOddsError, match="no measure"):
        odds.measure("morale")


def test_text_rows_for_the_terminal() -> None:
    odds = WholeOdds(marginals(JOINT, [("kills", "enemy killed"), ("losses", "our losses")]),
                     (("enemy routs", 0.34),), "grid", 1e-4)
    rows = odds.rows(width=8)
    assert rows[0] == ("enemy killed", "0", "25.0 %", "██")
    assert rows[3] == ("", "expected", "1.00", "")
    assert rows[-1] == ("enemy routs", "", "34.0 %", "██▊")  # 0.34 × 8 cells = 2 cells and 6 eighths
    text = odds.text(width=8)
    assert "our losses" in text and text.endswith("computed on a fine grid (each probability within ±0.0001)")


def test_percent_and_bar_show_small_chances() -> None:
    assert percent(0.0) == "0 %" and percent(0.0004) == "<0.1 %" and percent(0.9995) == ">99.9 %"
    assert percent(1.0) == "100.0 %" and percent(0.5) == "50.0 %"
    assert bar(1.0, 4) == "████" and bar(0.0, 4) == "" and bar(1 / 32, 4) == "▏"


class _Plain:
    pass


class _Whole:
    def whole_odds(self, state: object, action: dict[str, object]) -> WholeOdds | None:
        return WholeOdds((WholeMeasure("k", "k", (("0", 1.0),), 0.0),)) if action.get("kind") == "strike" else None


def test_the_hook_is_optional() -> None:
    assert whole_odds_of(_Plain(), None, {"kind": "strike"}) is None
    assert whole_odds_of(_Whole(), None, {"kind": "hold"}) is None
    found = whole_odds_of(_Whole(), None, {"kind": "strike"})
    assert found is not None and found.measures[0].key == "k"
    assert BaseGame.whole_odds(BaseGame(), None, {}) is None  # type: ignore[arg-type]
