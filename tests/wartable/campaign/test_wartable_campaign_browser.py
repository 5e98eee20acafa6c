"""A campaign round given in a real browser: the Oathsworn on one link, the Bloodless on another.

Two browser contexts (two players' machines) open the two side links of a seeded Shroudfall
campaign. Each sees the SVG region map and its own order form; the Oathsworn give theirs first
(Reclaim at Hearthmere, Faith for Lantern Hill) and the Bloodless page does not show them; when the
Bloodless give theirs (the Ford Horde marches on Old Watch) the round resolves face down, the
Bloodless turn its report over (it shows the other side's orders, so it is never undone after) and both pages show
round 2, Hearthmere at 90 and Lantern Hill at 100 (Reclaim +20, Faith to full).
"""

from __future__ import annotations

from browser_kit import keeper_fixture, new_game_links, page_errors, shot, sync_api

TIMEOUT_MS = 10_000


server = keeper_fixture("wt-campaign-browser")


def test_orders_from_two_sides_resolve_the_round(server: str, browser: object) -> None:
    expect = sync_api.expect
    expect.set_options(timeout=TIMEOUT_MS)
    ctx_o = browser.new_context()  # type: ignore[attr-defined]
    ctx_b = browser.new_context()  # type: ignore[attr-defined]
    links = new_game_links(ctx_o, server, "wartable-campaign:shroudfall")
    assert set(links) == {"oathsworn", "bloodless", "spectator"}
    po, pb = ctx_o.new_page(), ctx_b.new_page()
    errors = page_errors(po, pb)
    po.goto(links["oathsworn"])
    pb.goto(links["bloodless"])

    for p in (po, pb):
        expect(p.locator("svg.region-map g.region")).to_have_count(6)
        expect(p.locator("svg.region-map text.enclave[data-enclave='Hearthmere']")).to_contain_text("70/100")
        expect(p.locator("#orders-form")).to_be_visible()
    expect(po.locator("#orders-form select[data-unit='Hearthmere Guard']")).to_have_count(1)
    expect(po.locator("#orders-form select[data-unit='Ford Horde']")).to_have_count(0)
    expect(pb.locator("#orders-form select[data-unit='Ford Horde']")).to_have_count(1)
    shot(po, "wt-campaign-orders-oathsworn")

    # the Oathsworn give theirs: the page then waits, and shows its own orders only to itself
    po.locator("select[data-unit='Hearthmere Guard']").select_option("reclaim")
    po.locator("select[name=faith]").select_option("Lantern Hill")
    po.locator("#give-orders").click()
    expect(po.locator("#orders-form")).to_have_count(0)
    expect(po.locator(".my-orders")).to_contain_text("Hearthmere Guard Reclaims")
    pb.reload()
    expect(pb.locator("#orders-form")).to_be_visible()
    assert "Reclaims" not in pb.content() and "restores Lantern Hill" not in pb.content()

    # the Bloodless give theirs: the round resolves, for both links
    pb.locator("select[data-unit='Ford Horde']").select_option("move:Old Watch")
    pb.locator("#give-orders").click()
    # the round's report shows the Oathsworn orders: face down until the Bloodless turn it over (issue 25)
    expect(pb.locator("#reveal-all")).to_be_visible()
    pb.locator("#reveal-all").click()
    expect(pb.locator("#continue")).to_be_visible()
    pb.locator("#continue").click()
    for p in (pb, po):
        if p is po:
            p.reload()
        expect(p.locator("svg.region-map text.enclave[data-enclave='Hearthmere']")).to_contain_text("90/100")
        expect(p.locator("svg.region-map text.enclave[data-enclave='Lantern Hill']")).to_contain_text("100/100")
        expect(p.locator("svg.region-map text.unit[data-unit='Ford Horde']")).to_have_count(1)
        expect(p.locator("#campaign-map h3").first).to_contain_text("round 2 of 3")
        expect(p.locator("svg.stability-chart g.series[data-enclave='Lantern Hill'] circle")).to_have_count(2)
        expect(p.locator("#orders-form")).to_be_visible()
    assert "Old Watch" in po.locator("svg.region-map g.region[data-region='Old Watch']").inner_html()
    assert "Ford Horde" in po.locator("svg.region-map g.region[data-region='Old Watch']").inner_html()
    shot(po, "wt-campaign-round2-oathsworn")
    assert not errors, errors
    ctx_o.close()
    ctx_b.close()
