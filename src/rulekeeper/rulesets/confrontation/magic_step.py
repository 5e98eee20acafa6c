"""A spell's, a miracle's or a counter's resolution as the game applies it (magic.py holds the rules)."""

from __future__ import annotations

from rulekeeper.core.chance import Fate

from .action_types import Cast, SkirmishAction
from .magic import do_cast, do_counter, do_let
from .report_lines import ReportLine
from .spells import mystic_rules
from .state import Fighter, SkirmishState


def magic_step(state: SkirmishState, f: Fighter, action: SkirmishAction,
               fate: Fate) -> tuple[SkirmishState, list[ReportLine]]:
    if isinstance(action, Cast):
        card = mystic_rules().card(action.spell)
        assert card is not None  # checked
        return do_cast(state, f, card, state.fighter(action.target), fate)
    if action.kind == "counter":
        return do_counter(state, f, fate)
    return do_let(state, fate)
