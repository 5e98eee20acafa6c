"""Terrain (issue 24): encumbered ground, water, obstacles with a Size, cover; docs/rules/confrontation.md,
"Terrain". The pieces are those of the shipped scenario *The hunters' wood*."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.errors import DataFileError, IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.core_rules import number
from rulekeeper.rulesets.confrontation.flight import flight_of
from rulekeeper.rulesets.confrontation.ground import Terrain
from rulekeeper.rulesets.confrontation.scenario import read_scenario
from rulekeeper.rulesets.confrontation.shooting import shot_of, shot_problem
from rulekeeper.rulesets.confrontation.skirmish import charge_of, move_problem
from rulekeeper.rulesets.confrontation.state import Fighter, SkirmishState, state_from_json, state_to_json
from rulekeeper.rulesets.confrontation.terrain import cover_of, way_cost

SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios"
WOOD = SCENARIOS / "the_hunters_wood.yaml"
XBOW, GUARD, PALADIN, ALDO = "Alahan crossbowman", "Alahan guard", "Alahan paladin", "Swordsman Aldo"
TRACKER, HUNTER, PREDATOR = "Wolfen tracker", "Wolfen hunter", "Wolfen predator"


def wood(g: Game, **at: tuple[float, float, float]) -> SkirmishState:
    """The scenario past its Tactical roll, fighters moved to ``at`` (x, y, facing); nobody afraid."""
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=WOOD, seed=3)).document))
    assert isinstance(state, SkirmishState)
    moved = []
    for f in state.fighters:
        x, y, facing = at.get(f.key.replace(" ", "_"), (f.x, f.y, f.facing))
        moved.append(replace(f, x=x, y=y, facing=facing, braved=99))
    return replace(state, fighters=tuple(moved))


def with_ability(f: Fighter, *abilities: str) -> Fighter:
    return replace(f, card=f.card.model_copy(update={"abilities": [*f.card.abilities, *abilities]}))


def test_the_scenario_keeps_its_terrain_and_the_state_round_trips(g: Game) -> None:
    s = wood(g)
    assert [(p.name, p.kind, p.size, p.cover) for p in s.terrain] == [
        ("the field wall", "obstacle", "Small", False), ("the bog", "encumbered", None, False),
        ("the old wood", "encumbered", None, True), ("the mere", "water", None, False),
        ("the standing stone", "obstacle", None, False)]
    assert state_from_json(state_to_json(s)) == s
    assert "terrain" not in state_to_json(replace(s, terrain=()))  # stored as before terrain existed


def test_encumbered_ground_costs_double(g: Game) -> None:
    """Immersion "considers water as encumbered ground, so he can cross and stay within it": encumbered ground is
    crossable, slowly (estimated: every cm inside it costs terrain.encumbered_factor = 2 cm)."""
    assert number("terrain", "encumbered_factor") == 2
    s = wood(g, Alahan_paladin=(21.5, 20.0, 0.0))
    paladin = s.fighter(PALADIN)  # MOV 10; the bog runs from x = 24 to 33
    assert way_cost(s, paladin, [(21.5, 20.0), (30.0, 20.0)]) == pytest.approx(2.5 + 2 * 6)
    assert move_problem(s, paladin, 27.75, 20.0) is None  # 2.5 + 2 × 3.75 = 10 cm of movement
    problem = move_problem(s, paladin, 30.0, 20.0)
    assert problem is not None and "14.5 cm of movement: encumbered ground costs double" in problem
    with pytest.raises(IllegalActionError, match="encumbered ground costs double"):
        g.apply(s, {"kind": "move", "side": "A", "fighter": PALADIN, "to": [30.0, 20.0]})
    assert move_problem(s, paladin, 21.5, 30.0) is None  # 10 cm on open ground


def test_immunity_to_encumbered_ground_walks_it_as_open_ground(g: Game) -> None:
    """Immunity: "a kind of terrain: the fighter considers that kind of terrain as unencumbered ground"."""
    s = wood(g, Alahan_paladin=(21.5, 20.0, 0.0))
    for ability in ("Immunity/Encumbered ground", "Immunity/the bog"):
        immune = with_ability(s.fighter(PALADIN), ability)
        assert move_problem(s.with_fighters(immune), immune, 31.5, 20.0) is None, ability


def test_water_stops_everyone_but_a_fighter_with_immersion(g: Game) -> None:
    """Immersion: "considers water as encumbered ground, so he can cross and stay within it. He treats any
    encumbered ground due to Water as normal terrain"."""
    s = wood(g, Wolfen_predator=(39.0, 16.0, 270.0))
    predator = s.fighter(PREDATOR)  # MOV 15; the mere is x 34–45, y 3–13
    problem = move_problem(s, predator, 39.0, 8.0)
    assert problem is not None and "the mere" in problem
    swimmer = with_ability(predator, "Immersion")
    assert move_problem(s.with_fighters(swimmer), swimmer, 39.0, 8.0) is None
    assert way_cost(s, swimmer, [(39.0, 16.0), (39.0, 8.0)]) == pytest.approx(8.0)  # water is normal terrain to him


def test_an_obstacle_blocks_sight_only_when_larger_than_both_shooter_and_target(g: Game) -> None:
    """Third-edition rules: sight is "blocked by anything larger than both shooter and target"; Sapper's
    barricade "is considered an obstacle of Small size of height 2 cm"."""
    s = wood(g, Alahan_crossbowman=(16.75, 20.0, 0.0), Wolfen_hunter=(30.0, 20.0, 180.0))
    xbow, hunter = s.fighter(XBOW), s.fighter(HUNTER)
    assert shot_problem(s, xbow, hunter) is None  # a Small wall: not larger than a Medium or a Large fighter
    for size, blocks in (("Medium", False), ("Large", False), ("Very Large", True), (None, True)):
        walls = tuple(replace(p, size=size) if p.name == "the field wall" else p for p in s.terrain)
        problem = shot_problem(replace(s, terrain=walls), xbow, hunter)
        assert (problem is not None and "not in sight" in problem) == blocks, size
    # ground never blocks sight: the tracker in the wood sees out and is seen
    tracker = s.fighter(TRACKER)
    assert shot_problem(s, tracker, xbow) is None


