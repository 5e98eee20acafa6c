"""What a second look at the browser walk of the web keeper left for others, each kept from coming back.

* laying a barrage showed no odds in the page (they only appeared later, collapsed, in the other side's
  End-turn preview), a refusal printed a Python dict ("not legal now: {'kind': 'move', …}") and the log
  wrote "Raiders's next turn";
* the War Table campaign's Stability chart ran its x axis to round 4 of a 3-round campaign;
* side names showed as their lower-case keys: "Side oathsworn — Oathsworn";
* one broken rule system took the whole keeper down: a game whose presenter module failed to import
  stopped the keeper starting, and one broken scenario file of one game made every ``/api/battles``
  creation of every game fail with 422.

Page-level checks on FastAPI's ``TestClient``; the broken games are the toy race (``tests/toygame``) with
a presenter that cannot be imported, and with a broken scenario file.
"""

from __future__ import annotations

import html
import logging
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient
from web_kit import Links, act, new, page, position

from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.present import Links as PageLinks
from rulekeeper.core.ruleset import game, register_for_tests, unregister_for_tests
from rulekeeper.rulesets.wartable.campaign.chart import svg_chart
from rulekeeper.web.api import create_app
from rulekeeper.web.presenters import GenericPresenter, Presenters, side_label
from toygame.game import SCENARIO_DIR, ToyGame

# -- the Battle System: a barrage's odds, refusals in words, possessives --------------------------------


@pytest.fixture
def raiders_turn(client: TestClient) -> tuple[str, Links]:
    """A river crossing where the Riverguard (A) ended their first turn: the Raiders' guns may lay a barrage."""
    bid, tokens, _ = new(client, "battlesystem:river_crossing")
    r = act(client, bid, tokens["A"], kind="end_turn", side="A")
    assert r.status_code == 303, r.text
    return bid, tokens


def test_the_preview_of_a_barrage_shows_its_odds_and_when_it_lands(
        client: TestClient, raiders_turn: tuple[str, Links]) -> None:
    bid, tokens = raiders_turn
    listed = client.get(f"/api/battles/{bid}/actions", params={"token": tokens["B"]}).json()["actions"]
    # the guns' barrage on the Iron Riders' hex (F5): the Riders on it, the Raider Wardens next to it
    pick = next(i for i, a in enumerate(listed) if a["kind"] == "barrage" and a["hex"] == "F5")
    odds = listed[pick]["odds"]
    assert odds["lands"] == "at the start of Raiders' next turn"
    text = html.unescape(page(client, bid, tokens["B"], pick=pick, at=position(client, bid, tokens["B"])))
    preview = text[text.index('id="preview"'):text.index("</section>", text.index('id="preview"'))]
    assert "at the start of Raiders' next turn" in preview
    assert "whoever then stands on F5 (in full) and next to it (half); below, if nobody moves" in preview
    assert "Iron Riders (on F5, yours): expected casualties" in preview
    assert "Raider Wardens (next to it, yours): expected casualties" in preview
    assert "<details" not in preview  # no draw announced: laying it draws nothing (the conformance test)


def test_a_refused_action_reads_in_the_games_words(client: TestClient) -> None:
    bid, tokens, _ = new(client, "battlesystem:river_crossing")
    r = act(client, bid, tokens["A"], kind="move", side="A", unit="Bank Archers", to="H1")
    assert r.status_code == 422, r.text
    text = html.unescape(r.text)
    assert "not legal now: Bank Archers moves to H1 (see the legal actions)" in text
    assert "{'kind'" not in text


def test_the_log_says_raiders_not_raiderss(client: TestClient, raiders_turn: tuple[str, Links]) -> None:
    bid, tokens = raiders_turn
    r = act(client, bid, tokens["B"], kind="barrage", side="B", unit="Hill Guns", hex="F5")
    assert r.status_code == 303, r.text
    log = html.unescape(page(client, bid, tokens["A"], "/log"))
    assert "it fires at the start of Raiders' next turn" in log and "Raiders's" not in log


# -- the War Table campaign: the chart's last round ------------------------------------------------------


def test_the_stability_chart_of_a_three_round_campaign_ends_after_round_three() -> None:
    g = game("wartable-campaign")
    sc = next(s for s in g.scenarios() if s.key == "shroudfall")
    state = g.initial_state(g.setup(SetupRequest(scenario=sc.path, seed=7)).document)
    while (action := g.policy(state)) is not None:
        state = g.apply(state, action).state
    assert state.last_round == 3 and g.status(state).over
    chart = svg_chart(state)
    assert [t["label"] for t in chart["ticks"]] == ["1", "2", "3", "end"]  # type: ignore[index]
    board = str(Presenters().of(g).board(state, PageLinks("b-1", "t", 0, viewer="spectator")))
    axis = re.findall(r'font-size="12">([^<]*)</text>', board[board.index("stability-chart"):])
    assert "end" in axis and "4" not in axis
    assert "after round 3:" in board and "round 4" not in board


# -- side names ----------------------------------------------------------------------------------------------


