"""The preview of a fight shows the whole fray's outcome (issue 24): "the preview of a fight shows the kill odds,
not only the initiative dice" — even for a fray too large for exact odds."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.fray import exact_fray_odds, fray_method, fray_monte_carlo
from rulekeeper.rulesets.confrontation.fray_whole import fray_ends
from rulekeeper.rulesets.confrontation.skirmish import fray_of, group_of
from rulekeeper.rulesets.confrontation.state import SkirmishState

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"


def fight_state(g: Game, pairs: list[tuple[str, str]]) -> SkirmishState:
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=3)).document))
    assert isinstance(state, SkirmishState)
    engaged: dict[str, list[str]] = {}
    for a, b in pairs:
        engaged.setdefault(a, []).append(b)
        engaged.setdefault(b, []).append(a)
    fighters = tuple(replace(f, engaged=tuple(engaged.get(f.key, ())), activated=True) for f in state.fighters)
    return replace(state, fighters=fighters, phase="combat", to_act="A")


def test_a_five_fighter_fray_previews_its_kill_odds_by_the_numpy_kernel(g: Game) -> None:
    """Regression: a fray too large for exact odds previewed only "wins initiative" (issue 24); it now previews
    the kernel's estimate (issue 27), which agrees with the engine's own resolutions within 4 sigma."""
    s = fight_state(g, [("Alahan swordsman", "Wolfen hunter"), ("Alahan guard", "Wolfen hunter"),
                        ("Alahan guard", "Wolfen predator"), ("Alahan paladin", "Wolfen predator")])
    fight = next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "fight")
    group = group_of(s, s.fighter(str(fight["fighter"])))
    assert group is not None and len(group[0]) + len(group[1]) == 5
    fray = fray_of(group, s)
    assert fray_method(fray, "auto") == "monte-carlo"
    head = g.preview(s, fight).headline_dict()
    # one level of brackets: "(10,000 frays played side by side (numpy kernel, seed 27))" nested two (played as a user)
    assert str(head["odds"]) == "estimate, ±1.0 % (10,000 frays played side by side by the numpy kernel, seed 27)"
    assert not any(label.startswith("side ") for label in head)  # each side by its name, as its initiative line
    ends = fray_ends(fray).odds
    mc = fray_monte_carlo(fray, 1500, 24)
    flat = [*group[0], *group[1]]
    for at, f in enumerate(flat):
        p = sum(q for e, q in ends.items() if e[at] == "killed")
        assert head[f"{f.key} killed"] == pytest.approx(p)
        sampled = sum(q for e, q in mc.odds.items() if e[at] == "killed")
        assert abs(sampled - p) <= 4 * (p * (1 - p) * (1 / 1500 + 1 / 10_000)) ** 0.5 + 1e-9, f.key
    a_wins = sum(p for e, p in ends.items() if e[3] == e[4] == "killed")
    assert head[f"{s.name('A')} kill every enemy in the fight"] == pytest.approx(a_wins)
    assert 0 < float(head["no one killed"]) < 1
    assert g.preview(s, fight).headline_dict() == head  # seeded: the same state shows the same odds


def test_a_duel_previews_exact_whole_outcome_odds(g: Game) -> None:
    s = fight_state(g, [("Alahan guard", "Wolfen hunter")])
    fight = next(lg.action for lg in g.legal_actions(s) if lg.action["kind"] == "fight")
    group = group_of(s, s.fighter("Alahan guard"))
    assert group is not None
    exact = exact_fray_odds(fray_of(group, s))
    head = g.preview(s, fight).headline_dict()
    assert head["odds"] == "exact"
    assert head[f"{s.name('A')} kill every enemy in the fight"] == pytest.approx(float(sum((p for e, p in exact.items()
                                                                                     if e[1] == "killed"),
                                                                                    Fraction(0))), abs=1e-12)
    assert head["Wolfen hunter killed"] == head[f"{s.name('A')} kill every enemy in the fight"]
    no_one = sum((p for e, p in exact.items() if "killed" not in e), Fraction(0))
    assert head["no one killed"] == pytest.approx(float(no_one), abs=1e-12)
