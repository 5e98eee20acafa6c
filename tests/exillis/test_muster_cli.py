"""``rulekeeper muster check|cost|export``: output, JSON, exports and exit codes 0/1/2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from rulekeeper.rulesets.exillis.cli import musters as muster_cmds
from rulekeeper.rulesets.exillis.cli.musters import md_escape, render_html, render_markdown
from rulekeeper.rulesets.exillis.muster import Muster, MusterEntry, save_muster
from rulekeeper.rulesets.exillis.pricing import ExIllisArmyRules

ROOT = Path(__file__).resolve().parents[2]
MUSTERS = ROOT / "examples" / "exillis" / "musters"
BROKEN_WING = str(MUSTERS / "broken_wing.yaml")
BREC = str(MUSTERS / "brec_helean.toml")
INVALID = str(MUSTERS / "invalid.yaml")

# Only the muster group: these tests do not depend on the other command modules.
app = typer.Typer()
muster_cmds.register(app)
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["muster", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_the_main_app_registers_the_muster_group() -> None:
    from rulekeeper.cli.app import app as root

    result = runner.invoke(root, ["muster", "--help"])  # the game's groups are registered when a line names them
    assert result.exit_code == 0, result.output
    assert "price" in result.output or "check" in result.output


@pytest.mark.parametrize("path", [BROKEN_WING, BREC])
def test_check_a_valid_muster_exits_0(path: str) -> None:
    code, out = run("check", path)
    assert code == 0, out
    for word in ("Melee (Me)", "Special (Sp)", "Cost lines", "Total:", "Battle Points brought: 1",
                 "Valid muster", "basic 40 x 2^(3/10)" if "broken" in path else "basic 24 x 2^(3/10)"):
        assert word in out


def test_check_an_invalid_muster_lists_every_problem_and_exits_1() -> None:
    code, out = run("check", INVALID)
    assert code == 1
    flat = " ".join(out.split())
    for rule in ("one-general", "faction-not-generals", "miniatures-minimum", "level-range", "hero-twice",
                 "loner-retinue", "hero-without-retinue", "loner-joins", "miniatures-maximum", "unknown-unit"):
        assert rule in flat
    assert "Did you mean 'Vileins'" in flat


def test_check_an_unreadable_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ngame_type: Common\nunits:\n  - unit: Billmen\n    level: high\n", encoding="utf-8")
    code, out = run("check", str(bad))
    assert code == 2
    code, out = run("check", str(bad), "--json")
    assert code == 2 and json.loads(out)["problems"] == [
        "line 5, units 1 ('Billmen'), field level: expected a whole number, got 'high'"]
    assert run("check", str(tmp_path / "none.toml"))[0] == 2


def test_cost_json_for_tools() -> None:
    code, out = run("cost", BROKEN_WING, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["valid"] is True and data["problems"] == [] and data["faction"] == "Broken Wing"
    assert data["total"] == sum(line["total"] for line in data["lines"])
    assert {s["category"] for s in data["shape"]} == {"Me", "Sh", "Mg", "Fs", "He", "El", "Mn", "Sp"}
    billmen = data["lines"][0]
    assert billmen["unit"] == "Billmen" and billmen["base"] == 49 and billmen["level"] == 3
    assert data["battle_points"] == 1 and data["earns_bp"] is True
    code, out = run("cost", INVALID, "--json")
    assert code == 1 and json.loads(out)["valid"] is False and json.loads(out)["problems"]


def test_cost_table() -> None:
    code, out = run("cost", BREC)
    assert code == 0 and "Total: 237 points" in out


def test_export_markdown_with_the_validation_result(tmp_path: Path) -> None:
    code, out = run("export", BROKEN_WING, "--format", "md")
    assert code == 0 and out.startswith("# Broken Wing\n") and "## Validation" in out and "**Valid muster**" in out
    assert "| 1 | Billmen | 8/8 | 3 | Me | 49 |" in out
    target = tmp_path / "list.md"
    code, out = run("export", INVALID, "--format", "md", "--output", str(target))
    text = target.read_text(encoding="utf-8")
    assert code == 1 and out == "" and "**13 problems**:" in text and "hero-twice" in text


def test_export_html_is_self_contained_and_escaped(tmp_path: Path) -> None:
    muster = Muster(name="<script>alert('x')</script> & Co", game_type="Common",
                    units=(MusterEntry(unit="Billmen <b>", label="x"), MusterEntry(unit="Vileins", level=3)))
    path = tmp_path / "evil.yaml"
    save_muster(muster, path)
    code, out = run("export", str(path), "--format", "html")
    assert code == 1  # the unknown unit
    assert out.startswith("<!DOCTYPE html>") and "<style>" in out and out.rstrip().endswith("</html>")
    assert "<script" not in out and "&lt;script&gt;" in out and "Billmen &lt;b&gt;" in out
    assert not re.search(r"(src|href)\s*=|https?://|<link|<img|@import|url\(", out, re.IGNORECASE)
    code, out = run("export", BREC, "--format", "html")
    assert code == 0 and "Valid muster" in out and 'class="green"' in out


def test_export_format_is_checked() -> None:
    assert run("export", BREC, "--format", "pdf")[0] == 2


def test_data_overrides_unit_stats(tmp_path: Path) -> None:
    override = tmp_path / "o.yaml"
    override.write_text("units:\n  Billmen:\n    stats:\n      cost: 80\n", encoding="utf-8")
    code, out = run("cost", BROKEN_WING, "--json", "--data", str(override))
    assert code == 0 and json.loads(out)["lines"][0]["base"] == 98


def test_data_overrides_muster_data(tmp_path: Path) -> None:
    override = tmp_path / "o.toml"
    override.write_text('[musters.shortage_base]\nvalue = "army"\nsource = "user"\n', encoding="utf-8")
    code, out = run("cost", BREC, "--json", "--data", str(override))
    data = json.loads(out)
    assert code == 0 and data["shortage_base"] == "army" and sum(line["shortage"] for line in data["lines"]) > 0


def test_bad_data_file_exits_2(tmp_path: Path) -> None:
    override = tmp_path / "o.yaml"
    override.write_text("nothing: here\n", encoding="utf-8")
    assert run("check", BREC, "--data", str(override))[0] == 2


def test_penalised_costs_are_red_in_html(tmp_path: Path) -> None:
    path = tmp_path / "melee.yaml"
    save_muster(Muster(name="All melee", game_type="Common", units=tuple(MusterEntry(unit="Billmen", level=3)
                                                                         for _ in range(3))), path)
    report = muster_cmds.build_report(path)
    assert any(pl.penalised for pl in report.lines)
    assert 'class="penalised"' in render_html(report) and 'class="yellow"' in render_html(report)


def test_markdown_escaping() -> None:
    assert md_escape("a|b *c* [d] <e> #f") == "a\\|b \\*c\\* \\[d\\] &lt;e&gt; \\#f"
    assert md_escape("two\nlines") == "two lines"
    report = ExIllisArmyRules().report(Muster(name="A | B", game_type="Common").to_army_list())
    assert render_markdown(report).startswith("# A \\| B\n") and "empty-muster" in render_markdown(report)
