"""The War Table engagement's checkpoint: the battle and its modifiers as one JSON text, encoded once.

Why: the battle service stores the state's JSON after every action (a checkpoint). An engagement
is two actions (attack, defend), and its battle and modifiers never change while it is played; the
full form repeated them, built and encoded again at each action, with the whole combat report,
which reading a checkpoint resolves again anyway (issue 22: stored ÷ engine 2.3–2.5×, the goal 2×).
A compact checkpoint keeps the initial document as one JSON text under ``"fixed"``, made once per
battle and process (:func:`fixed_text`) and stored as a string, which the encoder copies instead of
walking, beside ``resolved`` and ``declared``. It still stands alone: any one checkpoint rebuilds
the state (the report resolved again, as from a full one).

A battle set up since says so in its initial document (``"checkpoint": "compact"``); a battle stored
before keeps writing full checkpoints, so its replay still compares every stored checkpoint byte
for byte; both forms read back. Views are the full form whatever the checkpoints' form.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Mapping
from typing import NotRequired, TypedDict

from rulekeeper.core.errors import RulekeeperError

from .state import NAME, WarTableState, _state_of, state_document

#: The fixed parts of the last few battles and their text: a process plays a handful at a time.
_RECENT: deque[tuple[tuple[object, object], str]] = deque(maxlen=8)
_LOCK = threading.Lock()


def fixed_text(state: WarTableState) -> str:
    """The initial document of ``state`` as compact JSON text: encoded once, then found again by identity
    (an action hands the same battle and modifiers on), else by value (a battle read anew)."""
    parts = (state.battle, state.modifiers)
    with _LOCK:
        for known in _RECENT:
            if known[0][0] is parts[0] and known[0][1] is parts[1]:
                return known[1]
        for known in _RECENT:
            if known[0] == parts:
                _RECENT.remove(known)  # these objects now: the next look-up is by identity
                _RECENT.appendleft((parts, known[1]))
                return known[1]
    doc = state_document(state.battle, state.modifiers, compact=True)
    text = json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    with _LOCK:
        _RECENT.appendleft((parts, text))
    return text


class CompactCheckpoint(TypedDict):
    """A compact checkpoint (:func:`compact_json`), in this key order."""

    ruleset: str
    fixed: str  # the initial document as JSON text (:func:`fixed_text`)
    resolved: bool
    declared: NotRequired[bool]  # only while the defenders must answer


def compact_json(state: WarTableState) -> CompactCheckpoint:
    """The compact checkpoint of ``state``: the fixed text, whether the attack is resolved or declared."""
    compact: CompactCheckpoint = {"ruleset": NAME, "fixed": fixed_text(state), "resolved": state.report is not None}
    if state.declared and state.report is None:
        compact["declared"] = True
    return compact


def compact_from_json(document: Mapping[str, object]) -> WarTableState:
    """The state a compact checkpoint stands for; its fixed text must be the one this battle encodes to."""
    text = document.get("fixed")
    if not isinstance(text, str):
        raise RulekeeperError(f"the stored War Table battle is damaged: fixed: expected a JSON text, got {text!r}")
    try:
        initial = json.loads(text)
    except ValueError:
        raise RulekeeperError("the stored War Table battle is damaged: fixed: not a JSON text") from None
    if not isinstance(initial, dict) or initial.get("checkpoint") != "compact":
        raise RulekeeperError("the stored War Table battle is damaged: fixed: not a compact battle's document")
    state = _state_of(initial)
    if fixed_text(state) != text:
        raise RulekeeperError("the stored War Table battle is damaged: fixed: not the text its battle encodes to",
                              fields=["fixed"])
    return state
