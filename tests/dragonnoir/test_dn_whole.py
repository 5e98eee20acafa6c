"""The whole result of a Dragon Noir action before it is made (issue 27): every outcome of its dice run through
the rules ``apply`` resolves with, checked against a seeded Monte Carlo of ``apply`` itself (4 sigma per
outcome)."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.core.whole import whole_odds_of
from rulekeeper.rulesets.dragonnoir.action_types import ACTIONS
from rulekeeper.rulesets.dragonnoir.whole import CHANCY, fell, result_of
from whole_kit import agree, frequencies, outcomes


@pytest.fixture(scope="module")
def g() -> Game:
    found = game("dragonnoir")
    assert isinstance(found, Game)
    return found


def actions_along(g: Game, key: str, kinds: tuple[str, ...], steps: int = 25) -> list[tuple[Any, dict[str, Any]]]:
    """The first legal action of each kind met while the policy plays the scenario ``key``."""
    info = next(s for s in g.scenarios() if s.key == key)
    state = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=5)).document)
    found: dict[str, tuple[Any, dict[str, Any]]] = {}
    for _ in range(steps):
        for lg in g.legal_actions(state):
            kind = str(lg.action["kind"])
            if kind in kinds and kind not in found and whole_odds_of(g, state, lg.action) is not None:
                found[kind] = (state, lg.action)  # a spell countered first draws nothing yet: no whole odds
        if len(found) == len(kinds):
            break
        action = g.policy(state)
        if action is None or g.status(state).over:
            break
        state = g.apply(state, action).state
    return list(found.values())


def test_attacks_shots_and_spells_agree_with_the_engines_apply(g: Game) -> None:
    cases = actions_along(g, "the_ford", ("attack", "shoot", "cast"))
    assert {a["kind"] for _, a in cases} == {"attack", "shoot", "cast"}
    runs = 100
    for state, action in cases:
        whole = whole_odds_of(g, state, action)
        assert whole is not None and whole.method == "exact" and whole.error_bound == 0.0
        side = str(action["side"])
        done = outcomes(g, state, action, runs)
        agree(whole, "result", frequencies(done, lambda out, s=state, a=action: result_of(s, out, ACTIONS.listed(a))), runs)
        agree(whole, "enemies_killed", frequencies(done, lambda out, s=state, w=side: fell(s, out, w, True)), runs)


def test_an_attack_on_one_goblin_reads_the_combat_table(g: Game) -> None:
    """One d10 on the Combat Table: each letter one tenth of the outcomes (the lair's first attack)."""
    state, action = actions_along(g, "the_dragons_lair", ("attack",))[0]
    whole = whole_odds_of(g, state, action)
    assert whole is not None
    assert all(abs(p * 10 - round(p * 10)) < 1e-9 for _, p in whole.measure("result").outcomes)
    assert "10 branches" in whole.note


def test_an_action_without_dice_has_no_whole_odds(g: Game) -> None:
    info = next(s for s in g.scenarios() if s.key == "the_mill_house")
    state = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=5)).document)
    quiet = [lg.action for lg in g.legal_actions(state) if lg.action["kind"] not in CHANCY]
    assert quiet and all(whole_odds_of(g, state, a) is None for a in quiet)


def test_a_counter_and_letting_a_spell_be_show_what_becomes_of_its_target(g: Game) -> None:
    """Seen in the terminal: "Zacharie counters Stunning" showed "what it does: Zacharie: healthy 100 %" (the
    counterer, whom no die touches) and "The Exiles let Shaman cast Stunning on Laberne" "no effect", where the
    player weighs whether Laberne ends stunned. Both now say Laberne's fate, as ``apply`` decides it."""
    info = next(s for s in g.scenarios() if s.key == "the_ford")
    state = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=5)).document)
    for _ in range(60):  # the Exiles' and the Orks' first spells cast at once, until one waits for an answer
        legal = g.legal_actions(state)
        if any(lg.action["kind"] == "counter" for lg in legal):
            break
        state = g.apply(state, next((lg.action for lg in legal if lg.action["kind"] == "cast"), None)
                        or g.policy(state)).state
    answers = {str(lg.action["kind"]): lg.action for lg in g.legal_actions(state)
               if lg.action["kind"] in ("counter", "let_be")}
    assert set(answers) == {"counter", "let_be"}
    target = state.pending.options[0]  # type: ignore[attr-defined]
    runs = 100
    for kind, action in answers.items():
        whole = whole_odds_of(g, state, action)
        assert whole is not None
        shown = dict(whole.measure("result").outcomes)
        assert set(shown) == {f"{target}: healthy", f"{target}: stunned"}, (kind, shown)
        done = outcomes(g, state, action, runs)
        agree(whole, "result", frequencies(done, lambda out, a=action: result_of(state, out, ACTIONS.listed(a))), runs)
    countered = dict(whole_odds_of(g, state, answers["counter"]).measure("result").outcomes)  # type: ignore[union-attr]
    let_be = dict(whole_odds_of(g, state, answers["let_be"]).measure("result").outcomes)  # type: ignore[union-attr]
    assert countered[f"{target}: stunned"] < let_be[f"{target}: stunned"]  # a counter that may stop it helps
