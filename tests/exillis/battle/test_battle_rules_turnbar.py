"""Rule tests of the Ex illis battle engine: the turn bar (Action Points, Initiative, deployment
order, heroes acting with their retinue, fatigue thresholds, compulsory routs).

Each test quotes the seed sentence it checks (shared/seeds/000_5e8e85320d1136c5.txt, "Turns" and
"Fatigue and Veil").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from exillis_battle_kit import act, battle, do, legal, nobody_acts, put, setc, unit

from rulekeeper.rulesets.exillis.battle.turnbar import advance, effective_ini, initial_acp, predict
from rulekeeper.rulesets.exillis.options import ExIllisOptions


def _count_turns(state, rounds: float) -> Counter:
    """Play Wait (1000 AcP) with whoever is active until ``rounds`` rounds have passed."""
    seen: Counter = Counter()
    while state.clock < rounds * 10:
        k = state.active[0]
        seen[k] += 1
        state = do(state, "wait", k).state
    return seen


# -- Initiative -------------------------------------------------------------------------------


def test_initiative_values_of_the_table():
    """"Hobelars	120" / "Soffrances	80" / "Billmen	100" (Initiative table)."""
    s = battle([unit("Billmen", "A1"), unit("Hobelars", "A2")], [unit("Soffrances", "E4")])
    assert effective_ini(s.unit("A:Billmen"), s) == 100.0
    assert effective_ini(s.unit("A:Hobelars"), s) == 120.0
    assert effective_ini(s.unit("B:Soffrances"), s) == 80.0


def test_hobelars_act_more_often():
    """"fast units like the Hobelars have a basic Initiative of 120" / "Between two turns, every active
    unit gains Action Points (AcP) based on its Initiative."."""
    s = battle([unit("Billmen", "A1")], [unit("Hobelars", "E4")])
    bar = Counter(predict(s, 110))
    assert bar[("B:Hobelars",)] == 60 and bar[("A:Billmen",)] == 50
    played = _count_turns(s, 20)
    assert played["B:Hobelars"] == 24 and played["A:Billmen"] == 20  # 20 rounds: 120 : 100


def test_soffrances_act_less_often():
    """"A slow unit like the Soffrances has an Initiative of only 80."."""
    s = battle([unit("Billmen", "A1")], [unit("Soffrances", "E4")])
    bar = Counter(predict(s, 90))
    assert bar[("B:Soffrances",)] == 40 and bar[("A:Billmen",)] == 50


def test_acp_gained_is_initiative_times_time():
    """"As soon as one unit reaches 1000 AcP, it is ready to take a turn."."""
    s = battle([unit("Billmen", "A1")], [unit("Hobelars", "E4")])
    s = replace(nobody_acts(s), active=())
    s = put(s, "A:Billmen", acp=400.0)
    s = put(s, "B:Hobelars", acp=300.0)
    s2 = advance(s)
    # Billmen need 600 / 100 = 6, Hobelars 700 / 120 = 5.83: the Hobelars act first
    assert s2.active == ("B:Hobelars",)
    assert s2.clock == pytest.approx(700 / 120)
    assert s2.unit("B:Hobelars").acp == pytest.approx(1000.0)
    assert s2.unit("A:Billmen").acp == pytest.approx(400.0 + 100 * 700 / 120)


# -- Deployment order -------------------------------------------------------------------------


def test_initial_acp_from_deployment_order():
    """"The deployment order defines each unit's initial amount of AcP. Units deployed first have
    more AcP and will thus be activated first."."""
    assert [initial_acp(i, 4) for i in range(4)] == [1000.0, 750.0, 500.0, 250.0]
    s = battle([unit("Billmen", "A1"), unit("Longbowmen", "A2")], [unit("Vileins", "E4"), unit("Arbalestiers", "E3")],
               first="B")
    assert [(u.key, u.acp) for u in s.units] == [
        ("B:Vileins", 1000.0), ("A:Billmen", 750.0), ("B:Arbalestiers", 500.0), ("A:Longbowmen", 250.0)]
    assert s.active == ("B:Vileins",)
    assert predict(s, 4) == [("B:Vileins",), ("A:Billmen",), ("B:Arbalestiers",), ("A:Longbowmen",)]


def test_first_deployed_acts_first():
    """"Units deployed first have more AcP and will thus be activated first."."""
    s = battle([unit("Billmen", "A1")], [unit("Vileins", "E4")], first="A")
    assert s.active == ("A:Billmen",)
    s2 = battle([unit("Billmen", "A1")], [unit("Vileins", "E4")], first="B")
    assert s2.active == ("B:Vileins",)


# -- Heroes -----------------------------------------------------------------------------------


def test_hero_deploys_with_its_retinue_and_shares_its_acp():
    """"If a Hero is present, both the Hero and the Retinue must reach 1000 AcP before the group can
    take a turn." (they deploy together, in the Retinue's slot)."""
    s = battle([unit("Billmen", "A1", hero="Dismounted Baneret")], [unit("Vileins", "E4")])
    assert s.unit("A:Billmen").acp == s.unit("A:Dismounted Baneret").acp == 1000.0
    assert s.active == ("A:Billmen", "A:Dismounted Baneret")


