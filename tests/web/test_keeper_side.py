"""The web keeper playing a side itself (issue 28): the new-battle form's "the keeper plays side B" with
a strength, its move through the same path as a player's, its reasons on the spectator's and the host's
pages only, no link that may act for it, and the keeper answering fast while bots think."""

from __future__ import annotations

import html
import re
import statistics
import time
from typing import Any

from fastapi.testclient import TestClient
from web_kit import page

from rulekeeper.service.bot_seat import seat_of


def keeper(client: TestClient) -> Any:
    return client.app.state.keeper  # type: ignore[attr-defined]


def new_solo(client: TestClient, scenario: str = "exillis:duel", bot: str = "second", strength: str = "simple",
             seed: str = "3") -> tuple[str, dict[str, str], str]:
    r = client.post("/new", data={"scenario": scenario, "seed": seed, "bot": bot, "strength": strength})
    assert r.status_code == 201, r.text
    links = {k: html.unescape(v) for k, v in re.findall(r'id="link-([\w-]+)"[^>]*value="([^"]+)"', r.text)}
    bid = re.findall(r"/b/([\w-]+)\?", next(iter(links.values())))[0]
    return bid, {role: url.split("token=")[1] for role, url in links.items()}, r.text


def play_a(client: TestClient, bid: str, token: str, kind: str = "move") -> None:
    """Side A plays the first action of ``kind`` through the API (shown at once, as the API's are)."""
    acts = client.get(f"/api/battles/{bid}/actions", params={"token": token}).json()
    assert acts["yours"], acts
    a = next(x for x in acts["actions"] if x["kind"] == kind)
    body = {k: v for k, v in a.items() if k not in ("text", "acp", "note", "odds")}
    r = client.post(f"/api/battles/{bid}/actions", params={"token": token}, json={**body, "position": acts["position"]})
    assert r.status_code == 200, r.text


def test_the_form_offers_the_keeper_as_opponent_with_a_strength(client: TestClient) -> None:
    home = client.get("/").text
    assert 'name="bot"' in home and '<option value="second">The keeper plays the second side (B)</option>' in home
    for strength in ("simple", "easy", "normal", "strong"):
        assert f'<option value="{strength}"' in home


def test_a_solo_battle_has_no_link_for_the_keeper_side_and_stores_it(client: TestClient) -> None:
    bid, tokens, text = new_solo(client, strength="normal")
    assert set(tokens) == {"A", "spectator"}  # side B is the keeper's: no link to share, none to steal
    assert 'id="keeper-note"' in text and "normal, up to 1 s a move" in text
    seat = seat_of(keeper(client).store.get(bid).meta)
    assert seat is not None and (seat.side, seat.strength) == ("B", "normal")
    # the creator's page reopened lists the same links (web/created.py)
    assert "keeper-side" in page(client, bid, tokens["A"])
    # played as a user: the page said "Send each side its own link" with one side's link, and with verifiable dice
    # "the seed is drawn when both sides have opened their links" where the keeper's side has none
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    assert "Open your side's link" in said and "Send each side" not in said
    _, _, text = new_solo(client, strength="normal", seed="")
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    assert "the seed is drawn when the player's side has opened its link (the keeper added its share" in said
    assert "both sides" not in said


def test_the_keeper_moves_after_the_player_and_both_pages_follow(client: TestClient) -> None:
    bid, tokens, _ = new_solo(client, strength="easy")
    k = keeper(client)
    play_a(client, bid, tokens["A"])
    assert k.bots.wait_idle(60)
    view = client.get(f"/api/battles/{bid}", params={"token": tokens["A"]}).json()
    assert view["position"] == 2 and view["to_act"] == ["A"] and view["keeper_side"] == "B"
    log = client.get(f"/api/battles/{bid}/log", params={"token": tokens["A"]}).json()["entries"]
    assert log[1]["action"]["unit"].startswith("B:") and log[1]["shown"]
    # its reasons: on the spectator's page, never on the player's
    spectator = page(client, bid, tokens["spectator"])
    assert 'id="keeper-why"' in spectator and "Estimated value" in spectator
    why = k.bots.explanation(bid)
    assert why is not None and why.index == 1 and why.candidates and why.text == "move B:Vileins B2"
    # in the log's words, the presenter's ("Vileins: move to B2"), not the protocol's ("move B:Vileins B2": hweb)
    assert "Why the keeper played <strong>Vileins: move to B2</strong>" in spectator
    assert why.candidates[0].action is not None and why.candidates[0].text not in spectator
    assert 'id="keeper-why"' not in page(client, bid, tokens["A"])
    assert 'id="keeper-why"' not in client.get(f"/b/{bid}/live", params={"token": tokens["A"]}).text
    host = client.get("/host", params={"key": k.host_key}).text
    assert 'id="keeper-why"' in host and "New link: side B" not in host


