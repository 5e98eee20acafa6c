"""The door between a typed game and the layers that must not know it: states opaque, actions as logged JSON.

Why: a game is written against :class:`~rulekeeper.core.base.BaseGame` ``[State, Action]`` — its rules
take its own state class and its own action dataclasses — while the service, the store, the web keeper,
the CLI, the lab and the bots hold a battle's state as an ``object`` they never look into and its
actions as the JSON objects the log stores (:class:`~rulekeeper.core.game.Game`). The registry wraps
each registered ``BaseGame`` in :class:`Registered`, which is that protocol: every state handed in is
checked to be the game's ``state_type`` (a wrong one is a :class:`StateTypeError` naming both, never a
cast), every logged action is decoded through the game's ``action_codec`` before the game sees it, and
every action the game hands back (a parsed request, its policy's choice) is encoded for the log. A game
without typed actions has the identity codec (``core.actioncodec.JSON_ACTIONS``): its JSON passes
through unchanged. Anything else the game offers (presenters, bot hooks, ``secrets``...) is reached
through the wrapper as on the game itself; :func:`rules_of` gives the game back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Generic

from .base import ActionT, BaseGame, StateT
from .errors import RulekeeperError
from .game import (
    BattleSetup,
    Game,
    GameResult,
    JsonDict,
    LegalAction,
    OddsPreview,
    Outcome,
    ScenarioInfo,
    SetupRequest,
    Status,
)

if TYPE_CHECKING:
    from .chance import Fate
    from .ruleset import OptionInfo, Resolution
    from .whole import WholeOdds


class StateTypeError(RulekeeperError):
    """A state handed to a game that is not of the game's state class (a state of another game, a
    stale document): a fault of the caller, refused by name before any rule reads it."""

    code = "wrong_state"


class Registered(Generic[StateT, ActionT]):
    """A :class:`BaseGame` as the neutral layers see it (:class:`~rulekeeper.core.game.Game`)."""

    def __init__(self, rules: BaseGame[StateT, ActionT]) -> None:
        self.rules = rules
        self._state_type: type[StateT] = rules.state_type
        # the optional hooks that take or give an action, through the codec like the rest (``core.game.conceals``,
        # ``bots.hooks.roller``); a game without them has none here either
        if callable(getattr(rules, "conceals", None)):
            self.conceals = self._conceals
        if callable(getattr(rules, "rollout_policy", None)):
            self.rollout_policy = self._rollout_policy
        if callable(getattr(rules, "bot_policy", None)):
            self.bot_policy = self._bot_policy
        if callable(getattr(rules, "policy_for", None)):
            self.policy_for = self._policy_for

    # -- the game's names and calculator side ---------------------------------------------------------

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def aliases(self) -> tuple[str, ...]:
        return self.rules.aliases

    @property
    def title(self) -> str:
        return self.rules.title

    @property
    def deterministic(self) -> bool:
        return self.rules.deterministic

    def options(self) -> list[OptionInfo]:
        return self.rules.options()

    def roster(self) -> Sequence[Mapping[str, object]]:
        return self.rules.roster()

    def sample_resolution(self, fate: Fate) -> Resolution:
        return self.rules.sample_resolution(fate)

    def scenarios(self) -> list[ScenarioInfo]:
        return self.rules.scenarios()

    def setup(self, request: SetupRequest) -> BattleSetup:
        return self.rules.setup(request)

    def roles(self, document: JsonDict) -> tuple[str, ...]:
        return self.rules.roles(document)

    def reseeded(self, document: JsonDict, seed: int) -> JsonDict:
        return self.rules.reseeded(document, seed)

    # -- the typed door ---------------------------------------------------------------------------------

    def state(self, state: object) -> StateT:
        """``state`` as the game's own state class, or a :class:`StateTypeError` naming what it is."""
        if not isinstance(state, self._state_type):
            raise StateTypeError(f"{self.rules.title} plays on a {self._state_type.__name__}, "
                                 f"not a {type(state).__name__}", game=self.rules.name,
                                 expected=self._state_type.__name__, got=type(state).__name__)
        return state

    def action(self, logged: Mapping[str, object]) -> ActionT:
        """The game's action a logged JSON object spells (its codec's refusal, an ``IllegalActionError``, if none)."""
        return self.rules.decode_action(logged)

    def logged(self, action: ActionT) -> JsonDict:
        return self.rules.encode_action(action)

    # -- playing ------------------------------------------------------------------------------------------

    def initial_state(self, document: JsonDict) -> object:
        return self.rules.initial_state(document)

    def status(self, state: object) -> Status:
        return self.rules.status(self.state(state))

    def legal_actions(self, state: object) -> list[LegalAction]:
        return self.rules.legal_actions(self.state(state))

    def parse_action(self, state: object, data: Mapping[str, object]) -> JsonDict:
        return self.logged(self.rules.parse_action(self.state(state), data))

    def parse_words(self, state: object, words: Sequence[str], option: str | None = None) -> JsonDict:
        return self.logged(self.rules.parse_words(self.state(state), words, option))

    def apply(self, state: object, action: Mapping[str, object]) -> Outcome:
        return self.rules.apply(self.state(state), self.action(action))

    def preview(self, state: object, action: Mapping[str, object]) -> OddsPreview:
        return self.rules.preview(self.state(state), self.action(action))

    def whole_odds(self, state: object, action: Mapping[str, object]) -> WholeOdds | None:
        return self.rules.whole_odds(self.state(state), self.action(action))

    def policy(self, state: object) -> JsonDict | None:
        chosen = self.rules.policy(self.state(state))
        return None if chosen is None else self.logged(chosen)

    def side_of(self, action: Mapping[str, object]) -> str:
        return self.rules.side_of(self.action(action))

    def action_text(self, action: Mapping[str, object]) -> str:
        return self.rules.action_text(self.action(action))

    def result(self, state: object) -> GameResult | None:
        return self.rules.result(self.state(state))

    def _conceals(self, state: object, action: Mapping[str, object], role: str) -> bool:
        hook = getattr(self.rules, "conceals")  # noqa: B009  # present: checked when wrapped
        return bool(hook(self.state(state), self.action(action), role))

    def _rollout_policy(self, state: object) -> JsonDict | None:
        hook = getattr(self.rules, "rollout_policy")  # noqa: B009  # present: checked when wrapped
        chosen: ActionT | None = hook(self.state(state))
        return None if chosen is None else self.logged(chosen)

    def _bot_policy(self, state: object) -> JsonDict | None:
        hook = getattr(self.rules, "bot_policy")  # noqa: B009  # present: checked when wrapped
        chosen: ActionT | None = hook(self.state(state))
        return None if chosen is None else self.logged(chosen)

    def _policy_for(self, state: object, side: str) -> Mapping[str, object] | None:
        hook = getattr(self.rules, "policy_for")  # noqa: B009  # present: checked when wrapped
        chosen: ActionT | None = hook(self.state(state), side)
        return None if chosen is None else self.logged(chosen)

    # -- JSON and views -------------------------------------------------------------------------------------

    def state_to_json(self, state: object) -> JsonDict:
        return self.rules.state_to_json(self.state(state))

    def state_from_json(self, document: JsonDict) -> object:
        return self.rules.state_from_json(document)

    def view(self, state: object, role: str) -> JsonDict:
        return self.rules.view(self.state(state), role)

    # -- everything else the game offers (capabilities, hooks, its declarations) ------------------------------

    def __getattr__(self, name: str) -> object:
        if name.startswith("__") or name == "rules":  # copying or unpickling: no game yet to ask
            raise AttributeError(name)
        return getattr(self.rules, name)

    def __repr__(self) -> str:
        return f"Registered({self.rules!r})"


def registered_game(instance: object) -> object:
    """What the registry hands out for a ruleset ``instance``: a complete :class:`BaseGame` wrapped in
    :class:`Registered`; anything else as it is (a calculator-only ruleset; a game written to the JSON
    protocol directly, which already speaks it; a ``BaseGame`` lacking a required member, which
    ``core.ruleset.missing_members`` then names)."""
    from .ruleset import missing_members

    if isinstance(instance, BaseGame) and not missing_members(instance):
        return Registered(instance)
    return instance


def rules_of(game: object) -> object:
    """The game a :class:`Registered` wraps (its own class, its own typed methods), else ``game`` itself."""
    return game.rules if isinstance(game, Registered) else game


def as_game(game: object) -> Game:
    """``game`` as the neutral protocol: a :class:`BaseGame` wrapped (its presenter built with ``self``, say),
    a :class:`Registered` or a game written to the JSON protocol as it is; anything else a ``TypeError``."""
    if isinstance(game, BaseGame):
        return Registered(game)
    if isinstance(game, Game):
        return game
    raise TypeError(f"{type(game).__name__} does not play whole battles (not a rulekeeper.core.game.Game)")
