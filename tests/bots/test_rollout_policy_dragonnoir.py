"""Dragon Noir's ``rollout_policy`` (the search bot's simulations) plays exactly what its shipped policy plays, and
``check``, which looks an action up in the one part of the legal list it can be in, refuses exactly what the whole
list refuses (``rulesets/dragonnoir/rollout.py`` and ``legal.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.bots.hooks import replace_rng
from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.memo import allows
from rulekeeper.rulesets.dragonnoir import legal
from rulekeeper.rulesets.dragonnoir.action_types import ACTIONS

from .conftest import started

#: Every shipped scenario: wizards and their spells (the wizards' duel), Gargoyles called and flying (the
#: gargoyles' call), the Black Dragon (its lair), horsemen (the ford), archers (the mill house).
SCENARIOS = ["the_dragons_lair", "the_ford", "the_gargoyles_call", "the_mill_house", "the_wizards_duel"]
#: Actions followed along each playthrough; the bot's candidates are all tried at the first state of each kind
#: (side, sequence, decision owed) and every ``EVERY`` actions.
ACTIONS_FOLLOWED = 40
EVERY = 12
#: Actions a simulation from a candidate spell is followed for.
FOLLOWED_AFTER_A_SPELL = 12


def _same(game: Any, state: Any) -> dict[str, object] | None:
    action = game.policy(state)
    assert game.rollout_policy(state) == action, (state.phase, state.pending)
    return action  # type: ignore[no-any-return]


def _check_agrees(state: Any, pool: list[dict[str, object]]) -> None:
    """``check`` in a copy of ``state`` (nothing remembered yet) accepts an action iff the whole list holds it."""
    for logged in pool:
        action = ACTIONS.listed(logged)
        copy = type(state)(**{name: getattr(state, name) for name in state.__dataclass_fields__})
        try:
            legal.check(copy, action)
            accepted = True
        except IllegalActionError:
            accepted = False
        assert accepted == (action.side == state.to_act and allows(state, logged, legal.legal_actions)), logged


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_dragon_noirs_rollout_policy_is_the_shipped_policy(scenario: str) -> None:
    # rollout.py: "answers exactly what policy.choose answers, in every state": along a shipped-policy playthrough,
    # and in the states the bot's candidates lead to (the shipped policy never plays most of them: a spell, a
    # flight, a carry, clearing the dead), each in a re-seeded world as the bot's simulations play it
    game, state = started("dragonnoir", scenario, seed=1)
    seen: set[str] = set()
    before: list[dict[str, object]] = []
    kinds: set[tuple[str, str, str]] = set()
    for step in range(ACTIONS_FOLLOWED):
        if state.over:
            break
        action = _same(game, state)
        assert action is not None
        kind = (state.side, state.phase, state.pending.kind if state.pending else "")
        if step % EVERY == 0 or kind not in kinds:
            kinds.add(kind)
            offered = [lg.action for lg in game.legal_actions(state)]
            _check_agrees(state, offered + before)
            before = offered
            for candidate in offered:
                after = game.apply(replace_rng(game, state, step), candidate).state
                # a spell's simulation goes on (the first time each spell is tried): the answer, the spectres
                # called, their flight
                spell = f"cast {candidate.get('spell')}"
                for _ in range(FOLLOWED_AFTER_A_SPELL if candidate["kind"] == "cast" and spell not in seen else 1):
                    follow = None if after.over else _same(game, after)
                    if follow is None:
                        break
                    seen.update(f"{m.character.split()[0]} on the map" for m in after.men if m.fades)
                    after = game.apply(after, follow).state
                seen.update((str(candidate["kind"]), spell))
        state = game.apply(state, action).state
    assert {"move", "end_phase"} <= seen
    expected = {"the_dragons_lair": {"dragon_move"}, "the_wizards_duel": {"cast"}, "the_gargoyles_call": {"cast", "Gargoyle on the map"},
                "the_ford": {"shoot"}, "the_mill_house": {"shoot", "hold"}}[scenario]
    assert expected <= seen, seen
