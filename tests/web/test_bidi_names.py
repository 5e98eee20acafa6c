"""Issue 23, fault 10 (the pages' half): a name in a right-to-left script is isolated wherever a page shows it.

Names with direction controls (U+202E…) are refused by ``core/names.py``; names in Hebrew or Arabic
letters are legitimate, and unisolated they reorder the text around them ("קשתים 3 soldiers").
Every page text that shows a battle title, an army (side) name or a unit name wraps it in ``<bdi>``;
where markup cannot go (a tooltip, an ``aria-label``, SVG ``<title>``/``<text>``) the name sits
between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE (``web/isolation.py``), and so
do the names inside the sentences the games build ("… charge …"), in every game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from rulekeeper.core.game import SetupRequest
from rulekeeper.web.api import create_app
from rulekeeper.web.isolation import FSI, PDI, READ_ATTRIBUTES, isolated
from rulekeeper.web.presenters import make_env

DUEL = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/exillis/data/scenarios/duel.yaml"
TITLE, ARMY, LABEL = "קרב הגשר 3", "כנף שבורה", "ירדן"


def _unisolated(html: str, name: str) -> list[str]:
    """Where ``name`` shows as page text outside a ``<bdi>`` (attributes and <title> are plain text, not checked)."""
    found = []
    for m in re.finditer(re.escape(name), html):
        before = html[:m.start()]
        if before.rfind("<bdi>") <= before.rfind("</bdi>") and not _in_tag_or_title(before):
            found.append(html[max(0, m.start() - 60):m.end() + 20])
    return found


def _in_tag_or_title(before: str) -> bool:
    """The match sits inside a tag (an attribute), or inside an SVG/HTML <title>."""
    return before.rfind("<") > before.rfind(">") or before.rfind("<title>") > before.rfind("</title>")


def test_a_right_to_left_title_and_army_name_are_isolated_on_the_pages(tmp_path: Path) -> None:
    scenario = tmp_path / "duel.yaml"
    scenario.write_text(DUEL.read_text().replace("name: Broken Wing", f"name: {ARMY}"))
    client = TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)
    keeper = client.app.state.keeper  # type: ignore[attr-defined]
    bid, tokens = keeper.create(SetupRequest(scenario=scenario, seed=5), title=TITLE)
    pages = {what: client.get(url).text for what, url in (
        ("battle A", f"/b/{bid}?token={tokens['A']}"), ("battle B", f"/b/{bid}?token={tokens['B']}"),
        ("spectator", f"/b/{bid}?token={tokens['spectator']}"), ("log", f"/b/{bid}/log?token={tokens['A']}"),
        ("replay", f"/b/{bid}/replay?token={tokens['A']}"))}
    for what, html in pages.items():
        assert TITLE in html or ARMY in html, what
        assert _unisolated(html, TITLE) == [], what
        assert _unisolated(html, ARMY) == [], what
    assert f"<bdi>{TITLE}</bdi>" in pages["battle A"] and f"Side A — <bdi>{ARMY}</bdi>" in pages["battle A"]


def test_the_bdi_filter_escapes_and_isolates() -> None:
    env = make_env()
    page = env.from_string("{{ name|bdi }} · {{ side_html('A', sides) }} · {{ side_label('A', sides) }}")
    html = page.render(name=f"<i>{LABEL}</i>", sides={"A": ARMY})
    assert html == f"<bdi>&lt;i&gt;{LABEL}&lt;/i&gt;</bdi> · Side A — <bdi>{ARMY}</bdi> · Side A — {ARMY}"


SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets"
UNIT = "קשתי הגדה 2"  # "bank archers 2": a unit name ending in a number, which an unisolated page reorders
_OPEN_TAG = re.compile(r"<([A-Za-z][\w:-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*(?:\"[^\"]*)?)$")


def _setups() -> dict[str, tuple[str, Callable[[str], str]]]:
    """Each game's shipped scenario, its army A (and a unit, where the file names units) renamed in Hebrew;
    the War Table's files name no army (its sides are factions): the battle's title is the name there."""
    return {
        "exillis": ("exillis/data/scenarios/duel.yaml", lambda t: t.replace("name: Broken Wing", f"name: {ARMY}")),
        "battlesystem": ("battlesystem/data/scenarios/hill_road.yaml", lambda t: t.replace(
            "{name: Wardens of the Road}", f"{{name: {ARMY}}}").replace("name: Road Bows,", f"name: {UNIT},")),
        "confrontation": ("confrontation/data/scenarios/the_ford.yaml", lambda t: t.replace(
            "name: Lions of Alahan", f"name: {ARMY}").replace(
            "{side: A, card: Alahan swordsman,", f"{{side: A, card: Alahan swordsman, name: {UNIT},")),
        "dragonnoir": ("dragonnoir/data/scenarios/the_ford.yaml", lambda t: t.replace(
            "{name: The Exiles}", f"{{name: {ARMY}}}")),  # characters are the box's own: no names of one's own
        "wartable": ("wartable/data/scenarios/oathsworn_vs_bloodless.yaml", lambda t: t),
    }


def _unisolated_anywhere(html: str, name: str) -> list[str]:
    """Every occurrence of ``name`` a person reads that is neither in ``<bdi>`` nor between FSI and PDI.

    Identifiers a script reads and sends back (``href``, ``value``, ``data-unit``…) and the text of a
    ``<textarea>`` or ``<script>`` are not display text, and stay as they are.
    """
    found = []
    for m in re.finditer(re.escape(name), html):
        before = html[:m.start()]
        if html[m.start() - 1:m.start()] == FSI and html[m.end():m.end() + 1] == PDI:
            continue
        if (tag := _OPEN_TAG.search(before[-4000:])) is not None:
            attribute = re.findall(r'([\w:-]+)="[^"]*$', tag.group(2))
            if attribute and attribute[-1] not in READ_ATTRIBUTES:
                continue
        elif before.rfind("<bdi>") > before.rfind("</bdi>") or any(
                before.rfind(f"<{raw}") > before.rfind(f"</{raw}>") for raw in ("textarea", "script")):
            continue
        found.append(html[max(0, m.start() - 70):m.end() + 20])
    return found


def _play(keeper: object, bid: str, moves: int) -> None:
    """A few actions by the games' own policies, results shown: the log and the board then hold sentences."""
    service = keeper.service  # type: ignore[attr-defined]
    for _ in range(moves):
        g, state = service.game(bid), service.visible(bid).state
        if not g.status(state).to_act:
            return
        action = g.policy(state) or g.legal_actions(state)[0].action
        service.act(bid, action, shown=True)


