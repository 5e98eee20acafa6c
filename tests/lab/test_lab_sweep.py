"""Sweeps: the matrix files, points efficiency, resuming, house rules and comparisons."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from lab_cli import run_cli

from rulekeeper.lab.backends import Runner
from rulekeeper.lab.compare import compare
from rulekeeper.lab.sweep import COLUMNS, SweepPlan, matrix_csv, run_sweep
from toygame.duel import ToyDuelKernel

PLAN = SweepPlan("toy", ("Pikes", "Archers", "Knights"), 1, 1, sims=400, seed=2)


def sweep(out: Path, plan: SweepPlan = PLAN, backend: str = "serial", **kw: object) -> str:
    out.mkdir(exist_ok=True)
    with Runner(backend, 2 if backend != "serial" else None) as runner:
        return matrix_csv(run_sweep("toy", ToyDuelKernel(), plan, out, runner, **kw))  # type: ignore[arg-type]


def test_sweep_matrix_and_points_efficiency(tmp_path: Path) -> None:
    text = sweep(tmp_path / "a")
    rows = list(csv.DictReader(text.splitlines()))
    assert [(r["first"], r["second"]) for r in rows] == [(a, b) for a in PLAN.units for b in PLAN.units]
    assert list(rows[0]) == list(COLUMNS)
    for r in rows:
        wins, losses, draws = int(r["first_wins"]), int(r["second_wins"]), int(r["draws"])
        assert wins + losses + draws == 400 == int(r["battles"])
        score = (wins + draws / 2) / 400
        assert float(r["score"]) == pytest.approx(score, abs=1e-6)
        assert float(r["first_win_low95"]) < wins / 400 < float(r["first_win_high95"])
        assert float(r["score_per_100_points"]) == pytest.approx(100 * score / float(r["first_points"]), abs=1e-5)
        # Bradley–Terry with strength in proportion to points: even at c (1 - s) / s
        c = float(r["first_points"]) / float(r["second_points"])
        assert float(r["even_points_ratio"]) == pytest.approx(c * (1 - score) / score, rel=1e-5)
    mirror = {r["first"]: float(r["score"]) for r in rows if r["first"] == r["second"]}
    assert all(0.4 < s < 0.6 for s in mirror.values())


def test_sweep_is_the_same_on_processes(tmp_path: Path) -> None:
    plan = SweepPlan("toy", ("Knights", "Archers"), 2, 4, sims=300, seed=5)
    assert sweep(tmp_path / "p", plan, backend="process", chunk=70) == sweep(tmp_path / "s", plan)


def test_an_interrupted_sweep_keeps_finished_cells_and_resumes(tmp_path: Path) -> None:
    whole = sweep(tmp_path / "whole")
    out = tmp_path / "cut"
    finished: list[str] = []

    def stop_after_four(cell: object) -> None:
        finished.append(str(cell))
        if len(finished) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep(out, on_cell=stop_after_four)
    assert len(list((out / "cells").glob("*.json"))) == 4
    before = ToyDuelKernel.calls
    assert sweep(out) == whole
    assert ToyDuelKernel.calls - before == 5 * 400  # only the five unfinished cells were fought
    before = ToyDuelKernel.calls
    assert sweep(out) == whole and ToyDuelKernel.calls == before
    # a changed setting is a new cell; a damaged cell file is fought again
    next(iter((out / "cells").glob("*.json"))).write_text("{not json", encoding="utf-8")
    assert sweep(out) == whole and ToyDuelKernel.calls - before == 400


def test_cli_sweep_writes_csv_parquet_heatmap_and_compares_a_house_rule(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    base, variant = tmp_path / "base", tmp_path / "variant"
    ran = run_cli("lab", "sweep", "toy", "--units", "pikes,Archers", "--sims", "600", "--out", str(base),
                  "--backend", "serial")
    assert ran.code == 0, ran.err
    assert "4 matchups (0 read from earlier runs)" in ran.out
    table = pq.read_table(base / "matrix.parquet").to_pylist()
    rows = list(csv.DictReader((base / "matrix.csv").read_text(encoding="utf-8").splitlines()))
    assert [(t["first"], t["second"], t["first_wins"]) for t in table] == \
        [(r["first"], r["second"], int(r["first_wins"])) for r in rows]
    assert (base / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((base / "sweep.json").read_text())["units"] == ["Pikes", "Archers"]
    rule = tmp_path / "sharp.yaml"
    rule.write_text("name: Sharper archers\nunits:\n  Archers:\n    hit: 0.45\n", encoding="utf-8")
    ran = run_cli("lab", "sweep", "toy", "--units", "Pikes,Archers", "--sims", "600", "--out", str(variant),
                  "--backend", "serial", "--house-rule", str(rule))
    assert ran.code == 0, ran.err
    moves = {(m.first, m.second): m for m in compare(base, variant)}
    assert moves[("Archers", "Pikes")].delta > 0.1 and moves[("Archers", "Pikes")].moved
    assert moves[("Pikes", "Pikes")].delta == 0 and not moves[("Pikes", "Pikes")].moved  # same seed, same battles
    ran = run_cli("lab", "compare", str(base), str(variant), "--json")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)[0]["first"] in ("Archers", "Pikes") and json.loads(ran.out)[0]["moved"]
    ran = run_cli("lab", "compare", str(base), str(variant))
    assert "moved" in ran.out and "Archers" in ran.out
    # resumed: every cell read back
    ran = run_cli("lab", "sweep", "toy", "--units", "Pikes,Archers", "--sims", "600", "--out", str(base),
                  "--backend", "serial", "--json")
    assert json.loads(ran.out)["reused"] == 4
