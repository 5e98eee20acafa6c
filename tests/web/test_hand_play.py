"""What playing the web keeper by hand found (hweb, issue 28's session): each test is one thing a player saw.

The face-down last blow: side A's charge ended the duel, its results still face down; side B tried to act and to
undo and was told "game_over" — the end (and so the winner) before side A had turned a card over. And side A could
not take its face-down last blow back, though undo is allowed until a result is seen.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rulekeeper.web.api import create_app


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)


def _duel_at_its_last_blow(client: TestClient) -> tuple[str, dict[str, str], int, str]:
    """A duel autoplayed to its end: its last blow's results face down (autoplay leaves them so)."""
    r = client.post("/new", data={"scenario": "duel", "seed": "3"})
    urls = re.findall(r'<input id="link-(\w+)" type="text" readonly value="([^"]+)"', r.text)
    tokens = {role: html.unescape(url).split("token=")[1] for role, url in urls}
    bid = html.unescape(urls[0][1]).split("/b/")[1].split("?")[0]
    keeper: Any = client.app.state.keeper  # type: ignore[attr-defined]
    keeper.service.autoplay(bid)
    n = keeper.store.get(bid).position
    last = keeper.store.entry(bid, n - 1)
    assert keeper.store.get(bid).status == "over" and not last.shown
    return bid, tokens, n, keeper.service.game(bid).side_of(last.action)


def test_a_face_down_last_blow_is_not_told_by_a_refusal_and_may_be_taken_back(client: TestClient) -> None:
    bid, tokens, n, actor = _duel_at_its_last_blow(client)
    other = "B" if actor == "A" else "A"
    refusals = [
        client.post(f"/b/{bid}/act", data={"token": tokens[other], "position": str(n), "kind": "wait",
                                           "unit": f"{other}:Vileins"}),
        client.post(f"/b/{bid}/undo", data={"token": tokens[other], "position": str(n)}),
        client.post(f"/api/battles/{bid}/actions", params={"token": tokens[other]},
                    json={"kind": "wait", "unit": f"{other}:Vileins", "position": n}),
        client.post(f"/api/battles/{bid}/undo", params={"token": tokens[other]}, json={"position": n}),
    ]
    for r in refusals:
        assert 400 <= r.status_code < 500 and "game_over" not in r.text and "is over" not in r.text, r.text
    assert [r.status_code for r in refusals] == [409, 403, 409, 403]
    assert "results_pending" in refusals[0].text and refusals[3].json()["error"] == "unauthorized"
    # and the side that struck it may take it back before anything is seen, as any face-down action
    r = client.post(f"/b/{bid}/undo", data={"token": tokens[actor], "position": str(n)})
    assert r.status_code == 303
    keeper: Any = client.app.state.keeper  # type: ignore[attr-defined]
    assert keeper.store.get(bid).position == n - 1 and keeper.store.get(bid).status != "over"
    # played again and revealed: the end screen counts its activations in good English ("1 activations.")
    keeper.service.autoplay(bid)
    keeper.service.reveal(bid, keeper.store.get(bid).position)
    end = client.get(f"/b/{bid}", params={"token": tokens["A"]}).text
    count = re.search(r"<p>(\d+) (activations?)\. ", end)
    assert count and count.group(2) == ("activation" if count.group(1) == "1" else "activations")


def test_a_running_keeper_compiles_its_templates_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jinja2's default auto-reload stat()ed every template file on every render of a running keeper."""
    from rulekeeper.web.presenters import RELOAD_ENV, make_env

    monkeypatch.delenv(RELOAD_ENV, raising=False)
    assert make_env().auto_reload is False
    monkeypatch.setenv(RELOAD_ENV, "1")
    assert make_env().auto_reload is True


def _created(client: TestClient, **form: str) -> tuple[str, str, dict[str, str]]:
    r = client.post("/new", data={"scenario": "exillis:duel", **form})
    urls = re.findall(r'<input id="link-(\w+)" type="text" readonly value="([^"]+)"', r.text)
    tokens = {role: html.unescape(url).split("token=")[1] for role, url in urls}
    return r.text, html.unescape(urls[0][1]).split("/b/")[1].split("?")[0], tokens


def test_a_phone_that_opened_its_link_is_not_told_it_has_not_and_keeps_its_board_in_view(client: TestClient) -> None:
    """Side A's phone had committed its share; its page read "Waiting for Side A and Side B to open their links …
    Side A: not opened yet (this device)", under a dice panel left open that pushed the board 700 px down."""
    created, bid, tokens = _created(client, seed="")
    # Copy, Share and Open in one row (Share alone took a phone card's whole width); hidden stays hidden
    assert created.count('<div class="link-buttons">') == 3
    css = (Path(__file__).resolve().parents[2] / "src/rulekeeper/web/static/style.css").read_text()
    assert "[hidden] { display: none !important; }" in css
    r = client.post(f"/api/battles/{bid}/dice", params={"token": tokens["A"]}, json={"commitment": "ab" * 32})
    assert r.status_code == 200
    a = html.unescape(client.get(f"/b/{bid}", params={"token": tokens["A"]}).text)
    assert "Waiting for Side B to open its link" in a and "Side A and" not in a
    assert re.search(r'data-dice-role="A"[^>]*>Side A( — <bdi>[^<]*</bdi>)?: <strong>opened ✓', a)
    assert "<details open>" not in a  # nothing of its own left to fill in: the board comes first
    b = client.get(f"/b/{bid}", params={"token": tokens["B"]}).text
    assert "<details open>" in b and 'name="contribution"' in b  # its own form, for a page without JavaScript


