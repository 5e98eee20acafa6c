"""A preview's Commit button posts exactly the legal action it previews (``commit_fields.html`` and
``web/action_form.py``).

The fault this reproduces: the form wrote every action field with ``str()``, so a list became Python's
``['Grast']`` and every Dragon Noir attack (``units``, ``targets``) was refused from its own Commit button with
"Unknown name" (found playing the_ford against the keeper on a phone, 2026-12-02). Text fields still travel as
text; lists, positions and numbers travel as their JSON, so numbers arrive as numbers (issue 22, point 2).
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlencode

import pytest
from fastapi.testclient import TestClient
from web_kit import new, position

from rulekeeper.core.present import Links
from rulekeeper.web.action_form import ActionFormError, fields_of_form
from rulekeeper.web.pages import MAX_FIELD
from rulekeeper.web.presenters import make_env

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


class HiddenInputs(HTMLParser):
    """The name/value pairs a browser would post from the hidden inputs of a page fragment."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[str, str]] = []
        self.in_commit = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form":
            self.in_commit = "commit" in (found.get("class") or "").split()
        if tag == "input" and found.get("type") == "hidden" and found.get("name"):
            self.pairs.append((str(found["name"]), found.get("value") or ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_commit = False


def posted(fragment: str) -> dict[str, str]:
    """The form as the server reads it (``read_form``: urlencoded, first value per field)."""
    parser = HiddenInputs()
    parser.feed(fragment)
    return {k: v[0] for k, v in parse_qs(urlencode(parser.pairs), keep_blank_values=True).items()}


def golden_actions() -> list[dict[str, object]]:
    """Every action of the golden playthroughs (five games' action kinds, lists and numbers among them)."""
    out = []
    for path in sorted(GOLDEN.glob("*.json")):
        out += [step["action"] for step in json.loads(path.read_text())["steps"]]
    return out


def test_every_golden_action_survives_its_commit_form() -> None:
    """Rendered, posted and read back, each action is the very JSON the game listed (types included)."""
    template = make_env().get_template("commit_fields.html")
    actions = golden_actions()
    assert len(actions) > 250
    typed = 0
    for action in actions:
        form = posted(template.render(lg=type("Lg", (), {"action": action}), links=Links("b-1", "tok", 9)))
        assert form.pop("token") == "tok" and form.pop("position") == "9"
        assert all(len(value) <= MAX_FIELD for value in form.values()), form
        assert fields_of_form(form) == {k: v for k, v in action.items() if v not in (None, "")}, action
        typed += any(not isinstance(v, str) for v in action.values())
    assert typed >= 10  # the lists of Dragon Noir attacks, Confrontation positions, the campaign's orders


def test_a_json_field_that_is_not_json_is_a_typed_refusal() -> None:
    with pytest.raises(ActionFormError, match="'units' is not JSON"):
        fields_of_form({"kind": "attack", "units:json": "['Grast']"})


def test_dragon_noir_attack_commits_from_its_preview(client: TestClient) -> None:
    """Regression: the golden the_ford battle up to its first attack, then that attack from its Commit button."""
    steps = json.loads((GOLDEN / "dragonnoir_the_ford_seed3.json").read_text())["steps"]
    first_attack = next(i for i, step in enumerate(steps) if step["action"]["kind"] == "attack")
    bid, tokens, _ = new(client, "dragonnoir:the_ford", seed="3")
    for step in steps[:first_attack]:
        action = step["action"]
        token = tokens[action["side"]]
        body = {"position": position(client, bid, token), **action}
        reply = client.post(f"/api/battles/{bid}/actions", params={"token": token}, json=body)
        assert reply.status_code == 200, reply.text
    attack = steps[first_attack]["action"]
    token = tokens[attack["side"]]
    at = position(client, bid, token)
    listed = client.get(f"/api/battles/{bid}/actions", params={"token": token}).json()["actions"]
    pick = next(i for i, a in enumerate(listed) if all(a.get(k) == v for k, v in attack.items()))
    page = client.get(f"/b/{bid}", params={"token": token, "pick": pick, "at": at})
    assert page.status_code == 200
    form = posted(page.text.split('class="commit"', 1)[1].split("</form>", 1)[0])
    reply = client.post(f"/b/{bid}/act", data=form, follow_redirects=False)
    assert reply.status_code == 303, reply.text  # was 422: "Unknown name: "['grast']""
    assert form["units:json"] == '["Grast"]'
    assert position(client, bid, token) == at + 1
