"""Reinforcement (issue 24; the seed's sentence and the third-edition rules: "at each maintenance phase d6, 1–2
removed, 3–4 nothing, 5–6 back within 10 cm of a friend"), docs/rules/confrontation.md, "Reinforcement"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.reinforcement import affected, roll_reinforcements, spot_problem
from rulekeeper.rulesets.confrontation.skirmish import advance
from rulekeeper.rulesets.confrontation.state import SkirmishState

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"
SWORD, GUARD, PALADIN = "Alahan swordsman", "Alahan guard", "Alahan paladin"


def fallen(g: Game) -> SkirmishState:
    """The swordsman and the guard killed, both with Reinforcement; the combat phase over."""
    s = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=7)).document))
    assert isinstance(s, SkirmishState)
    changed = []
    for key in (SWORD, GUARD):
        f = s.fighter(key)
        changed.append(replace(f, killed=True, hp=0, card=f.card.model_copy(
            update={"abilities": [*f.card.abilities, "Reinforcement"]})))
    return replace(s.with_fighters(*changed), phase="combat",
                   fighters=tuple(replace(f, activated=True) for f in s.with_fighters(*changed).fighters))


def rolled(s: SkirmishState, face: int) -> tuple[SkirmishState, list[dict[str, object]]]:
    for seed in range(200):
        fate = Fate.from_seed(seed)
        report: list[dict[str, object]] = []
        out = roll_reinforcements(s, fate, report)
        if fate.records and fate.records[0].outcome == str(face):
            return out, report
    raise AssertionError(f"no seed rolls a {face}")


def test_the_lowest_cost_fighter_with_it_in_the_area_of_losses_is_rolled_for(g: Game) -> None:
    """Reinforcement: "During the maintenance phase, if there is at least one fighter with this ability in the area
    of the losses, roll 1d6. The result affects the fighter whose a.p: cost on the card is the lowest"."""
    s = fallen(g)
    lowest = min((s.fighter(SWORD), s.fighter(GUARD)), key=lambda f: f.card.cost)
    assert affected(s, "A") == lowest and affected(s, "B") is None
    fate = Fate.from_seed(1)
    roll_reinforcements(s, fate, [])
    assert [r.request.label for r in fate.records] == ["Reinforcement: Lions of Alahan"]
    assert [p for _, p in fate.records[0].request.odds()] == pytest.approx([1 / 6] * 6)
    out, report = rolled(s, 3)
    assert out == s and "no effect" in str(report[0]["text"])


def test_one_or_two_lets_his_player_choose_to_remove_him_from_play(g: Game) -> None:
    """Reinforcement: "1, 2 : the player can choose to remove that fighter from play"."""
    s, _ = rolled(fallen(g), 2)
    f = next(f for f in s.fighters if f.returning)
    state = replace(s, phase="maintenance", to_act="A")
    legal = g.legal_actions(state)
    assert [lg.action["kind"] for lg in legal] == ["keep", "remove"] and g.policy(state) == legal[0].action
    out = g.apply(state, legal[1].action).state
    assert out.fighter(f.key).removed and affected(out, "A") != out.fighter(f.key)
    assert out.phase == "tactical" and out.round == 2  # the choice made, the next round begins
    kept = g.apply(state, legal[0].action).state
    assert not kept.fighter(f.key).removed and kept.fighter(f.key).killed


def test_five_or_six_brings_him_back_within_10_cm_of_a_friend_where_his_player_places_him(g: Game) -> None:
    """Reinforcement: "5, 6 : the fighter comes back to the field. He must be placed within 10 cm of a friendly
    fighter"."""
    s, _ = rolled(fallen(g), 6)
    f = next(f for f in s.fighters if f.returning)
    state = replace(s, phase="maintenance", to_act="A")
    legal = g.legal_actions(state)
    assert legal and all(lg.action["kind"] == "return" for lg in legal)
    assert "within 10 cm" in str(spot_problem(state, f, 37.0, 3.0))
    with pytest.raises(IllegalActionError, match="cannot come back there"):
        g.apply(state, {"kind": "return", "side": "A", "fighter": f.key, "to": [37.0, 3.0]})
    with pytest.raises(IllegalActionError, match="does not allow"):
        g.apply(state, {"kind": "remove", "side": "A", "fighter": f.key})
    back = g.apply(state, g.parse_words(state, ["return", *f.key.split(), "5", "13"])).state.fighter(f.key)
    assert (back.x, back.y, back.standing, back.hp) == (5.0, 13.0, True, back.card.HP)  # 2.5 cm from the paladin


def test_a_skirmish_rolls_it_at_the_maintenance_phase(g: Game) -> None:
    s = fallen(g)
    report: list[dict[str, object]] = []
    out = advance(s, Fate.from_seed(5), report)
    assert any(str(r["text"]).startswith("Reinforcement: ") for r in report)
    assert out.phase in ("maintenance", "tactical")
