"""A base class that gives a new game every optional member of the protocol.

:class:`~rulekeeper.core.game.Game` has 25 members because the keeper, the CLI and the lab ask
many things of a game. Most have one sensible answer for a simple game: its sides are ``A`` and
``B``, a typed state goes to JSON by its fields, an action is one of the legal ones, a logged
action names its side, the first legal action is a policy. :class:`BaseGame` supplies those
answers, so a game writes only the :data:`REQUIRED` members — the rules themselves — and
overrides a default only where its rules differ (python-chess's variants override four methods
the same way). Presenters, CLI commands, army lists, a campaign and a duel kernel are not
members at all: a game that has one writes its method (:mod:`rulekeeper.core.capabilities`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from typing_extensions import TypeVar

from .actioncodec import JSON_ACTIONS, Codec, JsonActions
from .datafiles import read_model
from .errors import IllegalActionError, ImpossibleRequestError, UnknownNameError
from .game import (
    BattleSetup,
    GameResult,
    JsonDict,
    LegalAction,
    OddsPreview,
    Outcome,
    ScenarioInfo,
    SetupRequest,
    Status,
    check_data_files,
)
from .statecodec import from_json, to_json

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .chance import ChanceResult, Fate
    from .events import Event
    from .ruleset import OptionInfo, Resolution
    from .whole import WholeOdds

StateT = TypeVar("StateT")
#: A game's action type; a game without typed actions yet keeps its JSON objects (the default).
ActionT = TypeVar("ActionT", default=JsonDict)

#: What a game must write itself: its names, its state and its rules (every other member of the protocol has a
#: default here; ``setup`` too, for a game whose battles start from a scenario file read by ``scenario_model``).
#: A subclass that leaves one out is refused at registration naming it (``core.ruleset.missing_members``).
REQUIRED = ("name", "title", "state_type", "initial_state", "status", "legal_actions", "apply")


class BaseGame(Generic[StateT, ActionT]):
    """Defaults for every optional member of the game protocol (see the module's docstring).

    ``StateT`` is the game's state class and ``ActionT`` its action type (a frozen dataclass, or a union
    of them, with ``action_codec`` their :class:`~rulekeeper.core.actioncodec.ActionCodec`; left out, the
    actions stay their JSON objects). Every method here takes them typed; the registry wraps the game in
    :class:`~rulekeeper.core.registered.Registered`, which the neutral layers see: it checks that a state
    is a ``state_type`` and decodes the logged JSON actions through the codec.
    ``state_type`` is the game's state class (a dataclass): the JSON codec and the default view
    read it. ``sides`` are the roles that get a link; ``option_infos`` the ruleset options;
    ``scenario_folder`` where ``scenarios()`` finds the shipped scenario files.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    state_type: ClassVar[type]
    aliases: ClassVar[tuple[str, ...]] = ()
    deterministic: ClassVar[bool] = False
    sides: ClassVar[tuple[str, ...]] = ("A", "B")
    option_infos: ClassVar[tuple[OptionInfo, ...]] = ()
    scenario_folder: ClassVar[Path | None] = None
    scenario_model: ClassVar[type[BaseModel] | None] = None
    #: The JSON codec of the game's typed actions (``core.actioncodec``): the log's, the API's, the form's and
    #: the command line's actions are decoded through it (numbers as numbers) before any method sees them.
    #: (A class variable cannot name ``ActionT``: :meth:`decode_action` and :meth:`encode_action` are typed.)
    action_codec: ClassVar[Codec[Any]] = JSON_ACTIONS
    #: What a subclass must write (``core.ruleset.missing_members`` refuses it naming any it left out).
    required_members: ClassVar[tuple[str, ...]] = REQUIRED

    # -- the calculator side and set-up -----------------------------------------------------------

    def options(self) -> list[OptionInfo]:
        return list(self.option_infos)

    def roster(self) -> Sequence[Mapping[str, object]]:
        return []

    def sample_resolution(self, fate: Fate) -> Resolution:
        """No calculator of its own: an empty resolution (it replays trivially)."""
        from .ruleset import Resolution

        return Resolution(self.name, "none", {}, fate.record_dicts())

    def scenarios(self) -> list[ScenarioInfo]:
        """Every ``*.toml``/``*.yaml`` in ``scenario_folder``, named by its ``name`` and ``description``."""
        from .datafiles import read_data_file

        if self.scenario_folder is None:
            return []
        out = []
        for path in sorted([*self.scenario_folder.glob("*.toml"), *self.scenario_folder.glob("*.yaml")]):
            raw = read_data_file(path)
            found = raw if isinstance(raw, dict) else {}
            out.append(ScenarioInfo(path.stem, str(found.get("name", path.stem)), str(found.get("description", "")),
                                    path))
        return out

    def setup(self, request: SetupRequest) -> BattleSetup:
        """A battle from a scenario file checked against ``scenario_model`` (every problem listed at once),
        with the chosen options; army lists, a board or data files are refused (a game taking them overrides)."""
        if self.scenario_model is None or request.scenario is None or request.armies or request.board is not None:
            raise ImpossibleRequestError(f"{self.title} starts from a scenario file (no army lists, no board)",
                                         game=self.name)
        check_data_files(self, request)
        scenario = read_model(request.scenario, self.scenario_model).model_dump(mode="json")
        title = str(scenario.get("name") or request.scenario.stem)
        document: JsonDict = {"ruleset": self.name, "scenario": scenario, "seed": request.seed,
                              "options": self.chosen_options(request.options)}
        return BattleSetup(self.name, title, request.seed, document, title)

    def chosen_options(self, typed: Sequence[str]) -> dict[str, str]:
        """``name=value`` options (``battle new --option``) over the defaults of ``option_infos``; an
        unknown name or value is refused naming the known ones."""
        chosen = {o.name: o.default for o in self.option_infos}
        known = {o.name: o for o in self.option_infos}
        for item in typed:
            key, _, value = (part.strip() for part in item.partition("="))
            if key not in known:
                raise UnknownNameError("option", key, list(known))
            if value not in known[key].choices:
                raise UnknownNameError(f"value of {key}", value, list(known[key].choices))
            chosen[key] = value
        return chosen

    def roles(self, document: JsonDict) -> tuple[str, ...]:
        return self.sides

    def reseeded(self, document: JsonDict, seed: int) -> JsonDict:
        """The document with its ``seed`` replaced (a game without chance has none: unchanged)."""
        return {**document, "seed": int(seed)} if "seed" in document else dict(document)

    # -- playing ----------------------------------------------------------------------------------------

    if TYPE_CHECKING:  # declared for the type checker only: a subclass that leaves one out has no such attribute,
        # so the protocol check (``isinstance(g, Game)``, ``core.ruleset.missing_members``) refuses it naming it

        @abstractmethod
        def initial_state(self, document: JsonDict) -> StateT:
            """The state before the first action, from the stored initial document (required)."""

        @abstractmethod
        def status(self, state: StateT) -> Status:
            """Who must act now, whether it is over (required)."""

        @abstractmethod
        def legal_actions(self, state: StateT) -> list[LegalAction]:
            """Every legal action of the side(s) to act, in a stable order (required)."""

        @abstractmethod
        def apply(self, state: StateT, action: ActionT) -> Outcome:
            """The pure step of the fold: the new state and every chance record (required)."""

    def decode_action(self, data: Mapping[str, object], defaults: Mapping[str, object] | None = None) -> ActionT:
        """The action a JSON object (the log's, a request's) spells, through ``action_codec``."""
        decoded: ActionT = self.action_codec.decode(data, defaults)
        return decoded

    def encode_action(self, action: ActionT) -> JsonDict:
        """The JSON object the log stores for ``action`` (``action_codec``'s, key order included)."""
        return dict(self.action_codec.encode(action))

    def outcome(self, state: StateT, action: ActionT, side: str, chance: Sequence[ChanceResult],
                report: Sequence[Mapping[str, object]], events: Sequence[Event] = (), **extra: object) -> Outcome:
        """:meth:`Outcome.made` for a typed ``action``: the record built by the core, the action encoded for the log."""
        return Outcome.made(state, self.encode_action(action), side, chance, report, events, **extra)

    def parse_action(self, state: StateT, data: Mapping[str, object]) -> ActionT:
        """The legal action ``data`` names: equal to one listed, once its words are folded and the
        side filled in (a form sends numbers as text, so ``"3"`` matches ``3``; with typed actions
        the fields are decoded by their types first)."""
        if not isinstance(self.action_codec, JsonActions):
            to_act = self.status(state).to_act
            codec = self.action_codec
            data = codec.encode(codec.decode(data, {"side": to_act[0]} if to_act else None))
        wanted = {str(k): _folded(v) for k, v in data.items() if v not in (None, "")}
        legal = self.legal_actions(state)
        for candidate in legal:
            listed = {str(k): _folded(v) for k, v in candidate.action.items()}
            if set(listed) - set(wanted) <= {"side"} and all(listed.get(k) == v for k, v in wanted.items()):
                return self.decode_action(candidate.action)
            if set(listed) == set(wanted) and all(listed[k] == v for k, v in wanted.items() if k != "side"):
                # the right action on another side's turn: the keeper refuses it as "not your turn"
                typed = str(data["side"]).strip()
                side = next((s for s in self.sides if s.casefold() == typed.casefold()), typed)
                return self.decode_action({**candidate.action, "side": side})
        raise IllegalActionError(f"not a legal action here: {dict(data)!r:.200}",
                                 legal=[c.text for c in legal][:20])

    def parse_words(self, state: StateT, words: Sequence[str], option: str | None = None) -> ActionT:
        """A listed action's own text, its label, or its kind followed by its other values in order."""
        typed = " ".join(words).strip().casefold()
        tokens = [w.strip().casefold() for w in words]
        legal = self.legal_actions(state)
        for candidate in legal:
            values = " ".join(str(v) for k, v in candidate.action.items() if k != "side").casefold()
            if typed in (candidate.text.casefold(), candidate.label.casefold(), values):
                return self.decode_action(candidate.action)
        for candidate in legal:  # every value in order, the side included ("hold A")
            keys = list(candidate.action)
            listed = [str(candidate.action[k]).casefold() for k in keys]
            if len(tokens) == len(keys) and all(t == v or k == "side" for k, t, v in zip(keys, tokens, listed,
                                                                                          strict=True)):
                return self.parse_action(state, dict(zip(keys, words, strict=True)))
        raise IllegalActionError(f"not a legal action here: {typed!r:.120}", legal=[c.text for c in legal][:20])

    def legal_side(self, state: StateT, action: ActionT) -> str:
        """The side playing ``action`` when it is one of the state's legal actions, else an
        ``IllegalActionError`` naming it: the check ``apply`` and ``preview`` make first (the legal list
        and its index built once per state, ``core.memo.allows``)."""
        from .memo import allows

        logged = self.encode_action(action)
        if not allows(state, logged, self.legal_actions):
            raise IllegalActionError(f"not a legal action of {self.title} now: {logged!r:.200}")
        return self.side_of(action)

    def preview(self, state: StateT, action: ActionT) -> OddsPreview:
        return OddsPreview()

    def whole_odds(self, state: StateT, action: ActionT) -> WholeOdds | None:
        """No distribution of the whole action (optional: see :mod:`rulekeeper.core.whole`)."""
        return None

    def policy(self, state: StateT) -> ActionT | None:
        """The first legal action (a game with a better idea overrides this)."""
        legal = self.legal_actions(state)
        return self.decode_action(legal[0].action) if legal else None

    def side_of(self, action: ActionT) -> str:
        return str(self.encode_action(action).get("side", ""))

    def action_text(self, action: ActionT) -> str:
        logged = self.encode_action(action)
        words = " ".join(str(v) for k, v in logged.items() if k != "side")
        return f"side {logged.get('side')}: {words}" if "side" in logged else words

    def result(self, state: StateT) -> GameResult | None:
        status = self.status(state)
        if not status.over:
            return None
        return GameResult(status.winner, status.winner, status.reason, {"turn": status.turn})

    # -- JSON and views ------------------------------------------------------------------------------------

    def state_to_json(self, state: StateT) -> JsonDict:
        encoded: JsonDict = to_json(state)
        return encoded

    def state_from_json(self, document: JsonDict) -> StateT:
        if getattr(type(self), "state_type", None) is None:
            raise ImpossibleRequestError(f"{self.title} is not a whole game: it lacks `state_type`", game=self.name)
        decoded: StateT = from_json(self.state_type, document)
        return decoded

    def view(self, state: StateT, role: str) -> JsonDict:
        """The state's fields but its RNG state (a game with secrets hides them too, by overriding this)."""
        shown = self.state_to_json(state)
        shown.pop("rng", None)
        return shown


def _folded(value: object) -> object:
    """A value as a form or a command line may write it: numbers from their text, words in lower case."""
    if isinstance(value, str):
        text = value.strip()
        try:
            return int(text)
        except ValueError:
            return text.casefold()
    return value
