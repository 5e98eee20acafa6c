"""Confrontation skirmishes on the typed game protocol (:class:`rulekeeper.core.base.BaseGame`
``[SkirmishState, SkirmishAction]``: its actions are :mod:`.action_types`, read from words in :mod:`.action_words`).

:class:`SkirmishGame` holds the protocol's battle half; the registered class
:class:`~.calculator.Confrontation` (entry point ``confrontation``, re-exported here) is the calculator plus this, so
``rulekeeper battle new confrontation …`` and the web keeper reach whole skirmishes through the same
plug-in as ``rulekeeper odds confrontation``. A scenario file becomes the stored initial document
(cards included), an action a protocol :class:`~rulekeeper.core.game.Outcome` whose every die comes
from the :class:`~rulekeeper.core.chance.Fate` of the RNG state kept in the skirmish's state.
Rules decisions: docs/rules/confrontation.md, "Skirmishes".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulekeeper.core.base import BaseGame
from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import InvalidStatError, RulekeeperError, UnknownNameError
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
from rulekeeper.core.memo import legal_list
from rulekeeper.core.present import CliPresenter, WebPresenter
from rulekeeper.core.rng import RngState
from rulekeeper.core.whole import WholeOdds

from . import actions, after_ini, before_ini, cure, policy, rallying_cry, steeling
from .accumulators import do_absorb
from .action_types import (
    ACTIONS,
    Absorb,
    Cast,
    Charge,
    Concentrate,
    Cure,
    Declare,
    Disengage,
    Lead,
    Place,
    Pursue,
    Shoot,
    SkirmishAction,
    Split,
    ToPoint,
)
from .action_words import action_text, parse_form, parse_words
from .authority import do_authority
from .authority_uses import do_answer, do_decline, do_pass, do_token_split
from .concentration import declaring as concentrating
from .concentration import do_concentrate, do_steady, may_concentrate
from .cover_move import after_cover, do_cover, do_ready, settle_turn
from .disengage import do_disengage
from .ending import worth
from .fear import steeled_charge
from .flight import do_flee, do_pursue, do_stay, mark_pursuers, pursuers, run_away
from .ground import Terrain
from .leap import do_leap, do_leap_charge, leaping_pursuit
from .magic import refresh
from .magic_step import magic_step
from .placing import begin, by_players, do_place, fighters_of
from .placing import choices as placing_choices
from .reaction import declare, may_react, resolve
from .reinforcement import do_choice
from .report_lines import ReportLine
from .scenario import read_scenario, shipped_scenarios
from .shooting import do_shoot
from .skirmish import advance, do_charge, do_fight, do_hold, do_lead, do_move, group_of, groups, waiting
from .splitting import do_split
from .state import (
    SIDES,
    DamagedStateError,
    Fighter,
    SkirmishState,
    cards_from_json,
    obstacles_from_json,
    other,
    replace,
    state_from_json,
    state_to_json,
    view_of,
)
from .tactical import do_tactical, general

NAME = "confrontation"
#: The Authority token's uses in the combat and activation phases (:mod:`.authority_uses`): each a side's choice.
AUTHORITY_USES = ("authority_split", "decline", "pass", "allow", "force")


class SkirmishSetupError(RulekeeperError):
    """A set-up request a skirmish cannot start from (no scenario file, army lists)."""

    code = "impossible_request"


Step = tuple[SkirmishState, list[ReportLine]]


def resolution(state: SkirmishState, f: Fighter, action: SkirmishAction, fate: Fate) -> Step:
    """What the action's own rules do (its fighter ``f``, every die from ``fate``), before the round moves on."""
    match action:
        case ToPoint(kind="move", to=(x, y)):
            return do_move(state, f, x, y, fate)
        case ToPoint(kind="leap", to=(x, y)):
            return do_leap(state, f, x, y, fate)
        case ToPoint(kind="cover", to=(x, y)):
            new, report = do_cover(state, f, x, y)
            return after_cover(new), report
        case ToPoint(kind="return", to=to):
            return do_choice(state, f, "return", list(to))
        case Charge():
            return _charge(state, f, action, fate)
        case Shoot():
            return do_shoot(state, f, state.fighter(action.target), fate)
        case Pursue():
            return do_pursue(state, f, *leaping_pursuit(state, f, action))
        case Disengage():
            return do_disengage(state, f, action.test, list(action.to), fate)
        case Split(kind="split"):
            return do_split(state, list(action.apart))
        case Split():
            return do_token_split(state, f.side, f, list(action.apart))
        case Absorb():
            new, said = do_absorb(state, f, list(action.from_))
            return new, [{"text": said, "kind": "magic"}]
        case Concentrate():
            new, said = do_concentrate(state, f, action.points.given())
            return new, [{"text": said, "kind": "concentration"}]
        case Cast():
            return magic_step(state, f, action, fate)
        case Place():
            new, report = do_place(state, action, fate)
            if new.placing:
                return new, report
            return mark_pursuers(new, fighters_of(state)), report
        case Declare() if state.crying:  # Rallying cry announced or not at the start of a round (rallying_cry.py)
            return rallying_cry.answer(state, action, fate)
        case Declare() if state.steeling:  # Resolute on a COU test inside another's action or the rally (steeling.py)
            return steeling.answer(state, action, fate)
        case Declare() if state.rapid_flight:  # the opponent's choice on a fleeing fighter's Rapidity (flight.py)
            new, ran = run_away(state, f, bool(action.value))
            return new, [{"text": action_text(action), "kind": "flee"}, *ran]
        case Cure():  # whom a curer cures in the maintenance phase (cure.py)
            return cure.do_cure(state, action, fate)
        case Declare() if after_ini.pending(state) is not None:  # Additional limb, Fencer after the INI test (after_ini.py)
            return after_ini.with_announcement(state, action), [{"text": action_text(action), "kind": "fight"}]
        case Declare():  # War fury, Sequence or Resolute before the INI test; the last one makes the fight (before_ini.py)
            new = before_ini.with_declaration(state, action)
            line: ReportLine = {"text": action_text(action), "kind": "fight"}  # the log's own words
            if before_ini.pending(new) is not None:
                return new, [line]
            done, report = _fight(new, new.fighter(new.before_ini[1]), fate)
            return done, [line, *report]
        case Lead():
            new, report = do_lead(state, action.first)
            if new.phase == "combat":  # no one left to activate (all moved under cover): on to the fights
                new = advance(new, fate, report)
            return new, report
    return _by_fighter(state, f, action, fate)


