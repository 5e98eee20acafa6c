"""Rule tests of the Ex illis battle engine: Charging, Fight Direction, Flanking, Charge Reactions,
cavalry charges, Cowards and Impetuous.

Each test quotes the seed sentence it checks (shared/seeds/000_5e8e85320d1136c5.txt, "Charging",
"Special Rules" and the companion article "Movement").
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from exillis_battle_kit import (
    act,
    battle,
    chances,
    do,
    kinds,
    legal,
    nobody_acts,
    put,
    reports,
    setc,
    targets,
    unit,
    zone,
)

from rulekeeper.rulesets.exillis.battle.handlers import reaction_chance
from rulekeeper.rulesets.exillis.battle.moves import classify, origin_direction

N, NE, E, SE, S, SW, W, NW = range(8)


def _defence_weights(record) -> dict[str, float]:
    """Block/Evade/Deflect weights as printed in a roll-to-hit record's explanation."""
    out = {}
    for line in record.request.explain:
        m = re.match(r"^(Block|Evade|Deflect) = .* = ([0-9.]+)", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def _melee_in_c2(charger: str, charger_zone: str, defender: str = "Serjants (Sword)"):
    """C2: A:Billmen engaged with B:<defender>, fight direction set by A from the west.
    A:<charger> waits at ``charger_zone``, active. The ally in C2 denies the only defender's
    charge reaction, so the charge resolves without one."""
    s = battle([unit("Billmen", "B2"), unit(charger, charger_zone)], [unit(defender, "C2")])
    s = put(s, "A:Billmen", zone="C2", approach=W)
    s = replace(s, fight_dirs=((zone(s, "C2"), "A", W),))
    return act(nobody_acts(s), f"A:{charger}")


# -- When and where a charge is possible ------------------------------------------------------


def test_charge_only_into_enemy_zones():
    """"Charging is the only way to move into an enemy-occupied zone." (and a charge needs enemies)."""
    s = act(battle([unit("Billmen", "B2")], [unit("Vileins", "C2"), unit("Longbowmen", "A3")]), "A:Billmen")
    assert set(targets(s, "charge")) == {"C2", "A3"}
    assert not set(targets(s, "charge")) & set(targets(s, "move"))


def test_charge_only_when_unengaged():
    """"In order to charge, a unit must be unengaged first. It is not possible to bounce from melee
    to melee."."""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "C2"), unit("Longbowmen", "B3")])
    assert "charge" in kinds(act(s, "A:Billmen"))
    engaged = act(put(s, "B:Longbowmen", zone="B2"), "A:Billmen")
    assert "charge" not in kinds(engaged)
    assert "fight" in kinds(engaged)


def test_infantry_charges_one_zone():
    """"Infantry are the basic unit speed. They move and charge one zone away."."""
    s = act(battle([unit("Serjants (Sword)", "A2")], [unit("Vileins", "C2"), unit("Longbowmen", "B3")]),
            "A:Serjants (Sword)")
    assert targets(s, "charge") == {"B3": 1414.0}


def test_cavalry_charges_only_in_straight_lines():
    """"when charging, a cavalry unit must move in a clear, straight line. Since "hook" charges
    (double-diagonals) are not possible"."""
    s = battle([unit("Hobelars", "A1")], [unit("Vileins", "C2"), unit("Billmen", "C1"), unit("Longbowmen", "B2")])
    s = act(s, "A:Hobelars")
    t = targets(s, "charge")
    assert "C2" not in t  # the knight-like "hook"
    assert t == {"B2": 1000.0, "C1": 1000.0}
    # C3 lies on the diagonal behind B2: blocked while B2 holds enemies, open otherwise
    s2 = act(put(put(s, "B:Longbowmen", zone="C3"), "B:Vileins", zone="E4"), "A:Hobelars")
    assert targets(s2, "charge") == {"C1": 1000.0, "C3": 1414.0}


