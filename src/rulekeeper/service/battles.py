"""Stored battles of any game: create, act, undo, replay, export/import, autoplay.

The service knows no rule system: it reaches the battle's game through the protocol
(:class:`rulekeeper.core.game.Game`), found by the ruleset name stored with the battle.

State is never trusted blindly: it is the fold of the stored log over the initial
document. Each log entry keeps a checkpoint of the state after it, so any moment of a
battle (the current one, the one before a face-down result, a replay step) loads in
constant time, however long the battle; ``replay`` folds the whole log again and proves
every checkpoint identical, bit for bit (the RNG state included). The state last used is
kept in memory and reused while the store's revision says nobody else wrote since.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from rulekeeper.core.errors import IllegalActionError, ReplayMismatchError, RulekeeperError, UnknownNameError
from rulekeeper.core.game import (
    SPECTATOR,
    BattleSetup,
    Game,
    JsonDict,
    Outcome,
    SetupRequest,
    Status,
    face_down,
    policy_for,
)
from rulekeeper.core.names import check_text
from rulekeeper.core.size import BATTLE_LIMITS, BattleTooLargeError, check_size
from rulekeeper.persistence.store import BattleRecord, BattleStore, LogEntry, StaleStateError

from .acting import (
    ActRequest,
    At,
    DiceNotReadyError,
    GameOverError,
    NotYourSideError,
    NotYourTurnError,
    ResultsPendingError,
    ResultsShownError,
    UnauthorizedError,
    check_undo_link,
    checked,
    is_pending,
    require_dice,
)
from .diff import json_diff
from .reading import DAMAGE, BattleReading, NotABattleGameError, game_of, read_stored

__all__ = ["BattleService", "DiceNotReadyError", "GameOverError", "NotABattleGameError", "NotYourSideError",
           "NotYourTurnError", "ActRequest", "Played", "Replay", "ResultsPendingError", "ResultsShownError", "UnauthorizedError", "Visible", "game_of", "guess_ruleset", "is_pending",
           "require_dice"]


class HasJson(Protocol):
    """An action object of a game (its own type) that knows its JSON form."""

    def to_dict(self) -> Mapping[str, object]: ...


#: An action as a caller hands it in: read and checked by the game's ``parse_action`` before anything else.
ActionLike = Mapping[str, object] | HasJson


@dataclass(frozen=True)
class Replay:
    state: object
    identical: bool
    actions: int
    differences: list[str]


@dataclass(frozen=True)
class Played:
    """An act done: its outcome, the log's new position, the battle's game (to read the outcome with) and the
    battle's record the act was checked against (before it)."""

    outcome: Outcome
    position: int
    game: Game
    record: BattleRecord


@dataclass(frozen=True)
class Visible:
    """What players see now: the state before a face-down result, or the current one."""

    state: object
    pending: LogEntry | None  # the last entry, while its chance results are face down
    record: BattleRecord | None = None  # the battle's record at that same moment


def _json_of(action: ActionLike) -> Mapping[str, object]:
    return dict(action) if isinstance(action, Mapping) else action.to_dict()


