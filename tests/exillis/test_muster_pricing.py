"""Ex illis muster points: the seed's golden example, every Shortage row, Common, faction rules,
General promotion, named characters, game types and Battle Points."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core.armylist import ArmyList, ArmyRules, ListedUnit
from rulekeeper.rulesets.exillis.musters_data import MustersData, ShortageBase, load_musters_data
from rulekeeper.rulesets.exillis.pricing import ExIllisArmyRules, MusterReport, round_half_up
from rulekeeper.rulesets.exillis.profiles import Roster, UnitProfile, load_profiles
from rulekeeper.rulesets.exillis.scenario import unit_cost

ROSTER = load_profiles()
DATA = load_musters_data()
RULES = ExIllisArmyRules(ROSTER, DATA)


def army(*units: ListedUnit, game_type: str = "Common", general: str | None = None,
         faction: str | None = None) -> ArmyList:
    return ArmyList(name="Test", ruleset="exillis", game_type=game_type, units=units, general=general,
                    faction=faction)


def line(report: MusterReport, unit: str, entry: int | None = None) -> Any:
    return next(pl for pl in report.lines if pl.line.unit == unit and (entry is None or pl.line.entry == entry))


def test_the_rules_implement_the_core_protocol() -> None:
    rules: ArmyRules = RULES
    a = army(ListedUnit("Billmen", level=3))
    assert [c.total for c in rules.cost(a)] == [pl.line.total for pl in RULES.report(a).lines]
    assert rules.problems(a) == []


# -- basic cost -----------------------------------------------------------------------------------


def test_golden_six_billmen_at_level_8_cost_52() -> None:
    """Seed: "Unit's Cost = 40 x 1.7411 x (6/8)  Unit's Cost = 52"."""
    assert 2 ** (8 / 10) == pytest.approx(1.7411, abs=5e-5)
    assert unit_cost(40, 8, 6, 8) == 52
    report = RULES.report(army(ListedUnit("Billmen", miniatures=6, level=8), ListedUnit("Longbowmen", level=8)))
    billmen = line(report, "Billmen")
    assert billmen.line.base == 52 and (billmen.miniatures, billmen.full, billmen.level) == (6, 8, 8)
    assert billmen.line.steps[0] == "basic 40 x 2^(8/10) x 6/8 = 52.23 -> 52"


def test_level_1_is_read_literally_and_rounding_is_half_up() -> None:
    assert unit_cost(40, 1, 8, 8) == 43  # 40 x 2^(1/10) = 42.87
    assert unit_cost(24, 10, 8, 8) == 48  # doubles every ten levels
    assert round_half_up(52.5) == 53 and round_half_up(52.49) == 52 and round_half_up(0.5) == 1


def test_partial_units_cost_in_proportion_the_seed_longbowmen_example() -> None:
    """Seed: "if 8 Longbowmen cost 40 points, a unit of only 5 miniatures costs 25 points"."""
    assert 40 * 5 / 8 == 25
    assert unit_cost(56, 1, 5, 8) == round_half_up(56 * 2 ** 0.1 * 5 / 8)


def test_a_hero_is_priced_on_its_own_line_in_its_own_categories() -> None:
    report = RULES.report(army(ListedUnit("Billmen", level=3, attached="Decurion", attached_level=3)))
    hero = line(report, "Decurion")
    assert hero.role == "hero" and hero.line.entry == 1 and hero.line.base == unit_cost(36, 3, 1, 1)
    assert hero.categories == ("He", "Mg", "Fs")
    shape = {s.category: s.points for s in report.shape}
    assert shape["He"] == shape["Mg"] == shape["Fs"] == 44 and shape["Me"] == 49


# -- Shortage: every row of the seed's table -------------------------------------------------------

SEED_TABLE = {"Me": (0.50, None), "Sh": (0.50, None), "Mg": (0.33, 0.66), "Fs": (0.33, 0.66),
              "He": (0.25, 0.50), "El": (0.25, 0.50), "Mn": (0.25, 0.50), "Sp": (0.10, 0.20)}


@pytest.mark.parametrize("category", list(SEED_TABLE))
def test_the_shipped_thresholds_are_the_seeds_table(category: str) -> None:
    th = DATA.shortage[category]
    assert (th.first, th.second) == SEED_TABLE[category] and th.source == "seed"


def synthetic(name: str, categories: tuple[str, ...], cost: float, rules: tuple[str, ...] = ()) -> UnitProfile:
    """A one-miniature unit whose basic cost at level 10 (x 2) is exactly ``2 * cost``."""
    base = ROSTER.get("Mangonel")
    stats = {**base.stats, "cost": base.stats["cost"].model_copy(update={"value": cost}),
             "max_level": base.stats["max_level"].model_copy(update={"value": 77.0})}
    return base.model_copy(update={"name": name, "aliases": (), "categories": categories, "special_rules": rules,
                                   "stats": stats})


def shortage_army(category: str, points: float, total: float = 200.0, rules: tuple[str, ...] = ()) -> tuple[
        ArmyRules, ArmyList, ExIllisArmyRules]:
    """``points`` in ``category`` (one unit, listed last) and the rest of ``total`` split between Me and Sh
    fillers kept at or below their 50 % (or all in the other one when ``category`` is Me or Sh)."""
    rest = total - points
    if category in ("Me", "Sh"):
        fillers = [("Sh" if category == "Me" else "Me", rest)]
    else:
        fillers = [("Me", rest / 2), ("Sh", rest / 2)]
    profiles = [synthetic(f"Filler {c}", (c,), p / 2) for c, p in fillers]
    profiles.append(synthetic("Tested", (category,), points / 2, rules))
    rules_obj = ExIllisArmyRules(Roster(profiles), DATA)
    a = army(*(ListedUnit(p.name, level=10) for p in profiles), game_type="Anything Goes")
    return rules_obj, a, rules_obj


# (category, points of 200, expected penalty, expected state): "doubles" past the first threshold
# (one penalty point per point), "triples" past the second (two per point).
SHORTAGE_CASES = [
    ("Me", 100, 0, "green"),     # exactly 50 %: not "exceeding"
    ("Me", 120, 20, "yellow"),   # 20 points past 50 % of 200
    ("Me", 180, 80, "yellow"),   # N/A: Melee never triples
    ("Sh", 120, 20, "yellow"),
    ("Sh", 180, 80, "yellow"),   # N/A: Shooting never triples
    ("Mg", 100, 34, "yellow"),   # 100 - 66
    ("Mg", 160, 66 + 2 * 28, "red"),  # 66..132 doubles, 132..160 triples
    ("Fs", 100, 34, "yellow"),
    ("Fs", 160, 66 + 2 * 28, "red"),
    ("He", 80, 30, "yellow"),
    ("He", 140, 50 + 2 * 40, "red"),
    ("El", 80, 30, "yellow"),
    ("El", 140, 50 + 2 * 40, "red"),
    ("Mn", 80, 30, "yellow"),
    ("Mn", 140, 50 + 2 * 40, "red"),
    ("Sp", 30, 10, "yellow"),
    ("Sp", 50, 20 + 2 * 10, "red"),
]


@pytest.mark.parametrize(("category", "points", "penalty", "state"), SHORTAGE_CASES)
def test_every_row_of_the_shortage_table(category: str, points: int, penalty: int, state: str) -> None:
    _, a, rules = shortage_army(category, points)
    report = rules.report(a)
    tested = line(report, "Tested")
    assert tested.line.base == points and tested.line.shortage == penalty
    assert tested.line.total == points + penalty and tested.penalised == (penalty > 0)
    assert {s.category: s.state for s in report.shape}[category] == state
    assert all(pl.line.shortage == 0 for pl in report.lines if pl.line.unit != "Tested")
    assert report.total == 200 + penalty and report.shape_total == 200


@pytest.mark.parametrize(("category", "points", "penalty", "state"), SHORTAGE_CASES)
def test_common_halves_every_shortage_penalty(category: str, points: int, penalty: int, state: str) -> None:
    """Seed: "Common: 50% less penalty points are imposed on this unit"."""
    _, a, rules = shortage_army(category, points, rules=("Common",))
    tested = line(rules.report(a), "Tested")
    assert tested.line.shortage == round_half_up(penalty / 2)


def test_the_penalty_goes_to_the_unit_whose_points_pass_the_threshold_in_list_order() -> None:
    first, second = synthetic("First", ("Mg",), 40), synthetic("Second", ("Mg",), 40)
    filler = synthetic("Filler", ("Me",), 40)
    rules = ExIllisArmyRules(Roster([first, second, filler]), DATA)
    report = rules.report(army(*(ListedUnit(n, level=10) for n in ("First", "Second", "Filler")),
                               game_type="Anything Goes"))
    # shape 240, Mg 160 = 67 %: 79.2 .. 158.4 doubles, past 158.4 triples; First holds 0..80
    assert line(report, "First").line.shortage == 1  # 79.2 .. 80
    assert line(report, "Second").line.shortage == round_half_up((158.4 - 80) + 2 * (160 - 158.4))
    assert line(report, "Filler").line.shortage == 0


def test_a_point_in_several_categories_is_charged_once_at_its_highest_rate() -> None:
    both = synthetic("Both", ("Mg", "Fs"), 50)
    filler = synthetic("Filler", ("Me",), 50)
    rules = ExIllisArmyRules(Roster([filler, both]), DATA)
    report = rules.report(army(ListedUnit("Filler", level=10), ListedUnit("Both", level=10),
                               game_type="Anything Goes"))
    # shape 300: Mg and Fs 100 each = 33.3 %, 1 point past 99 in each: charged 1, not 2
    assert line(report, "Both").line.shortage == 1


def test_thresholds_can_be_measured_against_the_army_total_instead() -> None:
    army_data = DATA.model_copy(update={"shortage_base": ShortageBase(value="army", source="user")})
    _, a, _ = shortage_army("Mg", 100)
    report = ExIllisArmyRules(_.roster, army_data).report(a)
    assert report.shortage_base == "army" and line(report, "Tested").line.shortage == 34


def test_the_starter_musters_pay_no_shortage_against_the_shape_but_would_against_the_army_total() -> None:
    brec = army(ListedUnit("Vileins", level=3, attached="Marrenne", attached_level=3),
                ListedUnit("Soffrances", level=3), ListedUnit("Franc Chevalers", level=3),
                ListedUnit("Hobelars", level=3))
    assert sum(pl.line.shortage for pl in RULES.report(brec).lines) == 0
    army_data = DATA.model_copy(update={"shortage_base": ShortageBase(value="army", source="user")})
    assert sum(pl.line.shortage for pl in ExIllisArmyRules(ROSTER, army_data).report(brec).lines) == 95


# -- faction rules ---------------------------------------------------------------------------------


def faction_report(general: str, faction: str, *units: ListedUnit, game_type: str = "Common") -> MusterReport:
    return RULES.report(army(*units, game_type=game_type, general=general, faction=faction))


def test_no_faction_rule_without_a_general() -> None:
    report = RULES.report(army(ListedUnit("Ympes", level=3, attached="Decurion", attached_level=3),
                               faction="Broken Wing"))
    assert all(pl.line.faction == 0 for pl in report.lines) and report.faction is None


def test_fallen_angelic_and_demonic_cost_10_percent_less_papal_special() -> None:
    r = faction_report("Decurion", "Broken Wing", ListedUnit("Ympes", level=3, attached="Decurion", attached_level=3),
                       ListedUnit("Mendicum", level=3), ListedUnit("Billmen", level=3), ListedUnit("Longbowmen", level=3))
    ympes, decurion = line(r, "Ympes"), line(r, "Decurion")
    assert ympes.line.total == round_half_up((ympes.line.base + ympes.line.shortage) * 0.9)
    assert decurion.line.total == round_half_up(decurion.line.base * 0.9)
    assert "Sp" in line(r, "Mendicum").categories and "Sp" not in line(r, "Billmen").categories


def test_celestial_army_angelic_15_percent_less_demonic_and_fleaudian_special() -> None:
    r = faction_report("Decurion", "Legio Sancti", ListedUnit("Billmen", level=3, attached="Decurion",
                                                              attached_level=3),
                       ListedUnit("Evocati", level=3), ListedUnit("Ympes", level=3), ListedUnit("Soffrances", level=3))
    assert line(r, "Evocati").line.faction < 0 and line(r, "Decurion").line.faction < 0
    assert "Sp" in line(r, "Ympes").categories and "Sp" in line(r, "Soffrances").categories
    evocati = line(r, "Evocati")
    assert evocati.line.total == round_half_up((evocati.line.base + evocati.line.shortage) * 0.85)


def test_celtic_traditions_celtic_15_percent_less_papal_and_angelic_special() -> None:
    r = faction_report("Marrenne", "Brec'Helean", ListedUnit("Vileins", level=3, attached="Marrenne",
                                                             attached_level=3),
                       ListedUnit("Soffrances", level=3), ListedUnit("Mendicum", level=3), ListedUnit("Evocati", level=3))
    soff = line(r, "Soffrances")
    assert soff.line.total == round_half_up((soff.line.base + soff.line.shortage) * 0.85)
    assert line(r, "Marrenne").line.faction < 0 and line(r, "Vileins").line.faction == 0
    assert "Sp" in line(r, "Mendicum").categories and "Sp" in line(r, "Evocati").categories


def test_fallen_honour_fallen_angels_pay_no_penalty_humans_are_special() -> None:
    vileins = [ListedUnit("Vileins", level=10) for _ in range(10)]
    r = faction_report("Lucifer", "Luciferi", ListedUnit("Lucifer"), *vileins)
    lucifer = line(r, "Lucifer")
    assert lucifer.role == "loner" and lucifer.line.shortage == 0
    assert any("Fallen Honour" in s and "x 0" in s for s in lucifer.line.steps)
    assert all("Sp" in pl.categories for pl in r.lines if pl.line.unit == "Vileins")
    assert {s.category: s.state for s in r.shape}["Sp"] == "red"
    assert line(r, "Vileins", entry=11).line.shortage > 0


def test_endless_blades_nephilim_cost_20_percent_more() -> None:
    r = faction_report("Decurion", "Gesellschaft", ListedUnit("Billmen", level=3, attached="Decurion",
                                                              attached_level=3),
                       ListedUnit("Nephilim", level=3), ListedUnit("Longbowmen", level=3), ListedUnit("Vileins", level=3))
    neph = line(r, "Nephilim")
    assert neph.line.total == round_half_up((neph.line.base + neph.line.shortage) * 1.2)
    assert line(r, "Billmen").line.faction == 0


def test_french_crown_half_penalty_for_franc_chevalers_and_french_or_generic_discount() -> None:
    r = faction_report("Knight Baneret", "French Crown", ListedUnit("Longbowmen", level=3),
                       ListedUnit("Franc Chevalers", level=3, attached="Knight Baneret", attached_level=3),
                       ListedUnit("Franc Chevalers", level=3), ListedUnit("Franc Chevalers", level=3),
                       ListedUnit("Mangonel", level=3), ListedUnit("Arbalestiers", level=3))
    fc = [pl for pl in r.lines if pl.line.unit == "Franc Chevalers"]
    assert any(pl.line.shortage > 0 for pl in fc)
    assert all(any("Shortage penalty x 0.5" in s for s in pl.line.steps) for pl in fc)
    assert line(r, "Mangonel").line.faction < 0  # Generic special rule
    assert line(r, "Arbalestiers").line.faction < 0  # French tag
    assert line(r, "Longbowmen").line.faction == 0  # English


def test_general_promotion_is_a_line_of_its_own() -> None:
    r = faction_report("Decurion", "Broken Wing", ListedUnit("Billmen", level=3, attached="Decurion",
                                                             attached_level=3))
    promo = line(r, "Decurion (General promotion)")
    assert promo.role == "promotion" and promo.line.total == round_half_up(0.1 * 44) == 4
    assert r.total == sum(pl.line.total for pl in r.lines)
    no_promo = faction_report("Decurion", "Lux Dei", ListedUnit("Billmen", level=3, attached="Decurion",
                                                                attached_level=3))
    assert all(pl.role != "promotion" for pl in no_promo.lines)


def test_a_general_with_one_faction_brings_it_without_being_told() -> None:
    r = RULES.report(army(ListedUnit("Lucifer"), general="Lucifer"))
    assert r.faction == "Luciferi" and any("only faction" in n for n in r.notes)


# -- named characters, game types, Battle Points ---------------------------------------------------


@pytest.mark.parametrize(("game_type", "level"), [("Common", 10), ("Grand", 20), ("Heroic", 30), ("Legendary", 40),
                                                  ("Epic", 40), ("Anything Goes", 40)])
def test_william_wallace_plays_at_the_highest_level_the_game_allows(game_type: str, level: int) -> None:
    assert RULES.effective_level("William Wallace", 3, game_type) == level
    r = RULES.report(army(ListedUnit("Billmen", level=max(1, level - 1) if game_type != "Anything Goes" else 5,
                                     attached="Wallace", attached_level=7), game_type=game_type))
    wallace = line(r, "William Wallace")
    assert wallace.level == level and wallace.line.base == unit_cost(42, level, 1, 1)
    assert any("named Character" in n for n in r.notes)
    assert not [p for p in r.problems if p.unit == "William Wallace"]


def test_ordinary_units_keep_their_level() -> None:
    assert RULES.effective_level("Billmen", 7, "Grand") == 7


def test_game_types_are_the_seeds() -> None:
    seen = {g.name: (g.min_level, g.max_level, g.earns_bp) for g in DATA.game_types}
    assert seen == {"Common": (1, 10, True), "Grand": (10, 20, True), "Heroic": (20, 30, True),
                    "Legendary": (30, 40, True), "Epic": (40, 50, True), "Homeric": (50, 60, True),
                    "Cataclysmic": (60, 70, True), "Anything Goes": (1, 77, False)}
    assert RULES.game_type("anything  goes").name == "Anything Goes"
    with pytest.raises(ValueError, match="Did you mean 'Heroic'"):
        RULES.game_type("Heroik")


@pytest.mark.parametrize(("count", "bp"), [(0, 0), (4, 0), (5, 1), (6, 1), (7, 2), (9, 2), (10, 3), (13, 3),
                                           (14, 4), (18, 4), (19, 5), (40, 5)])
def test_battle_points_table(count: int, bp: int) -> None:
    assert DATA.battle_points.bp_for(count) == bp


def test_the_seeds_battle_points_example() -> None:
    """Seed: "6 units and 2 Heroes (so 2 BP) ... 8 units and 2 Heroes (so 3 BP)"."""
    def of(units: int) -> ArmyList:
        heroes = ["Decurion", "Marrenne"]
        return army(*(ListedUnit("Vileins", attached=heroes[i] if i < 2 else None) for i in range(units)))
    assert RULES.battle_points(of(6)) == 2 and RULES.battle_points(of(8)) == 3
    assert RULES.report(of(6)).units_and_heroes == 8


def test_anything_goes_earns_no_battle_points() -> None:
    a = army(*(ListedUnit("Vileins") for _ in range(8)), game_type="Anything Goes")
    r = RULES.report(a)
    assert r.battle_points == 2 and not r.earns_bp and RULES.battle_points(a) == 0


def test_every_roster_unit_and_hero_has_origin_data_and_every_hero_factions() -> None:
    for p in ROSTER:
        origin = DATA.origin(p.name)
        assert origin is not None and origin.tags, p.name
        if p.kind == "hero":
            assert DATA.hero_factions(p.name), p.name


def test_estimates_in_the_data_explain_themselves() -> None:
    data: MustersData = DATA
    rows: list[Any] = [*data.origins.values(), *data.factions.values(), *data.faction_rules.values(),
                       *data.named_characters.values(), data.shortage_base]
    assert all(r.why.strip() for r in rows if r.source == "estimated")
    assert data.faction_rules["Celestial Army"].source == "seed"
    assert data.faction_rules["French Crown"].source == "estimated"
