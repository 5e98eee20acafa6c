"""Verifiable dice: neither the host nor a player can choose a battle's seed, and anyone can check every draw.

How (the scheme ``rulekeeper-dice/2``):

1. When the battle is created the server draws a 32-byte **secret** and publishes its
   **commitment**, ``SHA-256(secret)``; the battle holds a placeholder seed and nobody may act.
2. Each side's device draws a **contribution** of its own, 32 random bytes (the battle page's
   script makes them with ``crypto.getRandomValues`` and keeps them on the device), and first
   sends only its **commitment**, ``SHA-256("rulekeeper-dice/2 commitment\\n" ‖ side ‖ "\\n" ‖
   contribution)`` (:func:`~rulekeeper.persistence.dice_store.contribution_commitment`).
3. Once every side has committed, each device reveals its contribution; the keeper refuses a
   reveal before that (``dice_not_committed``) and one that does not hash to its side's
   commitment (``contribution_mismatch``).  No contribution is shown to anyone before every
   side has committed.  (A side may also hand its contribution over in one step — the page's
   form without scripts, ``battle contribute`` — the keeper then records its commitment for it;
   such a value is in the keeper's database from then on, see ``docs/web.md``.)
4. With the last one the battle's **seed** becomes the first 63 bits of
   ``SHA-256("rulekeeper-dice/1\\n" ‖ secret ‖ contribution of each side, in the game's side order)``,
   the initial document is rebuilt with it (``Game.reseeded``) and the set-up sealed again —
   the commitment, the sides' commitments and the contributions in ``meta["dice"]``, under the
   hash chain's genesis.
5. When the battle is over (and its last results revealed) the secret is shown.  Anyone can
   then check that it hashes to the commitment, that each contribution hashes to its side's
   commitment, recompute the seed, and replay every action from the initial document:
   :func:`verify_export` (``rulekeeper battle verify FILE``, the web keeper's verify page)
   names the first thing that does not match.

Why the sides commit: the host of a keeper can read the secret in its own database, so a host
who also plays and saw another side's contribution first could try contributions of its own
until the seed suited it (fault 8 of issue 23).  With commitments, every contribution is fixed
before any is seen; the host's secret was fixed before any commitment.  What the host can still
see (the secret, hence every future roll, and face-down results) is listed in ``docs/web.md``.
Until the end, no client receives the secret or the seed (nor, as always, the RNG state).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import Game
from rulekeeper.core.size import check_size
from rulekeeper.core.wording import counted
from rulekeeper.persistence import chain
from rulekeeper.persistence.dice_store import DiceRecord, NotVerifiableError, commitment_of, contribution_commitment
from rulekeeper.persistence.schema import ExportDoc, validate_export
from rulekeeper.persistence.store import BattleStore

from .battles import BattleService, game_of, is_pending
from .diff import json_diff
from .reading import DAMAGE

SCHEME = "rulekeeper-dice/2"
#: The seed's hash label (unchanged from scheme ``/1``: only the commitments are new).
LABEL = b"rulekeeper-dice/1\n"


class BadContributionError(RulekeeperError):
    code = "bad_contribution"


class DiceRequestError(RulekeeperError):
    """Verifiable dice asked for with what contradicts them (a chosen seed, autoplay before the contributions)."""

    code = "bad_request"


class BadExportError(RulekeeperError):
    """The file to verify is not a battle export (malformed, wrong shape): nothing could be checked."""

    code = "bad_export"


class RoleValue(TypedDict):
    role: str
    value: str


class SealedDice(TypedDict):
    """The dice as a battle's sealed ``meta`` holds them (and its export shows them)."""

    scheme: str
    commitment: str
    contributions: list[RoleValue] | None


class PublishedDice(SealedDice):
    commitments: list[RoleValue]


@dataclass(frozen=True)
class NewDice:
    secret: str
    commitment: str
    roles: tuple[str, ...]

    def public(self) -> SealedDice:
        """What the battle's sealed ``meta`` holds while the contributions are awaited."""
        return {"scheme": SCHEME, "commitment": self.commitment, "contributions": None}


def new_dice(roles: Sequence[str]) -> NewDice:
    secret = secrets.token_bytes(32).hex()
    return NewDice(secret, commitment_of(secret), tuple(roles))


