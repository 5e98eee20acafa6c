"""What every Ex illis battle state is, importable without the engine.

Why: the registry checks each state handed to a typed game against its ``state_type``
(``core.registered``), and it reads that class when the game is first looked up — by every command,
``rulekeeper odds`` included. :class:`.battle.state.BattleState` brings the zone board and the RNG
with it; this empty base class is what ``ExIllis.state_type`` names, so looking the game up stays as
cheap as it was, while a state of another game is still refused by name.
"""

from __future__ import annotations


class ExIllisState:
    """The base class of :class:`~.battle.state.BattleState` (no fields of its own; no ``__slots__`` either:
    :func:`.fastcopy.evolve` copies a state's ``__dict__``)."""
