"""The shipped Shroudfall campaign loads and validates; bad campaign files name file and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulekeeper.core.errors import DataFileError
from rulekeeper.rulesets.wartable.campaign import load_campaign, parse_campaign

SHROUDFALL = Path(__file__).resolve().parents[3] / "examples" / "wartable" / "shroudfall.yaml"


def test_shroudfall_loads() -> None:
    s = load_campaign(SHROUDFALL)
    assert (s.name, s.round) == ("Shroudfall", 1)
    assert s.map.names() == ["Ashen Ford", "Greywold", "Hearthmere", "Lantern Hill", "Old Watch", "The Barrow"]
    assert s.map.neighbours("Ashen Ford") == ["Greywold", "Old Watch", "The Barrow"]
    assert s.map.traits("The Barrow") == ("Ruin", "Dungeon")
    assert [(e.name, e.stability, e.full, e.fallen) for e in s.enclaves] == [
        ("Hearthmere", 70, 100, False), ("Lantern Hill", 55, 100, False)]
    assert [(u.label, u.faction, u.region, u.health, u.bloodless) for u in s.units] == [
        ("Hearthmere Guard", "Oathsworn", "Hearthmere", 100, False),
        ("Lantern Wardens", "Oathsworn", "Old Watch", 80, False),
        ("Barrow Horde", "Bloodless", "The Barrow", 150, True),
        ("Ford Horde", "Bloodless", "Ashen Ford", 120, True)]
    assert s.faction("oathsworn").faith == 1 and s.faction("Bloodless").faith == 0
    assert [u.label for u in s.defenders_of(s.enclave("Hearthmere"))] == ["Hearthmere Guard"]
    assert s.defenders_of(s.enclave("Lantern Hill")) == ()
    assert s.map.distance("The Barrow", "Hearthmere") == 3
    assert s.dungeons[0].table == "delve_example"


def base() -> dict[str, Any]:
    return {
        "campaign": "C",
        "regions": [{"name": "A", "borders": ["B"]}, {"name": "B"}],
        "enclaves": [{"name": "E", "region": "A", "faction": "Men", "stability": 50}],
        "factions": [{"name": "Men", "units": [{"unit": "Oathsworn Vanguard", "label": "G", "region": "A"}]}],
    }


def test_every_problem_is_named() -> None:
    raw = base()
    raw["regions"][1]["borders"] = ["Nowhere"]
    raw["enclaves"][0]["stability"] = 120
    raw["factions"][0]["units"].append({"unit": "Oathsworn Vanguardd", "label": "g", "region": "Z"})
    raw["dungeons"] = [{"name": "D", "region": "B", "table": "no_such_table"}]
    with pytest.raises(DataFileError) as e:
        parse_campaign(raw, "c.yaml")
    p = e.value.problems
    assert e.value.path == "c.yaml"
    assert "regions[1].borders[0]: unknown region 'Nowhere'" in p
    assert "factions[0].units[1].label: 'g' is already another unit's label" in p
    assert "factions[0].units[1].region: unknown region 'Z'" in p
    assert any(x.startswith("factions[0].units[1].unit: Unknown unit 'Oathsworn Vanguardd'") for x in p)
    assert "enclaves[0].stability: expected 0..100.0, got 120.0" in p
    assert any(x.startswith("dungeons[0].table: Unknown shipped table 'no_such_table'") for x in p)


def test_shape_errors() -> None:
    raw = base()
    raw["factions"][0]["faith"] = "lots"
    with pytest.raises(DataFileError, match=r"factions\[0\]\.faith"):
        parse_campaign(raw, "c.yaml")
    with pytest.raises(DataFileError, match="this file is for the game 'exillis'"):
        parse_campaign({**base(), "ruleset": "exillis"}, "c.yaml")
