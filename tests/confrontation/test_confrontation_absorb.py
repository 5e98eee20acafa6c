"""Absorb/X (issue 24): an accumulator draws his friends' Gems, at the estimated ratio of data/spells.yaml;
docs/rules/confrontation.md, "Accumulators and Absorb". The pieces are those of *The seer's circle*."""

from __future__ import annotations

from dataclasses import replace

import pytest
from cf_start import past_tactical
from test_confrontation_concentration import start

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game
from rulekeeper.rulesets.confrontation.spells import mystic_rules
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

SEER, SHAMAN, HUNTER = "Wolfen moon-seer", "Wolfen shaman", "Wolfen hunter"


def wolfen_to_act(g: Game) -> SkirmishState:
    return past_tactical(start(g), "B")


def test_absorb_designates_friends_within_x_cm_who_lose_resources_for_one_charge_each(g: Game) -> None:
    """Absorb/X: "designate a number of fighters equal to his rank within X cm of him. These fighters must have the
    resources he needs to generate charges. Each designated fighter loses the needed resources to grant the
    accumulator 1 charge, which the accumulator gets immediately"; the ratio is estimated (1 Gem a charge)."""
    assert mystic_rules().absorb_rate == 1
    s = wolfen_to_act(g)
    assert (s.fighter(SEER).gems, s.fighter(SHAMAN).gems, s.fighter(SEER).card.rank) == (5, 4, 2)
    legal = [lg for lg in g.legal_actions(s) if lg.action["kind"] == "absorb"]
    assert [lg.action["from"] for lg in legal] == [[SHAMAN]]  # the only friendly Magician (the hunter has no Gems)
    act = g.parse_words(s, ["absorb", "Wolfen", "moon-seer", "Wolfen", "shaman"])
    assert act == legal[0].action and g.parse_action(s, act) == act
    shown = g.preview(s, act)
    assert shown.draws == () and dict(shown.headline) == {SEER: "5 → 6 Gems", SHAMAN: "4 → 3 Gems"}
    out = g.apply(s, act)
    after = out.state
    assert out.chance == () and (after.fighter(SEER).gems, after.fighter(SHAMAN).gems) == (6, 3)
    assert state_from_json(state_to_json(after)) == after
    # a Mystic action before his action: his activation goes on, his side still acts; once per round
    assert after.to_act == "B" and not after.fighter(SEER).activated
    assert not [lg for lg in g.legal_actions(after) if lg.action["kind"] == "absorb"]
    with pytest.raises(IllegalActionError, match="may not absorb now"):
        g.apply(after, act)
    assert any(lg.action["kind"] == "cast" and lg.action["fighter"] == SEER for lg in g.legal_actions(after))


def test_absorb_refuses_enemies_the_far_and_more_than_his_rank(g: Game) -> None:
    """"a number of fighters equal to his rank within X cm of him" (Absorb/15; the moon-seer's rank 2)."""
    s = wolfen_to_act(g)
    with pytest.raises(IllegalActionError, match="not a friendly Magician within 15 cm"):
        g.apply(s, {"kind": "absorb", "side": "B", "fighter": SEER, "from": [HUNTER]})
    with pytest.raises(IllegalActionError, match="at most his rank, 2"):
        g.apply(s, {"kind": "absorb", "side": "B", "fighter": SEER, "from": [SHAMAN, HUNTER, "Alahan champion"]})
    far = s.with_fighters(replace(s.fighter(SHAMAN), x=5.0, y=2.0))
    with pytest.raises(IllegalActionError, match="within 15 cm"):
        g.apply(far, {"kind": "absorb", "side": "B", "fighter": SEER, "from": [SHAMAN]})
    with pytest.raises(IllegalActionError, match="designates fighters: a list of names"):
        g.parse_action(s, {"kind": "absorb", "side": "B", "fighter": SEER, "from": 7})
