"""Fray splitting (issue 24): the Tactical roll's winner splits the round's frays and chooses which is fought first;
docs/rules/confrontation.md, "Fray splitting"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cf_kit import fight_through
from cf_start import past_tactical

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.fray import MAX_FIGHTERS
from rulekeeper.rulesets.confrontation.skirmish import fray_of, group_of, groups
from rulekeeper.rulesets.confrontation.state import Fighter, SkirmishState, state_from_json, state_to_json

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"
SWORD, PALADIN, GUARD, HUNTER, PREDATOR = ("Alahan swordsman", "Alahan paladin", "Alahan guard", "Wolfen hunter",
                                           "Wolfen predator")


def engaged_state(g: Game, pairs: list[tuple[str, str]], leader: str = "A", extra: tuple[Fighter, ...] = ()
                  ) -> SkirmishState:
    """The ford in its combat phase, engaged as ``pairs`` say (positions do not matter to a fight)."""
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=3)).document), leader)
    assert isinstance(state, SkirmishState)
    engaged: dict[str, list[str]] = {}
    for a, b in pairs:
        engaged.setdefault(a, []).append(b)
        engaged.setdefault(b, []).append(a)
    fighters = tuple(replace(f, engaged=tuple(engaged.get(f.key, ())), activated=True)
                     for f in (*state.fighters, *extra))
    return replace(state, fighters=fighters, phase="combat", to_act=leader)


CHAIN = [(GUARD, HUNTER), (SWORD, HUNTER), (SWORD, PREDATOR)]


def test_the_winner_may_split_a_fray_and_the_keeper_proposes_not_to(g: Game) -> None:
    """Assassin's bonus "is acquired even if the fighter is separated from the target of his charge after Fray
    splitting": a fray can be split. Its winner's legal actions: the whole fight first (the keeper's proposal,
    autoplay's choice), then each split leaving two-sided frays."""
    s = engaged_state(g, CHAIN)
    legal = g.legal_actions(s)
    assert [lg.action["kind"] for lg in legal] == ["fight", "split", "split"]
    assert [lg.action.get("apart") for lg in legal[1:]] == [[GUARD, HUNTER], [SWORD, PREDATOR]]
    assert all(lg.side == "A" and lg.action["fighter"] == SWORD for lg in legal)
    assert g.policy(s) == legal[0].action
    assert g.preview(s, legal[1].action).draws == ()  # a choice, no dice


def test_a_split_fray_is_fought_as_two_and_the_engagement_between_them_is_not_fought(g: Game) -> None:
    s = engaged_state(g, CHAIN)
    split = {"kind": "split", "side": "A", "fighter": SWORD, "apart": [SWORD, PREDATOR]}
    out = g.apply(s, split)
    after = out.state
    assert after.splits == ((SWORD, PREDATOR),) and after.phase == "combat" and after.to_act == "A"
    assert out.record["report"][0]["text"] == ("Lions of Alahan split Alahan swordsman and Wolfen predator off into "
                                               "a fray of their own")
    assert state_from_json(state_to_json(after)) == after
    found = sorted(sorted(f.key for f in (*a, *b)) for a, b in groups(after))
    assert found == [[GUARD, HUNTER], [SWORD, PREDATOR]]
    duel = group_of(after, after.fighter(SWORD))
    assert duel is not None and [f.dice(0) for f in [fray_of(duel, after)]] == [2]  # one opponent now, not two
    # the winner chooses which is fought first: both fights are his legal actions
    fights = [lg.action for lg in g.legal_actions(after) if lg.action["kind"] == "fight"]
    assert [a["fighter"] for a in fights] == [SWORD, GUARD]
    first = fight_through(g, after, fights[1]).state  # its dice placed as the keeper proposes
    assert first.splits == ((SWORD, PREDATOR),)
    if first.phase == "combat" and not any(f.pursuing for f in first.fighters):
        left = [sorted(f.key for f in (*a, *b)) for a, b in groups(first)]
        assert left == [[SWORD, PREDATOR]] or first.fighter(SWORD).killed or first.fighter(PREDATOR).killed