def test_cavalry_charge_line_must_be_clear():
    """"a cavalry unit must move in a clear, straight line"."""
    s = battle([unit("Hobelars", "A2")], [unit("Vileins", "C2"), unit("Billmen", "B2")])
    s = act(s, "A:Hobelars")
    assert set(targets(s, "charge")) == {"B2"}
    clear = act(put(s, "B:Billmen", zone="E4"), "A:Hobelars")
    assert targets(clear, "charge") == {"C2": 1000.0}


# -- Fight direction and flanks ---------------------------------------------------------------


def test_first_charge_sets_the_fight_direction():
    """"When a unit charges into a zone where there are unengaged enemies, it sets a fight direction
    in that zone, depending on the charging unit's zone of origin."."""
    s = act(battle([unit("Serjants (Sword)", "B3")], [unit("Vileins", "C2")]), "A:Serjants (Sword)")
    assert s.fight_dirs == ()
    o = do(s, "charge", "A:Serjants (Sword)", "C2")
    assert o.state.fight_dirs == ((zone(s, "C2"), "A", SW),)
    assert reports(o, "melee")[0]["direction"] == "front"


def test_each_charge_creates_a_new_fight_direction():
    """"Each charge creates a new fight direction depending on the angle it comes from."."""
    s = _melee_in_c2("Longbowmen", "C1")
    o = do(s, "charge", "A:Longbowmen", "C2")
    assert o.state.fight_dirs == ((zone(s, "C2"), "A", N),)


def test_classify_front_flank_rear():
    """"The front area includes all zones where charges would result in the same fight direction or
    a 45 degree difference. The flank areas include all zones where charges would result in a fight
    direction of 90 or 135 degrees difference. The rear area includes all zones where charges would
    result in a fight direction opposite to the original one (180 degrees)."."""
    s = _melee_in_c2("Longbowmen", "C1")
    c2 = zone(s, "C2")
    got = {d: classify(s, c2, "A", d) for d in range(8)}
    assert got == {W: "front", NW: "front", SW: "front", N: "flank", S: "flank", NE: "flank", SE: "flank", E: "rear"}
    # the other side sees the mirrored direction: B's allies coming from the west hit A's rear
    assert classify(s, c2, "B", W) == "rear"
    assert classify(s, c2, "B", E) == "front"
    assert classify(s, c2, "B", N) == "flank"


def test_origin_direction_of_a_charge():
    """"it sets a fight direction in that zone, depending on the charging unit's zone of origin"."""
    s = _melee_in_c2("Longbowmen", "C1")
    c2 = zone(s, "C2")
    assert origin_direction(s, c2, zone(s, "C1")) == N
    assert origin_direction(s, c2, zone(s, "D3")) == SE
    assert origin_direction(s, c2, zone(s, "B2")) == W


@pytest.mark.parametrize(("origin", "expected"), [("B1", "front"), ("C1", "flank"), ("D1", "flank"), ("D2", "rear")])
def test_a_charge_is_classified_from_where_it_comes(origin, expected):
    """"A frontal charge includes every situation ending up with the same fight direction, or
    neighbouring diagonals. Flank attacks are situations where the fight direction changes by 90
    degrees or more. Rear attacks are situations where the fight direction is switched by a full
    180 degrees."."""
    s = _melee_in_c2("Longbowmen", origin)
    o = do(s, "charge", "A:Longbowmen", "C2")
    assert reports(o, "melee")[0]["direction"] == expected


@pytest.mark.parametrize(("origin", "mult"), [("B1", 1.0), ("C1", 0.5), ("D2", 0.25)])
def test_flank_and_rear_lower_defences(origin, mult):
    """"Units attacked from the Flank have 50% less defences (Block, Evade, Deflect) against melee
    attacks." / "Units attacked from the Rear have 75% less defences"."""
    s = _melee_in_c2("Longbowmen", origin)
    o = do(s, "charge", "A:Longbowmen", "C2")
    rolls = [c for c in chances(o, "roll to hit: A:Longbowmen") if "damage" not in c.request.label]
    assert rolls
    w = _defence_weights(rolls[0])
    # Serjants (Sword): Block 15, Evade 5, Deflect 10, fresh (efficiency 1), no stance
    assert w == pytest.approx({"Block": 15 * mult, "Evade": 5 * mult, "Deflect": 10 * mult})


