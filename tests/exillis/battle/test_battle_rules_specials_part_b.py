"""Rule tests (issue 9, points 6 and 7): Dark Presence casualties and events, diagonal moves'
Fatigue, the Chant's Finale.

Each test quotes the seed sentence it checks (shared/seeds/000_5e8e85320d1136c5.txt).
"""

from __future__ import annotations

import math

from exillis_battle_kit import act, battle, do, kinds, nobody_acts, reports, setc, tables

# -- Dark Presence -----------------------------------------------------------------------------


def _soffrances_with(hp: float):
    s = battle([{"unit": "Soffrances", "zone": "B2"}, {"unit": "Vileins", "zone": "B2"}],
               [{"unit": "Billmen", "zone": "B2"}])
    s = setc(s, "A:Vileins", hp=(hp,) * 8)
    return act(nobody_acts(s), "A:Soffrances")


def test_dark_presence_drain_is_in_the_events():
    """Dark Presence: "Drains 2% of every miniature's life in the same zone." — every HP change is an event."""
    out = do(_soffrances_with(40.0), "wait", "A:Soffrances")
    drained = [e for e in out.events if e.kind == "unit" and str(e.data["cause"]).startswith("Dark Presence")]
    assert {e.data["unit"] for e in drained} == {"A:Vileins", "B:Billmen"}
    vileins = out.state.unit("A:Vileins").c
    assert all(math.isclose(h, 40.0 - vileins.max_hp * 0.02) for h in vileins.hp)


def test_a_dark_presence_kill_is_a_witnessed_casualty():
    """Morale: "Each friendly casualty the unit witnesses causes a morale penalty. The exact calculation is:
    Morale penalty = (Bulk of casualty / Total friendly bulk in the zone) x 80"."""
    healthy = do(_soffrances_with(40.0), "wait", "A:Soffrances").state
    dying = do(_soffrances_with(0.5), "wait", "A:Soffrances")
    assert dying.state.unit("A:Vileins").status == "destroyed"
    soff_after = dying.state.unit("A:Soffrances").c.morale
    assert soff_after < healthy.unit("A:Soffrances").c.morale  # the Soffrances saw 8 Vileins die
    morale = reports(dying, "morale")
    assert any(m["unit"] == "A:Soffrances" and m["change"] < 0 for m in morale)


# -- Diagonal moves --------------------------------------------------------------------------


def test_diagonal_moves_cost_more_fatigue():
    """Companion article "Movement": "Diagonal moves are permitted, but have an added cost in fatigue."."""
    s = act(nobody_acts(battle([{"unit": "Billmen", "zone": "B2"}], [{"unit": "Vileins", "zone": "E4"}])), "A:Billmen")
    straight = do(s, "move", "A:Billmen", "C2").state.unit("A:Billmen").c.fatigue
    diagonal = do(s, "move", "A:Billmen", "C3").state.unit("A:Billmen").c.fatigue
    rate = s.unit("A:Billmen").c.stat("fatigue_rate")
    assert math.isclose(diagonal - straight, tables().rules.num("diagonal_move_fatigue") * rate)


def test_teleporters_pay_no_diagonal_fatigue():
    """Teleport: "Diagonal movements and terrain penalties do not slow down this unit when moving. It
    accumulates Veil instead of Fatigue for all movements."."""
    s = act(nobody_acts(battle([{"unit": "Ympes", "zone": "B2"}], [{"unit": "Vileins", "zone": "E4"}])), "A:Ympes")
    a = do(s, "move", "A:Ympes", "C2").state.unit("A:Ympes").c
    b = do(s, "move", "A:Ympes", "C3").state.unit("A:Ympes").c
    assert a.fatigue == b.fatigue == 0 and a.veil == b.veil


# -- Chant: Verses and the Finale ------------------------------------------------------------


def _mendicum():
    s = battle([{"unit": "Mendicum", "zone": "A1"}, {"unit": "Billmen", "zone": "B2"}], [{"unit": "Vileins", "zone": "E4"}])
    return act(nobody_acts(s), "A:Mendicum")


def test_finale_power_is_proportional_to_the_verses_and_ends_them():
    """Chant: "A Finale's power is proportional to the number of Verses used by this unit, but ends all
    active Verses."."""
    s = _mendicum()
    assert "finale" not in kinds(s)
    before = s.unit("A:Billmen").c.morale
    for _ in range(3):
        s = act(nobody_acts(do(s, "verse", "A:Mendicum").state), "A:Mendicum")
    assert s.unit("A:Mendicum").verses == 3 and "finale" in kinds(s)
    out = do(s, "finale", "A:Mendicum")
    gained = out.state.unit("A:Billmen").c.morale - before  # the Verses' +15 end, the Finale's +15 stays
    assert math.isclose(gained, 3 * tables().rules.num("finale_morale_per_verse") * s.unit("A:Billmen").c.stat("mrls"))
    assert out.state.unit("A:Mendicum").verses == 0


def test_another_action_ends_the_verses():
    """Chant: "Verses' effects are continuous, as long as the unit does not perform any action other than a
    Verse, or becomes engaged."."""
    s = act(nobody_acts(do(_mendicum(), "verse", "A:Mendicum").state), "A:Mendicum")
    assert s.unit("A:Mendicum").verses == 1
    s = do(s, "wait", "A:Mendicum").state
    assert s.unit("A:Mendicum").verses == 0


# -- Leadership: Motives × Affinities ----------------------------------------------------------


def test_longbowmen_led_by_the_broken_wing_receive_15():
    """Stats, Affinities: "the Longbowmen's 'English' Affinity is set to 150% while the Broken Wing Hero has
    an 'English' Motive of 10. A Longbowmen unit led by the Broken Wing Hero will receive a Leadership bonus
    of 15 (10 x 150%)."."""
    from rulekeeper.rulesets.exillis.battle.setup import initial_state
    from rulekeeper.rulesets.exillis.scenario import __file__ as scenario_py
    from rulekeeper.rulesets.exillis.scenario import load_scenario

    path = scenario_py.replace("scenario.py", "data/scenarios/starter.yaml")
    s = initial_state(load_scenario(path), 5, tables())
    assert s.unit("A:Longbowmen").leadership == 15.0  # the Decurion, General of the Broken Wing
    assert s.unit("A:Billmen").leadership == 10.0  # no printed Affinity: the Basic Motive


def test_a_hero_outside_its_faction_gives_only_its_basic_motive():
    """Characters: "All Heroes have a Basic Motive representing their natural charisma. Almost all units will
    benefit from this basic value." — an army not named after one of its hero's factions has no cause."""
    s = battle([{"unit": "Longbowmen", "zone": "A1", "hero": "Decurion"}], [{"unit": "Vileins", "zone": "E4"}])
    assert s.unit("A:Longbowmen").leadership == 10.0
