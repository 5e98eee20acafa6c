"""A side the keeper plays itself: which side, how strong, and with which seed.

Why it is stored with the battle: a solo player's battle must go on where it stopped,
whichever keeper process (or restart) serves it next, and an export must say that one side
was the keeper's.  It lives in the battle's ``meta`` document (``meta["bot"]``), which the
hash chain seals at creation like the rest of the set-up, so no column (and no migration) is
needed and nobody can later turn a human side into the keeper's, or back.

A strength is a policy and a time budget (:data:`STRENGTHS`): ``simple`` is the game's own
shipped policy (instant), the others the search bot's own strengths (:mod:`rulekeeper.bots`).  The
seed makes the bot's choices reproducible: a battle created with a seed of fate gets a bot
seed made from it (so a seeded battle replays the same bot), otherwise a random one.  Each
decision's seed is derived from it and the log position, so two decisions never share one.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from rulekeeper.bots import DEFAULT_STRENGTH as BOT_DEFAULT
from rulekeeper.bots import STRENGTHS as BOT_STRENGTHS
from rulekeeper.bots import move_seed
from rulekeeper.core.errors import RulekeeperError, UnknownNameError

#: Strength name → seconds a move at most: ``simple`` is the game's shipped policy, the others the
#: search bot's strengths (:data:`rulekeeper.bots.STRENGTHS`: a time and a simulation budget each).
STRENGTHS: dict[str, float] = {"simple": 0.0, **{name: float(b.seconds or 0.0) for name, b in BOT_STRENGTHS.items()}}
DEFAULT_STRENGTH = BOT_DEFAULT
#: What the new-battle form shows for each strength.
STRENGTH_WORDS = {name: ("Simple: the game's own autoplay policy (instant)" if name == "simple" else
                         f"{name.capitalize()}: searches up to {seconds:g} s a move")
                  for name, seconds in STRENGTHS.items()}


class BadBotSeatError(RulekeeperError):
    code = "bad_request"


class SeatJson(TypedDict):
    """A :class:`BotSeat` as a battle's ``meta["bot"]`` stores it (``policy`` for readers; read back by :func:`seat_of`)."""

    side: str
    strength: str
    policy: str
    seed: int | None


@dataclass(frozen=True)
class BotSeat:
    """The side the keeper plays in one battle."""

    side: str
    strength: str
    seed: int | None  # None (a seat written by ``battle new --bot``): the battle's own seed, as the CLI does

    @property
    def policy(self) -> str:
        return "simple" if self.strength == "simple" else "search"

    @property
    def seconds(self) -> float:
        """The most one move may think (0: the shipped policy, no search)."""
        return STRENGTHS[self.strength]

    def words(self) -> str:
        """How the pages name it: "the keeper (normal, up to 1 s a move)"."""
        if self.policy == "simple":
            return "the keeper (simple policy)"
        return f"the keeper ({self.strength}, up to {self.seconds:g} s a move)"

    def seed_at(self, position: int, battle_seed: int = 0) -> int:
        """The seed of the decision taken at log ``position`` (a fresh one per decision, reproducible)."""
        return move_seed(self.seed if self.seed is not None else max(0, battle_seed), position)

    def to_meta(self) -> SeatJson:
        return {"side": self.side, "strength": self.strength, "policy": self.policy, "seed": self.seed}


def seat_of(meta: Mapping[str, object] | None) -> BotSeat | None:
    """The keeper's side of a battle from its ``meta`` (None: every side is a player's).

    A ``meta["bot"]`` this code cannot read (another version's, a hand-edited database) is
    treated as no keeper side: the battle stays playable by links rather than failing every page.
    """
    found = (meta or {}).get("bot")
    if not isinstance(found, Mapping):
        return None
    side, strength, seed = found.get("side"), found.get("strength") or DEFAULT_STRENGTH, found.get("seed")
    if not isinstance(side, str) or strength not in STRENGTHS or not isinstance(seed, int | None):
        return None
    return BotSeat(side, str(strength), seed)


def new_seat(roles: Sequence[str], wanted: str, strength: str | None, battle_seed: int | None) -> BotSeat | None:
    """The seat a new-battle request asks for, checked against the battle's sides.

    ``wanted``: empty or ``none`` (two players), a side's name (``B``, ``defenders``), or
    ``first``/``second`` (the form's choices, whatever the game calls its sides).
    ``battle_seed``: the seed of fate typed by the player (None: verifiable dice, a random bot seed).
    """
    wanted = (wanted or "").strip()
    if wanted in ("", "none"):
        return None
    order = {"first": 0, "second": 1}
    if wanted in order:
        if len(roles) <= order[wanted]:
            raise BadBotSeatError(f"this battle has no {wanted} side (its sides: {', '.join(roles)})", field="bot")
        side = roles[order[wanted]]
    elif wanted in roles:
        side = wanted
    else:
        raise UnknownNameError("side for the keeper to play", wanted[:40], [*roles, "first", "second", "none"])
    if len(roles) < 2:
        raise BadBotSeatError("a battle with one side has nobody left to play against the keeper", field="bot")
    chosen = strength or DEFAULT_STRENGTH
    if chosen not in STRENGTHS:
        raise UnknownNameError("strength", chosen[:40], list(STRENGTHS))
    if battle_seed is None:
        seed = secrets.randbelow(2**62)
    else:
        seed = int.from_bytes(hashlib.sha256(f"bot-seed:{battle_seed}".encode()).digest()[:8], "big") >> 2
    return BotSeat(side, chosen, seed)
