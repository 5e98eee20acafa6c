"""Assault fire (issue 24): a charging marksman shoots the fighter he charges before contact; docs/rules/
confrontation.md, "Assault fire". The pieces are those of *Crossbows at the mill race*."""

from __future__ import annotations

from dataclasses import replace

import pytest
from cf_start import past_tactical
from test_confrontation_shooting import MILL

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.rng import RngState
from rulekeeper.rulesets.confrontation.assault import assault_difficulty
from rulekeeper.rulesets.confrontation.state import SkirmishState

TRACKER, XBOW = "Wolfen tracker", "Alahan crossbowman"


def facing_the_tracker(g: Game, hp: int | None = None) -> SkirmishState:
    """The Wolfen act first; the crossbowman stands 10.9 cm (edge to edge) in front of the tracker."""
    s = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=MILL, seed=7)).document), "B")
    assert isinstance(s, SkirmishState)
    xbow = s.fighter(XBOW)
    return s.with_fighters(replace(xbow, x=30.0, hp=xbow.hp if hp is None else hp))


def assault(s: SkirmishState) -> dict[str, object]:
    return {"kind": "charge", "side": "B", "fighter": TRACKER, "target": XBOW, "assault": True}


def test_a_charger_with_assault_fire_may_fire_at_difficulty_7_or_4(g: Game) -> None:
    """Assault fire: "A fighter with this ability can make an assault fire with any weapon he has … A fighter who
    already has that capacity can make those shots with a difficulty of 4 instead of 7." Regression (issue 24): a
    charger with Assault fire was offered no way to use it."""
    s = facing_the_tracker(g)
    tracker = s.fighter(TRACKER)
    legal = [lg for lg in g.legal_actions(s) if lg.action["fighter"] == TRACKER and lg.action["kind"] == "charge"]
    plain = next(lg for lg in legal if lg.action["target"] == XBOW and "assault" not in lg.action)
    fired = next(lg for lg in legal if lg.action.get("assault"))
    assert legal.index(plain) < legal.index(fired)  # the keeper proposes the plain charge
    assert fired.action == assault(s) and "with assault fire (AIM vs 7)" in fired.text
    assert g.parse_words(s, ["assault", "Wolfen", "tracker", "Alahan", "crossbowman"]) == fired.action
    assert g.parse_action(s, fired.action) == fired.action
    assert assault_difficulty(tracker) == 7
    twice = replace(tracker, card=tracker.card.model_copy(update={"abilities": [*tracker.card.abilities,
                                                                               "Assault fire"]}))
    assert assault_difficulty(twice) == 4
    with pytest.raises(IllegalActionError, match="has no Assault fire"):
        g.apply(s, {"kind": "charge", "side": "B", "fighter": "Wolfen hunter", "target": XBOW, "assault": True})
    with pytest.raises(IllegalActionError, match="assault is true or absent"):
        g.apply(s, {**assault(s), "assault": "yes"})


def test_the_assault_fire_is_announced_exactly_and_rolled_before_contact(g: Game) -> None:
    """Impact/X: "after eventual reaction and assault firing" (before contact): the preview's first draw is the AIM
    test at 7 (preview = roll); a target killed by it is never reached, a survivor is charged."""
    killed = reached = 0
    for seed in range(8):
        s = replace(facing_the_tracker(g, hp=1), rng=RngState.from_seed(seed))
        shown = g.preview(s, assault(s))
        assert dict(shown.headline)["difficulty"] == "AIM 3 vs 7"
        out = g.apply(s, assault(s))
        assert out.chance[0].request == shown.draws[0] and shown.draws[0].label == f"AIM test: {TRACKER}"
        after = out.state
        tracker, xbow = after.fighter(TRACKER), after.fighter(XBOW)
        if xbow.killed:
            killed += 1
            assert (tracker.x, tracker.y, tracker.engaged, tracker.activated) == (44.0, 20.0, (), True)
        else:
            reached += 1
            assert tracker.engaged == (XBOW,) and xbow.engaged == (TRACKER,)
    assert killed and reached


def test_a_charged_marksman_with_reaction_fire_may_fire_first(g: Game) -> None:
    """Reaction fire: "A fighter with this ability can make a reaction fire … A fighter who already has that capacity
    can make those shots with a difficulty of 4 instead of 7"; Impact/X: "after eventual reaction and assault firing"
    (before contact). The charge waits for the charged player's choice (the keeper proposes firing); the preview of
    the answer announces the AIM test first (preview = roll)."""
    s = facing_the_tracker(g)
    xbow = s.fighter(XBOW)
    sentry = replace(xbow, card=xbow.card.model_copy(update={"abilities": ["Reaction fire"]}))
    s = s.with_fighters(sentry)
    shown = g.preview(s, assault(s))
    assert dict(shown.headline)["reaction fire"] == f"{XBOW} may fire first (AIM vs 7); the odds below come after " \
                                                    "his answer"
    out = g.apply(s, assault(s))
    waiting = out.state
    assert out.chance == () and waiting.reacting == (TRACKER, XBOW, "assault") and waiting.to_act == "A"
    assert shown.draws == ()  # the declared charge draws nothing: its preview shows no draw (preview = roll)
    assert [lg.action["kind"] for lg in g.legal_actions(waiting)] == ["react", "withhold"]
    assert g.policy(waiting) == {"kind": "react", "side": "A", "fighter": XBOW}
    with pytest.raises(IllegalActionError, match="waits for Alahan crossbowman's reaction fire"):
        g.apply(waiting, {"kind": "hold", "side": "A", "fighter": "Alahan guard"})
    assert g.parse_words(waiting, ["react"]) == {"kind": "react", "side": "A", "fighter": XBOW}
    react = {"kind": "react", "side": "A", "fighter": XBOW}
    shown = g.preview(waiting, react)
    assert dict(shown.headline)["reaction fire: difficulty"] == "AIM 4 vs 7" and shown.draws[0].label == f"AIM test: {XBOW}"
    done = g.apply(waiting, react)
    assert done.chance[0].request == shown.draws[0]
    after = done.state
    assert after.fighter(XBOW).reacted and not after.reacting and after.to_act == "A"  # the Wolfen acted: A's turn
    tracker = after.fighter(TRACKER)
    assert tracker.killed or tracker.engaged == (XBOW,)
    held = g.apply(waiting, {"kind": "withhold", "side": "A", "fighter": XBOW})
    assert not held.state.fighter(XBOW).reacted and held.chance[0].request.label == f"AIM test: {TRACKER}"
    twice = replace(sentry, card=sentry.card.model_copy(update={"abilities": ["Reaction fire", "Reaction fire"]}))
    assert "AIM vs 4" in g.legal_actions(g.apply(s.with_fighters(twice), assault(s)).state)[0].text