def dice_seed(secret: str, contributions: Sequence[tuple[str, str]]) -> int:
    """The battle's seed: the first 63 bits of SHA-256(label ‖ secret ‖ each contribution in side order)."""
    digest = hashlib.sha256(LABEL + bytes.fromhex(secret) + b"".join(bytes.fromhex(v) for _, v in contributions))
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def contribution(value: str, what: str = "contribution") -> str:
    """A contribution (or a commitment) as stored: 32 bytes as lower-case hex (spaces and upper case forgiven)."""
    text = "".join(str(value).split()).lower()[:200]
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise BadContributionError(f"a {what} is 32 bytes written as 64 hexadecimal digits (0-9, a-f)", field=what)
    return text


def _public(dice: DiceRecord) -> PublishedDice:
    return {"scheme": SCHEME, "commitment": dice.commitment,
            "commitments": [{"role": r, "value": dice.commitments[r]} for r in dice.roles],
            "contributions": [{"role": r, "value": v} for r, v in dice.ordered()]}


class DiceStatusJson(TypedDict):
    """A :class:`DiceStatus` as the API and ``dice status --json`` give it (its fields, in order; the seed as
    text, 63 bits that JavaScript keeps exact)."""

    verifiable: bool
    commitment: str | None
    roles: list[str]
    contributions: dict[str, str | None] | None
    waiting: list[str]
    ready: bool
    revealed: bool
    secret: str | None
    seed: str | None
    scheme: str
    commitments: dict[str, str | None] | None
    uncommitted: list[str]
    committed: bool


@dataclass(frozen=True)
class DiceStatus:
    """What every link may see of a battle's dice (``secret`` and ``seed`` only once it is over).

    ``contributions`` are shown only once every side has committed (``committed``): before
    that a side could see another's and adapt its own.  ``commitments`` are shown as they come.
    """

    verifiable: bool
    commitment: str | None = None
    roles: tuple[str, ...] = ()
    contributions: dict[str, str | None] | None = None
    waiting: tuple[str, ...] = ()
    ready: bool = True
    revealed: bool = False
    secret: str | None = None
    seed: int | None = None
    scheme: str = SCHEME
    commitments: dict[str, str | None] | None = None
    uncommitted: tuple[str, ...] = ()
    committed: bool = True

    def to_dict(self) -> DiceStatusJson:
        return {"verifiable": self.verifiable, "commitment": self.commitment, "roles": list(self.roles),
                "contributions": _copied(self.contributions), "waiting": list(self.waiting), "ready": self.ready,
                "revealed": self.revealed, "secret": self.secret,
                "seed": None if self.seed is None else str(self.seed),  # 63 bits: text, so JavaScript keeps it exact
                "scheme": self.scheme, "commitments": _copied(self.commitments), "uncommitted": list(self.uncommitted),
                "committed": self.committed}


class Dice:
    """The verifiable dice of the battles of one :class:`BattleService`."""

    def __init__(self, service: BattleService) -> None:
        self.service = service
        self.store: BattleStore = service.store

    def revealed(self, bid: str) -> bool:
        """Over, and the last results turned over: the secret may be shown (the end screen is too)."""
        rec = self.store.get(bid)
        if rec.status != "over":
            return False
        last = self.store.entry(bid, rec.position - 1) if rec.position else None
        return last is None or not is_pending(last, rec)

    def status(self, bid: str) -> DiceStatus:
        dice = self.store.dice(bid)
        if dice is None:
            return DiceStatus(False)
        shown = self.revealed(bid) and dice.secret is not None and dice.ready
        given = {r: dice.contributions.get(r) if dice.committed else None for r in dice.roles}
        promised = {r: dice.commitments.get(r) for r in dice.roles}
        return DiceStatus(True, dice.commitment, dice.roles, given, dice.waiting, dice.ready, shown,
                          dice.secret if shown else None, self.store.get(bid).seed if shown else None,
                          commitments=promised, uncommitted=dice.uncommitted, committed=dice.committed)

    def commit(self, bid: str, role: str, commitment: str) -> DiceStatus:
        """Keep ``role``'s commitment (once); its contribution is revealed once every side has committed."""
        self.store.commit(bid, role, contribution(commitment, "commitment"))
        return self.status(bid)

    def contribute(self, bid: str, role: str, value: str) -> DiceStatus:
        """Add (or reveal) ``role``'s contribution, once; the last one seals the dice and reseeds the battle."""
        given = contribution(value)
        g = self.service.game(bid)

        def seal(dice: DiceRecord, initial: dict[str, Any]) -> tuple[int, dict[str, Any], PublishedDice]:
            if dice.secret is None:
                raise NotVerifiableError("this copy of the battle was imported without the dice's secret: it cannot "
                                         "be sealed here", battle_id=bid)
            seed = dice_seed(dice.secret, dice.ordered())
            return seed, g.reseeded(initial, seed), _public(dice)

        self.store.contribute(bid, role, given, seal)
        return self.status(bid)

    def verify(self, bid: str) -> Verification:
        """Verify the stored battle as its export would be verified (the secret only once revealed)."""
        return verify_export(self.store.export(bid))


