"""Rule tests of the Ex illis battle engine: Moving, terrain, zone capacity, teleporters, flyers.

Each test quotes the seed sentence it checks (shared/seeds/000_5e8e85320d1136c5.txt, "Moving"
and the companion article "Movement").
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from exillis_battle_kit import act, battle, do, kinds, legal, put, setc, tables, targets, unit, zone

from rulekeeper.rulesets.exillis.battle.moves import move_routes, room


def _with_rule(state, key, rule):
    """The unit ``key`` with one more special rule (to build units the roster does not ship)."""
    u = state.unit(key)
    profile = u.c.profile.model_copy(update={"special_rules": (*u.c.profile.special_rules, rule)})
    return state.with_units({key: replace(u, c=replace(u.c, profile=profile))})


def _cavalry_at_c3():
    s = battle([unit("Franc Chevalers", "C3")], [unit("Vileins", "E5")], width=5, height=5)
    return act(s, "A:Franc Chevalers")


# -- Movement distance ------------------------------------------------------------------------


def test_infantry_moves_one_zone():
    """"Every unit can move one zone away" / Infantry: "They have a Movement of 1."."""
    s = act(battle([unit("Billmen", "C3")], [unit("Vileins", "E5")], width=5, height=5), "A:Billmen")
    reach = set(targets(s, "move"))
    assert reach == {"B2", "C2", "D2", "B3", "D3", "B4", "C4", "D4"}
    assert all(s.board.distance(zone(s, "C3"), zone(s, z)) == 1 for z in reach)


def test_cavalry_moves_two_zones():
    """"fast units can move a distance of 2 zones" / Cavalry: "Cavalry units have a Movement of 2"."""
    s = _cavalry_at_c3()
    reach = set(targets(s, "move"))
    # every zone of the 5x5 board within 2 zones of C3, but not C3 itself nor the enemy's E5
    expected = {s.board.name(z) for z in s.board.zones() if 1 <= s.board.distance(z, zone(s, "C3")) <= 2} - {"E5"}
    assert reach == expected
    assert len(reach) == 23


# -- Movement time ----------------------------------------------------------------------------


def test_moving_straight_up_to_movement_costs_1000():
    """"Moving straight up to your unit's Movement always takes 1000 AcP."."""
    s = _cavalry_at_c3()
    t = targets(s, "move")
    assert t["C1"] == t["A3"] == t["C5"] == t["E3"] == 1000.0  # straight, 2 zones
    assert t["C2"] == t["D3"] == 1000.0  # straight, 1 zone
    inf = act(battle([unit("Billmen", "C3")], [unit("Vileins", "E5")], width=5, height=5), "A:Billmen")
    assert targets(inf, "move")["C2"] == targets(inf, "move")["B3"] == 1000.0


def test_moving_less_than_movement_costs_1000_even_diagonally():
    """"Moving less than your unit's Movement always takes 1000 AcP as well (even diagonally)."."""
    t = targets(_cavalry_at_c3(), "move")
    assert t["B2"] == t["D2"] == t["B4"] == t["D4"] == 1000.0


def test_two_zones_with_one_diagonal_costs_1118():
    """"2 zones, including one diagonal	1118 AcP"."""
    t = targets(_cavalry_at_c3(), "move")
    for z in ("B1", "D1", "A2", "E2", "A4", "E4", "B5", "D5"):
        assert t[z] == 1118.0, z


def test_two_zones_with_two_diagonals_costs_1414():
    """"2 zones, including two diagonals	1414 AcP"."""
    t = targets(_cavalry_at_c3(), "move")
    assert t["A1"] == t["E1"] == t["A5"] == 1414.0


def test_infantry_diagonal_step_is_at_full_movement():
    """"moving diagonally will incur an approximate 40% penalty" (a diagonal step is infantry's
    maximum Movement, "based on the true distance from centre to centre")."""
    s = act(battle([unit("Billmen", "C3")], [unit("Vileins", "E5")], width=5, height=5), "A:Billmen")
    t = targets(s, "move")
    assert t["B2"] == t["D4"] == 1414.0
    assert t["C2"] == 1000.0


def test_the_move_is_paid_in_acp():
    """"Most actions cost 1000 AcP (a full turn) to perform." — a move's AcP is taken from the unit."""
    s = _cavalry_at_c3()
    before = s.unit("A:Franc Chevalers").acp
    o = do(s, "move", "A:Franc Chevalers", "A1")
    after = o.state.unit("A:Franc Chevalers")
    assert after.zone == zone(s, "A1")
    assert o.legal.acp == 1414.0
    # the unit paid 1414 and then earned AcP until the next group became ready
    gained = (o.state.clock - s.clock) * 100.0
    assert after.acp == pytest.approx(before - 1414.0 + gained)


