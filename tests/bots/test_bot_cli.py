"""The keeper as an opponent on the command line (issue 28): ``battle new --bot``, the keeper moving after a
player's ``battle act``, ``battle autoplay --policy search --budget``, ``--explain``, and ``lab play --policy``;
bad requests are typed errors (exit code 2) that store nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from cli_kit import run, run_main
from rulekeeper.core.ruleset import game as game_named


def _scenario(game: str, key: str) -> str:
    return str({s.key: s.path for s in game_named(game).scenarios()}[key])


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("RULEKEEPER_STATE_DIR", str(tmp_path / "state"))
    return str(tmp_path / "bots.db")


def _json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    code, out, err = run(monkeypatch, capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_the_keeper_takes_a_side_of_the_campaign_and_answers_hidden_orders(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Shroudfall: the keeper plays the Bloodless. Both sides give their orders at once, so the keeper gives its own
    (hidden) as soon as the campaign starts, without seeing the player's; the player's orders then resolve the round,
    and the keeper gives its orders for the next one: three actions in the log after one typed by the player. The
    player reads of the keeper's orders only that they were given (the log's concealed form), in the JSON too."""
    from rulekeeper.persistence.store import BattleStore

    concealed = {"kind": "concealed", "side": "bloodless"}
    made = _json(monkeypatch, capsys, "battle", "new", _scenario("wartable-campaign", "shroudfall"), "--bot", "bloodless",
                 "--strength", "easy", "--db", db)
    assert [(d["action"], d["candidates"]) for d in made["keeper"]] == [(concealed, [])]
    assert made["keeper"][0]["iterations"] >= 1
    listed = _json(monkeypatch, capsys, "battle", "actions", made["id"], "--db", db)
    assert {a["side"] for a in listed["actions"]} == {"oathsworn"}
    acted = _json(monkeypatch, capsys, "battle", "act", made["id"], "1", "--db", db)
    assert [(d["action"], d["candidates"]) for d in acted["keeper"]] == [(concealed, [])]
    logged = BattleStore(db).entries(made["id"])
    assert [(e.action["side"], e.action["round"]) for e in logged] == [("bloodless", 1), ("oathsworn", 1),
                                                                       ("bloodless", 2)]
    # the same seat as the web keeper's form makes: the keeper on the web plays this battle on
    from rulekeeper.service.bot_seat import seat_of

    seat = seat_of(BattleStore(db).get(made["id"]).meta)
    assert seat is not None and (seat.side, seat.strength, seat.policy) == ("bloodless", "easy", "search")


