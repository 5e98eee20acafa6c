"""Ex illis actions and the JSON objects the log keeps for them (the typed protocol's ``action_codec``).

Why not ``core.actioncodec.ActionCodec``: it writes every field, ``None`` ones as null, while the Ex
illis log has always left out an absent ``target`` or ``option`` (``{"kind": "wait", "unit": "A:Billmen"}``);
the golden playthroughs hash those bytes. :meth:`.battle.actions.Action.to_dict` and
:meth:`~.battle.actions.Action.from_dict` are that format, and this codec is them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .battle.actions import Action


class ExIllisActionCodec:
    """The logged JSON of an :class:`~.battle.actions.Action`, and back (a malformed object is an
    ``IllegalActionError`` naming the field). The engine is imported on the first decode only."""

    def encode(self, action: Action) -> dict[str, object]:
        return dict(action.to_dict())

    def decode(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> Action:
        from .battle.actions import Action

        return Action.from_dict(data)


ACTIONS = ExIllisActionCodec()
