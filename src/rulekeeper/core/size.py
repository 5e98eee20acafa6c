"""How big a battle is, read from its initial document before any work is done on it.

Why: the cost of a battle grows with its board and its units — a 3 KB Dragon Noir export
claiming a 1000×1000 map took 4.5–9.8 s and 350–480 MiB to verify, 10000×10000 ended in a
MemoryError; a 416-unit Battle System scenario cost 750 s of CPU per page view.  Every way a
battle comes in (a scenario or musters set up, an import, an export to verify) is measured
here first and refused past :data:`BATTLE_LIMITS` (documented in ``docs/limits.md``).

Game-neutral: a game may say how it measures its documents (an optional
``size_of(document) -> BattleSize`` on its :class:`~rulekeeper.core.game.Game`); otherwise
the shapes every shipped game uses are read — a board is a mapping with numeric ``width`` and
``height``, units are the mappings in lists named ``units``, ``fighters`` or ``men``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulekeeperError
from .wording import noun_for

#: Lists whose entries are the battle's units, in the shipped games' documents.
UNIT_LISTS = ("units", "fighters", "men")


@dataclass(frozen=True)
class BattleSize:
    cells: int  # the board's area: hexes or squares (a table's area in its own units)
    units: int


@dataclass(frozen=True)
class BattleLimits:
    cells: int = 10_000  # a 100 × 100 board; the largest shipped one is 9 × 7, Confrontation's table 60 × 40
    side: int = 200  # one board dimension
    units: int = 200  # the largest shipped scenario has 10; a large Battle System game about 60
    actions: int = 10_000  # log entries of one battle; a long battle has a few hundred


BATTLE_LIMITS = BattleLimits()


class BattleTooLargeError(RulekeeperError):
    """A battle beyond :data:`BATTLE_LIMITS`: refused before it is set up, imported or replayed."""

    code = "too_large"


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def generic_size(document: object) -> tuple[BattleSize, float]:
    """The size the shipped games' document shapes give, and the longest board side found."""
    cells, units, side = 0, 0, 0.0
    stack: list[tuple[object, int]] = [(document, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > 64:
            continue
        if isinstance(node, dict):
            width, height = _number(node.get("width")), _number(node.get("height"))
            if width is not None and height is not None:
                side = max(side, abs(width), abs(height))
                cells = max(cells, int(min(abs(width) * abs(height), 10**18)))
            for key, value in node.items():
                if key in UNIT_LISTS and isinstance(value, list):
                    units += sum(isinstance(entry, dict) for entry in value)
                stack.append((value, depth + 1))
        elif isinstance(node, list):
            stack.extend((value, depth + 1) for value in node)
    return BattleSize(cells, units), side


def check_size(document: object, where: str, game: object = None, actions: int = 0,
               limits: BattleLimits = BATTLE_LIMITS) -> BattleSize:
    """Refuse a battle whose initial ``document`` (or log of ``actions`` entries) passes a limit,
    or whose names would display as something else (:mod:`.names`)."""
    from .names import check_names

    check_names(document, where)
    size, side = generic_size(document)
    hook = getattr(game, "size_of", None)
    if callable(hook):
        size = hook(document)
        side = 0.0
    problems = []
    if side > limits.side:
        problems.append(f"a board side of {side:g} (at most {limits.side})")
    if size.cells > limits.cells:
        problems.append(f"a board of {size.cells:,} {noun_for(size.cells, 'cell')} (at most {limits.cells:,})")
    if size.units > limits.units:
        problems.append(f"{size.units:,} {noun_for(size.units, 'unit')} (at most {limits.units:,})")
    if actions > limits.actions:
        problems.append(f"{actions:,} {noun_for(actions, 'action')} (at most {limits.actions:,})")
    if problems:
        raise BattleTooLargeError(f"{where}: the battle is too large for this keeper: {'; '.join(problems)} — "
                                  "see docs/limits.md", cells=size.cells, units=size.units, actions=actions)
    return size
