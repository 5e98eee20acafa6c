"""What a walk through the web keeper as real players found, each kept from coming back.

The walk (a hex Battle System battle on a phone and a laptop, a War Table campaign, and a player
trying to win unfairly) found these; each test names what it saw:

* the Fate Screen, the captions, "Last action" and the log wrote an action as its raw values
  ("shoot A Bank Archers Raider Horse") for games whose presenter kept the generic wording;
* the log printed " AcP" with no number for games without action points;
* the waiting side had no way to the dice of the other side's last action but the log;
* ``?fate=N`` of another side's hidden orders printed those orders in the Fate Screen's heading;
* a refused form post left ``/b/{id}/act`` in the address bar (a reload answered a bare 405);
* the hex map's target marks were 15 CSS px on a phone, a barrage's forty hexes were listed ring by
  ring from the guns, not in map order, and a fleeing counter's white text sat on a pale fill;
* the campaign said "Your turn: Oathsworn + Bloodless" to one side, promised odds above its order form,
  "Bloodless (Bloodless) acts now",
  still "giving orders" after the last round, its map text was 4–6 px on a phone, two Enclaves ending
  at the same Stability wrote their names on top of each other, and its drop-downs were 19 px tall.

Page-level checks run on FastAPI's ``TestClient``; the sizes on screen need a browser (the last tests,
skipped without Debian's chromium).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_kit import Links, act, new, page, position

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.present import Links as PageLinks
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.battlesystem.web.picks import Entry, in_map_order
from rulekeeper.rulesets.wartable.campaign.web.presenter import LABEL_GAP, spread_labels
from rulekeeper.web.presenters import Presenters, words_of

# -- the Battle System: words, log, results of the other side ---------------------------------------------


@pytest.fixture
def shot_battle(client: TestClient) -> tuple[str, Links]:
    """A river crossing where side A's archers shot at the Raider Horse and revealed the results."""
    bid, tokens, _ = new(client, "battlesystem:river_crossing")
    r = act(client, bid, tokens["A"], kind="shoot", side="A", unit="Bank Archers", target="Raider Horse")
    assert r.status_code == 303, r.text
    r = client.post(f"/b/{bid}/reveal", data={"token": tokens["A"], "position": "1", "all": "1"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    return bid, tokens


def test_the_fate_screen_the_last_action_and_the_log_say_the_action_in_the_games_words(
        client: TestClient, shot_battle: tuple[str, Links]) -> None:
    bid, tokens = shot_battle
    raw, words = "shoot A Bank Archers Raider Horse", "Bank Archers shoots at Raider Horse"
    fate = page(client, bid, tokens["A"], fate=0, open="all")
    assert f"Fate Screen — {words}" in fate and f"Before: {words}" in fate
    for role in ("A", "B", "spectator"):
        for text in (page(client, bid, tokens[role]), page(client, bid, tokens[role], "/log"),
                     page(client, bid, tokens[role], "/replay", step=1)):
            assert words in text and raw not in text


def test_words_of_falls_back_on_the_actions_values_when_the_game_has_no_words() -> None:
    class Mute:
        pass

    class Broken:
        def action_text(self, action: dict[str, Any]) -> str:
            raise KeyError("unit")

    action = {"kind": "roll", "side": "A", "extra": None}
    assert words_of(Mute(), action) == "roll A"  # type: ignore[arg-type]
    assert words_of(Broken(), action) == "roll A"  # type: ignore[arg-type]


def test_the_log_prints_no_empty_action_points(client: TestClient, shot_battle: tuple[str, Links]) -> None:
    """The Battle System has no action points: its log said " AcP · results shown" with no number."""
    bid, tokens = shot_battle
    log = page(client, bid, tokens["B"], "/log")
    assert "AcP" not in log and "<small>results shown</small>" in log


def test_the_waiting_side_gets_a_way_to_the_results_of_the_other_sides_last_action(
        client: TestClient, shot_battle: tuple[str, Links]) -> None:
    bid, tokens = shot_battle
    for role in ("B", "spectator"):
        m = re.search(r'id="last-results" href="([^"]+)"', page(client, bid, tokens[role]))
        assert m is not None, role
        fate = client.get(html.unescape(m.group(1)))
        assert fate.status_code == 200 and "Raider Horse lose" in fate.text
    assert 'id="last-results"' not in page(client, bid, tokens["A"])  # it saw them on its own Fate Screen


def test_a_refused_post_puts_the_battle_page_back_in_the_address_bar(client: TestClient) -> None:
    """A stale commit from a phone that slept: 409, and htmx told to show the battle's own address."""
    bid, tokens, _ = new(client, "battlesystem:river_crossing")
    form = {"token": tokens["A"], "position": "0", "kind": "move", "side": "A", "unit": "Ford Pikes", "to": "D3"}
    assert client.post(f"/b/{bid}/act", data=form, follow_redirects=False).status_code == 303
    r = client.post(f"/b/{bid}/act", data=form, headers={"HX-Request": "true"}, follow_redirects=False)
    assert r.status_code == 409 and "(stale_state)" in r.text
    assert r.headers["HX-Replace-Url"] == f"/b/{bid}?token={tokens['A']}"
    assert position(client, bid, tokens["A"]) == 1


def test_target_marks_have_a_tap_area_as_large_as_the_enemy_counter_or_the_hex(client: TestClient) -> None:
    bid, tokens, _ = new(client, "battlesystem:river_crossing")
    board = page(client, bid, tokens["A"], unit="Bank Archers")
    assert "Choose an action to see its odds before you commit." in board  # pick links: the hint stays
    marks = re.findall(r'<a class="mark mark-shoot".*?</a>', board, re.S)
    assert len(marks) == 4 and all('<rect class="hit"' in m and 'width="48" height="52"' in m for m in marks)


def test_a_barrages_hexes_are_listed_in_map_order(client: TestClient) -> None:
    bid, tokens, _ = new(client, "battlesystem:river_crossing")
    assert act(client, bid, tokens["A"], kind="end_turn", side="A").status_code == 303
    board = page(client, bid, tokens["B"], unit="Hill Guns")
    group = re.search(r"<h3>Hill Guns: barrage</h3>.*?</form>", board, re.S)  # one picker (issue 26)
    assert group is not None
    hexes = re.findall(r'data-kind="barrage"[^>]*>→ ([A-H])(\d)', group.group(0))
    assert len(hexes) > 30 and hexes == sorted(hexes, key=lambda h: (int(h[1]), h[0]))


def test_a_fleeing_counter_is_written_dark_on_its_pale_fill() -> None:
    """White text on the pale fleeing counter (also made 70 % opaque by the keeper's own ``.counter.fleeing``)
    was about 2.9:1; it is dark now, the counter fully opaque, and the legend says what pale means."""
    g = game("battlesystem")
    scenario = next(s for s in g.scenarios() if s.key == "river_crossing")
    state = g.initial_state(g.setup(SetupRequest(scenario=scenario.path, seed=3)).document)
    for _ in range(200):  # the default policy until a unit flees (seed 3: after about twenty actions)
        if any(p.fleeing for p in state.units):
            break
        action = g.policy(state)
        assert action is not None, "the battle ended before anyone fled"
        state = g.apply(state, action).state
    board = str(Presenters().of(g).board(state, PageLinks("b-1", "t", 0, viewer="spectator")))
    fleeing = re.findall(r'<a [^>]*class="counter[^"]* fleeing".*?</a>', board, re.S)
    assert fleeing and all(m.count('fill="#1a1a1a"') == 3 and 'fill="#fff"' not in m for m in fleeing)
    assert ".hexboard a.counter.fleeing { opacity: 1; }" in board and "pale, dashed: fleeing" in board


def test_in_map_order_keeps_the_rules_order_when_a_label_names_no_hex() -> None:
    def entry(label: str) -> Entry:
        return Entry(0, "k", label, "", "", "")

    assert [e.label for e in in_map_order([entry("→ B2"), entry("→ A2"), entry("→ H1")])] == ["→ H1", "→ A2", "→ B2"]
    mixed = [entry("→ B2"), entry("rally the Foot")]
    assert in_map_order(mixed) == mixed


# -- the War Table campaign ----------------------------------------------------------------------------------


def orders(client: TestClient, bid: str, token: str, side: str, round_: int, **choices: str) -> Any:
    form = {"kind": "orders", "side": side, "round": str(round_)}
    return act(client, bid, token, **form, **{f"order:{u.replace('_', ' ')}": v for u, v in choices.items()})


def test_hidden_orders_stay_out_of_the_fate_screen_heading(client: TestClient) -> None:
    bid, tokens, _ = new(client, "wartable-campaign:shroudfall")
    r = orders(client, bid, tokens["oathsworn"], "oathsworn", 1, Hearthmere_Guard="reclaim", Lantern_Wardens="hold")
    assert r.status_code == 303, r.text
    for role in ("bloodless", "spectator"):
        fate = page(client, bid, tokens[role], fate=0, open="all")
        assert "Fate Screen — side oathsworn acted (hidden until it is revealed)" in fate
        assert "reclaim" not in fate.lower().replace("reclaim_fallen", "")


def test_the_campaign_speaks_to_each_side_and_stops_giving_orders_at_the_end(client: TestClient) -> None:
    bid, tokens, _ = new(client, "wartable-campaign:shroudfall")
    assert "Your turn: <bdi>Oathsworn</bdi></h2>" in page(client, bid, tokens["oathsworn"])
    hold = {"Hearthmere_Guard": "hold", "Lantern_Wardens": "hold"}
    assert orders(client, bid, tokens["oathsworn"], "oathsworn", 1, **hold).status_code == 303
    waiting = page(client, bid, tokens["oathsworn"]).replace("<bdi>", "").replace("</bdi>", "")  # names isolated
    assert "Bloodless acts now" in waiting and "Bloodless (Bloodless)" not in waiting
    blood = page(client, bid, tokens["bloodless"])
    assert "Your turn: <bdi>Bloodless</bdi></h2>" in blood and 'class="orders"' in blood
    assert "see its odds before you commit" not in blood  # an order form opens no preview: no odds promised
    for round_ in (1, 2, 3):
        if round_ > 1:
            assert orders(client, bid, tokens["oathsworn"], "oathsworn", round_, **hold).status_code == 303
        r = orders(client, bid, tokens["bloodless"], "bloodless", round_, Barrow_Horde="hold", Ford_Horde="hold")
        assert r.status_code == 303, r.text
        # the round's report shows both sides' orders: face down until its side turns it over (issue 25.2)
        shown = client.post(f"/b/{bid}/reveal", data={"token": tokens["bloodless"],
                                                      "position": str(position(client, bid, tokens["bloodless"]))},
                            follow_redirects=False)
        assert shown.status_code == 303, shown.text
    over = page(client, bid, tokens["oathsworn"])
    assert "The battle is over" in over and "giving orders" not in over and "orders given" not in over


def test_the_regions_are_written_out_for_a_phone(client: TestClient) -> None:
    bid, tokens, _ = new(client, "wartable-campaign:shroudfall")
    board = page(client, bid, tokens["spectator"])
    listed = re.search(r'<ul class="region-list" aria-label="Regions">(.*?)</ul>', board, re.S)
    assert listed is not None
    assert len(re.findall(r"<li data-region=", listed.group(1))) == 6
    assert "Enclave Hearthmere: Stability 70/100" in listed.group(1) and "Dungeon: The Barrow" in listed.group(1)


def test_enclave_names_on_the_chart_never_overlap() -> None:
    lines: list[dict[str, Any]] = [{"enclave": "A", "label_y": 50.0}, {"enclave": "B", "label_y": 50.0},
                                   {"enclave": "C", "label_y": 55.0}, {"enclave": "D", "label_y": 120.0}]
    chart: dict[str, Any] = {"lines": lines, "width": 420}
    spread = spread_labels(chart)
    ys = sorted(float(line["label_y"]) for line in spread["lines"])
    assert all(b - a >= LABEL_GAP for a, b in zip(ys, ys[1:], strict=False)) and ys[-1] == 120.0
    assert [line["enclave"] for line in spread["lines"]] == ["A", "B", "C", "D"] and spread["width"] == 420
    assert lines[1]["label_y"] == 50.0  # the chart given is left as it was


# -- sizes on screen: a phone and a laptop in Debian's chromium --------------------------------------------


PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
#: Smallest tap target, CSS px (the walk's yardstick; Apple and Google ask 44 and 48).
MIN_TAP = 40


@pytest.fixture(scope="module")
def keeper_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    from live_keeper import running_keeper

    with running_keeper(tmp_path_factory.mktemp("walk") / "web.db") as url:
        yield url


def links_of(ctx: Any, url: str, scenario: str) -> Links:
    r = ctx.request.post(url + "/new", form={"scenario": scenario, "seed": "7"})
    assert r.status == 201, r.text()
    return {k: html.unescape(v) for k, v in re.findall(r'id="link-([\w-]+)"[^>]*value="([^"]+)"', r.text())}


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return [b for b in (el.bounding_box() for el in page.locator(selector).all()) if b]


def test_on_a_phone_marks_preview_log_links_fit_a_thumb(keeper_url: str, browser: Any) -> None:
    from browser_kit import shot, sync_api

    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    p = ctx.new_page()
    links = links_of(ctx, keeper_url, "battlesystem:river_crossing")
    p.goto(links["A"])
    p.locator(".bs-units a[data-unit='Bank Archers']").click()
    sync_api.expect(p.locator(".bs-units a.picked")).to_have_attribute("data-unit", "Bank Archers")
    marks = boxes(p, "svg.hexmap a.mark")
    assert len(marks) == 4 and all(b["width"] >= MIN_TAP and b["height"] >= MIN_TAP for b in marks), marks
    p.locator("svg.hexmap a.mark[data-kind=shoot]").first.tap()  # the tap lands on the mark: the preview
    sync_api.expect(p.locator("#commit")).to_be_visible()
    label = p.locator(".preview .odds li .lbl").first  # "expected casualties" on one line, beside its number
    line = float(p.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)", label.element_handle()))
    assert (label.bounding_box() or {"height": 99})["height"] < 1.5 * line
    shot(p, "walk-preview-phone")
    p.locator("#commit").click()
    sync_api.expect(p.locator("#reveal-all")).to_be_visible()
    p.locator("#reveal-all").click()
    sync_api.expect(p.locator("#continue")).to_be_visible()
    p.goto(links["A"].replace("?", "/log?"))
    steps = boxes(p, "ol.log > li > p:first-child > a:first-child")
    assert steps and all(b["height"] >= MIN_TAP and b["width"] >= MIN_TAP for b in steps), steps
    assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ctx.close()


def test_the_campaign_on_a_phone_lists_the_regions_readably_and_its_drop_downs_fit_a_thumb(
        keeper_url: str, browser: Any) -> None:
    from browser_kit import shot

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    laptop = browser.new_context(viewport=LAPTOP)
    links = links_of(phone, keeper_url, "wartable-campaign:shroudfall")
    p, q = phone.new_page(), laptop.new_page()
    p.goto(links["oathsworn"])
    q.goto(links["bloodless"])
    assert p.locator(".region-list").is_visible()
    size = float(p.evaluate("parseFloat(getComputedStyle(document.querySelector('.region-list li')).fontSize)"))
    assert size >= 12, size
    selects = boxes(p, "form.orders select")
    assert len(selects) == 3 and all(b["height"] >= MIN_TAP for b in selects), selects
    chart = p.evaluate("""() => [...document.querySelectorAll('svg.stability-chart text')].map(
        t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)""")
    assert min(chart) >= 10, chart  # the chart's text, as drawn on the phone
    assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    laptop_list = q.locator(".region-list").bounding_box()  # the laptop reads the map; the list is for readers
    assert laptop_list is not None and laptop_list["height"] <= 1
    shot(p, "walk-campaign-phone")
    phone.close()
    laptop.close()
