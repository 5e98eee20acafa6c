"""An action's odds computed only when a page shows them.

Why: the battle page lists the side's actions, but each game's presenter shows the odds of a few
of them — the Battle System, Dragon Noir and Confrontation pages show the picked unit's actions
only. Previewing every legal action first made a page cost the whole list's odds (a large Battle
System scenario: minutes of CPU per page view; issue 23, fault 5). The presenters keep their
signature (a list of :class:`~rulekeeper.core.game.OddsPreview`, one per legal action); each
item here computes its preview the first time a presenter reads it, then keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from rulekeeper.core.chance import ChanceRequest
from rulekeeper.core.game import OddsPreview

#: An action as the game's ``preview`` takes it (the neutral layers hold it as the log's JSON).
ActionT = TypeVar("ActionT")


class ShownOdds(OddsPreview):
    """An :class:`OddsPreview` whose ``headline`` and ``draws`` come from ``compute()``, called once, on first read."""

    def __init__(self, compute: Callable[[], OddsPreview]) -> None:  # not the dataclass' __init__: no fields yet
        object.__setattr__(self, "_compute", compute)
        object.__setattr__(self, "_odds", None)

    def computed(self) -> OddsPreview:
        odds: OddsPreview | None = self.__dict__["_odds"]
        if odds is None:
            odds = self.__dict__["_compute"]()
            object.__setattr__(self, "_odds", odds)
        return odds

    @property
    def headline(self) -> tuple[tuple[str, float | str], ...]:
        return self.computed().headline

    @property
    def draws(self) -> tuple[ChanceRequest, ...]:
        return self.computed().draws

    @property
    def is_computed(self) -> bool:
        return self.__dict__["_odds"] is not None


def shown_odds(preview: Callable[[object, ActionT], OddsPreview], state: object,
               actions: Sequence[ActionT]) -> list[OddsPreview]:
    """One :class:`ShownOdds` per action: ``preview(state, action)`` when a presenter first reads it."""
    return [ShownOdds(partial(preview, state, action)) for action in actions]
