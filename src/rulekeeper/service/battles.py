"""Stored Ex illis battles: create, act, undo, replay, export/import, autoplay.

State is never trusted blindly: it is the fold of the stored log over the initial
document. A snapshot of the latest state is saved with every action (so loading is
fast), and ``replay`` rebuilds the battle from its log and proves the snapshot
identical, bit for bit (every number of the state's JSON, the RNG state included).
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulekeeper.core.errors import IllegalActionError, ReplayMismatchError, RulekeeperError
from rulekeeper.persistence.store import BattleRecord, BattleStore, StaleStateError
from rulekeeper.rulesets.exillis.battle.actions import Action, Legal, legal_actions
from rulekeeper.rulesets.exillis.battle.engine import Outcome, apply
from rulekeeper.rulesets.exillis.battle.policy import choose
from rulekeeper.rulesets.exillis.battle.setup import initial_state, state_from_dict, state_to_dict
from rulekeeper.rulesets.exillis.battle.state import BattleState
from rulekeeper.rulesets.exillis.battle.tables import BattleTables
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.scenario import Scenario, load_scenario

RULESET = "exillis"


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class GameOverError(IllegalActionError):
    code = "game_over"


@dataclass(frozen=True)
class Replay:
    state: BattleState
    identical: bool
    actions: int
    differences: list[str]


def _status(state: BattleState) -> str:
    return "over" if state.over else "active"


class BattleService:
    """Ex illis battles kept in a :class:`BattleStore`."""

    def __init__(self, store: BattleStore, tables: BattleTables | None = None) -> None:
        self.store = store
        self.t = tables or BattleTables.shipped()

    # -- creating ------------------------------------------------------------------------------

    def new(
        self, scenario: Scenario | Path, seed: int = 0, options: ExIllisOptions | None = None, practice: bool = False,
        title: str = "", meta: dict[str, Any] | None = None,
    ) -> str:
        """Store a new battle; ``meta`` (JSON) is merged into the stored meta (a battle from musters
        keeps what each side fielded there, for ``campaign record``)."""
        sc = scenario if isinstance(scenario, Scenario) else load_scenario(Path(scenario), self.t.roster, self.t.rules)
        opts = options or ExIllisOptions()
        state = initial_state(sc, seed, self.t, opts, practice)
        doc = {"ruleset": RULESET, "scenario": sc.to_dict(), "seed": seed, "options": opts.to_dict(), "practice": practice}
        bid = self.store.create(ruleset=RULESET, scenario=sc.name, seed=seed, initial=doc, title=title or sc.name,
                                meta={"sides": dict(state.armies), **(meta or {})})
        self.store.set_status(bid, _status(state), state.activations)
        return bid

    def _initial(self, bid: str) -> BattleState:
        doc = self.store.initial(bid)
        sc = Scenario.from_dict(doc["scenario"], self.t.roster, self.t.rules, where=f"battle {bid}")
        opts = ExIllisOptions.parse([f"{k}={v}" for k, v in doc.get("options", {}).items()])
        return initial_state(sc, int(doc["seed"]), self.t, opts, bool(doc.get("practice", False)))

    # -- reading -------------------------------------------------------------------------------

    def record(self, bid: str) -> BattleRecord:
        return self.store.get(bid)

    def list(self) -> builtins.list[BattleRecord]:
        return self.store.list()

    def state(self, bid: str) -> BattleState:
        """The current state: the latest snapshot when it matches the log position, else a replay."""
        rec = self.store.get(bid)
        snap = self.store.snapshot(bid)
        if snap is not None and snap[0] == rec.position:
            return state_from_dict(snap[1], self.t)
        return self._fold(bid)[0]

    def _fold(self, bid: str, upto: int | None = None) -> tuple[BattleState, builtins.list[str]]:
        state = self._initial(bid)
        problems: builtins.list[str] = []
        for e in self.store.entries(bid):
            if upto is not None and e.index >= upto:
                break
            out = apply(state, Action.from_dict(e.action), self.t)
            if out.state.rng.to_dict() != e.result.get("rng_after"):
                problems.append(f"action {e.index}: the RNG state after it differs from the log")
            if [c.to_dict() for c in out.chance] != e.result.get("chance"):
                problems.append(f"action {e.index}: its chance results differ from the log")
            state = out.state
        return state, problems

    def legal(self, bid: str) -> tuple[BattleState, builtins.list[Legal]]:
        state = self.state(bid)
        return state, legal_actions(state, self.t)

    # -- acting --------------------------------------------------------------------------------

    def act(self, bid: str, action: Action, expected_position: int | None = None, shown: bool = True,
            side: str | None = None) -> tuple[Outcome, int]:
        """Apply ``action``; store it in one transaction (refused if the log moved meanwhile)."""
        rec = self.store.get(bid)
        position = rec.position if expected_position is None else expected_position
        if position != rec.position:
            raise StaleStateError(bid, position, rec.position)  # checked again atomically on append
        state = self.state(bid)
        if state.over:
            raise GameOverError("the battle is over")
        unit = state.find(action.unit)
        if unit.key not in state.active:
            raise NotYourTurnError(f"it is not {unit.key}'s turn: {' + '.join(state.active)} acts now")
        if side is not None and unit.side != side:
            raise NotYourTurnError(f"{unit.key} is not on side {side}")
        action = Action(action.kind, unit.key, action.target, action.option)
        out = apply(state, action, self.t)
        new_pos = self.store.append(
            bid, position, out.action.to_dict(), out.to_result(), status=_status(out.state),
            turn=out.state.activations, snapshot=state_to_dict(out.state),
        )
        if shown:
            self.store.mark_shown(bid, new_pos - 1)
        return out, new_pos

    def undo(self, bid: str, expected_position: int | None = None) -> BattleState:
        """Take back the last action, unless a random result of it has been shown."""
        rec = self.store.get(bid)
        entries = self.store.entries(bid, max(0, rec.position - 1))
        if not entries:
            raise IllegalActionError("nothing to undo: no action has been played", code_detail="nothing_to_undo")
        last = entries[-1]
        if last.shown and last.result.get("chance"):
            raise IllegalActionError(
                f"cannot undo {Action.from_dict(last.action).text()}: its random results were already shown",
                code_detail="results_shown",
            )
        position = rec.position if expected_position is None else expected_position
        if position != rec.position:
            raise StaleStateError(bid, position, rec.position)
        previous, _ = self._fold(bid, upto=rec.position - 1)
        self.store.pop_last(bid, position, status=_status(previous), turn=previous.activations,
                            snapshot=state_to_dict(previous))
        return previous

    def replay(self, bid: str) -> Replay:
        """Rebuild from the log and compare with the stored snapshot, every field."""
        state, problems = self._fold(bid)
        rec = self.store.get(bid)
        snap = self.store.snapshot(bid)
        if snap is not None and snap[0] == rec.position:
            mine = state_to_dict(state)
            if json.dumps(mine, sort_keys=True) != json.dumps(snap[1], sort_keys=True):
                problems += _diff(mine, snap[1])
        return Replay(state, not problems, rec.position, problems)

    def autoplay(self, bid: str, sides: set[str] | None = None, max_actions: int = 5000,
                 progress: Callable[[BattleState], None] | None = None) -> BattleState:
        """Let the policy play ``sides`` (all when None) until the battle ends or another side must act."""
        state = self.state(bid)
        for _ in range(max_actions):
            if state.over:
                break
            lg = choose(state, self.t)
            if lg is None:
                break
            if sides is not None and state.unit(lg.action.unit).side not in sides:
                break
            out, _ = self.act(bid, lg.action, shown=False)
            state = out.state
            if progress is not None:
                progress(state)
        return state

    def export(self, bid: str, path: Path) -> None:
        doc = self.store.export(bid)
        path.write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")

    def import_(self, path: Path, new_id: bool = False) -> str:
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise RulekeeperError(f"{path}: cannot read: {exc.strerror}") from exc
        except json.JSONDecodeError as exc:
            raise RulekeeperError(f"{path}: not JSON (line {exc.lineno}): {exc.msg}") from exc
        bid = self.store.import_(doc, new_id=new_id)
        rep = self.replay(bid)
        if not rep.identical:
            self.store.delete(bid)
            raise ReplayMismatchError(f"{path}: the imported log does not replay: {'; '.join(rep.differences[:3])}")
        self.store.set_status(bid, _status(rep.state), rep.state.activations)
        return bid


def _diff(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for k in sorted(set(a) | set(b)):
            out += _diff(a.get(k), b.get(k), f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += _diff(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path or '.'}: replay {a!r} vs stored {b!r}"]