@pytest.mark.parametrize(("origin", "penalty"), [("B1", None), ("C1", -10.0), ("D2", -20.0)])
def test_flank_and_rear_static_morale_penalty(origin, penalty):
    """"Units victim of a Flank attack receive a Morale penalty based on the comparison between the
    charging unit's Intimidation x2 and the flanked unit's Intimidation" / "If the unit charges from
    the Rear, the charging unit's Intimidation is tripled instead of doubled"."""
    # 8 Longbowmen (Intimidation 1.5 each = 12) against 8 Billmen (2 each = 16):
    # flank 24 : 16 = 1.5 : 1 -> -10; rear 36 : 16 = 2.25 : 1 -> the 2 : 1 row, -20. MrlS 100 %.
    s = battle([unit("Serjants (Sword)", "B2"), unit("Longbowmen", origin)], [unit("Billmen", "C2")])
    s = put(s, "A:Serjants (Sword)", zone="C2", approach=W)
    s = act(nobody_acts(replace(s, fight_dirs=((zone(s, "C2"), "A", W),))), "A:Longbowmen")
    o = do(s, "charge", "A:Longbowmen", "C2")
    reasons = [r for m in reports(o, "melee")[0]["morale"] if m["unit"] == "B:Billmen" for r in m["reasons"]]
    found = [r for r in reasons if "charge by A:Longbowmen" in r]
    if penalty is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].endswith(f"{penalty:+.1f}")


def test_melee_end_clears_the_fight_direction():
    """"When a melee ends, i.e. every enemy is either dead or routed, the units in the zone no longer
    have any fight direction."."""
    s = _melee_in_c2("Longbowmen", "A4", defender="Vileins")
    s = act(s, "B:Vileins")
    o = do(s, "retreat", "B:Vileins", "D2")
    assert o.state.fight_dirs == ()
    assert o.state.unit("A:Billmen").approach is None


# -- Charge reactions -------------------------------------------------------------------------


@pytest.mark.parametrize(("diff", "p"), [(5, 1.0), (3, 1.0), (2, 0.83), (1, 0.67), (0, 0.5), (-1, 0.33),
                                          (-2, 0.17), (-3, 0.0), (-6, 0.0)])
def test_charge_reaction_chance_table(diff, p):
    """"+3 or more	100% / +2	83% / +1	67% / 0	50% / -1	33% / -2	17% / -3 or less	0%"."""
    assert reaction_chance(diff) == p


def test_charge_reaction_chance_uses_reaction_minus_charge_priority():
    """"The defender's chance to perform a Charge Reaction is based on the difference between his/her
    own Reaction Priority and the charger's Charge Priority"."""
    # Billmen RP 3 charged by Longbowmen CP 1: +2 -> 83 %; Vileins RP 2 by Serjants CP 2: 0 -> 50 %
    s = act(battle([unit("Longbowmen", "B2")], [unit("Billmen", "C2")]), "A:Longbowmen")
    rec = chances(do(s, "charge", "A:Longbowmen", "C2"), "charge reaction")
    assert len(rec) == 1 and rec[0].request.probabilities[0] == pytest.approx(0.83)
    s2 = act(battle([unit("Serjants (Sword)", "B2")], [unit("Vileins", "C2")]), "A:Serjants (Sword)")
    rec2 = chances(do(s2, "charge", "A:Serjants (Sword)", "C2"), "charge reaction")
    assert len(rec2) == 1 and rec2[0].request.probabilities[0] == pytest.approx(0.5)


def _reacted_charge():
    """A charge of Longbowmen (CP 1) on Billmen (RP 3) in which the Billmen do react (83 %)."""
    for seed in range(40):
        s = act(battle([unit("Longbowmen", "B2")], [unit("Billmen", "C2")], seed=seed), "A:Longbowmen")
        o = do(s, "charge", "A:Longbowmen", "C2")
        if any(r["kind"] == "melee" and r["attacker"] == "B:Billmen" for r in o.report):
            return s, o
    pytest.fail("no charge reaction in 40 seeds at 83 %")


