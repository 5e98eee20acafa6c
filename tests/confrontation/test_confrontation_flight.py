"""Fleeing and pursuit (issue 24, point 10: "flee, pursue"), docs/rules/confrontation.md, "Fleeing and pursuit".
The seed names both; their distances and direction are estimated in data/core_rules.yaml."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.core_rules import core_rules
from rulekeeper.rulesets.confrontation.flight import flee_cm, flight_of, mark_pursuers, pursuit_cm
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"
GUARD, HUNTER, PREDATOR = "Alahan guard", "Wolfen hunter", "Wolfen predator"


def ford(g: Game) -> SkirmishState:
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=7)).document))
    assert isinstance(state, SkirmishState)
    return state


def put(state: SkirmishState, key: str, x: float, y: float, **changes: object) -> SkirmishState:
    return state.with_fighters(replace(state.fighter(key), x=x, y=y, **changes))  # type: ignore[arg-type]


def with_ability(state: SkirmishState, key: str, ability: str) -> SkirmishState:
    f = state.fighter(key)
    return state.with_fighters(replace(f, card=f.card.model_copy(update={"abilities": [*f.card.abilities, ability]})))


def test_a_free_fighter_in_rout_flees_two_mov_and_leaves_the_field_over_the_edge(g: Game) -> None:
    """Fanaticism: "When a fighter with this ability has to flee or leave the field due to routing" — a routed
    fighter flees and may leave the field; estimated: he runs 2 × MOV ("running is double movement", third-edition
    rules) straight away from the nearest enemy."""
    assert core_rules()["flee"] == {"factor": 2}
    s = put(ford(g), GUARD, 7.0, 15.0, rout=5)
    guard = s.fighter(GUARD)
    assert flee_cm(guard) == 2 * guard.card.MOV == 20
    legal = [lg.action for lg in g.legal_actions(s) if lg.action["fighter"] == GUARD]
    assert legal == [{"kind": "flee", "side": "A", "fighter": GUARD}]  # his activation is his flight
    with pytest.raises(IllegalActionError, match="in rout: his activation is his flight"):
        g.apply(s, {"kind": "hold", "side": "A", "fighter": GUARD})
    out = g.apply(s, legal[0])
    gone = out.state.fighter(GUARD)
    assert gone.fled and gone.killed and not gone.standing and gone.x == pytest.approx(1.25, abs=0.1)
    assert "leaves the field" in out.report[0]["text"]
    with pytest.raises(IllegalActionError, match="not in rout"):
        g.apply(s, {"kind": "flee", "side": "A", "fighter": "Alahan paladin"})


def test_a_flight_stops_where_the_scenery_blocks_it(g: Game) -> None:
    s = put(ford(g), GUARD, 25.0, 14.0, rout=5, facing=180.0)
    s = put(put(s, PREDATOR, 33.0, 14.0), HUNTER, 38.0, 28.0)
    run = flight_of(s, s.fighter(GUARD))
    assert not run.leaves and run.y == 14.0 and 24.0 <= run.x < 25.0  # the boulder (x up to 23) is in the way
    out = g.apply(s, {"kind": "flee", "side": "A", "fighter": GUARD})
    assert (out.state.fighter(GUARD).x, out.state.fighter(GUARD).standing) == (run.x, True)


def test_fanaticism_tests_dis_against_the_failed_cou_difficulty_and_passed_he_does_not_flee(g: Game) -> None:
    """Fanaticism: "the player controlling him must make a DIS test of the same difficulty as the failed COU (or
    rallying) test. If this test is also failed. then the fighter flees. On the other hand, if this test is
    successfully passed, then the fighter suffers the other effects of rout, but does not flee"."""
    s = with_ability(put(ford(g), GUARD, 7.0, 15.0, rout=5), GUARD, "Fanaticism")
    action = {"kind": "flee", "side": "A", "fighter": GUARD}
    preview = g.preview(s, action)
    assert [r.label for r in preview.draws] == [f"DIS test: {GUARD}"]
    assert "vs 5" in preview.headline[1][0]
    seen = set()
    for seed in range(12):
        s2 = replace(s, rng=g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=seed)).document).rng)
        out = g.apply(s2, action)
        assert out.chance[0].request.label == f"DIS test: {GUARD}"
        after = out.state.fighter(GUARD)
        seen.add(after.standing)
        if after.standing:
            assert after.rout == 5 and (after.x, after.y) == (7.0, 15.0) and "does not flee" in out.report[0]["text"]
    assert seen == {True, False}


