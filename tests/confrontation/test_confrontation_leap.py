"""Leap (issue 24): a walk over the scenery and the fighters in the way; docs/rules/confrontation.md, "Leap". The
field wall of *The hunters' wood* is a Small obstacle (2 cm, 1 cm across); the standing stone has no Size."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_confrontation_terrain import PALADIN, with_ability, wood

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.ground import Terrain
from rulekeeper.rulesets.confrontation.leap import LEAPS_PER_ROUND, hurdle_problem, hurdles, leap_problem, leap_pursuit
from rulekeeper.rulesets.confrontation.skirmish import next_round
from rulekeeper.rulesets.confrontation.state import SkirmishState

LEAP = {"kind": "leap", "side": "A", "fighter": PALADIN}


def leaper(g: Game, *abilities: str, at: tuple[float, float] = (15.0, 17.0)) -> SkirmishState:
    """The paladin (Medium: 3 cm, MOV 10) west of the field wall, with Leap; the others out of his way."""
    s = wood(g, Alahan_paladin=(*at, 0.0), Alahan_crossbowman=(5.0, 36.0, 0.0), Alahan_guard=(5.0, 4.0, 0.0))
    return s.with_fighters(with_ability(s.fighter(PALADIN), "Leap", *abilities))


def test_a_leap_clears_scenery_no_taller_than_he_is(g: Game) -> None:
    """Leap: "a fighter who moves up to his MOV rate can leap over fighters and scenery of height up to his Size"
    — the Small wall (2 cm) under a Medium paladin (3 cm)."""
    s = leaper(g)
    with pytest.raises(IllegalActionError, match="the way crosses the field wall"):
        g.apply(s, {**LEAP, "kind": "move", "to": [22.5, 17.0]})
    out = g.apply(s, {**LEAP, "to": [22.5, 17.0]})
    paladin = out.state.fighter(PALADIN)
    assert (paladin.x, paladin.y, paladin.leaps, paladin.activated) == (22.5, 17.0, 1, True)
    assert out.chance == () and "leaps over the field wall" in str(out.report[0]["text"])
    assert g.preview(s, {**LEAP, "to": [22.5, 17.0]}).draws == ()
    plain = replace(s, fighters=tuple(replace(f, card=f.card.model_copy(update={"abilities": []})) if f.key == PALADIN
                                      else f for f in s.fighters))
    assert leap_problem(plain, plain.fighter(PALADIN), 22.5, 17.0) == f"{PALADIN} has no Leap"


def test_what_is_taller_than_he_is_stops_the_leap(g: Game) -> None:
    """"of height up to his Size": the standing stone has no Size (taller than anyone); a Large hunter is 4 cm."""
    s = leaper(g, at=(13.5, 28.5))
    assert "the standing stone is taller than anyone: he clears 3 cm" in str(
        leap_problem(s, s.fighter(PALADIN), 13.5, 36.0))
    s = leaper(g)
    hunter = replace(s.fighter("Wolfen hunter"), x=15.0, y=21.5)
    s = s.with_fighters(hunter)
    assert "Wolfen hunter is 4 cm tall: he clears 3 cm" in str(leap_problem(s, s.fighter(PALADIN), 15.0, 27.0))
    guard = replace(s.fighter("Alahan guard"), x=15.0, y=12.0)  # Medium, 3 cm: cleared
    s = s.with_fighters(guard)
    assert leap_problem(s, s.fighter(PALADIN), 15.0, 7.0) is None


def test_the_distance_cleared_is_shorter_than_his_mov_and_he_lands_clear(g: Game) -> None:
    """"the distance to be cleared by the leap over the obstacle must be shorter than the MOV of the fighter who is
    leaping … The fighter must reach the other side of the obstacle with his full base"."""
    s = leaper(g)
    long_wall = Terrain("the long hedge", ((17.0, 10.0), (27.5, 10.0), (27.5, 12.0), (17.0, 12.0)), "obstacle", "Small")
    s = replace(s, terrain=(long_wall,))
    paladin = replace(s.fighter(PALADIN), x=16.0, y=11.0)
    s = s.with_fighters(paladin)
    assert "10.5 cm across: the distance cleared must be shorter than his MOV of 10 cm" in str(
        hurdle_problem(paladin, hurdles(s, paladin, 30.0, 11.0), running=True))  # a run could carry him across
    assert "he lands on the long hedge" in str(leap_problem(s, paladin, 26.0, 11.0))
    s = leaper(g)
    assert "he lands on the field wall" in str(leap_problem(s, s.fighter(PALADIN), 17.5, 17.0))


def test_up_to_two_leaps_a_round(g: Game) -> None:
    """Leap: "A fighter endowed with this ability can make up to two leaps per round"."""
    assert LEAPS_PER_ROUND == 2
    s = leaper(g)
    tired = s.with_fighters(replace(s.fighter(PALADIN), leaps=2))
    assert "he has 0 left this round" in str(leap_problem(tired, tired.fighter(PALADIN), 22.5, 17.0))
    assert next_round(tired, []).fighter(PALADIN).leaps == 0


def test_the_keeper_offers_a_leap_when_the_wall_is_in_the_way(g: Game) -> None:
    s = leaper(g, at=(15.0, 20.0))
    s = s.with_fighters(replace(s.fighter("Wolfen hunter"), x=30.0, y=20.0))
    leaps = [lg for lg in g.legal_actions(s) if lg.action["kind"] == "leap"]
    assert len(leaps) == 1 and "leaps over the field wall" in leaps[0].text
    assert g.policy(s)["kind"] != "leap"  # the keeper's default stays a walk, a charge or holding
    assert g.apply(s, leaps[0].action).state.fighter(PALADIN).leaps == 1
    words = g.parse_words(s, ["leap", "Alahan", "paladin", "22.5,20"])
    assert words == {**LEAP, "to": [22.5, 20.0]}


