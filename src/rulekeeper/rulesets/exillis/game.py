"""Ex illis on the game protocol (:class:`rulekeeper.core.game.Game`).

This is the only door through which the service, the web keeper and the CLI reach Ex illis
battles: scenarios and musters become a stored initial document, the engine's ``apply``
becomes a protocol :class:`~rulekeeper.core.game.Outcome`, the battle state a per-side view
without its RNG. Heavy modules (the engine, pydantic data, the presenters) are imported
when first used, so ``rulekeeper odds`` never pays for what it does not run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rulekeeper.core.base import BaseGame
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError, RulekeeperError
from rulekeeper.core.game import (
    ArmySource,
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
from rulekeeper.core.memo import recalled, remembered
from rulekeeper.core.ruleset import OptionInfo, Resolution

from .action_codec import ACTIONS
from .options import ExIllisOptions, option_infos
from .state_kind import ExIllisState

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks
    from rulekeeper.core.armies import ArmyBuilder, CampaignBook
    from rulekeeper.core.duels import DuelKernel
    from rulekeeper.core.present import CliPresenter, WebPresenter
    from rulekeeper.core.whole import WholeOdds

    from .battle.actions import Action, Legal
    from .battle.policy import Scorer
    from .battle.state import BattleState
    from .battle.tables import BattleTables
    from .campaign_records import MusterSide
    from .muster import Muster
    from .scenario import Scenario

SCENARIO_DIR = Path(__file__).resolve().parent / "data" / "scenarios"
#: Action kinds whose target is a zone (typed loosely: "b3" → "B3").
ZONE_TARGETS = ("move", "charge", "retreat", "shoot")
KIND_TITLES = {
    "move": "Move", "charge": "Charge", "fight": "Fight", "shoot": "Shoot", "cast": "Cast", "retreat": "Retreat",
    "wait": "Wait", "stance": "Stance", "take_off": "Take off", "land": "Land", "reload": "Reload",
    "rally": "Rally", "verse": "Verse", "finale": "Finale", "flee": "Flee",
}


class ExIllisBattles(BaseGame["BattleState", "Action"]):
    """The battle half of the Ex illis game (mixed into :class:`ExIllis`): typed battle states and actions;
    the registry's ``core.registered.Registered`` checks the one and decodes the other (``action_codec``)."""

    name: ClassVar[str] = "exillis"
    title: ClassVar[str] = "Ex illis"
    #: every battle state is one (``state_kind``: the base class, so looking the game up loads no engine)
    state_type: ClassVar[type] = ExIllisState
    action_codec = ACTIONS

    def _legal_of(self, state: BattleState) -> list[Legal]:
        """The engine's legal list, built once per state object and kept on it (``core.memo``: the policy,
        the preview and ``apply`` of one action all need it; building it was a third of the engine's time)."""
        from .battle.actions import legal_actions

        return remembered(state, "exillis.legal", lambda: legal_actions(state, self.t))

    def _find(self, state: BattleState, action: Action) -> Legal | None:
        for key in ("exillis.rollout", "exillis.bot"):  # the entry the rollout or the bot's policy picked
            picked = cast("Legal | None", recalled(state, key))
            if picked is not None and picked.action == action:  # no list to build for it
                return picked
        return next((lg for lg in self._legal_of(state) if lg.action == action), None)

    @cached_property
    def t(self) -> BattleTables:
        """The shipped unit profiles and action numbers, read once per process."""
        from .battle.tables import BattleTables

        return BattleTables.shipped()

    # -- setting a battle up -------------------------------------------------------------------

    def scenarios(self) -> list[ScenarioInfo]:
        from .scenario import load_scenario

        out = []
        for p in sorted(SCENARIO_DIR.glob("*.yaml")):
            sc = load_scenario(p, self.t.roster, self.t.rules)
            out.append(ScenarioInfo(p.stem, sc.name, sc.description, p))
        return out

    def setup(self, request: SetupRequest) -> BattleSetup:
        from .options import ExIllisOptions

        opts = ExIllisOptions.parse(list(request.options))
        if request.armies or request.board is not None:
            sc, meta = self._from_musters(request)
        elif request.scenario is None:
            from .muster_battle import BattleSetupError

            raise BattleSetupError("give a scenario file, or two musters: rulekeeper battle new --muster A.yaml "
                                   "--muster B.yaml [--board 5x4]")
        else:
            from .scenario import load_scenario

            sc, meta = load_scenario(request.scenario, self.t.roster, self.t.rules), {}
        return self.setup_from_scenario(sc, request.seed, opts.to_dict(), request.practice, meta)

    def setup_from_scenario(self, sc: Scenario, seed: int = 0, options: Mapping[str, str] | None = None,
                            practice: bool = False, meta: Mapping[str, object] | None = None, title: str = "",
                            ) -> BattleSetup:
        """A checked scenario (from a file or from musters) as a battle ready to store."""
        from .options import ExIllisOptions

        opts = ExIllisOptions.parse([f"{k}={v}" for k, v in (options or {}).items()])
        doc = {"ruleset": self.name, "scenario": sc.to_dict(), "seed": seed, "options": opts.to_dict(),
               "practice": practice}
        sides = {a.side: a.name for a in sc.armies}
        return BattleSetup(self.name, sc.name, seed, doc, title or sc.name, {"sides": sides, **(meta or {})})

    def _from_musters(self, request: SetupRequest) -> tuple[Scenario, dict[str, dict[str, MusterSide]]]:
        """The scenario and battle meta of a battle between two musters (side A first)."""
        from rulekeeper.persistence.campaign import CampaignStore

        from .campaign_service import check_musters, muster_meta
        from .muster_battle import BattleSetupError, parse_board, scenario_from_musters
        from .musters_data import load_musters_data

        if request.scenario is not None:
            raise BattleSetupError(
                f"give a scenario file ({request.scenario}) or musters, not both: a battle from musters builds its "
                "own scenario" + ("" if request.armies else " (--board only applies to musters)"))
        if len(request.armies) != 2:
            raise BattleSetupError(f"a battle from musters needs exactly two --muster files (side A, then side B); "
                                   f"got {len(request.armies)}", musters=[a.where for a in request.armies])
        width, height = parse_board(request.board or "5x4")
        data = load_musters_data()
        a, b = (muster_from_source(src) for src in request.armies)
        sc = scenario_from_musters(a, b, width, height, roster=self.t.roster, rules=self.t.rules, data=data)
        with CampaignStore(request.db) as campaign:  # the campaign lives in the battle's database
            check_musters(campaign, (a, b), self.t.roster)
        return sc, muster_meta(a, b, self.t.roster, data)

    def initial_state(self, document: Mapping[str, object]) -> BattleState:
        from .battle.setup import initial_state
        from .options import ExIllisOptions
        from .scenario import Scenario

        try:
            sc = Scenario.from_dict(document["scenario"], self.t.roster, self.t.rules, where="stored battle")
            options, seed = document.get("options", {}), document["seed"]
            if not isinstance(options, Mapping) or not isinstance(seed, (int, str, float)):
                raise TypeError(f"options {options!r}, seed {seed!r}: expected a mapping and a number")
            opts = ExIllisOptions.parse([f"{k}={v}" for k, v in dict(options).items()])
            return initial_state(sc, int(seed), self.t, opts, bool(document.get("practice", False)))
        except (KeyError, TypeError, AttributeError) as exc:
            raise RulekeeperError(f"the stored battle's initial document is damaged: {exc!r}") from None

    def recognises(self, document: Mapping[str, object]) -> bool:
        """A scenario file of ours has ``armies`` (or at least a name and a zone ``board``)."""
        return "armies" in document or ("board" in document and "name" in document)

    def roles(self, document: Mapping[str, object]) -> tuple[str, ...]:
        scenario = document.get("scenario", {})
        armies = scenario.get("armies", []) if isinstance(scenario, Mapping) else None
        if not isinstance(armies, list) or not all(isinstance(a, Mapping) for a in armies):
            raise RulekeeperError(f"the stored battle's initial document is damaged: scenario.armies {armies!r}")
        return tuple(sorted(str(a["side"]) for a in armies)) or ("A", "B")

    def reseeded(self, document: Mapping[str, object], seed: int) -> JsonDict:
        """The same battle with another seed of fate (verifiable dice learn theirs after the set-up)."""
        return {**document, "seed": int(seed)}

    # -- playing -------------------------------------------------------------------------------

    def status(self, state: BattleState) -> Status:
        to_act = () if state.over or not state.active else (state.unit(state.active[0]).side,)
        return Status(state.over, to_act, tuple(state.active), state.activations, state.winner, state.end_reason)

    def legal_actions(self, state: BattleState) -> list[LegalAction]:
        return [self._legal(state, lg) for lg in self._legal_of(state)]

    def _legal(self, state: BattleState, lg: Legal) -> LegalAction:
        a = lg.action
        return LegalAction(a.to_dict(), a.text(), state.unit(a.unit).side, lg.acp, lg.note, _label(a),
                           KIND_TITLES.get(a.kind, a.kind))

    def parse_action(self, state: BattleState, data: Mapping[str, object]) -> Action:
        """The action a form, the API or the command line names, its unit and target as the battle names them."""
        from .battle.actions import Action

        action = Action.from_dict(data)
        unit = state.find(action.unit)
        target = action.target
        if target is not None and action.kind in ZONE_TARGETS:
            target = state.board.name(state.board.parse(target))
        elif target is not None and action.kind in ("cast", "fight"):
            target = state.find(target).key
        return Action(action.kind, unit.key, target, action.option)

    def parse_words(self, state: BattleState, words: Sequence[str], option: str | None = None) -> Action:
        """``KIND UNIT [TARGET]``; a stance names itself as the target (``stance Billmen defensive``)."""
        if len(words) < 2:
            raise IllegalActionError("an action is KIND UNIT [TARGET], e.g. charge \"Franc Chevalers\" B3")
        if len(words) > 3:
            raise IllegalActionError(f"too many words for an action: {' '.join(words)!r} (KIND UNIT [TARGET])")
        kind, unit = words[0], words[1]
        target = words[2] if len(words) > 2 else None
        if kind == "stance":
            option, target = target or option, None
        elif kind == "shoot" and option is None:
            option = "shot"
        return self.parse_action(state, {"kind": kind, "unit": unit, "target": target, "option": option})

    def apply(self, state: BattleState, action: Action) -> Outcome:
        from .battle.engine import apply

        out = apply(state, action, self.t, self._find(state, action))
        return Outcome(out.state, out.action.to_dict(), out.state.unit(out.action.unit).side, out.chance,
                       out.events, out.report, dict(out.to_result()))

    def preview(self, state: BattleState, action: Action) -> OddsPreview:
        from .battle.actions import find_legal
        from .battle.draws import opening_draws
        from .battle.odds import preview

        lg = self._find(state, action) or find_legal(state, self.t, action)
        draws = opening_draws(state, self.t, lg)  # the exact requests the resolution draws first
        try:
            headline = preview(state, self.t, lg, draws)  # read off those draws, never computed apart
        except (RulekeeperError, StopIteration, KeyError):
            headline = {}
        items = tuple((k, v) for k, v in headline.items() if isinstance(v, (float, str)))
        return OddsPreview(items, draws)

    def whole_odds(self, state: BattleState, action: Action) -> WholeOdds | None:
        """The distribution of the action's whole result (a charge, a fight, a volley), computed from the
        functions its resolution calls (:mod:`.whole`); None for an action without chance or not covered."""
        from .battle.actions import find_legal
        from .whole.compute import whole_action

        lg = self._find(state, action) or find_legal(state, self.t, action)
        return whole_action(state, self.t, lg)

    def policy(self, state: BattleState) -> Action | None:
        from .battle.policy import choose

        best = choose(state, self.t, self._legal_of(state))
        return None if best is None else best.action

    def rollout_policy(self, state: BattleState) -> Action | None:
        """The shipped policy's action, found without building the whole legal list (the search bot's
        simulations, :mod:`.battle.rollout`); its entry is kept on the state for ``apply``."""
        from .battle.policy import score

        return self._picked(state, "exillis.rollout", score)

    def bot_policy(self, state: BattleState) -> Action | None:
        """The search bot's own default play (``rulekeeper.bots``: its anchor, and its side in its simulations):
        the shipped policy, but a group that can shoot never charges (:func:`.battle.policy.bot_score`, with
        the figures that chose it); found as :meth:`rollout_policy` finds the shipped one, and kept on the state
        for ``apply`` too."""
        from .battle.policy import bot_score

        return self._picked(state, "exillis.bot", bot_score)

    def _picked(self, state: BattleState, key: str, score_of: Scorer) -> Action | None:
        """The action ``score_of`` picks (:func:`.battle.rollout.rollout_choice`), its entry kept under ``key``."""
        from .battle.rollout import rollout_choice

        best = rollout_choice(state, self.t, lambda: self._legal_of(state), score_of)
        if best is None:
            return None
        return remembered(state, key, lambda: best).action

    def action_text(self, action: Action) -> str:
        """The stable text form, as typed on the command line: ``move A:Billmen C3``."""
        return action.text()

    def side_of(self, action: Action) -> str:
        return action.unit.split(":", 1)[0]

    def evaluate(self, state: BattleState, side: str) -> float:
        """The search bot's score of an unfinished battle for ``side`` in [-1, 1] (``rulekeeper.bots``)."""
        from .battle.bot import evaluate

        return evaluate(state, side)

    def result(self, state: BattleState) -> GameResult | None:
        from .battle.result import summary

        if not state.over:
            return None
        s = summary(state)
        return GameResult(state.winner, s["winner_army"], state.end_reason, dict(s))

    # -- JSON and views --------------------------------------------------------------------------

    def state_to_json(self, state: BattleState) -> JsonDict:
        from .battle.stored import state_to_dict

        return dict(state_to_dict(state))

    def state_from_json(self, document: JsonDict) -> BattleState:
        from .battle.stored import state_from_dict

        try:
            return state_from_dict(document, self.t)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulekeeperError):
                raise
            raise RulekeeperError(f"a stored battle state is damaged: {exc!r}") from None

    def view(self, state: BattleState, role: str) -> JsonDict:
        """Ex illis hides nothing from either side but fate itself: the view is the state without its RNG."""
        from .battle.turnbar import predict

        doc = self.state_to_json(state)
        doc.pop("rng", None)
        doc["turn_bar"] = [list(g) for g in predict(state)] if not state.over else []
        return doc

    # -- presentation ----------------------------------------------------------------------------

    def web_presenter(self) -> WebPresenter:
        from .web.presenter import ExIllisPresenter

        return ExIllisPresenter(self.t)

    def cli_presenter(self) -> CliPresenter:
        from .cli.board_view import ExIllisCliPresenter

        return ExIllisCliPresenter()

    def register_cli(self, hooks: CliHooks) -> None:
        from .cli import register

        register(hooks)

    def quick_command(self, args: Sequence[str]) -> Callable[[], None] | None:
        """``odds exillis melee A B [--json]`` without the CLI's Typer tree (start-up: ``cli/quick.py``)."""
        from .cli.quick import quick_command

        return quick_command(args)

    # -- musters and the campaign in the browser -------------------------------------------------

    def army_builder(self) -> ArmyBuilder:
        """Musters priced and checked as ``rulekeeper muster check`` does (web/builder.py)."""
        from .web.builder import ExIllisArmyBuilder

        return ExIllisArmyBuilder()

    def campaign(self) -> CampaignBook:
        """Battle Points and levels recorded as ``rulekeeper campaign record`` does (web/campaign_web.py)."""
        from .web.campaign_web import ExIllisCampaignBook

        return ExIllisCampaignBook()

    def duel_kernel(self) -> DuelKernel:
        """Unit-against-unit fights for the balance lab (lab_kernel/: numba, numpy fallback)."""
        from .lab_kernel import ExIllisDuelKernel

        return ExIllisDuelKernel()


