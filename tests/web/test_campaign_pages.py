"""Recording a finished battle in the campaign from the browser: the same Battle Points and level-ups
as ``rulekeeper campaign record``, once only, never before the end, never from the spectator's link."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from campaign_musters import BREC_TOML, WING_YAML
from rulekeeper.rulesets.exillis.cli import campaign as campaign_cmds
from rulekeeper.web.api import create_app
from toygame import ToyGame

WING, BREC = WING_YAML, BREC_TOML


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)


def keeper(client: TestClient) -> Any:
    return client.app.state.keeper  # type: ignore[attr-defined]


def created(client: TestClient, data: dict[str, str]) -> dict[str, Any]:
    r = client.post("/new", data=data)
    assert r.status_code == 201, r.text
    links = {role: html.unescape(url).replace("http://testserver", "") for role, url in
             re.findall(r'<input id="link-(\w+)" type="text" readonly value="([^"]+)"', r.text)}
    bid = links["A"].split("/")[2].split("?")[0]
    return {"id": bid, "tokens": {role: link.split("token=")[1] for role, link in links.items()}}


def from_musters(client: TestClient, seed: int = 7) -> dict[str, Any]:
    return created(client, {"from": "musters", "game": "exillis", "muster_a": WING, "muster_b": BREC,
                            "board": "5x4", "seed": str(seed)})


def play_to_the_end(client: TestClient, b: dict[str, Any], reveal: bool = True) -> None:
    """The default policy plays both sides to the end; the last side then turns its cards over."""
    k = keeper(client)
    state = k.service.autoplay(b["id"])
    assert k.service.game(b["id"]).status(state).over
    if reveal:
        rec = k.store.get(b["id"])
        side = k.service.game(b["id"]).side_of(k.store.entry(b["id"], rec.position - 1).action)
        r = client.post(f"/b/{b['id']}/reveal", data={"token": b["tokens"][side], "position": str(rec.position)})
        assert r.status_code == 303, r.text


def record(client: TestClient, b: dict[str, Any], role: str = "A", **players: str) -> Any:
    return client.post(f"/b/{b['id']}/campaign", data={"token": b["tokens"][role], **players})


def shown_units(text: str) -> list[dict[str, Any]]:
    rows = re.findall(r'<tr data-side="(\w+)" data-unit="([^"]+)" data-kind="(\w+)" data-level-before="(\d+)"\s+'
                      r'data-level="(\d+)" data-received="(\d+)" data-points="(\d+)">', text)
    return [{"side": s, "unit": html.unescape(u), "kind": k, "level_before": int(lb), "level": int(lv),
             "bp_received": int(rc), "bp": int(bp)} for s, u, k, lb, lv, rc, bp in rows]


def cli_record(tmp_path: Path, export: bytes, bid: str) -> dict[str, Any]:
    """``rulekeeper campaign record ID --json`` on a copy of the same battle in a database of its own."""
    from rulekeeper.persistence.store import BattleStore
    from rulekeeper.service.battles import BattleService

    db = tmp_path / "cli.db"
    (tmp_path / "export.json").write_bytes(export)
    with BattleStore(db) as store:
        assert BattleService(store).import_(tmp_path / "export.json") == bid
    app = typer.Typer()
    campaign_cmds.register(app)
    result = CliRunner().invoke(app, ["campaign", "record", bid, "--db", str(db), "--json",
                                      "--player-a", "Ann", "--player-b", "Bob"])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.output)
    return out


def test_a_side_records_the_finished_battle_and_sees_what_the_cli_would_award(client: TestClient,
                                                                              tmp_path: Path) -> None:
    b = from_musters(client)
    play_to_the_end(client, b)
    page = client.get(f"/b/{b['id']}/campaign", params={"token": b["tokens"]["B"]})
    assert page.status_code == 200 and "Record in the campaign" in page.text and 'name="player_A"' in page.text
    spectator = client.get(f"/b/{b['id']}/campaign", params={"token": b["tokens"]["spectator"]})
    assert "Record in the campaign" not in spectator.text and "A side's link can record it" in spectator.text
    export = client.get(f"/b/{b['id']}/download/export", params={"token": b["tokens"]["A"]})
    assert export.status_code == 200
    want = cli_record(tmp_path, export.content, b["id"])

    r = record(client, b, "B", player_A="Ann", player_B="  Bob ")
    assert r.status_code == 303 and r.headers["location"].endswith("note=recorded")
    shown = client.get(r.headers["location"])
    assert shown.status_code == 200 and "The battle is recorded in the campaign." in shown.text
    cli_units = [{"side": side, "unit": u["unit"], "kind": u["kind"], "level_before": u["level_before"],
                  "level": u["level"], "bp_received": u["bp_received"], "bp": u["bp"]}
                 for side, army in want["sides"].items() for u in army["units"]]
    assert shown_units(shown.text) == cli_units and len(cli_units) == 10
    assert f'class="earned" data-points="{want["battle_points"]}"' in shown.text and want["battle_points"] == 2
    ups = [u for u in cli_units if u["level"] > u["level_before"]]
    assert ups and "Level-ups" in shown.text  # level 1 with 2 BP: level 2 (1 BP spent, 1 kept)
    for u in ups:
        assert f"level {u['level_before']} → <strong>{u['level']}</strong>" in shown.text
    assert 'data-player="Ann"' in shown.text and 'data-player="Bob"' in shown.text
    # everyone with a link sees the record, the spectator too; the campaign store has it once
    assert shown_units(client.get(f"/b/{b['id']}/campaign", params={"token": b["tokens"]["spectator"]}).text) \
        == cli_units


def test_recording_twice_is_refused_and_changes_nothing(client: TestClient) -> None:
    from rulekeeper.persistence.campaign import CampaignStore

    b = from_musters(client, seed=3)
    play_to_the_end(client, b)
    assert record(client, b, "A").status_code == 303
    url = keeper(client).store.url
    with CampaignStore(url) as store:
        before = [u.to_dict() for u in store.units()]
    again = record(client, b, "B", player_A="Someone else")
    assert again.status_code == 409 and "already_recorded" in again.text and "Already recorded" in again.text
    with CampaignStore(url) as store:
        assert [u.to_dict() for u in store.units()] == before and len(store.battles()) == 1


def test_nothing_is_recorded_before_the_end_nor_while_the_last_blow_is_face_down(client: TestClient) -> None:
    b = from_musters(client, seed=5)
    early = record(client, b, "A")
    assert early.status_code == 409 and "battle_not_over" in early.text
    play_to_the_end(client, b, reveal=False)  # over, but the last results are face down
    page = client.get(f"/b/{b['id']}/campaign", params={"token": b["tokens"]["A"]}).text
    fresh = client.get(f"/b/{from_musters(client, seed=6)['id']}/campaign", params={"token": b["tokens"]["A"]})
    assert fresh.status_code == 404  # another battle's link opens nothing
    assert "data-not-yet" in page and "Record in the campaign" not in page
    hidden = record(client, b, "B")
    assert hidden.status_code == 409 and "battle_not_over" in hidden.text
    assert "still being fought, or its last results are face down" in hidden.text  # the same words as before the end
    assert keeper(client).store.get(b["id"]).meta.get("musters")


def test_who_may_record(client: TestClient) -> None:
    b = from_musters(client, seed=9)
    play_to_the_end(client, b)
    spectator = record(client, b, "spectator")
    assert spectator.status_code == 403 and "unauthorized" in spectator.text
    for token, status in (("", 404), ("not-a-link", 404), ("x" * 500, 422)):  # 422: an over-long form field,
        r = client.post(f"/b/{b['id']}/campaign", data={"token": token})  # as the battle page's forms answer it
        assert r.status_code == status
    assert client.post(f"/b/{b['id']}/campaign", params={"token": "x" * 500}).status_code == 404
    assert client.get(f"/b/{b['id']}/campaign").status_code == 404
    assert client.get("/b/nope/campaign", params={"token": b["tokens"]["A"]}).status_code == 404
    assert record(client, b, "A").status_code == 303


def test_a_battle_from_a_scenario_cannot_be_recorded(client: TestClient) -> None:
    b = created(client, {"scenario": "duel", "seed": "3"})
    play_to_the_end(client, b)
    page = client.get(f"/b/{b['id']}/campaign", params={"token": b["tokens"]["A"]})
    assert page.status_code == 200 and "cannot be recorded" in page.text and "not created from musters" in page.text
    r = record(client, b, "A")
    assert r.status_code == 409 and "not_from_musters" in r.text


def test_a_game_without_a_campaign_says_so(tmp_path: Path) -> None:
    from rulekeeper.core.game import SetupRequest
    from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests

    web = create_app(tmp_path / "toy.db")
    register_for_tests(ToyGame)
    try:
        k = web.state.keeper
        race = Path(__file__).resolve().parents[1] / "toygame" / "scenarios" / "race.yaml"
        bid, tokens = k.create(SetupRequest(scenario=race, seed=3, db=k.store.url), ruleset="toy")
        client = TestClient(web, follow_redirects=False)
        page = client.get(f"/b/{bid}/campaign", params={"token": tokens["A"]})
        assert page.status_code == 200 and "Toy dice race keeps no campaign" in page.text
        board = client.get(f"/b/{bid}", params={"token": tokens["A"]}).text
        assert "/campaign?" not in board  # no Campaign link for a game without one
        r = client.post(f"/b/{bid}/campaign", data={"token": tokens["A"]})
        assert r.status_code == 409 and "no_campaign" in r.text
    finally:
        unregister_for_tests("toy")