STALKERS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/" \
    "the_stalkers_ford.yaml"


def stalkers(g: Game) -> SkirmishState:
    """*The stalker's ford*, side B to activate: the stalker (Large, 4 cm, MOV 15) east of the south stream."""
    s = g.initial_state(g.setup(SetupRequest(scenario=STALKERS, seed=1)).document)
    assert isinstance(s, SkirmishState)
    return replace(s, phase="activation", first="B", to_act="B", leader="B",
                   fighters=tuple(replace(f, braved=99) for f in s.fighters))


def test_a_charge_leaps_up_to_twice_his_height(g: Game) -> None:
    """Leap: "A fighter who moves up to his MOVx2 can leap over fighters and scenery of up to twice his height"."""
    s = stalkers(g)
    stalker = s.fighter("Wolfen stalker")
    offered = [lg for lg in g.legal_actions(s) if lg.action.get("leap") and lg.action["kind"] == "charge"]
    assert [lg.action["target"] for lg in offered] == ["Alahan guard", "Alahan paladin"]  # both across the stream
    offered = offered[1:]
    assert "leaping over the south stream (18.9 cm)" in offered[0].text
    out = g.apply(s, offered[0].action)
    after = out.state.fighter("Wolfen stalker")
    assert after.engaged == ("Alahan paladin",) and after.leaps == 1 and after.charged and after.x < 28
    rock = Terrain("a great rock", ((30.0, 6.0), (31.0, 6.0), (31.0, 10.0), (30.0, 10.0)), "obstacle", "Very Large")
    found = hurdles(replace(s, terrain=(rock,)), stalker, 21.0, 8.0)
    assert "a great rock is 6 cm tall: he clears 4 cm" in str(hurdle_problem(stalker, found, running=False))
    assert hurdle_problem(stalker, found, running=True) is None  # 6 cm ≤ twice his 4 cm
    with pytest.raises(IllegalActionError, match="cannot charge Alahan guard leaping"):
        g.apply(s, {"kind": "charge", "side": "B", "fighter": "Wolfen hunter", "target": "Alahan guard", "leap": True})
    assert g.parse_words(s, ["leap", "Wolfen", "stalker", "Alahan", "paladin"]) == offered[0].action


def pursuer(g: Game, *abilities: str, hunter_x: float = 24.5) -> SkirmishState:
    """The paladin (MOV 10: a pursuit movement of 5 cm) just west of the field wall, pursuing after a fight; the
    hunter free east of it."""
    s = leaper(g, *abilities, at=(16.5, 20.0))
    s = s.with_fighters(replace(s.fighter("Wolfen hunter"), x=hunter_x, y=20.0),
                        replace(s.fighter(PALADIN), pursuing=True, activated=True))
    return replace(s, phase="combat", to_act="A")


def test_a_pursuit_movement_leaps_what_is_shorter_across_than_mov_over_two(g: Game) -> None:
    """Leap: "the distance to be cleared by the leap over the obstacle must be shorter than the MOV of the fighter
    who is leaping (MOV/2 when making a pursuit movement)" — the wall (1 cm across) in a pursuit of 5 cm."""
    s = pursuer(g)
    legal = g.legal_actions(s)
    assert [(lg.action["kind"], lg.action.get("leap")) for lg in legal] == [("pursue", True), ("stay", None)]
    assert "leaping over the field wall (4.9 cm of 5)" in legal[0].text
    assert g.policy(s) == legal[0].action  # the keeper's proposal: the pursuit, as without a leap
    assert g.preview(s, legal[0].action).headline[0] == ("distance", "4.9 cm of 5")
    with pytest.raises(IllegalActionError, match="cannot pursue Wolfen hunter: a pursuit movement of 5 cm"):
        g.apply(s, {**legal[0].action, "leap": False})
    out = g.apply(s, legal[0].action)
    paladin = out.state.fighter(PALADIN)
    assert paladin.engaged == ("Wolfen hunter",) and paladin.leaps == 1 and paladin.x > 19.0
    assert "leaping over the field wall (leap 1 of 2 this round)" in str(out.report[0]["text"])
    assert g.parse_words(s, ["leap", "Alahan", "paladin", "Wolfen", "hunter"]) == legal[0].action


def test_a_frenetic_pursuit_leaps_no_wider_than_mov_over_two(g: Game) -> None:
    """Frenetic "can pursue using his whole MOV rate", and still "MOV/2 when making a pursuit movement": a wall 6 cm
    across stops his leap, where a walk (shorter than his MOV of 10) would clear it."""
    s = pursuer(g, "Frenetic", hunter_x=29.5)
    thick = Terrain("the thick hedge", ((18.0, 14.0), (24.0, 14.0), (24.0, 26.0), (18.0, 26.0)), "obstacle", "Small")
    s = replace(s, terrain=(thick,))
    problem = leap_pursuit(s, s.fighter(PALADIN), s.fighter("Wolfen hunter"))[2]
    assert problem == "the thick hedge is 6.0 cm across: the distance cleared must be shorter than MOV/2 (5 cm) in a " \
                      "pursuit movement"
    assert hurdle_problem(s.fighter(PALADIN), hurdles(s, s.fighter(PALADIN), 26.0, 20.0), running=False) is None
    assert [lg.action["kind"] for lg in g.legal_actions(s)] == ["stay"]
