"""Each player places his fighters' combat dice (``placing.py``, option ``placement``, default ``players``).

"after the Initiative roll the winner places its combat dice after the loser" (docs/rules/confrontation.md,
"Frays"); "When a Fencer's combat dice are being placed before a combat, one of them can be held in reserve by the
player controlling him" (the seed): the placement is the player's, and the keeper may propose, never pick silently.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.placing import choices
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios"


def engaged_fight(g: Game, placement: str | None = "players", seed: int = 11) -> SkirmishState:
    """The ford with the guard charged into the hunter and everyone else holding: the combat phase, its fight
    offered (``placement=None``: a document stored before the option, which names none)."""
    doc = g.setup(SetupRequest(scenario=SCENARIOS / "the_ford.yaml", seed=seed,
                               options=() if placement is None else (f"placement={placement}",))).document
    if placement is None:
        doc = {**doc, "options": {k: v for k, v in doc["options"].items() if k != "placement"}}
    s = past_tactical(g.initial_state(doc))
    s = replace(s, fighters=tuple(replace(f, braved=99) for f in s.fighters))
    guard = s.fighter("Alahan guard")
    s = s.with_fighters(replace(guard, x=12.0, y=22.0, facing=0.0))
    s = g.apply(s, {"kind": "charge", "side": "A", "fighter": "Alahan guard", "target": "Wolfen hunter"}).state
    while s.phase == "activation":
        s = g.apply(s, next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "hold")).state
    assert isinstance(s, SkirmishState) and s.phase == "combat"
    return s


def test_the_fight_draws_the_ini_tests_and_the_loser_places_first(g: Game) -> None:
    s = engaged_fight(g)
    out = g.apply(s, g.legal_actions(s)[0].action)
    assert [c.request.label.split(":")[0] for c in out.chance] == ["INI test", "INI test"]
    after = out.state
    assert isinstance(after, SkirmishState) and after.placing[:2] == ("A", "Alahan guard")
    winner = int(after.placing[2])
    loser_side = "B" if winner == 0 else "A"  # camp 0 is the fight's side (A), camp 1 its enemies
    assert g.status(after).to_act == (loser_side,) and after.to_act == loser_side
    offered = g.legal_actions(after)
    assert {lg.action["kind"] for lg in offered} == {"place"} and {lg.side for lg in offered} == {loser_side}
    assert offered[0].text.endswith("(the keeper's proposal)") and len(offered) >= 2
    assert {lg.note for lg in offered} == {"then 1 more fighter places"}  # a duel: the winner places next
    last = g.legal_actions(g.apply(after, offered[0].action).state)
    assert {lg.note for lg in last} == {"then the exchanges"}
    assert state_from_json(state_to_json(after)) == after  # the pending placement is stored with the state
    # nothing else may be done meanwhile
    with pytest.raises(IllegalActionError, match="waits for its combat dice"):
        g.apply(after, {"kind": "fight", "side": "A", "fighter": "Alahan guard"})


def test_every_count_is_offered_and_the_winner_sees_the_losers_choice(g: Game) -> None:
    """The loser places "without seeing the other's dice"; the winner's proposal answers what the loser placed:
    "keeps one defence die per attack die coming, but always at least one die in attack"."""
    s = engaged_fight(g)
    after = g.apply(s, g.legal_actions(s)[0].action).state
    c = choices(after)
    assert sorted(c.allowed) == list(range(c.dice + 1))  # no War fury here: any count of his dice
    proposals = {}
    for lg in g.legal_actions(after):
        then = g.apply(after, lg.action).state
        winner_choice = choices(then)
        assert winner_choice.fighter.side != c.fighter.side
        proposals[lg.action["attack"]] = winner_choice.proposal
    assert proposals[0] > proposals[max(proposals)] or len(set(proposals.values())) > 1, proposals


def test_the_placement_is_the_players_and_the_exchanges_follow_the_last(g: Game) -> None:
    """A placement other than the proposal is played as given: the report says so, and the fray then draws its
    attacks (ATT tests) with that many dice in attack."""
    s = engaged_fight(g)
    after = g.apply(s, g.legal_actions(s)[0].action).state
    first = choices(after)
    all_defence = next(lg.action for lg in g.legal_actions(after) if lg.action["attack"] == 0)
    out = g.apply(after, all_defence)
    assert out.report[0]["text"] == f"{first.fighter.key} places 0 in attack, {first.dice} in defence"
    assert not out.chance  # nothing drawn until the last fighter has placed
    last = g.legal_actions(out.state)
    done = g.apply(out.state, last[0].action)
    assert not done.state.placing and "ATT test" in {c.request.label.split(":")[0] for c in done.chance}
    lines = done.report[1]["lines"]
    assert f"{first.fighter.key}: 0 in attack, {first.dice} in defence" in lines
    attackers = {c.request.label.split(": ")[1] for c in done.chance if c.request.label.startswith("ATT test")}
    assert first.fighter.key not in attackers  # no die in attack: he never attacks


def test_a_refused_placement_names_what_is_allowed(g: Game) -> None:
    s = engaged_fight(g)
    after = g.apply(s, g.legal_actions(s)[0].action).state
    c = choices(after)
    with pytest.raises(IllegalActionError, match=f"{c.fighter.key} places 0 to {c.dice} of his {c.dice} dice in attack, not"):
        g.apply(after, {"kind": "place", "side": c.fighter.side, "fighter": c.fighter.key, "attack": c.dice + 1})
    other = next(f.key for f in after.fighters if f.key != c.fighter.key)
    with pytest.raises(IllegalActionError, match=f"{c.fighter.key} places his combat dice now"):
        g.apply(after, {"kind": "place", "side": c.fighter.side, "fighter": other, "attack": 0})
    assert g.parse_words(after, ["place", *c.fighter.key.split(), "0"]) == g.parse_action(
        after, {"kind": "place", "fighter": c.fighter.key, "attack": "0"})


def test_the_keeper_reading_and_a_battle_stored_before_the_choice_fight_in_one_action(g: Game) -> None:
    for placement in ("keeper", None):
        s = engaged_fight(g, placement)
        out = g.apply(s, g.legal_actions(s)[0].action)
        assert not out.state.placing and "ATT test" in {c.request.label.split(":")[0] for c in out.chance}


@pytest.mark.parametrize("key", ["ruined_wall", "the_broken_line", "the_ford", "the_hunters_wood", "the_mill_race",
                                 "the_moonlit_shrine", "the_seers_circle", "the_stalkers_ford", "the_watchtower"])
def test_placed_as_proposed_every_shipped_skirmish_ends_as_the_keeper_placing_would(g: Game, key: str) -> None:
    """The same dice, drawn from the same RNG in the same order: a fight placed as the keeper proposes ends
    exactly as the one-action fight, in every shipped scenario (the policy plays both sides)."""
    ends = {}
    for placement in ("players", "keeper"):
        info = next(sc for sc in g.scenarios() if sc.key == key)
        s = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=2,
                                                 options=(f"placement={placement}",))).document)
        places = 0
        while not g.status(s).over:
            action = g.policy(s)
            assert action is not None
            places += action["kind"] == "place"
            s = g.apply(s, action).state
        ends[placement] = {**g.state_to_json(s), "options": None}
        if placement == "players":
            assert places > 0, "no fight was placed"
    assert ends["players"] == ends["keeper"]
