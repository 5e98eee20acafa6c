"""Rule tests of the Ex illis battle engine: melee in battle — Fight, Retreat, Cut Down, Wait,
Meditation and Polearm.

Each test quotes the seed sentence it checks (shared/seeds/000_5e8e85320d1136c5.txt, "Melee",
"Fatigue and Veil" and "Special Rules").
"""

from __future__ import annotations

import pytest
from exillis_battle_kit import act, battle, chances, do, kinds, nobody_acts, put, reports, setc, targets, unit

from rulekeeper.core.chance import Fate
from rulekeeper.rulesets.exillis.battle.pursuit import cut_down, pursuers


def _engaged(runner: str, pursuers_: list[str], allies: list[str] = (), seed: int = 1):
    """C2: A:<runner> (+ allies) engaged with B units; A:<runner> active, nobody else about to act."""
    s = battle([unit(runner, "B2"), *[unit(a, "A4") for a in allies]], [unit(p, "C2") for p in pursuers_], seed=seed)
    s = put(s, f"A:{runner}", zone="C2")
    for a in allies:
        s = put(s, f"A:{a}", zone="C2")
    return act(nobody_acts(s), f"A:{runner}")


def _speed_tests(outcome, pursuer: str) -> list[float]:
    return [c.request.probabilities[0] for c in chances(outcome, f"speed test: {pursuer}")]


# -- Fight ------------------------------------------------------------------------------------


def test_fight_only_when_engaged():
    """"Only engaged units have a directional facing." — a Fight attacks the enemies in the unit's own
    zone, so it is offered only to an engaged unit."""
    s = battle([unit("Serjants (Sword)", "B2")], [unit("Vileins", "C2")])
    assert "fight" not in kinds(act(s, "A:Serjants (Sword)"))
    engaged = act(put(s, "A:Serjants (Sword)", zone="C2"), "A:Serjants (Sword)")
    assert "fight" in kinds(engaged)
    o = do(engaged, "fight", "A:Serjants (Sword)")
    m = reports(o, "melee")
    assert len(m) == 1 and m[0]["attacker"] == "A:Serjants (Sword)" and m[0]["action"] == "fight"
    assert len(m[0]["duels"]) == 8  # one attack per Serjant


def test_engaged_unit_has_no_move_only_retreat():
    """"You must therefore disengage properly before joining another melee." — an engaged unit leaves
    by retreating (and cannot charge)."""
    s = _engaged("Serjants (Sword)", ["Vileins"])
    k = set(kinds(s))
    assert "retreat" in k and "fight" in k
    assert "move" not in k and "charge" not in k


# -- Retreat ----------------------------------------------------------------------------------


def test_retreat_never_toward_enemies():
    """"A unit can never retreat towards a zone where there are enemies."."""
    s = battle([unit("Serjants (Sword)", "B2")], [unit("Vileins", "C2"), unit("Billmen", "B3"), unit("Longbowmen", "D1")])
    s = act(nobody_acts(put(s, "A:Serjants (Sword)", zone="C2")), "A:Serjants (Sword)")
    t = targets(s, "retreat")
    assert set(t) == {"B1", "C1", "B2", "C3", "D2", "D3"}
    assert t["C1"] == 1000.0 and t["B1"] == 1414.0


def test_retreat_moves_the_unit_out_of_the_melee():
    """"Sometimes the most sensible option is simply to Retreat." — the unit leaves for the zone chosen."""
    s = _engaged("Hobelars", ["Vileins"])
    o = do(s, "retreat", "A:Hobelars", "A2")
    assert o.state.unit("A:Hobelars").zone == s.board.parse("A2")
    assert o.state.unit("A:Hobelars").approach is None


# -- Cut down ---------------------------------------------------------------------------------


def test_cut_down_speed_test_runner_faster_33():
    """"If the runaway's Speed is greater than that of the pursuer's, the pursuer has a 33% chance to
    execute a free attack."."""
    o = do(_engaged("Franc Chevalers", ["Billmen"]), "retreat", "A:Franc Chevalers", "B2")
    p = _speed_tests(o, "B:Billmen")
    assert len(p) == 8 and set(p) == {0.33}


