"""``lab duel --whole`` and ``lab sweep --whole`` (issue 27): the whole distribution of a matchup's opening action,
from the keeper's own whole-odds functions (the numbers ``odds exillis melee --whole`` shows), in process."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest
from lab_cli import run_cli

from rulekeeper.core.duels import DuelRequest
from rulekeeper.rulesets.exillis.lab_kernel import ExIllisDuelKernel
from rulekeeper.rulesets.exillis.lab_kernel.fighters import fighters
from rulekeeper.rulesets.exillis.melee import MeleeContext
from rulekeeper.rulesets.exillis.whole.compute import round_odds
from rulekeeper.rulesets.exillis.whole.dist import more_exact

KNIGHTS_CHARGE = ("lab", "duel", "exillis", "Franc Chevalers", "Billmen", "--charge", "--sims", "20", "--backend",
                  "serial", "--whole")


def test_duel_whole_is_the_opening_charge_computed_by_the_keepers_whole_odds() -> None:
    doc = json.loads(run_cli(*KNIGHTS_CHARGE, "--json").out)
    whole = doc["whole"]
    assert whole["method"] == "exact" and whole["error_bound"] == 0.0
    killed = next(m for m in whole["measures"] if m["key"] == "enemy_killed")
    # four knights charge eight Billmen: each kills at most one (the Bulk cap), so 0-4 fall
    assert [o for o, _ in killed["outcomes"]] == ["0", "1", "2", "3", "4"]
    assert killed["mean"] == pytest.approx(2.6608, abs=1e-4)
    assert sum(p for _, p in killed["outcomes"]) == pytest.approx(1.0)
    # the same numbers as the calculator's round (odds exillis melee --whole) on the same two units
    f = fighters(DuelRequest("Franc Chevalers", "Billmen", charge=True))
    with more_exact(math.inf):  # the lab waits for the exact kernel; so does this comparison
        direct = round_odds((f.first, f.second), MeleeContext(f.tables.rules, f.options, "charge"))
    assert direct is not None
    assert [[o, p] for o, p in direct.measures[0].outcomes] == killed["outcomes"]
    assert doc["battles"] == 20  # the Monte Carlo duel still runs alongside


def test_duel_whole_prints_the_bars_above_the_duel_table() -> None:
    ran = run_cli(*KNIGHTS_CHARGE)
    assert ran.code == 0, ran.err
    head, _, rest = ran.out.partition("Franc Chevalers (level 1) vs Billmen (level 1)")
    assert "The whole opening charge: Franc Chevalers against Billmen" in head
    assert "enemy miniatures killed" in head and "40.6 %" in head and "computed exactly" in head
    assert "first wins" in rest


def test_a_shoot_duel_shows_the_opening_volley() -> None:
    odds = ExIllisDuelKernel().whole_opening(DuelRequest("Longbowmen", "Vileins", mode="shoot"))
    assert odds is not None and odds.method in ("exact", "grid") and odds.error_bound < 1e-6
    assert odds.measures[0].key == "enemy_killed" and odds.measures[0].mean is not None
    assert 0.5 < odds.measures[0].mean < 8  # eight longbowmen, one arrow each, at eight peasants


def test_a_kernel_without_whole_odds_says_so() -> None:
    ran = run_cli("lab", "duel", "toy", "Pikes", "Knights", "--sims", "20", "--backend", "serial", "--whole")
    assert ran.code == 0, ran.err
    assert "no whole-action odds" in ran.out
    doc = json.loads(run_cli("lab", "duel", "toy", "Pikes", "Knights", "--sims", "20", "--backend", "serial",
                             "--whole", "--json").out)
    assert doc["whole"] is None


def test_sweep_whole_writes_each_matchups_opening_action(tmp_path: Path) -> None:
    ran = run_cli("lab", "sweep", "exillis", "--units", "Franc Chevalers,Billmen", "--sims", "10", "--backend",
                  "serial", "--charge", "--whole", "--out", str(tmp_path / "sw"))
    assert ran.code == 0, ran.err
    rows = list(csv.DictReader((tmp_path / "sw" / "whole.csv").open(encoding="utf-8")))
    pairs = {(r["first"], r["second"]) for r in rows}
    assert pairs == {(a, b) for a in ("Franc Chevalers", "Billmen") for b in ("Franc Chevalers", "Billmen")}
    charge = [r for r in rows if (r["first"], r["second"]) == ("Franc Chevalers", "Billmen")
              and r["what"] == "enemy miniatures killed"]
    assert [r["outcome"] for r in charge] == ["0", "1", "2", "3", "4"]
    assert float(charge[3]["probability"]) == pytest.approx(0.406289, abs=1e-6)
    assert float(charge[0]["expected"]) == pytest.approx(2.6608, abs=1e-4)
