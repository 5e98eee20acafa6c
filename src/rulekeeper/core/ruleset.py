"""The ruleset protocol and registry.

Rule systems are small classes found by name or alias, like python-chess variants,
either built in or contributed by other distributions through the entry-point group
``rulekeeper.rulesets``. Every registered ruleset must pass the one conformance test
(``tests/test_conformance.py``), which drives it only through this protocol.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypedDict, runtime_checkable

from .errors import RulekeeperError, UnknownNameError

if TYPE_CHECKING:
    from .chance import ChanceRecord, Fate
    from .game import Game

ENTRY_POINT_GROUP = "rulekeeper.rulesets"


class ResolutionJson(TypedDict):
    """A :class:`Resolution` as ``--json`` prints it: the game's own summary and Fate's records."""

    ruleset: str
    kind: str
    summary: dict[str, Any]
    chance: list[ChanceRecord]


@dataclass(frozen=True)
class Resolution:
    """What one resolution produced: JSON-able summary plus every chance drawn."""

    ruleset: str
    kind: str
    summary: dict[str, Any]
    chance: list[ChanceRecord] = field(default_factory=list)

    def to_dict(self) -> ResolutionJson:
        return {"ruleset": self.ruleset, "kind": self.kind, "summary": self.summary, "chance": self.chance}


@dataclass(frozen=True)
class OptionInfo:
    """A ruleset option that switches between readings of a contradictory rule."""

    name: str
    default: str
    choices: tuple[str, ...]
    help: str


@runtime_checkable
class Ruleset(Protocol):
    """What every rule system offers to the core, the CLI and the conformance test."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    title: ClassVar[str]
    deterministic: ClassVar[bool]

    def options(self) -> list[OptionInfo]:
        """The ruleset options (readings of contradictory rules) with their defaults."""
        ...

    def roster(self) -> Sequence[Mapping[str, object]]:
        """Every unit the shipped data knows, as JSON-able dicts (at least ``name``)."""
        ...

    def sample_resolution(self, fate: Fate) -> Resolution:
        """One representative resolution drawing all chance through ``fate``."""
        ...


_LOADED: dict[str, type[object]] = {}
_ALL_LOADED = False
_GAMES: dict[str, object] = {}


@cache
def _entry_points() -> dict[str, EntryPoint]:
    """Entry-point name → entry point (not loaded: naming a plugin costs no import). Read once per process:
    reading them opens the metadata of every installed distribution, and each ``game(name)`` asked."""
    found: dict[str, EntryPoint] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        found.setdefault(ep.name, ep)
    return found


def _load(name: str, ep: EntryPoint) -> None:
    try:
        _LOADED[name] = ep.load()
    except Exception as exc:  # a broken third-party plugin must not break the tool
        raise RulekeeperError(f"ruleset plugin {name!r} failed to load: {exc}") from exc


def entry_point_names() -> list[str]:
    """The names of every registered ruleset, without importing any of them (start-up time:
    importing the five shipped rule systems costs about a second)."""
    return sorted(set(_entry_points()) | set(_LOADED))


def registered() -> dict[str, type[object]]:
    """Name → ruleset class, from the entry-point group ``rulekeeper.rulesets`` (and only there).

    A rule system is a plugin: the shipped ones register themselves in ``pyproject.toml``
    exactly as a third-party distribution would. Loads every one (once per process); to find one
    ruleset by name, :func:`find_ruleset` loads only that one when the name is its entry point's.
    """
    global _ALL_LOADED
    if not _ALL_LOADED:
        for name, ep in _entry_points().items():
            if name not in _LOADED:
                _load(name, ep)
        _ALL_LOADED = True
    return dict(_LOADED)


def register_for_tests(cls: type[object]) -> None:
    """Add a ruleset class for this process only (a toy game in the tests, without installing it)."""
    registered()
    key = ruleset_name(cls, cls.__name__)
    _LOADED[key] = cls
    _GAMES.pop(key, None)


def unregister_for_tests(name: str) -> None:
    registered()
    _LOADED.pop(name, None)
    _GAMES.pop(name, None)


def game(name: str) -> object:
    """The (shared) instance of the ruleset called ``name`` or one of its aliases; a typed game
    (a :class:`~rulekeeper.core.base.BaseGame`) wrapped in :class:`~rulekeeper.core.registered.Registered`,
    the protocol the neutral layers speak (opaque states, logged JSON actions)."""
    from .registered import registered_game

    cls = find_ruleset(name)
    key = str(getattr(cls, "name", name))  # a class without its name is refused by name, not a crash
    if key not in _GAMES:
        _GAMES[key] = registered_game(cls())
    return _GAMES[key]


