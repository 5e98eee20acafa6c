"""The bot's typed objects: what it may spend (:class:`Budget`) and what it answers (:class:`Decision`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypedDict

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import JsonDict
from rulekeeper.core.wording import counted

#: Actions a simulation plays after the candidate before it is scored by the evaluation (see ``search``).
DEFAULT_HORIZON = 4


class BotRequestError(RulekeeperError):
    """A bot asked to do what it cannot: a budget of nothing, a side with nothing to do, an unknown policy."""

    code = "bot_request"


@dataclass(frozen=True)
class Budget:
    """What one decision may spend: wall-clock ``seconds``, simulation ``iterations``, or both (whichever ends first).

    An ``iterations`` budget alone makes a decision a pure function of (state, side, seed): reproducible
    on any machine. A ``seconds`` budget depends on the machine's speed (and its load), so two runs may
    think for a different number of simulations. ``horizon`` bounds each simulation in actions
    (a battle not over by then is scored by the game's evaluation).
    """

    seconds: float | None = None
    iterations: int | None = None
    horizon: int = DEFAULT_HORIZON

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise BotRequestError("a bot's budget needs seconds or iterations (or both)")
        if self.seconds is not None and not (math.isfinite(self.seconds) and 0 < self.seconds <= 600):
            raise BotRequestError(f"a bot's budget in seconds must be above 0 and at most 600, got {self.seconds}",
                                  seconds=self.seconds)
        if self.iterations is not None and not 1 <= self.iterations <= 1_000_000:
            raise BotRequestError(f"a bot's budget in iterations must be 1 to 1000000, got {self.iterations}",
                                  iterations=self.iterations)
        if not 0 <= self.horizon <= 10_000:
            raise BotRequestError(f"a bot's horizon must be 0 to 10000 actions, got {self.horizon}",
                                  horizon=self.horizon)

    def describe(self) -> str:
        parts = ([f"{self.seconds:g}s"] if self.seconds is not None else []) + (
            [counted(self.iterations, "simulation")] if self.iterations is not None else [])
        return " or ".join(parts)


class CandidateJson(TypedDict):
    """A weighed candidate as ``--explain`` and the bot worker's answers write it."""

    action: JsonDict
    text: str
    value: float
    visits: int


@dataclass(frozen=True)
class Candidate:
    """One action the bot weighed: its text, its estimated value for the bot's side in [-1, 1] (1: a sure
    win, -1: a sure loss, 0: even), and how many simulations that estimate rests on."""

    action: JsonDict
    text: str
    value: float
    visits: int

    def to_json(self) -> CandidateJson:
        return {"action": self.action, "text": self.text, "value": round(self.value, 4), "visits": self.visits}


class DecisionJson(TypedDict):
    """A :class:`Decision` as ``--explain --json`` writes it: the action's logged JSON and the candidates."""

    action: JsonDict
    candidates: list[CandidateJson]
    iterations: int
    seconds: float


@dataclass(frozen=True)
class Decision:
    """The bot's choice and why: every candidate it weighed (best first), and what it spent."""

    action: JsonDict
    candidates: tuple[Candidate, ...]
    iterations: int
    seconds: float

    def to_json(self) -> DecisionJson:
        return {"action": self.action, "candidates": [c.to_json() for c in self.candidates],
                "iterations": self.iterations, "seconds": round(self.seconds, 4)}