def test_the_players_link_cannot_make_the_keeper_act_nor_act_for_it(client: TestClient) -> None:
    bid, tokens, _ = new_solo(client, strength="simple")
    k = keeper(client)
    # side A to act: opening pages (which look for a keeper move to resume) moves nobody
    for _ in range(3):
        page(client, bid, tokens["A"])
    assert k.bots.wait_idle(60) and k.store.get(bid).position == 0
    play_a(client, bid, tokens["A"])
    assert k.bots.wait_idle(60) and k.store.get(bid).position == 2
    # A's link acting as B: refused, nothing written
    state = k.service.state(bid)
    b_move = next(lg.action for lg in k.service.game(bid).legal_actions(state) if lg.side == "A")
    forged = {**b_move, "unit": "B:Vileins"}
    r = client.post(f"/api/battles/{bid}/actions", params={"token": tokens["A"]}, json={**forged, "position": 2})
    assert r.status_code in (403, 409, 422) and k.store.get(bid).position == 2


def test_no_api_client_can_act_as_the_keeper_side(client: TestClient) -> None:
    bid, tokens, _ = new_solo(client, strength="simple")
    k = keeper(client)
    # the host cannot issue one (one role, or every link)
    r = client.post("/host/links", data={"key": k.host_key, "battle": bid, "role": "B"})
    assert r.status_code == 404
    r = client.post("/host/links", data={"key": k.host_key, "battle": bid})
    assert r.status_code == 201 and 'id="link-B"' not in r.text and 'id="link-A"' in r.text
    # and a token for B that got into the database anyway (an old keeper, a hand edit) opens nothing
    forged = k.access.reissue(bid, "B")
    assert client.get(f"/api/battles/{bid}", params={"token": forged}).status_code == 404
    r = client.post(f"/api/battles/{bid}/actions", params={"token": forged},
                    json={"kind": "wait", "unit": "B:Vileins", "position": 0})
    assert r.status_code == 404 and k.store.get(bid).position == 0


def test_the_keeper_answers_fast_while_three_bots_think(client: TestClient) -> None:
    """A static file and another battle's page, timed while three strong bots (2 s a move) think at once."""
    k = keeper(client)
    k.bots.workers.warm(3)  # their start (imports) is not the thinking this test times
    battles = [new_solo(client, strength="strong", seed=str(s)) for s in (3, 4, 5)]
    other_bid, other_tokens, _ = new_solo(client, strength="simple", seed="6")

    def answer() -> float:
        t0 = time.perf_counter()
        assert client.get("/static/style.css").status_code == 200
        assert "Your turn" in page(client, other_bid, other_tokens["A"])
        return time.perf_counter() - t0

    idle = sorted(answer() for _ in range(6))[1:]  # the first one compiles the templates
    for bid, tokens, _ in battles:
        play_a(client, bid, tokens["A"])
    times: list[float] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(times) < 40:
        if not all(k.bots.thinking(bid) for bid, _, _ in battles):
            if times:
                break
            time.sleep(0.05)
            continue
        times.append(answer())
    assert len(times) >= 5, f"the three bots were not seen thinking at once ({len(times)} samples)"
    # the searches run in processes of their own: the keeper shares the cores, its event loop is never held
    print(f"idle: median {statistics.median(idle):.3f} s; 3 bots thinking: median {statistics.median(times):.3f} s,"
          f" max {max(times):.3f} s over {len(times)}")
    assert statistics.median(times) < 0.5, (idle, times)
    assert k.bots.wait_idle(60)
    assert all(k.store.get(bid).position == 2 for bid, _, _ in battles)


