"""Morale: casualty penalty, Intimidation table, sensitivity, states, routing."""

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.rulesets.exillis.aftermath import Death, StaticModifier, apply_morale
from rulekeeper.rulesets.exillis.fatigue import initiative, morale_sensitivity, thresholds
from rulekeeper.rulesets.exillis.melee import MeleeContext, resolve_round
from rulekeeper.rulesets.exillis.morale import (
    casualty_penalty,
    flank_penalty,
    intimidation_modifier,
    morale_state,
)
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.setup import UnitSpec, build, load_tables

TABLES = load_tables()
OPTS = ExIllisOptions()


def test_casualty_penalty_formula() -> None:
    """'Morale penalty = (Bulk of casualty / Total friendly bulk in the zone) x 80'."""
    assert casualty_penalty(2, 16) == pytest.approx(-10.0)
    assert casualty_penalty(4, 16) == pytest.approx(-20.0)


@pytest.mark.parametrize(
    ("ratio", "modifier"),
    [(0.25, -60), (0.33, -40), (0.5, -20), (0.66, -10), (1, 0), (1.5, 10), (2, 20), (3, 40), (4, 60),
     (0.1, -60), (9, 60), (1.2, 0), (0.8, 0), (2.5, 20), (0.4, -20)],
)
def test_intimidation_table_rows_and_step_reading(ratio: float, modifier: float) -> None:
    """Every row of the seed's 'Intimidation result / Morale modifier' table."""
    assert intimidation_modifier(ratio * 100, 100, OPTS) == pytest.approx(modifier)


def test_intimidation_interpolation_option() -> None:
    opts = ExIllisOptions(intimidation_lookup="interpolate")
    assert intimidation_modifier(250, 100, opts) == pytest.approx(30)


@pytest.mark.parametrize(
    ("charger", "victim", "rear", "penalty"),
    [(10, 20, False, 0), (15, 20, False, -10), (20, 20, False, -20), (25, 20, False, -30), (30, 20, False, -40),
     (35, 20, False, -50), (40, 20, False, -60), (60, 20, False, -60), (10, 20, True, -10), (20, 20, True, -40)],
)
def test_flank_and_rear_penalty_table(charger: float, victim: float, rear: bool, penalty: float) -> None:
    """Charger's Intimidation x2 on a flank, x3 from the rear, crossed in the Flank table."""
    assert flank_penalty(charger, victim, rear, OPTS) == pytest.approx(penalty)


@pytest.mark.parametrize(
    ("points", "state"),
    [(240, "Overconfident"), (180, "Overconfident"), (179, "Confident"), (120, "Confident"), (119, "Neutral"),
     (60, "Neutral"), (59, "Shaky"), (0, "Shaky"), (-1, "Broken"), (-60, "Broken")],
)
def test_standard_morale_states(points: float, state: str) -> None:
    """Overconfident 180-240, Confident 120-179, Neutral 60-119, Shaky 0-59, Broken -1 to -60."""
    assert morale_state(points) == state


def test_sensitivity_grows_per_threshold_in_both_readings() -> None:
    """'+20% for every threshold' (default) vs 'multiplied by 1.2' (option compound)."""
    assert thresholds(8, 4) == 3
    assert morale_sensitivity(1.0, 8, 4, OPTS) == pytest.approx(1.6)
    assert morale_sensitivity(1.0, 8, 4, ExIllisOptions(sensitivity_growth="compound")) == pytest.approx(1.728)


def test_initiative_loss_per_threshold_in_both_readings() -> None:
    """'lowers Initiative by 10%' (Turns) vs 'loses 20% of its Initiative' (Fatigue and Veil)."""
    assert initiative(100, 4, 0, OPTS) == pytest.approx(80)
    assert initiative(100, 8, 0, ExIllisOptions(initiative_loss="10")) == pytest.approx(81)


def test_broken_unit_flees_when_a_friend_dies_in_its_zone() -> None:
    """'Broken units will Rout the next time a friendly model dies in their zone.'"""
    taken: set[str] = set()
    vil = build(TABLES, UnitSpec("Vileins", 8, morale=-5), "B", taken)
    bill = build(TABLES, UnitSpec("Billmen", 8, morale=50), "B", taken)
    enemy = build(TABLES, UnitSpec("Franc Chevalers"), "A", taken)
    before = (enemy, vil, bill)
    after_bill = bill.with_hp(0, 0)
    after, changes = apply_morale(before, (enemy, vil, after_bill), [Death("B", bill.key, bill.mini(0), 2)], [], OPTS)
    by = {c.key: c for c in after}
    assert by["Vileins"].fleeing
    assert not by["Billmen"].fleeing


def test_casualty_that_breaks_a_unit_routs_it_only_with_the_option() -> None:
    taken: set[str] = set()
    vil = build(TABLES, UnitSpec("Vileins", 8, morale=2), "B", taken)
    enemy = build(TABLES, UnitSpec("Franc Chevalers"), "A", taken)
    death = [Death("B", vil.key, vil.mini(0), 2)]
    after = (enemy, vil.with_hp(0, 0))
    default, _ = apply_morale((enemy, vil), after, death, [], OPTS)
    assert default[1].morale < 0 and not default[1].fleeing
    yes, _ = apply_morale((enemy, vil), after, death, [], ExIllisOptions(rout_on_breaking_casualty="yes"))
    assert yes[1].fleeing


def test_broken_unit_flees_on_a_static_penalty_but_not_on_friendly_fire() -> None:
    """'If a unit is already Broken and suffers any static negative morale modifiers, it will become Fleeing.'"""
    vil = build(TABLES, UnitSpec("Vileins", 8, morale=-1), "B", set())
    after, _ = apply_morale((vil,), (vil,), [], [StaticModifier(vil.key, -5, "friendly fire", static=False)], OPTS)
    assert not after[0].fleeing
    after, _ = apply_morale((vil,), (vil,), [], [StaticModifier(vil.key, -10, "flank charge")], OPTS)
    assert after[0].fleeing


def test_flank_charge_applies_static_penalty_in_a_resolution() -> None:
    taken: set[str] = set()
    z = (build(TABLES, UnitSpec("Franc Chevalers"), "A", taken), build(TABLES, UnitSpec("Vileins"), "B", taken))
    r = resolve_round(z, "Franc Chevalers", MeleeContext(TABLES.rules, action="charge", direction="flank"), Fate.from_seed(1))
    assert any(s.unit == "Vileins" and "flank" in s.reason for s in r.statics)
    assert any(s.unit == "Vileins" and "Heavy Cavalry Charge" in s.reason and s.amount == -16 for s in r.statics)
