"""The generic path: any registered game's scenario autoplayed many times with its reference engine.

Nothing here knows a rule system. Battle ``i`` starts from the scenario's initial document
reseeded (``Game.reseeded``) with a seed derived from ``(seed, i)`` alone, and the game's
default policy plays every side until ``Game.result`` names the end, so any split of the
battles over workers gives the same tally. What a battle leaves is counted in histograms:
the winner (a role, ``draw`` or ``unfinished``), its length in actions and in the game's own
turn counter, and every per-side figure the result summary gives (survivors, points left...).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, TypeGuard

import numpy as np

from rulekeeper.core.game import Game, GameResult, SetupRequest
from rulekeeper.core.registered import as_game

from .errors import LabRequestError
from .stats import Proportion, SpreadJson, histogram_mean, histogram_quantile
from .works import GameRef

DRAWN = "draw"
UNFINISHED = "unfinished"
#: Actions after which an autoplayed battle is counted unfinished (a policy going round in circles).
MAX_ACTIONS = 5000


def battle_seed(seed: int, index: int) -> int:
    """The seed of battle ``index`` of a run seeded ``seed``: 63 bits of numpy's SeedSequence hash."""
    if seed < 0:
        raise LabRequestError(f"--seed must be 0 or more, got {seed}", seed=seed)
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0]) >> 1


class PlayTallyJson(TypedDict):
    """A :class:`PlayTally` as JSON: histograms keyed by their values as text, figures as
    ``[figure, side, value, battles]`` rows."""

    battles: int
    winners: dict[str, int]
    actions: dict[str, int]
    turns: dict[str, int]
    figures: list[list[str | float]]


class ShareJson(TypedDict):
    """How many battles ended one way, their share and its 95 % interval."""

    count: int
    rate: float
    low95: float
    high95: float


class PlayReportJson(TypedDict):
    """What ``lab play --json`` prints."""

    battles: int
    method: str
    policy: str
    exact: bool
    results: dict[str, ShareJson]
    actions: SpreadJson
    turns: SpreadJson
    figures: dict[str, SpreadJson]


@dataclass
class PlayTally:
    """Histograms of many autoplayed battles (merged by a sum)."""

    battles: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    actions: Counter[int] = field(default_factory=Counter)
    turns: Counter[int] = field(default_factory=Counter)
    #: (figure, side, value) → battles; the figures come from the result summaries.
    figures: Counter[tuple[str, str, float]] = field(default_factory=Counter)

    def merged(self, other: PlayTally) -> PlayTally:
        return PlayTally(self.battles + other.battles, self.winners + other.winners, self.actions + other.actions,
                         self.turns + other.turns, self.figures + other.figures)

    def figure(self, name: str, side: str) -> Counter[float]:
        return Counter({v: n for (f, s, v), n in self.figures.items() if f == name and s == side})

    def figure_names(self) -> list[tuple[str, str]]:
        return sorted({(f, s) for f, s, _ in self.figures})

    def to_json(self) -> PlayTallyJson:
        return {
            "battles": self.battles,
            "winners": {k: self.winners[k] for k in sorted(self.winners)},
            "actions": {str(k): self.actions[k] for k in sorted(self.actions)},
            "turns": {str(k): self.turns[k] for k in sorted(self.turns)},
            "figures": [[f, s, v, n] for (f, s, v), n in sorted(self.figures.items())],
        }


