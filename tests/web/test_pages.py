"""The HTML pages: rendering, the same 404 for unknown battles and bad links, the authorization
of the API, hidden results and undo, escaping, offline assets, no 500 on malformed input."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.ruleset import game as _game
from rulekeeper.rulesets.exillis.profiles import load_profiles
from rulekeeper.rulesets.exillis.rules_data import load_rules_data
from rulekeeper.rulesets.exillis.scenario import load_scenario
from rulekeeper.service.scenarios import find_scenario
from rulekeeper.web.api import create_app

EXILLIS = _game("exillis")

STATIC = Path(__file__).resolve().parents[2] / "src" / "rulekeeper" / "web" / "static"


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)


def new_battle(client: TestClient, scenario: str = "duel", seed: int = 3) -> dict[str, Any]:
    r = client.post("/new", data={"scenario": scenario, "seed": str(seed)})
    assert r.status_code == 201, r.text
    urls = re.findall(r'<input id="link-(\w+)" type="text" readonly value="([^"]+)"', r.text)
    links = {role: html.unescape(url).replace("http://testserver", "") for role, url in urls}
    bid = links["A"].split("/")[2].split("?")[0]
    tokens = {role: link.split("token=")[1] for role, link in links.items()}
    return {"id": bid, "links": links, "tokens": tokens}


def hrefs(text: str, needle: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r'href="([^"]+)"', text) if needle in html.unescape(h)]


def position(client: TestClient, b: dict[str, Any]) -> int:
    return int(client.get(f"/api/battles/{b['id']}", params={"token": b["tokens"]["A"]}).json()["position"])


def act_form(text: str) -> dict[str, str]:
    form = re.search(r'<form method="post" action="/b/[^"]+/act".*?</form>', text, re.S)
    assert form, "no commit form"
    return {k: html.unescape(v) for k, v in re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0))}


def test_home_renders_offline_for_a_phone(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in r.text
    assert '<script src="/static/htmx.min.js"' in r.text and "Duel" in r.text and "Starter armies" in r.text
    assert not re.search(r'(src|href)="(https?:)?//', r.text)


def test_htmx_and_css_are_served_from_the_package(client: TestClient) -> None:
    js = client.get("/static/htmx.min.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert js.content == (STATIC / "htmx.min.js").read_bytes() and b"htmx" in js.content[:2000]
    assert "2.0.11" in (STATIC / "VENDORED.md").read_text() and "Zero-Clause BSD" in (STATIC / "VENDORED.md").read_text()
    import hashlib

    sse = client.get("/static/htmx-ext-sse.min.js")  # the live updates' extension: vendored, checksummed
    digest = hashlib.sha256(sse.content).hexdigest()
    assert sse.status_code == 200 and digest in (STATIC / "VENDORED.md").read_text() and b"sse" in sse.content
    css = client.get("/static/style.css")
    assert css.status_code == 200 and ":focus-visible" in css.text and "@media" in css.text
    assert client.get("/static/../api.py").status_code == 404


def test_pages_stay_out_of_the_api_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert paths and all(p.startswith("/api/") for p in paths)


def test_creating_gives_three_links_and_each_page_renders(client: TestClient) -> None:
    b = new_battle(client)
    assert set(b["links"]) == {"A", "B", "spectator"} and len(set(b["tokens"].values())) == 3
    pages = {role: client.get(link) for role, link in b["links"].items()}
    for role, r in pages.items():
        assert r.status_code == 200, (role, r.text[:500])
        assert '<meta name="viewport"' in r.text and 'class="board"' in r.text and 'class="turnbar"' in r.text
        assert not re.search(r'(src|href|action)="(https?:)?//', r.text), role
        # the live fragment follows the server's events, and polls as a fallback
        assert 'hx-trigger="sse:changed, every 2s"' in r.text and 'sse-connect="/b/' in r.text
        for form in re.findall(r"<form[^>]*>", r.text):  # every form works without JS
            assert 'method="post"' in form and 'action="/' in form, form
    assert "Your turn" in pages["A"].text and hrefs(pages["A"].text, "pick=")
    for role in ("B", "spectator"):
        assert not hrefs(pages[role].text, "pick=") and "/act" not in pages[role].text
        assert 'id="undo"' not in pages[role].text
    assert "Spectator" in pages["spectator"].text and "Side B" in pages["B"].text
    assert client.get("/new").status_code == 303


def test_unknown_battle_and_bad_token_give_the_same_404(client: TestClient) -> None:
    b = new_battle(client)
    bid, tok = b["id"], b["tokens"]["A"]
    for sub in ("", "/log", "/replay", "/unit"):
        responses = [client.get(f"/b/b-nope{sub}", params={"token": tok}),
                     client.get(f"/b/{bid}{sub}", params={"token": "x" * 32}),
                     client.get(f"/b/{bid}{sub}"),
                     client.get(f"/b/{bid}{sub}", params={"token": "y" * 5000})]
        assert {r.status_code for r in responses} == {404}, sub
        assert len({r.text for r in responses}) == 1, sub
        assert "no such battle, or the link is not valid" in responses[0].text
    for path in ("act", "undo", "reveal"):
        r1 = client.post(f"/b/b-nope/{path}", data={"token": tok, "position": "0"})
        r2 = client.post(f"/b/{bid}/{path}", data={"token": "z" * 32, "position": "0"})
        assert r1.status_code == r2.status_code == 404 and r1.text == r2.text
    assert client.get(f"/b/{bid}/live", params={"token": "bad"}).status_code == 404


def test_acting_with_the_other_sides_or_the_spectators_link_is_refused(client: TestClient) -> None:
    b = new_battle(client)
    page = client.get(b["links"]["A"]).text
    preview = client.get(hrefs(page, "pick=")[0]).text
    form = act_form(preview)
    for role, status, words in (("B", 403, "belongs to the other side"), ("spectator", 403, "spectators cannot act")):
        r = client.post(f"/b/{b['id']}/act", data={**form, "token": b["tokens"][role]})
        assert r.status_code == status and words in r.text and 'class="banner error"' in r.text
        assert "Not allowed" in r.text and not r.text.lstrip().startswith("{")
    assert position(client, b) == 0
    r = client.post(f"/b/{b['id']}/act", data={**form, "position": "7"})
    assert r.status_code == 409 and "The battle moved on" in r.text
    assert position(client, b) == 0


@pytest.mark.parametrize("payload", [
    {}, {"position": "abc"}, {"position": "-1"}, {"position": "0"}, {"position": "0", "kind": "fly", "unit": "A:Hobelars"},
    {"position": "0", "kind": "move", "unit": "Nobody"}, {"position": "0", "kind": "move", "unit": "A:Hobelars", "target": "Z99"},
    {"position": "0", "kind": "move", "unit": "A:Hobelars", "target": "x" * 500},
    {"position": "99999999999999999999", "kind": "wait", "unit": "A:Hobelars"},
])
def test_malformed_forms_get_a_4xx_page_never_a_500(client: TestClient, payload: dict[str, str]) -> None:
    b = new_battle(client)
    for path in ("act", "undo", "reveal"):
        r = client.post(f"/b/{b['id']}/{path}", data={"token": b["tokens"]["A"], **payload})
        assert 400 <= r.status_code < 500, (path, payload, r.status_code)
        assert "text/html" in r.headers["content-type"] and 'role="alert"' in r.text
    assert position(client, b) == 0


def test_odd_requests_are_4xx_or_ignored(client: TestClient) -> None:
    b = new_battle(client)
    bid, a = b["id"], b["tokens"]["A"]
    r = client.post(f"/b/{bid}/act", params={"token": a}, content=b'{"kind": "wait"}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and "expected a form" in r.text
    r = client.post(f"/b/{bid}/act", data={"token": a, "position": "0", "kind": "wait", "unit": "A:Hobelars",
                                           "junk": "j" * 20_000})
    assert r.status_code == 422
    for q in ({"pick": "abc"}, {"pick": "999", "at": "0"}, {"fate": "x"}, {"fate": "50"}, {"open": "-3"},
              {"unit": "nobody"}, {"note": "<b>hi</b>"}, {"step": "zz"}):
        r = client.get(f"/b/{bid}", params={"token": a, **q})
        assert r.status_code == 200, q
        assert "<b>hi</b>" not in r.text
    assert client.get(f"/b/{bid}/replay", params={"token": a, "step": "-5"}).status_code == 200
    assert client.get(f"/b/{bid}/unit", params={"token": a, "key": "nobody"}).status_code == 422
    for bad in ({"seed": "abc"}, {"scenario": "nowhere"}, {"seed": "-1", "scenario": "duel"}):
        r = client.post("/new", data=bad)
        assert r.status_code == 422 and 'role="alert"' in r.text


def test_everything_is_escaped(client: TestClient) -> None:
    b = new_battle(client)
    evil = "<script>alert(1)</script>"
    r = client.post(f"/b/{b['id']}/act", data={"token": b["tokens"]["A"], "position": "0", "kind": "move", "unit": evil})
    assert r.status_code == 422 and evil not in r.text and "&lt;script&gt;" in r.text
    r = client.get(b["links"]["A"] + "&unit=" + evil)
    assert evil not in r.text


def test_a_charge_hides_its_results_until_revealed_then_cannot_be_undone(client: TestClient) -> None:
    b = new_battle(client)
    bid, links, toks = b["id"], b["links"], b["tokens"]
    page_a = client.get(links["A"]).text
    charge = next(h for h in hrefs(page_a, "pick=") if f'href="{html.escape(h)}" data-kind="charge"' in page_a)
    preview = client.get(charge).text
    assert "How the odds were made" in preview and "Reacts" in preview and "Attack" in preview and "%" in preview
    form = act_form(preview)
    assert form["kind"] == "charge" and form["target"] == "C2"
    r = client.post(f"/b/{bid}/act", data=form)
    assert r.status_code == 303
    a_page = client.get(r.headers["location"]).text
    assert "Reveal the first result" in a_page and "face down" in a_page and "Undo (nothing seen yet)" in a_page
    assert "dmg" not in a_page  # nothing of the results reaches the page yet
    # not even how many there are: a charge's reactions are drawn, so the count could be peeked at, then undone
    assert "results drawn" not in a_page and 'class="back"' not in a_page
    b_page = client.get(links["B"]).text
    assert "Fate is being revealed" in b_page and "dmg" not in b_page and "pick=" not in b_page
    assert "M70" in b_page  # side B still sees its unit as it was before the charge
    log = client.get(f"/b/{bid}/log", params={"token": toks["B"]}).text
    assert "Results not revealed yet" in log
    # live updates: nothing new for a client at the current version, the new region otherwise
    assert client.get(f"/b/{bid}/live", params={"token": toks["B"], "v": "1.1"}).status_code == 204
    frag = client.get(f"/b/{bid}/live", params={"token": toks["B"], "v": "0.0"})
    assert frag.status_code == 200 and frag.text.startswith('<div id="live"') and "<html" not in frag.text
    # revealing is for the side that acted
    assert client.post(f"/b/{bid}/reveal", data={"token": toks["B"], "position": "1"}).status_code == 403
    # nothing was seen: the charge may be taken back, then played again
    r = client.post(f"/b/{bid}/undo", data={"token": toks["A"], "position": "1"})
    assert r.status_code == 303 and "note=undone" in r.headers["location"]
    assert "taken back" in client.get(r.headers["location"]).text and position(client, b) == 0
    assert client.post(f"/b/{bid}/act", data=form).status_code == 303
    # while the results are face down nobody plays on (the page rule; the API leaves it to clients)
    r = client.post(f"/b/{bid}/act", data={"token": toks["B"], "position": "1", "kind": "fight", "unit": "B:Vileins"})
    assert r.status_code == 409 and "Reveal the results first" in r.text and position(client, b) == 1
    r = client.post(f"/b/{bid}/reveal", data={"token": toks["A"], "position": "1"})
    assert r.status_code == 303 and "fate=0" in r.headers["location"] and "open=1" in r.headers["location"]
    fate = client.get(r.headers["location"]).text
    assert 'id="card-1"' in fate and 'id="card-2"' not in fate and "Reveal next" in fate and "Resolve all" in fate
    everything = client.get(links["A"] + "&fate=0&open=all").text
    assert 'id="card-2"' in everything and "face down" not in everything and "Continue" in everything
    r = client.post(f"/b/{bid}/undo", data={"token": toks["A"], "position": "1"})
    assert r.status_code == 409 and "Cannot undo" in r.text and "already shown" in r.text
    assert position(client, b) == 1
    # now side B sees the battle after the charge and may act
    b_page = client.get(links["B"]).text
    assert "Your turn" in b_page and "⚔A" in b_page
    assert client.get(f"/b/{bid}/live", params={"token": toks["B"], "v": "1.1"}).status_code == 200


def test_the_end_screen_log_and_replay(client: TestClient) -> None:
    b = new_battle(client)
    bid, toks = b["id"], b["tokens"]
    keeper = client.app.state.keeper  # type: ignore[attr-defined]
    keeper.service.autoplay(bid)
    n = position(client, b)
    last = keeper.store.entry(bid, n - 1)
    assert last.result.get("chance") and not last.shown
    # the last blow is face down: nobody, the spectator included, sees the end screen before it is revealed
    for role in ("A", "B", "spectator"):
        page = client.get(b["links"][role]).text
        assert "Battle over" not in page and "Winner" not in page and "not revealed yet" in page
        assert "hx-trigger" in page  # still polling: a page that stopped would tell the battle is over
    last_side = EXILLIS.side_of(last.action)
    other = "B" if last_side == "A" else "A"
    refused = client.post(f"/b/{bid}/reveal", data={"token": toks[other], "position": str(n)})
    assert refused.status_code == 403 and not keeper.store.entry(bid, n - 1).shown
    revealed = client.post(f"/b/{bid}/reveal", data={"token": toks[last_side], "position": str(n)})
    assert revealed.status_code == 303 and keeper.store.entry(bid, n - 1).shown
    for role in ("A", "B", "spectator"):
        page = client.get(b["links"][role]).text
        assert "Battle over" in page and "Winner: side A" in page and "hx-trigger" not in page
    log = client.get(f"/b/{bid}/log", params={"token": toks["spectator"]}).text
    assert log.count('<li class="side-') == n and "Hobelars: charge to C2" in log
    steps = [client.get(f"/b/{bid}/replay", params={"token": toks["B"], "step": str(s)}) for s in range(n + 1)]
    assert all(r.status_code == 200 for r in steps)
    assert f"Step 0 of {n}" in steps[0].text and "as deployed" in steps[0].text and "fcard" not in steps[0].text
    assert f"Step 1 of {n}" in steps[1].text and "fcard" in steps[1].text
    assert "Battle over" in steps[-1].text and "Battle over" not in steps[1].text
    assert f"Step {n} of {n}" in client.get(f"/b/{bid}/replay", params={"token": toks["B"]}).text
    # the last action's Fate Screen can still be shown once the battle is over
    fate = client.get(b["links"]["A"] + f"&fate={n - 1}&open=0").text
    assert "Reveal next" in fate and "Fate Screen" in fate
    r = client.post(f"/b/{bid}/act", data={"token": toks["A"], "position": str(n), "kind": "wait", "unit": "A:Hobelars"})
    assert r.status_code == 409 and "The battle is over" in r.text


def test_the_unit_panel_shows_every_stat(client: TestClient) -> None:
    b = new_battle(client)
    page = client.get(b["links"]["B"] + "&unit=A%3AHobelars").text
    assert 'id="unit-panel"' in page and "Charge power" in page and "Hit points" in page and "Resistances" in page
    frag = client.get(f"/b/{b['id']}/unit", params={"token": b["tokens"]["spectator"], "key": "B:Vileins"})
    assert frag.status_code == 200 and "Cowards" in frag.text and "<html" not in frag.text


def test_each_game_brings_its_own_presenter_and_templates() -> None:
    from rulekeeper.web.presenters import Presenters

    presenters = Presenters()
    assert type(presenters.of(EXILLIS)).__name__ == "ExIllisPresenter"
    assert presenters.env.get_template("exillis/board.html") is not None  # mounted under the game's name
    with pytest.raises(UnknownNameError):
        _game("hexes")


def test_the_duel_scenario_validates_and_ends_quickly(client: TestClient) -> None:
    sc = load_scenario(find_scenario("duel").info.path)
    assert sc.problems(load_profiles(), load_rules_data()) == [] and sc == sc.normalised()
    svc = client.app.state.keeper.service  # type: ignore[attr-defined]
    for seed in range(5):
        bid = svc.new(find_scenario("duel").info.path, seed)
        state = svc.autoplay(bid, max_actions=40)
        assert state.over and len(svc.store.entries(bid)) <= 20


MUSTERS = Path(__file__).resolve().parents[2] / "examples" / "exillis" / "musters"


def test_a_battle_from_two_pasted_musters(client: TestClient) -> None:
    a, b = MUSTERS / "broken_wing.yaml", MUSTERS / "brec_helean.toml"
    if not (a.exists() and b.exists()):
        pytest.skip("the example musters are not there")
    r = client.post("/new", data={"from": "musters", "muster_a": a.read_text(), "muster_b": b.read_text(),
                                  "board": "5x4", "seed": "4"})
    assert r.status_code == 201, r.text[:2000]
    link = html.unescape(re.search(r'id="link-A" type="text" readonly value="([^"]+)"', r.text).group(1))
    page = client.get(link.replace("http://testserver", "")).text
    assert "Broken Wing vs Brec&#39;Helean" in page and "Billmen" in page and "Marrenne" in page
    bid = link.split("/b/")[1].split("?")[0]
    assert client.app.state.keeper.store.get(bid).meta.get("musters")  # type: ignore[attr-defined]
    for bad in ({"muster_a": "", "muster_b": b.read_text()}, {"muster_a": "name: [unclosed", "muster_b": "x"},
                {"muster_a": a.read_text(), "muster_b": b.read_text(), "board": "1x1"},
                {"muster_a": a.read_text(), "muster_b": "name: X\ngame_type: Common\nunits:\n  - unit: Nobody\n"},
                {"muster_a": "units: 3", "muster_b": b.read_text()}):
        r = client.post("/new", data={"from": "musters", **bad})
        assert 400 <= r.status_code < 500 and 'role="alert"' in r.text, (bad, r.status_code)


def test_phone_first_markup_explains_every_number_and_locks_a_seen_undo(client: TestClient) -> None:
    """Full morale names, a legend and tooltips for every number, feedback inside the panel, the locked undo disabled."""
    b = new_battle(client, "starter", seed=7)
    bid, links, toks = b["id"], b["links"], b["tokens"]
    page = client.get(links["A"]).text
    states = re.findall(r'<span class="mstate">([^<]*)</span>', page)
    assert states and {s.replace("\u00ad", "") for s in states} <= {
        "Overconfident", "Confident", "Neutral", "Shaky", "Broken", "Fleeing", "Disabled", "Furious"}, states
    assert 'id="legend"' in page and "Round 0.8" in page and "AcP</abbr>" in page
    for what in ("Hit points left", "miniatures standing", 'title="Morale ', 'title="Fatigue ', 'class="clock" title='):
        assert what in page, what
    assert "style=\"min-width" not in page and 'style="--cols: 5"' in page  # the stylesheet fits it to a phone
    # an action that drew chance, revealed: the undo is still shown, disabled and explained, never a 409 trap
    for _ in range(12):
        acts = client.get(f"/api/battles/{bid}/actions", params={"token": toks["A"]}).json()
        if acts["side"] == "A" and any(a["kind"] == "shoot" for a in acts["actions"]):
            break
        tok = toks[acts["side"]]
        acts = client.get(f"/api/battles/{bid}/actions", params={"token": tok}).json()
        w = next(a for a in acts["actions"] if a["kind"] == "wait")
        client.post(f"/api/battles/{bid}/actions", params={"token": tok},
                    json={"kind": "wait", "unit": w["unit"], "position": acts["position"]})
    page = client.get(links["A"]).text
    shoot = next(h for h in hrefs(page, "pick=") if f'href="{html.escape(h)}" data-kind="shoot"' in page)
    preview = client.get(shoot).text
    # Commit comes before the long odds tables
    assert preview.index('id="commit"') < preview.index("How the odds were made")
    assert client.post(f"/b/{bid}/act", data=act_form(preview)).status_code == 303
    at = position(client, b)
    r = client.post(f"/b/{bid}/reveal", data={"token": toks["A"], "position": str(at)})
    fate = client.get(r.headers["location"]).text
    undo = re.search(r'<button[^>]*id="undo"[^>]*>', fate)
    assert undo and "disabled" in undo.group(0) and 'aria-describedby="undo-why"' in undo.group(0)
    assert 'id="undo-why"' in fate and "results were shown" in fate and "locked: results seen" not in fate
    # refused all the same when posted (a stale page), with the banner at the top of the panel, focused
    r = client.post(f"/b/{bid}/undo", data={"token": toks["A"], "position": str(at)})
    assert r.status_code == 409
    panel = r.text[r.text.index('<aside id="panel"'):]
    assert panel.index('class="banner error"') < panel.index("</aside>") and 'id="error" tabindex="-1" autofocus' in panel
    # a move's undo is confirmed at the top of the panel, where the page scrolls
    r = client.get(links["A"] + "&note=undone").text
    assert r.index('<aside id="panel"') < r.index('class="banner ok"') < r.index('class="turnbar')