def test_charge_reactions_cost_no_action_points():
    """"Charge Reactions are "reflex-based" actions: they do not cost any Action Points or Fatigue." /
    "Reflex-based actions, like counter-attacks or charge reactions, do not cost any AcP."."""
    s, o = _reacted_charge()
    b = o.state.unit("B:Billmen")
    assert b.acp == pytest.approx(s.unit("B:Billmen").acp + (o.state.clock - s.clock) * 100.0)


def test_charge_reactions_cost_no_fatigue():
    """"Charge Reactions are "reflex-based" actions: they do not cost any Action Points or Fatigue."."""
    s, o = _reacted_charge()
    assert o.state.unit("B:Billmen").c.fatigue == 0.0


def test_each_ally_of_the_charger_denies_one_reaction_most_aggressive_first():
    """"When charging in a melee, every unit allied to the charger prevents one defender unit from
    performing its Charge Reaction. If more than one defender is present, the unit with the most
    Aggressiveness is denied its Charge Reaction privilege first."."""
    # defenders: Serjants (Spear) AGG 4, RP 4 and Billmen AGG 3, RP 3; charger Longbowmen CP 1
    def charge(allies: int):
        a = [unit("Longbowmen", "B2")] + [unit(n, "A4") for n in ("Vileins", "Arbalestiers")[:allies]]
        s = battle(a, [unit("Serjants (Spear)", "C2"), unit("Billmen", "C2")])
        for n in ("Vileins", "Arbalestiers")[:allies]:
            s = put(s, f"A:{n}", zone="C2")
        o = do(act(nobody_acts(s), "A:Longbowmen"), "charge", "A:Longbowmen", "C2")
        return sorted(c.request.label.split(" ")[2] for c in chances(o, "charge reaction"))

    assert charge(0) == ["B:Billmen", "B:Serjants"]
    assert charge(1) == ["B:Billmen"]
    assert charge(2) == []


def test_flanked_defender_reacts_half_as_often():
    """"the victim has a 50% chance it will miss its charge reaction if it was entitled to one"
    (companion article, Flanks)."""
    # no ally in C2 (it would deny the reaction): the fight direction was set by B from the east
    s = battle([unit("Longbowmen", "C1")], [unit("Billmen", "C2")])
    s = act(replace(s, fight_dirs=((zone(s, "C2"), "B", E),)), "A:Longbowmen")
    rec = chances(do(s, "charge", "A:Longbowmen", "C2"), "charge reaction")
    assert len(rec) == 1 and "flank" in rec[0].request.label
    assert rec[0].request.probabilities[0] == pytest.approx(0.83 * 0.5)


def test_teleporters_ignore_charge_reactions():
    """"Teleporting units always ignore charge reactions."."""
    s = act(battle([unit("Nephilim", "B2")], [unit("Billmen", "C2")]), "A:Nephilim")
    o = do(s, "charge", "A:Nephilim", "C2")
    assert chances(o, "charge reaction") == []
    assert [r["attacker"] for r in reports(o, "melee")] == ["A:Nephilim"]


# -- Cavalry charges --------------------------------------------------------------------------


def test_heavy_cavalry_charge_cannot_be_deflected():
    """"Heavy Cavalry Charge: This unit's charge is impossible to deflect"."""
    s = act(battle([unit("Franc Chevalers", "B2")], [unit("Serjants (Sword)", "C2")]), "A:Franc Chevalers")
    o = do(s, "charge", "A:Franc Chevalers", "C2")
    roll = next(c for c in chances(o, "roll to hit: A:Franc Chevalers") if "damage" not in c.request.label)
    assert _defence_weights(roll) == pytest.approx({"Block": 15.0, "Evade": 5.0, "Deflect": 0.0})
    # the same knights fighting (not charging) may be deflected
    s2 = act(nobody_acts(put(s, "A:Franc Chevalers", zone="C2")), "A:Franc Chevalers")
    o2 = do(s2, "fight", "A:Franc Chevalers")
    roll2 = next(c for c in chances(o2, "roll to hit: A:Franc Chevalers") if "damage" not in c.request.label)
    assert _defence_weights(roll2)["Deflect"] == 10.0


