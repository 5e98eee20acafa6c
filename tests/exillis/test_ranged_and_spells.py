"""Ranged attacks and spells: visibility, own zone, range, moving targets, resist, chains."""

import math
from collections import Counter

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import ImpossibleRequestError, UnknownNameError
from rulekeeper.rulesets.exillis.asymptotic import ar25
from rulekeeper.rulesets.exillis.ranged import Crossed, ShotSetup, resolve_volley, shot_odds, visibility
from rulekeeper.rulesets.exillis.setup import UnitSpec, build, load_tables
from rulekeeper.rulesets.exillis.spells import cast_odds, chain_multiplier, chain_step, resolve_cast

T = load_tables()


def setup(shooter: str = "Longbowmen", targets=(("Vileins", 8, False),), distance: int = 2, action: str = "shot",
          terrain: str = "fields", crossed=(), allies=()) -> ShotSetup:
    taken: set[str] = set()
    s = build(T, UnitSpec(shooter), "A", taken)
    zone = [build(T, UnitSpec(n, k, moved=m), "B", taken) for n, k, m in targets]
    zone += [build(T, UnitSpec(n, k), "A", taken) for n, k in allies]
    if distance == 0:
        zone.append(s)
    return ShotSetup(s, tuple(zone), terrain, tuple(crossed), distance, action, T.rules)


def test_visibility_formula_counts_only_the_crossed_portion() -> None:
    """'Visibility = 1 - (Total Bulk / 64)'; 'affected only by this portion'."""
    assert visibility((Crossed(1.0, 32),), T.rules)[0] == pytest.approx(0.5)
    assert visibility((Crossed(0.5, 32),), T.rules)[0] == pytest.approx(0.75)
    assert visibility((Crossed(1.0, 0, "forests"),), T.rules)[0] == pytest.approx(0.25)
    assert visibility((Crossed(1.0, 0, "obstacles"),), T.rules)[0] == 0.0


def test_moving_targets_take_half_the_space() -> None:
    """'units which moved during their last turn. Their Bulk is halved'."""
    still = shot_odds(setup()).weights["Enemy space"]
    moving = shot_odds(setup(targets=(("Vileins", 8, True),))).weights["Enemy space"]
    assert moving == pytest.approx(still / 2)


def test_own_zone_shooting_halves_accuracy_and_is_refused_when_engaged() -> None:
    """'Ranged Accuracy is divided by 2 when shooting in the unit's own zone'; 'a shooter cannot
    shoot in his own zone when he is stuck in close combat' (Arbalestiers may, per the wiki)."""
    with pytest.raises(ImpossibleRequestError):
        shot_odds(setup("Longbowmen", distance=0))
    far = shot_odds(setup("Arbalestiers", distance=1)).weights["Accurate Shot"]
    own = shot_odds(setup("Arbalestiers", distance=0)).weights["Accurate Shot"]
    assert own == pytest.approx(far / 2)


def test_shot_at_range_3_is_refused() -> None:
    with pytest.raises(ImpossibleRequestError, match="range 3"):
        shot_odds(setup(distance=3))
    with pytest.raises(ImpossibleRequestError, match="no ranged attack"):
        shot_odds(setup("Billmen", distance=1))


def test_cover_and_free_space() -> None:
    """'a zone containing fences adds 16 covered spaces'; 'Forest zones offer 48'."""
    o = shot_odds(setup(terrain="forests"))
    assert o.weights["Cover"] == 48 and o.weights["Free space"] == 80 - 16


def test_basic_shot_has_no_bad_luck_but_aim_has() -> None:
    assert dict(shot_odds(setup()).odds)["Bad Luck"] == 0.0
    assert dict(shot_odds(setup(action="aim")).odds)["Bad Luck"] == pytest.approx(0.05)


def test_missile_block_halved_in_melee() -> None:
    """'The chances to block a missile are halved if the unit is in a melee.'"""
    alone = shot_odds(setup(targets=(("Serjants", 8, False),))).block["Serjants (Spear)"]
    melee = shot_odds(setup(targets=(("Serjants", 8, False),), allies=(("Billmen", 5),))).block["Serjants (Spear)"]
    assert alone == pytest.approx(0.5) and melee == pytest.approx(0.25)


def test_friendly_fire_costs_5_morale_per_ally_hit() -> None:
    s = setup(targets=(("Vileins", 1, False),), allies=(("Billmen", 8),))
    for seed in range(60):
        r = resolve_volley(s, Fate.from_seed(seed))
        ff = sum(1 for x in r.shots if x.outcome == "Friendly fire")
        if ff:
            bill = next(m for m in r.morale if m.unit == "Billmen")
            assert sum(1 for why in bill.reasons if "friendly fire" in why) == ff
            return
    pytest.fail("no friendly fire in 60 seeds")