def test_cut_down_speed_test_equal_66():
    """"If both Speeds are the same, the pursuer has a 66% chance to execute a free attack."."""
    o = do(_engaged("Serjants (Sword)", ["Billmen"]), "retreat", "A:Serjants (Sword)", "B2")
    p = _speed_tests(o, "B:Billmen")
    assert p and set(p) == {0.66}
    assert len(p) == 8 or o.state.unit("A:Serjants (Sword)").status == "destroyed"


def test_cut_down_speed_test_pursuer_faster_100():
    """"If the pursuer is the fastest, he will execute an attack for sure."."""
    o = do(_engaged("Billmen", ["Franc Chevalers"]), "retreat", "A:Billmen", "B2")
    p = _speed_tests(o, "B:Franc Chevalers")
    assert p and set(p) == {1.0}
    assert len(reports(o, "cut_down")) == len(p)


def test_cut_down_cannot_be_defended():
    """"you cannot defend yourself (Block, Deflect, Evade) against a cut down attack"."""
    o = do(_engaged("Billmen", ["Franc Chevalers"]), "retreat", "A:Billmen", "B2")
    hits = [c for c in chances(o, "cut down: ") if "damage" not in c.request.label]
    assert hits
    for h in hits:
        assert set(h.request.outcomes) == {"Attack", "Luck"}
    assert {r["outcome"] for r in reports(o, "cut_down")} <= {"Attack", "Luck"}


def test_cut_down_is_free_for_the_pursuer():
    """"cut down attacks are considered free attacks, i.e. they cost no Action Points and no Fatigue
    Points"."""
    s = _engaged("Billmen", ["Franc Chevalers"])
    o = do(s, "retreat", "A:Billmen", "B2")
    assert reports(o, "cut_down")
    k = o.state.unit("B:Franc Chevalers")
    assert k.c.fatigue == 0.0
    assert k.acp == pytest.approx(s.unit("B:Franc Chevalers").acp + (o.state.clock - s.clock) * 100.0)


def test_each_ally_staying_denies_one_pursuer():
    """"Each allied unit in the zone will prevent an enemy unit from cutting you down."."""
    alone = _engaged("Serjants (Sword)", ["Billmen", "Longbowmen"])
    assert len(pursuers(alone, [alone.unit("A:Serjants (Sword)")])) == 2
    one = _engaged("Serjants (Sword)", ["Billmen", "Longbowmen"], allies=["Vileins"])
    left = pursuers(one, [one.unit("A:Serjants (Sword)")])
    assert len(left) == 1
    o = do(one, "retreat", "A:Serjants (Sword)", "B2")
    tested = {c.request.label.split(" ")[2] for c in chances(o, "speed test")}
    assert tested == {left[0].key.split(" ")[0]}
    two = _engaged("Serjants (Sword)", ["Billmen", "Longbowmen"], allies=["Vileins", "Arbalestiers"])
    assert pursuers(two, [two.unit("A:Serjants (Sword)")]) == []
    assert chances(do(two, "retreat", "A:Serjants (Sword)", "B2"), "speed test") == []


def test_fast_cavalry_is_never_cut_down():
    """"Fast Cavalry: Not subject to enemy cut down when leaving close combat."."""
    o = do(_engaged("Hobelars", ["Franc Chevalers"]), "retreat", "A:Hobelars", "B2")
    assert chances(o, "speed test") == [] and reports(o, "cut_down") == []
    assert o.state.unit("A:Hobelars").c.count == 4


def test_teleporters_are_never_cut_down():
    """"Certain specialised troops such as light cavalry or units which can teleport cannot be cut
    down."."""
    o = do(_engaged("Nephilim", ["Franc Chevalers"]), "retreat", "A:Nephilim", "B2")
    assert chances(o, "speed test") == [] and reports(o, "cut_down") == []
    assert o.state.unit("A:Nephilim").c.count == 4