def test_cover_adds_one_to_the_difficulty_and_the_preview_is_the_roll(g: Game) -> None:
    """Instinctive firing: "does not suffer the penalties due to Harassment nor due to cover": shots suffer a cover
    penalty (estimated terrain.cover_difficulty = +1) that the preview announces and the roll uses."""
    assert number("terrain", "cover_difficulty") == 1
    s = wood(g, Alahan_crossbowman=(30.0, 30.0, 0.0))
    xbow, tracker = s.fighter(XBOW), s.fighter(TRACKER)  # the tracker stands in the old wood
    assert cover_of(s, xbow, tracker) == "the old wood"
    shot = shot_of(s, xbow, tracker)
    open_ground = shot_of(replace(s, terrain=()), xbow, tracker)
    assert shot.difficulty == open_ground.difficulty + 1 and shot.cover == "the old wood"
    action = {"kind": "shoot", "side": "A", "fighter": XBOW, "target": TRACKER}
    legal = next(lg for lg in g.legal_actions(s) if lg.action == action)
    assert "in cover of the old wood" in legal.text and f"difficulty {shot.difficulty})" in legal.text
    assert g.preview(s, action).draws[0] == shot.request()
    assert g.apply(s, action).chance[0].request == shot.request()
    instinctive = with_ability(xbow, "Instinctive firing")
    assert shot_of(s.with_fighters(instinctive), instinctive, tracker).difficulty == open_ground.difficulty


def test_a_low_wall_covers_whoever_is_behind_it_but_not_the_shooter_against_it(g: Game) -> None:
    """The crossbowman stands against the field wall: he shoots over it freely, and is covered by it from the
    Wolfen on the other side (estimated: a piece touching the shooter's base does not count)."""
    s = wood(g, Wolfen_tracker=(30.0, 20.0, 180.0))
    xbow, tracker = s.fighter(XBOW), s.fighter(TRACKER)
    assert cover_of(s, xbow, tracker) is None
    assert cover_of(s, tracker, xbow) == "the field wall"


def test_a_charge_through_the_bog_costs_double_and_may_fall_short(g: Game) -> None:
    """A charge is movement: its way through encumbered ground costs double (estimated), around bases and
    scenery (issue 24, point 9)."""
    s = wood(g, Alahan_guard=(21.5, 20.0, 0.0), Wolfen_hunter=(39.5, 20.0, 180.0))
    guard, hunter = s.fighter(GUARD), s.fighter(HUNTER)  # charge: 2 × MOV = 20 cm
    reach = charge_of(s, guard, hunter)
    assert reach.distance == pytest.approx(18 - 1.25 - 1.875)  # 14.875 cm, 9 of them in the bog
    assert not reach.possible and "beyond 20 cm" in reach.reason and "encumbered" in reach.reason
    assert charge_of(replace(s, terrain=()), guard, hunter).possible
    assert not any(lg.action.get("target") == HUNTER and lg.action["kind"] == "charge" and lg.action["fighter"] == GUARD
                   for lg in g.legal_actions(s))


def test_a_routed_fighter_flees_slowly_through_the_bog(g: Game) -> None:
    """Fleeing is movement (2 × MOV, estimated): through encumbered ground it gets half as far."""
    s = wood(g, Swordsman_Aldo=(35.0, 20.0, 0.0), Wolfen_hunter=(45.0, 20.0, 180.0),
             Alahan_crossbowman=(8.0, 20.0, 0.0))
    aldo = s.fighter(ALDO)
    run = flight_of(s, aldo)  # straight west, all 20 cm of it inside the bog (x 24–33) then beyond
    assert not run.leaves and run.x == pytest.approx(35 - 2 - 9, abs=0.6)
    assert way_cost(s, aldo, [(aldo.x, aldo.y), (run.x, run.y)]) <= 20 + 0.1
    open_run = flight_of(replace(s, terrain=()), aldo)
    assert math.hypot(open_run.x - aldo.x, open_run.y - aldo.y) == pytest.approx(20.0, abs=0.1)


def test_bad_terrain_is_refused_naming_the_piece(tmp_path: Path) -> None:
    text = WOOD.read_text(encoding="utf-8")
    bad = text.replace("kind: water", "kind: lava").replace("kind: encumbered, cover: true",
                                                            "kind: encumbered, size: Small")
    path = tmp_path / "bad.yaml"
    path.write_text(bad.replace("warband: lions_of_alahan", "warband: lions_of_alahan"), encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        read_scenario(path)
    problems = " | ".join(err.value.problems)
    assert "terrain[3].kind: one of obstacle, encumbered, water is required, got 'lava'" in problems
    assert "terrain[2].size: an obstacle's Size" in problems
    stuck = text.replace("at: [12, 12]", "at: [13.5, 32.5]")
    path.write_text(stuck, encoding="utf-8")
    with pytest.raises(DataFileError, match="Alahan paladin starts on the standing stone"):
        read_scenario(path)


def test_terrain_piece_json_round_trip() -> None:
    piece = Terrain("a hedge", ((0.0, 0.0), (4.0, 0.0), (4.0, 1.0)), "obstacle", "Small")
    assert Terrain.from_json(piece.to_json()) == piece
    assert "blocks sight when larger than both" in piece.describe()