# -- Terrain ----------------------------------------------------------------------------------


def test_entering_a_forest_costs_250_more():
    """"Whenever a unit performs a move to enter a zone with a terrain feature which is slow to
    enter, it is penalised by 250 AcP." ("A forest is a terrain feature which is slow to enter.")"""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")], terrain={"C2": "forests", "B3": "forests"})
    t = targets(act(s, "A:Billmen"), "move")
    assert t["C2"] == t["B3"] == 1250.0
    assert t["B1"] == 1000.0


def test_leaving_a_fence_costs_250_more():
    """"Whenever a unit performs a move to get out of a zone with a terrain feature which is slow to
    exit, it is penalised by 250 AcP." ("A fence is a terrain feature which is slow to exit.")"""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")], terrain={"B2": "fences", "C2": "forests"})
    t = targets(act(s, "A:Billmen"), "move")
    assert t["A2"] == t["B1"] == 1250.0
    assert t["C2"] == 1500.0  # leave the fence and enter the forest
    assert t["A1"] == 1414.0 + 250.0


def test_entering_a_fence_is_not_slow():
    """"A fence is a terrain feature which is slow to exit." (not slow to enter)"""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")], terrain={"C2": "fences"})
    assert targets(act(s, "A:Billmen"), "move")["C2"] == 1000.0


def test_long_stride_ignores_terrain_penalties():
    """"Long Stride: This unit's movements are not slowed by terrain features."."""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")], terrain={"B2": "fences", "C2": "forests"})
    s = act(_with_rule(s, "A:Billmen", "Long Stride"), "A:Billmen")
    t = targets(s, "move")
    assert t["C2"] == 1000.0
    assert t["A2"] == 1000.0


def test_laborious_movements_double_the_time():
    """"Laborious Movements: Moving requires twice the usual time."."""
    s = battle([unit("Mangonel", "B2")], [unit("Vileins", "E4")], terrain={"C2": "forests"})
    t = targets(act(s, "A:Mangonel"), "move")
    assert t["B1"] == 2000.0
    assert t["A1"] == 2828.0
    assert t["C2"] == 2500.0


def test_laborious_movements_cannot_charge_or_retreat():
    """"Laborious Movements: ... The unit cannot charge or retreat."."""
    s = battle([unit("Mangonel", "B2")], [unit("Vileins", "C2")])
    s = act(s, "A:Mangonel")
    assert "charge" not in kinds(s)
    assert "move" in kinds(s)
    engaged = act(put(s, "B:Vileins", zone="B2"), "A:Mangonel")
    assert "fight" in kinds(engaged)
    assert "retreat" not in kinds(engaged)


# -- Where a unit may go ----------------------------------------------------------------------


def test_never_moves_into_an_enemy_zone():
    """"Charging is the only way to move into an enemy-occupied zone. A unit cannot move into such a
    zone without attacking."."""
    s = act(battle([unit("Billmen", "B2")], [unit("Vileins", "C2"), unit("Longbowmen", "B3")]), "A:Billmen")
    moves = targets(s, "move")
    assert "C2" not in moves and "B3" not in moves
    assert set(targets(s, "charge")) == {"C2", "B3"}


def test_cavalry_cannot_move_through_an_enemy_zone():
    """"Charging is the only way to move into an enemy-occupied zone." — a 2-zone move may not pass
    through one (but may go around it: only charges need "a clear, straight line")."""
    s = battle([unit("Franc Chevalers", "A2")], [unit("Vileins", "B2"), unit("Billmen", "B1"), unit("Hobelars", "B3")])
    s = act(s, "A:Franc Chevalers")
    assert "C2" not in targets(s, "move")
    around = act(put(s, "B:Billmen", zone="E4"), "A:Franc Chevalers")
    assert "C2" in targets(around, "move")  # around B2, through B1


def test_detour_is_priced_by_the_true_centre_to_centre_distance():
    """"Moving diagonally at your unit's maximum Movement takes more than 1000 AcP, based on the true distance
    from centre to centre" — 1118 and 1414 are the straight-line distances (sqrt 5 / 2, sqrt 8 / 2), so a detour
    around an enemy (A2 -> B1 -> C2) ends 2 zones straight from its start and costs 1000 (our reading, see
    docs/rules/exillis-battles.md)."""
    s = battle([unit("Franc Chevalers", "A2")], [unit("Vileins", "B2"), unit("Hobelars", "B3")])
    s = act(s, "A:Franc Chevalers")
    assert targets(s, "move")["C2"] == 1000.0
    assert targets(s, "move")["C1"] == 1118.0