def side_figures(summary: Mapping[str, object], roles: tuple[str, ...], path: str = "",
                 depth: int = 0) -> Iterator[tuple[str, str, float]]:
    """Every per-side number of a result summary: ``(figure, side, value)``.

    Read generically: a table keyed by exactly the roles gives its numbers (``scores.A``) or its
    entries' numbers (``armies.A.surviving_points``); a list of entries naming a ``side`` gives
    each number summed per side (``units.after (sum)``). Anything else is searched a few levels down.
    """
    if depth > 4:
        return
    for key, value in summary.items():
        name = f"{path}{key}"
        if isinstance(value, Mapping) and value and set(value) == set(roles):
            for side in roles:
                entry = value[side]
                if _number(entry):
                    yield name, side, float(entry)
                elif isinstance(entry, Mapping):
                    yield from ((f"{name}.{k}", side, float(v)) for k, v in entry.items() if _number(v))
        elif isinstance(value, Mapping):
            yield from side_figures(value, roles, f"{name}.", depth + 1)
        elif isinstance(value, list) and value and all(isinstance(e, Mapping) and e.get("side") in roles
                                                       for e in value):
            sums: dict[tuple[str, str], float] = {}
            for entry in value:
                for k, v in entry.items():
                    if _number(v):
                        sums[(k, entry["side"])] = sums.get((k, entry["side"]), 0.0) + float(v)
            yield from ((f"{name}.{k} (sum)", side, total) for (k, side), total in sums.items())


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class PlayWork:
    """Battles of one scenario, autoplayed in a worker (the game found there by name).

    ``policies`` name who plays each side (``(side, "search")``; a side not named plays ``default_policy``), and
    ``budget`` is the search's (``bots.parse_budget``): plain strings, so the work pickles to any worker.
    """

    ref: GameRef
    document: dict[str, Any]
    seed: int
    max_actions: int = MAX_ACTIONS
    default_policy: str = "simple"
    policies: tuple[tuple[str, str], ...] = ()
    budget: str | None = None

    def empty(self) -> PlayTally:
        return PlayTally()

    def run(self, start: int, count: int) -> PlayTally:
        game = as_game(self.ref.game())
        roles = tuple(game.roles(self.document))
        tally = PlayTally()
        choose = self._chooser(game)
        for index in range(start, start + count):
            seed = battle_seed(self.seed, index)
            state = game.initial_state(game.reseeded(self.document, seed))
            actions = 0
            while actions < self.max_actions and (action := choose(state, seed, actions)) is not None:
                state = game.apply(state, action).state
                actions += 1
            result: GameResult | None = game.result(state)
            tally.battles += 1
            tally.actions[actions] += 1
            tally.turns[game.status(state).turn] += 1
            if result is None:
                tally.winners[UNFINISHED] += 1
                continue
            tally.winners[result.winner if result.winner in roles else DRAWN] += 1
            for figure in side_figures(result.summary, roles):
                tally.figures[figure] += 1
        return tally


    def _chooser(self, game: Game) -> Callable[[object, int, int], Mapping[str, object] | None]:
        """The move of whoever acts now: the shipped policy alone (as before the bots), or each side's policy."""
        if self.default_policy == "simple" and all(name == "simple" for _, name in self.policies):
            return lambda state, seed, index: game.policy(state)
        from rulekeeper.bots import acting_side, move_seed, parse_budget, policy_named

        budget = parse_budget(self.budget) if self.budget else None
        by_side = {side: policy_named(name, budget) for side, name in self.policies}
        default = policy_named(self.default_policy, budget)

        def choose(state: object, seed: int, index: int) -> Mapping[str, object] | None:
            side = acting_side(game, state)
            if side is None:
                return None
            return by_side.get(side, default).act(game, state, move_seed(seed, index))

        return choose

    def describe(self) -> str:
        """Which policy played which side (what the lab prints next to each figure)."""
        named = dict(self.policies)
        if not named:
            return _policy_text(self.default_policy, self.budget)
        parts = [f"{side}: {_policy_text(name, self.budget)}" for side, name in self.policies]
        return ", ".join([*parts, f"others: {_policy_text(self.default_policy, self.budget)}"])


def _policy_text(name: str, budget: str | None) -> str:
    if name == "simple":
        return "shipped policy (simple)"
    from rulekeeper.bots import parse_budget

    return f"search bot ({parse_budget(budget or 'normal').describe()} per move)"


