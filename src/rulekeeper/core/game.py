"""The game protocol: everything the service, the store, the web keeper, the CLI and the
conformance test need from a rule system, and nothing rule-specific.

A rule system is a plugin. It is a class registered under the entry-point group
``rulekeeper.rulesets`` (see :mod:`.ruleset`) that implements :class:`Game`; the layers
above the core (``service/``, ``persistence/``, ``web/``, ``cli/``, ``lab/``) talk to it only
through this protocol and the typed objects below, never by importing ``rulesets/``.

Why this shape (after OpenSpiel's ``Game``/``State`` and boardgame.io's moves):

* **A battle is a fold over its log.** ``initial_state(document)`` builds the state from the
  stored initial document; ``apply(state, action)`` is pure and returns an :class:`Outcome`
  with the new state and every chance record, so replaying the log rebuilds any moment bit
  for bit. The RNG state lives inside the game's state (``core.rng``).
* **States are opaque, actions are their logged JSON** — here. This protocol is what the
  neutral layers hold: a state is an ``object`` they never look into, an action the JSON
  object the log stores (``parse_action`` makes a player's loose spelling canonical,
  ``parse_words`` reads the command line, ``action_text`` says it in words), so the log, the
  API and the CLI share one vocabulary. An action handed in is a ``Mapping``: the game's codec
  reads and checks it before any rule does. A game itself is written against
  :class:`~rulekeeper.core.base.BaseGame` ``[State, Action]``, whose methods take its own typed
  state and (with an ``action_codec``) its typed actions; the registry wraps it in
  :class:`~rulekeeper.core.registered.Registered`, which checks the state's type and decodes
  and encodes actions through the game's codec.
* **Odds before the roll are the odds of the roll.** ``preview`` returns the exact
  :class:`~rulekeeper.core.chance.ChanceRequest` objects the resolution will draw (as far as
  they are known before it starts); the conformance test checks them against the records.
  A game may also offer ``whole_odds(state, action) -> WholeOdds | None`` (optional, not a
  member of :class:`Game`; read it with :func:`rulekeeper.core.whole.whole_odds_of`): the
  distribution of the action's whole result (miniatures killed, own losses, rout), computed
  from the same rules code paths, which the CLI and the web preview show above the draws.
* **Per-side views.** ``view(state, role)`` is all a client may see: never the RNG state,
  nothing a rule system keeps secret from that role. Results not yet revealed are the
  service's business (it shows the view of the state before a face-down action).
* **Presentation belongs to the rule system.** A game may ship a web presenter (Jinja2
  templates in its own folder) and a CLI presenter; without them the keeper falls back to
  generic ones built from the view and the report lines.
* **Optional parts are opted into.** Presenters, CLI commands, army lists, a campaign book and a
  duel kernel are small protocols of their own (:mod:`.capabilities`), not members of
  :class:`Game`; :class:`~rulekeeper.core.base.BaseGame` supplies every member of :class:`Game` but
  the few a game must write (:data:`~rulekeeper.core.base.REQUIRED`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, runtime_checkable

from .wording import percent

if TYPE_CHECKING:
    from .chance import ChanceRequest, ChanceResult, Fate
    from .events import Event
    from .ruleset import OptionInfo, Resolution

#: The role of a link that may only watch.
SPECTATOR = "spectator"

JsonDict = dict[str, Any]


@dataclass(frozen=True)
class ScenarioInfo:
    """A scenario shipped with a game (the web keeper's "new battle" list)."""

    key: str
    name: str
    description: str
    path: Path


@dataclass(frozen=True)
class ArmySource:
    """An army list (an Ex illis muster, say) handed to a game as text, with where it came from."""

    where: str
    text: str = ""
    suffix: str = ""  # ".toml", ".yaml"; "" when pasted (the game tries its formats in turn)
    path: Path | None = None  # a file the game reads itself (its errors then name the line)


@dataclass(frozen=True)
class SetupRequest:
    """What a player asked for when starting a battle: a scenario file, or army lists.

    ``db`` is the database the battle will live in, for games whose set-up consults their
    own records there (the Ex illis campaign refuses a unit above the level it has reached).
    ``data`` are the player's own data files (``battle new --data FILE``: a game master's
    tables, say), read by the game itself through the core's bounded loader and kept in the
    initial document; a game that reads none refuses them (:func:`check_data_files`).
    """

    scenario: Path | None = None
    armies: tuple[ArmySource, ...] = ()
    board: str | None = None
    seed: int = 0
    options: tuple[str, ...] = ()
    practice: bool = False
    db: str | None = None
    data: tuple[Path, ...] = ()


@dataclass(frozen=True)
class BattleSetup:
    """A battle ready to store: the initial document the state is rebuilt from, and its labels."""

    ruleset: str
    scenario: str
    seed: int
    document: JsonDict
    title: str = ""
    meta: JsonDict = field(default_factory=dict)


@dataclass(frozen=True)
class LegalAction:
    """One legal action of the side(s) to act: its JSON and text forms and what it costs."""

    action: JsonDict
    text: str
    side: str
    cost: float | None = None
    note: str = ""
    label: str = ""  # a short label for a list grouped by ``group`` ("→ B3")
    group: str = ""  # a heading to group actions under ("Charge")


@dataclass(frozen=True)
class Outcome:
    """What applying one action produced.

    ``record`` is what the log stores next to the action: JSON made by the game, holding at
    least ``"chance"`` (the chance records as dicts) and ``"report"`` (the lines and cards
    the game's presenters show). Replaying the log must reproduce it exactly.

    ``state`` is the game's new state, opaque to every layer but the game's own.
    """

    state: object
    action: JsonDict
    side: str
    chance: tuple[ChanceResult, ...]
    events: tuple[Event, ...]
    report: tuple[JsonDict, ...]
    record: JsonDict

    @classmethod
    def made(cls, state: object, action: Mapping[str, object], side: str, chance: Sequence[ChanceResult],
             report: Sequence[Mapping[str, object]], events: Sequence[Event] = (), **extra: object) -> Outcome:
        """An outcome whose ``record`` the core builds: the chance records as dicts, the report, and any
        ``extra`` keys the game's presenters read back (each game used to assemble the same record by hand)."""
        lines = tuple(dict(line) for line in report)
        record: JsonDict = {"chance": [c.to_dict() for c in chance], "report": list(lines), **extra}
        return cls(state, dict(action), side, tuple(chance), tuple(events), lines, record)


@dataclass(frozen=True)
class Status:
    """Where a battle stands: who must act now, whether it is over, and a turn counter."""

    over: bool
    to_act: tuple[str, ...]  # the sides that must act now (empty when over)
    acting: tuple[str, ...] = ()  # what acts, in the game's words (unit keys), for display
    turn: int = 0  # a counter the store lists battles by (actions played, rounds...)
    winner: str | None = None
    reason: str = ""

    @property
    def label(self) -> str:
        """The store's status column: ``over`` or ``active``."""
        return "over" if self.over else "active"


@dataclass(frozen=True)
class OddsPreview:
    """The odds of an action before it is committed.

    ``headline`` holds a few numbers a player scans in a list (label → probability in [0, 1],
    or a short text); ``draws`` the exact chance requests the resolution will draw, keyed by
    their labels (the same labels the chance records carry).
    """

    headline: tuple[tuple[str, float | str], ...] = ()
    draws: tuple[ChanceRequest, ...] = ()

    def headline_dict(self) -> dict[str, float | str]:
        return dict(self.headline)

    def line(self) -> str:
        """The headline on one line, as every action list shows it: a chance after its outcome, any other figure
        after a colon (a figure run into the words read "movement points left after this move 3").

        >>> OddsPreview((("hit", 0.7), ("killed", 0.0004), ("movement points left after this move", "3"))).line()
        'hit 70.0 %, killed <0.1 %, movement points left after this move: 3'
        """
        return headline_line(self.headline)


def headline_line(headline: Iterable[tuple[str, float | str]]) -> str:
    """:meth:`OddsPreview.line` of a headline given as pairs (or a dict's items)."""
    return ", ".join(f"{k} {percent(v)}" if isinstance(v, float) else f"{k}: {v}" for k, v in headline)


@dataclass(frozen=True)
class GameResult:
    """The end of a battle: who won, why, and the game's own summary (JSON)."""

    winner: str | None
    winner_name: str | None
    reason: str
    summary: JsonDict


@runtime_checkable
class Game(Protocol):
    """A rule system that plays whole battles, as the service, web keeper and CLI see it: states opaque,
    actions as their logged JSON (a game's class attributes ``name``, ``title``... answer the properties)."""

    @property
    def name(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...

    @property
    def title(self) -> str: ...

    @property
    def deterministic(self) -> bool: ...

    # -- the calculator side (every ruleset) ---------------------------------------------------

    def options(self) -> list[OptionInfo]:
        """The ruleset options (readings of contradictory rules) with their defaults."""
        ...

    def roster(self) -> Sequence[Mapping[str, object]]:
        """Every unit the shipped data knows, as JSON-able dicts (at least ``name``)."""
        ...

    def sample_resolution(self, fate: Fate) -> Resolution:
        """One representative resolution drawing all chance through ``fate``."""
        ...

    # -- setting a battle up -------------------------------------------------------------------

    def scenarios(self) -> list[ScenarioInfo]:
        """The scenarios shipped with the game."""
        ...

    def setup(self, request: SetupRequest) -> BattleSetup:
        """Read and check a scenario (or army lists); typed errors list every problem."""
        ...

    def initial_state(self, document: JsonDict) -> object:
        """The state before the first action, from a stored initial document."""
        ...

    def roles(self, document: JsonDict) -> tuple[str, ...]:
        """The sides of a battle (each gets a link), without the spectator."""
        ...

    def reseeded(self, document: JsonDict, seed: int) -> JsonDict:
        """The initial document with its seed of fate replaced by ``seed``; the input is not changed.

        A battle with verifiable dice learns its seed only once every side has added its
        contribution (``service.dice``), and is then rebuilt from this document. A game that
        draws no chance returns the document as it is.
        """
        ...

    # -- playing -------------------------------------------------------------------------------

    def status(self, state: object) -> Status: ...

    def legal_actions(self, state: object) -> list[LegalAction]:
        """Every legal action of the side(s) to act, in a stable order."""
        ...

    def parse_action(self, state: object, data: Mapping[str, object]) -> JsonDict:
        """A player's action (names or keys, loose spelling) as the canonical JSON form.

        Refuses with :class:`~rulekeeper.core.errors.IllegalActionError` (or a subclass)
        what cannot be an action here; legality is checked by :meth:`apply`.
        """
        ...

    def parse_words(self, state: object, words: Sequence[str], option: str | None = None) -> JsonDict:
        """An action typed on the command line (``charge "Franc Chevalers" B3``)."""
        ...

    def apply(self, state: object, action: Mapping[str, object]) -> Outcome:
        """Perform ``action``; refuse it (typed error, nothing changed) if it is not legal."""
        ...

    def preview(self, state: object, action: Mapping[str, object]) -> OddsPreview:
        """The odds of ``action`` before it is committed (exactly those its resolution uses)."""
        ...

    def policy(self, state: object) -> JsonDict | None:
        """The default policy's action (autoplay), or None when nobody can act."""
        ...

    def side_of(self, action: Mapping[str, object]) -> str:
        """The side that plays a logged action (for undo and reveal rights)."""
        ...

    def action_text(self, action: Mapping[str, object]) -> str:
        """A logged action in the game's words, for messages and lists ("Billmen: move to C3")."""
        ...

    def result(self, state: object) -> GameResult | None:
        """The result once the battle is over, else None."""
        ...

    # -- JSON and views --------------------------------------------------------------------------

    def state_to_json(self, state: object) -> JsonDict: ...

    def state_from_json(self, document: JsonDict) -> object: ...

    def view(self, state: object, role: str) -> JsonDict:
        """What the holder of ``role``'s link may see: never the RNG state or a secret."""
        ...


class WithoutExtras:
    """No army lists, no campaign book, no duel kernel, said in so many words (the lab's generic path still
    plays the game). Not needed: these are optional capabilities (:mod:`rulekeeper.core.capabilities`) and a
    game without the methods has none of them; games written before that inherit this."""

    def army_builder(self) -> None:
        return None

    def campaign(self) -> None:
        return None

    def duel_kernel(self) -> None:
        return None


# -- hidden simultaneous orders (optional) ---------------------------------------------------------


def policy_for(game: Game, state: object, side: str) -> Mapping[str, object] | None:
    """The shipped policy's action for ``side`` (autoplay of one side), or None when ``side`` cannot act.

    ``Game.policy`` plays the first side to act; where sides act at once (the War Table campaign's
    orders) another side to act asks the game's ``policy_for(state, side)`` hook. A game without the
    hook answers with its policy's action when that is ``side``'s, else ``side``'s first legal action.
    """
    hook = getattr(game, "policy_for", None)
    if callable(hook):
        chosen: Mapping[str, object] | None = hook(state, side)
        return chosen
    action = game.policy(state)
    if action is not None and game.side_of(action) == side:
        return action
    own = [legal for legal in game.legal_actions(state) if legal.side == side]
    return own[0].action if own else None


def conceals(game: Game, state: object, action: Mapping[str, object], role: str) -> bool:
    """Whether the holder of ``role`` may not yet see what a logged ``action`` says.

    A game whose sides act at once with hidden orders (the War Table campaign) defines
    ``conceals(state, action, role) -> bool``: true while ``action`` (another side's orders)
    is still secret in ``state`` (the state the link is shown). Games without the hook hide
    nothing. The log, the replay and the downloads then show :func:`concealed_action` instead.
    """
    hook = getattr(game, "conceals", None)
    return bool(hook(state, action, role)) if callable(hook) else False


class ConcealedAction(TypedDict):
    """What the log, the replay and the downloads show of an action still secret: only its side."""

    kind: str
    side: str


def concealed_action(game: Game, action: Mapping[str, object]) -> ConcealedAction:
    """What a concealed logged action shows: only that its side acted."""
    return {"kind": "concealed", "side": game.side_of(action)}


def concealed_text(game: Game, action: Mapping[str, object]) -> str:
    return f"side {game.side_of(action)} acted (hidden until it is revealed)"


def face_down(record: Mapping[str, object]) -> bool:
    """Whether a logged result is turned over by its side, and can never be taken back once shown.

    Random results (``chance``) are; so is a result whose record says ``"reveals": true``: it
    shows what other sides kept hidden (a campaign round's report reveals every side's orders),
    so, like a seen roll, undoing it after anyone saw it would let a side change its orders
    knowing the others'.
    """
    return bool(record.get("chance") or record.get("reveals"))


# -- a player's own data files at set-up (optional) -------------------------------------------------


class _Named(Protocol):
    @property
    def name(self) -> str: ...


def check_data_files(game: _Named, request: SetupRequest) -> None:
    """Refuse ``request.data`` for a game that would silently ignore it.

    A game that reads a player's own data files at set-up says so with a true class attribute
    ``reads_data_files`` (the War Table campaign: its game master's tables); for any other game
    a ``--data`` file is refused rather than dropped, so nobody plays on numbers they did not get.
    """
    if request.data and not getattr(game, "reads_data_files", False):
        from .errors import ImpossibleRequestError

        raise ImpossibleRequestError(
            f"the game {game.name!r} reads no --data files when a battle starts "
            f"(given: {', '.join(str(p) for p in request.data)[:300]})", game=game.name)