def test_three_units_per_side_in_a_zone():
    """"Each zone can contain up to 3 units from each side"."""
    s = battle(
        [unit("Billmen", "B2"), unit("Longbowmen", "C2"), unit("Arbalestiers", "C2"), unit("Serjants (Sword)", "C2")],
        [unit("Vileins", "E4")],
    )
    s = act(s, "A:Billmen")
    assert "C2" not in targets(s, "move")
    s2 = act(put(s, "A:Serjants (Sword)", zone="D4"), "A:Billmen")
    assert "C2" in targets(s2, "move")


def test_enemies_do_not_count_against_a_sides_capacity():
    """"Each zone can contain up to 3 units from each side" (each side counts its own)."""
    s = battle(
        [unit("Billmen", "B2"), unit("Longbowmen", "C2"), unit("Arbalestiers", "C2")],
        [unit("Vileins", "E4"), unit("Serjants (Sword)", "E3"), unit("Hobelars", "E2")],
    )
    for k in ("B:Vileins", "B:Serjants (Sword)", "B:Hobelars"):
        s = put(s, k, zone="C2")
    rules = tables().rules
    c2 = zone(s, "C2")
    # 2 A units and 3 B units in C2: a third A unit fits, a fourth B unit would not
    assert room(s, rules, c2, "A", [s.unit("A:Billmen")])
    s4 = battle([unit("Billmen", "B2")], [unit("Vileins", "C2"), unit("Serjants (Sword)", "C2"),
                                          unit("Hobelars", "C2"), unit("Longbowmen", "D2")])
    assert not room(s4, rules, c2, "B", [s4.unit("B:Longbowmen")])
    assert room(s4, rules, c2, "A", [s4.unit("A:Billmen")])


def test_a_forest_holds_two_units_per_side():
    """"Each zone can contain up to 3 units from each side, but a forest zone limits this number to 2."."""
    s = battle([unit("Billmen", "B2"), unit("Longbowmen", "C2"), unit("Arbalestiers", "C2")],
               [unit("Vileins", "E4")], terrain={"C2": "forests"})
    assert "C2" not in targets(act(s, "A:Billmen"), "move")
    s2 = put(s, "A:Arbalestiers", zone="D4")
    assert targets(act(s2, "A:Billmen"), "move")["C2"] == 1250.0


def test_a_huge_unit_takes_two_places():
    """"Huge: This unit occupies 2 units' space in its zone."."""
    s = battle([unit("Billmen", "B2"), unit("Longbowmen", "C2"), unit("Arbalestiers", "C2")], [unit("Vileins", "E4")])
    assert "C2" in targets(act(s, "A:Billmen"), "move")  # 2 units there: room for a third
    huge = _with_rule(s, "A:Longbowmen", "Huge")
    assert "C2" not in targets(act(huge, "A:Billmen"), "move")


def test_a_hero_counts_with_its_retinue():
    """"Characters always accompany a unit (called Retinue) and are forced to move with it."
    (the pair takes one place, and moves together)."""
    s = battle([unit("Billmen", "B2", hero="Dismounted Baneret"), unit("Longbowmen", "C2"), unit("Arbalestiers", "C2")],
               [unit("Vileins", "E4")])
    s = act(s, "A:Billmen")
    assert s.active == ("A:Billmen", "A:Dismounted Baneret")
    assert "C2" in targets(s, "move")
    o = do(s, "move", "A:Billmen", "C2")
    assert o.state.unit("A:Billmen").zone == o.state.unit("A:Dismounted Baneret").zone == zone(s, "C2")


# -- Teleporters ------------------------------------------------------------------------------


def test_teleporters_always_take_1000_acp():
    """"Every time they move, teleporters are only delayed by 1000 AcP" / "Teleport: Diagonal
    movements and terrain penalties do not slow down this unit when moving."."""
    s = battle([unit("Ympes", "B2")], [unit("Vileins", "E4")], terrain={"B2": "fences", "C3": "forests"})
    t = targets(act(s, "A:Ympes"), "move")
    assert t == {z: 1000.0 for z in ("A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3")}