def test_cut_down_function_speed_tests_every_warrior():
    """"If a unit can cut down another, each warrior in the unit must take a Speed test to be
    entitled to his/her attack"."""
    s = _engaged("Franc Chevalers", ["Billmen"])
    fate = Fate.from_seed(3)
    runners, cuts, deaths = cut_down(s, [s.unit("A:Franc Chevalers")], fate, s.options)
    tests = [r for r in fate.records if r.request.label.startswith("speed test")]
    assert len(tests) == 8
    assert len(cuts) == sum(1 for r in tests if r.outcome == "Cuts down")
    assert len(deaths) == sum(1 for c in cuts if c.killed)


# -- Wait, Meditation -------------------------------------------------------------------------


def test_wait_halves_fatigue_and_veil():
    """"If a unit is too tired, it can Wait for a turn to reduce the accumulated Fatigue Points and
    Veil Points by 50%. This can only be done if it is not in a melee."."""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")])
    s = act(setc(s, "A:Billmen", fatigue=9.0, veil=5.0), "A:Billmen")
    o = do(s, "wait", "A:Billmen")
    c = o.state.unit("A:Billmen").c
    assert (c.fatigue, c.veil) == (4.5, 2.5)
    assert o.legal.acp == 1000.0


def test_meditation_recovers_75_percent():
    """"Meditation: The action Wait gives back to this unit 75% of its accumulated Fatigue and Veil
    instead of 50%."."""
    s = battle([unit("Nephilim", "B2")], [unit("Vileins", "E4")])
    s = act(setc(s, "A:Nephilim", fatigue=8.0, veil=6.0), "A:Nephilim")
    c = do(s, "wait", "A:Nephilim").state.unit("A:Nephilim").c
    assert (c.fatigue, c.veil) == (2.0, 1.5)


def test_no_recovery_while_engaged():
    """"It is not possible to rest and earn back Fatigue Points once you have started a close combat
    fight." / "This can only be done if it is not in a melee."."""
    s = _engaged("Billmen", ["Vileins"])
    s = act(setc(s, "A:Billmen", fatigue=9.0, veil=5.0), "A:Billmen")
    assert "wait" in kinds(s)
    c = do(s, "wait", "A:Billmen").state.unit("A:Billmen").c
    assert (c.fatigue, c.veil) == (9.0, 5.0)


# -- Polearm ----------------------------------------------------------------------------------


def test_polearm_attacks_take_500_more_acp():
    """"Polearm: Attacks are tiring and take an extra 500 AcP recovery time."."""
    s = _engaged("Billmen", ["Vileins"])
    fight = targets(s, "fight")
    assert fight == {None: 1500.0}
    o = do(s, "fight", "A:Billmen")
    b = o.state.unit("A:Billmen")
    assert b.acp == pytest.approx(s.unit("A:Billmen").acp - 1500.0 + (o.state.clock - s.clock) * 100.0)
    # a charge is an attack too; a plain move is not
    free = act(battle([unit("Billmen", "B2")], [unit("Vileins", "C2")]), "A:Billmen")
    assert targets(free, "charge") == {"C2": 1500.0}
    assert targets(free, "move")["B1"] == 1000.0


def test_other_units_fight_for_1000_acp():
    """"Most actions cost 1000 AcP (a full turn) to perform." (no Polearm, no extra time)."""
    s = _engaged("Serjants (Sword)", ["Vileins"])
    assert targets(s, "fight") == {None: 1000.0}


def test_fleeing_from_a_melee_is_cut_down():
    """"When a unit disengages from a melee (retreating or fleeing), it risks being cut down by the
    enemy."."""
    s = _engaged("Billmen", ["Franc Chevalers"])
    s = act(setc(s, "A:Billmen", morale=-20.0, fleeing=True), "A:Billmen")
    o = do(s, "flee", "A:Billmen")
    p = _speed_tests(o, "B:Franc Chevalers")
    assert p and set(p) == {1.0}
    assert reports(o, "cut_down")
