"""What a state's rules compute once: its legal list, a unit's reachable hexes, kept on the state itself.

Why: a battle's states are frozen values, so anything computed from one never changes while it
lives. The keeper asks the same questions of one state many times — the page lists every legal
action, then previews them, and each preview checked its action against a legal list built anew
(a Battle System ``/actions`` took a median 240 ms, p95 up to 1.5 s; issue 22, point 5). Kept in
the state's own ``__dict__`` (never a field: equality, the JSON codec and ``dataclasses.replace``
ignore it), an answer lives exactly as long as its state — the service keeps the current state
of each battle per revision, so its legal list is built once per revision, in any thread — and
no other state, however equal, can ever be handed it. A state without a ``__dict__`` (slots) is
simply not memoised.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import update_wrapper
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

if TYPE_CHECKING:
    from .game import LegalAction

S = TypeVar("S")
R = TypeVar("R")
P = ParamSpec("P")

#: The key of the memo in a state's ``__dict__`` (a name no dataclass field can have).
SLOT = "__rulekeeper_memo__"


def remembered(state: object, key: Hashable, build: Callable[[], R]) -> R:
    """``build()``, computed once per ``state`` object and ``key``; shared, so never to be changed."""
    store = getattr(state, "__dict__", None)
    if store is None:
        return build()
    memo: dict[Hashable, Any] | None = store.get(SLOT)
    if memo is None:
        memo = store[SLOT] = {}
    try:
        found: R = memo[key]
        return found
    except KeyError:
        value = memo[key] = build()
        return value


def recalled(state: object, key: Hashable) -> object | None:
    """What :func:`remembered` keeps for ``state`` and ``key``, or None when nothing is kept (nothing built)."""
    store = getattr(state, "__dict__", None)
    memo = None if store is None else store.get(SLOT)
    return None if memo is None else memo.get(key)


def per_state(fn: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """``fn(state, *args)`` computed once per state object and arguments (which must be hashable).

    The result is shared by every caller: a function whose callers change what it returns
    must not be memoised this way.
    """

    def memoised(state: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        key = (memoised, args, tuple(sorted(kwargs.items()))) if kwargs else (memoised, args)
        return remembered(state, key, lambda: fn(state, *args, **kwargs))

    update_wrapper(memoised, fn)
    return memoised


def action_key(value: object) -> Hashable:
    """A hashable stand-in for a JSON action, equal exactly when the actions are ``==``.

    Lists and dicts are frozen with their type (so ``[1]`` and ``(1,)`` still differ, as they do
    under ``==``); numbers keep Python's own equality (``1 == 1.0``).
    """
    if isinstance(value, Mapping):
        return (dict, frozenset((k, action_key(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (type(value), tuple(action_key(v) for v in value))
    if isinstance(value, set | frozenset):
        return (frozenset, frozenset(action_key(v) for v in value))
    plain: Hashable = value
    return plain


def legal_list(state: S, build: Callable[[S], Sequence[LegalAction]]) -> list[LegalAction]:
    """``build(state)`` (a game's legal list), built once per state; a fresh list each call."""
    return list(remembered(state, (legal_list, build), lambda: tuple(build(state))))


def allows(state: S, action: Mapping[str, object], build: Callable[[S], Sequence[LegalAction]]) -> bool:
    """Whether ``action`` is one of ``build(state)``'s actions (the list and its index built once per state)."""
    index = remembered(state, (allows, build),
                       lambda: frozenset(action_key(lg.action) for lg in legal_list(state, build)))
    try:
        return action_key(action) in index
    except TypeError:  # an unhashable value inside a player's action: not one of the listed ones
        return False