def test_the_other_side_waiting_on_hidden_orders_reads_a_sentence(client: TestClient) -> None:
    """The War Table campaign: while the round's results were face down, the other side read "Oathsworn is turning
    over the results of side oathsworn acted (hidden until it is revealed)"."""
    r = client.post("/new", data={"scenario": "wartable-campaign:shroudfall", "seed": "31"})
    urls = dict(re.findall(r'<input id="link-(\w+)" type="text" readonly value="([^"]+)"', r.text))
    tokens = {role: html.unescape(url).split("token=")[1] for role, url in urls.items()}
    bid = html.unescape(urls["spectator"]).split("/b/")[1].split("?")[0]
    for at, side in enumerate(("bloodless", "oathsworn")):
        done = client.post(f"/b/{bid}/act", data={"token": tokens[side], "position": str(at), "kind": "orders",
                                                  "side": side, "round": "1"})
        assert done.status_code == 303, done.text
    waiting = client.get(f"/b/{bid}", params={"token": tokens["bloodless"]}).text
    assert "is turning over the results of its action (what it did is told when they are revealed)" in waiting
    assert "hidden until it is revealed)</strong>" not in waiting


def test_a_stopping_keeper_does_not_wait_for_the_open_pages_live_streams() -> None:
    """Ctrl-C with a battle page open: the keeper waited for the page's event stream (up to its ten minutes)."""
    from rulekeeper.web.live import LIFETIME
    from rulekeeper.web.server import uvicorn_options

    assert 0 < uvicorn_options(None)["timeout_graceful_shutdown"] <= 5 < LIFETIME


def test_the_log_of_a_game_without_a_campaign_offers_none_and_its_step_links_sit_beside_the_words(
        client: TestClient) -> None:
    """A Dragon Noir log offered "Campaign" (a page saying there is none); on a phone each "#12" step button,
    pulled into the line by negative margins, overlapped the wrapped words of its action."""
    r = client.post("/new", data={"scenario": "dragonnoir:the_ford", "seed": "3"})
    urls = dict(re.findall(r'<input id="link-(\w+)" type="text" readonly value="([^"]+)"', r.text))
    url = html.unescape(urls["A"]).replace("http://testserver", "")
    bid, token = url.split("/b/")[1].split("?token=")
    log = client.get(f"/b/{bid}/log", params={"token": token}).text
    assert "Download:" in log and "/campaign?" not in log
    css = (Path(__file__).resolve().parents[2] / "src/rulekeeper/web/static/style.css").read_text()
    assert ".log > li > p:first-child { display: flex;" in css and "margin: -.65rem 0" not in css
    # and the phone's home page clamps each scenario's description to two lines
    assert re.search(r"\.new-battle \.choice small:not\(\.game\) \{[^}]*-webkit-line-clamp: 2", css)


def test_a_held_update_after_an_undo_says_so(client: TestClient) -> None:
    """Side A had an odds preview open when side B took its move back; the held banner read "Side A: Hobelars: move
    to A1" — side A's own earlier move, now the last in the log — as if it were news."""
    _, bid, tokens = _created(client, seed="9")
    for side in ("A", "B"):
        acts = client.get(f"/api/battles/{bid}/actions", params={"token": tokens[side]}).json()
        move = next(a for a in acts["actions"] if a["kind"] in ("move", "stance"))
        body = {k: v for k, v in move.items() if k not in ("text", "acp", "note", "odds")}
        assert client.post(f"/api/battles/{bid}/actions", params={"token": tokens[side]},
                           json={**body, "position": acts["position"]}).status_code == 200
    assert client.post(f"/api/battles/{bid}/undo", params={"token": tokens["B"]}, json={"position": 2}).status_code == 200
    held = client.get(f"/b/{bid}/live", params={"token": tokens["A"], "v": "2.0"}).text
    assert 'data-moved="The last action was taken back"' in held
    news = client.get(f"/b/{bid}/live", params={"token": tokens["A"], "v": "0.0"}).text
    assert 'data-moved="Side A: Hobelars: move' in news  # an action is still told as before
    css = (Path(__file__).resolve().parents[2] / "src/rulekeeper/web/static/style.css").read_text()
    assert re.search(r"\.banner\.held \{[^}]*position: sticky; top: 0;", css)  # seen from Commit, a screen below


