"""The whole-action odds bars on a phone (issue 27), in Debian's chromium at 390×844.

The web preview panel leads with the whole action's distribution ("a small bar chart readable on a
phone"), then the per-draw Fate Screen: a volley of the Forest Fence scenario, picked on side A's
page. Measured with ``getBoundingClientRect``: the chart inside the viewport's width with no sideways
scroll, above the Fate Screen's Commit, text at a readable size, each bar as wide as its chance
relative to the likeliest outcome (``web/whole.py``), and the numbers those of the game's own
``whole_odds``. A screenshot lands in ``test-artifacts/``.
"""

from __future__ import annotations

from browser_kit import keeper_fixture, page_errors, shot, sync_api
from rulekeeper.core.ruleset import game

server = keeper_fixture("whole-browser")

PHONE = {"width": 390, "height": 844}
BOX = "(e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }"
BARS = """(m) => [...m.querySelectorAll('.whole-row')].map(r => [r.querySelector('.whole-out').textContent,
  r.querySelector('.whole-p').textContent, r.querySelector('.whole-bar > span').getBoundingClientRect().width,
  r.querySelector('.whole-bar').getBoundingClientRect().width])"""


def test_the_whole_odds_bars_fit_and_read_on_a_phone(server: str, browser: object) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    try:
        b = ctx.request.post(server + "/api/battles", data={"scenario": "forest_fence", "seed": 3}).json()
        token = b["tokens"]["A"]
        acts = ctx.request.get(f"{server}/api/battles/{b['id']}/actions", params={"token": token}).json()["actions"]
        n = next(i for i, a in enumerate(acts) if a["kind"] == "shoot" and a["target"] == "D3")
        page = ctx.new_page()
        errors = page_errors(page)
        page.goto(f"{server}/b/{b['id']}?token={token}&pick={n}&at=0")
        chart = page.locator("#whole-odds")
        sync_api.expect(chart).to_be_visible(timeout=15_000)
        left, top, right, _bottom = chart.evaluate(BOX)
        assert 0 <= left and right <= PHONE["width"], (left, right)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        commit = page.get_by_text("Commit:").first
        assert top < commit.evaluate(BOX)[1]  # the whole action first, the Fate Screen below it
        killed = chart.locator("figure.whole-measure").first
        assert "enemy miniatures killed" in killed.locator("figcaption").inner_text()
        rows = killed.evaluate(BARS)
        assert len(rows) >= 2
        font = float(killed.locator(".whole-row").first.evaluate("(e) => getComputedStyle(e).fontSize")[:-2])
        assert font >= 12, font  # readable without zooming
        # the numbers are the game's own whole odds of this action (as the CLI shows them), in its order
        g = game("exillis")
        state = g.initial_state(g.setup(_request()).document)
        odds = g.whole_odds(state, acts[n])
        assert odds is not None
        want = [(o, p) for o, p in odds.measures[0].outcomes if p > 0]
        assert [r[0] for r in rows] == [o for o, _ in want]
        top_p = max(p for _, p in want)
        for (_o, _text, width, track), (_, p) in zip(rows, want, strict=True):
            assert track > 60  # each bar has room to be read on a 390 px screen
            assert abs(width - track * p / top_p) <= 1.5 or (width <= 1.5 and p / top_p < 0.01), (width, track, p)
        shot(page, "whole-odds-phone")
        assert not errors, errors
    finally:
        ctx.close()


def _request() -> object:
    from rulekeeper.core.game import SetupRequest

    sc = next(s for s in game("exillis").scenarios() if s.key == "forest_fence")
    return SetupRequest(scenario=sc.path, seed=3)