def test_heavy_cavalry_charge_morale_penalty_4_per_knight_on_bulk_3_or_less():
    """"Heavy Cavalry Charge: ... inflicts a morale penalty (4 per knight) to attacked units if their
    miniatures have a Bulk of 3 or less."."""
    s = act(battle([unit("Franc Chevalers", "B2", miniatures=3)], [unit("Billmen", "C2")]), "A:Franc Chevalers")
    o = do(s, "charge", "A:Franc Chevalers", "C2")
    billmen = next(m for m in reports(o, "melee")[0]["morale"] if m["unit"] == "B:Billmen")
    hcc = [r for r in billmen["reasons"] if r.startswith("Heavy Cavalry Charge")]
    assert hcc == ["Heavy Cavalry Charge (3 knights): -12.0"]  # 3 knights x 4, Billmen MrlS 100 %


def test_heavy_cavalry_charge_spares_bulky_victims():
    """"... to attacked units if their miniatures have a Bulk of 3 or less." (Hobelars: Bulk 4)."""
    s = act(battle([unit("Franc Chevalers", "B2")], [unit("Hobelars", "C2")]), "A:Franc Chevalers")
    o = do(s, "charge", "A:Franc Chevalers", "C2")
    hob = next(m for m in reports(o, "melee")[0]["morale"] if m["unit"] == "B:Hobelars")
    assert not [r for r in hob["reasons"] if "Cavalry Charge" in r]


# -- Cowards and Impetuous --------------------------------------------------------------------


def test_cowards_cannot_charge_unengaged_enemies():
    """"Cowards: Unless acting as a Retinue, this unit cannot charge unengaged enemies."."""
    s = act(battle([unit("Vileins", "B2")], [unit("Billmen", "C2")]), "A:Vileins")
    assert "charge" not in kinds(s)
    assert "C2" not in targets(s, "move")


def test_cowards_may_charge_engaged_enemies():
    """"Cowards: Unless acting as a Retinue, this unit cannot charge unengaged enemies." (engaged
    enemies may be charged)."""
    s = battle([unit("Vileins", "B2"), unit("Serjants (Sword)", "C2")], [unit("Billmen", "C2")])
    assert targets(act(s, "A:Vileins"), "charge") == {"C2": 1000.0}


def test_cowards_acting_as_a_retinue_may_charge():
    """"Cowards: Unless acting as a Retinue, this unit cannot charge unengaged enemies."."""
    s = battle([unit("Vileins", "B2", hero="Marrenne")], [unit("Billmen", "C2")])
    s = act(s, "A:Vileins")
    assert s.active == ("A:Vileins", "A:Marrenne")
    assert targets(s, "charge") == {"C2": 1000.0}


def test_cowards_whose_hero_died_no_longer_act_as_a_retinue():
    """"Cowards: Unless acting as a Retinue, this unit cannot charge unengaged enemies." — with its
    Hero dead, the unit no longer acts as a Retinue."""
    s = battle([unit("Vileins", "B2", hero="Marrenne")], [unit("Billmen", "C2")])
    s = put(s, "A:Marrenne", status="destroyed", zone=None)
    s = act(s, "A:Vileins")
    assert s.active == ("A:Vileins",)
    assert "charge" not in kinds(s)


def _impetuous(morale: float, terrain: dict[str, str] | None = None):
    s = battle([unit("Franc Chevalers", "B2")], [unit("Billmen", "C2"), unit("Vileins", "B3")], terrain=terrain)
    return act(setc(s, "A:Franc Chevalers", morale=morale), "A:Franc Chevalers")


@pytest.mark.parametrize("morale", [120.0, 179.0, 200.0])
def test_impetuous_charges_compulsively_when_confident(morale):
    """"Impetuous: Charges compulsively when Confident or Overconfident."."""
    s = _impetuous(morale)
    assert {lg.action.kind for lg in legal(s)} == {"charge"}
    assert set(targets(s, "charge")) == {"C2", "B3"}


