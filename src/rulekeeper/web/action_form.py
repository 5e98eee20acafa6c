"""An action as the commit form carries it: one hidden field per action field, in the action's own JSON types.

Why: a preview's Commit button posts the legal action it previews. A text field travels as it is;
any other value (a list of names, a position ``[x, y]``, a number, a yes/no) travels as its JSON
under ``name:json``, so the game receives exactly the action it listed, numbers as numbers, lists
as lists. Rendering a list as text wrote Python's ``['Grast']``, which no game could read: every
Dragon Noir attack (``units``, ``targets``) was refused from its own Commit button.

The JSON API (``POST /api/battles/{id}/actions``) takes the same typed values in its body, checked by the
same bounds (:func:`field_problem`), and both hand the fields to the service, whose game decodes them
through its one codec (``core.actioncodec``): a Dragon Noir attack is ``{"kind": "attack", "attackers":
["Grast"], ...}`` from either door.

>>> fields_of_form({"token": "t", "position": "3", "kind": "attack", "units:json": '["Grast"]'})
{'kind': 'attack', 'units': ['Grast']}
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

from rulekeeper.core.errors import RulekeeperError

#: The suffix of a field whose value is JSON (what ``commit_fields.html`` writes for every non-text value).
JSON_SUFFIX = ":json"
#: Fields of the form that are not the action's.
NOT_ACTION = frozenset({"token", "position"})

JsonValue = str | int | float | bool | list["JsonValue"] | dict[str, "JsonValue"] | None

#: The bounds of an action's fields, from the form or the API: a hostile request may send anything JSON allows.
MAX_FIELDS = 8
MAX_NAME = 40  # a field's name
MAX_TEXT = 200  # a text value
MAX_ITEMS = 256  # values inside one field's lists and objects, all levels together
MAX_DEPTH = 3  # lists in lists in lists ([[x, y], ...] is depth 2)


class ActionFormError(RulekeeperError):
    """A commit form whose action field cannot be read (a hand-made or damaged form)."""

    code = "bad_request"


def fields_of_form(form: dict[str, str]) -> dict[str, JsonValue]:
    """The action a commit form carries: its text fields as they are, its ``name:json`` fields decoded.

    Empty fields are left out, as before (a game reads a missing field and an empty one alike).
    """
    out: dict[str, JsonValue] = {}
    for key, value in form.items():
        if key in NOT_ACTION or value == "":
            continue
        if not key.endswith(JSON_SUFFIX):
            out[key] = value
            continue
        name = key[: -len(JSON_SUFFIX)]
        try:
            decoded: JsonValue = json.loads(value)
        except ValueError:
            raise ActionFormError(f"the action field {name[:40]!r} is not JSON: {value[:40]!r}",
                                  field=name[:40]) from None
        out[name] = decoded
    problem = fields_problem(out)
    if problem is not None:
        raise ActionFormError(problem[1], field=problem[0][:MAX_NAME])
    return out


def fields_problem(fields: Mapping[str, object]) -> tuple[str, str] | None:
    """The field and what is wrong with an action's fields (too many, one out of bounds), or None when fine."""
    if len(fields) > MAX_FIELDS:
        return "", f"an action has at most {MAX_FIELDS} fields"
    for key, value in fields.items():
        problem = field_problem(key, value)
        if problem is not None:
            return key, problem
    return None


def field_problem(key: str, value: object) -> str | None:
    """What is wrong with one action field: a name too long, a text longer than :data:`MAX_TEXT`, lists
    nested deeper than :data:`MAX_DEPTH` or holding more than :data:`MAX_ITEMS` values, a number that is not
    finite; None when it is a JSON value the game may read (whether it is the right type is the game's codec's
    question, answered by an ``IllegalActionError`` naming the field)."""
    if len(key) > MAX_NAME:
        return f"an action field name is longer than {MAX_NAME} characters: {key[:MAX_NAME]!r}"
    budget = [MAX_ITEMS]

    def walk(item: object, depth: int) -> str | None:
        if item is None or isinstance(item, bool | int):
            return None
        if isinstance(item, float):
            return None if math.isfinite(item) else f"action field {key!r} holds a number that is not finite"
        if isinstance(item, str):
            return None if len(item) <= MAX_TEXT else f"action field {key!r} is longer than {MAX_TEXT} characters"
        if isinstance(item, list | dict):
            if depth >= MAX_DEPTH:
                return f"action field {key!r} nests lists deeper than {MAX_DEPTH}"
            inner = list(item.values()) if isinstance(item, dict) else item
            budget[0] -= len(inner)
            if budget[0] < 0:
                return f"action field {key!r} holds more than {MAX_ITEMS} values"
            if isinstance(item, dict) and any(not isinstance(k, str) or len(k) > MAX_NAME for k in item):
                return f"action field {key!r} has a key longer than {MAX_NAME} characters"
            return next((p for p in (walk(v, depth + 1) for v in inner) if p is not None), None)
        return f"action field {key!r} is not a JSON value"

    return walk(value, 0)
