"""Confrontation skirmishes on the game protocol: moves, charges, fights, the round, the maintenance phase.

The rules read here are the documented core (docs/rules/confrontation.md, "Skirmishes"); the fights are
the duel of duel.py, so these tests check what the skirmish adds: geometry in cm, engagement, HP carried
from round to round, the order of a round, every die through the state's fate.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import DataFileError, IllegalActionError, RulekeeperError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.exchanges import Health
from rulekeeper.rulesets.confrontation.fray import resolve_fray
from rulekeeper.rulesets.confrontation.skirmish import fray_of, group_of
from rulekeeper.rulesets.confrontation.state import Fighter, SkirmishState

SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios"
FORD = SCENARIOS / "the_ford.yaml"
WALL = SCENARIOS / "ruined_wall.yaml"


def start(g: Game, path: Path = FORD, seed: int = 3, brave: bool = True) -> SkirmishState:
    """The scenario's first state; ``brave`` makes every fighter immune to fear (``braved``) so that these tests of
    geometry and fights draw no COU test (fear is tested in test_confrontation_morale.py)."""
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=path, seed=seed)).document))
    assert isinstance(state, SkirmishState)
    return replace(state, fighters=tuple(replace(f, braved=99) for f in state.fighters)) if brave else state


def placed(state: SkirmishState, key: str, x: float, y: float, facing: float | None = None) -> SkirmishState:
    f = state.fighter(key)
    return state.with_fighters(replace(f, x=x, y=y, facing=f.facing if facing is None else facing))


def test_the_scenario_sets_the_table_up(g: Game) -> None:
    s = start(g)
    assert (s.width, s.height, s.round, s.phase, s.to_act) == (40.0, 30.0, 1, "activation", "A")
    keys = [f.key for f in s.fighters]
    assert keys == ["Alahan swordsman", "Alahan paladin", "Alahan guard", "Wolfen hunter", "Wolfen predator"]
    hunter = s.fighter("Wolfen hunter")
    assert (hunter.x, hunter.y, hunter.facing, hunter.hp, hunter.radius) == (34.0, 22.0, 180.0, 5, 1.875)
    assert [o.name for o in s.obstacles] == ["the boulder"]
    assert [sc.key for sc in g.scenarios()] == ["ruined_wall", "the_broken_line", "the_ford", "the_hunters_wood",
                                                 "the_mill_race", "the_moonlit_shrine", "the_seers_circle", "the_stalkers_ford",
                                                 "the_watchtower"]


def test_a_walk_goes_up_to_mov_cm_around_obstacles_and_out_of_contact(g: Game) -> None:
    s = start(g)
    guard = {"kind": "move", "side": "A", "fighter": "Alahan guard"}
    with pytest.raises(IllegalActionError, match="beyond his MOV of 10 cm"):
        g.apply(s, {**guard, "to": [17.5, 15.0]})
    with pytest.raises(IllegalActionError, match="off the 40 × 30 cm table"):
        g.apply(s, {**guard, "to": [0.5, 15.0]})
    near_boulder = placed(s, "Alahan guard", 14.0, 14.0)
    with pytest.raises(IllegalActionError, match="crosses the boulder"):
        g.apply(near_boulder, {**guard, "to": [24.0, 14.0]})
    near_wolf = placed(s, "Alahan guard", 25.0, 22.0)
    with pytest.raises(IllegalActionError, match="contact is made by a charge"):
        g.apply(near_wolf, {**guard, "to": [30.85, 22.0]})
    out = g.apply(s, {**guard, "to": [14.5, 15.0]})
    moved = out.state.fighter("Alahan guard")
    assert (moved.x, moved.y, moved.facing, moved.activated) == (14.5, 15.0, 0.0, True)
    assert out.state.to_act == "B" and not out.chance


def test_a_charge_reaches_2_mov_into_base_contact_and_engages_both(g: Game) -> None:
    s = placed(start(g), "Alahan guard", 12.0, 22.0, 0.0)  # 34 - 12 - 1.25 - 1.875 = 18.9 cm to contact
    act = {"kind": "charge", "side": "A", "fighter": "Alahan guard", "target": "Wolfen hunter"}
    out = g.apply(s, act)
    guard, hunter = out.state.fighter("Alahan guard"), out.state.fighter("Wolfen hunter")
    assert guard.engaged == ("Wolfen hunter",) and hunter.engaged == ("Alahan guard",) and guard.charged
    assert guard.x == pytest.approx(34 - 1.875 - 1.25) and guard.y == pytest.approx(22.0)
    assert "18.9 cm into base contact" in out.report[0]["text"]
    far = placed(start(g), "Alahan guard", 10.0, 22.0, 0.0)  # 20.9 cm: beyond 2 x MOV 10
    with pytest.raises(IllegalActionError, match="beyond 20 cm"):
        g.apply(far, act)
    behind = placed(start(g), "Alahan guard", 12.0, 22.0, 180.0)  # facing away: not in his front arc
    with pytest.raises(IllegalActionError, match="not in sight"):
        g.apply(behind, act)
    with pytest.raises(IllegalActionError, match="is engaged"):
        g.apply(replace(out.state, to_act="A"), act)


def test_an_engaged_fighter_cannot_walk_and_fights_in_the_combat_phase(g: Game) -> None:
    s = placed(start(g), "Alahan guard", 12.0, 22.0, 0.0)
    s = g.apply(s, {"kind": "charge", "side": "A", "fighter": "Alahan guard", "target": "Wolfen hunter"}).state
    assert {lg.action["fighter"] for lg in g.legal_actions(s)} == {"Wolfen predator", "Wolfen hunter"}
    hunter = [lg.action["kind"] for lg in g.legal_actions(s) if lg.action["fighter"] == "Wolfen hunter"
              and lg.action["kind"] != "pass"]  # the side's pass is its General's (authority_uses.py)
    assert hunter[-1] == "hold" and set(hunter) <= {"disengage", "hold"}  # engaged: disengage or stay
    while s.phase == "activation":
        s = g.apply(s, {**next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "hold")}).state
    legal = g.legal_actions(s)
    assert [lg.action for lg in legal] == [{"kind": "fight", "side": "A", "fighter": "Alahan guard"}]
    assert legal[0].text == "Alahan guard fights Wolfen hunter" and legal[0].note == "a duel"
    with pytest.raises(IllegalActionError, match="combat phase"):
        g.apply(s, {"kind": "hold", "side": "A", "fighter": "Alahan swordsman"})


def _fight_state(g: Game, seed: int) -> SkirmishState:
    s = placed(start(g, seed=seed), "Alahan guard", 12.0, 22.0, 0.0)
    s = g.apply(s, {"kind": "charge", "side": "A", "fighter": "Alahan guard", "target": "Wolfen hunter"}).state
    while s.phase == "activation":
        s = g.apply(s, next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "hold")).state
    assert isinstance(s, SkirmishState)
    return s


def test_a_fight_is_the_fray_drawn_through_the_states_fate_and_its_end_is_the_fighters(g: Game) -> None:
    """"each combatant gets 1 combat die, and another 1 per opponent"; the fray's end is the fighters' state."""
    s = _fight_state(g, 11)
    fight = g.legal_actions(s)[0].action
    out = g.apply(s, fight)
    # "the winner of the roll places their combat dice … after the loser": the fight draws the INI tests, then each
    # fighter's player places his dice (placing.py), the keeper's proposal first; the last placement draws the rest
    assert [c.request.label.split(":")[0] for c in out.chance] == ["INI test", "INI test"]
    placements = 0
    while out.state.placing:
        offered = g.legal_actions(out.state)
        assert offered[0].text.endswith("(the keeper's proposal)") and {o.action["kind"] for o in offered} == {"place"}
        out, placements = g.apply(out.state, offered[0].action), placements + 1
    assert placements == 2
    # the same fray, drawn from the same RNG state, ends the same way
    group = group_of(s, s.fighter("Alahan guard"))
    assert group is not None
    healths = resolve_fray(Fate.from_state(s.rng), fray_of(group, s))
    labels = [c.request.label.split(":")[0] for c in out.chance]
    assert "ATT test" in labels and "INI test" not in labels
    for f, h in zip((out.state.fighter("Alahan guard"), out.state.fighter("Wolfen hunter")), healths, strict=True):
        assert f.killed == h.killed and (f.killed or (f.hp, f.fierce) == (h.hp, h.fierce))
        assert f"{f.key}: {h.status()}" in out.report[1]["text"]  # after the last placement's own line
    assert (out.state.round, out.state.phase) == (2, "tactical")  # maintenance done, round 2 begins with its roll


def test_a_wounded_fighter_enters_the_next_combat_with_the_hp_he_has_left(g: Game) -> None:
    s = _fight_state(g, 11)
    wounded = s.with_fighters(replace(s.fighter("Alahan guard"), hp=1, stunned=True))
    group = group_of(wounded, wounded.fighter("Alahan guard"))
    assert group is not None
    fray = fray_of(group, wounded)
    assert fray.opening(0).health[0] == Health(1, False, True) and fray.opening(0).health[1].hp == 5
    assert fray.fighters[0].card.HP == 4  # the card keeps its HP: wound penalties are read from the difference


def test_two_fighters_on_one_enemy_make_one_fray(g: Game) -> None:
    """"another 1 per opponent the model is fighting": the hunter fights two Lions at once."""
    s = start(g)
    s = s.with_fighters(replace(s.fighter("Alahan guard"), x=12.0, y=22.0),
                        replace(s.fighter("Alahan swordsman"), x=36.0, y=27.0, facing=-90.0))
    s = g.apply(s, {"kind": "charge", "side": "A", "fighter": "Alahan guard", "target": "Wolfen hunter"}).state
    s = g.apply(s, {"kind": "hold", "side": "B", "fighter": "Wolfen predator"}).state
    s = g.apply(s, {"kind": "charge", "side": "A", "fighter": "Alahan swordsman", "target": "Wolfen hunter"}).state
    while s.phase == "activation":
        s = g.apply(s, next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "hold")).state
    legal = g.legal_actions(s)
    assert [lg.text for lg in legal] == ["Alahan swordsman and Alahan guard fight Wolfen hunter"]
    group = group_of(s, s.fighter("Alahan swordsman"))
    assert group is not None
    fray = fray_of(group, s)
    assert [fray.dice(i) for i in range(3)] == [2, 2, 3]
    odds = g.preview(s, legal[0].action)
    assert len(odds.draws) == 2 and {"Wolfen hunter killed", "Alahan guard killed"} <= set(odds.headline_dict())
    out = g.apply(s, legal[0].action)
    assert out.chance[0].request.label == odds.draws[0].label


def test_the_preview_of_a_fight_is_its_two_initiative_tests(g: Game) -> None:
    s = _fight_state(g, 5)
    fight = g.legal_actions(s)[0].action
    odds = g.preview(s, fight)
    out = g.apply(s, fight)
    assert [r.label for r in odds.draws] == ["INI test: Alahan guard", "INI test: Wolfen hunter"]
    assert odds.draws[0] == fray_of(group_of(s, s.fighter("Alahan guard")) or ((), ()), s).ini_test(0)[0]
    for want, rec in zip(odds.draws, out.chance[:2], strict=True):
        assert (want.label, want.outcomes, want.probabilities) == (rec.request.label, rec.request.outcomes,
                                                                  rec.request.probabilities)
    head = odds.headline_dict()
    ini = f"{s.name(s.fighter('Alahan guard').side)} win initiative"  # whose chance it is, by the side's name
    assert 0 < float(head[ini]) < 1 and "Wolfen hunter killed" in head


def test_the_maintenance_phase_rolls_regeneration(g: Game) -> None:
    """Regeneration/5 on the Wolfen warlord: a roll at each maintenance phase while he is wounded."""
    s = start(g, WALL, 1)
    s = s.with_fighters(replace(s.fighter("Wolfen warlord"), hp=3))
    while s.round == 1:
        action = g.policy(s)
        assert action is not None
        s_next = g.apply(s, action)
        if s_next.state.round == 2:
            labels = [c.request.label for c in s_next.chance]
            assert "maintenance: Wolfen warlord" in labels
        s = s_next.state


def test_sides_alternate_and_each_round_begins_with_the_tactical_roll(g: Game) -> None:
    s = start(g)
    sides = []
    while s.round == 1:
        sides.append(s.to_act)
        s = g.apply(s, next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "hold")).state
    assert sides == ["A", "B", "A", "B", "A"]  # three Lions, two Wolfen: A finishes alone
    assert (s.round, s.phase, s.to_act) == (2, "tactical", "A")  # the last winner rolls it
    s = g.apply(s, g.legal_actions(s)[0].action).state
    s = g.apply(s, next(lg.action for lg in g.legal_actions(s) if lg.action["first"] == "B")).state
    assert (s.phase, s.first, s.to_act) == ("activation", "B", "B")


def test_the_round_limit_decides_by_the_points_standing(g: Game) -> None:
    s = replace(start(g), round_limit=1)
    while not s.over:
        s = g.apply(s, next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] in ("hold", "tactical"))).state
    res = g.result(s)
    assert res is not None and res.winner == "A" and "138 against 90 points" in res.reason


def test_autoplay_ends_every_shipped_scenario_and_replays(g: Game) -> None:
    for path in (FORD, WALL):
        for seed in (0, 1):
            s = start(g, path, seed)
            log = []
            while not g.status(s).over:
                action = g.policy(s)
                assert action is not None
                out = g.apply(s, action)
                log.append((out.action, out.record))
                s = out.state
                assert len(log) < 200
            again = start(g, path, seed)
            for action, record in log:
                out = g.apply(again, action)
                assert out.record == record
                again = out.state
            assert g.state_to_json(again) == g.state_to_json(s)


def test_words_and_loose_json_become_canonical_actions(g: Game) -> None:
    s = start(g)
    assert g.parse_words(s, ["move", "alahan", "guard", "15,15"]) == {
        "kind": "move", "side": "A", "fighter": "Alahan guard", "to": [15.0, 15.0]}
    assert g.parse_words(s, ["walk", "Alahan guard", "15.04", "15"])["to"] == [15.0, 15.0]
    assert g.parse_words(s, ["charge", "Alahan", "guard", "Wolfen", "hunter"]) == {
        "kind": "charge", "side": "A", "fighter": "Alahan guard", "target": "Wolfen hunter"}
    assert g.parse_words(s, ["hold", "Alahan paladin"])["fighter"] == "Alahan paladin"
    assert g.parse_action(s, {"kind": "Move", "fighter": "alahan guard", "to": "(15, 15)"})["to"] == [15.0, 15.0]
    for bad in (["move", "Alahan guard", "here"], ["charge", "Alahan guard"], ["dance", "Alahan guard"]):
        with pytest.raises(RulekeeperError):
            g.parse_words(s, bad)


def test_legal_moves_are_sensible_and_all_legal(g: Game) -> None:
    s = start(g)
    legal = g.legal_actions(s)
    kinds = {(lg.action["fighter"], lg.action["kind"]) for lg in legal}
    assert ("Alahan guard", "move") in kinds and ("Alahan guard", "hold") in kinds
    for lg in legal:
        assert g.parse_action(s, lg.action) == lg.action
        g.apply(s, lg.action)  # every one is accepted


def test_a_bad_scenario_is_refused_with_every_problem(g: Game, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: confrontation\nname: x\ndescription: y\ntable: {width: 40, height: 5}\nround_limit: 0\n"
                   "sides: {A: {name: L, warband: lions_of_alahan}, B: {name: W, warband: nowhere.yaml}}\n"
                   "obstacles: [{name: rock, corners: [[1, 1], [9, 1], [9, 4]]}]\n"
                   "fighters:\n  - {side: A, card: Alahan swordman, at: [5, 5]}\n  - {side: A, card: Alahan guard, "
                   "at: [50, 2]}\n  - {side: A, card: Alahan paladin, at: [6, 2.5]}\n", encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        g.setup(SetupRequest(scenario=bad))
    text = str(err.value)
    for part in ("table:", "round_limit", "sides.B.warband", "fighters[0].card", "fighters[1].at",
                 "Alahan paladin starts on rock"):
        assert part in text, text


def test_a_players_own_cards_play(g: Game, tmp_path: Path) -> None:
    """The player's own card file beside the scenario, by its file name."""
    cards = tmp_path / "mine.yaml"
    cards.write_text("warband: Mine\nfighters:\n  - {name: Kelt, MOV: 12, INI: 3, ATT: 4, STR: 4, DEF: 3, RES: 3, "
                     "COU: 4, DIS: 2, HP: 3}\n", encoding="utf-8")
    sc = tmp_path / "mine_vs_wolfen.yaml"
    sc.write_text(FORD.read_text(encoding="utf-8").replace("warband: lions_of_alahan", "warband: mine.yaml")
                  .replace("Alahan swordsman", "Kelt").replace("Alahan guard", "Kelt")
                  .replace("Alahan paladin", "Kelt"), encoding="utf-8")
    s = start(g, sc, 1)
    assert [f.key for f in s.fighters if f.side == "A"] == ["Kelt 1", "Kelt 2", "Kelt 3"]
    doc = json.loads(json.dumps(g.state_to_json(s)))
    assert g.state_to_json(g.state_from_json(doc)) == doc
    assert g.apply(s, {"kind": "move", "side": "A", "fighter": "Kelt 3", "to": [14.5, 15.0]}).state


