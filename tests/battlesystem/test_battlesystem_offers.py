"""``offers.offered`` (what ``apply`` checks an action with, asking only its own unit and kind) says exactly what
the legal list says (``actions.listed``): along playthroughs of both shipped scenarios, for every unit of either
side, every kind of action, every unit's name and every hex's label as its target, and each of the three typed
action classes (a ``Move`` spelled with a target's kind is no legal action). And the codec's fast ``encode`` (the bot
encodes every action its simulations play) writes what the core's writes."""

from __future__ import annotations

from rulekeeper.core.actioncodec import ActionCodec
from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.battlesystem.actions import ACTIONS, AtHex, BSAction, EndTurn, Move, Targeted, listed
from rulekeeper.rulesets.battlesystem.offers import OFFERS, offered
from rulekeeper.rulesets.battlesystem.state import SIDES, BattleState


def _spelled(state: BattleState) -> list[BSAction]:
    names = [p.name for p in state.units]
    aims = names + [state.board.label(h) for h in state.board.hexes()]
    out: list[BSAction] = [EndTurn(s) for s in SIDES]
    for side in SIDES:
        for unit in names:
            for kind in OFFERS:
                for aim in aims:
                    out += [Targeted(kind, side, unit, aim), AtHex(kind, side, unit, aim),  # type: ignore[arg-type]
                            Move(kind, side, unit, aim)]  # type: ignore[arg-type]
    return out


def test_offered_is_the_legal_list() -> None:
    g = game("battlesystem")
    legal = asked = 0
    for info in g.scenarios():
        state = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=1)).document)
        for step in range(600):
            action = g.policy(state)
            if action is None:
                break
            for lg in g.legal_actions(state):  # the codec's fast encode writes what the core's writes, key order too
                typed = ACTIONS.listed(lg.action)
                assert list(ACTIONS.encode(typed).items()) == list(ActionCodec.encode(ACTIONS, typed).items())
            if step % 16 == 0:
                ref = listed(state)
                for a in _spelled(state):
                    assert offered(state, a) == (a in ref), a
                    legal += a in ref
                    asked += 1
            state = g.apply(state, action).state
        assert g.status(state).over
    assert legal >= 300 and asked >= 150_000, (legal, asked)
