"""Shooting (issue 24, point 10), on the third-edition rules the issue quotes (docs/rules/confrontation.md,
"Shooting"): "sight over the front 180°, blocked by anything larger than both shooter and target; AIM ≥ 0 to shoot;
three range bands per weapon, short range difficulty 4 (medium and long estimated); +1 to the difficulty after
moving; Bull's-eye adds (final result − difficulty) to the damage Strength"."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.shooting import DIFFICULTY, shot_of, shot_problem
from rulekeeper.rulesets.confrontation.state import SkirmishState
from rulekeeper.rulesets.confrontation.wounds import damage_odds, load_wound_table

MILL = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_mill_race.yaml"
TABLE = load_wound_table()
XBOW, TRACKER, HUNTER, SWORD = "Alahan crossbowman", "Wolfen tracker", "Wolfen hunter", "Alahan swordsman"


def mill(g: Game, seed: int = 3) -> SkirmishState:
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=MILL, seed=seed)).document))
    assert isinstance(state, SkirmishState)
    return replace(state, fighters=tuple(replace(f, braved=99) for f in state.fighters))


def at(state: SkirmishState, key: str, x: float, y: float, facing: float | None = None) -> SkirmishState:
    f = state.fighter(key)
    return state.with_fighters(replace(f, x=x, y=y, facing=f.facing if facing is None else facing))


def test_three_range_bands_short_range_difficulty_4_and_precision(g: Game) -> None:
    """"short range difficulty 4 (medium and long estimated)"; Precision: "The difficulty of shooting at medium and
    long ranges decrease by 1 for such a fighter" (the crossbowman has it: 15/30/45 cm bands)."""
    assert DIFFICULTY == {"short": 4, "medium": 6, "long": 8}
    s = mill(g)
    for x, band, difficulty in ((20.0, "short", 4), (36.0, "medium", 5), (48.0, "long", 7)):
        t = at(s, HUNTER, x, 20.0)
        t = at(t, TRACKER, 48.0, 38.0) if x == 48.0 else t
        shot = shot_of(t, t.fighter(XBOW), t.fighter(HUNTER))
        assert (shot.band, shot.difficulty) == (band, difficulty), shot
    tracker = s.fighter(TRACKER)
    assert "beyond the hunting bow's long range of 30 cm" in str(shot_problem(s, tracker, s.fighter(XBOW)))


def test_sight_is_blocked_by_anything_larger_than_both_and_by_the_scenery(g: Game) -> None:
    s = at(at(mill(g), HUNTER, 26.0, 20.0, 180.0), TRACKER, 40.0, 21.0)
    xbow, hunter = s.fighter(XBOW), s.fighter(HUNTER)
    # the hunter (Large) stands between the crossbowman (Medium) and the swordsman (Medium): he blocks
    s2 = at(s, SWORD, 44.0, 20.0, 180.0)
    assert shot_problem(s2, xbow, s2.fighter(SWORD)) is not None
    assert "not in sight" in str(shot_problem(s2, xbow, s2.fighter(SWORD)))
    # a Medium swordsman between the crossbowman and the Large hunter does not block
    s3 = at(s, SWORD, 16.0, 20.0, 0.0)
    assert shot_problem(s3, s3.fighter(XBOW), hunter) is None
    # the mill blocks; behind his front 180° he sees nothing
    s4 = at(at(s, HUNTER, 24.0, 38.0), XBOW, 24.0, 22.0, 90.0)
    assert "not in sight" in str(shot_problem(s4, s4.fighter(XBOW), s4.fighter(HUNTER)))
    s5 = at(s, XBOW, 30.0, 20.0, 0.0)
    assert "not in sight" in str(shot_problem(s5, s5.fighter(XBOW), s5.fighter(HUNTER)))


def test_aim_must_be_0_or_more(g: Game) -> None:
    """"AIM ≥ 0 to shoot": AIM after the wound penalties."""
    s = at(mill(g), HUNTER, 26.0, 20.0, 180.0)
    xbow = s.fighter(XBOW)
    weak = replace(xbow, card=xbow.card.model_copy(update={"AIM": 2}), hp=1)  # Critical: AIM 2 − 3
    assert "AIM is below 0" in str(shot_problem(s.with_fighters(weak), weak, s.fighter(HUNTER)))
    assert shot_problem(s, xbow, s.fighter(HUNTER)) is None


