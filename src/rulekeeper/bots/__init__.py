"""An opponent for every game: a search bot over the game protocol, fair by construction.

Rule-system neutral, like ``lab``/``service``: it reaches a game only through
:class:`rulekeeper.core.game.Game` (plus optional hooks), never by importing ``rulesets``.

Public API (stable)::

    choose(game, state, side, *, budget: Budget, seed: int, cancelled=None) -> Decision
    Budget(seconds: float | None, iterations: int | None, horizon: int = 4)
    Decision(action, candidates: tuple[Candidate, ...], iterations: int, seconds: float)
    Candidate(action, text, value: float, visits: int)      # value in [-1, 1] for the bot's side
    POLICIES                    # {"simple": ..., "search": ...}: name -> what it is
    policy_named(name, budget=None) -> Policy               # .act(game, state, seed) -> action | None
    STRENGTHS, strength_named(name), parse_budget("1s" | "200" | "normal"), move_seed(seed, index)

Optional game hooks (``hooks``): ``evaluate(state, side) -> float`` in [-1, 1] (material, morale,
objectives), ``determinise(state, side, seed) -> state`` (default: a fresh RNG state),
``rollout_policy(state) -> action`` (the shipped policy's action computed faster; default: ``policy``),
``bot_policy(state) -> action`` (the bot's own default play where the game knows a better one than its shipped
policy: the search's anchor and the bot's side in its simulations; default: none) and ``rollout_done`` (a
simulation's horizon in the game's own time; default: ``horizon`` actions).

**Why determinised Monte Carlo with policy rollouts, not expectimax.** Expectimax needs every chance node's
outcomes and odds enumerated; the protocol gives a ``preview`` with the exact requests an action draws
*first*, but later draws depend on earlier ones (a fray's follow-up rolls, a rout test after casualties),
and hidden simultaneous orders (the War Table campaign) are information sets, not chance nodes. Sampling
handles both with what every game already has: chance goes through the RNG inside the state, so a
simulation re-seeds it (the bot's seed, never the battle's) and re-draws the other sides' unrevealed orders
(*determinisation*, as in information-set MCTS), and ``apply`` then plays out the exact rules. The tree
is one level deep (the bot's own actions, raced on common worlds and halved: ``search``) and the simulations
follow the game's shipped policy for a bounded horizon: this is the *rollout algorithm* of policy
iteration, which in expectation plays at least as well as the policy it rolls out, and it keeps a move
inside a second on the slowest game, where a deeper tree of determinised worlds would spend its budget
on nodes that differ in every world (strategy fusion) and visit each too seldom to help.

**Fair by construction.** :func:`choose` reads of the real state only its status and the side's own
legal actions; everything simulated starts from a determinised copy. A battle whose RNG state (or the
other side's hidden orders) is replaced gives the very same decision for the same seed
(``tests/bots/test_fairness.py``). Callers hand it the state the side may see (the service's visible
state: never past a face-down result).
"""

from .hooks import determiniser, evaluator, replace_rng
from .model import BotRequestError, Budget, Candidate, Decision
from .policies import (
    DEFAULT_STRENGTH,
    POLICIES,
    STRENGTHS,
    Policy,
    SearchPolicy,
    SimplePolicy,
    acting_side,
    move_seed,
    parse_budget,
    policy_named,
    strength_named,
)
from .search import choose, side_actions

__all__ = [
    "DEFAULT_STRENGTH", "POLICIES", "STRENGTHS", "BotRequestError", "Budget", "Candidate", "Decision", "Policy",
    "SearchPolicy", "SimplePolicy", "acting_side", "choose", "determiniser", "evaluator", "move_seed",
    "parse_budget", "policy_named", "replace_rng", "side_actions", "strength_named",
]
