"""The muster builder in the browser: priced and checked exactly as ``rulekeeper muster check``,
every problem listed, Shortage colours shown, its text starts a battle, hostile input refused (4xx)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import rulekeeper.web.musters as musters
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.exillis.cli import musters as muster_cmds
from rulekeeper.web.api import create_app

MUSTERS = Path(__file__).resolve().parents[2] / "examples" / "exillis" / "musters"
EXAMPLES = sorted(MUSTERS.glob("*.*"))
cli_app = typer.Typer()  # `rulekeeper muster ...` alone, as tests/exillis/test_muster_cli.py runs it
muster_cmds.register(cli_app)


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)


def muster_check(path: Path) -> dict[str, Any]:
    """What ``rulekeeper muster check --json FILE`` prints (exit 0 valid, 1 with problems)."""
    result = CliRunner().invoke(cli_app, ["muster", "check", "--json", str(path)])
    assert result.exit_code in (0, 1), result.output
    out: dict[str, Any] = json.loads(result.output)
    return out


def page_numbers(text: str) -> dict[str, Any]:
    """The numbers the report shows, read off its data attributes."""
    report = text[text.index('id="report"'):]
    return {
        "total": int(re.search(r'class="total" data-total="(\d+)"', report).group(1)),  # type: ignore[union-attr]
        "basic": int(re.search(r'data-basic="(\d+)"', report).group(1)),  # type: ignore[union-attr]
        "bp": int(re.search(r'class="bp" data-points="(\d+)"', report).group(1)),  # type: ignore[union-attr]
        "lines": [(int(e), html.unescape(u), int(t)) for e, u, t in
                  re.findall(r'<tr class="[^"]*" data-entry="(\d+)" data-unit="([^"]*)" data-total="(\d+)"', report)],
        "shape": dict(re.findall(r'data-category="(\w+)" data-state="(\w+)"', report)),
        "rules": re.findall(r'<li data-rule="([\w-]+)">', report),
        "problems": [html.unescape(p) for p in re.findall(r'<li data-rule="[\w-]+">(.*?)</li>', report)],
    }


def cli_numbers(doc: dict[str, Any]) -> dict[str, Any]:
    return {
        "total": doc["total"], "basic": doc["basic_total"], "bp": doc["battle_points"] if doc["earns_bp"] else 0,
        "lines": [(ln["entry"], ln["unit"], ln["total"]) for ln in doc["lines"]],
        "shape": {s["category"]: s["state"] for s in doc["shape"]},
        "rules": [p["rule"] for p in doc["problems"]],
        "problems": [(f"entry {p['entry']} ({p['unit']}): " if p["entry"] else "army: ") + f"{p['rule']}: {p['message']}"
                     for p in doc["problems"]],
    }


def load(client: TestClient, text: str, **extra: str) -> Any:
    return client.post("/musters", data={"do": "load", "paste": text, "game": "exillis", **extra})


def form_fields(text: str, form_id: str = "builder") -> dict[str, str]:
    """Every named field of a form on the page, with its current value (as a browser would post it)."""
    form = re.search(rf'<form id="{form_id}".*?</form>', text, re.S)
    assert form, f"no form {form_id}"
    body = form.group(0)
    fields = {k: html.unescape(v) for k, v in re.findall(r'<input type="(?:hidden|text|number)" name="(\w+)" value="([^"]*)"', body)}
    for name, value in re.findall(r'<textarea name="(\w+)"[^>]*>(.*?)</textarea>', body, re.S):
        fields[name] = html.unescape(value)
    for name, options in re.findall(r'<select name="(\w+)">(.*?)</select>', body, re.S):
        chosen = re.search(r'<option(?: value="([^"]*)")? selected>([^<]*)</option>', options)
        fields[name] = html.unescape(chosen.group(1) if chosen and chosen.group(1) is not None
                                     else chosen.group(2) if chosen else "")
    return fields


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_a_pasted_muster_is_priced_as_muster_check_prices_it(client: TestClient, path: Path) -> None:
    r = load(client, path.read_text(encoding="utf-8"))
    assert r.status_code == 200, r.text
    got, want = page_numbers(r.text), cli_numbers(muster_check(path))
    assert got == want
    assert len(got["lines"]) >= 4 and set(got["shape"]) == {"Me", "Sh", "Mg", "Fs", "He", "El", "Mn", "Sp"}
    if path.name == "invalid.yaml":  # every problem, never only the first
        assert len(got["rules"]) == 13 and 'data-problems="13"' in r.text
    else:
        assert got["rules"] == [] and "no problem found" in r.text


def test_the_form_as_typed_is_priced_as_its_file_is_checked(client: TestClient, tmp_path: Path) -> None:
    """A list picked in the form (no file at all) against ``muster check`` of the file the page offers."""
    form = {"game": "exillis", "name": "Wizards' Guild", "game_type": "Common",
            "unit_0": "Mendicum", "level_0": "4", "hero_0": "Marrenne", "hero_level_0": "5",
            "unit_1": "Mendicum", "miniatures_1": "6", "level_1": "2",
            "unit_2": "Mendicum", "level_2": "3", "label_2": "the choir",
            "unit_4": "Billmen", "miniatures_4": "4"}  # row 3 left empty: the rows close up
    r = client.post("/musters", data=form)
    assert r.status_code == 200, r.text
    got = page_numbers(r.text)
    assert got["shape"]["Mg"] == "red" and got["shape"]["Me"] == "green"  # the Shortage colours
    assert 'class="state s-red"' in r.text and '<tr class="penalised"' in r.text  # a line that paid: in red
    assert "miniatures-minimum" in got["rules"]  # 4 Billmen of 8: not a majority
    file = client.post("/musters", data={**form, "do": "yaml"})
    assert file.status_code == 200 and file.headers["content-type"] == "application/yaml; charset=utf-8"
    assert file.headers["content-disposition"] == 'attachment; filename="wizards-guild.yaml"'
    path = tmp_path / "built.yaml"
    path.write_bytes(file.content)
    assert got == cli_numbers(muster_check(path))
    toml = client.post("/musters", data={**form, "do": "toml"})
    assert toml.headers["content-disposition"] == 'attachment; filename="wizards-guild.toml"'
    (tmp_path / "built.toml").write_bytes(toml.content)
    assert cli_numbers(muster_check(tmp_path / "built.toml")) == got
    # the live fragment (htmx) is the report alone, with the same numbers
    live = client.post("/musters/report", data=form)
    assert live.status_code == 200 and live.text.lstrip().startswith('<section id="report"')
    assert "<html" not in live.text and page_numbers(live.text) == got


def test_the_page_offers_units_levels_and_heroes_and_keeps_what_was_typed(client: TestClient) -> None:
    page = client.get("/musters")
    assert page.status_code == 200 and "Muster builder" in page.text
    for word in ("Billmen — 8 minis (5+), Me, 40 pts, levels to 30", "Decurion — He/Mg/Fs", "Common (levels 1-10)",
                 "Anything Goes", 'name="unit_0"', 'name="hero_level_2"', "Broken Wing"):
        assert word in page.text, word
    loaded = load(client, (MUSTERS / "broken_wing.yaml").read_text())
    fields = form_fields(loaded.text)
    assert fields["unit_0"] == "Billmen" and fields["hero_0"] == "Decurion" and fields["level_3"] == "3"
    assert fields["general"] == "Decurion" and fields["game_type"] == "Common" and fields["unit_4"] == ""
    again = client.post("/musters", data=fields)  # posting the page back as it stands prices the same list
    assert page_numbers(again.text) == page_numbers(loaded.text)
    hostile = client.post("/musters", data={"game": "exillis", "name": "<script>alert(1)</script>",
                                             "game_type": "Common", "unit_0": "<b>Billmen</b>"})
    assert hostile.status_code == 200 and "<script>alert" not in hostile.text and "<b>Billmen" not in hostile.text
    assert "unknown-unit" in hostile.text


def test_the_built_musters_start_a_battle_through_the_new_battle_form(client: TestClient) -> None:
    wing = load(client, (MUSTERS / "broken_wing.yaml").read_text())
    a = client.post("/musters", data={**form_fields(wing.text), "do": "use_a"})
    assert a.status_code == 200
    brec = load(client, (MUSTERS / "brec_helean.toml").read_text(), side_a=form_fields(a.text)["side_a"])
    b = client.post("/musters", data={**form_fields(brec.text), "do": "use_b"})
    battle_form = re.search(r'<form method="post" action="/new".*?</form>', b.text, re.S)
    assert battle_form
    texts = {k: html.unescape(v) for k, v in re.findall(r'<textarea name="(muster_\w)"[^>]*>(.*?)</textarea>',
                                                       battle_form.group(0), re.S)}
    assert texts["muster_a"].startswith("name: Broken Wing") and texts["muster_b"].startswith("name: Brec'Helean")
    r = client.post("/new", data={"from": "musters", "game": "exillis", **texts, "board": "5x4", "seed": "11"})
    assert r.status_code == 201, r.text
    link = re.search(r'value="http://testserver(/b/[^"]+)"', r.text)
    assert link and "Broken Wing" in client.get(html.unescape(link.group(1))).text


@pytest.mark.parametrize(("data", "status"), [
    ({"do": "load", "paste": "a: [" * 70 + "]" * 70}, 422),  # nested beyond the reader's limits
    ({"do": "load", "paste": "a: &a [x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True))}, 422),  # an alias bomb: 8^9 values
    ({"do": "load", "paste": "name: [unclosed"}, 422),
    ({"do": "load", "paste": ""}, 400),
    ({"do": "load", "paste": "units: 3"}, 422),
    ({"do": "load", "paste": "x" * 20_001}, 413),  # one field over a muster's size
    ({"name": "x" * 201, "unit_0": "Billmen"}, 413),
    ({"unit_0": "Billmen", "level_0": "9" * 50}, 422),
    ({"unit_0": "Billmen", "level_0": "1e3"}, 422),
    ({"game": "wartable"}, 422),  # a game that builds no lists
])
def test_hostile_input_gets_a_4xx_page_never_a_500(client: TestClient, data: dict[str, str], status: int) -> None:
    r = client.post("/musters", data={"game": "exillis", **data})
    assert r.status_code == status, r.text[:500]
    assert "text/html" in r.headers["content-type"] and 'class="banner error"' in r.text


def test_hostile_bodies_are_refused_before_any_pricing(client: TestClient) -> None:
    huge = client.post("/musters", content=b"paste=" + b"x" * 200_000,
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert huge.status_code == 413  # the keeper's body limit
    big = client.post("/musters", content=b"paste=" + b"x" * 110_000,
                      headers={"content-type": "application/x-www-form-urlencoded"})
    assert big.status_code == 413 and "too_large" in big.text
    not_utf8 = client.post("/musters", content=b"do=load&paste=name%3A+%FF%FE",
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert not_utf8.status_code == 422 and "not UTF-8" in not_utf8.text
    raw = client.post("/musters", content="do=load&paste=café".encode("latin-1"),
                      headers={"content-type": "application/x-www-form-urlencoded"})
    assert raw.status_code == 422
    many = client.post("/musters", content="&".join(f"f{i}=1" for i in range(400)).encode(),
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert many.status_code == 422
    json_body = client.post("/musters", json={"do": "load"})
    assert json_body.status_code == 422
    for r in (huge, big, not_utf8, raw, many, json_body):
        assert r.status_code < 500


def test_without_a_game_that_builds_lists_the_page_says_so(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(musters, "games", lambda: [game("wartable")])
    for r in (client.get("/musters"), client.post("/musters", data={"name": "x"})):
        assert r.status_code == 200 and "No installed game builds army lists" in r.text and "War Table" in r.text
    assert game("wartable").army_builder() is None and game("wartable").campaign() is None


def test_the_home_page_links_to_the_builder(client: TestClient) -> None:
    assert 'href="/musters?game=exillis"' in client.get("/").text