def test_a_split_that_leaves_a_fighter_alone_is_refused(g: Game) -> None:
    s = engaged_state(g, CHAIN)
    with pytest.raises(IllegalActionError, match="Alahan guard and Wolfen predator with no opponent|no opponent"):
        g.apply(s, {"kind": "split", "side": "A", "fighter": SWORD, "apart": [SWORD, HUNTER]})
    with pytest.raises(IllegalActionError, match="both sides"):
        g.apply(s, {"kind": "split", "side": "A", "fighter": SWORD, "apart": [GUARD, SWORD]})
    with pytest.raises(IllegalActionError, match="it is side A's turn"):
        g.apply(s, {"kind": "split", "side": "B", "fighter": HUNTER, "apart": [GUARD, HUNTER]})


def test_brutish_charge_keeps_its_die_when_the_split_separates_him_from_his_target(g: Game) -> None:
    """Brutish charge: "This die is acquired even if the fighter: is separated from the target of his charge
    after Fray splitting"."""
    s = engaged_state(g, [(GUARD, HUNTER), (GUARD, PREDATOR), (SWORD, HUNTER)])
    guard = s.fighter(GUARD)
    s = s.with_fighters(replace(guard, charged=True,
                                card=guard.card.model_copy(update={"abilities": [*guard.card.abilities,
                                                                                 "Brutish charge"]})))
    after = g.apply(s, {"kind": "split", "side": "A", "fighter": SWORD, "apart": [GUARD, PREDATOR]}).state
    group = group_of(after, after.fighter(GUARD))
    assert group is not None and sorted(f.key for f in (*group[0], *group[1])) == [GUARD, PREDATOR]
    fray = fray_of(group, after)
    assert fray.dice(0) == 1 + 1 and fray.fighters[0].attack_only_dice() == 1  # and Brutish charge's, in attack


def test_the_split_words_in_the_cli(g: Game) -> None:
    s = engaged_state(g, CHAIN)
    assert g.parse_words(s, ["split", "Alahan", "swordsman,", "Wolfen", "predator"]) == {
        "kind": "split", "side": "A", "fighter": SWORD, "apart": [SWORD, PREDATOR]}


def test_a_fray_too_large_must_be_split_and_the_keeper_proposes_the_old_cut(g: Game) -> None:
    """A group larger than a fray holds (MAX_FIGHTERS = 8) is not fought whole: its winner splits it; the keeper
    proposes (and autoplay takes) its first fighter with his own opponents, the cut the keeper used to make."""
    assert MAX_FIGHTERS == 8
    base = engaged_state(g, [])
    hunter, sword = base.fighter(HUNTER), base.fighter(SWORD)
    wolves = tuple(replace(hunter, key=f"Wolf {i}") for i in range(4))
    lions = tuple(replace(sword, key=f"Lion {i}") for i in range(3))
    pairs = [(SWORD, "Wolf 0"), (SWORD, "Wolf 1"), (PALADIN, "Wolf 1"), (PALADIN, "Wolf 2"), (GUARD, "Wolf 2"),
             ("Lion 0", "Wolf 3"), ("Lion 0", HUNTER), ("Lion 1", HUNTER), ("Lion 2", PREDATOR), (GUARD, PREDATOR),
             ("Lion 1", "Wolf 2")]
    s = engaged_state(g, pairs, extra=(*wolves, *lions))
    group = groups(s)
    assert len(group) == 1 and len(group[0][0]) + len(group[0][1]) == 12
    legal = g.legal_actions(s)
    assert {lg.action["kind"] for lg in legal} == {"split"}
    assert legal[0].action["apart"] == [SWORD, "Wolf 0", "Wolf 1"]
    assert g.policy(s) == legal[0].action
    with pytest.raises(IllegalActionError, match="more than 8: split it first"):
        g.apply(s, {"kind": "fight", "side": "A", "fighter": SWORD})
    after = g.apply(s, legal[0].action).state
    sizes = sorted(len(a) + len(b) for a, b in groups(after))
    assert sizes == [3, 9]