def test_impetuous_is_free_when_neutral():
    """"Impetuous: Charges compulsively when Confident or Overconfident." (not when Neutral)."""
    s = _impetuous(119.0)
    assert {"charge", "move", "wait"} <= set(kinds(s))


def test_impetuous_ignores_units_in_terrain():
    """"Impetuous: ... This rule ignores units located in a zone containing a terrain feature."."""
    s = _impetuous(150.0, terrain={"C2": "fences"})
    assert {lg.action.kind for lg in legal(s)} == {"charge"}
    assert set(targets(s, "charge")) == {"B3"}
    both = _impetuous(150.0, terrain={"C2": "fences", "B3": "forests"})
    assert {"charge", "move", "wait"} <= set(kinds(both))
    assert set(targets(both, "charge")) == {"C2", "B3"}


# -- Flyers, sequence, terrain ----------------------------------------------------------------


def test_flyers_fly_over_units_and_charge_anywhere_in_range():
    """"Flyers are very mobile units who can move up to two zones away, and do not need to worry about
    the same restrictions as cavalry. They can fly over units and charge anywhere in the range."."""
    s = battle([unit("Evocati", "A1")], [unit("Vileins", "C2"), unit("Billmen", "B1"), unit("Longbowmen", "B2")])
    s = act(setc(s, "A:Evocati", flying=True), "A:Evocati")
    assert targets(s, "charge") == {"B1": 1000.0, "B2": 1000.0, "C2": 1118.0}
    assert targets(s, "move")["C1"] == 1000.0  # over the Billmen in B1
    grounded = act(setc(s, "A:Evocati", flying=False), "A:Evocati")
    assert set(targets(grounded, "charge")) == {"B1", "B2"}


def test_grounded_units_cannot_charge_only_flying_enemies():
    """"A flying miniature cannot be targeted by melee attacks from grounded units" / "A charge is an
    action combining a move and a melee attack in the same turn." — with only flying enemies in the
    zone there is nobody the charge could attack."""
    s = battle([unit("Serjants (Sword)", "B2")], [unit("Evocati", "C2")])
    s = act(setc(s, "B:Evocati", flying=True), "A:Serjants (Sword)")
    assert "C2" not in targets(s, "charge")


def _first_reacted(a: str, b: str, seeds: int = 60):
    for seed in range(seeds):
        s = act(battle([unit(a, "B2")], [unit(b, "C2")], seed=seed), f"A:{a}")
        o = do(s, "charge", f"A:{a}", "C2")
        order = [r["attacker"] for r in reports(o, "melee")]
        if f"B:{b}" in order:
            return order
    pytest.fail("no reaction")


def test_highest_priority_acts_first():
    """"The charger has a value called Charge Priority; the defender has a Reaction Priority. This
    determines the Charging Sequence (the unit with the highest value acts first)."."""
    # Billmen RP 3 > Longbowmen CP 1: the reaction lands before the charge
    assert _first_reacted("Longbowmen", "Billmen") == ["B:Billmen", "A:Longbowmen"]
    # Serjants (Spear) RP 4 < Franc Chevalers CP 5: the charge lands first
    assert _first_reacted("Franc Chevalers", "Serjants (Spear)") == ["A:Franc Chevalers", "B:Serjants (Spear)"]


def test_terrain_increases_reaction_priority():
    """"Different actions and the presence of terrain features (obstacles, woods) can increase the
    defender's Reaction Priority."."""
    def p(terrain):
        s = act(battle([unit("Serjants (Sword)", "B2")], [unit("Vileins", "C2")], terrain=terrain),
                "A:Serjants (Sword)")
        rec = chances(do(s, "charge", "A:Serjants (Sword)", "C2"), "charge reaction")
        return rec[0].request.probabilities[0]

    assert p(None) == pytest.approx(0.5)
    assert p({"C2": "forests"}) == pytest.approx(0.67)