def test_volley_monte_carlo_matches_exact_where_odds() -> None:
    s = setup(targets=(("Vileins", 8, False), ("Soffrances", 2, False)), allies=(("Billmen", 5),), terrain="fences")
    o = dict(shot_odds(s).odds)
    fate = Fate.from_seed(5)
    n = 20_000
    seen: Counter[str] = Counter()
    req = None
    from rulekeeper.core.chance import discrete

    req = discrete("where", list(o.items()))
    for _ in range(n):
        seen[fate.draw(req).outcome] += 1
    for k, p in o.items():
        assert abs(seen[k] - n * p) <= 4 * math.sqrt(n * p * (1 - p)) + 1e-9


def test_swift_shot_shoots_twice_per_miniature() -> None:
    r = resolve_volley(setup(action="swift_shot"), Fate.from_seed(3))
    assert len(r.shots) == 16
    assert r.fatigue.gained == pytest.approx(4 * T.roster.get("Longbowmen").stat("fatigue_rate"))


def test_magical_projectile_ignores_armour() -> None:
    """'Armour does not offer any protection against magical damage.'"""
    o = shot_odds(setup("Ympes", targets=(("Franc Chevalers", 4, False),), distance=1, action="firebolt"))
    assert o.magical
    fc = T.roster.get("Franc Chevalers")
    ympe = T.roster.get("Ympes")
    power = T.rules.spell("firebolt").power.value
    assert o.final["Franc Chevalers"] == pytest.approx(power * ar25(ympe.stat("mag"), fc.resistance("fire")))


def test_resist_chance_from_ar25_and_symmetric_at_equal_stats() -> None:
    taken: set[str] = set()
    c = build(T, UnitSpec("Ympes"), "A", taken)
    t = build(T, UnitSpec("Vileins"), "B", taken)
    o = cast_odds(c, t, "firebolt", 1, T.rules, __import__("rulekeeper.rulesets.exillis.options", fromlist=["x"]).ExIllisOptions())
    mag, res = c.stat("mag"), t.profile.resistance("fire")
    hit = ar25(mag, res) / (ar25(mag, res) + ar25(res, mag))
    assert dict(o.odds)["Spell hit"] == pytest.approx(hit)
    assert ar25(10, 10) / (ar25(10, 10) + ar25(10, 10)) == 0.5


def test_elemental_chain_compounds_ten_percent() -> None:
    """'the damage increases exponentially by 10% for each successful chain'."""
    order = T.rules.chain_order.value
    state = ("", 0)
    state = chain_step(order, state, order[0])
    assert state == (order[0], 0)
    state = chain_step(order, state, order[1])
    state = chain_step(order, state, order[2])
    assert state == (order[2], 2)
    assert chain_multiplier(2) == pytest.approx(1.21)
    assert chain_step(order, state, order[0]) == (order[0], 0)
    with pytest.raises(UnknownNameError):
        chain_step(order, state, "plasma")


def test_spell_out_of_range_or_on_immune_unit_is_refused() -> None:
    from rulekeeper.rulesets.exillis.options import ExIllisOptions

    taken: set[str] = set()
    c = build(T, UnitSpec("Ympes"), "A", taken)
    t = build(T, UnitSpec("Vileins"), "B", taken)
    with pytest.raises(ImpossibleRequestError, match="range 3"):
        cast_odds(c, t, "firebolt", 3, T.rules, ExIllisOptions())
    immune = [p for p in T.roster.all() if p.immune]
    if immune:
        p = immune[0]
        victim = build(T, UnitSpec(p.name), "B", set())
        with pytest.raises(ImpossibleRequestError, match="immune"):
            cast_odds(c, victim, next(s for s, sp in T.rules.spells.items() if sp.element in p.immune), 1, T.rules, ExIllisOptions())


def test_cast_resolution_is_reproducible() -> None:
    from rulekeeper.rulesets.exillis.options import ExIllisOptions

    taken: set[str] = set()
    c = build(T, UnitSpec("Ympes"), "A", taken)
    t = build(T, UnitSpec("Vileins"), "B", taken)
    a = resolve_cast(c, (t,), t.key, "firebolt", 1, T.rules, ExIllisOptions(), Fate.from_seed(4)).to_dict()
    b = resolve_cast(c, (t,), t.key, "firebolt", 1, T.rules, ExIllisOptions(), Fate.from_seed(4)).to_dict()
    assert a == b and len(a["casts"]) == c.count
