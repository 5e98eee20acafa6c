"""Rallying cry is announced by its player at the start of a round (rallying_cry.py).

Rallying cry (active): "This ability can be used as a simple action once per game by a fighter who has it. Its usage
must be announced at the beginning of any strategic phase. All friendly fighters: are immediately rallied if they
were in rout; get a +1 bonus to the natural result of their COU tests until the end of the round."
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_confrontation_steeling import GUARD, SWORDSMAN, routed

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game
from rulekeeper.rulesets.confrontation.rallying_cry import strategic
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

PALADIN = "Alahan paladin"


def crying(g: Game, declarations: str = "players") -> SkirmishState:
    """The ford at a round's start: the swordsman and the guard in rout, the paladin (not in rout) with Rallying cry
    (and COU 4, Resolute/1: his own rallying test is not taken, he is not in rout)."""
    s = routed(g)
    paladin = s.fighter(PALADIN)
    paladin = replace(paladin, rout=0, card=paladin.card.model_copy(update={"abilities": ["Rallying cry"]}))
    return replace(s.with_fighters(paladin), options=(("declarations", declarations),), first="A")


def test_its_player_announces_it_at_the_start_of_the_round(g: Game) -> None:
    """"Its usage must be announced at the beginning of any strategic phase": the phase waits for the paladin's
    player before any rallying test; the keeper proposes it (friends in rout)."""
    s = crying(g)
    fate = Fate.from_state(s.rng)
    asked = strategic(s, fate, [])
    assert asked.crying == PALADIN and asked.to_act == "A" and not fate.records
    assert g.status(asked).acting == (PALADIN,)
    offers = g.legal_actions(asked)
    assert [lg.action["value"] for lg in offers] == [1, 0] and "the keeper's proposal" in offers[0].text
    assert f"{SWORDSMAN}, {GUARD} rallied" in offers[0].text
    assert state_from_json(state_to_json(asked)) == asked


def test_announced_every_friend_rallies_no_test_drawn(g: Game) -> None:
    """"are immediately rallied if they were in rout; get a +1 bonus to the natural result of their COU tests"."""
    asked = strategic(crying(g), Fate.from_state(crying(g).rng), [])
    yes = g.legal_actions(asked)[0].action
    assert not g.preview(asked, yes).draws
    out = g.apply(asked, yes)
    assert not out.chance and not out.state.crying
    lions = [out.state.fighter(k) for k in (SWORDSMAN, GUARD, PALADIN)]
    assert all(f.rout == 0 and f.heartened for f in lions) and out.state.fighter(PALADIN).cried
    assert "Rallying cry" in out.report[0]["text"]


def test_kept_the_rallying_tests_follow_and_he_may_cry_later(g: Game) -> None:
    """Kept: the rallying tests are drawn as shown ("each routed fighter tests COU 8 or DIS 8"); "once per game" is
    not spent, so he is asked again next round."""
    asked = strategic(crying(g), Fate.from_state(crying(g).rng), [])
    no = g.legal_actions(asked)[1].action
    preview = g.preview(asked, no)
    assert [r.label for r in preview.draws] == [f"rally test: {SWORDSMAN}", f"rally test: {GUARD}"]
    out = g.apply(asked, no)
    assert [r.request for r in out.chance] == list(preview.draws)
    assert not out.state.fighter(PALADIN).cried and out.state.phase == "tactical" and not out.state.crying
    whole = g.whole_odds(asked, no)
    assert whole is not None and whole.measures[0].label == "fighters staying in rout"


def test_only_his_answer_is_taken(g: Game) -> None:
    asked = strategic(crying(g), Fate.from_state(crying(g).rng), [])
    with pytest.raises(IllegalActionError, match=r"waits for Alahan paladin's Rallying cry \(declare"):
        g.apply(asked, {"kind": "tactical", "side": "A", "fighter": PALADIN})
    with pytest.raises(IllegalActionError, match=r"1 \(announced\) or 0, not 2"):
        g.apply(asked, {"kind": "declare", "side": "A", "fighter": PALADIN, "ability": "Rallying cry", "value": 2})
    assert g.parse_words(asked, ["declare", "Alahan", "paladin", "no"]) == \
        g.parse_action(asked, g.legal_actions(asked)[1].action)


def test_stored_battles_keep_the_keepers_policy(g: Game) -> None:
    s = crying(g, "keeper")
    done = strategic(s, Fate.from_state(s.rng), [])
    assert not done.crying and done.fighter(PALADIN).cried and done.fighter(GUARD).rout == 0