def test_hero_and_retinue_wait_for_the_slower():
    """"If a Hero is present, both the Hero and the Retinue must reach 1000 AcP before the group can
    take a turn."."""
    s = battle([unit("Billmen", "A1", hero="Dismounted Baneret")], [unit("Vileins", "E4")])
    s = replace(nobody_acts(s), active=())
    s = put(s, "A:Billmen", acp=950.0)  # would be ready in 0.5
    s = put(s, "A:Dismounted Baneret", acp=500.0)  # ready in 5
    s = put(s, "B:Vileins", acp=800.0)  # ready in 2
    s2 = advance(s)
    assert s2.active == ("B:Vileins",)
    s3 = advance(put(s2, "B:Vileins", acp=0.0))  # the Vileins acted
    assert s3.active == ("A:Billmen", "A:Dismounted Baneret")
    assert s3.clock == pytest.approx(5.0)
    assert s3.unit("A:Dismounted Baneret").acp == pytest.approx(1000.0)
    assert s3.unit("A:Billmen").acp == pytest.approx(1450.0)


def test_hero_and_retinue_act_together():
    """"Since the Hero and his/her Retinue have to move together" / "both the Hero and the Retinue must
    reach 1000 AcP before the group can take a turn." — one action moves both and costs both."""
    s = battle([unit("Billmen", "B2", hero="Dismounted Baneret")], [unit("Vileins", "E4")])
    o = do(s, "move", "A:Billmen", "C2")
    b, h = o.state.unit("A:Billmen"), o.state.unit("A:Dismounted Baneret")
    assert b.zone == h.zone == s.board.parse("C2")
    assert b.acp == pytest.approx(h.acp)
    assert b.acp == pytest.approx(1000.0 - 1000.0 + (o.state.clock - s.clock) * 100.0)


# -- Fatigue thresholds -----------------------------------------------------------------------


@pytest.mark.parametrize(("fatigue", "veil", "ini"), [(0, 0, 100.0), (3.9, 0, 100.0), (4, 0, 80.0), (8, 0, 64.0),
                                                      (4, 4, 64.0), (0, 4, 80.0)])
def test_fatigue_thresholds_lower_initiative(fatigue, veil, ini):
    """"Every time a unit accumulates 4 points of Fatigue or 4 points of Veil, it reaches a threshold.
    For each threshold accumulated, the unit loses 20% of its Initiative"."""
    s = battle([unit("Billmen", "A1")], [unit("Vileins", "E4")])
    s = setc(s, "A:Billmen", fatigue=float(fatigue), veil=float(veil))
    assert effective_ini(s.unit("A:Billmen"), s) == pytest.approx(ini)


def test_fatigue_threshold_ten_percent_reading():
    """"Each Fatigue or Veil threshold accumulated lowers Initiative by 10%" (Turns; option
    initiative_loss=10)."""
    s = battle([unit("Billmen", "A1")], [unit("Vileins", "E4")])
    s = replace(setc(s, "A:Billmen", fatigue=8.0), options=ExIllisOptions(initiative_loss="10"))
    assert effective_ini(s.unit("A:Billmen"), s) == pytest.approx(81.0)


def test_tired_unit_takes_turns_less_frequently():
    """"Each Fatigue or Veil threshold accumulated lowers Initiative by 10%, making the unit take turns
    less and less frequently."."""
    s = battle([unit("Billmen", "A1")], [unit("Vileins", "E4")])
    s = setc(s, "A:Billmen", fatigue=4.0)
    bar = Counter(predict(s, 90))
    assert bar[("A:Billmen",)] == 40 and bar[("B:Vileins",)] == 50


# -- The predicted order and compulsory actions -----------------------------------------------


def test_predict_is_the_turn_bar_order():
    """"The Turn Bar at the top of the screen shows the anticipated turn order for every active unit
    in the game." — with 1000-AcP actions, the prediction is what happens."""
    s = battle([unit("Billmen", "A1"), unit("Longbowmen", "A3")], [unit("Hobelars", "E4"), unit("Soffrances", "E1")])
    bar = predict(s, 16)
    assert bar[0] == s.active
    played = []
    for _ in range(16):
        played.append(s.active)
        s = do(s, "wait", s.active[0]).state
    assert played == bar


def test_fleeing_group_never_asks_for_an_action():
    """"Compulsory actions, like routing, bypass the normal turn sequence and take place
    immediately." — a fleeing unit only ever has 'flee'."""
    s = battle([unit("Billmen", "B2")], [unit("Vileins", "E4")])
    s = act(setc(s, "A:Billmen", morale=-10.0, fleeing=True), "A:Billmen")
    assert [(lg.action.kind, lg.acp) for lg in legal(s)] == [("flee", 0.0)]


def test_broken_unit_routs_at_once_when_it_witnesses_a_casualty():
    """"Compulsory actions, like routing, bypass the normal turn sequence and take place immediately."
    / "Broken units will Rout the next time a friendly model dies in their zone."."""
    for seed in range(30):
        s = battle([unit("Franc Chevalers", "B2")], [unit("Vileins", "C3")], seed=seed, width=5, height=5)
        s = put(s, "A:Franc Chevalers", zone="C3")
        s = act(nobody_acts(setc(s, "B:Vileins", morale=-5.0)), "A:Franc Chevalers")
        o = do(s, "fight", "A:Franc Chevalers")
        if o.report and [r for r in o.report if r.get("kind") == "melee"][0]["casualties"]:
            break
    else:
        pytest.fail("no casualty in 30 seeds")
    flee = [e for e in o.events if e.kind == "flee" and e.data["unit"] == "B:Vileins"]
    assert flee and flee[0].data["why"] == "routs at once"
    v = o.state.unit("B:Vileins")
    assert v.c.fleeing is True
    assert v.zone != s.board.parse("C3")  # it ran, within the same apply()
