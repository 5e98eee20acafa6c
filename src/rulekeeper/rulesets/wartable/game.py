"""The War Table on the game protocol (:class:`rulekeeper.core.game.Game`): one engagement.

A War Table "battle" here is one engagement from a battle file (what ``rulekeeper resolve
wartable --battle FILE`` reads): the sides ``attackers`` and ``defenders`` (the model's
names; the file's own side names are kept for display), the attackers' one action
``{"kind": "attack"}``, then the defenders' answer ``{"kind": "defend"}`` (issue 25: both sides'
links get a turn), which resolves the six-step combat and, when an Enclave is in the region, its
Stability effects; then the battle is over. The seed has no rule for declining or leaving a
battle, so there is no other action.

No chance is drawn anywhere: a preview gives the exact numbers the attack will produce,
``apply`` records no chance, and the state (the battle as loaded plus the report once
resolved) has no RNG. The stored document carries the combatants' unit profiles and every
modifier in force, so a stored battle replays identically even if the shipped data change.
See ``docs/rules/wartable.md`` ("Whole battles") for the design choices.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rulekeeper.core.base import BaseGame
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError, ImpossibleRequestError, RulekeeperError
from rulekeeper.core.game import (
    BattleSetup,
    GameResult,
    JsonDict,
    LegalAction,
    OddsPreview,
    Outcome,
    ScenarioInfo,
    SetupRequest,
    Status,
)
from rulekeeper.core.ruleset import OptionInfo, Resolution

from .actions import ACTIONS, ATTACK, DECLINE_WORDS, DEFEND, KIND_SIDE, KINDS, Engage, action_text, side_of
from .attack_log import _events, combat_from_items, holder, report_items, stability_text
from .checkpoint import compact_from_json, compact_json
from .codec import SIDES, enc
from .combat import default_data, resolve_combat
from .model import (
    OPTION_INFO,
    Battle,
    ModifierDef,
    SideName,
    fold,
    parse_option_pairs,
    parse_options,
)
from .policy import choose
from .rounding import show
from .scenario import describe, shipped_scenarios
from .state import NAME, Declared, FullCheckpoint, WarTableState, _state_of, state_document

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks
    from rulekeeper.core.present import CliPresenter, WebPresenter



class WarTableActionError(IllegalActionError):
    """An action the War Table refuses (not ``attack``, a defender acting, the battle over)."""


class WarTableSetupError(RulekeeperError):
    """A set-up request the War Table cannot start a battle from (no battle file, army lists)."""

    code = "impossible_request"


# ---------------------------------------------------------------- the game


class WarTableBattles(BaseGame[WarTableState, Engage]):
    """The battle half of the War Table (:class:`WarTable` adds the calculator): its rules take the typed state
    and the typed action (:class:`.actions.Engage`, through its one codec); the registry's wrapper
    (``core.registered``) decodes the logged JSON for them."""

    name: ClassVar[str] = NAME
    state_type: ClassVar[type] = WarTableState
    action_codec = ACTIONS

    # -- setting a battle up -------------------------------------------------------------------

    def scenarios(self) -> list[ScenarioInfo]:
        return shipped_scenarios()

    def setup(self, request: SetupRequest) -> BattleSetup:
        """A battle file (``request.scenario``) checked whole: one typed error lists every problem."""
        from .battle import BattleFileError, load_battle

        if request.armies or request.board is not None:
            raise WarTableSetupError(
                "a War Table battle starts from a battle file (sides, units, region traits, Enclave), not from "
                "army lists or a board: rulekeeper battle new examples/wartable/oathsworn_vs_bloodless.yaml"
            )
        if request.scenario is None:
            raise WarTableSetupError(
                "give a War Table battle file: rulekeeper battle new examples/wartable/oathsworn_vs_bloodless.yaml "
                "--ruleset wartable"
            )
        where = str(request.scenario)
        problems: list[str] = []
        battle: Battle | None = None
        modifiers: tuple[ModifierDef, ...] = ()
        try:
            battle, data = load_battle(request.scenario, every_problem=True)
            modifiers = data.modifiers
        except BattleFileError as exc:
            problems += exc.problems
        options = dict(battle.options) if battle is not None else {}
        for pair in request.options:
            try:
                given = parse_option_pairs([pair])
                parse_options(given)
            except RulekeeperError as exc:
                problems.append(f"option {pair!r}: {exc.message}")
                continue
            options.update(given)
        if battle is not None:
            battle = Battle(
                battle.attackers,
                battle.defenders,
                battle.region_traits,
                battle.action,
                battle.enclave,
                options,
                battle.title,
                battle.attacker_name,
                battle.defender_name,
                battle.about,
            )
            if not problems:
                try:
                    WarTableState(battle, modifiers).resolve()
                except ImpossibleRequestError as exc:
                    problems.append(f"sides: {exc.message}")
        if problems:
            raise BattleFileError(where, problems)
        assert battle is not None
        doc = state_document(battle, modifiers, compact=True)  # compact checkpoints (issue 22)
        sides = {s: battle.side_name(s) for s in SIDES}
        title = battle.title or describe(battle)
        return BattleSetup(NAME, title, request.seed, dict(doc), title, {"sides": sides})

    def initial_state(self, document: Mapping[str, object]) -> WarTableState:
        return _state_of(document)  # every field checked

    def roles(self, document: object) -> tuple[str, ...]:
        """The attackers and the defenders, whatever the document (not read)."""
        return SIDES

    def reseeded(self, document: Mapping[str, object], seed: int) -> JsonDict:
        """The War Table draws no chance: its document has no seed to replace (a copy, not looked into)."""
        return dict(document)

    # -- playing -------------------------------------------------------------------------------

    def status(self, state: WarTableState) -> Status:
        if state.report is not None:
            winner, reason = holder(state.report)
            return Status(True, (), (), 2, winner, reason)
        side: SideName = "defenders" if state.declared else "attackers"
        units = state.battle.attackers if side == "attackers" else state.battle.defenders
        alive = [lab for lab, c in zip(state.labels()[side], units, strict=True) if c.base_health > 0]
        return Status(False, (side,), tuple(alive), 1 if state.declared else 0)

    def legal_actions(self, state: WarTableState) -> list[LegalAction]:
        if state.over:
            return []
        if state.declared:
            return [LegalAction(ACTIONS.encode(DEFEND), "defend", "defenders", None,
                                "meet the attack: the six steps are resolved", "Defend", "")]
        return [LegalAction(ACTIONS.encode(ATTACK), "attack", "attackers", None, describe(state.battle), "Attack", "")]

    def parse_action(self, state: WarTableState, data: Mapping[str, object]) -> Engage:
        """``{"kind": "attack"}`` or ``{"kind": "defend"}`` (any case); an optional ``side`` names who acts."""
        return self._engage(state, data)

    def _engage(self, state: WarTableState, data: Mapping[str, object]) -> Engage:
        """The action a request spells (see :meth:`parse_action`), or a typed refusal naming what is wrong."""
        extra = sorted(str(k) for k, v in data.items() if k not in ("kind", "side") and v not in (None, ""))
        if extra:
            raise WarTableActionError(
                f"a War Table action is just its kind (attack, defend), optionally with the side that acts; "
                f"unexpected: {', '.join(extra)}",
                fields=extra,
            )
        word = fold(str(data.get("kind") or ""))
        if word in DECLINE_WORDS:
            raise WarTableActionError(
                f"{word!r}: the War Table rules have no way to decline or leave a battle; the attackers' only "
                "action is attack",
                kind=word,
                legal=["attack"],
            )
        kind = KINDS.get(word)
        if kind is None:
            raise WarTableActionError(
                f"unknown War Table action {data.get('kind')!r}: the attackers attack, the defenders defend",
                kind=word, legal=list(KIND_SIDE),
            )
        side = data.get("side")
        if side in (None, ""):
            return Engage(kind)
        found = self._side(state, str(side))
        return Engage(kind) if found == KIND_SIDE[kind] else Engage(kind, found)

    def _side(self, state: WarTableState, name: str) -> SideName:
        b = state.battle
        wanted = fold(name)
        for s in SIDES:
            if wanted in {fold(s), fold(s.removesuffix("s")), fold(b.side_name(s))}:
                return s
        names = [*SIDES, b.side_name("attackers"), b.side_name("defenders")]
        raise WarTableActionError(
            f"unknown side {name!r}: expected one of {', '.join(dict.fromkeys(names))}", side=name
        )

    def parse_words(self, state: WarTableState, words: Sequence[str], option: str | None = None) -> Engage:
        """``attack`` or ``defend`` (the command line: ``rulekeeper battle act ID attack``)."""
        if option is not None:
            raise WarTableActionError(f"War Table actions take no option (got {option!r})")
        if len(words) != 1:
            raise WarTableActionError(f"a War Table action is one word, attack or defend (got {' '.join(words)!r})")
        return self.parse_action(state, {"kind": words[0]})

    def _check(self, state: WarTableState, action: Engage) -> Engage:
        """``action`` if it is legal now; a typed error (nothing changed) otherwise."""
        if state.over:
            raise WarTableActionError("the battle is over: the attack has been resolved", code_detail="game_over")
        turn: SideName = "defenders" if state.declared else "attackers"
        if action.player != turn or KIND_SIDE[action.kind] != turn:
            raise WarTableActionError(
                f"it is the {turn}' ({state.battle.shown_name(turn)}) turn: "
                + ("they defend" if turn == "defenders" else "they attack, then the defenders answer"),
                side=action.player,
            )
        return action

    def apply(self, state: WarTableState, action: Engage) -> Outcome:
        canonical = ACTIONS.encode(self._check(state, action))
        if not state.declared:
            text = (f"{state.battle.shown_name('attackers')} attack: {describe(state.battle)}; "
                    f"{state.battle.shown_name('defenders')} answer")
            item: JsonDict = {"kind": "attack_declared", "text": text}
            return Outcome(WarTableState(state.battle, state.modifiers, None, True, state.compact), canonical, "attackers", (), (),
                           (item,), {"chance": [], "report": [item]})
        report = state.resolve()
        after = WarTableState(state.battle, state.modifiers, report, True, state.compact)
        return self.outcome(after, action, "defenders", (), report_items(report), _events(report))

    def preview(self, state: WarTableState, action: Engage) -> OddsPreview:
        """No chance: the exact Health after (and the Enclave's Stability) the attack will give."""
        self._check(state, action)
        report = state.resolve()
        headline: list[tuple[str, float | str]] = [
            (f"{h.label} Health", f"{show(h.before)} → {show(h.after)}" + (" (destroyed)" if h.destroyed else ""))
            for h in report.health
        ]
        st = report.stability
        if st is not None:
            before = "?" if st.before is None else show(st.before)
            after = f"{show(st.total_delta)}" if st.after is None else show(st.after)
            headline.append((f"{st.enclave} Stability", f"{before} → {after}" + (" (Fallen)" if st.fallen else "")))
        winner, _ = holder(report)
        headline.append(
            (
                "Field",
                f"{winner} hold it"
                if winner
                else "both sides stand"
                if all(h.after > 0 for h in report.health)
                else "nobody holds it",
            )
        )
        return OddsPreview(tuple(headline), ())

    def policy(self, state: WarTableState) -> Engage | None:
        return choose(state)

    def action_text(self, action: Engage) -> str:
        return action_text(action)

    def side_of(self, action: Engage) -> str:
        return side_of(action)

    def result(self, state: WarTableState) -> GameResult | None:
        if state.report is None:
            return None
        report = state.report
        winner, reason = holder(report)
        winner_name = None if winner is None else state.battle.shown_name(winner)
        summary: JsonDict = {
            "title": state.battle.title,
            "winner": winner,
            "winner_name": winner_name,
            "reason": reason,
            "sides": {s: state.battle.side_name(s) for s in SIDES},
            "units": [
                {
                    "unit": h.label,
                    "side": h.side,
                    "before": enc(h.before),
                    "after": enc(h.after),
                    "destroyed": h.destroyed,
                }
                for h in report.health
            ],
            "health": {h.label: enc(h.after) for h in report.health},
            "stability": None if report.stability is None else report.stability.to_dict(),
        }
        return GameResult(winner, winner_name, reason, summary)

    # -- JSON and views --------------------------------------------------------------------------

    def state_to_json(self, state: WarTableState) -> JsonDict:
        """The checkpoint: compact for a battle set up since issue 22 (:mod:`.checkpoint`), else the full form."""
        return dict(compact_json(state) if state.compact else self._full_json(state))

    def _full_json(self, state: WarTableState) -> FullCheckpoint:
        """The battle, its modifiers and the report: what views show (and the checkpoint of an older battle)."""
        declared: Declared = {"declared": True} if state.declared and not state.over else {}
        return {
            **state_document(state.battle, state.modifiers, state.compact),
            "resolved": state.over,
            "report": None if state.report is None else state.report.to_dict(),
            **declared,
        }

    def state_from_json(self, document: Mapping[str, object]) -> WarTableState:
        """The state back from :meth:`state_to_json`; the report is resolved again and must match."""
        state = compact_from_json(document) if "fixed" in document else _state_of(document)
        resolved = document.get("resolved")
        if resolved not in (True, False):
            raise RulekeeperError(
                f"the stored War Table battle is damaged: resolved: expected true or false, got {resolved!r}"
            )
        if resolved:
            state = WarTableState(state.battle, state.modifiers, state.resolve(), True, state.compact)
        elif document.get("declared") is True:
            state = WarTableState(state.battle, state.modifiers, None, True, state.compact)
        again = dict(compact_json(state) if "fixed" in document else self._full_json(state))  # either form reads
        if again != document:
            keys = sorted(k for k in set(again) | set(document) if again.get(k) != document.get(k))
            raise RulekeeperError(
                f"the stored War Table battle is damaged: {', '.join(keys)} do not match its "
                "battle (resolved again with these rules)",
                fields=keys,
            )
        return state

    def view(self, state: WarTableState, role: str) -> JsonDict:
        """The War Table hides nothing and has no RNG: every role sees the whole state (the full form)."""
        return dict(self._full_json(state))

    # -- presentation ----------------------------------------------------------------------------

    def web_presenter(self) -> WebPresenter | None:
        from .web.presenter import WarTableWebPresenter

        return WarTableWebPresenter(self)

    def cli_presenter(self) -> CliPresenter:
        from .presenter import WarTableCliPresenter

        return WarTableCliPresenter(self)

    # -- army lists and the campaign: the War Table has neither ---------------------------------

    def army_builder(self) -> None:
        return None  # its forces come from engagement files, not army lists

    def campaign(self) -> None:
        return None

    def duel_kernel(self) -> None:
        return None  # the lab's generic path only


class WarTable(WarTableBattles):
    """The War Table rule system: the calculator here, one engagement on the game protocol
    (:class:`rulekeeper.core.game.Game`) in :class:`.game.WarTableBattles`."""

    name: ClassVar[str] = "wartable"
    aliases: ClassVar[tuple[str, ...]] = ("war-table", "war table", "wt")
    title: ClassVar[str] = "War Table"
    deterministic: ClassVar[bool] = True

    def options(self) -> list[OptionInfo]:
        """The readings of contradictory or unclear rules, with their defaults."""
        return list(OPTION_INFO)

    def roster(self) -> list[dict[str, Any]]:
        """Every shipped unit profile."""
        return [dict(u.to_dict()) for u in default_data().units]

    def register_cli(self, hooks: CliHooks) -> None:
        """``rulekeeper resolve wartable`` (the six-step combat and its Stability effects)."""
        from .cli import register

        register(hooks.app)

    def sample_resolution(self, fate: Fate) -> Resolution:
        """The seed's worked example: Oathsworn Vanguard attack a Bloodless Horde in a Ruin.

        War Table combat draws no chance, so ``fate`` is left untouched.
        """
        data = default_data()
        report = resolve_combat(
            [data.unit("Oathsworn Vanguard")],
            [data.unit("Bloodless Horde")],
            ["Ruin"],
            title="Oathsworn Vanguard attack a Bloodless Horde in a Ruin (seed example)",
        )
        return Resolution(ruleset=self.name, kind="combat", summary=dict(report.to_dict()), chance=fate.record_dicts())


__all__ = [
    "WarTable",
    "WarTableActionError",
    "WarTableBattles",
    "WarTableSetupError",
    "WarTableState",
    "combat_from_items",
    "holder",
    "report_items",
    "stability_text",
    "state_document",
]
