"""Solo play in a real browser (issue 28): a phone creates a seeded Duel where the keeper plays side B,
plays side A through the pages to the end screen, the keeper's moves arriving by themselves (live
updates), and the spectator's page says why the keeper chose its last move."""

from __future__ import annotations

import time

from browser_kit import keeper_fixture, page_errors, shot, sync_api

server = keeper_fixture("keeper-browser")

PRIORITY = ["charge", "shoot", "fight", "move", "wait"]
TIMEOUT_MS = 20_000
#: What the player's page may show next: its turn, its results to turn over, or the end screen.
NEXT = "a.btn.act, #reveal, #resolve-all, #continue, #result"


def test_a_phone_plays_a_whole_battle_against_the_keeper(server: str, browser: object) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    p = ctx.new_page()
    errors = page_errors(p)
    p.goto(server + "/")
    form = p.locator("form.new-battle").first
    form.locator('input[name=scenario][value="exillis:duel"]').check()
    form.locator("details.rule-options summary").click()  # the rules options: only the chosen game's show
    shown = form.locator("fieldset.rule-options-game:visible")
    expect(shown).to_have_count(1)
    assert shown.get_attribute("data-game") == "exillis"
    expect(shown.locator("select[name='option.exillis.luck_damage']")).to_have_value("x1.5")
    form.locator("input[name=seed]").fill("3")
    form.locator("select[name=bot]").select_option("second")
    form.locator("select[name=strength]").select_option("easy")
    form.get_by_role("button", name="Create the battle").click()
    expect(p.locator("#keeper-note")).to_contain_text("played by the keeper")
    assert p.locator("#link-B").count() == 0  # the keeper's side has no link
    spectator = p.locator("#link-spectator").input_value()
    p.locator("#open-A").click()
    started = time.monotonic()
    for _ in range(60):
        p.locator(NEXT).first.wait_for()
        if p.locator("#result").count():
            break
        if p.locator("#reveal").count():
            p.locator("#reveal").click()
            expect(p.locator("#reveal")).to_have_count(0)
        elif p.locator("#resolve-all").count():
            p.locator("#resolve-all").click()
            expect(p.locator("#resolve-all")).to_have_count(0)
        elif p.locator("#continue").count():
            p.locator("#continue").click()
            expect(p.locator("#continue")).to_have_count(0)
        else:
            kind = next(k for k in PRIORITY if p.locator(f"a.btn.act[data-kind={k}]").count())
            p.locator(f"a.btn.act[data-kind={kind}]").first.click()
            p.locator("#commit").click()
            expect(p.locator("#commit")).to_have_count(0)
    else:
        raise AssertionError("the battle did not end in 60 steps")
    expect(p.locator("#result")).to_be_visible()
    seconds = time.monotonic() - started
    shot(p, "keeper-result-phone")
    assert p.evaluate("document.documentElement.scrollWidth") <= 392
    # the keeper played its side: its moves are in the log, and the spectator sees why it chose the last one
    p.goto(spectator)
    expect(p.locator("#result")).to_be_visible()
    expect(p.locator("#keeper-why")).to_contain_text("Why the keeper played")
    shot(p, "keeper-why-spectator-phone")
    p.goto(spectator.replace("?", "/log?"))
    assert p.locator("ol.log > li", has_text="Vileins").count() >= 1  # side B's unit in the Duel
    assert not errors, errors
    assert seconds < 50, f"the battle took {seconds:.0f} s"
    ctx.close()