@pytest.mark.parametrize("game", sorted(_setups()))
def test_every_page_of_every_game_isolates_the_names_in_text_attributes_svg_and_sentences(
        game: str, tmp_path: Path) -> None:
    source, rename = _setups()[game]
    scenario = tmp_path / Path(source).name
    scenario.write_text(text := rename((SCENARIOS / source).read_text()))
    client = TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)
    keeper = client.app.state.keeper  # type: ignore[attr-defined]
    bid, tokens = keeper.create(SetupRequest(scenario=scenario, seed=5), title=TITLE)
    _play(keeper, bid, 3)
    a = tokens["A"] if "A" in tokens else next(t for role, t in tokens.items() if role != "spectator")
    pages = {what: client.get(url) for what, url in (
        ("battle A", f"/b/{bid}?token={a}"), ("spectator", f"/b/{bid}?token={tokens['spectator']}"),
        ("unit", f"/b/{bid}?token={a}&unit={quote('A:' + UNIT)}"),
        ("unit panel", f"/b/{bid}/unit?token={a}&key={quote(UNIT)}"),
        ("log", f"/b/{bid}/log?token={a}"), ("replay", f"/b/{bid}/replay?token={a}&n=1"),
        ("live", f"/b/{bid}/live?token={a}"))}
    names = [name for name in (TITLE, ARMY, UNIT) if name == TITLE or name in text]
    shown = {name: sum(r.text.count(name) for r in pages.values()) for name in names}
    assert all(shown[name] > 0 for name in names), shown
    for what, r in pages.items():
        for name in names:
            assert _unisolated_anywhere(r.text, name) == [], (game, what, name)
    print(f"{game}: {shown} occurrences, every one isolated")


def test_isolation_wraps_text_in_bdi_and_attributes_svg_and_options_in_isolates() -> None:
    page = (f'<a title="{ARMY} charge" data-unit="{ARMY}" href="/u?k={ARMY}"><svg><title>{ARMY}: 3</title>'
            f'<text>{ARMY}</text></svg></a><p>{ARMY} 3 soldiers, <bdi>{ARMY}</bdi></p><select><option>{ARMY}'
            f'</option></select><textarea>{ARMY}</textarea><p title="{FSI}{ARMY}{PDI}">Bank Archers</p>')
    assert isolated(page, [ARMY, "Bank Archers"]) == (
        f'<a title="{FSI}{ARMY}{PDI} charge" data-unit="{ARMY}" href="/u?k={ARMY}"><svg><title>{FSI}{ARMY}{PDI}: 3'
        f'</title><text>{FSI}{ARMY}{PDI}</text></svg></a><p><bdi>{ARMY}</bdi> 3 soldiers, <bdi>{ARMY}</bdi></p>'
        f'<select><option>{FSI}{ARMY}{PDI}</option></select><textarea>{ARMY}</textarea>'
        f'<p title="{FSI}{ARMY}{PDI}">Bank Archers</p>')
    assert isolated("<p>Bank Archers charge</p>", ["Bank Archers"]) == "<p>Bank Archers charge</p>"
