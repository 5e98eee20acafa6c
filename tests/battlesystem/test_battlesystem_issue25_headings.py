"""Issue 25, point 10: what the guide's own headings promise and its text leaves out.

"Support units: Engineers, Medics, Supply"; "Each ethnicity is supposed to have one special unit"; "Other
terrains, such as forests, bogs, and many others also exist, but how they affect the units still remains
unknown." Estimates in data/support.yaml and data/units.yaml; readings in docs/rules/battlesystem.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs_kit import G, act, battle, labels, set_unit

from rulekeeper.core.errors import DataFileError
from rulekeeper.rulesets.battlesystem.movement import moves
from rulekeeper.rulesets.battlesystem.scenario import read_scenario
from rulekeeper.rulesets.battlesystem.state import unit_types
from rulekeeper.rulesets.battlesystem.support_data import support_numbers

HILL = [["B1", "open", 1], ["D1", "dense forest", 0], ["F1", "shallow river", 0]]


def _formula(state: object, **action: str) -> str:
    out = act(state, **action)
    return str(out.chance[0].request.explain[0])


def test_higher_ground_adds_five_a_level_to_the_other_bonuses() -> None:
    """"5d10+(skill)+(other bonuses)-(enemy Damage Reduction)": from a +1 hill, +5 (estimated); uphill, -5; with
    `terrain_combat=off` the guide's bare 0. The preview shows the ground and draws the very roll."""
    s = battle([("A", "Light Infantry", "Foot", "B1"), ("B", "Heavy Infantry", "Shields", "C1")], terrain=HILL)
    attack = {"kind": "attack", "side": "A", "unit": "Foot", "target": "Shields"}
    odds = G.preview(s, attack)
    assert odds.headline_dict()["ground"] == "+5 (higher ground)"
    assert odds.draws[0].explain[0] == "5d10+6+5-20 (or simply 5d10-9)"
    out = G.apply(s, attack)
    assert out.chance[0].request == odds.draws[0]
    uphill = battle([("A", "Light Infantry", "Foot", "A1"), ("B", "Heavy Infantry", "Shields", "B1")], terrain=HILL)
    assert _formula(uphill, kind="attack", unit="Foot", target="Shields") == "5d10+6-5-20 (or simply 5d10-19)"
    flat = battle([("A", "Light Infantry", "Foot", "B1"), ("B", "Heavy Infantry", "Shields", "C1")], terrain=HILL,
                  options={"terrain_combat": "off"})
    assert _formula(flat, kind="attack", unit="Foot", target="Shields") == "5d10+6+0-20 (or simply 5d10-14)"
    assert "ground" not in G.preview(flat, attack).headline_dict()


def test_forest_covers_and_a_river_gives_bad_footing() -> None:
    """Estimated: -5 against a unit in dense forest (shots too); -5 to a normal attack made from a shallow river."""
    s = battle([("A", "Archers", "Bows", "B1"), ("B", "Light Infantry", "Foot", "D1"),
                ("A", "Light Infantry", "Wader", "F1"), ("B", "Pikemen", "Pikes", "G1")], terrain=HILL)
    # Bows stand on the +1 hill too: +5 - 5 = 0, written as the guide writes a 0
    assert _formula(s, kind="shoot", unit="Bows", target="Foot") == "5d10+10+0-14 (or simply 5d10-4)"
    assert G.preview(s, {"kind": "shoot", "side": "A", "unit": "Bows", "target": "Foot"}).headline_dict()["ground"] \
        == "+5 (higher ground), -5 (target in dense forest)"
    assert _formula(s, kind="attack", unit="Wader", target="Pikes") == "5d10+6-5-25 (or simply 5d10-24)"
    n = support_numbers()
    assert (n.higher_ground, n.forest_cover, n.river_footing) == (5, 5, 5)