def test_a_side_named_by_a_word_key_shows_its_display_name(client: TestClient) -> None:
    bid, tokens, created = new(client, "wartable-campaign:shroudfall")
    assert '<label for="link-oathsworn"><bdi>Oathsworn</bdi></label>' in created and "Side oathsworn" not in created
    text = page(client, bid, tokens["oathsworn"])
    assert '<span class="role side-oathsworn"><bdi>Oathsworn</bdi></span>' in text
    assert "Side oathsworn" not in text and "Side bloodless" not in text


def test_a_letter_side_keeps_its_letter_and_its_name(client: TestClient) -> None:
    bid, tokens, created = new(client, "battlesystem:river_crossing")
    assert '<label for="link-A">Side A</label>' in created
    assert '<span class="role side-A">Side A — <bdi>Riverguard</bdi></span>' in page(client, bid, tokens["A"])
    assert "<h2>Side A to play</h2>" in page(client, bid, tokens["B"])
    assert (side_label("attackers", {}), side_label("B", {"B": "Raiders"}, named=False)) == ("Attackers", "Side B")


# -- one broken rule system does not take the keeper down ----------------------------------------------------


class FaultyPresenterToy(ToyGame):
    """The toy race whose presenter module cannot be imported (as dragonnoir's missing ``web/`` package)."""

    name: ClassVar[str] = "toyfaulty"
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = "Toy race (faulty presenter)"

    def web_presenter(self) -> Any:
        import toygame.no_such_presenter  # type: ignore[import-not-found]  # noqa: F401

        raise AssertionError("unreachable")

    def army_builder(self) -> Any:
        import toygame.no_such_builder  # type: ignore[import-not-found]  # noqa: F401

        raise AssertionError("unreachable")


class BrokenScenarioToy(ToyGame):
    """The toy race shipping a scenario file that cannot be read."""

    name: ClassVar[str] = "toybroken"
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = "Toy race (broken scenario)"
    scenario_folder: ClassVar[Path | None] = SCENARIO_DIR  # read by the default ``scenarios()`` of core.base


@pytest.fixture
def broken_games(tmp_path: Path) -> Iterator[Path]:
    """Both broken toys registered; the broken one's folder holds a good race and a broken file."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(SCENARIO_DIR / "race.yaml", folder / "race.yaml")
    (folder / "broken.toml").write_text('name = "Broken\ntarget = ', encoding="utf-8")
    BrokenScenarioToy.scenario_folder = folder
    register_for_tests(FaultyPresenterToy)
    register_for_tests(BrokenScenarioToy)
    try:
        yield folder
    finally:
        unregister_for_tests(FaultyPresenterToy.name)
        unregister_for_tests(BrokenScenarioToy.name)


def test_a_game_whose_presenter_fails_to_import_is_drawn_generically(
        tmp_path: Path, broken_games: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="rulekeeper.web.presenters"):
        presenters = Presenters()  # what the keeper builds at start-up
    assert type(presenters.of(game("toyfaulty"))) is GenericPresenter
    assert type(presenters.of(game("battlesystem"))) is not GenericPresenter  # the others keep their own
    assert any("toyfaulty" in r.getMessage() and "ModuleNotFoundError" in r.getMessage() for r in caplog.records)
    with TestClient(create_app(tmp_path / "web.db")) as c:  # the keeper starts
        bid, tokens, _ = new(c, "toyfaulty:race")
        assert 'class="board generic"' in page(c, bid, tokens["A"])  # drawn by the generic board
        hexes, *_ = new(c, "battlesystem:river_crossing")
        assert hexes
        assert c.get("/musters").status_code == 200  # its army builder fails too: the others' lists still open


def test_a_broken_scenario_of_one_game_does_not_stop_battles_of_another(
        client: TestClient, broken_games: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert isinstance(game("toybroken"), Game)
    for scenario in ("battlesystem:river_crossing", "toyfaulty:race", "river_crossing"):
        r = client.post("/api/battles", json={"scenario": scenario, "seed": 7})
        assert r.status_code == 201, (scenario, r.text)
    with caplog.at_level(logging.WARNING, logger="rulekeeper.service.scenarios"):
        listed = client.get("/api/scenarios")
        assert client.get("/").status_code == 200  # the new-battle page still lists the others
    assert listed.status_code == 200
    keys = {s["key"] for s in listed.json()}
    assert "battlesystem:river_crossing" in keys and not any(k.startswith("toybroken:") for k in keys)
    assert any("broken.toml" in r.getMessage() for r in caplog.records)
    # a battle of the broken game itself is refused, 4xx, naming the file
    r = client.post("/api/battles", json={"scenario": "toybroken:race", "seed": 7})
    assert r.status_code == 422 and r.json()["error"] == "data_file", r.text
    assert "Toy race (broken scenario)" in r.json()["message"] and "broken.toml" in r.json()["message"]
    r = client.post("/new", data={"scenario": "toybroken:race", "seed": "7"})
    assert r.status_code == 422 and "broken.toml" in r.text
