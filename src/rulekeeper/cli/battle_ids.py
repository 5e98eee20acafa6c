"""Battle ids as a player types them: any unique prefix (as git and docker take), or none for the current battle.

A whole id is always taken as it is; a shorter text names the one battle of the store whose id starts with
it; a prefix several ids share is refused naming them (exit 2), and so is one no id starts with. Omitting the
id means the store's current battle (:mod:`.current`): the last one created, played or chosen with
``battle use``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.errors import RulekeeperError

from . import current

if TYPE_CHECKING:
    from rulekeeper.service.battles import BattleService
    from rulekeeper.service.reading import BattleReading

#: Candidates named in an ambiguity message (a prefix such as "b" matches every battle).
SHOWN = 8


class AmbiguousIdError(RulekeeperError):
    """A prefix more than one battle id starts with."""

    code = "ambiguous_id"


class NoCurrentBattleError(RulekeeperError):
    """No id given and no current battle in this store."""

    code = "no_current_battle"


def matches(ids: list[str], prefix: str) -> list[str]:
    """The ids ``prefix`` names: itself when it is a whole id, else every id starting with it."""
    if prefix in ids:
        return [prefix]
    return [i for i in ids if prefix and i.startswith(prefix)]


def resolve(svc: BattleReading, given: str | None) -> str:
    """The whole id of the battle ``given`` names (None: the current battle); typed errors otherwise."""
    from rulekeeper.persistence.errors import BattleNotFoundError

    if given is None:
        return current_battle(svc)
    found = matches([r.id for r in svc.list()], given)
    if not found:
        raise BattleNotFoundError(given)
    if len(found) > 1:
        more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
        raise AmbiguousIdError(f"{given!r} is the start of {len(found)} battle ids: "
                               f"{', '.join(sorted(found)[:SHOWN])}{more}; type more of it",
                               battle_id=given, candidates=sorted(found)[:SHOWN])
    return found[0]


def current_battle(svc: BattleReading) -> str:
    from rulekeeper.persistence.errors import BattleNotFoundError

    bid = current.current(svc.store.url)
    if bid is None:
        raise NoCurrentBattleError("no battle id given and no current battle in this store: give one "
                                   "(rulekeeper battle list shows them) or choose one with: rulekeeper battle use ID")
    try:
        svc.record(bid)
    except BattleNotFoundError:
        raise NoCurrentBattleError(f"the current battle {bid!r} is no longer in this store: give a battle id "
                                   "or choose one with: rulekeeper battle use ID", battle_id=bid) from None
    return bid


def is_battle(svc: BattleService, text: str) -> bool:
    """Whether ``text`` names a battle (a whole id or the prefix of at least one) rather than an action word.

    Used where an id may be left out before free words (``battle act [ID] WORDS``): a prefix counts only from
    three characters on (``b-0``), so that a one-word action such as ``1`` or ``hold`` is never read as an id.
    """
    ids = [r.id for r in svc.list()]
    return text in ids or (len(text) >= 3 and any(i.startswith(text) for i in ids))


def make_current(svc: BattleService, bid: str) -> None:
    """The battle just created or played becomes the store's current one (silently skipped if it cannot)."""
    current.set_current(svc.store.url, bid)