def test_a_dragon_noir_move_says_what_it_costs() -> None:
    """The phone's move buttons read "→ D4 · 1 of 6 points" (cost or points left?); as the Battle System's now do,
    they say "costs 1 of 6 points"."""
    from rulekeeper.core.game import SetupRequest
    from rulekeeper.core.ruleset import game

    g = game("dragonnoir")
    scenario = next(s for s in g.scenarios() if "ford" in str(s.path))
    state = g.initial_state(g.setup(SetupRequest(scenario=scenario.path, seed=1)).document)
    moves = []
    while not moves:  # past the opening sequence (spells, fire) to the first movement
        legal = g.legal_actions(state)
        moves = [lg for lg in legal if lg.action.get("kind") == "move"]
        if not moves:
            state = g.apply(state, g.policy(state) or legal[-1].action).state
    assert all(re.fullmatch(r"costs \d+ of \d+ points( \(.*\))?", lg.note or "") for lg in moves), moves[0].note


def test_a_war_table_page_capitalises_its_sides_and_says_its_rule_reading_in_words(client: TestClient) -> None:
    """The War Table board read "oathsworn (attackers)" under capitalised unit names, and showed players the
    keeper's option keys: "Options: step5=example, stat_rounding=tenth, enclave_loss=per_battle, ..."."""
    r = client.post("/new", data={"scenario": "wartable:oathsworn_vs_bloodless", "seed": ""})
    urls = dict(re.findall(r'<input id="link-(\w+)" type="text" readonly value="([^"]+)"', r.text))
    url = html.unescape(urls["attackers"]).replace("http://testserver", "")
    page = html.unescape(client.get(url).text)
    assert "<bdi>Oathsworn</bdi> (Attackers) to attack" in page
    assert "<h3><bdi>Bloodless</bdi> <small>(Defenders)</small></h3>" in page
    assert "Your turn: <bdi>Oathsworn</bdi>" in page and ">oathsworn<" not in page and ">bloodless<" not in page
    assert "Options:" not in page and "step5" not in page and "stat_rounding" not in page
    reading = re.search(r'<p class="traits" id="rule-readings">([^<]*)</p>', page)
    assert reading and reading.group(1) == (
        "Rule readings: blocked hits kept exact, unblocked hits rounded up (the seed's worked example); "
        "stat totals rounded to one decimal place.")  # no Enclave in this region: its readings are not told


def test_every_war_table_rule_reading_has_its_words() -> None:
    from rulekeeper.rulesets.wartable.model import OPTION_INFO
    from rulekeeper.rulesets.wartable.readings import PHRASES, rule_readings

    assert set(PHRASES) == {(o.name, c) for o in OPTION_INFO for c in o.choices}
    assert len(rule_readings({"step5": "literal"}, enclave=True)) == 4
    assert rule_readings({"step5": "literal"}, enclave=False)[0] == "blocked hits rounded up (the seed's step list)"


def test_a_refused_new_battle_comes_back_filled_in_at_the_forms_own_address(client: TestClient) -> None:
    """A muster breaking the rules was refused at POST /new: the address bar kept /new (a reload sent the form
    again), the error sat at the top of the page a screen above the army lists' form, and both lists were gone."""
    musters = Path(__file__).resolve().parents[2] / "examples" / "exillis" / "musters"
    mine, theirs = (musters / "invalid.yaml").read_text(), (musters / "brec_helean.toml").read_text()
    r = client.post("/new", data={"from": "musters", "game": "exillis", "muster_a": mine, "muster_b": theirs,
                                  "board": "6x4", "seed": "12", "practice": "1", "bot": "second"})
    assert r.status_code == 422 and r.headers["HX-Replace-Url"] == "/"  # a boosted form: the bar reads /
    page = html.unescape(r.text)
    assert '<h1 data-address="/">' in page  # keeper.js puts it in the bar after a full page load
    assert f'<textarea name="muster_a" rows="9" spellcheck="false">{mine}</textarea>' in page
    assert f'<textarea name="muster_b" rows="9" spellcheck="false">{theirs}</textarea>' in page
    assert 'name="board" value="6x4"' in page and 'value="12"' in page and 'value="second" selected' in page
    # the error is told once, focused, right above the form that was sent (not at the top of the page)
    assert page.count('class="banner error"') == 1
    banner = page.index('id="error" tabindex="-1" autofocus')
    assert page.index('id="musters-h-exillis"') < banner < page.index('name="muster_a"')
    assert "2 Generals named (Decurion, Marrenne)" in page
    # a scenario form: its scenario and seed come back; the army lists' forms stay empty
    r = client.post("/new", data={"scenario": "exillis:duel", "seed": "-4"})
    page = r.text
    assert r.status_code == 422 and r.headers["HX-Replace-Url"] == "/"
    assert 'value="exillis:duel" checked' in page and page.count('name="seed" value="-4"') == 1
    assert page.index('class="banner error"') < page.index('id="new-h"')
    js = (Path(__file__).resolve().parents[2] / "src/rulekeeper/web/static/keeper.js").read_text()
    assert 'querySelector("[data-address]")' in js and "ownAddress();" in js
    assert '<h1>Rule keeper</h1>' in client.get("/").text  # the plain home page says no address of its own