def test_teleporters_accumulate_veil_instead_of_fatigue():
    """"teleporters ... accumulate Veil instead of Fatigue, proportionally to the distance travelled"."""
    s = act(battle([unit("Ympes", "B2")], [unit("Vileins", "E4")]), "A:Ympes")
    o = do(s, "move", "A:Ympes", "C3")
    c = o.state.unit("A:Ympes").c
    assert c.fatigue == 0.0
    assert c.veil == pytest.approx(1.0 * c.stat("veil_rate"))
    walker = act(battle([unit("Billmen", "B2")], [unit("Vileins", "E4")]), "A:Billmen")
    w = do(walker, "move", "A:Billmen", "C2").state.unit("A:Billmen").c
    assert w.veil == 0.0 and w.fatigue > 0.0


# -- Flyers -----------------------------------------------------------------------------------


def _evocati(**c):
    s = battle([unit("Evocati", "B2")], [unit("Vileins", "E4")])
    if c:
        s = setc(s, "A:Evocati", **c)
    return act(s, "A:Evocati")


def test_take_off_and_land_are_swift_250_acp():
    """"Taking off and landing is a swift action (-75%) which simply changes the unit's state."."""
    s = _evocati()
    off = [lg for lg in legal(s) if lg.action.kind == "take_off"]
    assert [lg.acp for lg in off] == [250.0]
    o = do(s, "take_off", "A:Evocati")
    assert o.state.unit("A:Evocati").c.flying is True
    assert o.state.unit("A:Evocati").zone == zone(s, "B2")
    up = _evocati(flying=True)
    land = [lg.acp for lg in legal(up) if lg.action.kind == "land"]
    assert land == [250.0]
    assert "take_off" not in kinds(up)


def test_a_flying_unit_moves_two_zones_a_grounded_flyer_one():
    """"When flying, this unit has a Movement of 2."."""
    grounded = targets(_evocati(), "move")
    assert max(grounded.values()) == 1414.0 and "D2" not in grounded
    flying = targets(_evocati(flying=True), "move")
    assert flying["D2"] == 1000.0 and flying["D4"] == 1414.0 and flying["D3"] == 1118.0


def test_flying_adds_one_fatigue_per_turn_times_fatigue_rate():
    """"A flying unit adds 1 FtP (modified by its Fatigue Rate) for each turn it remains flying."."""
    s = _evocati(flying=True, fatigue=2.0)
    rate = s.unit("A:Evocati").c.stat("fatigue_rate")
    assert rate == 1.5
    o = do(s, "stance", "A:Evocati", option="defensive")
    assert o.state.unit("A:Evocati").c.fatigue == pytest.approx(2.0 + rate)


def test_wait_while_flying_restores_no_fatigue():
    """"If the Wait action is performed while flying, it does not allow the unit to restore Fatigue."."""
    s = _evocati(flying=True, fatigue=6.0)
    o = do(s, "wait", "A:Evocati")
    assert o.state.unit("A:Evocati").c.fatigue == pytest.approx(6.0 + 1.5)


def test_forced_landing_at_12_fatigue():
    """"The unit is forced to land if it reaches 12 FtP."."""
    s = _evocati(flying=True, fatigue=10.0)
    o = do(s, "wait", "A:Evocati")
    assert o.state.unit("A:Evocati").c.fatigue == pytest.approx(11.5)
    assert o.state.unit("A:Evocati").c.flying is True
    s2 = _evocati(flying=True, fatigue=10.5)
    o2 = do(s2, "wait", "A:Evocati")
    assert o2.state.unit("A:Evocati").c.fatigue == pytest.approx(12.0)
    assert o2.state.unit("A:Evocati").c.flying is False


def test_grounded_units_cannot_attack_a_flying_unit():
    """"A flying miniature cannot be targeted by melee attacks from grounded units"."""
    s = battle([unit("Billmen", "B2")], [unit("Evocati", "C2")])
    s = put(s, "A:Billmen", zone="C2")
    s = setc(s, "B:Evocati", flying=True)
    grounded = act(s, "A:Billmen")
    assert "fight" not in kinds(grounded)
    landed = act(setc(s, "B:Evocati", flying=False), "A:Billmen")
    assert "fight" in kinds(landed)


def test_moves_are_listed_from_move_routes():
    """"Every unit can move one zone away" — legal moves are exactly the routes of move_routes."""
    s = act(battle([unit("Billmen", "B2")], [unit("Vileins", "E4")]), "A:Billmen")
    routes = {s.board.name(r.to): r.acp for r in move_routes(s, tables().rules, s.unit("A:Billmen"))}
    assert routes == targets(s, "move")
