"""The units doc's table of expected kills is what the shipped data gives (issue 9, point 8).

The seed describes what units do ("Cavalry units ... usually have a powerful charge if they can
manage to perform it at units in the open"; "even though Vileins are not great in combat ...");
``docs/rules/exillis-units.md`` ("Checking the estimates") holds the table the estimates were
checked with. Regenerated here from the real resolution; the doc must follow any change of data.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulekeeper.rulesets.exillis.matchups import ATTACKS, DEFENDERS, kill_table, markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "exillis-units.md"


def test_the_doc_table_is_the_generated_one() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- matchups:begin -->\n(.*?)\n<!-- matchups:end -->", text, re.S)
    assert found, "the units doc lost its matchups table"
    rows = kill_table()
    assert found.group(1) == markdown(rows), "regenerate: python -m rulekeeper.rulesets.exillis.matchups"
    kills = {a.title: dict(zip(DEFENDERS, k, strict=True)) for a, _, k in rows}
    assert len(kills) == len(ATTACKS)
    # "a powerful charge ... at units in the open": the charge beats the fight, and terrain blunts it
    fc = kills["Franc Chevalers charge (in the open)"]["Vileins"]
    assert fc > 2 * kills["Franc Chevalers fight"]["Vileins"]
    assert kills["Franc Chevalers charge (into terrain)"] == kills["Franc Chevalers fight"]
    assert kills["Hobelars charge (in the open)"]["Vileins"] > 2 * kills["Hobelars fight"]["Vileins"]
    # per rider the knights' charge kills about twice what a Billman's blow does
    assert fc / 4 > 1.8 * kills["Billmen fight"]["Vileins"] / 8
