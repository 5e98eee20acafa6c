"""A War Table engagement in a real browser (issue 25): the attackers on a laptop (1366×900), the
defenders on a phone (390×844). Each link sees the readable engagement page (both sides' units,
Health, Attack, Defense, the region's traits), not the generic key/value dump; the attackers attack,
then the defenders' phone gets its turn and answers; both pages end on the resolved battle: the
Oathsworn 100 → 86, the Horde 150 → 94 (the seed's worked example), with each side's step-4 split.
"""

from __future__ import annotations

from browser_kit import keeper_fixture, new_game_links, page_errors, shot, sync_api

TIMEOUT_MS = 10_000

server = keeper_fixture("wt-engagement-browser")


def test_attackers_on_a_laptop_and_defenders_on_a_phone(server: str, browser: object) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    laptop = browser.new_context(viewport={"width": 1366, "height": 900})  # type: ignore[attr-defined]
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    links = new_game_links(laptop, server, "wartable:oathsworn_vs_bloodless")
    assert set(links) == {"attackers", "defenders", "spectator"}
    pa, pd = laptop.new_page(), phone.new_page()
    errors = page_errors(pa, pd)
    pa.goto(links["attackers"])
    pd.goto(links["defenders"])
    for p in (pa, pd):
        expect(p.locator("#engagement .side")).to_have_count(2)
        expect(p.locator("#engagement .unit[data-unit='Bloodless Horde']")).to_contain_text("Health 150")
        expect(p.locator("#whose-turn")).to_contain_text("Oathsworn (Attackers) to attack")
        # readable on its screen: no sideways scrolling, no key/value dump
        assert p.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert p.locator("section.board.generic, dl.view").count() == 0
    height = pd.evaluate("document.documentElement.scrollHeight")
    assert height < 2600, height  # the generic dump was 4,900 px
    shot(pa, "wt-engagement-laptop-attack")

    pa.locator("a.act").first.click()
    expect(pa.locator("#commit")).to_be_visible()
    pa.locator("#commit").click()
    expect(pa.locator("#commit")).to_have_count(0)

    # the defenders' phone gets its turn
    pd.reload()
    expect(pd.locator("#whose-turn")).to_contain_text("Bloodless (Defenders) to answer the attack")
    shot(pd, "wt-engagement-phone-defend")
    pd.locator("a.act").first.click()
    expect(pd.locator("#commit")).to_contain_text("defend")
    pd.locator("#commit").click()
    for p in (pd, pa):
        if p is pa:
            p.reload()
        expect(p.locator("#whose-turn")).to_contain_text("resolved")
        expect(p.locator("#engagement .unit[data-unit='Oathsworn Vanguard'] .after")).to_have_text("86")
        expect(p.locator("#engagement .unit[data-unit='Bloodless Horde'] .after")).to_have_text("94")
        expect(p.locator("#battle-steps li.split")).to_have_count(2)
    shot(pd, "wt-engagement-phone-resolved")
    shot(pa, "wt-engagement-laptop-resolved")
    assert not errors, errors
    laptop.close()
    phone.close()
