"""The toy game plays in the CLI and the web keeper without a line of them knowing it.

It is registered with :func:`~rulekeeper.core.ruleset.register_for_tests` *after* the CLI app
was imported and (for the web) after the app was created, as a plugin installed while the
keeper runs would be: the service finds games by name when a command runs, and the web
keeper's presenters fall back to the generic one for a game they did not see at start-up.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from rulekeeper.cli.app import app as cli_app
from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.registered import Registered, rules_of
from rulekeeper.core.ruleset import game, games, register_for_tests, unregister_for_tests
from rulekeeper.web.api import create_app
from rulekeeper.web.presenters import GenericPresenter, Presenters

from .game import PICKS, SCENARIO_DIR, ToyGame

RACE = SCENARIO_DIR / "race.yaml"
SPRINT = SCENARIO_DIR / "sprint.yaml"


@pytest.fixture()
def toy() -> Iterator[Game]:
    register_for_tests(ToyGame)
    g = game("toy")
    assert isinstance(g, Registered) and isinstance(rules_of(g), ToyGame)  # the registry's typed wrapper
    yield g
    unregister_for_tests("toy")


def test_toy_game_implements_the_protocol_and_is_found_by_its_names(toy: ToyGame) -> None:
    assert isinstance(toy, Game)
    assert toy in games() and game("Dice Race") is toy
    assert [s.key for s in toy.scenarios()] == ["race", "sprint"]


def test_unregistered_toy_is_gone() -> None:
    assert "toy" not in {g.name for g in games()}


def test_presenters_made_before_registration_fall_back_to_the_generic_one() -> None:
    presenters = Presenters()
    register_for_tests(ToyGame)
    try:
        p = presenters.of(game("toy"))
        assert isinstance(p, GenericPresenter) and p.env is presenters.env
        assert presenters.of(game("toy")) is p
    finally:
        unregister_for_tests("toy")


def test_bad_scenario_lists_every_problem(toy: ToyGame, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('ruleset = "toy"\nname = ""\ntarget = 1\ncolour = "red"\n', encoding="utf-8")
    with pytest.raises(RulekeeperError) as err:
        toy.setup(SetupRequest(scenario=bad))
    text = str(err.value)
    for part in ("name", "description", "target", "turn_limit", "sides", "colour"):
        assert part in text


# -- the CLI ---------------------------------------------------------------------------------------


def cli(db: Path, *args: str) -> Any:
    """Run ``rulekeeper ARGS --db DB`` in process; a RulekeeperError stays on ``result.exception``."""
    return CliRunner().invoke(cli_app, [*args, "--db", str(db)], env={"COLUMNS": "160"})


def ok(db: Path, *args: str) -> str:
    r = cli(db, *args)
    assert r.exit_code == 0, f"{args}: {r.output}\n{r.exception!r}"
    return str(r.output)


def test_toy_battle_in_the_cli(toy: ToyGame, tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    created = json.loads(ok(db, "battle", "new", str(RACE), "--ruleset", "toy", "--seed", "3", "--json"))
    bid = created["id"]
    assert created["ruleset"] == "toy" and created["state"]["sides"]["A"]["name"] == "Reds"
    assert not set(PICKS) & set(json.dumps(created).replace('"', " ").split())
    assert "Created battle" in ok(db, "battle", "new", str(SPRINT), "--seed", "1")  # the file names its game

    acts = json.loads(ok(db, "battle", "actions", bid, "--json"))
    assert acts["to_act"] == ["A"]
    assert [{"kind": a["kind"], "side": a["side"]} for a in acts["actions"]] == [
        {"kind": "roll", "side": "A"}, {"kind": "hold", "side": "A"}]
    assert 0 <= acts["actions"][0]["odds"]["reach the target"] <= 1
    assert "roll (Reds)" in ok(db, "battle", "actions", bid)

    assert "Reds roll" in ok(db, "battle", "act", bid, "roll")
    wrong = cli(db, "battle", "act", bid, "hold", "A")
    assert wrong.exit_code != 0 and isinstance(wrong.exception, RulekeeperError)
    assert wrong.exception.code == "not_your_turn"
    junk = cli(db, "battle", "act", bid, "jump")
    assert isinstance(junk.exception, RulekeeperError) and junk.exception.code == "invalid_action"
    shown = cli(db, "battle", "undo", bid)  # a roll is shown at once in the CLI: no undo
    assert isinstance(shown.exception, RulekeeperError) and "already shown" in shown.exception.message
    assert "Blues hold" in ok(db, "battle", "act", bid, "hold")
    assert "taken back" in ok(db, "battle", "undo", bid)  # a hold drew nothing: it may be taken back

    assert "Toy dice race battle" in ok(db, "battle", "show", bid)
    assert "Battle over" in ok(db, "battle", "autoplay", bid)
    assert "identical" in ok(db, "battle", "replay", bid)
    listed = {b["id"]: b for b in json.loads(ok(db, "battle", "list", "--json"))}
    assert listed[bid]["ruleset"] == "toy" and listed[bid]["status"] == "over"
    final = json.loads(ok(db, "battle", "show", bid, "--json"))
    assert final["result"]["winner"] in ("A", "B", None) and "rng" not in json.dumps(final)

    exported = tmp_path / "race.json"
    ok(db, "battle", "export", bid, str(exported))
    other = tmp_path / "other.db"
    assert json.loads(ok(other, "battle", "import", str(exported), "--json"))["id"] == bid
    assert json.loads(ok(other, "battle", "show", bid, "--json"))["state"] == final["state"]


# -- the web keeper ------------------------------------------------------------------------------------


def act_form(text: str) -> dict[str, str]:
    form = re.search(r'<form method="post" action="/b/[^"]+/act".*?</form>', text, re.S)
    assert form, "no commit form"
    return {k: html.unescape(v) for k, v in re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0))}


def no_picks(text: str) -> None:
    for p in PICKS:
        assert not re.search(rf"\b{p}\b", text), f"a secret pick ({p}) shows"


def test_toy_battle_in_the_web_keeper(tmp_path: Path) -> None:
    web = create_app(tmp_path / "web.db")  # made before the toy game is installed
    register_for_tests(ToyGame)
    try:
        play_in_the_web(web)
    finally:
        unregister_for_tests("toy")


def play_in_the_web(web: Any) -> None:
    g = game("toy")
    keeper = web.state.keeper
    client = TestClient(web, follow_redirects=False)
    bid, tokens = keeper.create(SetupRequest(scenario=RACE, seed=3, db=keeper.store.url), ruleset="toy")
    assert set(tokens) == {"A", "B", "spectator"}
    a, b, spec = ({"token": tokens[r]} for r in ("A", "B", "spectator"))
    picks = g.state_to_json(keeper.service.state(bid))["picks"]

    page = client.get(f"/b/{bid}", params=a)
    assert page.status_code == 200 and "Race to ten" in page.text and "Roll" in page.text
    no_picks(page.text)
    picked = client.get(f"/b/{bid}", params={**a, "pick": 0, "at": 0})
    form = act_form(picked.text)
    assert form["kind"] == "roll" and form["side"] == "A" and form["position"] == "0"
    assert "roll: A (Reds), turn 1" in picked.text  # the previewed draw, by its label

    # a roll, face down: B still sees the race before it; A may undo it unseen
    r = client.post(f"/b/{bid}/act", data=form)
    assert r.status_code == 303, r.text
    assert "Reveal" in client.get(f"/b/{bid}", params=a).text
    other = client.get(f"/api/battles/{bid}", params=b).json()
    assert other["pending"] and other["position"] == 1 and other["state"]["sides"]["A"]["score"] == 0
    assert other["state"]["your_pick"] == picks[1] and picks[0] not in json.dumps(other)
    assert "rng" not in json.dumps(other)
    assert client.post(f"/b/{bid}/undo", data={**a, "position": "1"}).status_code == 303
    assert client.get(f"/api/battles/{bid}", params=a).json()["position"] == 0

    # roll again, reveal it: no undo after
    assert client.post(f"/b/{bid}/act", data={**form}).status_code == 303
    revealed = client.post(f"/b/{bid}/reveal", data={**a, "position": "1"})
    assert revealed.status_code == 303
    fate = client.get(revealed.headers["location"])
    assert fate.status_code == 200 and "Reds roll" in fate.text
    refused = client.post(f"/b/{bid}/undo", data={**a, "position": "1"})
    assert refused.status_code == 409 and "results_shown" in refused.text

    # B plays through the JSON API; A may not play B's turn
    assert client.post(f"/api/battles/{bid}/actions", params=a, json={"kind": "hold", "position": 1}).status_code == 403
    acts = client.get(f"/api/battles/{bid}/actions", params=b).json()
    assert acts["yours"] and [x["kind"] for x in acts["actions"]] == ["roll", "hold"]
    held = client.post(f"/api/battles/{bid}/actions", params=b, json={"kind": "hold", "position": 1})
    assert held.status_code == 200 and held.json()["report"][0]["text"].startswith("Blues hold")
    junk = client.post(f"/api/battles/{bid}/actions", params=a, json={"kind": "jump", "position": 2})
    assert junk.status_code == 422 and junk.json()["error"] == "invalid_action"

    # to the end through the API, rolling
    for _ in range(200):
        view = client.get(f"/api/battles/{bid}", params=spec).json()
        if view["over"]:
            break
        side = view["to_act"][0]
        r = client.post(f"/api/battles/{bid}/actions", params={"token": tokens[side]},
                        json={"kind": "roll", "position": view["position"]})
        assert r.status_code == 200, r.text
        assert "rng" not in json.dumps(r.json())
    assert view["over"] and view["result"]["winner"] in ("A", "B")
    no_picks(json.dumps(view))
    end = client.get(f"/b/{bid}", params=spec)
    assert end.status_code == 200 and "The battle is over" in end.text
    assert '<section class="result" id="result"' in end.text  # the end screen's landmark, as Ex illis' has
    no_picks(end.text)
    n = view["position"]
    for step in (0, 1, n):
        rp = client.get(f"/b/{bid}/replay", params={**spec, "step": step})
        assert rp.status_code == 200
        no_picks(rp.text)
    log = client.get(f"/b/{bid}/log", params=spec)
    assert log.status_code == 200 and "Blues hold" in log.text
    assert client.get(f"/api/battles/{bid}/replay", params=spec).json()["identical"] is True

    # shipped scenarios are offered and start battles from the API and the home page
    assert "toy:race" in [s["key"] for s in client.get("/api/scenarios").json()]
    made = client.post("/api/battles", json={"scenario": "toy:sprint", "seed": 9})
    assert made.status_code == 201 and set(made.json()["tokens"]) == {"A", "B", "spectator"}
    assert "Short sprint" in client.get("/").text
    assert client.post("/new", data={"scenario": "toy:race", "seed": "4"}).status_code == 201
