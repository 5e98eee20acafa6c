"""Authority (issue 24): tokens before each Tactical roll, and a drawn roll won with one; docs/rules/confrontation.md,
"The Tactical roll"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.authority import generated, tokens
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"


def ford(g: Game, seed: int, **abilities: list[str]) -> SkirmishState:
    """The ford at its first Tactical roll, ``abilities`` added to fighters (``Alahan_paladin=["Authority"]``)."""
    s = g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=seed)).document)
    assert isinstance(s, SkirmishState)
    changed = []
    for key, more in abilities.items():
        f = s.fighter(key.replace("_", " "))
        changed.append(replace(f, card=f.card.model_copy(update={"abilities": [*f.card.abilities, *more]})))
    return s.with_fighters(*changed)


def test_tokens_one_per_authority_fighter_at_most_x_plus_one_then_cancelled(g: Game) -> None:
    """Authority: "a fighter endowed with this capacity generates an "authority" token. An army cannot have more than
    X+1 such tokens during the same round, where X is the number of Pure Warrior Characters in the army. If both
    armies have Authority tokens, subtract one from each other's reserve until one or both have no tokens left"."""
    s = ford(g, 1, Alahan_paladin=["Authority"], Alahan_guard=["Authority"], Alahan_swordsman=["Authority"])
    assert generated(s, "A") == 2  # three Authority fighters, one Pure Warrior Character (the paladin): X + 1 = 2
    assert (tokens(s, "A"), tokens(s, "B")) == (2, 0)
    both = ford(g, 1, Alahan_paladin=["Authority"], Alahan_guard=["Authority"], Wolfen_hunter=["Authority"])
    assert (tokens(both, "A"), tokens(both, "B")) == (1, 0)


def drawn(g: Game) -> tuple[SkirmishState, SkirmishState]:
    for seed in range(60):
        s = ford(g, seed, Alahan_paladin=["Authority"])
        out = g.apply(s, g.legal_actions(s)[0].action)
        if out.state.drawn:
            return s, out.state
    raise AssertionError("no seed draws the first Tactical roll")


def test_a_drawn_roll_is_won_with_a_token_or_rolled_again_by_its_holder(g: Game) -> None:
    """Authority: "If the Tactical Roll was a Draw, a player can use a token to win the Tactical Roll"."""
    before, s = drawn(g)
    assert (s.phase, s.to_act) == ("tactical", "A") and state_from_json(state_to_json(s)) == s
    legal = g.legal_actions(s)
    assert [lg.action["kind"] for lg in legal] == ["authority", "tactical"] and g.policy(s) == legal[0].action
    won = g.apply(s, legal[0].action)
    assert (won.state.phase, won.state.leader, won.state.drawn, won.chance) == ("lead", "A", False, ())
    again = g.apply(s, legal[1].action)
    assert [c.request.label for c in again.chance][:2] == ["Tactical roll: Lions of Alahan",
                                                           "Tactical roll: Wolfen of Yllia"]
    with pytest.raises(IllegalActionError, match="no draw to break now"):
        g.apply(before, {"kind": "authority", "side": "A", "fighter": "Alahan paladin"})
    preview = g.preview(before, g.legal_actions(before)[0].action)
    odds = dict(preview.headline)
    assert sum(float(v) for v in odds.values() if not isinstance(v, str)) == pytest.approx(1.0)
    assert "a draw: Lions of Alahan may spend an Authority token" in odds