def games() -> list[Game]:
    """One instance of every registered ruleset that plays whole battles (the game protocol).

    A ruleset that set out to play battles (it has some of the protocol's battle members) but
    lacks others is not among them: :func:`refusals` names what it lacks, ``rulekeeper games``
    prints it, and :func:`game_refusal` is what the service answers for it.
    """
    from .game import Game

    out: list[Game] = []
    for name in sorted(registered()):
        g = game(name)
        if isinstance(g, Game) and not missing_members(g):
            out.append(g)
    return out


def protocol_members() -> tuple[str, ...]:
    """Every member :class:`~rulekeeper.core.game.Game` demands, in the order the class declares them."""
    from .game import Game

    return tuple(n for n, member in vars(Game).items()
                 if not n.startswith("_") and (callable(member) or isinstance(member, property)))


#: The members that only a game playing whole battles has: a ruleset with one of them meant to
#: be a game, so a missing sibling is a mistake to name, not a calculator-only ruleset.
BATTLE_MEMBERS = ("initial_state", "apply", "legal_actions", "setup")


def missing_members(candidate: object) -> tuple[str, ...]:
    """The protocol members ``candidate`` (a ruleset class or instance) lacks, by name.

    A :class:`~rulekeeper.core.base.BaseGame` subclass has a default for every member but its
    ``required_members`` (``core.base.REQUIRED``), which it must write: one left to the base's
    abstract declaration, or a class attribute never given (``state_type``), is missing too.
    """
    wanted = list(protocol_members())
    wanted += [m for m in getattr(candidate, "required_members", ()) if m not in wanted]
    return tuple(m for m in wanted
                 if not hasattr(candidate, m) or getattr(getattr(candidate, m), "__isabstractmethod__", False))


def game_refusal(name: str) -> str | None:
    """Why the ruleset ``name`` plays no whole battles (the members it lacks), or None if it does.

    A calculator-only ruleset (none of the battle members) is refused in one phrase; one that
    has some battle members but not all names each missing member, so a plugin author reads
    what to add instead of finding the game silently absent from the list.
    """
    cls = find_ruleset(name)
    missing = missing_members(cls)
    if not missing:
        return None
    if all(m in missing for m in BATTLE_MEMBERS):
        return "has no whole battles (only its calculator)"
    return "is not a whole game: it lacks " + ", ".join(f"`{m}`" for m in missing)


def refusals() -> dict[str, str]:
    """Registered ruleset name → why it plays no whole battles (only those that play none)."""
    out: dict[str, str] = {}
    for name in sorted(registered()):
        why = game_refusal(name)
        if why is not None:
            out[name] = why
    return out


def ruleset_name(cls: type[object], key: str) -> str:
    """The name a ruleset class gives itself; one that forgot it goes by ``key`` (and is refused for lacking it)."""
    return str(getattr(cls, "name", key))


def _names(cls: type[object], key: str) -> Iterator[str]:
    """The names ``cls`` answers to; one that forgot its ``name`` answers to its registry key (and is refused
    for lacking it, by :func:`missing_members`, instead of breaking every lookup)."""
    yield ruleset_name(cls, key)
    yield from (str(a) for a in getattr(cls, "aliases", ()))


def _folded(name: str) -> str:
    return name.strip().lower().replace(" ", "").replace("-", "").replace("_", "")


def _by_entry_point(wanted: str) -> type[object] | None:
    """The ruleset whose entry-point name is ``wanted`` (folded), importing only that one."""
    if _ALL_LOADED:
        return None
    for ep_name, ep in _entry_points().items():
        if _folded(ep_name) == wanted:
            if ep_name not in _LOADED:
                _load(ep_name, ep)
            return _LOADED[ep_name]
    return None


#: Folded name → (registry key, class) found for it. Why: every act and read of a stored battle asks for its
#: game by name, and walking every ruleset's names took half a millisecond; an entry stands while the
#: registry still holds that class under that key (a test's toy game replaced or removed: looked up again).
_FOUND: dict[str, tuple[str, type[object]]] = {}


def find_ruleset(name: str) -> type[object]:
    """The ruleset class called ``name`` or one of its aliases (case-insensitive).

    A name that is a ruleset's own (its entry point's) loads only that ruleset; an alias loads them all.
    """
    wanted = _folded(name)
    known = _FOUND.get(wanted)
    if known is not None and _LOADED.get(known[0]) is known[1]:
        return known[1]
    direct = _by_entry_point(wanted)
    if direct is not None and _folded(str(getattr(direct, "name", wanted))) == wanted:
        key = next(k for k, c in _LOADED.items() if c is direct)
        _FOUND[wanted] = (key, direct)
        return direct
    all_names: list[str] = []
    for key, cls in registered().items():
        for n in _names(cls, key):
            all_names.append(n)
            if _folded(n) == wanted:
                _FOUND[wanted] = (key, cls)
                return cls
    raise UnknownNameError("ruleset", name, all_names)
