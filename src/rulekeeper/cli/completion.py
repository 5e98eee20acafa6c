"""Tab completion of battle ids and of actions (units, hexes, zones...), for bash, zsh and fish.

``rulekeeper --install-completion`` installs Typer's script for the user's shell; the script calls rulekeeper
back with the words typed so far, and these functions answer: the battle ids of the store (``--db`` if typed,
else the default one), and for ``battle act`` the next word of any legal action of the battle as the game
lists it, which is how unit names, hexes and zones are offered without this module knowing any game. A
completion never fails: whatever goes wrong (no store, a damaged one) completes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import typer

from rulekeeper.core.wording import counted

if TYPE_CHECKING:
    from rulekeeper.service.battles import BattleService


def _service(ctx: typer.Context) -> BattleService:
    from rulekeeper.persistence.store import BattleStore
    from rulekeeper.persistence.urls import require_existing
    from rulekeeper.service.battles import BattleService

    db = ctx.params.get("db")
    words = typed_line()
    if not isinstance(db, str) and "--db" in words[:-1]:
        db = words[words.index("--db") + 1]
    named = db if isinstance(db, str) else None
    require_existing(named)  # a half-typed --db must not leave a file behind (the caller stays quiet)
    return BattleService(BattleStore(named))


def _quiet(found: Iterator[tuple[str, str]]) -> list[tuple[str, str]]:
    try:
        return list(found)
    except Exception:  # noqa: BLE001 — a completion must never print a traceback into the shell
        return []


def _ids(ctx: typer.Context, incomplete: str) -> Iterator[tuple[str, str]]:
    for r in _service(ctx).list():
        if r.id.startswith(incomplete):
            yield r.id, f"{r.ruleset} {r.scenario}, {counted(r.position, 'action')}, {r.status}"


def complete_battle(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """Battle ids of the store starting with what was typed, each with its game and scenario."""
    return _quiet(_ids(ctx, incomplete))


def _w(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def next_words(texts: list[str], typed: list[str], incomplete: str) -> list[str]:
    """The words that may follow ``typed`` in any of ``texts`` and start with ``incomplete``.

    The typed words are compared by their letters and digits only, so that quoting, and bash splitting
    ``A:Billmen`` at its colon, do not matter.
    """
    wanted = _w(" ".join(typed))
    found: list[str] = []
    for text in texts:
        words, seen = text.split(), list[str]()
        for word in words:
            if seen == wanted:
                if word.casefold().startswith(incomplete.casefold()) and word not in found:
                    found.append(word)
                break
            seen += _w(word)
            if seen != wanted[:len(seen)]:
                break
    return found


def _act_words(ctx: typer.Context, incomplete: str) -> Iterator[tuple[str, str]]:
    from .battle_ids import is_battle, resolve

    svc = _service(ctx)
    typed = [str(w) for w in ctx.params.get("words") or ctx.params.get("battle") or []]
    if isinstance(ctx.params.get("battle"), str):  # ``battle actions ID``: only the id
        typed = []
    if not typed:
        yield from _ids(ctx, incomplete)
        if ctx.info_name == "actions":
            return
    if typed and is_battle(svc, typed[0]):
        battle, typed = resolve(svc, typed[0]), typed[1:]
    else:
        battle = resolve(svc, None)
    _, legal = svc.legal(battle)
    for word in next_words([lg.text for lg in legal], typed, incomplete):
        if word.startswith(incomplete):
            yield word, ""


def complete_act_words(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """``battle act [ID] WORDS``: battle ids first, then the next word of the battle's legal actions."""
    return _quiet(_act_words(ctx, incomplete))


def typed_line() -> list[str]:
    """The words of the command line being completed, as the shell's script hands them over (bash:
    ``COMP_WORDS``; zsh, fish: ``_TYPER_COMPLETE_ARGS``), for what Click has not parsed yet."""
    import os
    import shlex

    text = os.environ.get("COMP_WORDS") or os.environ.get("_TYPER_COMPLETE_ARGS") or ""
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _play_battle(ctx: typer.Context) -> str | None:
    """The battle ``play`` was given: Click leaves it unparsed while an option's value is being completed."""
    given = ctx.params.get("battle")
    if isinstance(given, str):
        return given
    words = typed_line()
    rest = words[words.index("play") + 1:] if "play" in words else []
    valued = {"--side", "--db", "--poll"}
    for before, word in zip(["", *rest], rest, strict=False):
        if not word.startswith("-") and before not in valued:
            return word
    return None


def complete_side(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """``play --side``: the sides of the battle being played."""

    def sides() -> Iterator[tuple[str, str]]:
        from .battle_ids import resolve

        svc = _service(ctx)
        bid = resolve(svc, _play_battle(ctx))
        for role in svc.game(bid).roles(svc.store.initial(bid)):
            if role.startswith(incomplete):
                yield role, "side"

    return _quiet(sides())
