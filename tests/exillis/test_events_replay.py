"""A resolution's events, folded over the zone before it, give exactly the zone after it."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.events import Event, fold
from rulekeeper.rulesets.exillis.events import reduce_zone
from rulekeeper.rulesets.exillis.melee import MeleeContext, resolve_round
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.ranged import Crossed, ShotSetup, resolve_volley
from rulekeeper.rulesets.exillis.setup import UnitSpec, build, load_tables
from rulekeeper.rulesets.exillis.spells import resolve_cast

T = load_tables()
MELEE = ["Billmen", "Franc Chevalers", "Vileins", "Serjants (Sword)", "Decurion", "Ympes", "Hobelars"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(MELEE), st.sampled_from(MELEE), st.sampled_from(MELEE), st.integers(0, 10**6),
       st.sampled_from(["fight", "charge"]), st.sampled_from(["front", "flank", "rear"]), st.floats(-40, 100))
def test_melee_events_fold_to_the_zone_after(a: str, d: str, e: str, seed: int, action: str, direction: str, morale: float) -> None:
    taken: set[str] = set()
    zone = (
        build(T, UnitSpec(a), "A", taken),
        build(T, UnitSpec(d, morale=morale), "B", taken),
        build(T, UnitSpec(e), "B", taken),
    )
    r = resolve_round(zone, zone[0].key, MeleeContext(T.rules, ExIllisOptions(), action, direction), Fate.from_seed(seed))
    replayed = fold({c.key: c for c in zone}, r.events, reduce_zone)
    assert replayed == {c.key: c for c in r.zone}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["shot", "aim", "swift_shot", "volley_fire"]), st.booleans())
def test_ranged_events_fold_to_the_zone_after(seed: int, action: str, moved: bool) -> None:
    taken: set[str] = set()
    bows = build(T, UnitSpec("Longbowmen", fatigue=5), "A", taken)
    zone = (
        build(T, UnitSpec("Vileins", 3, moved=moved), "B", taken),
        build(T, UnitSpec("Billmen", 2), "A", taken),
    )
    setup = ShotSetup(bows, zone, "fences", (Crossed(0.5, 16),), 2, action, T.rules)
    r = resolve_volley(setup, Fate.from_seed(seed))
    start = {c.key: c for c in (*zone, bows)}
    replayed = fold(start, r.events, reduce_zone)
    assert {k: replayed[k] for k in (c.key for c in zone)} == {c.key: c for c in r.zone}
    assert replayed[bows.key] == r.shooter_after


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["lightning", "artillery"]), st.booleans())
def test_lightning_and_artillery_events_fold_to_the_zone_after(seed: int, action: str, moved: bool) -> None:
    """Lightning and artillery record every change as zone events too (issue 9: they no longer fall like arrows)."""
    from rulekeeper.rulesets.exillis.shots import resolve_shot

    taken: set[str] = set()
    shooter = build(T, UnitSpec("Ympes" if action == "lightning" else "Mangonel", veil=3), "A", taken)
    zone = (
        build(T, UnitSpec("Vileins", 3, moved=moved), "B", taken),
        build(T, UnitSpec("Billmen", 2), "A", taken),
        build(T, UnitSpec("Franc Chevalers"), "B", taken),
    )
    setup = ShotSetup(shooter, zone, "fences", (), 1, action, T.rules)
    r = resolve_shot(setup, Fate.from_seed(seed))
    replayed = fold({c.key: c for c in (*zone, shooter)}, r.events, reduce_zone)
    assert {k: replayed[k] for k in (c.key for c in zone)} == {c.key: c for c in r.zone}
    assert replayed[shooter.key] == r.shooter_after


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["firebolt", "lightning", "gust"]))
def test_cast_events_fold_to_the_zone_after(seed: int, spell: str) -> None:
    taken: set[str] = set()
    caster = build(T, UnitSpec("Ympes"), "A", taken)
    zone = (build(T, UnitSpec("Vileins", 4), "B", taken), build(T, UnitSpec("Billmen"), "B", taken))
    r = resolve_cast(caster, zone, "Vileins", spell, 1, T.rules, ExIllisOptions(), Fate.from_seed(seed))
    replayed = fold({c.key: c for c in (*zone, caster)}, r.events, reduce_zone)
    assert {c.key: replayed[c.key] for c in zone} == {c.key: c for c in r.zone}


def test_reducer_refuses_unknown_events() -> None:
    taken: set[str] = set()
    zone = {"Billmen": build(T, UnitSpec("Billmen"), "A", taken)}
    import pytest

    with pytest.raises(IllegalActionError):
        reduce_zone(zone, Event("teleport", {}))
    with pytest.raises(IllegalActionError):
        reduce_zone(zone, Event("unit", {"unit": "Nobody", "set": {"hp": [1]}}))
    with pytest.raises(IllegalActionError):
        reduce_zone(zone, Event("unit", {"unit": "Billmen", "set": {"max_hp": 1}}))