def test_bulls_eye_adds_the_margin_to_the_damage_strength(g: Game) -> None:
    """Bull's eye: "The fighter can make aimed shots (see page 27) with any weapon he has"; third-edition rules:
    "Bull's-eye adds (final result − difficulty) to the damage Strength" (the tracker has Bull's eye)."""
    s = at(mill(g), XBOW, 34.0, 20.0, 0.0)
    shot = shot_of(s, s.fighter(TRACKER), s.fighter(XBOW))
    assert shot.bulls_eye and shot.band == "short" and shot.difficulty == 4
    assert [shot.strength_for(f) for f in (4, 6, 9)] == [4, 6, 9]
    plain = shot_of(s, s.fighter(XBOW), s.fighter(TRACKER))
    assert not plain.bulls_eye and plain.strength_for(9) == 5
    ends = shot.outcomes(TABLE)
    assert sum(ends.values()) == 1

    def natural(rerolls: int) -> list[tuple[int, Fraction]]:  # a 6 opens, at most 3 re-rolls
        return [(6 + v, p / 6) for v, p in natural(rerolls + 1)] + [(f, Fraction(1, 6)) for f in range(1, 6)] \
            if rerolls < 3 else [(f, Fraction(1, 6)) for f in range(1, 7)]

    # by hand: AIM 3 vs 4, a natural n ≥ 2 hits (final 3 + n, margin n − 1): STR 4 + n − 1 against RES 3
    by_hand: dict[str, Fraction] = {}
    for n, p in natural(0):
        if n < 2:
            by_hand["miss"] = by_hand.get("miss", Fraction(0)) + p
            continue
        for line, q in damage_odds(TABLE, 4 + n - 1, 3).items():
            by_hand[line] = by_hand.get(line, Fraction(0)) + p * q
    assert ends == by_hand


def test_a_shot_is_a_legal_action_with_exact_odds_and_its_draws_are_the_previewed_ones(g: Game) -> None:
    s = replace(at(mill(g), HUNTER, 26.0, 20.0, 180.0), to_act="A")
    shots = [lg for lg in g.legal_actions(s) if lg.action["kind"] == "shoot"]
    assert sorted(str(lg.action["target"]) for lg in shots) == [HUNTER, "Wolfen predator", TRACKER]
    shots.sort(key=lambda lg: lg.cost or 0.0)
    assert shots[0].text == f"{XBOW} shoots {HUNTER} (medium range, 16.9 cm, difficulty 5)"
    assert g.policy(s) == shots[0].action  # autoplay: the keeper's default, the nearest
    preview = g.preview(s, shots[0].action)
    head = preview.headline_dict()
    shot = shot_of(s, s.fighter(XBOW), s.fighter(HUNTER))
    ends = shot.outcomes(TABLE)
    assert head["hits"] == float(1 - ends["miss"]) and head[f"{HUNTER} killed"] == float(ends.get(
        "Killed outright", Fraction(0)))
    hits = 0
    for seed in range(12):
        state = replace(s, rng=mill(g, seed).rng)
        out = g.apply(state, shots[0].action)
        assert out.chance[0].request == preview.draws[0]
        if len(out.chance) > 1:
            hits += 1
            final = int(out.chance[0].outcome.split()[1]) + shot.aim + shot.shape.modifier
            assert out.chance[1].request == shot.damage(TABLE, final)
        assert out.state.fighter(XBOW).activated
    assert hits >= 5
    hidden = at(s, "Wolfen predator", 32.5, 31.0)  # behind the mill
    with pytest.raises(IllegalActionError, match="cannot shoot"):
        g.apply(hidden, {"kind": "shoot", "side": "A", "fighter": XBOW, "target": "Wolfen predator"})
    with pytest.raises(IllegalActionError, match="has no ranged weapon"):
        g.apply(s, {"kind": "shoot", "side": "A", "fighter": SWORD, "target": HUNTER})
    assert g.parse_words(s, ["shoot", *XBOW.split(), *HUNTER.split()]) == shots[0].action


@pytest.mark.parametrize("scenario", ["the_mill_race.yaml", "the_watchtower.yaml"])
def test_the_shooting_scenarios_autoplay_with_shots(g: Game, scenario: str) -> None:
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=MILL.parent / scenario, seed=7)).document))
    assert isinstance(state, SkirmishState)
    s = state
    kinds = set()
    while not g.status(s).over:
        action = g.policy(s)
        assert action is not None
        kinds.add(action["kind"])
        s = g.apply(s, action).state
    assert {"shoot", "charge", "fight"} <= kinds


def test_target_modifies_the_difficulty_of_a_shot_at_him(g: Game) -> None:
    """Target/X: "If a fighter with this ability is targeted by an enemy marksman, then difficulty of his AIM test is
    modified by X (according to its sign)"."""
    s = at(mill(g), HUNTER, 20.0, 20.0, 180.0)
    hunter = s.fighter(HUNTER)
    for x, want in (("+2", 6), ("-1", 3)):
        marked = replace(hunter, card=hunter.card.model_copy(update={"abilities": [*hunter.card.abilities,
                                                                                    f"Target/{x}"]}))
        assert shot_of(s.with_fighters(marked), s.fighter(XBOW), marked).difficulty == want
