"""Shooting after moving (issue 24, third-edition rules: "+1 to the difficulty after moving"): a marksman who walked
may still shoot in the same activation, at +1; docs/rules/confrontation.md, "Shooting"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.shooting import MOVED, shot_of
from rulekeeper.rulesets.confrontation.state import SkirmishState

MILL = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_mill_race.yaml"
XBOW, HUNTER, SWORD = "Alahan crossbowman", "Wolfen hunter", "Alahan swordsman"


def mill(g: Game) -> SkirmishState:
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=MILL, seed=3)).document))
    assert isinstance(state, SkirmishState)
    return replace(state, fighters=tuple(replace(f, braved=99) for f in state.fighters))


def test_a_marksman_who_walked_may_still_shoot_at_plus_1_difficulty(g: Game) -> None:
    """Third-edition rules: "+1 to the difficulty after moving"."""
    assert MOVED == 1
    s = mill(g)
    still = shot_of(s, s.fighter(XBOW), s.fighter(HUNTER))
    walk = {"kind": "move", "side": "A", "fighter": XBOW, "to": [11.0, 20.0]}
    after = g.apply(s, walk).state
    xbow = after.fighter(XBOW)
    assert xbow.aiming and after.to_act == "A"  # his activation goes on
    legal = g.legal_actions(after)
    assert {lg.action["kind"] for lg in legal} == {"shoot", "hold"} and all(lg.action["fighter"] == XBOW for lg in legal)
    moving = shot_of(after, xbow, after.fighter(HUNTER))
    base = shot_of(after, replace(xbow, walked=False), after.fighter(HUNTER))
    assert moving.difficulty == base.difficulty + 1 and moving.band == base.band == "medium" and still.band == "long"
    shoot = next(lg for lg in legal if lg.action.get("target") == HUNTER)
    assert f"difficulty {moving.difficulty})" in shoot.text
    assert g.preview(after, shoot.action).draws[0] == moving.request()
    with pytest.raises(IllegalActionError, match="may still shoot"):
        g.apply(after, {"kind": "hold", "side": "A", "fighter": SWORD})
    shot = g.apply(after, shoot.action)
    assert shot.chance[0].request == moving.request()
    assert not shot.state.fighter(XBOW).aiming and shot.state.to_act == "B"
    done = g.apply(after, next(lg.action for lg in legal if lg.action["kind"] == "hold")).state
    assert not done.fighter(XBOW).aiming and done.to_act == "B"


def test_a_walk_with_nothing_to_shoot_ends_the_activation(g: Game) -> None:
    s = mill(g)
    out = g.apply(s, {"kind": "move", "side": "A", "fighter": SWORD, "to": [15.0, 28.0]}).state
    assert not out.fighter(SWORD).aiming and out.to_act == "B"  # a swordsman has no ranged weapon


def test_a_master_marksman_shoots_twice_in_one_activation(g: Game) -> None:
    """Master marksman: "A fighter with this ability can declare the cumulative firing action twice during their
    activation" (Master Crossbowman: "See Master marksman"; Master Archer: "See Master marksman")."""
    s = mill(g)
    f = s.fighter(XBOW)
    s = s.with_fighters(replace(f, card=f.card.model_copy(update={"abilities": [*f.card.abilities,
                                                                                "Master Crossbowman"]})))
    first = next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "shoot")
    plain = shot_of(s, s.fighter(XBOW), s.fighter(str(first["target"])))
    out = g.apply(s, first).state
    xbow = out.fighter(XBOW)
    assert xbow.aiming and xbow.fired == 1 and out.to_act == "A"
    second = [lg for lg in g.legal_actions(out) if lg.action["kind"] == "shoot"]
    assert second and all(lg.action["fighter"] == XBOW for lg in second)
    target = out.fighter(str(first["target"]))
    if target.standing:
        assert shot_of(out, xbow, target).difficulty == plain.difficulty  # no walk: no +1
    done = g.apply(out, second[0].action).state
    assert not done.fighter(XBOW).aiming and done.fighter(XBOW).fired == 2 and done.to_act == "B"
    walked = g.apply(mill(g), {"kind": "move", "side": "A", "fighter": XBOW, "to": [11.0, 20.0]}).state
    assert walked.fighter(XBOW).walked and walked.fighter(XBOW).fired == 0
