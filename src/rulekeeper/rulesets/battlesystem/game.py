"""The Battle System on the typed game protocol (:class:`rulekeeper.core.base.BaseGame` ``[BattleState, BSAction]``).

This is the only door through which the service, the web keeper and the CLI reach Battle
System battles (wrapped by the registry, ``core.registered``: every method here takes the battle's own state and
its typed actions, :data:`.actions.ACTIONS` the one codec of their JSON): a scenario file becomes the stored initial document, an action becomes a
protocol :class:`~rulekeeper.core.game.Outcome` (every roll drawn through the
:class:`~rulekeeper.core.chance.Fate` of the RNG state kept in the battle's state), the state a
view without its RNG. The web keeper draws it with this package's SVG hex board (``web/``), the CLI with
its hex map in the terminal (``render.py``).
Rules decisions: ``docs/rules/battlesystem.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from rulekeeper.core.base import BaseGame
from rulekeeper.core.chance import ChanceResult, Fate
from rulekeeper.core.errors import IllegalActionError, RulekeeperError
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
from rulekeeper.core.present import CliPresenter, WebPresenter
from rulekeeper.core.rng import RngState
from rulekeeper.core.ruleset import OptionInfo, Resolution
from rulekeeper.core.whole import WholeOdds
from rulekeeper.core.wording import counted

from . import actions, policy
from .combat import Reach, Unit, resolve_attack
from .options import BattleSystemOptions, option_infos
from .scenario import ScenarioUnit, home_edges, read_scenario, shipped_scenarios
from .state import SIDES, BattleState, Piece, state_from_json, state_to_json, unit_types, view_of
from .whole import moved, play

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks

NAME = "battlesystem"


def _home(edges: Mapping[str, str] | None, width: int, height: int, units: Sequence[ScenarioUnit]) -> tuple[str, str]:
    """Each side's own edge: the scenario's, or (a document stored before issue 25) where the sides stand."""
    edges = edges or home_edges(width, height, units)
    return (str(edges["A"]), str(edges["B"]))


class BattleSystemSetupError(RulekeeperError):
    """A set-up request the Battle System cannot start from (no scenario file, army lists)."""

    code = "impossible_request"


class BattleSystem(BaseGame[BattleState, actions.BSAction]):
    """The Guide to the Battle System: the calculator (odds, resolve, units) and whole hex battles."""

    name: ClassVar[str] = NAME
    aliases: ClassVar[tuple[str, ...]] = ("battle-system", "battle system", "bs", "lethea")
    title: ClassVar[str] = "Battle System (Lethea)"
    deterministic: ClassVar[bool] = False
    #: draws whose preview the conformance test must have compared with the roll (never vacuous)
    previewed_draws: ClassVar[tuple[str, ...]] = ("Attack",)
    state_type: ClassVar[type] = BattleState
    action_codec = actions.ACTIONS

    # -- the calculator side -------------------------------------------------------------------

    def options(self) -> list[OptionInfo]:
        return option_infos()

    def roster(self) -> list[JsonDict]:
        return [dict(t.to_json()) for t in unit_types().types]

    def sample_resolution(self, fate: Fate) -> Resolution:
        """The guide's first example: Light Infantry attack Heavy Infantry (5d10+6+0-20)."""
        t = unit_types()
        res = resolve_attack(fate, Unit.fresh(t.get("Light Infantry")), Unit.fresh(t.get("Heavy Infantry")), Reach(1))
        summary = {"formula": res.formula, "roll": res.roll, "casualties": res.casualties,
                   "attacker_losses": res.attacker_losses}
        return Resolution(self.name, "attack", summary, fate.record_dicts())

    # -- setting a battle up -------------------------------------------------------------------

    def scenarios(self) -> list[ScenarioInfo]:
        return shipped_scenarios()

    def setup(self, request: SetupRequest) -> BattleSetup:
        if request.armies or request.board is not None:
            raise BattleSystemSetupError("a Battle System battle starts from a scenario file (map and units), not from "
                                         "army lists or a board")
        if request.scenario is None:
            raise BattleSystemSetupError("give a Battle System scenario, e.g. "
                                         "src/rulekeeper/rulesets/battlesystem/data/scenarios/river_crossing.yaml")
        sc = read_scenario(request.scenario)
        opts = BattleSystemOptions.parse(list(request.options))
        options = {o.name: str(getattr(opts, o.name)) for o in option_infos()}
        doc: JsonDict = {"ruleset": NAME, "scenario": sc, "seed": int(request.seed), "options": options}
        return BattleSetup(NAME, sc["name"], request.seed, doc, sc["name"], {"sides": sc["sides"]})

    def initial_state(self, document: JsonDict) -> BattleState:
        try:
            sc = document["scenario"]
            pieces = tuple(Piece(u["name"], u["side"], u["type"], u["hex"], (card := unit_types().get(u["type"])).soldiers,
                                 card.morale, card.ammunition) for u in sc["units"])
            return BattleState(
                str(sc["name"]), (str(sc["sides"]["A"]), str(sc["sides"]["B"])), int(sc["width"]), int(sc["height"]),
                tuple((str(a), str(b), int(c)) for a, b, c in sc["terrain"]), pieces, "A", 1, int(sc["turn_limit"]),
                tuple((str(k), str(v)) for k, v in document.get("options", {}).items()), False, None, "",
                RngState.from_seed(int(document["seed"])),
                _home(sc.get("edges"), int(sc["width"]), int(sc["height"]), list(sc["units"])))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, RulekeeperError):
                raise
            raise RulekeeperError(f"the stored battle's initial document is damaged: {exc!r}") from None

    # -- playing -------------------------------------------------------------------------------

    def status(self, state: BattleState) -> Status:
        to_act = () if state.over else (state.to_act,)
        acting = () if state.over else tuple(p.name for p in state.units if p.side == state.to_act and p.can_fight)
        return Status(state.over, to_act, acting, state.turn, state.winner, state.reason)

    def legal_actions(self, state: BattleState) -> list[LegalAction]:
        return actions.legal_actions(state)

    def decode_action(self, data: Mapping[str, object],
                      defaults: Mapping[str, object] | None = None) -> actions.BSAction:
        """The typed action a logged or posted JSON object spells (the one codec); one that spells none is not
        legal now, said with what is wrong with it."""
        try:
            return actions.ACTIONS.decode(data, defaults)
        except IllegalActionError as exc:
            raise IllegalActionError(f"not legal now: {dict(data)!r:.200} ({exc.message})", **exc.details) from None

    def parse_action(self, state: BattleState, data: Mapping[str, object]) -> actions.BSAction:
        from .action_words import read_action

        return read_action(state, data)

    def parse_words(self, state: BattleState, words: Sequence[str], option: str | None = None) -> actions.BSAction:
        """``move "Riverguard Foot" C2``, ``attack X Y``, ``end`` (:func:`.action_words.read_words`)."""
        from .action_words import read_words

        return read_words(state, words)

    def apply(self, state: BattleState, action: actions.BSAction) -> Outcome:
        actions.check(state, action)
        if isinstance(action, actions.Move):
            new, report = moved(state, action)
            records: Sequence[ChanceResult] = ()
        else:
            fate = Fate.from_state(state.rng)
            new, report = play(state, action, fate)
            records = fate.records
        if new.over:
            winner = "a draw" if new.winner is None else f"{new.name(new.winner)} win"
            report.append({"text": f"The battle is over, {winner}: {new.reason}", "kind": "over"})
        return self.outcome(new, action, action.side, records, report)

    def whole_odds(self, state: BattleState, action: actions.BSAction) -> WholeOdds | None:
        """The whole result of an attack, a pursuit, a rally or tending (:mod:`.whole`)."""
        from .whole import whole_odds

        try:
            actions.check(state, action)
        except IllegalActionError:
            return None
        return whole_odds(state, action)

    def preview(self, state: BattleState, action: actions.BSAction) -> OddsPreview:
        actions.check(state, action)
        return actions.preview(state, action)

    def policy(self, state: BattleState) -> actions.BSAction | None:
        return policy.choose(state)

    def rollout_policy(self, state: BattleState) -> actions.BSAction | None:
        """The shipped policy's action, asked one unit at a time (the search bot's simulations: ``bot.py``)."""
        from .bot import rollout_policy

        return rollout_policy(state)

    def side_of(self, action: actions.BSAction) -> str:
        return action.side

    def action_text(self, action: actions.BSAction) -> str:
        return actions.action_text(action)

    def evaluate(self, state: BattleState, side: str) -> float:
        """The search bot's score of an unfinished battle for ``side`` in [-1, 1] (``rulekeeper.bots``)."""
        from .bot import evaluate

        return evaluate(state, side)

    def result(self, state: BattleState) -> GameResult | None:
        if not state.over:
            return None
        from .turns import strength

        summary: JsonDict = {"winner": state.winner, "turn": state.turn,
                             "soldiers able to fight": {s: strength(state, s) for s in SIDES},
                             "units": {p.name: ("escaped" if p.escaped else "destroyed" if p.destroyed else
                                                "fleeing" if p.fleeing else
                                                f"{counted(p.soldiers, 'soldier')}, {p.morale} morale")
                                       for p in state.units}}
        return GameResult(state.winner, None if state.winner is None else state.name(state.winner), state.reason,
                          summary)

    # -- JSON and views --------------------------------------------------------------------------

    def state_to_json(self, state: BattleState) -> JsonDict:
        return state_to_json(state)

    def state_from_json(self, document: JsonDict) -> BattleState:
        return state_from_json(document)

    def view(self, state: BattleState, role: str) -> JsonDict:
        """The whole battle but its RNG state: the Battle System keeps no other secret."""
        return view_of(state)

    # -- presentation: an SVG hex board in the web keeper, a text hex map in the terminal ----------

    def web_presenter(self) -> WebPresenter:
        from .web.presenter import BattleSystemPresenter

        return BattleSystemPresenter(self)

    def cli_presenter(self) -> CliPresenter:
        from .render import BattleSystemCliPresenter

        return BattleSystemCliPresenter()

    def register_cli(self, hooks: CliHooks) -> None:
        """``odds battlesystem attack``, ``resolve battlesystem attack|missile|barrage``, ``units battlesystem``."""
        from .cli import register

        register(hooks)


