"""Dragon Noir battles on the typed game protocol (:class:`rulekeeper.core.base.BaseGame` ``[DNState, DNAction]``).

:class:`DragonNoirBattles` is the battle half of the registered class :class:`DragonNoir` below
(entry point ``rulekeeper.rulesets.dragonnoir.game:DragonNoir``, which adds the calculator half); the registry
wraps it (``core.registered``), so every method here takes the battle's own state and its typed actions
(:mod:`.action_types`, whose one codec the log's JSON goes through): a scenario file becomes the stored initial
document, an action an :class:`~rulekeeper.core.game.Outcome` (every die drawn through the
:class:`~rulekeeper.core.chance.Fate` of the RNG state kept in the battle's state, from the very request
:meth:`preview` shows), the state a view without its RNG. Rules decisions: ``docs/rules/dragonnoir.md``,
"Battles".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from rulekeeper.core.base import BaseGame
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError, RulekeeperError, UnknownNameError
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

from .action_types import ACTIONS, DNAction
from .state import DNState

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks

SIDES = ("A", "B")

NAME = "dragonnoir"


class DragonNoirSetupError(RulekeeperError):
    """A set-up request Dragon Noir cannot start from (no scenario file, army lists)."""

    code = "impossible_request"


def parse_options(words: list[str]) -> dict[str, str]:
    """``name=value`` options checked against the ruleset's options, every one given its default."""
    out = {o.name: o.default for o in OPTION_INFO}
    for w in words:
        name, _, value = w.partition("=")
        info = next((o for o in OPTION_INFO if o.name == name.strip()), None)
        if info is None:
            raise UnknownNameError("Dragon Noir option", name, [o.name for o in OPTION_INFO])
        if value.strip() not in info.choices:
            raise DragonNoirSetupError(f"option {info.name} is one of {', '.join(info.choices)}, got {value!r}")
        out[info.name] = value.strip()
    return out