# -- verification -------------------------------------------------------------------------------


def _copied(by_role: dict[str, str | None] | None) -> dict[str, str | None] | None:
    return None if by_role is None else dict(by_role)


class VerificationJson(TypedDict):
    """A :class:`Verification` as JSON (its fields, in order; the seed as text)."""

    ok: bool
    actions: int
    verifiable: bool
    message: str
    field: str | None
    index: int | None
    seed: str | None
    commitment: str | None


@dataclass(frozen=True)
class Verification:
    """The answer of :func:`verify_export`: verified, or the first thing that does not match."""

    ok: bool
    actions: int  # actions replayed identically
    verifiable: bool
    message: str
    field: str | None = None  # the part of the export at fault ("dice.secret", "log.3"...)
    index: int | None = None  # the first action that does not match
    seed: int | None = None
    commitment: str | None = None

    def to_dict(self) -> VerificationJson:
        return {"ok": self.ok, "actions": self.actions, "verifiable": self.verifiable, "message": self.message,
                "field": self.field, "index": self.index, "seed": None if self.seed is None else str(self.seed),
                "commitment": self.commitment}


class _Mismatch(Exception):
    def __init__(self, field: str, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.field, self.message, self.index = field, message, index


def verify_export(doc: object) -> Verification:
    """Check an exported battle: the dice's secret against its commitment, the seed made from the
    contributions, the initial document's seed, every action replayed from it (its results
    compared with the logged ones), the final status and the hash chain.

    Raises :class:`BadExportError` when the document is not an export at all; every mismatch
    is answered as an unverified :class:`Verification` naming the field and the action.
    """
    parsed, problems = validate_export(doc)
    if parsed is None:
        raise BadExportError("not a rulekeeper battle export: " + "; ".join(f"{f}: {m}" for f, m in problems[:3]),
                             field=problems[0][0])
    g = game_of(parsed.battle.ruleset)
    check_size(parsed.initial, "the export", g, len(parsed.log))  # its claimed board and units, before any replay
    done = 0
    seed: int | None = None
    try:
        seed = _check_dice(g, parsed)
        done = _replay(g, parsed)
        _check_chain(parsed)
    except _Mismatch as bad:
        return Verification(False, done if bad.index is None else bad.index, parsed.dice is not None, bad.message,
                            bad.field, bad.index, seed, parsed.dice.commitment if parsed.dice else None)
    n = len(parsed.log)
    if parsed.dice is None:
        return Verification(True, n, False, f"replayed: {counted(n, 'action')} identical — but this battle has a plain "
                                            "seed chosen when it was created, not verifiable dice",
                            seed=parsed.battle.seed)
    return Verification(True, n, True, f"verified: {counted(n, 'action')}", seed=seed,
                        commitment=parsed.dice.commitment)


def _check_dice(g: Game, parsed: ExportDoc) -> int | None:
    """The seed the dice make, checked against the sealed copy, the battle's seed and its initial document."""
    dice, sealed = parsed.dice, parsed.battle.meta.get("dice")
    if dice is None and sealed is None:
        return None
    if dice is None or not isinstance(sealed, dict):
        raise _Mismatch("dice", "the battle's dice block and its sealed copy (battle.meta.dice) do not go together")
    if dice.secret is None:
        raise _Mismatch("dice.secret", "the secret is not revealed: the battle is not over yet (or its last results "
                                       "are still face down), so its dice cannot be checked")
    if commitment_of(dice.secret) != dice.commitment:
        raise _Mismatch("dice.secret", "the SHA-256 of the revealed secret is not the commitment shown at the start")
    if sealed.get("commitment") != dice.commitment:
        raise _Mismatch("dice.commitment", "the commitment is not the one sealed with the battle's set-up")
    try:
        roles = tuple(g.roles(parsed.initial))
    except DAMAGE as exc:
        raise _Mismatch("initial", f"the initial document cannot be read ({str(exc)[:200]})") from None
    if tuple(dice.roles) != roles:
        raise _Mismatch("dice.roles", f"the dice's sides {dice.roles} are not the battle's {list(roles)}")
    given = [(r, dice.contributions[r]) for r in roles if r in dice.contributions]
    if len(given) != len(roles):
        missing = [r for r in roles if r not in dice.contributions]
        raise _Mismatch("dice.contributions", f"{'side' if len(missing) == 1 else 'sides'} {', '.join(missing)} never contributed: the dice were "
                                              "never sealed")
    _check_commitments(dice.commitments, sealed, given)
    recorded = sealed.get("contributions")
    if recorded != [{"role": r, "value": v} for r, v in given]:
        side = next((r for i, (r, v) in enumerate(given)
                     if not isinstance(recorded, list) or i >= len(recorded) or recorded[i] != {"role": r, "value": v}),
                    roles[0])
        raise _Mismatch(f"dice.contributions.{side}", f"side {side}'s contribution is not the one sealed with the "
                                                      "battle's set-up")
    seed = dice_seed(dice.secret, given)
    if parsed.battle.seed != seed:
        raise _Mismatch("battle.seed", f"the battle's seed {parsed.battle.seed} is not the one the dice make ({seed})")
    if chain.canonical(g.reseeded(parsed.initial, seed)) != chain.canonical(parsed.initial):
        raise _Mismatch("initial", "the initial document's seed is not the one the dice make")
    return seed


def _check_commitments(promised: dict[str, str] | None, sealed: Mapping[str, object],
                       given: Sequence[tuple[str, str]]) -> None:
    """Scheme ``/2``: each contribution hashes to the commitment its side gave before any was revealed."""
    recorded = sealed.get("commitments")
    if promised is None and recorded is None:
        return  # scheme /1 (before commitments): nothing to check here
    if promised is None or recorded != [{"role": r, "value": promised.get(r)} for r, _ in given]:
        side = next((r for i, (r, _) in enumerate(given)
                     if promised is None or not isinstance(recorded, list) or i >= len(recorded)
                     or recorded[i] != {"role": r, "value": promised.get(r)}), given[0][0])
        raise _Mismatch(f"dice.commitments.{side}", f"side {side}'s commitment is not the one sealed with the "
                                                    "battle's set-up")
    for role, value in given:
        if contribution_commitment(role, value) != promised.get(role):
            raise _Mismatch(f"dice.contributions.{role}", f"side {role}'s contribution does not match the commitment "
                                                          "it gave before any contribution was revealed")


def _replay(g: Game, parsed: ExportDoc) -> int:
    """Every action played again from the initial document; the first one whose results differ is named."""
    try:
        state = g.initial_state(parsed.initial)
    except DAMAGE as exc:
        raise _Mismatch("initial", f"the initial document cannot be read ({str(exc)[:200]})") from None
    for i, entry in enumerate(parsed.log):
        what = f"action {i + 1} ({_text(g, entry.action)})"
        try:
            out = g.apply(state, entry.action)
        except DAMAGE as exc:
            raise _Mismatch(f"log.{i}.action", f"{what} cannot be played: {str(exc)[:300]}", i) from None
        if chain.canonical(out.record) != chain.canonical(entry.result):
            diffs = json_diff(out.record, entry.result)
            raise _Mismatch(f"log.{i}.result", f"{what}: its logged results are not what the dice give "
                                               f"({'; '.join(diffs[:2])[:300]})", i)
        state = out.state
    status = g.status(state)
    if (parsed.battle.status, parsed.battle.turn) != (status.label, status.turn):
        raise _Mismatch("battle.status", f"the file says {parsed.battle.status!r}, turn {parsed.battle.turn}, but the "
                                         f"log replays to {status.label!r}, turn {status.turn}")
    return len(parsed.log)


def _text(g: Game, action: Mapping[str, object]) -> str:
    try:
        return g.action_text(action)[:120]
    except DAMAGE:
        return json.dumps(action)[:120]


def _check_chain(parsed: ExportDoc) -> None:
    """The seals of what the replay does not recompute: times, shown flags, title, set-up."""
    if parsed.chain is None:
        return
    start = chain.genesis(parsed.battle.model_dump(), parsed.initial)
    if parsed.chain.genesis != start:
        raise _Mismatch("battle", "the battle's set-up (title, created time, meta or initial document) was changed "
                                  "after it was sealed: the genesis does not match")
    entries = [chain.Sealed(e.action, e.result, e.created or "", e.shown) for e in parsed.log]
    broken = chain.first_break(start, entries, [e.chain for e in parsed.log])
    if broken is not None:
        raise _Mismatch(f"log.{broken}", f"action {broken + 1} was changed after it was recorded (its time or shown "
                                         "flag): its link in the hash chain does not match", broken)
    links = chain.links(start, entries)
    if parsed.chain.head != (links[-1] if links else start):
        raise _Mismatch("chain.head", "the fingerprint is not the last link of the log")
