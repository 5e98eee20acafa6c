"""``rulekeeper units``: Rich tables with provenance marks, JSON, overrides, levels, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from rulekeeper.cli.units import register
from rulekeeper.rulesets.exillis.cli.units import HEADERS, MARKS, STAT_GROUPS, format_value, units_command
from rulekeeper.rulesets.exillis.profiles import STAT_GROWTH, STAT_KEYS, load_profiles

RUNNER = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def root() -> None:
        """Stand-in for the real app: keeps ``units`` a sub-command."""

    register(app, {"exillis": units_command})
    return app


def run(*args: str) -> Any:
    return RUNNER.invoke(_app(), ["units", *args])


def run_json(*args: str) -> list[dict[str, Any]]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data: list[dict[str, Any]] = json.loads(result.stdout)
    return data


def by_name(rows: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(r for r in rows if r["name"] == name)


def test_table_groups_cover_every_stat_once() -> None:
    keys = [k for _, group in STAT_GROUPS for k in group]
    assert sorted(keys) == sorted(STAT_KEYS)
    assert set(HEADERS) == set(STAT_KEYS)
    assert len(set(HEADERS.values())) == len(HEADERS)


def test_table_lists_every_unit_with_marks_and_legend() -> None:
    result = run("exillis")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for profile in load_profiles().all():
        assert profile.name in out
    for header in ("HP", "TGH", "ACC", "WpD", "RAcc", "MBlk", "BUr", "Int", "FR", "Fire", "Dark"):
        assert header in out
    assert "Legend" in out and "estimate" in out and "wiki" in out and "worked example" in out
    assert "50~" in out  # Billmen HP, an estimate
    assert "35*" in out  # Billmen WpD from the seed's worked example
    assert "10+" in out  # Ympes miniatures from the wiki
    assert "90%" in out  # Arbalestiers MBlk as printed


@pytest.mark.parametrize("alias", ["exillis", "ex-illis", "ex illis", "Ex Illis", "EXILLIS"])
def test_ruleset_aliases(alias: str) -> None:
    assert run(alias, "--json").exit_code == 0


def test_json_has_every_stat_with_provenance() -> None:
    rows = run_json("exillis")
    assert [r["name"] for r in rows] == load_profiles().names()
    billmen = by_name(rows, "Billmen")
    assert billmen["kind"] == "unit" and billmen["special_rules"] == ["Polearm"]
    assert set(billmen["stats"]) == set(STAT_KEYS)
    assert billmen["stats"]["wpd"] == {"value": 35.0, "source": "seed-example", "why": billmen["stats"]["wpd"]["why"]}
    assert billmen["stats"]["ini"]["source"] == "seed"
    assert billmen["stats"]["hp"]["source"] == "estimated" and billmen["stats"]["hp"]["why"]
    assert set(billmen["resist"]) == {"fire", "lightning", "ice", "earth", "water", "wind", "light", "dark"}
    assert by_name(rows, "Decurion")["heroic_power"] == "Avenger"
    for row in rows:
        for sv in [*row["stats"].values(), *row["resist"].values()]:
            assert sv["source"] != "estimated" or sv["why"]


def test_data_override_is_marked_user(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("units:\n  Billmen: {stats: {hp: 57}}\n", encoding="utf-8")
    rows = run_json("exillis", "--data", str(path))
    hp = by_name(rows, "Billmen")["stats"]["hp"]
    assert (hp["value"], hp["source"]) == (57.0, "user")
    table = run("exillis", "--data", str(path))
    assert table.exit_code == 0 and "57!" in table.stdout and "override" in table.stdout


def test_bad_data_file_exits_2_with_the_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("units:\n  Billmen: {stats: {hp: -1}}\n", encoding="utf-8")
    result = run("exillis", "--data", str(path), "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)
    assert error["error"] == "data_file" and error["path"] == str(path)
    assert any("stats.hp" in p and "Billmen" in p for p in error["problems"])
    plain = run("exillis", "--data", str(path))
    assert plain.exit_code == 2 and "data_file" in plain.output and "Traceback" not in plain.output


def test_yaml_syntax_error_from_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("units: [\n", encoding="utf-8")
    result = run("exillis", "--data", str(path), "--json")
    assert result.exit_code == 2
    assert "line" in json.loads(result.stdout)["message"]


def test_unknown_ruleset_suggests() -> None:
    result = run("exilis", "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)
    assert error["error"] == "unknown_name" and "exillis" in error["suggestions"]


def test_level_option_scales_and_caps() -> None:
    rows = run_json("exillis", "--level", "10")
    billmen = by_name(rows, "Billmen")["stats"]
    assert billmen["level"]["value"] == 10
    assert billmen["hp"]["value"] == pytest.approx(50 * STAT_GROWTH**9)  # tables are level 1 (stat_levels=level-1)
    assert billmen["ini"]["value"] == 100
    vileins = by_name(run_json("exillis", "--level", "35"), "Vileins")["stats"]
    assert vileins["level"]["value"] == 30  # capped at the maximum level
    table = run("exillis", "--level", "35")
    assert table.exit_code == 0 and "Capped" in table.stdout and "Vileins (30)" in table.stdout


def test_level_below_one_is_a_usage_error() -> None:
    assert run("exillis", "--level", "0").exit_code == 2


def test_format_value_and_marks() -> None:
    assert format_value("ret", 0.5) == "50%"
    assert format_value("mrls", 1.33) == "133%"
    assert format_value("hp", 50.0) == "50"
    assert format_value("hp", 66.66) == "66.7"
    assert MARKS["estimated"][0] == "~" and MARKS["seed"][0] == ""