class BattleService(BattleReading):
    """Battles of every registered game kept in a :class:`BattleStore`."""

    store: BattleStore

    def __init__(self, store: BattleStore) -> None:
        super().__init__(store)

    # -- games -----------------------------------------------------------------------------------

    # -- creating ------------------------------------------------------------------------------

    def new(self, source: Path | SetupRequest | BattleSetup, seed: int = 0, options: list[str] | None = None,
            practice: bool = False, title: str = "", meta: JsonDict | None = None, ruleset: str | None = None,
            verifiable: bool = False) -> str:
        """Store a new battle from a scenario file, a set-up request or a ready set-up.

        ``verifiable``: the battle gets verifiable dice (:mod:`.dice`) unless its game draws no chance;
        its seed is then made from the sides' contributions, and nobody acts before they are all in.
        """
        if isinstance(source, BattleSetup):
            setup = source
        else:
            request = source if isinstance(source, SetupRequest) else SetupRequest(
                scenario=Path(source), seed=seed, options=tuple(options or ()), practice=practice, db=self.store.url)
            setup = game_of(ruleset or guess_ruleset(request)).setup(request)
        g = game_of(setup.ruleset)
        check_size(setup.document, setup.scenario or setup.title or "the set-up", g)  # before any work on it
        if title:
            check_text(title, "title")
        meta = {**setup.meta, **(meta or {})}
        dice, document = None, setup.document
        if verifiable and not g.deterministic:
            from .dice import new_dice

            dice = new_dice(g.roles(setup.document))
            meta["dice"], document = dice.public(), g.reseeded(setup.document, 0)  # 0 until the dice are sealed
        status = g.status(g.initial_state(document))
        bid = self.store.create(ruleset=setup.ruleset, scenario=setup.scenario, seed=0 if dice else setup.seed,
                                initial=document, title=title or setup.title, meta=meta)
        if dice is not None:
            self.store.add_dice(bid, commitment=dice.commitment, secret=dice.secret, roles=dice.roles)
        self.store.set_status(bid, status.label, status.turn)
        return bid

    def roles(self, bid: str) -> tuple[str, ...]:
        """Every role a link can grant: the game's sides, then the spectator."""
        return (*self.game(bid).roles(self.store.initial(bid)), SPECTATOR)

    # -- reading -------------------------------------------------------------------------------

    # -- reading (the rest is BattleReading's) ----------------------------------------------

    def visible(self, bid: str) -> Visible:
        """The state players may see: before the last action while its results are face down.

        One snapshot (:meth:`BattleStore.reading`): the record, the last entry and the
        state all belong to the same moment, so a write landing in between can never pair
        the state after a face-down action with "nothing pending".
        """
        with self.store.reading():
            rec, last = self.store.get_with_last(bid)  # one statement: the record and its last entry
            if last is not None and is_pending(last, rec):
                return Visible(self.state_at(bid, rec.position - 1), last, rec)
            return Visible(self._state_of(rec), None, rec)

    def status(self, bid: str) -> Status:
        return self.game(bid).status(self.state(bid))

    def _fold(self, bid: str, upto: int | None = None) -> tuple[object, builtins.list[str]]:
        """Apply the whole log again; compare every record and checkpoint with what is stored."""
        g = self.game(bid)
        state = read_stored(bid, "its initial document", lambda: g.initial_state(self.store.initial(bid)))
        problems: builtins.list[str] = []
        for e in self.store.entries(bid, 0, upto):
            try:
                out = g.apply(state, e.action)
            except DAMAGE as exc:
                reason = str(exc) if isinstance(exc, RulekeeperError) else f"{type(exc).__name__}: {exc}"
                problems.append(f"action {e.index}: the logged action cannot be played ({reason[:300]})")
                break
            if json.dumps(out.record, sort_keys=True) != json.dumps(e.result, sort_keys=True):
                diffs = json_diff(out.record, e.result)
                problems.append(f"action {e.index}: its results differ from the log ({'; '.join(diffs[:2])})")
            state = out.state
            stored = self.store.checkpoint(bid, e.index + 1)
            if stored is not None:
                problems += [f"after action {e.index}: {d}" for d in json_diff(g.state_to_json(state), stored)]
        return state, problems

    # -- acting --------------------------------------------------------------------------------

    def act(self, bid: str, action: ActionLike, expected_position: int | None = None, shown: bool = True,
            side: str | None = None, expected_revision: int | None = None) -> tuple[Outcome, int]:
        """Apply ``action``; store it in one transaction (refused if the battle moved meanwhile).

        ``side``: the side the caller plays for; ``expected_revision``: the revision the caller
        decided at (the keeper's own side: an undo and another action would bring the position
        back, not the revision). See :meth:`play`.
        """
        done = self.play(bid, action, ActRequest(expected_position, expected_revision, side), shown)
        return done.outcome, done.position

    def play(self, bid: str, action: ActionLike, ask: ActRequest, shown: bool = True) -> Played:
        """The one path of an act (:mod:`.acting`): the record (with its last entry when a web link
        acts) and the state are read from one snapshot, checked once, and the append is a
        compare-and-set on that snapshot's revision: anything written since (an action, a reveal,
        an undo) makes this one stale, nothing written.
        """
        with self.store.reading():
            rec, last = self.store.get_with_last(bid) if ask.link is not None else (self.store.get(bid), None)
            state = self._state_of(rec)
        g = game_of(rec.ruleset)
        data = checked(g, rec, last, state, _json_of(action), ask)
        out, at, _ = self._commit(bid, g, state, data, At.of(rec), shown)
        return Played(out, at.position, g, rec)

    def _commit(self, bid: str, g: Game, state: object, action: JsonDict, at: At,
                shown: bool) -> tuple[Outcome, At, Status]:
        """Apply a checked action and store it with its checkpoint in one transaction.

        The append itself refuses a log that moved since ``at`` (nothing written). Returns the
        outcome, the moment after it (new position, revision and chain head) and the status after it
        (autoplay decides its next action on it: the status of a state is computed once).
        """
        if at.position >= BATTLE_LIMITS.actions:
            raise BattleTooLargeError(f"battle {bid!r} has {at.position:,} actions, the most one battle may log "
                                      "(see docs/limits.md)", battle_id=bid)
        out = g.apply(state, action)
        after = g.status(out.state)
        new_pos, head = self.store.append_chained(
            bid, at.position, out.action, out.record, status=after.label, turn=after.turn,
            checkpoint=g.state_to_json(out.state), shown=shown, expected_revision=at.revision, expected_head=at.head)
        # every write moves the revision on by one: a cache entry another writer outdates just misses
        moved = At(new_pos, at.revision + 1, head)
        self._keep(bid, moved.position, moved.revision, out.state)
        return out, moved, after

    def undo(self, bid: str, expected_position: int | None = None, side: str | None = None,
             link: str | None = None) -> object:
        """Take back the last action, unless a random result of it has been shown.

        Read from one snapshot, written as a compare-and-set on its revision: a reveal
        committed in between makes the undo stale (409), so a shown result never goes back.
        ``side``: only that side's last action may be taken back. ``link``: the role of a web
        link asking (see :func:`.acting.check_undo_link`: the page and the API check it here).
        """
        with self.store.reading():
            rec, last = self.store.get_with_last(bid)
            g = game_of(rec.ruleset)
            position = rec.position if expected_position is None else expected_position
            if link is not None:
                check_undo_link(g, rec, last, position, lambda: g.status(self._state_of(rec)).over, link)
            if last is None:
                raise IllegalActionError("nothing to undo: no action has been played", code_detail="nothing_to_undo")
            if position != rec.position:
                raise StaleStateError(bid, position, rec.position)
            if side is not None and g.side_of(last.action) != side:
                raise NotYourTurnError("only the side that played the last action may take it back")
            if last.shown and face_down(last.result):
                raise ResultsShownError(f"cannot undo {g.action_text(last.action)}: its results were already shown")
            previous = self._state_at(bid, rec.position - 1)
        status = g.status(previous)
        self.store.pop_last(bid, position, status=status.label, turn=status.turn, expected_revision=rec.revision)
        self._keep(bid, position - 1, rec.revision + 1, previous)
        return previous

    def reveal(self, bid: str, expected_position: int) -> bool:
        """Mark the last action's results shown (no undo after); False if they already were.

        A compare-and-set on the revision read with the last entry: an undo (or anything)
        committed in between makes the reveal stale (409) instead of revealing a result
        that is no longer in the log.
        """
        with self.store.reading():
            rec = self.store.get(bid)
            if expected_position != rec.position or rec.position < 1:
                raise StaleStateError(bid, expected_position, rec.position)
            last = self.store.entry(bid, rec.position - 1)
        with self._lock:
            hit = self._cache.get(bid)
        if last.shown:
            return False
        revision = self.store.mark_shown(bid, rec.position - 1, expected_revision=rec.revision)
        if hit is not None and hit[:2] == (rec.position, rec.revision):
            self._keep(bid, rec.position, revision, hit[2])  # the same state: only the flag moved
        return True

    def replay(self, bid: str) -> Replay:
        """Rebuild from the log and compare every result and checkpoint with the stored ones."""
        state, problems = self._fold(bid)
        problems = self.store.verify_chain(bid) + problems
        return Replay(state, not problems, self.store.get(bid).position, problems)

    def autoplay(self, bid: str, sides: set[str] | None = None, max_actions: int = 5000,
                 progress: Callable[[object], None] | None = None,
                 policy: Callable[[object, int, str], Mapping[str, object] | None] | None = None) -> object:
        """Let the policy play ``sides`` (all when None) until the battle ends or another side must act.

        Each action is its own transaction (a killed autoplay resumes at its last action); the
        position and revision are carried from one to the next instead of being read again, and
        a writer that got in between makes the next append fail as stale, changing nothing.
        ``policy(state, position, side)`` replaces the game's shipped policy (``autoplay --policy search``).
        Where sides act at once (the War Table campaign), only ``sides`` are played: the other side's
        orders are left to its player.
        """
        with self.store.reading():  # the record and the state it starts from: one read transaction
            rec = self.store.get(bid)
            require_dice(rec)
            g = game_of(rec.ruleset)
            if sides is not None:
                roles = g.roles(self.store.initial(bid))
                unknown = sorted(set(sides) - set(roles))
                if unknown:
                    raise UnknownNameError("side of this battle", unknown[0], list(roles))
            state = self._state_of(rec)
        at = At.of(rec)
        status = g.status(state)
        for _ in range(max_actions):
            if status.over or not status.to_act:
                break
            action = self._autoplayed(g, state, status, sides, at.position, policy)
            if action is None:
                break
            out, at, status = self._commit(bid, g, state, dict(action), at, shown=False)
            state = out.state
            if progress is not None:
                progress(state)
        return state

    @staticmethod
    def _autoplayed(g: Game, state: object, status: Status, sides: set[str] | None, position: int,
                    policy: Callable[[object, int, str], Mapping[str, object] | None] | None
                    ) -> Mapping[str, object] | None:
        """The action autoplay plays next: for the first side to act among ``sides`` (any when None) that
        the policy has an action for; None when there is none."""
        for side in status.to_act:
            if sides is not None and side not in sides:
                continue
            action = policy_for(g, state, side) if policy is None else policy(state, position, side)
            if action is not None:
                return action
        return None

    def export(self, bid: str, path: Path) -> None:
        """Write the battle to ``path`` (a typed error, not a traceback, when it cannot be written)."""
        text = json.dumps(self.store.export(bid), indent=1, sort_keys=True)
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise RulekeeperError(f"{path}: cannot write the export ({exc.strerror or type(exc).__name__})",
                                  path=str(path)) from None

    def import_(self, path: Path, new_id: bool = False) -> str:
        from rulekeeper.core.datafiles import read_export

        doc = read_export(Path(path))
        if not isinstance(doc, dict):  # JSON, but not a document (a list, a number): refused as the store refuses
            from rulekeeper.persistence.errors import StoreError

            raise StoreError(f"not a valid rulekeeper battle document: the file holds a JSON {type(doc).__name__}, "
                             "not an object", field="(document)")
        log = doc.get("log")
        check_size(doc.get("initial"), str(path), None, len(log) if isinstance(log, list) else 0)
        bid = self.store.import_(doc, new_id=new_id)
        with self._lock:  # a battle deleted and imported again restarts at revision 0
            self._cache.pop(bid, None)
        try:
            game_of(self.store.get(bid).ruleset)
            rep = self.replay(bid)
        except RulekeeperError:
            self.store.delete(bid)
            raise
        if not rep.identical:
            self.store.delete(bid)
            raise ReplayMismatchError(f"{path}: the imported log does not replay: {'; '.join(rep.differences[:3])}")
        status = self.game(bid).status(rep.state)
        claimed = doc["battle"]
        if (claimed["status"], claimed["turn"]) != (status.label, status.turn):
            self.store.delete(bid)
            raise ReplayMismatchError(
                f"{path}: battle.status/turn: the file says {claimed['status']!r}, turn {claimed['turn']}, but its "
                f"log replays to {status.label!r}, turn {status.turn}", field="battle.status")
        self._checkpoint_all(bid)
        self.store.set_status(bid, status.label, status.turn)
        return bid

    def _checkpoint_all(self, bid: str) -> None:
        """Imported logs come without checkpoints: write them (the fold just proved them)."""
        g = self.game(bid)
        state = g.initial_state(self.store.initial(bid))
        for e in self.store.entries(bid):
            state = g.apply(state, e.action).state
            self.store.set_checkpoint(bid, e.index + 1, g.state_to_json(state))