def _label(a: Action) -> str:
    if a.kind in ("move", "charge", "retreat"):
        return f"→ {a.target}"
    if a.kind == "shoot":
        return f"{(a.option or 'shot').replace('_', ' ')} → {a.target}"
    if a.kind == "cast":
        return f"{a.option} → {(a.target or '').split(':', 1)[-1]}"
    if a.kind == "stance":
        return str(a.option)
    if a.kind == "fight" and a.target:
        return f"challenge → {a.target.split(':', 1)[-1]}"  # the Baneret attacks that hero directly
    return KIND_TITLES.get(a.kind, a.kind)


def muster_from_source(src: ArmySource) -> Muster:
    """A muster from a file (its path) or from pasted text: TOML if it reads as TOML, else YAML."""
    from rulekeeper.core.datafiles import parse_data_text, pasted_format

    from .muster import Muster, load_muster

    if src.path is not None:
        return load_muster(src.path)
    text, where = src.text, src.where
    if not text.strip():
        raise RulekeeperError(f"{where} is empty: paste a muster file (YAML or TOML)")
    suffix = src.suffix or pasted_format(text)
    return Muster.from_dict(parse_data_text(text, where, suffix), where=where, text=text, suffix=suffix)


class ExIllis(ExIllisBattles):
    """The Ex illis rule keeper: the calculator here, whole battles in :class:`.game.ExIllisBattles`."""

    name: ClassVar[str] = "exillis"
    aliases: ClassVar[tuple[str, ...]] = ("ex illis", "ex-illis", "ei")
    title: ClassVar[str] = "Ex illis"
    deterministic: ClassVar[bool] = False
    #: draws whose preview the conformance test must have compared with the roll (never vacuous)
    previewed_draws: ClassVar[tuple[str, ...]] = ("charge reaction", "target assignment", "roll to hit", "where the shot falls")
    #: Battles can start from two army lists, which Ex illis calls musters.
    army_list_noun: ClassVar[str] = "muster"

    def __init__(self, options: ExIllisOptions | None = None) -> None:
        self.opts = options or ExIllisOptions()

    def options(self) -> list[OptionInfo]:
        return option_infos()

    def roster(self) -> list[dict[str, Any]]:
        from .profiles import load_profiles

        return [p.to_json() for p in load_profiles()]

    def sample_resolution(self, fate: Fate) -> Resolution:
        """A round of Billmen fighting Franc Chevalers, every draw through ``fate``."""
        from .melee import MeleeContext, resolve_round
        from .setup import UnitSpec, build, load_tables

        tables = load_tables()
        taken: set[str] = set()
        zone = (
            build(tables, UnitSpec("Billmen"), "A", taken, options=self.opts),
            build(tables, UnitSpec("Franc Chevalers"), "B", taken, options=self.opts),
            build(tables, UnitSpec("Vileins"), "B", taken, options=self.opts),
        )
        ctx = MeleeContext(tables.rules, self.opts)
        report = resolve_round(zone, "Billmen", ctx, fate)
        return Resolution(self.name, "melee", dict(report.to_dict()), fate.record_dicts())