def test_views_keep_no_rng(g: Game) -> None:
    s = start(g)
    view = g.view(s, "A")
    assert "rng" not in view and view["fighters"][2]["nearest_enemy"] == {"key": "Wolfen hunter", "cm": 24.8}
    assert isinstance(s.fighter("Alahan guard"), Fighter)


def test_rapidity_charges_three_times_mov(g: Game) -> None:
    """Rapidity: "A fighter with this ability has a movement potential of MOV x 3 when he charges"."""
    s = placed(start(g), "Alahan guard", 10.0, 22.0, 0.0)  # 20.9 cm to contact: beyond 2 x MOV 10
    act = {"kind": "charge", "side": "A", "fighter": "Alahan guard", "target": "Wolfen hunter"}
    with pytest.raises(IllegalActionError, match="beyond 20 cm"):
        g.apply(s, act)
    guard = s.fighter("Alahan guard")
    fast = s.with_fighters(replace(guard, card=guard.card.model_copy(update={"abilities": ["Rapidity"]})))
    assert g.apply(fast, act).state.fighter("Alahan guard").engaged == ("Wolfen hunter",)


def test_malformed_actions_are_typed_refusals(g: Game) -> None:
    s = start(g)
    before = g.state_to_json(s)
    for bad in ({"kind": "move", "side": "A", "fighter": "Alahan guard"},
                {"kind": "move", "side": "A", "fighter": "Alahan guard", "to": [1.0, float("nan")]},
                {"kind": "move", "side": "A", "fighter": "Alahan guard", "to": "10,10"},
                {"kind": "charge", "side": "A", "fighter": "Alahan guard"},
                {"kind": "fight", "side": "A", "fighter": "Alahan guard"},
                {"kind": "hold", "side": "B", "fighter": "Wolfen hunter"},
                {"kind": "hold", "side": "A", "fighter": "Wolfen hunter"},
                {"kind": "hold", "side": "A", "fighter": "Nobody"}):
        with pytest.raises(RulekeeperError):
            g.apply(s, bad)
    for loose in ({"kind": "move", "fighter": "Alahan guard", "to": "inf,3"}, {"kind": "move", "fighter": "x" * 500},
                  {"kind": "charge", "fighter": "Alahan guard", "target": None}, {"kind": "move", "fighter": None}):
        with pytest.raises(RulekeeperError):
            g.parse_action(s, loose)
    assert g.state_to_json(s) == before


def test_the_ephemeral_reading_is_an_option_checked_at_set_up(g: Game) -> None:
    doc = g.setup(SetupRequest(scenario=FORD, options=("ephemeral-vs-regeneration=ephemeral-wins",))).document
    assert doc["options"] == {"ephemeral_vs_regeneration": "ephemeral-wins", "move_steps": "2.5",
                              "authority_tokens": "combat", "placement": "players",
                              "declarations": "players"}
    for bad in ("ephemeral_vs_regeneration=both", "no_such=1", "ephemeral_vs_regeneration"):
        with pytest.raises(RulekeeperError):
            g.setup(SetupRequest(scenario=FORD, options=(bad,)))