class DragonNoirBattles(BaseGame[DNState, DNAction]):
    """Whole Dragon Noir battles: set-up, the player turn's typed actions, JSON, views and presenters."""

    state_type: ClassVar[type] = DNState
    action_codec = ACTIONS

    def scenarios(self) -> list[ScenarioInfo]:
        from .scenario import shipped_scenarios

        return shipped_scenarios()

    def setup(self, request: SetupRequest) -> BattleSetup:
        if request.armies or request.board is not None:
            raise DragonNoirSetupError("a Dragon Noir battle starts from a scenario file (map and characters)")
        if request.scenario is None:
            raise DragonNoirSetupError("give a Dragon Noir scenario, e.g. "
                                       "src/rulekeeper/rulesets/dragonnoir/data/scenarios/the_ford.yaml")
        from .scenario import read_scenario

        sc = read_scenario(request.scenario)
        options = parse_options(list(request.options))
        doc: JsonDict = {"ruleset": NAME, "scenario": sc, "seed": int(request.seed), "options": options}
        return BattleSetup(NAME, sc["name"], request.seed, doc, sc["name"], {"sides": sc["sides"]})

    def initial_state(self, document: JsonDict) -> DNState:
        from .blackdragon import BlackDragon
        from .sorcery import wizards_of
        from .state import DNState, Man
        from .turns import _start_movement, can_fire

        try:
            sc = document["scenario"]
            men = tuple(Man(str(m["name"]), str(m["character"]), str(m["side"]), tuple(map(str, m["hexes"])),
                            str(m["health"]), bool(m["mounted"]), bool(m["horse"]),
                            None if m["facing"] is None else int(m["facing"])) for m in sc["men"])
            state = DNState(str(sc["name"]), (str(sc["sides"]["A"]), str(sc["sides"]["B"])), int(sc["width"]),
                            int(sc["height"]), tuple((str(a), str(b), int(c)) for a, b, c in sc["terrain"]),
                            tuple((str(a), str(b), str(c)) for a, b, c in sc["edges"]), men, "A", "fire", 1, 1,
                            int(sc["turn_limit"]),
                            tuple((str(k), str(v)) for k, v in document.get("options", {}).items()), None, False,
                            None, "", RngState.from_seed(int(document["seed"])), wizards_of(men),
                            None if sc.get("dragon") is None else BlackDragon.from_dict(sc["dragon"]))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, RulekeeperError):
                raise
            raise RulekeeperError(f"the stored battle's initial document is damaged: {exc!r}") from None
        from .sorcery import window

        return window(None, state if can_fire(state) else _start_movement(state))

    # -- playing -----------------------------------------------------------------------------------------

    def status(self, state: DNState) -> Status:
        if state.over:
            return Status(True, (), (), state.turn, state.winner, state.reason)
        acting = tuple(m.name for m in state.men if m.side == state.to_act and m.standing and not m.horse)
        return Status(False, (state.to_act,), acting, state.turn, None, "")

    def legal_actions(self, state: DNState) -> list[LegalAction]:
        from .actions import legal_actions

        return legal_actions(state)

    def decode_action(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> DNAction:
        """The typed action a logged or posted JSON object spells (the one codec); one that spells none is not
        legal now, said with what is wrong with it."""
        try:
            return ACTIONS.decode(data, defaults)
        except IllegalActionError as exc:
            raise IllegalActionError(f"not legal now: {dict(data)!r:.200} ({exc.message})", **exc.details) from None

    def parse_action(self, state: DNState, data: Mapping[str, object]) -> DNAction:
        from .action_words import read_action

        return read_action(state, data)

    def parse_words(self, state: DNState, words: Sequence[str], option: str | None = None) -> DNAction:
        """``shoot Laberne "Goblin 1"``, ``move Grast D4``, ``attack Grast,Thrug "Crazy Ork"``, ``hold``, ``end``."""
        from .action_words import read_words

        return read_words(state, words)

    def apply(self, state: DNState, action: DNAction) -> Outcome:
        from .actions import check
        from .whole import play

        check(state, action)
        fate = Fate.from_state(state.rng)
        new, report = play(state, action, fate)
        if new.over:
            winner = "a draw" if new.winner is None else f"{new.name(new.winner)} win"
            report.append({"text": f"The battle is over, {winner}: {new.reason}", "kind": "over"})
        return self.outcome(new, action, action.side, fate.records, report)

    def whole_odds(self, state: DNState, action: DNAction) -> WholeOdds | None:
        """The whole result of an action with dice, every outcome run through the rules (:mod:`.whole`)."""
        from .actions import check
        from .whole import CHANCY, whole_odds

        if action.kind not in CHANCY:
            return None
        try:
            check(state, action)
        except IllegalActionError:
            return None
        return whole_odds(state, action)

    def preview(self, state: DNState, action: DNAction) -> OddsPreview:
        from .actions import check, preview

        check(state, action)
        return preview(state, action)

    def policy(self, state: DNState) -> DNAction | None:
        from .policy import choose

        return choose(state)

    def side_of(self, action: DNAction) -> str:
        return action.side

    def action_text(self, action: DNAction) -> str:
        from .action_words import action_text

        return action_text(action)

    def evaluate(self, state: DNState, side: str) -> float:
        """The search bot's score of an unfinished battle for ``side`` in [-1, 1] (``rulekeeper.bots``)."""
        from .bot import evaluate

        return evaluate(state, side)

    def rollout_done(self, start: DNState, state: DNState, actions: int, horizon: int) -> bool:
        """Whether a search bot's simulation from ``start`` has looked far enough (``bot.rollout_done``)."""
        from .bot import rollout_done

        return rollout_done(start, state, actions, horizon)

    def rollout_policy(self, state: DNState) -> DNAction | None:
        """The shipped policy's action, computed faster (the search bot's simulations, :mod:`.rollout`)."""
        from .rollout import rollout_policy

        return rollout_policy(state)

    def result(self, state: DNState) -> GameResult | None:
        if not state.over:
            return None
        from .turns import living

        summary: JsonDict = {"winner": state.winner, "turn": state.turn,
                             "alive": {s: len(living(state, s)) for s in SIDES},
                             "characters": {m.name: m.health for m in state.men}}
        return GameResult(state.winner, None if state.winner is None else state.name(state.winner), state.reason,
                          summary)

    # -- JSON and views ----------------------------------------------------------------------------------

    def state_to_json(self, state: DNState) -> JsonDict:
        from .state import state_to_json

        return dict(state_to_json(state))

    def state_from_json(self, document: JsonDict) -> DNState:
        from .state import state_from_json

        return state_from_json(document)

    def view(self, state: DNState, role: str) -> JsonDict:
        """The whole battle but its RNG state: Dragon Noir hides nothing else."""
        from .view import view_of

        return dict(view_of(state))

    # -- presentation --------------------------------------------------------------------------------------

    def web_presenter(self) -> WebPresenter:
        from .web.presenter import DragonNoirPresenter

        return DragonNoirPresenter(self)

    def cli_presenter(self) -> CliPresenter:
        from .boardtext import DragonNoirCliPresenter

        return DragonNoirCliPresenter()


OPTION_INFO = (
    OptionInfo("dwarves", "instead", ("instead", "plus"),
               "Dwarves attacking together: one column per dwarf in place of the one column for attacking "
               "together (instead), or on top of it (plus)."),
    OptionInfo("errare", "off", ("off", "on"),
               "The optional rule 'Errare humanum est': a missed shot may wound a character around the target."),
    OptionInfo("dragon_horsemen", "stop", ("stop", "push"),
               "A horseman in the Black Dragon's way: he stops its step (stop, the keeper's former reading), or, as "
               "the seed says 'It can therefore never be blocked', he is pushed aside whole (push)."),
    OptionInfo("crossing", "refused", ("refused", "friends"),
               "Friendly characters in the way: never crossed (refused, the keeper's former reading), or, as the seed "
               "says 'Crossing hexes containing friendly characters ... poses no problem', passed over on foot when "
               "nothing can stop the mover on the friend's hex (friends)."),
    OptionInfo("advance_infiltration", "off", ("off", "on"),
               "The advance after combat and the infiltration of enemy lines: no roll (off, the keeper's former "
               "reading), or, as the seed says 'the advance after combat must take into account the stacking and "
               "infiltration of enemy lines rules', a roll on leaving a hex next to an enemy not engaged (on)."),
)


class DragonNoir(DragonNoirBattles):
    """Dragon Noir: the calculator (combat and fire odds, movement arithmetic) and whole battles."""

    name: ClassVar[str] = "dragonnoir"
    aliases: ClassVar[tuple[str, ...]] = ("dragon noir", "dragon-noir", "dn", "l'exil")
    title: ClassVar[str] = "Dragon Noir 1: L'Exil"
    deterministic: ClassVar[bool] = False

    def options(self) -> list[OptionInfo]:
        return list(OPTION_INFO)

    def roster(self) -> list[JsonDict]:
        """Every character's counters, each side as attack/movement/defence, and where the numbers come from."""
        from .roster import roster

        return roster()

    def register_cli(self, hooks: CliHooks) -> None:
        """``odds dragonnoir combat|fire``, ``resolve dragonnoir combat|fire`` and ``units dragonnoir``."""
        from .cli import register

        register(hooks)

    def sample_resolution(self, fate: Fate) -> Resolution:
        """Grast and Thrug attack Crazy Ork together on flat ground; one d10 through ``fate``."""
        from .combat import combat_odds, resolve_combat
        from .data import shipped_sheet
        from .fighters import Fighter

        sheet = shipped_sheet()
        fighters = [Fighter(*sheet.character(n)) for n in ("Grast", "Thrug", "Crazy Ork")]
        odds = combat_odds(sheet, fighters[:2], fighters[2:])
        roll = resolve_combat(fate, odds)
        summary = {**odds.to_dict(), "die": roll.die, "result": roll.letter, "meaning": roll.meaning}
        return Resolution(ruleset=self.name, kind="combat", summary=summary, chance=fate.record_dicts())


__all__ = ["OPTION_INFO", "DragonNoir", "DragonNoirBattles"]
