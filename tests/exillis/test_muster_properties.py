"""Property tests of Ex illis musters: costs monotone in level and size, identical round trips,
validation and pricing that never raise, whatever the muster."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekeeper.core.armylist import ArmyList
from rulekeeper.rulesets.exillis.muster import Muster, MusterEntry, load_muster, save_muster
from rulekeeper.rulesets.exillis.musters_data import load_musters_data
from rulekeeper.rulesets.exillis.pricing import ExIllisArmyRules
from rulekeeper.rulesets.exillis.profiles import load_profiles
from rulekeeper.rulesets.exillis.scenario import unit_cost

ROSTER = load_profiles()
DATA = load_musters_data()
RULES = ExIllisArmyRules(ROSTER, DATA)

UNITS = [p.name for p in ROSTER if p.kind == "unit"]
HEROES = [p.name for p in ROSTER if p.kind == "hero"]
NAMES = st.one_of(st.sampled_from(UNITS), st.sampled_from(HEROES),
                  st.sampled_from([a for p in ROSTER for a in p.aliases]), st.sampled_from(["Vilains", "", "  x  "]))
GAME_TYPES = st.one_of(st.sampled_from([g.name for g in DATA.game_types]), st.sampled_from(["", "common", "Epik"]))
FACTIONS = st.one_of(st.none(), st.sampled_from(list(DATA.factions)), st.just("Nowhere"))
# no control characters but tab and newlines: the bounded reader refuses the others (docs/limits.md)
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc"), whitelist_characters="\t\n\r"), max_size=20)
SMALL = st.integers(min_value=-5, max_value=90)
ANY_INT = st.one_of(SMALL, st.integers(min_value=-(10**30), max_value=10**30))

ENTRIES = st.builds(
    MusterEntry,
    unit=NAMES,
    miniatures=st.one_of(st.none(), ANY_INT),
    level=ANY_INT,
    hero=st.one_of(st.none(), NAMES),
    hero_level=st.none(),
    label=TEXT,
).flatmap(lambda e: st.just(e) if e.hero is None else st.one_of(st.none(), ANY_INT).map(
    lambda hl: e.model_copy(update={"hero_level": hl})))

MUSTERS = st.builds(
    Muster,
    name=TEXT,
    game_type=GAME_TYPES,
    faction=FACTIONS,
    generals=st.lists(st.one_of(st.sampled_from(HEROES), NAMES), max_size=3).map(tuple),
    description=TEXT,
    units=st.lists(ENTRIES, max_size=12).map(tuple),
)


@given(basic=st.floats(min_value=1, max_value=200), level=st.integers(min_value=1, max_value=76),
       full=st.integers(min_value=1, max_value=12), data=st.data())
def test_unit_cost_is_monotone_in_level_and_size(basic: float, level: int, full: int, data: st.DataObject) -> None:
    size = data.draw(st.integers(min_value=1, max_value=full))
    assert unit_cost(basic, level, size, full) <= unit_cost(basic, level + 1, size, full)
    if size < full:
        assert unit_cost(basic, level, size, full) <= unit_cost(basic, level, size + 1, full)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(muster=MUSTERS, data=st.data())
def test_an_entrys_basic_cost_is_monotone_in_its_level_and_size(muster: Muster, data: st.DataObject) -> None:
    army = muster.to_army_list()
    if not army.units:
        return
    i = data.draw(st.integers(min_value=0, max_value=len(army.units) - 1))
    entry = army.units[i]
    profile = ROSTER.find(entry.unit)
    if profile is None or not 1 <= entry.level < 77:
        return
    size = entry.miniatures if entry.miniatures is not None else profile.miniatures
    if not 1 <= size <= profile.miniatures:
        return

    def base(a: ArmyList) -> float:
        return next(c.base for c in RULES.cost(a) if c.entry == i + 1 and c.unit == profile.name)

    before = base(army)
    higher = replace(army, units=(*army.units[:i], replace(entry, level=entry.level + 1), *army.units[i + 1:]))
    assert base(higher) >= before
    if size < profile.miniatures:
        bigger = replace(army, units=(*army.units[:i], replace(entry, miniatures=size + 1), *army.units[i + 1:]))
        assert base(bigger) >= before


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(muster=MUSTERS)
def test_validation_and_pricing_never_raise(muster: Muster) -> None:
    army = muster.to_army_list()
    problems = RULES.problems(army)
    report = RULES.report(army)
    assert list(report.problems) == problems
    assert report.valid == (not problems)
    assert all(p.rule and p.message for p in problems)
    assert report.total == sum(pl.line.total for pl in report.lines)
    for pl in report.lines:
        line = pl.line
        assert line.total == line.base + line.shortage + line.faction and line.shortage >= 0 and line.base >= 0
    assert 0 <= report.battle_points <= 5
    assert report.to_dict()["valid"] == report.valid


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(muster=MUSTERS, suffix=st.sampled_from([".yaml", ".toml"]))
def test_round_trips_are_identical(muster: Muster, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        first, second = Path(tmp) / f"a{suffix}", Path(tmp) / f"b{suffix}"
        save_muster(muster, first)
        loaded = load_muster(first)
        assert loaded == muster
        save_muster(loaded, second)
        assert load_muster(second) == loaded
        assert second.read_bytes() == first.read_bytes()
        assert Muster.from_dict(muster.to_dict()) == muster
