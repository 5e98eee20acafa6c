"""The scenarios a battle may start from by name (the web keeper's lists, `rulekeeper battle new KEY`): every installed game's.

Each game's list is read on its own: a game whose scenario files cannot be read (one broken file
makes its ``scenarios()`` raise) is left out of the lists with a logged warning, and only a battle
of *that* game is refused, naming the game and the file. Why: the keeper read every game's
scenarios to find one, so a broken file of one game made every ``/api/battles`` creation of every
other game fail with 422.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from rulekeeper.core.errors import RulekeeperError, UnknownNameError
from rulekeeper.core.game import Game, ScenarioInfo
from rulekeeper.core.ruleset import find_ruleset, game, games

log = logging.getLogger(__name__)


class BrokenScenariosError(RulekeeperError):
    """A game's shipped scenarios cannot be read (a broken scenario file): its battles cannot start."""

    code = "data_file"


@dataclass(frozen=True)
class Shipped:
    """A shipped scenario and the game it belongs to (``key`` is ``game:scenario``)."""

    key: str
    game: str
    game_title: str
    info: ScenarioInfo

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "game": self.game, "name": self.info.name, "description": self.info.description}


#: Files (and their folders) → modification time, as they were when a game's list was read.
_Stamp = tuple[tuple[str, int], ...]
_CACHE: dict[tuple[type, str], tuple[_Stamp, list[ScenarioInfo]]] = {}
_CACHE_LOCK = threading.Lock()


def _stamp(infos: list[ScenarioInfo]) -> _Stamp | None:
    """The modification times of the scenario files and their folders (a folder's changes when a file
    is added or removed), or None when one of them cannot be read (then nothing is cached)."""
    paths = sorted({str(i.path) for i in infos} | {str(Path(i.path).parent) for i in infos})
    try:
        return tuple((p, os.stat(p).st_mtime_ns) for p in paths)
    except OSError:
        return None


def _listed(g: Game) -> list[ScenarioInfo]:
    """``g.scenarios()``, read again only when a file or folder it came from changed.

    Why: each ``/api/scenarios`` and "new battle" page parsed every scenario file of every game
    (39–93 ms); a game's list changes only when its files do, which one ``stat`` per file tells.
    """
    key = (type(g), g.name)  # the class too: a test may register another game under the same name
    with _CACHE_LOCK:
        cached = _CACHE.get(key)
    if cached is not None and cached[0] == _stamp(cached[1]):
        return list(cached[1])
    infos = list(g.scenarios())
    stamp = _stamp(infos)
    if stamp is not None:
        with _CACHE_LOCK:
            _CACHE[key] = (stamp, infos)
    return infos


def scenarios_of(g: Game) -> list[Shipped]:
    """One game's shipped scenarios; a game that cannot read them raises :class:`BrokenScenariosError`.

    Any exception is caught, not only the typed ones: a game's reader may fail in ways its author never
    wrapped (a YAML error, a missing key), and it must still be one game's refusal, not the keeper's 500.
    """
    try:
        return [Shipped(f"{g.name}:{s.key}", g.name, g.title, s) for s in _listed(g)]
    except Exception as exc:  # one game's fault, reported as its own
        message = exc.message if isinstance(exc, RulekeeperError) else f"{type(exc).__name__}: {exc}"
        raise BrokenScenariosError(f"the scenarios of {g.title} cannot be read, so its battles cannot start: "
                                   f"{message}", game=g.name) from exc


def _readable(found: list[Game]) -> tuple[list[Shipped], list[BrokenScenariosError]]:
    out: list[Shipped] = []
    broken: list[BrokenScenariosError] = []
    for g in found:
        try:
            out += scenarios_of(g)
        except BrokenScenariosError as exc:
            log.warning("%s", exc.message)
            broken.append(exc)
    return out, broken


def shipped_scenarios() -> list[Shipped]:
    """Every readable game's scenarios (a game whose files are broken is left out, with a warning)."""
    return _readable(games())[0]


def _game_named(prefix: str) -> Game | None:
    """The game a ``game:key`` prefix names (its name or an alias), or None."""
    try:
        find_ruleset(prefix)
    except RulekeeperError:
        return None
    g = game(prefix)
    return g if isinstance(g, Game) else None


def find_scenario(key: str) -> Shipped:
    """A scenario by ``game:key`` (read from that game's files only), or by its bare key when only one game ships it.

    A bare key that no readable game ships, while some game's files are broken, is refused with
    what is broken (it may be one of the scenarios nobody could read).
    """
    prefix, sep, rest = key.partition(":")
    named = _game_named(prefix) if sep else None
    broken: list[BrokenScenariosError] = []
    if named is not None:
        found = scenarios_of(named)
        wanted = f"{named.name}:{rest}"
    else:
        found, broken = _readable(games())
        wanted = key
    exact = [s for s in found if s.key == wanted]
    bare = [s for s in found if s.info.key == key]
    if exact or len(bare) == 1:
        return (exact or bare)[0]
    if broken and not bare:
        raise BrokenScenariosError(f"unknown scenario {key[:100]!r} (" + "; ".join(b.message for b in broken) + ")",
                                   games=[str(b.details.get("game")) for b in broken])
    raise UnknownNameError("scenario", key, [s.key for s in found])
