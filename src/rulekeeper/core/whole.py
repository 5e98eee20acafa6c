"""The odds of a whole action: what a charge, a volley or a fray will do, as distributions.

A player decides on the whole result of an action (how many enemy miniatures fall, how many of
ours, whether the enemy routs), not on one draw. A game that can compute it offers
``whole_odds(state, action) -> WholeOdds | None`` (optional, see :func:`whole_odds_of`); the CLI,
the web keeper and the lab render a :class:`WholeOdds` without knowing the rules behind it.

Each :class:`WholeMeasure` is one quantity of the result (Wesnoth's attack prediction shows the
remaining hit points of both units the same way), every outcome with its probability, in display
order; :class:`WholeOdds` adds events ("enemy routs"), how the numbers were found (``exact``,
``grid`` for a discretised continuous range, ``estimate`` for a sampled one) and the largest
absolute error any shown probability may carry.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import InvalidOddsError
from .wording import counted

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

#: How a distribution was found: exactly, on a fine grid (bounded discretisation error), or sampled.
METHODS = ("exact", "grid", "estimate")
#: How far from 1 the probabilities of one measure may sum (rounding of floating-point sums).
TOLERANCE = 1e-9


def _check_probability(where: str, p: float) -> None:
    if not isinstance(p, (int, float)) or not math.isfinite(p) or p < 0.0 or p > 1.0 + TOLERANCE:
        raise InvalidOddsError(f"{where}: probability {p!r} is not a number in [0, 1]", where=where)


@dataclass(frozen=True, slots=True)
class WholeMeasure:
    """One quantity of an action's whole result, every outcome with its probability, in display order.

    ``mean`` is the expected value when the outcomes are numbers (None otherwise).
    """

    key: str
    label: str
    outcomes: tuple[tuple[str, float], ...]
    mean: float | None = None

    def __post_init__(self) -> None:
        if not self.outcomes:
            raise InvalidOddsError(f"{self.key}: a measure needs at least one outcome", measure=self.key)
        names = [o for o, _ in self.outcomes]
        if len(set(names)) != len(names):
            raise InvalidOddsError(f"{self.key}: outcome names must be unique: {names[:20]}", measure=self.key)
        for name, p in self.outcomes:
            _check_probability(f"{self.key}={name}", p)
        total = math.fsum(p for _, p in self.outcomes)
        if abs(total - 1.0) > TOLERANCE:
            raise InvalidOddsError(f"{self.key}: probabilities sum to {total!r}, not 1", measure=self.key,
                                   total=total)
        if self.mean is not None and not math.isfinite(self.mean):
            raise InvalidOddsError(f"{self.key}: mean {self.mean!r} is not finite", measure=self.key)

    @classmethod
    def from_weights(cls, key: str, label: str, weighted: Sequence[tuple[object, float]],
                     numeric: bool | None = None) -> WholeMeasure:
        """A measure from (outcome, weight) pairs in display order, normalised to sum to 1.

        Outcomes that are numbers give the mean (``numeric`` forces it on or off); their labels
        are their text. Weights must be finite and non-negative with a positive total.
        """
        for value, w in weighted:
            if not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0.0:
                raise InvalidOddsError(f"{key}={value}: weight {w!r} is not a finite number ≥ 0", measure=key)
        total = math.fsum(w for _, w in weighted)
        if total <= 0.0:
            raise InvalidOddsError(f"{key}: the weights sum to {total!r}", measure=key)
        is_numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v, _ in weighted)
        mean = (math.fsum(_number(v) * w for v, w in weighted) / total
                if (is_numeric if numeric is None else numeric) else None)
        return cls(key, label, tuple((_text(v), w / total) for v, w in weighted), mean)

    def probability(self, outcome: str) -> float:
        """The probability of ``outcome`` (0 for one not listed)."""
        return next((p for o, p in self.outcomes if o == outcome), 0.0)

    def to_dict(self) -> dict[str, object]:
        return {"key": self.key, "label": self.label, "mean": self.mean,
                "outcomes": [[o, p] for o, p in self.outcomes]}


@dataclass(frozen=True, slots=True)
class WholeOdds:
    """The distribution of an action's whole result: its measures, its events and how sure the numbers are.

    ``error_bound`` is the largest absolute error of any probability shown: 0 for ``exact``, the
    discretisation bound for ``grid``, the 95 % half-width for ``estimate``.
    """

    measures: tuple[WholeMeasure, ...]
    events: tuple[tuple[str, float], ...] = ()
    method: str = "exact"
    error_bound: float = 0.0
    note: str = ""

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise InvalidOddsError(f"unknown method {self.method!r} (one of {', '.join(METHODS)})",
                                   method=self.method)
        if not math.isfinite(self.error_bound) or self.error_bound < 0.0:
            raise InvalidOddsError(f"error bound {self.error_bound!r} is not a finite number ≥ 0")
        keys = [m.key for m in self.measures]
        if len(set(keys)) != len(keys):
            raise InvalidOddsError(f"measure keys must be unique: {keys}")
        for name, p in self.events:
            _check_probability(f"event {name}", p)

    def measure(self, key: str) -> WholeMeasure:
        found = next((m for m in self.measures if m.key == key), None)
        if found is None:
            raise InvalidOddsError(f"no measure {key!r} (known: {', '.join(m.key for m in self.measures)})",
                                   measure=key)
        return found

    def event(self, name: str) -> float:
        return next((p for n, p in self.events if n == name), 0.0)

    def to_dict(self) -> dict[str, object]:
        """The JSON form the web API sends."""
        return {"method": self.method, "error_bound": self.error_bound, "note": self.note,
                "measures": [m.to_dict() for m in self.measures],
                "events": [[n, p] for n, p in self.events]}

    def rows(self, width: int = 20) -> list[tuple[str, str, str, str]]:
        """Table rows (what, outcome, percent, bar) for a terminal: a Rich table or plain text."""
        out: list[tuple[str, str, str, str]] = []
        for m in self.measures:
            for i, (outcome, p) in enumerate(m.outcomes):
                out.append((m.label if i == 0 else "", outcome, percent(p), bar(p, width)))
            if m.mean is not None:
                out.append(("", "expected", f"{m.mean:.2f}", ""))
        for name, p in self.events:
            out.append((name, "", percent(p), bar(p, width)))
        return out

    def caption(self) -> str:
        """How the numbers were found, in words (under the table)."""
        how = {"exact": "computed exactly", "grid": "computed on a fine grid",
               "estimate": "estimated by sampling"}[self.method]
        bound = "" if self.error_bound == 0.0 else f" (each probability within ±{self.error_bound:.2g})"
        return f"{how}{bound}" + (f"; {self.note}" if self.note else "")

    def text(self, width: int = 20) -> str:
        """The plain-text table (CLI without Rich, logs, tests)."""
        rows = self.rows(width)
        w0 = max([len(r[0]) for r in rows] + [1])
        w1 = max([len(r[1]) for r in rows] + [1])
        lines = [f"{a:<{w0}}  {b:<{w1}}  {c:>7}  {d}".rstrip() for a, b, c, d in rows]
        return "\n".join([*lines, self.caption()])


def percent(p: float) -> str:
    """A probability as a percentage a player reads: "<0.1 %" rather than "0.0 %" for a real chance."""
    if p <= 0.0:
        return "0 %"
    if p < 0.001:
        return "<0.1 %"
    if p > 0.999 and p < 1.0:
        return ">99.9 %"
    return f"{100.0 * p:.1f} %"


def bar(p: float, width: int = 20) -> str:
    """A bar of ``width`` cells for ``p`` in [0, 1] (eighths of a cell, so a small chance still shows)."""
    eighths = round(max(0.0, min(1.0, p)) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + ("" if part == 0 else " ▏▎▍▌▋▊▉"[part])


def _text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


Joint = Mapping[tuple[Hashable, ...], float]


def marginals(joint: Joint, names: Sequence[tuple[str, str]],
              order: Sequence[Callable[[Hashable], SupportsRichComparison] | None] | None = None
              ) -> tuple[WholeMeasure, ...]:
    """Each coordinate of a joint distribution (outcome tuple → probability) as a measure.

    ``names`` are the (key, label) of each coordinate; outcomes are sorted (by ``order[i]`` when
    given) and numeric ones get their mean. The joint must sum to 1 (it is checked per measure).
    """
    out = []
    for i, (key, label) in enumerate(names):
        acc: dict[Hashable, float] = {}
        for outcome, p in joint.items():
            if len(outcome) != len(names):
                raise InvalidOddsError(f"joint outcome {outcome!r} has {counted(len(outcome), 'part')}, "
                                       f"not {len(names)}")
            acc[outcome[i]] = acc.get(outcome[i], 0.0) + p
        sort_key = order[i] if order is not None and i < len(order) else None
        values = sorted(acc, key=sort_key) if sort_key is not None else _sorted(list(acc))
        out.append(WholeMeasure.from_weights(key, label, [(v, acc[v]) for v in values]))
    return tuple(out)


def event_odds(joint: Joint, events: Sequence[tuple[str, Callable[[tuple[Hashable, ...]], bool]]]
               ) -> tuple[tuple[str, float], ...]:
    """The probability of each named event (a predicate on the joint outcome)."""
    return tuple((name, min(1.0, math.fsum(p for o, p in joint.items() if test(o)))) for name, test in events)


def _sorted(values: list[Hashable]) -> list[Hashable]:
    try:
        return sorted(values)  # type: ignore[type-var]
    except TypeError:
        return sorted(values, key=str)


def _number(value: object) -> float:
    if isinstance(value, (int, float)):
        return float(value)
    raise InvalidOddsError(f"outcome {value!r} is not a number: no mean")


def whole_odds_of(game: object, state: object, action: Mapping[str, object]) -> WholeOdds | None:
    """The game's whole-action odds of ``action``, or None when it offers none.

    ``whole_odds`` is an optional member of the game protocol (like ``conceals``): a game
    without it, or one that cannot compute this action, gives None and the keeper shows only
    the per-draw odds.
    """
    hook = getattr(game, "whole_odds", None)
    if not callable(hook):
        return None
    found = hook(state, dict(action))
    return found if isinstance(found, WholeOdds) else None