def guess_ruleset(request: SetupRequest) -> str:
    """The game a set-up request is for, when the player did not say.

    The only game that plays battles; else, for army lists (or no scenario at all), the only
    game that takes army lists; else the game a scenario file names (a top-level ``ruleset``
    key); else the only game that recognises the file's shape (the optional
    ``recognises(document)`` hook); else the only game whose set-up accepts the request.
    """
    from rulekeeper.core.ruleset import games

    battle_games = games()
    if len(battle_games) == 1:
        return battle_games[0].name
    if request.scenario is None or request.armies or request.board is not None:
        takers = [g for g in battle_games if getattr(g, "army_list_noun", None)]
        if len(takers) == 1:
            return takers[0].name
    if request.scenario is not None:
        from rulekeeper.core.datafiles import read_data_file

        doc = read_data_file(request.scenario)
        if isinstance(doc, dict) and isinstance(doc.get("ruleset"), str):
            return str(doc["ruleset"])
        claimed = [g for g in battle_games if _recognises(g, doc)]
        if len(claimed) == 1:
            return claimed[0].name
    return _accepting(battle_games, request)


def _recognises(g: Game, document: object) -> bool:
    hook = getattr(g, "recognises", None)
    return bool(hook(document)) if hook is not None and isinstance(document, dict) else False


def _accepting(battle_games: builtins.list[Game], request: SetupRequest) -> str:
    errors: builtins.list[RulekeeperError] = []
    accepted = []
    for g in battle_games:
        try:
            g.setup(request)
        except RulekeeperError as exc:
            errors.append(exc)
            continue
        accepted.append(g.name)
    if len(accepted) == 1:
        return accepted[0]
    if not accepted and len(errors) == 1:
        raise errors[0]
    names = ", ".join(g.name for g in battle_games)
    raise RulekeeperError(f"cannot tell which game this set-up is for (games: {names}); add ruleset = \"NAME\" to the "
                          "scenario file or pass --ruleset NAME")