def test_the_keeper_gives_hidden_orders_in_the_war_table_campaign(client: TestClient) -> None:
    """Simultaneous hidden orders: the keeper gives the Bloodless' orders as soon as the battle exists; the
    player, the spectator and the keeper's reasons show nothing of them until the round resolves."""
    bid, tokens, _ = new_solo(client, "wartable-campaign:shroudfall", strength="easy", seed="7")
    assert set(tokens) == {"oathsworn", "spectator"}
    k = keeper(client)
    assert k.bots.wait_idle(60)
    for token in tokens.values():
        log = client.get(f"/api/battles/{bid}/log", params={"token": token}).json()
        assert [e["action"] for e in log["entries"]] == [{"kind": "concealed", "side": "bloodless"}]
    assert 'id="keeper-why"' not in page(client, bid, tokens["spectator"])  # its reasons would tell its orders
    # the player gives its orders (the page's order form): the round resolves with them, its report face
    # down until the player turns it over; then the keeper gives the next round's orders
    html_page = page(client, bid, tokens["oathsworn"])
    form = re.search(r'<form method="post" action="(/b/[^"]+/act)" class="orders".*?</form>', html_page, re.S)
    assert form is not None
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0)))
    r = client.post(form.group(1), data={**fields, "order:Hearthmere Guard": "reclaim"}, follow_redirects=False)
    assert r.status_code == 303
    assert k.bots.wait_idle(60) and k.store.get(bid).position == 2  # waits for the report to be turned over
    client.post(f"/b/{bid}/reveal", data={"token": tokens["oathsworn"], "position": "2", "all": "1"})
    assert k.bots.wait_idle(60) and k.store.get(bid).position == 3
    log = client.get(f"/api/battles/{bid}/log", params={"token": tokens["oathsworn"]}).json()["entries"]
    assert log[0]["action"]["side"] == "bloodless" and log[0]["action"]["kind"] != "concealed"  # round 1: seen
    assert log[2]["action"] == {"kind": "concealed", "side": "bloodless"}  # round 2: hidden again
    assert 'id="keeper-why"' not in page(client, bid, tokens["spectator"])  # its round-2 orders: still hidden


def test_a_move_that_was_the_keepers_only_action_says_so() -> None:
    """Played as a user: after the keeper's only legal action (the Battle System's end of its turn) the spectator
    read a one-row table "— · 0" and "0 simulations in 0.0 s", as if the keeper had not thought. A move with
    candidates keeps its table."""
    from rulekeeper.web.presenters import Presenters

    template = Presenters().env.get_template("keeper_explained.html")
    only = {"index": 11, "side": "B", "text": "side B ends its turn", "strength": "normal", "iterations": 0,
            "seconds": 0.0, "fallback": "", "candidates": [
                {"text": "side B ends its turn", "value": None, "visits": 0, "chosen": True}]}
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", template.render(explained=only))).split())
    assert "only legal action: there was nothing to weigh" in said
    assert "Estimated value" not in said and "0 simulations" not in said
    weighed = {**only, "iterations": 40, "seconds": 0.8, "candidates": [
        {"text": "Raider Horse attacks Ford Pikes", "value": 0.31, "visits": 30, "chosen": True},
        {"text": "side B ends its turn", "value": -0.1, "visits": 10, "chosen": False}]}
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", template.render(explained=weighed))).split())
    assert "Estimated value" in said and "+0.31" in said and "40 simulations in 0.8 s" in said
    assert "nothing to weigh" not in said


def test_the_keeper_is_not_said_to_think_while_a_player_s_result_lies_face_down(client: TestClient,
                                                                                 monkeypatch: Any) -> None:
    """Seen on a laptop: "Side B: the keeper (normal, up to 1 s a move) — thinking…" while side A's end of turn lay
    face down on A's Fate Screen. The page pokes the keeper and then draws itself, and the keeper never decides on
    what may still be taken back (``service/bot_runner.py``), so it waits: the header said it thought, and kept
    saying it (the live region redraws only when the battle changes)."""
    bid, tokens, _ = new_solo(client, strength="simple")  # Ex illis' duel: the sides activate in turn
    k = keeper(client)
    assert k.bots.wait_idle(60)
    monkeypatch.setattr(k.bots, "poke", lambda bid: None)  # the keeper looks at nothing: the page alone is tested
    monkeypatch.setattr(k.bots, "thinking", lambda bid: True)  # as if a look were under way while the page draws
    game = k.service.game(bid)
    for _ in range(40):  # the shipped policy plays both sides until side A's action draws chance and hands over
        state = k.service.state(bid)
        action = game.policy(state)
        assert action is not None and not game.status(state).over, "side A never rolled before handing over"
        side = game.side_of(action)
        _, position = k.service.act(bid, action, shown=side == "B", side=side)  # A's as the web form: face down
        seen = k.service.visible(bid)
        if seen.pending is not None and "B" in game.status(k.service.state(bid)).to_act:
            break
        if seen.pending is not None:
            assert k.service.reveal(bid, position)
    else:
        raise AssertionError("side A never rolled before handing over")
    for role in ("A", "spectator"):
        drawn = page(client, bid, tokens[role])
        assert 'id="keeper-side"' in drawn and 'id="keeper-thinking"' not in drawn, role
    assert "thinking…" not in client.get("/host", params={"key": k.host_key}).text
    assert k.service.reveal(bid, position)  # turned over: side B (the keeper's) to act, and now it would think
    assert 'id="keeper-thinking"' in page(client, bid, tokens["spectator"])
    assert "thinking…" in client.get("/host", params={"key": k.host_key}).text