def test_a_victor_may_pursue_a_free_enemy_in_reach_his_choice_with_pursuit_proposed(g: Game) -> None:
    """Leap: "MOV/2 when making a pursuit movement" (estimated: the pursuit movement is MOV / 2); Frenetic: "A fighter
    with this ability can pursue using his whole MOV rate"; Implacable/X: "X additional pursuit movements"."""
    assert core_rules()["pursuit"] == {"divisor": 2, "per_combat_phase": 1}
    s = replace(put(put(ford(g), GUARD, 10.0, 15.0, activated=True), HUNTER, 16.0, 15.0, activated=True),
                phase="combat")
    assert pursuit_cm(s.fighter(GUARD)) == 5.0
    assert pursuit_cm(with_ability(s, GUARD, "Frenetic").fighter(GUARD)) == 10.0
    s = mark_pursuers(s, [GUARD, PREDATOR])
    assert s.fighter(GUARD).pursuing and not s.fighter(PREDATOR).pursuing  # nobody in his reach
    legal = g.legal_actions(s)
    assert [lg.action["kind"] for lg in legal] == ["pursue", "stay"] and legal[0].action["target"] == HUNTER
    assert g.policy(s) == legal[0].action
    with pytest.raises(IllegalActionError, match="pursuit movement first"):
        g.apply(s, {"kind": "fight", "side": "A", "fighter": GUARD})
    out = g.apply(s, legal[0].action).state
    assert out.fighter(GUARD).engaged == (HUNTER,) and out.fighter(HUNTER).engaged == (GUARD,)
    assert out.phase == "combat" and [lg.action["kind"] for lg in g.legal_actions(out)] == ["fight"]
    assert mark_pursuers(out, [GUARD]).fighter(GUARD).pursuing is False  # engaged now
    stayed = g.apply(s, legal[1].action).state
    assert stayed.fighter(GUARD).engaged == () and not stayed.fighter(GUARD).pursuing
    used = replace(s, fighters=tuple(replace(f, pursuing=False, pursued=1) for f in s.fighters))
    assert not mark_pursuers(used, [GUARD]).fighter(GUARD).pursuing  # one a combat phase
    implacable = with_ability(used, GUARD, "Implacable/1")
    assert mark_pursuers(implacable, [GUARD]).fighter(GUARD).pursuing  # "X additional pursuit movements"


def rapid_guard(g: Game, declarations: str = "players") -> SkirmishState:
    """The guard in rout with Rapidity, 20 cm from the west edge, the predator east of him."""
    s = put(put(put(ford(g), GUARD, 22.0, 25.0, rout=5, facing=180.0), PREDATOR, 30.0, 25.0), HUNTER, 38.0, 2.0)
    s = with_ability(s, GUARD, "Rapidity")
    return replace(s, options=(*((k, v) for k, v in s.options if k != "declarations"), ("declarations", declarations)))


def test_rapidity_in_rout_is_the_opponents_choice(g: Game) -> None:
    """Rapidity: "a movement potential of MOV x 3 when he charges, runs or flees. This ability can be used by a
    fighter when routing, but its usage is subject to the opponent's choice": he flees, then side B chooses: with it
    he runs 30 cm, off the field (the keeper's proposal: a loss for his side), without it 20 cm, staying."""
    s = rapid_guard(g)
    flee = {"kind": "flee", "side": "A", "fighter": GUARD}
    assert dict(g.preview(s, flee).headline)["run"] == ("20.0 cm of 20, or 20.7 cm of 30 with Rapidity (off the "
                                                        "field): his opponent chooses")
    out = g.apply(s, flee)
    waiting = out.state
    assert not out.chance and waiting.rapid_flight == GUARD and waiting.to_act == "B"
    assert g.status(waiting).acting == (GUARD,) and state_from_json(state_to_json(waiting)) == waiting
    offered = g.legal_actions(waiting)
    assert [(lg.side, lg.action["ability"], lg.action["value"]) for lg in offered] == [("B", "Rapidity", 1),
                                                                                       ("B", "Rapidity", 0)]
    assert offered[0].text == f"{GUARD} runs with Rapidity: 20.7 cm off the field (the keeper's proposal)"
    with pytest.raises(IllegalActionError, match="waits for side B's choice on his Rapidity"):
        g.apply(waiting, {"kind": "hold", "side": "B", "fighter": PREDATOR})
    with pytest.raises(IllegalActionError, match="it is side B's turn"):
        g.apply(waiting, {**offered[0].action, "side": "A"})
    fast, slow = (g.apply(waiting, lg.action) for lg in offered)
    assert fast.report[0]["text"] == f"side B lets {GUARD} run with Rapidity"
    assert fast.state.fighter(GUARD).fled and not fast.state.rapid_flight
    stayed = slow.state.fighter(GUARD)
    assert stayed.standing and stayed.activated and (stayed.x, stayed.y) == (2.0, 25.0)
    assert g.preview(waiting, offered[1].action).headline == (("run", "20.0 cm of 20"),)
    assert g.parse_words(waiting, ["declare", "Alahan", "guard", "no"]) == g.parse_action(waiting, offered[1].action)


def test_a_battle_stored_before_the_choice_flees_without_rapidity(g: Game) -> None:
    out = g.apply(rapid_guard(g, "keeper"), {"kind": "flee", "side": "A", "fighter": GUARD})
    assert not out.state.rapid_flight and (out.state.fighter(GUARD).x, out.state.fighter(GUARD).standing) == (2.0, True)
