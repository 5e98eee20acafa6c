"""The campaign in the web keeper (no browser): each side's link, its order form, the SVG map and
Stability chart, and the other side's orders kept out of every page, log, download and API answer
until the round resolves; undo rights of simultaneous orders."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from rulekeeper.web.api import create_app


def campaign(tmp_path: Path) -> tuple[TestClient, str, dict[str, str]]:
    client = TestClient(create_app(tmp_path / "web.db"))
    r = client.post("/new", data={"scenario": "wartable-campaign:shroudfall", "seed": "7"})
    assert r.status_code == 201, r.text
    links = {k: html.unescape(v) for k, v in re.findall(r'id="link-([\w-]+)"[^>]*value="([^"]+)"', r.text)}
    bid = re.findall(r"/b/([\w-]+)\?", links["oathsworn"])[0]
    return client, bid, {k: v.split("token=")[1] for k, v in links.items()}


def order_form(page: str) -> tuple[str, dict[str, str]]:
    m = re.search(r'<form method="post" action="(/b/[^"]+/act)" class="orders".*?</form>', page, re.S)
    assert m is not None, "no order form"
    return m.group(1), dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', m.group(0)))


def page(client: TestClient, bid: str, token: str, path: str = "", **q: Any) -> str:
    r = client.get(f"/b/{bid}{path}", params={"token": token, **q})
    assert r.status_code == 200, r.text
    return r.text


def test_each_side_sees_the_map_and_its_own_order_form(tmp_path: Path) -> None:
    client, bid, tokens = campaign(tmp_path)
    oath, blood = page(client, bid, tokens["oathsworn"]), page(client, bid, tokens["bloodless"])
    for p in (oath, blood):
        assert p.count('<g class="region"') == 6 and p.count('<line class="border"') == 7
        assert "Enclave Hearthmere: 70/100" in p and "Enclave Lantern Hill: 55/100" in p
        assert 'class="stability-chart"' in p and "[Ruin]" in p and "Dungeon: The Barrow" in p
    assert 'name="order:Hearthmere Guard"' in oath and 'name="order:Ford Horde"' not in oath
    assert 'name="order:Ford Horde"' in blood and 'name="faith"' not in blood  # the Bloodless have no Faith
    assert 'class="orders"' not in page(client, bid, tokens["spectator"])


def test_orders_stay_hidden_until_the_round_resolves(tmp_path: Path) -> None:
    client, bid, tokens = campaign(tmp_path)
    action, form = order_form(page(client, bid, tokens["oathsworn"]))
    r = client.post(action, data={**form, "order:Hearthmere Guard": "reclaim", "faith": "Lantern Hill"},
                    follow_redirects=True)
    assert r.status_code == 200 and "Hearthmere Guard Reclaims" in r.text  # its own orders, shown to itself
    secret = ("Hearthmere Guard reclaim", "Faith: Lantern Hill", "Reclaims", "restores Lantern Hill")
    for role in ("bloodless", "spectator"):
        token = tokens[role]
        seen = [page(client, bid, token), page(client, bid, token, "/log"),
                page(client, bid, token, "/replay", step=1),
                client.get(f"/b/{bid}/download/log", params={"token": token, "format": "json"}).text,
                client.get(f"/api/battles/{bid}/log", params={"token": token}).text,
                client.get(f"/api/battles/{bid}", params={"token": token}).text]
        for text in seen:
            assert not [s for s in secret if s in text], (role, [s for s in secret if s in text])
        log = client.get(f"/api/battles/{bid}/log", params={"token": token}).json()
        assert log["entries"][0]["action"] == {"kind": "concealed", "side": "oathsworn"}
    assert "Hearthmere Guard reclaim" in page(client, bid, tokens["oathsworn"], "/log")
    action, form = order_form(page(client, bid, tokens["bloodless"]))
    client.post(action, data={**form, "order:Ford Horde": "move:Old Watch"}, follow_redirects=True)
    # the round's report is face down until the Bloodless, who resolved it, turn it over (issue 25)
    assert "Hearthmere Guard reclaim" not in page(client, bid, tokens["spectator"], "/log")
    client.post(f"/b/{bid}/reveal", data={"token": tokens["bloodless"], "position": "2", "all": "1"})
    for token in tokens.values():  # the round resolved: everyone sees the orders and what they did
        log = page(client, bid, token, "/log")
        assert "Hearthmere Guard reclaim" in log and "Hearthmere Stability 70 → 90" in log
        assert "Enclave Hearthmere: 90/100" in page(client, bid, token)


def test_a_side_takes_back_only_its_own_orders(tmp_path: Path) -> None:
    client, bid, tokens = campaign(tmp_path)
    action, form = order_form(page(client, bid, tokens["oathsworn"]))
    client.post(action, data=form, follow_redirects=True)
    undo = {"position": "1"}
    r = client.post(f"/b/{bid}/undo", data={**undo, "token": tokens["bloodless"]}, follow_redirects=True)
    assert r.status_code >= 400  # the Bloodless cannot take back the Oathsworn's orders
    assert client.get(f"/api/battles/{bid}", params={"token": tokens["oathsworn"]}).json()["position"] == 1
    r = client.post(f"/b/{bid}/undo", data={**undo, "token": tokens["oathsworn"]}, follow_redirects=True)
    assert r.status_code == 200
    body = client.get(f"/api/battles/{bid}", params={"token": tokens["oathsworn"]}).json()
    assert body["position"] == 0 and body["to_act"] == ["oathsworn", "bloodless"]


def test_the_order_form_shows_the_delve_odds_the_roll_uses(tmp_path: Path) -> None:
    """Issue 25: the odds of a roll before the orders are given — and they are the odds the roll uses."""
    from fractions import Fraction

    from rulekeeper.core.game import SetupRequest
    from rulekeeper.core.ruleset import game

    client, bid, tokens = campaign(tmp_path)
    blood = page(client, bid, tokens["bloodless"])
    odds = dict(re.findall(r'<li data-result="([^"]+)">[^<]*<strong class="odds">([^<]+)</strong>', blood))
    assert odds["Collapse"] == "3/20" and odds["Relic"] == "1/10" and len(odds) == 6
    assert "If Barrow Horde delves The Barrow" in blood and "Health -20" in blood
    assert 'class="delve-odds"' not in page(client, bid, tokens["oathsworn"])  # no Dungeon near the Oathsworn
    g = game("wartable-campaign")
    state = g.initial_state(g.setup(SetupRequest(scenario=Path(__file__).resolve().parents[3] / "examples"
                                                 / "wartable" / "shroudfall.yaml", seed=7)).document)
    preview = g.preview(state, {"kind": "orders", "side": "bloodless", "round": 1,
                                "orders": [{"unit": "Barrow Horde", "order": "delve"}]})
    (draw,) = preview.draws
    assert {o: Fraction(p).limit_denominator(1000) for o, p in draw.odds()} == {
        r: Fraction(p) for r, p in odds.items()}
