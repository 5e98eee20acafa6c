"""Issue 23, fault 10 (the pages' half): a name in a right-to-left script is isolated wherever a page shows it.

Names with direction controls (U+202E…) are refused by ``core/names.py``; names in Hebrew or Arabic
letters are legitimate, and unisolated they reorder the text around them ("קשתים 3 soldiers").
Every page text that shows a battle title, an army (side) name or a unit name wraps it in ``<bdi>``.
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from rulekeeper.core.game import SetupRequest
from rulekeeper.web.api import create_app
from rulekeeper.web.presenters import make_env

DUEL = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/exillis/data/scenarios/duel.toml"
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
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL.read_text().replace('name = "Broken Wing"', f'name = "{ARMY}"'))
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
