"""Cure/X in the maintenance phase is its player's choice of whom to cure (cure.py), each rule quoted.

The seed: "Cure/X (active, *): Once per round as a simple action, or during the maintenance phase, a fighter with this
ability can cure a friendly fighter in base—to-base contact with him (he can also cure himself). One d6 is rolled. The
targeted fighter is cured by one LP if the result on the die is equal to or greater than X. … This ability cannot be
used on a target with SP."
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.skirmish import advance
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"
SWORD, GUARD, PALADIN = "Alahan swordsman", "Alahan guard", "Alahan paladin"


def wounded(g: Game, declarations: str = "players") -> SkirmishState:
    """The ford's combat phase over: the guard (Cure/4) and the swordsman in base contact, both wounded; the paladin
    wounded far off."""
    s = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=7,
                                                           options=(f"declarations={declarations}",))).document))
    guard, sword, paladin = s.fighter(GUARD), s.fighter(SWORD), s.fighter(PALADIN)
    guard = replace(guard, hp=guard.card.HP - 1, card=guard.card.model_copy(
        update={"abilities": [*guard.card.abilities, "Cure/4"]}))
    sword = replace(sword, hp=sword.card.HP - 2, x=guard.x + guard.radius + sword.radius, y=guard.y)
    paladin = replace(paladin, hp=paladin.card.HP - 1, x=guard.x, y=guard.y - 20)
    s = s.with_fighters(guard, sword, paladin)
    return replace(s, phase="combat", fighters=tuple(replace(f, activated=True) for f in s.fighters))


def at_maintenance(g: Game, declarations: str = "players") -> tuple[SkirmishState, list[dict[str, object]]]:
    report: list[dict[str, object]] = []
    return advance(wounded(g, declarations), Fate.from_seed(5), report), report


def test_his_player_chooses_whom_he_cures(g: Game) -> None:
    """"can cure a friendly fighter in base-to-base contact with him (he can also cure himself)": himself (the
    keeper's proposal, its old policy), the swordsman in contact, or no one; not the paladin, 20 cm off."""
    s, report = at_maintenance(g)
    assert s.phase == "maintenance" and s.to_act == "A" and g.status(s).acting == (GUARD,)
    assert not any("Alahan guard" in str(r["text"]) and "Maintenance" in str(r["text"]) for r in report)  # not rolled
    offered = g.legal_actions(s)
    assert [lg.action.get("target") for lg in offered] == [GUARD, SWORD, None]
    assert offered[0].text == "Alahan guard cures himself: 1d6, 4+ heals 1 LP (the keeper's proposal)"
    assert state_from_json(state_to_json(s)) == s
    with pytest.raises(IllegalActionError, match="may cure Alahan guard, Alahan swordsman .*, not Alahan paladin"):
        g.apply(s, {"kind": "cure", "side": "A", "fighter": GUARD, "target": PALADIN})
    assert g.parse_words(s, ["cure", "Alahan", "guard", "on", "Alahan", "swordsman"]) == \
        g.parse_action(s, offered[1].action)
    assert g.parse_words(s, ["cure", "Alahan", "guard", "none"]) == g.parse_action(s, offered[2].action)


def test_one_d6_equal_to_or_greater_than_x_cures_one_lp(g: Game) -> None:
    """"One d6 is rolled. The targeted fighter is cured by one LP if the result on the die is equal to or greater
    than X": the preview's draw is the one drawn (odds 3/6 for Cure/4), and the HP follows the face."""
    s, _ = at_maintenance(g)
    action = g.legal_actions(s)[1].action
    shown = g.preview(s, action)
    assert shown.headline == ((f"{SWORD} cured (1 LP)", 0.5),)
    before = s.fighter(SWORD).hp
    faces = set()
    for seed in range(12):
        out = g.apply(replace(s, rng=Fate.from_seed(seed).state), action)
        [drawn] = out.chance
        assert drawn.request == shown.draws[0]
        face = int(drawn.outcome)
        faces.add(face >= 4)
        assert out.state.fighter(SWORD).hp == before + (face >= 4)
        assert out.state.phase == "tactical" and not out.state.fighter(GUARD).curing  # the next round
    assert faces == {True, False}


def test_no_one_cured_draws_nothing(g: Game) -> None:
    s, _ = at_maintenance(g)
    out = g.apply(s, g.legal_actions(s)[-1].action)
    assert not out.chance and out.report[0]["text"] == f"{GUARD} cures no one"
    assert out.state.fighter(SWORD).hp == s.fighter(SWORD).hp and out.state.fighter(GUARD).hp == s.fighter(GUARD).hp


def test_a_curer_in_rout_or_with_no_one_wounded_is_not_asked(g: Game) -> None:
    """Active: "cannot be used by a fighter in rout"; and with no one to cure there is no choice to make."""
    s = wounded(g)
    routed = s.with_fighters(replace(s.fighter(GUARD), rout=7))
    out = advance(routed, Fate.from_seed(5), [])
    assert out.phase != "maintenance" and not out.fighter(GUARD).curing
    healthy = s.with_fighters(*(replace(s.fighter(k), hp=s.fighter(k).card.HP) for k in (GUARD, SWORD)))
    assert advance(healthy, Fate.from_seed(5), []).phase != "maintenance"


def test_a_battle_stored_before_the_choice_cures_himself_among_his_upkeep_rolls(g: Game) -> None:
    """``declarations=keeper``: the old policy (he cures himself), rolled with his upkeep, nothing asked."""
    s, report = at_maintenance(g, "keeper")
    assert s.phase != "maintenance" and any(str(r["text"]).startswith(f"Maintenance: {GUARD}") for r in report)


def activating(g: Game) -> SkirmishState:
    """The same table in the activation phase, side A to act: the guard and side B not yet activated."""
    s = wounded(g)
    return replace(s, phase="activation", to_act="A",
                   fighters=tuple(replace(f, activated=f.side == "A" and f.key != GUARD) for f in s.fighters))


def test_as_a_simple_action_he_cures_at_plus_one_and_not_again_that_round(g: Game) -> None:
    """"Once per round as a simple action, or during the maintenance phase … If this ability is used as a simple
    action, then the fighter gets a +1 bonus to this roll": his activation, 3+ for Cure/4; the maintenance phase
    does not ask him again that round; the next round he may again."""
    s = activating(g)
    cures = [lg for lg in g.legal_actions(s) if lg.action["kind"] == "cure"]
    assert [lg.action["target"] for lg in cures] == [GUARD, SWORD]
    assert cures[1].text == f"{GUARD} cures {SWORD} (simple action, his activation): 1d6, 3+ heals 1 LP"
    shown = g.preview(s, cures[1].action)
    assert shown.headline == ((f"{SWORD} cured (1 LP)", 4 / 6),)
    out = g.apply(s, cures[1].action)
    [drawn] = out.chance
    assert drawn.request == shown.draws[0] and drawn.request.label == f"Cure (simple action, +1): {GUARD} on {SWORD}"
    assert out.state.fighter(SWORD).hp == s.fighter(SWORD).hp + (int(drawn.outcome) >= 3)
    after = out.state
    assert after.fighter(GUARD).activated and after.fighter(GUARD).cure_used
    with pytest.raises(IllegalActionError, match="has already acted this round"):
        g.apply(replace(after, to_act="A"), cures[0].action)  # his activation is over
    ended = advance(replace(after, phase="combat"), Fate.from_seed(5), [])
    assert ended.phase != "maintenance" and not ended.fighter(GUARD).cure_used  # not asked; the next round clears it


def test_an_engaged_curer_has_no_simple_action_to_cure(g: Game) -> None:
    s = activating(g)
    enemy = next(f for f in s.fighters if f.side == "B")
    s = s.with_fighters(replace(s.fighter(GUARD), engaged=(enemy.key,)), replace(enemy, engaged=(GUARD,)))
    assert not [lg for lg in g.legal_actions(s) if lg.action["kind"] == "cure"]
    with pytest.raises(IllegalActionError, match="engaged"):
        g.apply(s, {"kind": "cure", "side": "A", "fighter": GUARD, "target": SWORD})
