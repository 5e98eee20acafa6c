"""The War Table on the game protocol: one engagement from a battle file, attack, result.

Driven only through :class:`rulekeeper.core.game.Game` (and through the generic battle
service and ``rulekeeper battle`` commands, which know no rule system).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulekeeper.core.errors import IllegalActionError, RulekeeperError
from rulekeeper.core.game import ArmySource, Game, Outcome, SetupRequest
from rulekeeper.core.registered import rules_of
from rulekeeper.core.ruleset import game as find_game
from rulekeeper.core.ruleset import games
from rulekeeper.persistence.store import BattleStore
from rulekeeper.rulesets.wartable import (
    Battle,
    Combatant,
    UnitDef,
    WarTable,
    WarTableState,
    default_data,
    load_battle,
)
from rulekeeper.rulesets.wartable.battle import BattleFileError
from rulekeeper.rulesets.wartable.codec import dec, enc
from rulekeeper.rulesets.wartable.game import state_document
from rulekeeper.rulesets.wartable.scenario import SCENARIO_DIR
from rulekeeper.service.battles import BattleService, GameOverError, NotYourTurnError, guess_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "wartable"
SEED_FILE = EXAMPLES / "oathsworn_vs_bloodless.yaml"
ENCLAVE_FILE = EXAMPLES / "bloodless_assault_on_enclave.yaml"
BATTLE_FILES = ("oathsworn_vs_bloodless.yaml", "bloodless_assault_on_enclave.yaml")


@pytest.fixture(scope="module")
def g() -> Game:
    found = find_game("wartable")
    assert isinstance(rules_of(found), WarTable)  # the registry wraps the typed game (core.registered)
    return found  # type: ignore[no-any-return]


def start(g: Game, path: Path = SEED_FILE, *options: str) -> WarTableState:
    setup = g.setup(SetupRequest(scenario=path, options=options))
    return g.initial_state(json.loads(json.dumps(setup.document)))


def fight(g: Game, state: WarTableState) -> Outcome:
    """The attackers attack, the defenders answer: the outcome of the answer (the battle resolved)."""
    return g.apply(g.apply(state, {"kind": "attack"}).state, {"kind": "defend"})


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# ---------------------------------------------------------------- the protocol


def test_war_table_plays_battles(g: Game) -> None:
    assert isinstance(g, Game)
    assert "wartable" in [x.name for x in games()]
    assert g.deterministic is True
    setup = g.setup(SetupRequest(scenario=SEED_FILE))
    assert setup.ruleset == "wartable" and g.roles(setup.document) == ("attackers", "defenders")
    assert setup.meta["sides"] == {"attackers": "oathsworn", "defenders": "bloodless"}


def test_seed_example_through_the_protocol_ends_86_and_94(g: Game) -> None:
    state = start(g)
    status = g.status(state)
    assert not status.over and status.to_act == ("attackers",) and status.turn == 0
    assert status.acting == ("Oathsworn Vanguard",)
    legal = g.legal_actions(state)
    assert [lg.action for lg in legal] == [{"kind": "attack"}] and legal[0].side == "attackers"
    assert g.result(state) is None
    assert g.policy(state) == {"kind": "attack"}

    preview = g.preview(state, {"kind": "attack"})
    assert preview.draws == ()
    assert preview.headline_dict()["Oathsworn Vanguard Health"] == "100 → 86"
    assert preview.headline_dict()["Bloodless Horde Health"] == "150 → 94"

    declared = g.apply(state, g.parse_words(state, ["attack"]))
    assert declared.action == {"kind": "attack"} and declared.side == "attackers" and declared.chance == ()
    # issue 25: the defenders' link gets its turn; their answer resolves the six steps
    turn = g.status(declared.state)
    assert not turn.over and turn.to_act == ("defenders",) and turn.acting == ("Bloodless Horde",) and turn.turn == 1
    assert [lg.action for lg in g.legal_actions(declared.state)] == [{"kind": "defend"}]
    assert g.policy(declared.state) == {"kind": "defend"} and g.result(declared.state) is None
    assert g.preview(declared.state, {"kind": "defend"}).headline_dict()["Bloodless Horde Health"] == "150 → 94"
    out = g.apply(declared.state, g.parse_words(declared.state, ["defend"]))
    assert out.action == {"kind": "defend"} and out.side == "defenders"
    assert out.chance == () and out.record["chance"] == []
    assert out.record["report"] == list(out.report)
    after = g.status(out.state)
    assert after.over and after.to_act == () and after.turn == 2 and after.winner is None
    assert g.legal_actions(out.state) == [] and g.policy(out.state) is None
    result = g.result(out.state)
    assert result is not None and result.winner is None
    assert result.summary["health"] == {"Oathsworn Vanguard": 86, "Bloodless Horde": 94}
    assert "86" in result.reason and "94" in result.reason
    assert out.state.report is not None and out.state.report.health_after("Oathsworn Vanguard") == 86
    texts = [r["text"] for r in out.report]
    assert any("13.5 unblocked -> 14" in t for t in texts) and texts[-1].startswith("Result:")
    assert [e.kind for e in out.events] == ["combat_resolved"]


def test_step5_literal_from_the_request_options_overrides_the_file(g: Game) -> None:
    state = start(g, SEED_FILE, "step5=literal")
    result = g.result(fight(g, state).state)
    assert result is not None and result.summary["health"]["Oathsworn Vanguard"] == 87
    assert state.battle.options["step5"] == "literal"


def test_enclave_assault_changes_stability(g: Game) -> None:
    state = start(g, ENCLAVE_FILE)
    assert g.status(state).acting == ("Bloodless Horde #1", "Bloodless Horde #2")
    headline = g.preview(state, {"kind": "attack"}).headline_dict()
    assert headline["Hearthmere Stability"] == "60 → 30"
    out = fight(g, state)
    result = g.result(out.state)
    assert result is not None
    assert result.summary["stability"]["after"] == 30 and result.summary["stability"]["total_delta"] == -30
    assert result.summary["health"] == {"Bloodless Horde #1": 127, "Bloodless Horde #2": 127, "Oathsworn Vanguard": 70}
    assert "stability_changed" in [e.kind for e in out.events]


def test_a_wiped_out_side_loses_the_field(g: Game, tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "rout.yaml",
        "ruleset: wartable\nattacker: horde\nsides:\n  horde: [Bloodless Horde, Bloodless Horde, Bloodless Horde]\n"
        "  town: [{unit: Oathsworn Vanguard, health: 20}]\nenclave: {name: Ashford, stability: 50, side: town}\n",
    )
    out = fight(g, start(g, p))
    status, result = g.status(out.state), g.result(out.state)
    assert status.winner == "attackers" and result is not None and result.winner_name == "Horde"
    assert "hold the field" in result.reason
    kinds = [e.kind for e in out.events]
    assert "unit_destroyed" in kinds
    # 3 × -15 for the Hordes, -10 for the Vanguard losing more than half: 50 - 55 → 0 (never below 0)
    assert result.summary["stability"]["after"] == 0


# ---------------------------------------------------------------- JSON


@pytest.mark.parametrize("name", BATTLE_FILES)
def test_state_json_round_trips_exactly(g: Game, name: str) -> None:
    state = start(g, EXAMPLES / name)
    for s in (state, g.apply(state, {"kind": "attack"}).state, fight(g, state).state):
        doc = g.state_to_json(s)
        text = json.dumps(doc, sort_keys=True)
        back = g.state_from_json(json.loads(text))
        assert back == s
        assert json.dumps(g.state_to_json(back), sort_keys=True) == text
        view = g.view(s, "attackers")
        assert view == g.view(s, "spectator") and "battle" in view  # views: the full form (issue 22)
        assert g.state_from_json(json.loads(json.dumps(view))) == s  # both forms read back
        assert "rng" not in doc and "rng" not in view


def test_initial_document_rebuilds_the_state_and_carries_its_own_data(g: Game) -> None:
    setup = g.setup(SetupRequest(scenario=SEED_FILE))
    doc = json.loads(json.dumps(setup.document))
    assert g.initial_state(doc) == g.initial_state(setup.document)
    assert {m["name"] for m in doc["modifiers"]} == {m.name for m in default_data().modifiers}
    # the document, not the shipped data, decides: a stored battle replays as it was set up
    for m in doc["modifiers"]:
        if m["name"] == "Ruin cover":
            m["amount"] = 0
    out = fight(g, g.initial_state(doc))
    result = g.result(out.state)
    assert result is not None and result.summary["health"]["Bloodless Horde"] == 87  # 70 - 7 blocked = 63


def test_exact_fractions_survive_json() -> None:
    for value in (Fraction(86), Fraction(33, 2), Fraction(1, 10), Fraction(1, 3), Fraction(-7, 3)):
        assert dec(json.loads(json.dumps(enc(value))), "x") == value
    assert enc(Fraction(1, 3)) == "1/3" and enc(Fraction(33, 2)) == 16.5


def test_a_third_of_health_round_trips(g: Game) -> None:
    d = default_data()
    odd = UnitDef("Odd Horde", Fraction(301, 3), Fraction(20), Fraction(10), ("Bloodless",), origin="python")
    battle = Battle((Combatant(d.unit("Oathsworn Vanguard")),), (Combatant(odd),), ("Ruin",))
    state = g.initial_state(state_document(battle, d.modifiers))
    after = fight(g, state).state
    doc = json.loads(json.dumps(g.state_to_json(after)))
    assert g.state_from_json(doc) == after
    assert doc["battle"]["defenders"]["units"][0]["unit"]["health"] == "301/3"


def test_a_damaged_state_is_refused(g: Game) -> None:
    after = fight(g, start(g)).state
    doc = g.view(after, "attackers")  # the full form (a battle's checkpoint before issue 22)
    tampered = json.loads(json.dumps(doc))
    tampered["report"]["result"]["Oathsworn Vanguard"] = 100
    with pytest.raises(RulekeeperError, match="damaged"):
        g.state_from_json(tampered)
    broken = json.loads(json.dumps(doc))
    del broken["battle"]["attackers"]
    with pytest.raises(RulekeeperError, match="damaged"):
        g.state_from_json(broken)
    with pytest.raises(RulekeeperError, match="damaged"):
        g.initial_state({"ruleset": "exillis", "battle": doc["battle"], "modifiers": []})


# ---------------------------------------------------------------- refused actions


@pytest.mark.parametrize(
    ("action", "match"),
    [
        ({"kind": "charge"}, "the attackers attack, the defenders defend"),
        ({"kind": "withdraw"}, "no way to decline"),
        ({"kind": ""}, "the attackers attack, the defenders defend"),
        ({"kind": "attack", "side": "defenders"}, "it is the attackers' .Oathsworn. turn"),
        ({"kind": "attack", "side": "bloodless"}, "it is the attackers' .Oathsworn. turn"),
        ({"kind": "defend"}, "it is the attackers' .Oathsworn. turn"),
        ({"kind": "attack", "side": "nobody"}, "unknown side"),
        ({"kind": "attack", "unit": "Bloodless Horde"}, "unexpected: unit"),
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(g: Game, action: dict[str, str], match: str) -> None:
    state = start(g)
    before = json.dumps(g.state_to_json(state), sort_keys=True)
    with pytest.raises(IllegalActionError, match=match):  # a request is read by parse_action, as the keeper does
        g.apply(state, g.parse_action(state, action))
    with pytest.raises(IllegalActionError):
        g.preview(state, g.parse_action(state, action))
    with pytest.raises(IllegalActionError):  # the typed protocol decodes an action handed to apply by its codec
        g.apply(state, action)
    assert json.dumps(g.state_to_json(state), sort_keys=True) == before and not state.over


def test_a_defenders_action_parses_to_their_side(g: Game) -> None:
    state = start(g)
    assert g.parse_action(state, {"kind": "ATTACK", "side": "Oathsworn"}) == {"kind": "attack"}
    theirs = g.parse_action(state, {"kind": "attack", "side": "defender"})
    assert g.side_of(theirs) == "defenders" and g.side_of({"kind": "attack"}) == "attackers"


def test_no_second_attack(g: Game) -> None:
    declared = g.apply(start(g), {"kind": "attack"}).state
    with pytest.raises(IllegalActionError, match="defenders' .Bloodless. turn"):
        g.apply(declared, {"kind": "attack"})
    after = g.apply(declared, {"kind": "defend"}).state
    with pytest.raises(IllegalActionError, match="over"):
        g.apply(after, {"kind": "attack"})


def test_command_line_words(g: Game) -> None:
    state = start(g)
    assert g.parse_words(state, ["Attack"]) == {"kind": "attack"}
    with pytest.raises(IllegalActionError, match="one word"):
        g.parse_words(state, ["attack", "Bloodless Horde"])
    with pytest.raises(IllegalActionError, match="no option"):
        g.parse_words(state, ["attack"], "aim")
    with pytest.raises(IllegalActionError, match="decline"):
        g.parse_words(state, ["withdraw"])


# ---------------------------------------------------------------- set-up


def test_every_problem_of_a_battle_file_is_listed(g: Game, tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "bad.yaml",
        "ruleset: wartable\nattacker: a\nsides:\n  a: [Oathsworn Vanguardd, {unit: Bloodless Horde, health: -3}]\n"
        "  b: [Ghoul]\nenclave: {name: E, stability: -1, side: b}\noptions: {step5: sideways, step6: x}\n",
    )
    with pytest.raises(BattleFileError) as err:
        g.setup(SetupRequest(scenario=p, options=("stat_rounding=huge", "nonsense")))
    problems = err.value.problems
    text = "\n".join(problems)
    assert str(p) in str(err.value)
    for expected in (
        "sides.a[0].unit: Unknown unit 'Oathsworn Vanguardd'. Did you mean 'Oathsworn Vanguard'?",
        "sides.a[1].health: must be >= 0, got -3",
        "sides.b[0].unit: Unknown unit 'Ghoul'",
        "enclave.stability: must be >= 0",
        "options.step5:",
        "options.step6:",
        "option 'stat_rounding=huge':",
        "option 'nonsense': --option expects NAME=VALUE",
    ):
        assert expected in text, text
    assert len(problems) == 8


def test_shape_problems_and_unfightable_battles_are_listed(g: Game, tmp_path: Path) -> None:
    p = write(tmp_path, "shape.yaml", "ruleset: exillis\nattacker: c\nsides: {a: [Bloodless Horde], b: []}\n")
    with pytest.raises(BattleFileError) as err:
        g.setup(SetupRequest(scenario=p))
    assert any(x.startswith("ruleset:") for x in err.value.problems)
    assert any(x.startswith("attacker:") for x in err.value.problems)
    zero = write(tmp_path, "zero.yaml", "attacker: a\nsides: {a: [{unit: Bloodless Horde, health: 0}], b: []}\n")
    with pytest.raises(BattleFileError, match="no attacking unit with Health above 0"):
        g.setup(SetupRequest(scenario=zero))
    with pytest.raises(BattleFileError, match="sides: Field required"):
        g.setup(SetupRequest(scenario=write(tmp_path, "empty.yaml", "attacker: a\n")))


def test_setup_needs_a_battle_file(g: Game, tmp_path: Path) -> None:
    with pytest.raises(RulekeeperError, match="battle file"):
        g.setup(SetupRequest())
    with pytest.raises(RulekeeperError, match="not from army lists"):
        g.setup(SetupRequest(armies=(ArmySource("a.yaml", "x"), ArmySource("b.yaml", "y"))))
    with pytest.raises(RulekeeperError, match="file not found"):
        g.setup(SetupRequest(scenario=tmp_path / "missing.yaml"))


def test_the_calculator_accepts_the_ruleset_key(tmp_path: Path) -> None:
    ok = write(tmp_path, "ok.yaml", "ruleset: War Table\nattacker: a\nsides: {a: [Bloodless Horde], b: []}\n")
    battle, _ = load_battle(ok)
    assert battle.attacker_name == "a" and battle.defender_name == "b"
    wrong = write(tmp_path, "wrong.yaml", "ruleset: exillis\nattacker: a\nsides: {a: [Bloodless Horde], b: []}\n")
    with pytest.raises(RulekeeperError, match="not the War Table"):
        load_battle(wrong)


def test_shipped_scenarios_are_the_examples(g: Game) -> None:
    infos = g.scenarios()
    assert sorted(i.key for i in infos) == sorted(Path(n).stem for n in BATTLE_FILES)
    for info in infos:
        assert info.path.parent == SCENARIO_DIR and info.name and info.description
        assert "ruleset: wartable" in info.path.read_text(encoding="utf-8")
        shipped, _ = load_battle(info.path)
        example, _ = load_battle(EXAMPLES / info.path.name)
        assert shipped == Battle(**{**example.__dict__, "about": shipped.about})
        assert guess_ruleset(SetupRequest(scenario=info.path)) == "wartable"


# ---------------------------------------------------------------- service and CLI


def test_through_the_service(tmp_path: Path) -> None:
    svc = BattleService(BattleStore(tmp_path / "b.db"))
    bid = svc.new(SEED_FILE, ruleset="wartable")
    assert svc.roles(bid) == ("attackers", "defenders", "spectator")
    assert svc.record(bid).status == "active"
    with pytest.raises(NotYourTurnError):
        svc.act(bid, {"kind": "attack", "side": "defenders"})
    with pytest.raises(NotYourTurnError):
        svc.act(bid, {"kind": "attack"}, side="defenders")
    svc.act(bid, {"kind": "attack"})
    with pytest.raises(NotYourTurnError):
        svc.act(bid, {"kind": "defend"}, side="attackers")
    out, pos = svc.act(bid, {"kind": "defend"}, side="defenders")
    assert pos == 2 and svc.record(bid).status == "over"
    result = svc.game(bid).result(svc.state(bid))
    assert result is not None and result.summary["health"] == {"Oathsworn Vanguard": 86, "Bloodless Horde": 94}
    assert svc.replay(bid).identical
    with pytest.raises(GameOverError):
        svc.act(bid, {"kind": "attack"})
    svc.undo(bid)  # no chance was drawn, so nothing shown forbids it
    assert svc.record(bid).position == 1 and not svc.status(bid).over
    svc.autoplay(bid)
    assert svc.status(bid).over and svc.replay(bid).identical
    exported = tmp_path / "x.json"
    svc.export(bid, exported)
    other = BattleService(BattleStore(tmp_path / "c.db"))
    assert other.replay(other.import_(exported)).identical


def test_service_picks_the_war_table_from_the_ruleset_key(tmp_path: Path) -> None:
    svc = BattleService(BattleStore(tmp_path / "b.db"))
    bid = svc.new(SCENARIO_DIR / "bloodless_assault_on_enclave.yaml")
    assert svc.record(bid).ruleset == "wartable"


def test_through_the_cli(tmp_path: Path) -> None:
    from rulekeeper.cli.app import app

    runner = CliRunner()
    db = str(tmp_path / "b.db")

    def rk(*args: str) -> str:
        res = runner.invoke(app, [*args, "--db", db], env={"COLUMNS": "200"})
        assert res.exit_code == 0, (res.output, res.exception)
        return res.output

    created = json.loads(rk("battle", "new", str(SEED_FILE), "--ruleset", "wartable", "--json"))
    bid = created["id"]
    assert created["ruleset"] == "wartable" and created["result"] is None
    assert "100 → 86" in rk("battle", "show", bid)
    acts = json.loads(rk("battle", "actions", bid, "--json"))
    assert [a["kind"] for a in acts["actions"]] == ["attack"]
    assert acts["actions"][0]["odds"]["Bloodless Horde Health"] == "150 → 94"
    assert "To act: defenders (bloodless)" in rk("battle", "act", bid, "attack")
    acted = rk("battle", "act", bid, "defend")
    assert "Step 6" in acted and "unblocked" in acted and "Battle over" in acted and "Enclave" in acted
    shown = json.loads(rk("battle", "show", bid, "--json"))
    assert shown["result"]["health"] == {"Oathsworn Vanguard": 86, "Bloodless Horde": 94}
    plain = rk("battle", "show", bid)
    assert "86" in plain and "94" in plain and "Step 1" in plain
    assert "identical" in rk("battle", "replay", bid)

    again = runner.invoke(app, ["battle", "act", bid, "attack", "--db", db])
    assert again.exit_code != 0 and isinstance(again.exception, IllegalActionError)
    fresh = json.loads(rk("battle", "new", str(SEED_FILE), "--ruleset", "wartable", "--json"))["id"]
    wrong = runner.invoke(app, ["battle", "act", fresh, "withdraw", "--db", db])
    assert isinstance(wrong.exception, IllegalActionError) and "decline" in str(wrong.exception)


def test_through_the_web_keeper_both_links_get_their_turn(tmp_path: Path) -> None:
    """Issue 25: a readable engagement page (not the generic key/value dump) and the defenders' link gets a turn."""
    import html
    import re

    from fastapi.testclient import TestClient

    from rulekeeper.web.api import create_app

    client = TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)
    assert "Oathsworn Vanguard attack a Bloodless Horde" in client.get("/").text
    made = client.post("/new", data={"scenario": "wartable:oathsworn_vs_bloodless", "seed": "0"})
    assert made.status_code == 201, made.text
    urls = re.findall(r'<input id="link-(\w+)" type="text" readonly value="([^"]+)"', made.text)
    links = {role: html.unescape(u).replace("http://testserver", "") for role, u in urls}
    assert set(links) == {"attackers", "defenders", "spectator"}
    bid = links["attackers"].split("/")[2].split("?")[0]
    tokens = {role: link.split("token=")[1] for role, link in links.items()}

    board = re.sub(r"</?bdi>", "", client.get(links["defenders"]).text)  # names isolated (issue 23): read the text
    assert 'class="wartable-board"' in board and 'data-unit="Bloodless Horde"' in board
    assert "Oathsworn (Attackers) to attack" in board and "Health 150" in board and "[Ruin]" in board
    refused = client.post(
        f"/api/battles/{bid}/actions", params={"token": tokens["defenders"]}, json={"position": 0, "kind": "attack"}
    )
    assert (
        refused.status_code >= 400
        and client.get(f"/api/battles/{bid}", params={"token": tokens["attackers"]}).json()["position"] == 0
    )

    def play(role: str, position: int, kind: str) -> None:
        picked = client.get(f"/b/{bid}", params={"token": tokens[role], "pick": 0, "at": position})
        assert picked.status_code == 200 and "100 → 86" in picked.text
        form = re.search(r'<form method="post" action="/b/[^"]+/act".*?</form>', picked.text, re.S)
        assert form is not None
        fields = {k: html.unescape(v) for k, v in re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0))}
        assert fields["kind"] == kind
        assert client.post(f"/b/{bid}/act", data=fields).status_code == 303

    play("attackers", 0, "attack")
    turn = re.sub(r"</?bdi>", "", client.get(links["defenders"]).text)
    assert "Bloodless (Defenders) to answer the attack" in turn and "defend" in turn
    play("defenders", 1, "defend")
    end = client.get(links["spectator"])
    end_text = re.sub(r"</?bdi>", "", end.text)
    assert end.status_code == 200 and "The battle is over" in end_text and 'Health 100 → <span class="after">86</span>' in end_text
    assert "Step 4, Oathsworn: 70 hits / 1 enemy unit = 70 each" in end_text
    api = client.get(f"/api/battles/{bid}", params={"token": tokens["spectator"]}).json()
    assert api["over"] and api["result"]["health"] == {"Oathsworn Vanguard": 86, "Bloodless Horde": 94}
