"""Issue 30 (with issue 25): every action text a War Table game lists is accepted back verbatim.

The campaign listed "Oathsworn: every unit holds", yet ``battle act ID oathsworn "every unit holds"`` was refused.
Now each listed text parses to its own action, whole (one word) or after the side.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.wartable.campaign.actions import CampaignActionError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "wartable"


def campaign_states() -> list[object]:
    g = game("wartable-campaign")
    s = g.initial_state(g.setup(SetupRequest(scenario=EXAMPLES / "shroudfall.yaml", seed=7)).document)
    c = s.campaign  # a crowded Old Watch: Attacks, moves and holds all listed
    crowded = replace(s, campaign=replace(c, units=tuple(
        replace(u, region="Old Watch") if u.label in ("Ford Horde", "Lantern Wardens") else u for u in c.units)))
    return [s, crowded]


def test_every_listed_campaign_action_text_is_accepted_back() -> None:
    g = game("wartable-campaign")
    checked = 0
    for state in campaign_states():
        for lg in g.legal_actions(state):
            assert g.parse_words(state, [lg.text]) == lg.action, lg.text
            side, _, rest = lg.text.partition(": ")
            assert g.parse_words(state, [lg.side, rest]) == lg.action, lg.text
            assert g.parse_words(state, [lg.side, *rest.split("; ")]) == lg.action, lg.text
            checked += 1
    assert checked > 100


def test_the_issues_example_and_the_old_form_still_work() -> None:
    g = game("wartable-campaign")
    state = campaign_states()[0]
    assert g.parse_words(state, ["oathsworn", "every unit holds"])["orders"] == [
        {"unit": "Hearthmere Guard", "order": "hold"}, {"unit": "Lantern Wardens", "order": "hold"}]
    both = g.parse_words(state, ["Oathsworn: Hearthmere Guard Reclaims; Faith restores Lantern Hill"])
    assert both == g.parse_words(state, ["oathsworn", "Hearthmere Guard: reclaim", "faith: Lantern Hill"])
    with pytest.raises(CampaignActionError, match="UNIT: ORDER"):
        g.parse_words(state, ["oathsworn", "Hearthmere Guard dances"])


def test_every_listed_engagement_action_text_is_accepted_back() -> None:
    g = game("wartable")
    state = g.initial_state(g.setup(SetupRequest(scenario=EXAMPLES / "oathsworn_vs_bloodless.yaml")).document)
    seen = []
    while not g.status(state).over:
        (lg,) = g.legal_actions(state)
        assert g.parse_words(state, [lg.text]) == lg.action
        seen.append(lg.text)
        state = g.apply(state, lg.action).state
    assert seen == ["attack", "defend"]