def _fight(state: SkirmishState, lead: Fighter, fate: Fate) -> Step:
    """A fight once its abilities are declared: its INI tests, the players placing their dice next (placing.py), or
    the whole fight, the keeper placing them."""
    if by_players(state):  # the INI tests; Additional limb, Fencer's reserve announced next (after_ini.py)
        new, report = begin(state, lead, fate)
        return after_ini.opening(new), report
    fray = group_of(state, lead)
    group = [] if fray is None else [g.key for g in (*fray[0], *fray[1])]
    new, report = do_fight(state, lead, fate)
    return mark_pursuers(replace(new, before_ini=()), group), report


def _charge(state: SkirmishState, f: Fighter, action: Charge, fate: Fate) -> Step:
    """A charge: leaping; declared, waiting for the charged fighter's reaction fire; or made at once (``resolute``:
    his Resolute spent on its COU test, marked until it is drawn)."""
    state, f = steeled_charge(state, f, action.resolute)  # Resolute on his COU test (fear.py)
    t = state.fighter(action.target)
    if action.leap:
        return do_leap_charge(state, f, t, fate)
    if may_react(state, f, t):
        new, said = declare(state, f, t, action.assault is True)
        return new, [{"text": said, "kind": "charge"}]
    return do_charge(state, f, t, fate, assault=action.assault is True)


