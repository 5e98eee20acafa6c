"""Authority's other uses (issue 24): forcing an opponent who passes to play, and choosing how a fray is split at the
beginning of the combat phase; docs/rules/confrontation.md, "Authority's other uses"."""

from __future__ import annotations

from dataclasses import replace

import pytest
from cf_start import past_tactical
from test_confrontation_authority import ford
from test_confrontation_splitting import CHAIN, GUARD, HUNTER, PREDATOR, SWORD, engaged_state

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game
from rulekeeper.rulesets.confrontation.skirmish import advance
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json


def combat_begins(g: Game, **changes: object) -> SkirmishState:
    """The last activation done, Wolfen (who lost the Tactical roll) holding a token: the combat phase begins."""
    s = replace(engaged_state(g, CHAIN), phase="activation", held=(0, 1), **changes)  # type: ignore[arg-type]
    return advance(s, Fate.from_state(s.rng), [])


def test_a_token_chooses_how_a_fray_is_split_at_the_beginning_of_the_combat_phase(g: Game) -> None:
    """Authority: "these tokens can be used at the beginning of the Combat Phase as follows: 1 token can be spent to
    choose how to split a Fray where at least one of his fighters is"."""
    s = combat_begins(g)
    assert (s.phase, s.to_act, s.leader) == ("combat", "B", "A")
    legal = g.legal_actions(s)
    assert [(lg.action["kind"], lg.action.get("apart")) for lg in legal] == [
        ("decline", None), ("authority_split", []), ("authority_split", [GUARD, HUNTER]),
        ("authority_split", [SWORD, PREDATOR])]
    assert g.policy(s) == legal[0].action  # the keeper's proposal: no token, the winner splits
    out = g.apply(s, legal[2].action).state
    assert out.splits == ((GUARD, HUNTER),) and out.held == (0, 0) and out.to_act == "A"
    assert [lg.action["kind"] for lg in g.legal_actions(out)] == ["fight", "fight"]  # no split of that fray left
    with pytest.raises(IllegalActionError, match="an Authority token chose how"):
        g.apply(out, {"kind": "split", "side": "A", "fighter": SWORD, "apart": [SWORD, PREDATOR]})
    assert state_from_json(state_to_json(out)) == out
    whole = g.apply(s, legal[1].action).state
    assert whole.splits == () and [lg.action["kind"] for lg in g.legal_actions(whole)] == ["fight"]
    declined = g.apply(s, legal[0].action).state
    assert declined.held == (0, 0) and [lg.action["kind"] for lg in g.legal_actions(declined)] == [
        "fight", "split", "split"]
    assert g.parse_words(s, ["authority", "split", "Alahan guard,", "Wolfen hunter"]) == {
        "kind": "authority_split", "side": "B", "fighter": HUNTER, "apart": [GUARD, HUNTER]}


def test_the_discard_reading_leaves_no_token_for_the_combat_phase(g: Game) -> None:
    """The seed also says "All unused tokens are discarded at the end of the activation phase": option
    ``authority_tokens=discarded`` reads that first, and the winner alone splits."""
    s = combat_begins(g, options=(("authority_tokens", "discarded"),))
    assert s.to_act == "A" and [lg.action["kind"] for lg in g.legal_actions(s)] == ["fight", "split", "split"]
    with pytest.raises(IllegalActionError, match="no Authority token to spend"):
        g.apply(s, {"kind": "authority_split", "side": "A", "fighter": SWORD, "apart": []})


def test_a_token_prevents_the_opponent_from_passing_his_turn(g: Game) -> None:
    """Authority: "A player can use an Authority counter to prevent his opponent from passing his turn. The opponent
    is then Forced to play immediately and cannot refuse. This is not possible if the opponent only has 1 card to
    play"."""
    s = replace(past_tactical(ford(g, 1, Wolfen_hunter=["Authority"])), held=(0, 1))
    legal = g.legal_actions(s)
    assert legal[-1].action == {"kind": "pass", "side": "A", "fighter": g.parse_words(s, ["pass"])["fighter"]}
    assert g.policy(s)["kind"] != "pass"  # autoplay activates
    asked = g.apply(s, legal[-1].action).state
    assert (asked.asking, asked.to_act) == ("A", "B")
    answers = g.legal_actions(asked)
    assert [lg.action["kind"] for lg in answers] == ["allow", "force"] and g.policy(asked) == answers[0].action
    forced = g.apply(asked, answers[1].action).state
    assert (forced.to_act, forced.held, forced.no_pass, forced.asking) == ("A", (0, 0), "A", "")
    assert "pass" not in [lg.action["kind"] for lg in g.legal_actions(forced)]  # "cannot refuse"
    with pytest.raises(IllegalActionError, match="cannot pass now"):
        g.apply(forced, {**legal[-1].action})
    hold = next(lg.action for lg in g.legal_actions(forced) if lg.action["kind"] == "hold")
    played = g.apply(forced, hold).state
    assert (played.to_act, played.no_pass) == ("B", "")
    allowed = g.apply(asked, answers[0].action).state
    assert (allowed.to_act, allowed.no_pass, allowed.held) == ("B", "B", (0, 1))
    assert "pass" not in [lg.action["kind"] for lg in g.legal_actions(allowed)]  # no passing back at once
    assert state_from_json(state_to_json(asked)) == asked
    last = s.with_fighters(*[replace(f, activated=True) for f in s.fighters if f.side == "A"][1:])
    alone = g.apply(last, g.legal_actions(last)[-1].action).state  # "only 1 card to play": no token answers
    assert (alone.asking, alone.to_act, alone.no_pass) == ("", "B", "B")
