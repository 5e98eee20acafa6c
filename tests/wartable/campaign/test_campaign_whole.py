"""Issue 27 for the War Table campaign: its only chance is the Delve table; an order set's whole odds are each
Delve's table result with the weights the round draws with (the preview's requests), and none without a Delve."""

from __future__ import annotations

import pytest

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.core.whole import whole_odds_of


def test_delve_orders_show_the_table_the_round_draws_on() -> None:
    g = game("wartable-campaign")
    info = g.scenarios()[0]  # type: ignore[attr-defined]
    state = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=3)).document)  # type: ignore[attr-defined]
    actions = [lg.action for lg in g.legal_actions(state)]  # type: ignore[attr-defined]
    delving = [a for a in actions if any(o["order"] == "delve" for o in a["orders"])]
    quiet = [a for a in actions if all(o["order"] != "delve" for o in a["orders"])]
    assert delving and quiet
    for action in delving[:5]:
        whole = whole_odds_of(g, state, action)
        assert whole is not None and whole.method == "exact"
        draws = g.preview(state, action).draws  # type: ignore[attr-defined]
        assert len(draws) == len(whole.measures)
        for request, measure in zip(draws, whole.measures, strict=True):
            assert dict(measure.outcomes) == pytest.approx(dict(request.odds()))
    assert all(whole_odds_of(g, state, a) is None for a in quiet[:5])
