"""The general, its rally and pursuit: where the guide stops.

The guide: "A unit that has been reduced to 0 morale will be forced to flee toward the edge of the map.
Once they've gone over, they have escaped from the battle. Other units will be able to pursue them and
their general will be able to rally them back into the fight." Its "Pursuing" section is an empty
heading. Every decision tested here is quoted from docs/rules/battlesystem.md, "Generals, rally, pursuit".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs_kit import G, act, battle, labels, set_unit

from rulekeeper.core.errors import DataFileError, IllegalActionError
from rulekeeper.rulesets.battlesystem.command import command
from rulekeeper.rulesets.battlesystem.pursuit import pursuit_casualties
from rulekeeper.rulesets.battlesystem.scenario import read_scenario
from rulekeeper.rulesets.battlesystem.state import unit_types

GENERAL = ("A", "General", "Chief", "A1")


def kinds(state: object, unit: str) -> set[str]:
    return {lg.action["kind"] for lg in G.legal_actions(state) if lg.action.get("unit") == unit}


def test_the_general_is_a_card_of_estimates_each_with_its_reason() -> None:
    """Docs: "a general is a unit card like the thirteen ... every number `estimated` with its reason": 6 movement,
    melee 2, DR 12, rally range 3, 20 soldiers, 100 morale, ability Rallies; the rally is 3d10 morale."""
    g = unit_types().get("general")
    assert (g.category, g.movement, g.melee, g.missile, g.barrage, g.damage_reduction, g.range, g.soldiers,
            g.morale) == ("command", 6, 2, None, None, 12, 3, 20, 100)
    assert g.has("Rallies") and g.movement % 2 == 0
    assert {src for src, _ in g.provenance.values()} == {"estimated"}
    assert all(why for _, why in g.provenance.values())
    assert (command().rally_dice, command().rally_sides) == (3, 10)
    assert [t.name for t in unit_types().types][-1] == "General" and len(unit_types().types) == 18  # 13, 4 ethnic


def test_every_shipped_scenario_has_one_general_a_side() -> None:
    """Docs: "each side of a shipped scenario has one general (the scenario file gives its position)"."""
    for sc in G.scenarios():
        units = read_scenario(sc.path)["units"]
        assert sorted(u["side"] for u in units if u["type"] == "General") == ["A", "B"], sc.key


def test_two_generals_a_side_or_a_general_alone_are_refused(tmp_path: Path) -> None:
    """"their general" (one a side); docs: "a general alone holds no field"."""
    text = ('name = "x"\ndescription = "x"\nwidth = 4\nheight = 2\nturn_limit = 5\n[sides.A]\nname = "a"\n'
            '[sides.B]\nname = "b"\n')
    for side, kind, hx in (("A", "General", "A1"), ("A", "General", "B1"), ("B", "General", "D2")):
        text += f'[[units]]\nside = "{side}"\ntype = "{kind}"\nname = "{side}{hx}"\nhex = "{hx}"\n'
    p = tmp_path / "bad.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        read_scenario(p)
    problems = "\n".join(err.value.problems)
    assert "side A has 2 generals (AA1, AB1)" in problems and "side B has only its general" in problems


def test_the_general_rallies_a_fleeing_unit_within_three_hexes() -> None:
    """"their general will be able to rally them back into the fight"; docs: "a general that has not yet acted
    this turn may rally a fleeing unit of its side within its range (3 hexes) ... the unit gets back 3d10 morale
    (never above its card's morale) and stops fleeing"."""
    s = battle([GENERAL, ("A", "Light Infantry", "Foot", "D1"), ("B", "Heavy Infantry", "Shields", "H1")], seed=4)
    s = set_unit(s, "Foot", morale=0)
    assert G.legal_actions(s)[0].action == {"kind": "rally", "side": "A", "unit": "Chief", "target": "Foot"}
    odds = G.preview(s, {"kind": "rally", "side": "A", "unit": "Chief", "target": "Foot"})
    assert odds.headline_dict() == {"expected morale restored": "16.5"}
    out = act(s, kind="rally", unit="Chief", target="Foot")
    assert labels(out) == ["Rally: Chief rally Foot"] and out.chance[0].request.explain[0].startswith("3d10")
    roll = int(out.chance[0].outcome)
    assert 3 <= roll <= 30 and out.state.piece("Foot").morale == roll and not out.state.piece("Foot").fleeing
    # "the general's rally is its action of the turn": it rallies (or attacks) no more, but may still move
    assert kinds(out.state, "Chief") == {"move"}
    # out of range: 4 hexes
    far = set_unit(s, "Foot", hex="E1")
    assert "rally" not in kinds(far, "Chief")


def test_a_rallied_unit_reforms_and_acts_again_next_turn() -> None:
    """Docs: "it spends the rest of that turn re-forming: it neither moves nor attacks until its side's next turn"."""
    s = battle([GENERAL, ("A", "Light Infantry", "Foot", "C1"), ("B", "Heavy Infantry", "Shields", "E1")], seed=2)
    s = act(set_unit(s, "Foot", morale=0), kind="rally", unit="Chief", target="Foot").state
    assert kinds(s, "Foot") == set()
    s = act(act(s, kind="end_turn").state, kind="end_turn").state
    assert {"move"} <= kinds(s, "Foot")


def test_a_fleeing_or_destroyed_general_rallies_nobody_and_an_enemy_general_never() -> None:
    """Docs: "A fleeing or destroyed general rallies nobody"; "a fleeing unit of its side"."""
    units = [GENERAL, ("A", "Light Infantry", "Foot", "C1"), ("B", "Heavy Infantry", "Shields", "H1"),
             ("B", "General", "Foe", "F1")]
    s = set_unit(battle(units), "Foot", morale=0)
    assert "rally" in kinds(s, "Chief")
    assert "rally" not in kinds(set_unit(s, "Chief", morale=0), "Chief")
    assert "rally" not in kinds(set_unit(s, "Chief", soldiers=0), "Chief")
    b = act(s, kind="end_turn").state  # B to act: Foot (A) still flees on C1, 3 hexes from Foe
    assert "rally" not in kinds(b, "Foe")


def test_the_general_is_fought_as_any_unit_and_alone_holds_no_field() -> None:
    """Docs: "The general is attacked, shot and shelled like any unit ... 20 soldiers"; "a side whose only unit
    able to fight is its general has lost"; at the turn limit its guard is not counted."""
    s = battle([GENERAL, ("A", "Light Infantry", "Foot", "C1"), ("B", "Light Infantry", "Raiders", "B1")], seed=9)
    s = act(s, kind="end_turn").state
    out = act(s, kind="attack", unit="Raiders", target="Chief")
    assert labels(out)[0] == "Attack: Raiders on Chief" and "5d10+6+0-12" in out.report[0]["text"]
    alone = act(set_unit(battle([GENERAL, ("A", "Light Infantry", "Foot", "H1"),
                                 ("B", "Light Infantry", "Raiders", "D1")]), "Foot", soldiers=0), kind="end_turn")
    assert alone.state.over and alone.state.winner == "B" and "a general alone holds no field" in alone.state.reason
    limit = battle([GENERAL, ("A", "Light Infantry", "Foot", "C1"), ("B", "Light Infantry", "Raiders", "H1")],
                   turn_limit=1)
    limit = set_unit(limit, "Foot", soldiers=90)
    end = act(limit, kind="end_turn").state
    assert end.winner == "B" and "Reds 90 soldiers, Blues 100" in end.reason  # 90, not 90 + the general's 20


def test_a_normal_attack_no_longer_targets_a_fleeing_unit_pursuit_does() -> None:
    """"Other units will be able to pursue them"; docs: "attacking it *is* pursuing it"."""
    s = battle([("A", "Light Infantry", "Foot", "A1"), ("B", "Heavy Infantry", "Shields", "B1"),
                ("B", "Pikemen", "Pikes", "H1")], height=2)
    s = set_unit(s, "Shields", morale=0)
    assert kinds(s, "Foot") == {"move", "pursue"}
    with pytest.raises(IllegalActionError):
        act(s, kind="attack", unit="Foot", target="Shields")
    assert G.parse_words(s, ["pursue", "foot", "shields"]) == {"kind": "pursue", "side": "A", "unit": "Foot",
                                                                "target": "Shields"}
    assert G.action_text({"kind": "pursue", "side": "A", "unit": "Foot", "target": "Shields"}) == \
        "Foot pursues Shields"
    out = act(s, kind="pursue", unit="Foot", target="Shields")
    assert labels(out) == ["Pursuit: Foot on Shields"]  # no morale roll: the unit is already at 0
    assert "5d10+6+0-20 (or simply 5d10-14)" in out.report[0]["text"]
    roll = int(out.chance[0].outcome)
    assert out.state.piece("Shields").soldiers == 100 - max(roll, 0)
    assert out.state.piece("Foot").soldiers == 100  # a fleeing unit does not fight back


def test_a_pursuit_under_zero_hurts_nobody() -> None:
    """Docs: "a fleeing unit does not turn to fight, so a total under 0 hurts nobody (no failed-attack losses)"."""
    assert pursuit_casualties(-7, 100) == 0 and pursuit_casualties(24, 100) == 24 and pursuit_casualties(24, 5) == 5
    for seed in range(40):
        s = battle([("A", "Military Police", "Wardens", "A1"), ("B", "Pikemen", "Pikes", "B1")], seed=seed)
        out = act(set_unit(s, "Pikes", morale=0), kind="pursue", unit="Wardens", target="Pikes")
        if int(out.chance[0].outcome) < 0:  # 5d10-23: the guide's -7 example would hurt the Military Police
            assert out.state.piece("Wardens").soldiers == 100 and out.state.piece("Pikes").soldiers == 100
            return
    raise AssertionError("no roll of 5d10-23 under 0 in 40 seeds")


def test_the_unit_that_broke_its_enemy_may_follow_up_the_same_turn() -> None:
    """Docs: "the unit whose normal attack broke its target may pursue that unit at once, the same turn, although it
    has attacked — or forgo it by doing anything else; the chance lapses with the turn"; "after it the unit moves no
    more this turn"."""
    s = battle([("A", "Light Infantry", "Foot", "A1"), ("B", "Light Cavalry", "Horse", "B1"),
                ("B", "Pikemen", "Pikes", "H1")], seed=3, height=2)
    s = set_unit(s, "Horse", morale=1)  # 5d10-4 always hits, and any morale damage breaks it
    out = act(s, kind="attack", unit="Foot", target="Horse")
    broken = out.state
    assert broken.piece("Horse").fleeing and broken.piece("Foot").broke == "Horse"
    assert kinds(broken, "Foot") == {"move", "pursue"}
    assert any("may pursue Horse" in r["text"] for r in out.report)
    chased = act(broken, kind="pursue", unit="Foot", target="Horse").state
    assert chased.piece("Foot").broke is None and kinds(chased, "Foot") == set()  # drawn off: no more moves
    # forgone: the chance lapses with the turn
    later = act(act(broken, kind="end_turn").state, kind="end_turn").state
    assert later.piece("Foot").broke is None


def test_the_policy_rallies_and_pursues() -> None:
    """``battle autoplay``: a general rallies a fleeing friend when it can, a unit pursues a fleeing enemy."""
    s = battle([GENERAL, ("A", "Light Infantry", "Foot", "C1"), ("B", "Heavy Infantry", "Shields", "H1")])
    assert G.policy(set_unit(s, "Foot", morale=0))["kind"] == "rally"
    p = battle([("A", "Light Infantry", "Foot", "A1"), ("B", "Heavy Infantry", "Shields", "B1"),
                ("B", "Pikemen", "Pikes", "H1")])
    assert G.policy(set_unit(p, "Shields", morale=0)) == {"kind": "pursue", "side": "A", "unit": "Foot",
                                                           "target": "Shields"}


def test_no_morale_roll_against_a_unit_already_at_zero() -> None:
    """"A unit that has been reduced to 0 morale": a missile on a fleeing unit rolls no morale damage."""
    s = battle([("A", "Archers", "Bows", "A1"), ("B", "Light Infantry", "Foot", "D1"),
                ("B", "Pikemen", "Pikes", "H1")], seed=1)
    out = act(set_unit(s, "Foot", morale=0), kind="shoot", unit="Bows", target="Foot")
    assert labels(out) == ["Missile: Bows on Foot"]
