"""The JSON API: side links, the authorization matrix, stale positions, racing clients."""

import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rulekeeper.web.api import create_app


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "web.db"))


def new_battle(client: TestClient, scenario: str = "starter", seed: int = 3) -> dict[str, Any]:
    r = client.post("/api/battles", json={"scenario": scenario, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def first_move(client: TestClient, bid: str, token: str) -> dict[str, Any]:
    acts = client.get(f"/api/battles/{bid}/actions", params={"token": token}).json()
    move = next(a for a in acts["actions"] if a["kind"] == "move")
    return {"kind": "move", "unit": move["unit"], "target": move["target"], "position": acts["position"]}


def test_create_gives_three_distinct_long_secret_links(client: TestClient) -> None:
    b = new_battle(client)
    toks = b["tokens"]
    assert set(toks) == {"A", "B", "spectator"} and len(set(toks.values())) == 3
    assert all(len(t) >= 32 for t in toks.values())  # >= 128 bits of entropy in URL-safe base64
    view = client.get(f"/api/battles/{b['id']}", headers={"X-Rulekeeper-Token": toks["spectator"]}).json()
    assert view["role"] == "spectator" and view["position"] == 0 and view["active"] == ["A:Billmen", "A:Decurion"]


def test_unknown_battle_and_bad_token_give_the_same_404(client: TestClient) -> None:
    b = new_battle(client)
    r1 = client.get("/api/battles/b-nope", params={"token": b["tokens"]["A"]})
    r2 = client.get(f"/api/battles/{b['id']}", params={"token": "x" * 32})
    r3 = client.get(f"/api/battles/{b['id']}")
    assert r1.status_code == r2.status_code == r3.status_code == 404
    assert r1.json() == r2.json() == r3.json()


def test_a_side_plays_and_the_state_moves_on(client: TestClient) -> None:
    b = new_battle(client)
    body = first_move(client, b["id"], b["tokens"]["A"])
    r = client.post(f"/api/battles/{b['id']}/actions", params={"token": b["tokens"]["A"]}, json=body)
    assert r.status_code == 200, r.text
    assert r.json()["position"] == 1
    assert client.get(f"/api/battles/{b['id']}", params={"token": b["tokens"]["B"]}).json()["position"] == 1


def _snapshot(client: TestClient, bid: str, token: str) -> Any:
    return client.get(f"/api/battles/{bid}", params={"token": token}).json()


MATRIX = ["no token", "other side's token", "spectator token", "stale log position", "not your turn", "battle over"]
EXPECTED = {
    "no token": (404, "not_found"),
    "other side's token": (403, "unauthorized"),
    "spectator token": (403, "unauthorized"),
    "stale log position": (409, "stale_state"),
    "not your turn": (409, "not_your_turn"),
    "battle over": (409, "game_over"),
}


@pytest.mark.parametrize("case", MATRIX)
@pytest.mark.parametrize("endpoint", ["actions", "undo", "shown"])
def test_authorization_matrix(client: TestClient, case: str, endpoint: str) -> None:
    b = new_battle(client, "skirmish" if case == "battle over" else "starter")
    bid, toks = b["id"], b["tokens"]
    if case == "battle over":
        keeper = client.app.state.keeper  # type: ignore[attr-defined]
        keeper.service.autoplay(bid)
        if endpoint != "shown":  # over for every link once the last blow is turned over; while it is face down
            keeper.service.reveal(bid, keeper.store.get(bid).position)  # nobody is told (test_hand_play.py)
    body = first_move(client, bid, toks["A"]) if case != "battle over" else {
        "kind": "wait", "unit": "A:Billmen", "position": _snapshot(client, bid, toks["A"])["position"]}
    token: str | None = toks["A"]
    if endpoint != "actions":
        body = {"position": body["position"]}
        if case in ("not your turn",):
            pytest.skip("undo and reveal are not turn actions")
    if case == "no token":
        token = None
    elif case == "other side's token":
        token = toks["B"]
        if endpoint != "actions":
            # B may not take back or reveal A's action: play one for A first
            played = client.post(f"/api/battles/{bid}/actions", params={"token": toks["A"]},
                                 json=first_move(client, bid, toks["A"]))
            body = {"position": played.json()["position"]}
    elif case == "spectator token":
        token = toks["spectator"]
    elif case == "stale log position":
        body["position"] += 5
    elif case == "not your turn":
        token = toks["B"]
        acts = client.get(f"/api/battles/{bid}/actions", params={"token": toks["B"]}).json()
        body = {"kind": "wait", "unit": "B:Vileins", "position": acts["position"]}
    if case == "battle over" and endpoint == "shown":
        _reveal_the_last_blow(client, bid, toks, body["position"])
        return
    before = _snapshot(client, bid, toks["spectator"])
    params = {} if token is None else {"token": token}
    r = client.post(f"/api/battles/{bid}/{endpoint}", params=params, json=body)
    status, code = EXPECTED[case]
    assert (r.status_code, r.json().get("error")) == (status, code), r.text
    assert _snapshot(client, bid, toks["spectator"]) == before  # the stored battle is unchanged


def _reveal_the_last_blow(client: TestClient, bid: str, toks: dict[str, str], position: int) -> None:
    """Over, the last blow's results are still revealed (by its side only): until then nobody sees the end."""
    keeper = client.app.state.keeper  # type: ignore[attr-defined]
    last = keeper.store.entry(bid, position - 1)
    assert last.result.get("chance") and not last.shown  # autoplay leaves its results face down
    actor = keeper.service.game(bid).side_of(last.action)
    other = "B" if actor == "A" else "A"
    assert _snapshot(client, bid, toks["spectator"])["over"] is False  # the end is not told yet
    r = client.post(f"/api/battles/{bid}/shown", params={"token": toks[other]}, json={"position": position})
    assert (r.status_code, r.json()["error"]) == (403, "unauthorized")
    r = client.post(f"/api/battles/{bid}/shown", params={"token": toks[actor]}, json={"position": position})
    assert r.status_code == 200 and keeper.store.entry(bid, position - 1).shown
    assert _snapshot(client, bid, toks["spectator"])["over"] is True


def test_undo_refused_after_results_are_shown(client: TestClient) -> None:
    b = new_battle(client)
    bid, a = b["id"], b["tokens"]["A"]
    body = first_move(client, bid, a)
    pos = client.post(f"/api/battles/{bid}/actions", params={"token": a}, json=body).json()["position"]
    assert client.post(f"/api/battles/{bid}/undo", params={"token": a}, json={"position": pos}).status_code == 200
    pos = client.post(f"/api/battles/{bid}/actions", params={"token": a}, json=body).json()["position"]
    assert client.post(f"/api/battles/{bid}/shown", params={"token": a}, json={"position": pos}).status_code == 200
    # a move drew no chance, so even a shown move can be taken back; a shown roll cannot (service test)
    assert client.post(f"/api/battles/{bid}/undo", params={"token": a}, json={"position": pos}).status_code == 200


def test_malformed_requests_are_4xx_with_a_json_body(client: TestClient) -> None:
    b = new_battle(client)
    bid, a = b["id"], b["tokens"]["A"]
    for payload in ({}, {"kind": "move"}, {"kind": "move", "unit": "A:Billmen", "position": -1},
                    {"kind": "fly", "unit": "A:Billmen", "position": 0}, {"kind": "move", "unit": "Nobody", "position": 0},
                    {"kind": "move", "unit": "A:Billmen", "target": "Z99", "position": 0}):
        r = client.post(f"/api/battles/{bid}/actions", params={"token": a}, json=payload)
        assert 400 <= r.status_code < 500, (payload, r.status_code, r.text)
        assert "error" in r.json() and "message" in r.json()
    r = client.post("/api/battles", json={"scenario": "nowhere"})
    assert r.status_code == 422 and r.json()["error"] == "unknown_name"


def test_eight_clients_racing_one_position_exactly_one_wins(client: TestClient, tmp_path: Path) -> None:
    b = new_battle(client)
    bid, a = b["id"], b["tokens"]["A"]
    app = client.app
    for _round in range(3):
        body = first_move(client, bid, a)
        results: list[int] = []
        barrier = threading.Barrier(8)

        def go(barrier: threading.Barrier = barrier, results: list[int] = results, body: dict = body) -> None:
            c = TestClient(app)
            barrier.wait()
            results.append(c.post(f"/api/battles/{bid}/actions", params={"token": a}, json=body).status_code)

        threads = [threading.Thread(target=go) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results).count(200) == 1, results
        assert all(s == 409 for s in results if s != 200), results
        # let side B and others play until it is A's turn again
        svc = app.state.keeper.service  # type: ignore[attr-defined]
        svc.autoplay(bid, sides={"B"})
    rep = client.get(f"/api/battles/{bid}/replay", params={"token": a}).json()
    assert rep["identical"]


def test_api_results_count_as_shown_so_a_seen_roll_cannot_be_undone(client: TestClient) -> None:
    b = new_battle(client, "duel", seed=2)
    bid, a = b["id"], b["tokens"]["A"]
    for _ in range(10):
        acts = client.get(f"/api/battles/{bid}/actions", params={"token": a}).json()
        pick = next((x for x in acts["actions"] if x["kind"] in ("charge", "shoot")), None)
        if pick is not None:
            break
        move = next(x for x in acts["actions"] if x["kind"] == "wait")
        client.post(f"/api/battles/{bid}/actions", params={"token": a},
                    json={"kind": move["kind"], "unit": move["unit"], "position": acts["position"]})
    assert pick is not None
    body = {k: pick[k] for k in ("kind", "unit", "target", "option") if pick.get(k) is not None}
    r = client.post(f"/api/battles/{bid}/actions", params={"token": a}, json={**body, "position": acts["position"]})
    assert r.status_code == 200 and r.json()["chance"]
    u = client.post(f"/api/battles/{bid}/undo", params={"token": a}, json={"position": r.json()["position"]})
    # the same code as the pages answer (it was 422 invalid_action here, 409 results_shown there)
    assert u.status_code == 409 and u.json()["error"] == "results_shown" and "shown" in u.json()["message"]
