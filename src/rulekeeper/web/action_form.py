"""An action as the commit form carries it: one hidden field per action field, in the action's own JSON types.

Why: a preview's Commit button posts the legal action it previews. A text field travels as it is;
any other value (a list of names, a position ``[x, y]``, a number, a yes/no) travels as its JSON
under ``name:json``, so the game receives exactly the action it listed, numbers as numbers, lists
as lists. Rendering a list as text wrote Python's ``['Grast']``, which no game could read: every
Dragon Noir attack (``units``, ``targets``) was refused from its own Commit button.

>>> fields_of_form({"token": "t", "position": "3", "kind": "attack", "units:json": '["Grast"]'})
{'kind': 'attack', 'units': ['Grast']}
"""

from __future__ import annotations

import json

from rulekeeper.core.errors import RulekeeperError

#: The suffix of a field whose value is JSON (what ``commit_fields.html`` writes for every non-text value).
JSON_SUFFIX = ":json"
#: Fields of the form that are not the action's.
NOT_ACTION = frozenset({"token", "position"})

JsonValue = str | int | float | bool | list["JsonValue"] | dict[str, "JsonValue"] | None


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
    return out
