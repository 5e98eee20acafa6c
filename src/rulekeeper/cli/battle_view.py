"""A stored battle drawn in the terminal, and ``battle show`` itself, without Typer.

Why apart from :mod:`.battle_cmds`: ``battle show`` is the command a player runs most, to see where a
battle stands, and its start-up was 5 to 6 times a numpy import (issue 22, point 6: the goal is 3).
Typer (and the pydantic it now validates parameters with) and the tree of every command cost more than
the drawing itself, so :mod:`.fast` runs the plain forms of ``battle show`` straight here, and the Typer
command in :mod:`.battle_cmds` calls the same :func:`show_battle`. Nothing here imports Typer or
SQLAlchemy unless a fallback needs the store.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, Unpack

from rich.text import Text

from rulekeeper.core.capabilities import cli_presenter_of
from rulekeeper.core.game import Game, JsonDict

from .battle_ids import resolve
from .generic_view import GenericCliPresenter
from .output import console, print_json

if TYPE_CHECKING:
    from rulekeeper.bots.model import DecisionJson
    from rulekeeper.core.present import CliPresenter
    from rulekeeper.service.battles import BattleService
    from rulekeeper.service.reading import BattleReading

    from .bot_cmds import KeeperMove


def service(db: str | None, *, create: bool = False) -> BattleService:
    """The battles of the store at ``db`` (SQLAlchemy and the service are imported only here).

    ``create``: the command starts battles (``battle new``, ``battle import``), so a ``--db`` file not yet there
    is made; every other command refuses it (``persistence.urls.require_existing``) instead of leaving an empty
    database behind a mistyped name.
    """
    from rulekeeper.persistence.store import BattleStore
    from rulekeeper.persistence.urls import require_existing
    from rulekeeper.service.battles import BattleService

    if not create:
        require_existing(db)
    return BattleService(BattleStore(db))


@contextmanager
def starting(db: str | None) -> Iterator[BattleService]:
    """The battles of the store a command starts battles in (``battle new``, ``battle import``): a SQLite file this
    command made is removed again if the block is refused, so a refused set-up leaves no empty database behind.

    Seen: ``battle import bad.json --db new.db`` and ``battle new bad.yaml --db new2.db`` each answered with a typed
    error (exit 2) and left an empty ``new.db``, ``new2.db`` (a half-applied command)."""
    from rulekeeper.core.errors import RulekeeperError
    from rulekeeper.persistence.urls import missing_file

    made = missing_file(db)
    svc = service(db, create=True)
    try:
        yield svc
    except RulekeeperError:
        if made is not None:
            svc.store.close()
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{made}{suffix}").unlink(missing_ok=True)
        raise


def presenter(g: Game) -> CliPresenter:
    return cli_presenter_of(g) or GenericCliPresenter(g)


class DocExtras(TypedDict, total=False):
    """What a command adds to a battle's JSON (``--json``), after the battle itself."""

    position: int  # ``battle act``: the log position the action was stored at, and the action
    action: JsonDict
    fingerprint: str | None  # ``battle show``: the log's fingerprint (None before the first action)
    keeper: list[KeeperMove]  # ``battle new --bot``: the keeper's moves
    policy: str  # ``battle autoplay``: who played, and the search's decisions (``Decision.to_json``)
    decisions: list[DecisionJson]


class BattleDoc(DocExtras):
    """A battle for machines: its id and game, the spectator's view and the result's summary (the game's JSON)."""

    id: str
    ruleset: str
    state: JsonDict
    result: JsonDict | None


def doc(g: Game, state: object, bid: str, **extra: Unpack[DocExtras]) -> BattleDoc:
    """A battle for machines: the spectator's view (never the RNG state) and the result."""
    result = g.result(state)
    return {"id": bid, "ruleset": g.name, "state": g.view(state, "spectator"),
            "result": None if result is None else result.summary, **extra}


def draw(g: Game, state: object, bid: str, heading: str | None = None) -> None:
    """The board, then the result or the turn bar and who acts (``battle show`` and the play loop)."""
    p = presenter(g)
    console.print(Text(heading or f"Battle {bid}", style="bold"))
    console.print(p.board(state))
    status = g.status(state)
    if status.over:
        console.print(p.result(state))
    else:
        console.print(p.turn_bar(state))
        console.print(Text(f"Active: {' + '.join(status.acting)}", style="bold yellow"))


@dataclass(frozen=True)
class Shown:
    """What ``battle show`` draws: the battle's whole id, its game, its current state and its chain head."""

    battle: str
    game: Game
    state: object
    head: str | None


def show_battle(battle: str | None, db: str | None, json: bool) -> None:
    """``rulekeeper battle show``: the board, the units and the turn bar (``json``: the spectator's view)."""
    found = shown(db, battle)
    g, state, head = found.game, found.state, found.head
    from rulekeeper.persistence.chain import fingerprint

    if json:
        print_json(doc(g, state, found.battle, fingerprint=head and fingerprint(head)))
        return
    draw(g, state, found.battle)
    console.print(presenter(g).units(state))
    if head:
        console.print(Text(f"Log fingerprint {fingerprint(head)} (note it: any edit of this battle changes it)",
                           style="dim"))


def shown(db: str | None, given: str | None) -> Shown:
    """The battle ``battle show`` draws: its id, game, current state and chain head.

    Why two paths: SQLAlchemy alone took about 2.8 times a numpy import, so a SQLite file at the
    current schema is read with the standard library (:mod:`rulekeeper.persistence.sqlite_reads`)
    by the service's own reading code (:class:`~rulekeeper.service.reading.BattleReading`). Anything
    else — PostgreSQL, an older schema to upgrade, and *any* failure of those reads — goes through
    the store, so a damaged database gets the store's typed error, word for word.
    """
    from rulekeeper.persistence.sqlite_reads import open_reads
    from rulekeeper.service.reading import BattleReading

    reads = open_reads(db)
    if reads is not None:
        try:
            with reads:
                return read_shown(BattleReading(reads), given)
        except Exception:  # noqa: BLE001 (read again by the store, which names what is wrong)
            pass
    return read_shown(service(db), given)


def read_shown(svc: BattleReading, given: str | None) -> Shown:
    battle = resolve(svc, given)
    g = svc.game(battle)
    state = svc.state(battle)
    return Shown(battle, g, state, svc.record(battle).head)
