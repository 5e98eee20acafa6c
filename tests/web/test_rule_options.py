"""The web keeper's new-battle forms offer each game's rules options (rule_options.html, page_forms.chosen_options).

Why: the readings of contradictory rules and the players' choices the keeper can take over (Confrontation's
``placement`` and ``declarations``, Dragon Noir's ``errare``…) were options of the CLI only; a table starting its
battle on a phone could not pick them.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rulekeeper.core.ruleset import games
from rulekeeper.web.api import create_app


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)


def _created_options(client: TestClient, text: str) -> dict[str, str]:
    """The options the battle a form made was set up with (its stored initial document)."""
    bid = re.findall(r"/b/([\w-]+)\?", html.unescape(text))[0]
    keeper: Any = client.app.state.keeper  # type: ignore[attr-defined]
    return dict(keeper.store.export(bid)["initial"]["options"])


def test_the_home_page_offers_every_games_options_with_their_defaults(client: TestClient) -> None:
    page = client.get("/").text
    for g in games():
        for o in g.options():
            field = f'name="option.{g.name}.{o.name}"'
            assert field in page, field
            chosen = re.search(field + r'>\s*(.*?)</select>', page, re.S)
            assert chosen is not None
            assert f'<option value="{o.default}" selected>{o.default} (default)</option>' in chosen.group(1)
    assert page.count('class="rule-options-game"') >= len([g for g in games() if g.options()])


def test_a_chosen_option_is_the_battles_and_other_games_fields_are_left_out(client: TestClient) -> None:
    r = client.post("/new", data={"scenario": "confrontation:the_ford", "seed": "4",
                                  "option.confrontation.placement": "keeper",
                                  "option.confrontation.declarations": "players",  # the default: not written
                                  "option.dragonnoir.errare": "on"})  # another game's (no JavaScript sends all)
    assert r.status_code == 201, r.text
    options = _created_options(client, r.text)
    assert options["placement"] == "keeper" and options["declarations"] == "players"
    assert "errare" not in options


def test_a_bad_option_is_refused_naming_it_and_nothing_is_made(client: TestClient) -> None:
    keeper: Any = client.app.state.keeper  # type: ignore[attr-defined]
    before = len(keeper.store.list())
    r = client.post("/new", data={"scenario": "confrontation:the_ford", "seed": "4",
                                  "option.confrontation.placement": "dealer"})
    assert 400 <= r.status_code < 500 and "placement" in r.text and "dealer" in r.text
    assert len(keeper.store.list()) == before
    assert 'name="option.confrontation.placement"' in r.text  # the form comes back, filled in


def test_a_form_without_javascript_sends_every_games_options_and_is_read(client: TestClient) -> None:
    """Every game's fields at their defaults (what a browser without JavaScript sends): within the form limits."""
    data = {"scenario": "dragonnoir:the_ford", "seed": "2", "bot": "", "strength": "normal"}
    for g in games():
        for o in g.options():
            data[f"option.{g.name}.{o.name}"] = o.default
    data["option.dragonnoir.errare"] = "on"
    r = client.post("/new", data=data)
    assert r.status_code == 201, r.text
    assert _created_options(client, r.text)["errare"] == "on"