def _by_fighter(state: SkirmishState, f: Fighter, action: SkirmishAction, fate: Fate) -> Step:
    """The kinds that name a fighter (or a side's General) and nothing else."""
    kind = action.kind
    if kind in ("react", "withhold"):  # the charge goes on while the charger stands (reaction.py)
        new, shot_said, charger, assault = resolve(state, kind == "react", fate)
        report: list[ReportLine] = [] if shot_said is None else [{"text": shot_said, "kind": "shot"}]
        if not charger.killed:
            new, more = do_charge(new, charger, new.fighter(f.key), fate, assault=assault)
            report += more
        return (new if new.steeling else replace(new, to_act=charger.side)), report  # the charger's side acted
    if kind == "fight" and before_ini.asks(state, f):  # War fury, Sequence, Resolute declared first (before_ini.py)
        return before_ini.begin(state, f)
    if kind == "fight":
        return _fight(state, f, fate)
    if kind in ("counter", "let"):
        return magic_step(state, f, action, fate)
    if kind == "steady":
        new, said = do_steady(state, f.side)
        return new, [{"text": said, "kind": "concentration"}]
    simple = {"flee": lambda: do_flee(state, f, fate), "stay": lambda: do_stay(state, f),
              "remove": lambda: do_choice(state, f, "remove", None), "keep": lambda: do_choice(state, f, "keep", None),
              "authority": lambda: do_authority(state, f.side), "ready": lambda: do_ready(state, f.side),
              "decline": lambda: do_decline(state, f.side), "pass": lambda: do_pass(state, f.side),
              "allow": lambda: do_answer(state, f.side, False), "force": lambda: do_answer(state, f.side, True),
              "tactical": lambda: do_tactical(state, fate)}
    made = simple.get(kind)
    return do_hold(state, f) if made is None else made()