def test_the_player_does_not_read_the_keepers_hidden_orders_even_explained(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The War Table campaign's orders stay hidden until the round resolves ("both sides give their orders at once"):
    the terminal shows that the keeper acted, not its orders, and ``--explain`` shows no candidate (each is a set of
    orders). Before, the line read "The keeper (side bloodless) plays: bloodless orders for round 1: …"."""
    from rulekeeper.persistence.store import BattleStore

    code, out = run_main(["battle", "new", _scenario("wartable-campaign", "shroudfall"), "--bot", "bloodless",
                          "--strength", "easy", "--explain", "--db", db], capsys, monkeypatch)
    assert code == 0, out
    # the game's line tells what may be told, once (it followed "The keeper (side bloodless) acted (hidden until it
    # is revealed)", the same said twice)
    assert ("The keeper (side bloodless) plays: Bloodless have given their orders for round 1 (hidden until the round "
            "resolves)") in " ".join(out.split()) and "acted (hidden" not in out
    assert "Why:" not in out and "Simulations" not in out
    (orders,) = BattleStore(db).entries(BattleStore(db).list()[0].id)
    assert orders.action["side"] == "bloodless"  # it did give them: stored, not shown
    words = game_named("wartable-campaign").action_text(orders.action)
    assert words.startswith("bloodless orders for round 1: ") and " ".join(words.split()) not in " ".join(out.split())


def test_the_keeper_moves_first_when_its_side_starts_and_explains_itself(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_main(["battle", "new", _scenario("exillis", "skirmish"), "--bot", "A", "--strength", "easy",
                          "--explain", "--db", db], capsys, monkeypatch)
    assert code == 0, out
    assert "The keeper plays side A (easy)." in out
    assert "The keeper (side A) plays:" in out and "Why:" in out and "Simulations" in out


def test_autoplay_with_the_search_bot_reports_its_decisions(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    made = _json(monkeypatch, capsys, "battle", "new", _scenario("confrontation", "the_ford"), "--db", db)
    done = _json(monkeypatch, capsys, "battle", "autoplay", made["id"], "--policy", "search", "--budget", "3",
                 "--db", db)
    assert done["result"] is not None and done["policy"] == "search"
    assert done["decisions"] and all(1 <= d["iterations"] <= 3 or d["iterations"] == 0 for d in done["decisions"])


@pytest.mark.parametrize(("args", "says"), [
    (["--bot", "C"], "Unknown side for the keeper to play 'C'"),
    (["--bot", "B", "--strength", "godlike"], "Unknown strength 'godlike'"),
    # played as a user: "--bot B" in the War Table, whose sides are attackers and defenders, named no side at all
    (["--bot", "B"], "Unknown side for the keeper to play 'B'. Choose one of: attackers, defenders, first, none, second."),
])
def test_a_bad_bot_request_is_refused_and_stores_nothing(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], says: str) -> None:
    scenario = _scenario("wartable", "oathsworn_vs_bloodless") if args == ["--bot", "B"] else _scenario("exillis", "skirmish")
    code, out = run_main(["battle", "new", scenario, *args, "--db", db], capsys, monkeypatch)
    assert code == 2 and says in out
    assert _json(monkeypatch, capsys, "battle", "list", "--db", db) == []


def test_autoplay_refuses_a_budget_without_the_search(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    made = _json(monkeypatch, capsys, "battle", "new", _scenario("exillis", "skirmish"), "--db", db)
    code, out = run_main(["battle", "autoplay", made["id"], "--budget", "3", "--db", db], capsys, monkeypatch)
    assert code == 2 and "--budget is the search's" in out
    code, out = run_main(["battle", "autoplay", made["id"], "--policy", "clever", "--db", db], capsys, monkeypatch)
    assert code == 2 and "Unknown policy 'clever'" in out


def test_lab_play_says_which_policy_produced_its_figures(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(monkeypatch, capsys, "lab", "play", "exillis", "skirmish", "--policy", "A=search", "--budget", "3",
                "--sims", "2", "--backend", "serial")
    assert doc["policy"] == "A: search bot (3 simulations per move), others: shipped policy (simple)"
    # one level of brackets: "monte carlo (reference engine, A: search bot (3 simulations per move), ...)" nested two
    assert doc["method"] == "monte carlo, reference engine; " + doc["policy"]
    assert doc["battles"] == 2 and sum(r["count"] for r in doc["results"].values()) == 2
    simple = _json(monkeypatch, capsys, "lab", "play", "exillis", "skirmish", "--sims", "2", "--backend", "serial")
    assert simple["policy"] == "shipped policy (simple)"
    code, out = run_main(["lab", "play", "exillis", "skirmish", "--policy", "C=search"], capsys, monkeypatch)
    assert code == 2 and "Unknown side of this scenario" in out


@pytest.mark.parametrize("policy", [[], ["--policy", "search", "--budget", "4"]])
def test_autoplay_of_one_side_never_gives_the_other_sides_orders(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], policy: list[str]) -> None:
    """"Let a policy play one or all sides (until another side must act)": in the War Table campaign both sides
    give their orders at once, so both are to act; ``--side bloodless`` gives the Bloodless orders only and leaves
    the Oathsworn's to their player (before, the shipped policy played the first side to act: the Oathsworn, to the
    campaign's end). Each round then waits for the Oathsworn."""
    from rulekeeper.persistence.store import BattleStore

    made = _json(monkeypatch, capsys, "battle", "new", _scenario("wartable-campaign", "shroudfall"), "--db", db)
    _json(monkeypatch, capsys, "battle", "autoplay", made["id"], "--side", "bloodless", *policy, "--db", db)
    assert [e.action["side"] for e in BattleStore(db).entries(made["id"])] == ["bloodless"]
    again = _json(monkeypatch, capsys, "battle", "autoplay", made["id"], "--side", "bloodless", *policy, "--db", db)
    assert again.get("decisions", []) == [] and len(BattleStore(db).entries(made["id"])) == 1  # theirs are given
    _json(monkeypatch, capsys, "battle", "autoplay", made["id"], "--side", "oathsworn", *policy, "--db", db)
    logged = [(e.action["side"], e.action["round"]) for e in BattleStore(db).entries(made["id"])]
    assert logged == [("bloodless", 1), ("oathsworn", 1), ("oathsworn", 2)]  # round 2 waits for the Bloodless


def test_explain_says_when_the_keeper_had_one_action_only() -> None:
    """As the spectator's page: a move that was the keeper's only legal action is not a one-row table "— · 0" under
    "Why: 0 simulations in 0.00s"; a move with candidates keeps its table."""
    from rich.console import Console

    from rulekeeper.cli.bot_cmds import explanation

    def shown(move: dict[str, Any]) -> str:
        console = Console(width=120, record=True, file=io.StringIO())
        console.print(explanation(move))  # type: ignore[arg-type]
        return console.export_text()

    only = {"action": {"kind": "end_turn", "side": "B"}, "iterations": 0, "seconds": 0.0,
            "candidates": [{"text": "side B ends its turn", "value": None, "visits": 0}]}
    assert "only legal action, there was nothing to weigh" in shown(only) and "Simulations" not in shown(only)
    weighed = {**only, "iterations": 40, "seconds": 0.8, "candidates": [
        {"text": "Raider Horse attacks Ford Pikes", "value": 0.31, "visits": 30},
        {"text": "side B ends its turn", "value": -0.1, "visits": 10}]}
    assert "Why: 40 simulations in 0.80s" in shown(weighed) and "+0.31" in shown(weighed)