def test_medics_tend_an_adjacent_wounded_friend() -> None:
    """Medics "doing what their name promises" (estimated): an adjacent friend gets 1d10 soldiers back, never more
    than it lost; the Medics' one action of the turn."""
    s = battle([("A", "Medics", "Surgeons", "A1"), ("A", "Light Infantry", "Foot", "B1"),
                ("B", "Pikemen", "Pikes", "H1")], seed=3)
    assert not [lg for lg in G.legal_actions(s) if lg.action["kind"] == "tend"]  # nobody is wounded
    s = set_unit(s, "Foot", soldiers=70)
    tend = {"kind": "tend", "side": "A", "unit": "Surgeons", "target": "Foot"}
    assert tend in [lg.action for lg in G.legal_actions(s)]
    odds = G.preview(s, tend)
    assert odds.headline_dict() == {"expected soldiers back": "5.5"}
    out = G.apply(s, tend)
    assert labels(out) == ["Tend: Surgeons tend Foot"] and out.chance[0].request == odds.draws[0]
    assert out.state.piece("Foot").soldiers == 70 + int(out.chance[0].outcome)
    assert "tend" not in {lg.action["kind"] for lg in G.legal_actions(out.state)}
    # never above the card: 98 of 100 gets at most 2 back
    near = G.apply(set_unit(s, "Foot", soldiers=98), tend)
    assert near.state.piece("Foot").soldiers == 98 + min(2, int(near.chance[0].outcome))
    assert unit_types().get("Medics").has("Tends wounded")


def test_supply_hand_over_two_ammunition() -> None:
    s = set_unit(battle([("A", "Supply", "Wagons", "A1"), ("A", "Archers", "Bows", "B1"),
                         ("B", "Pikemen", "Pikes", "H1")]), "Bows", ammunition=3)
    out = act(s, kind="resupply", unit="Wagons", target="Bows")
    assert out.state.piece("Bows").ammunition == 5 and out.chance == ()
    assert out.report[0]["text"] == "Wagons resupply Bows: +2 ammunition (3 → 5)"
    full = set_unit(s, "Bows", ammunition=9)
    assert act(full, kind="resupply", unit="Wagons", target="Bows").state.piece("Bows").ammunition == 10


def test_engineers_bridge_a_river_hex() -> None:
    """Engineers (estimated): an adjacent shallow river hex becomes a bridge, 1 point to enter instead of 2."""
    river = [["C1", "shallow river", 0], ["C2", "shallow river", 0]]
    s = battle([("A", "Engineers", "Sappers", "B1"), ("A", "Heavy Infantry", "Shields", "B2"),
                ("B", "Pikemen", "Pikes", "H1")], height=2, terrain=river)
    assert moves(s, s.piece("Shields")).get("C1") == 2
    assert [lg.action["hex"] for lg in G.legal_actions(s) if lg.action["kind"] == "bridge"] == ["C1"]
    out = act(s, kind="bridge", unit="Sappers", hex="C1")
    assert ("C1", "bridge", 0) in out.state.terrain and ("C2", "shallow river", 0) in out.state.terrain
    assert moves(out.state, out.state.piece("Shields"))["C1"] == 1
    assert "bridge" not in {lg.action["kind"] for lg in G.legal_actions(out.state)}  # their action is used


def test_one_special_unit_per_ethnicity_with_better_stats_and_a_new_ability() -> None:
    """"Special units that are based on the normal ones, but have new special abilities and better stats also
    exist, but those are unique to ethnicities. Each ethnicity is supposed to have one special unit.\""""
    special = [t for t in unit_types().types if t.ethnicity is not None]
    peoples = sorted(str(read_scenario(sc.path)["sides"][s]) for sc in G.scenarios() for s in "AB")
    assert sorted(str(t.ethnicity) for t in special) == peoples  # one each, no more
    for t in special:
        base = unit_types().get(str(t.base))
        assert t.abilities - base.abilities and t.damage_reduction == base.damage_reduction + 2
        assert {t.provenance[f][0] for f in ("damage_reduction", "abilities")} == {"estimated"}


def test_a_special_unit_is_fielded_only_by_its_own_people(tmp_path: Path) -> None:
    """"those are unique to ethnicities": the Raiders' Outriders in the Riverguard's line are refused."""
    text = ('name = "x"\ndescription = "x"\nwidth = 4\nheight = 2\nturn_limit = 5\n[sides.A]\nname = "Riverguard"\n'
            '[sides.B]\nname = "Raiders"\n[[units]]\nside = "A"\ntype = "Raider Outriders"\nhex = "A1"\n'
            '[[units]]\nside = "B"\ntype = "Raider Outriders"\nname = "Real"\nhex = "D2"\n')
    p = tmp_path / "bad.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        read_scenario(p)
    assert err.value.problems == ["units[0].type: Raider Outriders are a special unit of the Raiders, not of the "
                                  "Riverguard (side A)"]