class SkirmishGame(BaseGame[SkirmishState, SkirmishAction]):
    """The battle half of the game protocol for Confrontation skirmishes (the registered class adds the calculator):
    its state a :class:`~.state.SkirmishState`, its actions typed (:mod:`.action_types`)."""

    state_type = SkirmishState
    action_codec = ACTIONS

    # -- setting a battle up -------------------------------------------------------------------

    def scenarios(self) -> list[ScenarioInfo]:
        return shipped_scenarios()

    def setup(self, request: SetupRequest) -> BattleSetup:
        if request.armies or request.board is not None:
            raise SkirmishSetupError("a Confrontation skirmish starts from a scenario file (table, warbands and "
                                     "positions), not from army lists or a board")
        if request.scenario is None:
            raise SkirmishSetupError("give a Confrontation scenario, e.g. "
                                     "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml")
        sc = read_scenario(request.scenario)
        infos = {o.name: o for o in self.options()}
        options = {name: o.default for name, o in infos.items()}
        for text in request.options:
            key, sep, value = text.partition("=")
            key = key.strip().replace("-", "_")
            if not sep:
                raise InvalidStatError(f"option {text!r} must look like NAME=VALUE", option=text)
            if key not in infos:
                raise UnknownNameError("Confrontation option", key, list(infos))
            if value.strip() not in infos[key].choices:
                raise UnknownNameError(f"value for option {key}", value.strip(), infos[key].choices)
            options[key] = value.strip()
        doc: JsonDict = {"ruleset": NAME, "scenario": sc, "seed": int(request.seed), "options": options}
        return BattleSetup(NAME, sc["name"], request.seed, doc, sc["name"], {"sides": sc["sides"]})

    def initial_state(self, document: JsonDict) -> SkirmishState:
        try:
            sc = document["scenario"]
            cards = cards_from_json(sc["cards"])
            fighters = tuple(Fighter(str(f["key"]), str(f["side"]), cards[str(f["card"])], float(f["x"]),
                                     float(f["y"]), float(f["facing"]), cards[str(f["card"])].HP,
                                     rout=int(f.get("rout", 0)))
                             for f in sc["fighters"])
            state = SkirmishState(
                str(sc["name"]), (str(sc["sides"]["A"]), str(sc["sides"]["B"])), float(sc["width"]),
                float(sc["height"]), obstacles_from_json(sc["obstacles"]), fighters, 1, int(sc["round_limit"]),
                "tactical", "A", "A", tuple((str(k), str(v)) for k, v in document.get("options", {}).items()),
                False, None, "", RngState.from_seed(int(document["seed"])),
                terrain=tuple(Terrain.from_json(p) for p in sc.get("terrain", [])))
            state = settle_turn(refresh(state))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, RulekeeperError):
                raise
            raise DamagedStateError(f"the stored skirmish's initial document is damaged: {exc!r}") from None
        return state

    # -- playing -------------------------------------------------------------------------------

    def status(self, state: SkirmishState) -> Status:
        to_act = () if state.over else (state.to_act,)
        acting: tuple[str, ...] = ()
        if not state.over and before_ini.declaring(state):  # a fight's declarations: the fighter who declares now
            now = before_ini.pending(state)
            acting = () if now is None else (now.fighter.key,)
        elif not state.over and state.crying:  # Rallying cry, its player's to announce (rallying_cry.py)
            acting = (state.crying,)
        elif not state.over and state.steeling:  # a COU test waits for its taker's Resolute (steeling.py)
            acting = state.steeling[:1]
        elif not state.over and state.rapid_flight:  # his opponent chooses how he flees: the fleeing fighter
            acting = (state.rapid_flight,)
        elif not state.over and state.placing:  # a fight's announcements, its dice: who announces, places now
            announcer = after_ini.pending(state)
            acting = (placing_choices(state).fighter if announcer is None else announcer.fighter).key,
        elif not state.over:
            acting = state.reacting[1:2] if state.reacting else \
                tuple(f.key for f in state.standing(state.to_act) if may_concentrate(f)) \
                if state.phase == "combat" and concentrating(state) else \
                tuple(f.key for f in pursuers(state)) or tuple(mine[0].key for mine, _ in groups(state)) \
                if state.phase == "combat" else \
                (general(state, state.to_act).key,) if state.phase in ("tactical", "lead") else \
                (tuple(f.key for f in state.fighters if f.returning) or
                 tuple(f.key for f in state.fighters if f.curing)[:1]) if state.phase == "maintenance" else \
                tuple(f.key for f in waiting(state, state.to_act))
        return Status(state.over, to_act, acting, state.round, state.winner, state.reason)

    def legal_actions(self, state: SkirmishState) -> list[LegalAction]:
        return legal_list(state, actions.legal_actions)  # built once per state (core.memo)

    def parse_action(self, state: SkirmishState, data: Mapping[str, object]) -> SkirmishAction:
        return parse_form(state, data)

    def parse_words(self, state: SkirmishState, words: Sequence[str], option: str | None = None) -> SkirmishAction:
        """``move Alahan guard 30,20``, ``charge Wolfen hunter Alahan guard``, ``tactical``… (:mod:`.action_words`)."""
        return parse_words(state, words)

    def apply(self, state: SkirmishState, action: SkirmishAction) -> Outcome:
        actions.check(state, action)
        fate = Fate.from_state(state.rng)
        f = state.fighter(action.fighter)
        kind = action.kind
        new, report = resolution(state, f, action, fate)
        if new.reacting:  # a charge waits for the charged fighter's reaction fire: his side answers
            pass
        elif new.casting:  # a spell that worked waits for the enemy's counter
            new = replace(new, to_act=other(f.side))
        elif kind in ("counter", "let"):  # the caster's activation is over: the round goes on from his side
            new = replace(new, to_act=other(f.side))
        if kind in ("fight", "split"):  # the winner orders the fights: no token is spent after that
            new = replace(new, held=(0, 0))
        if state.phase == "activation" and kind not in ("pass", "allow", "force", "absorb"):
            new = replace(new, no_pass="")  # a fighter was activated: either side may pass again
        if kind not in ("lead", "split", "authority", "cover", "ready", "absorb", *AUTHORITY_USES) \
                and not new.casting and not new.reacting and not new.placing and not new.rapid_flight \
                and not new.steeling and not new.crying and not before_ini.declaring(new):  # the choice itself says who acts next
            new = advance(new, fate, report)
        new = replace(settle_turn(new), rng=fate.state)
        if new.over:
            winner = "a draw" if new.winner is None else f"{new.name(new.winner)} win"
            report.append({"text": f"The skirmish is over, {winner}: {new.reason}", "kind": "over"})
        return self.outcome(new, action, action.side, fate.records, report)

    def preview(self, state: SkirmishState, action: SkirmishAction) -> OddsPreview:
        return actions.preview(state, action)

    def whole_odds(self, state: SkirmishState, action: SkirmishAction) -> WholeOdds | None:
        """The whole result of a fight, a shot, a charge or a frightening move (:mod:`.whole`)."""
        from .whole import whole_odds

        return whole_odds(state, action)

    def policy(self, state: SkirmishState) -> SkirmishAction | None:
        chosen = policy.choose(state)
        return None if chosen is None else ACTIONS.decode(chosen)

    def side_of(self, action: SkirmishAction) -> str:
        return action.side

    def action_text(self, action: SkirmishAction) -> str:
        return action_text(action)

    def evaluate(self, state: SkirmishState, side: str) -> float:
        """The search bot's score of an unfinished battle for ``side`` in [-1, 1] (``rulekeeper.bots``)."""
        from .bot import evaluate

        return evaluate(state, side)

    def rollout_done(self, start: SkirmishState, state: SkirmishState, actions: int, horizon: int) -> bool:
        """Whether a search bot's simulation from ``start`` has looked far enough (``bot.rollout_done``)."""
        from .bot import rollout_done

        return rollout_done(start, state, actions, horizon)

    def rollout_policy(self, state: SkirmishState) -> SkirmishAction | None:
        """The shipped policy's action, computed faster (the search bot's simulations, ``bot.rollout_policy``)."""
        from .bot import rollout_policy

        chosen = rollout_policy(state)
        return None if chosen is None else ACTIONS.decode(chosen)

    def result(self, state: SkirmishState) -> GameResult | None:
        if not state.over:
            return None
        summary: JsonDict = {"winner": state.winner, "round": state.round,
                             "points standing": {s: worth(state, s) for s in SIDES},
                             "fighters": {f.key: "fled" if f.fled else "killed" if f.killed else f"{f.hp} HP"
                                          for f in state.fighters}}
        return GameResult(state.winner, None if state.winner is None else state.name(state.winner), state.reason,
                          summary)

    # -- JSON and views --------------------------------------------------------------------------

    def state_to_json(self, state: SkirmishState) -> JsonDict:
        return state_to_json(state)

    def state_from_json(self, document: JsonDict) -> SkirmishState:
        return state_from_json(document)

    def view(self, state: SkirmishState, role: str) -> JsonDict:
        """The whole skirmish but its RNG state: nothing else is secret."""
        return view_of(state)

    # -- presentation ----------------------------------------------------------------------------

    def web_presenter(self) -> WebPresenter:
        from .web.presenter import ConfrontationPresenter

        return ConfrontationPresenter(self)

    def cli_presenter(self) -> CliPresenter:
        from .render import ConfrontationCliPresenter

        return ConfrontationCliPresenter()



def __getattr__(name: str) -> type[SkirmishGame]:
    """``Confrontation``, the registered class (entry point ``rulekeeper.rulesets.confrontation.game:Confrontation``).

    It is defined in :mod:`.calculator` as the calculator plus :class:`SkirmishGame`, so it is re-exported here
    lazily (PEP 562): an import at the top would be circular, since :mod:`.calculator` imports this module.
    """
    if name == "Confrontation":
        from .calculator import Confrontation

        return Confrontation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
