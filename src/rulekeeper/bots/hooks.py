"""The two per-game hooks the bot uses, and their defaults for a game that has neither.

* ``determinise(state, side, seed) -> state``: the same position as ``side`` sees it, with everything
  ``side`` cannot see drawn afresh from ``seed``: the RNG state (so no future roll is known) and, in a game
  with hidden orders, the other sides' orders not yet revealed. The default replaces the RNG state only
  (every :class:`~rulekeeper.core.rng.RngState` of the state, found through the game's own state codec),
  which is all a game without secrets needs.
* ``evaluate(state, side) -> float``: how good an unfinished position is for ``side``, in [-1, 1]
  (material, morale, objectives: the game knows). The default is 0 (even) before the end; at the end the
  result decides (1 won, -1 lost, 0 a draw), whatever the game's hook says.
* ``rollout_policy(state) -> action | None``: the shipped policy's action, computed faster where the game can
  (Confrontation lists no disengagements its policy never picks). The simulations play it; the anchor is
  still asked of ``policy``. The default is ``policy``.
* ``bot_policy(state) -> action | None``: the bot's *own* default play, where the game knows a better one than
  its shipped policy (Ex illis: the shipped policy, but a group that can shoot never charges). The search's
  anchor is this policy's choice, and in the simulations the bot's side plays it while every other side plays
  ``rollout_policy`` (the opponent is still modelled by the shipped policy). The default: none (the anchor is
  ``policy``'s choice and every side plays ``rollout_policy``).
* ``rollout_done(start, state, actions, horizon) -> bool``: whether a simulation from ``start`` (the world
  before the candidate) has gone far enough, now in ``state`` after ``actions`` actions: *the game says what
  the horizon means* in its own time (Dragon Noir: to the end of the sequence after the current one, a move
  being one hex). The default: ``horizon`` actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rulekeeper.core.game import Game
from rulekeeper.core.rng import RngState

#: Winners that say nobody won.
DRAWN_NAMES = frozenset({"", "draw", "drawn", "none", "nobody"})
_RNG_KEYS = frozenset({"state", "inc", "has_uint32", "uinteger"})


def fresh_rng(seed: int) -> RngState:
    """An RNG state the bot draws its simulations' chance from (seeded by the bot, never by the battle)."""
    return RngState.from_seed(seed)


def replace_rng(game: Game, state: object, seed: int) -> object:
    """``state`` with every RNG state in it replaced by a fresh one seeded from ``seed``.

    Fast path: a frozen dataclass whose top-level fields hold the RNG (every shipped game). Otherwise the
    state goes through the game's codec and every dict shaped like an RNG state is replaced.
    """
    import dataclasses

    if dataclasses.is_dataclass(state) and not isinstance(state, type):
        names = [f.name for f in dataclasses.fields(state) if isinstance(getattr(state, f.name), RngState)]
        if names:
            return dataclasses.replace(state, **{n: fresh_rng(seed + i) for i, n in enumerate(names)})
    reseeded = _reseeded_json(game.state_to_json(state), [seed])
    assert isinstance(reseeded, dict)  # a JSON object walked is a JSON object
    return game.state_from_json(reseeded)


def _reseeded_json(value: object, seeds: list[int]) -> object:
    """A JSON value (a state's document, walked) with every RNG state in it drawn afresh."""
    if isinstance(value, dict):
        if set(value) == _RNG_KEYS or set(value) == {"state", "inc"}:
            seeds[0] += 1
            return fresh_rng(seeds[0]).to_dict()
        return {k: _reseeded_json(v, seeds) for k, v in value.items()}
    if isinstance(value, list):
        return [_reseeded_json(v, seeds) for v in value]
    return value


def determiniser(game: Game) -> Callable[[object, str, int], object]:
    """The game's ``determinise`` hook, or :func:`replace_rng`."""
    hook = getattr(game, "determinise", None)
    if callable(hook):
        return hook  # type: ignore[no-any-return]
    return lambda state, side, seed: replace_rng(game, state, seed)


def terminal_value(game: Game, state: object, side: str) -> float | None:
    """1, -1 or 0 once the battle is over (won, lost, drawn for ``side``), else None."""
    if not game.status(state).over:
        return None
    result = game.result(state)
    winner = result.winner if result is not None else game.status(state).winner
    if winner == side:
        return 1.0
    # a game may name a draw as its winner (Ex illis: "draw"); the lab counts any non-side as drawn too
    return 0.0 if winner is None or winner.strip().lower() in DRAWN_NAMES else -1.0


def evaluator(game: Game) -> Callable[[object, str], float]:
    """The score of a position for a side in [-1, 1]: the result at the end, else the game's hook (or 0)."""
    hook = getattr(game, "evaluate", None)

    def evaluate(state: object, side: str) -> float:
        end = terminal_value(game, state, side)
        if end is not None:
            return end
        if not callable(hook):
            return 0.0
        return max(-1.0, min(1.0, float(hook(state, side))))

    return evaluate


def roller(game: Game) -> Callable[[object], Mapping[str, object] | None]:
    """The game's ``rollout_policy`` hook, or its shipped ``policy``."""
    hook = getattr(game, "rollout_policy", None)
    if callable(hook):
        return hook  # type: ignore[no-any-return]
    return game.policy


def own_player(game: Game) -> Callable[[object], Mapping[str, object] | None] | None:
    """The game's ``bot_policy`` hook (the bot's own default play), or None when the game has none."""
    hook = getattr(game, "bot_policy", None)
    return hook if callable(hook) else None


def policy_action(game: Game, state: object) -> Mapping[str, object] | None:
    """The game's shipped policy (the simulations' default play)."""
    return game.policy(state)


def horizon_of(game: Game) -> Callable[[object, object, int, int], bool]:
    """The game's ``rollout_done`` hook, or ``budget.horizon`` actions (see the module docstring)."""
    hook = getattr(game, "rollout_done", None)
    if callable(hook):
        return hook  # type: ignore[no-any-return]
    return lambda start, state, actions, horizon: actions >= horizon
