"""Typed errors with stable codes.

Every error a user can provoke derives from :class:`RulekeeperError`, which is a
``ValueError`` (as python-chess does for bad FEN/moves) so callers may catch either.
Each class has a stable ``code`` string used by ``--json`` output and the web API,
and the CLI maps every one of them to exit code 2 without a traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from rulekeeper.core.wording import counted

#: Longest detail text an error carries (an id or a name given by a user may be 100,000 characters).
MAX_DETAIL = 500


def shorten(text: str, limit: int = MAX_DETAIL) -> str:
    """``text`` cut to ``limit`` characters (and an ellipsis)."""
    return text if len(text) <= limit else text[:limit] + "…"


class RulekeeperError(ValueError):
    """Base of every user-facing error. ``code`` is stable; ``details`` is JSON-able.

    Bounded whatever it is given: the message to the limit of error messages (plus room for a
    file name), each text detail to :data:`MAX_DETAIL` characters, so that echoing a hostile
    name back never makes a huge answer.
    """

    code = "error"

    def __init__(self, message: str, **details: object) -> None:
        from .limits import LIMITS

        message = shorten(message, LIMITS.message + MAX_DETAIL + 20)
        details = {k: shorten(v) if isinstance(v, str) else v for k, v in details.items()}
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, object]:
        return {"error": self.code, "message": self.message, **self.details}


def closest(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates closest to ``name`` (case-insensitive), best first."""
    pool = list(candidates)
    lowered = {c.lower(): c for c in pool}
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.5)
    if not hits:
        hits = [c for c in lowered if name.lower() in c or c in name.lower()][:n]
    return [lowered[h] for h in hits]


#: A pool this small is listed whole when nothing in it is close to the name asked for.
FEW_CHOICES = 8


class UnknownNameError(RulekeeperError):
    """A unit, ruleset, action, element... that does not exist; suggests the closest."""

    code = "unknown_name"

    def __init__(self, kind: str, name: str, candidates: Iterable[str]) -> None:
        pool = sorted(set(candidates))
        suggestions = closest(name, pool) if len(name) <= MAX_DETAIL else []
        hint = f" Did you mean {' or '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        if not suggestions and 0 < len(pool) <= FEW_CHOICES:  # nothing close: "--bot B" in a game whose sides
            hint = f" Choose one of: {', '.join(pool)}."  # are "attackers" and "defenders" said neither
        super().__init__(
            f"Unknown {kind} {shorten(name, 100)!r}.{hint}", kind=kind, name=name, suggestions=suggestions
        )
        self.suggestions = suggestions


class DataFileError(RulekeeperError):
    """A data file that cannot be read or does not match its schema."""

    code = "data_file"

    #: Problems listed (the rest are counted): a file with 250,000 bad entries gets a readable error.
    MAX_PROBLEMS = 50

    def __init__(self, path: str, problems: list[str]) -> None:
        from .limits import LIMITS

        path = path if len(path) <= 500 else path[:500] + "…"
        shown = [p if len(p) <= 500 else p[:500] + "…" for p in problems[: self.MAX_PROBLEMS]]
        more = len(problems) - len(shown)
        body = "; ".join(shown) + (f"; … and {counted(more, 'more problem')}" if more > 0 else "")
        if len(body) > LIMITS.message:
            body = body[: LIMITS.message] + "…"
        super().__init__(f"{path}: {body}", path=path, problems=shown, more_problems=max(0, more))
        self.path = path
        self.problems = shown


class ImpossibleRequestError(RulekeeperError):
    """A request the rules forbid (a shot out of range, a spell on an immune unit...)."""

    code = "impossible_request"


class InvalidStatError(RulekeeperError):
    """A statistic outside its domain (negative HP, efficiency above 1...)."""

    code = "invalid_stat"


class IllegalActionError(RulekeeperError):
    """An action that is not legal in the current state."""

    code = "invalid_action"


class ReplayMismatchError(RulekeeperError):
    """A replayed chance record did not reproduce the stored outcome."""

    code = "replay_mismatch"


class InvalidOddsError(RulekeeperError):
    """A distribution that is not one: a probability negative, not finite, or a total that is not 1."""

    code = "invalid_odds"