def parse_policies(texts: tuple[str, ...], roles: tuple[str, ...]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """``--policy search`` (every side) and ``--policy A=search --policy B=simple``: the default and the per-side
    policies, names and sides checked (typed errors)."""
    from rulekeeper.bots import POLICIES
    from rulekeeper.core.errors import UnknownNameError

    default, per_side = "simple", []
    for text in texts:
        side, _, name = text.rpartition("=")
        name = name.strip().lower()
        if name not in POLICIES:
            raise UnknownNameError("policy", name, list(POLICIES))
        if not side:
            default = name
        elif side not in roles:
            raise UnknownNameError("side of this scenario (--policy SIDE=NAME)", side, list(roles))
        else:
            per_side.append((side, name))
    return default, tuple(per_side)


def scenario_path(game: Game, scenario: str) -> Path:
    """A scenario file, or the key of one the game ships (``starter``, ``hill_road``)."""
    path = Path(scenario)
    try:
        if path.suffix and path.exists():
            return path
    except OSError:  # a name longer than the file system allows: refused as not found below
        pass
    shipped = {info.key: info.path for info in game.scenarios()}
    if scenario in shipped:
        return shipped[scenario]
    named, colon, key = scenario.partition(":")  # the name `games --scenarios` lists: "confrontation:the_ford"
    if colon and named.strip().lower() == game.name.lower() and key in shipped:
        return shipped[key]
    if path.suffix:
        raise LabRequestError(f"scenario file {scenario!r} not found", scenario=scenario)
    from rulekeeper.core.errors import UnknownNameError

    raise UnknownNameError(f"scenario of {game.name}", scenario, shipped)


def play_work(game_name: str, scenario: str, seed: int, options: tuple[str, ...] = (),
              policies: tuple[str, ...] = (), budget: str | None = None) -> tuple[PlayWork, Game]:
    """The work of ``lab play``: the scenario set up once (typed errors for a bad file, option or policy)."""
    ref = GameRef.find(game_name)
    game = ref.game()
    if not isinstance(game, Game):
        raise LabRequestError(f"{ref.name} computes single actions only and plays no whole battle: "
                              "'rulekeeper odds' gives its exact odds", game=ref.name)
    battle_seed(seed, 0)
    setup = game.setup(SetupRequest(scenario=scenario_path(game, scenario), seed=seed, options=options))
    default, per_side = parse_policies(policies, tuple(game.roles(setup.document)))
    if budget is not None:
        from rulekeeper.bots import parse_budget

        parse_budget(budget)  # refused here, not in a worker
    return PlayWork(ref, setup.document, seed, default_policy=default, policies=per_side, budget=budget), game


@dataclass(frozen=True)
class PlaySummary:
    """What ``lab play`` prints: each side's win rate with its interval, lengths, figures."""

    tally: PlayTally
    roles: tuple[str, ...]
    #: A deterministic game plays the same battle every time: one battle is the exact answer.
    exact: bool = False
    #: Who played (``PlayWork.describe``): every figure is the policy's as much as the units'.
    policy: str = "shipped policy (simple)"

    def results(self) -> list[tuple[str, Proportion]]:
        keys = [*self.roles, DRAWN, *([UNFINISHED] if self.tally.winners[UNFINISHED] else [])]
        return [(k, Proportion(self.tally.winners[k], self.tally.battles, self.exact)) for k in keys]

    def to_json(self) -> PlayReportJson:
        def spread(hist: Mapping[int, int] | Mapping[float, int]) -> SpreadJson:
            return {"mean": histogram_mean(hist), "median": histogram_quantile(hist, 0.5),
                    "p05": histogram_quantile(hist, 0.05), "p95": histogram_quantile(hist, 0.95)}

        return {
            "battles": self.tally.battles,
            "method": ("exact (a deterministic game: every battle is the same)" if self.exact
                       else f"monte carlo, reference engine; {self.policy}"),  # one level of brackets
            "policy": self.policy,
            "exact": self.exact,
            "results": {k: {"count": p.count, "rate": p.estimate, "low95": p.interval[0], "high95": p.interval[1]}
                        for k, p in self.results()},
            "actions": spread(self.tally.actions),
            "turns": spread(self.tally.turns),
            "figures": {f"{name} [{side}]": spread(self.tally.figure(name, side))
                        for name, side in self.tally.figure_names()},
        }
