"""Resolute on a COU test taken inside another fighter's action or the round's flow is his player's (steeling.py).

Resolute/X (active): "can be used once per round right before any INI, ATT, DEF or COU test made by the fighter.
For that test, the Characteristic is increased by X". Charged by a frightening enemy, or tested to rally in the
strategic phase, the fighter's player says whether he spends it, right before the test; the keeper proposes to keep
it (its own play never spent it there) and never asks where +X changes nothing (a natural 1 fails whatever COU is).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_confrontation_declarations import HUNTER_B, PALADIN, paladin_near_the_hunter

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import DataFileError, IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation import steeling
from rulekeeper.rulesets.confrontation.scenario import read_scenario
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json, view_of
from rulekeeper.web.api import create_app

DATA = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data"
SCENARIOS, WARBANDS = DATA / "scenarios", DATA / "warbands"

SWORDSMAN, GUARD = "Alahan swordsman", "Alahan guard"
HUNTER_CHARGES = {"kind": "charge", "side": "B", "fighter": HUNTER_B, "target": PALADIN}


def charged(g: Game, fear: int = 9, declarations: str = "players") -> Any:
    """The hunter (FEAR ``fear``) charges the paladin (Resolute/1, COU 6) 8 cm away."""
    s = replace(paladin_near_the_hunter(g, declarations), to_act="B")
    hunter = s.fighter(HUNTER_B)
    return s.with_fighters(replace(hunter, card=hunter.card.model_copy(update={"FEAR": fear})))


def test_the_charged_fighters_resolute_is_asked_right_before_his_cou_test(g: Game) -> None:
    """"right before any … COU test made by the fighter": the charge goes into contact, then waits for the charged
    fighter's player; the charge itself draws nothing of his, its preview says what he will be asked."""
    s = charged(g)
    preview = g.preview(s, HUNTER_CHARGES)
    assert not preview.draws
    assert dict(preview.headline)["then"] == (f"{PALADIN}'s player says whether he spends Resolute on his COU test: he "
                                              "passes 66.7% without, 83.3% with")
    out = g.apply(s, HUNTER_CHARGES)
    assert not out.chance and out.state.steeling == (PALADIN, "charged", HUNTER_B)
    assert out.state.fighter(PALADIN).engaged == (HUNTER_B,)  # in contact: "goes in as declared"
    assert g.status(out.state).to_act == ("A",) and g.status(out.state).acting == (PALADIN,)
    offers = g.legal_actions(out.state)
    assert [lg.action["value"] for lg in offers] == [0, 1] and "the keeper's proposal" in offers[0].text
    assert state_from_json(state_to_json(out.state)) == out.state
    assert view_of(out.state)["steeling"] == [PALADIN, "charged", HUNTER_B] and "rng" not in view_of(out.state)
    whole = g.whole_odds(s, HUNTER_CHARGES)  # his test is not the charge's: its whole odds do not say "cannot rout"
    assert whole is not None and dict(whole.events) == {"charge goes in": 1.0}
    assert "comes on his player's answer" in whole.note


@pytest.mark.parametrize(("used", "cou", "chance"), [(1, 7, 5 / 6), (0, 6, 4 / 6)])
def test_his_answer_draws_the_test_as_declared(g: Game, used: int, cou: int, chance: float) -> None:
    """"For that test, the Characteristic is increased by X"; "once per round": used, it is spent until the round
    ends; kept, it still serves a later test. The odds shown are the odds drawn; the round goes on (side A, whose
    turn follows B's charge)."""
    waiting = g.apply(charged(g), HUNTER_CHARGES).state
    answer = g.legal_actions(waiting)[used].action
    preview = g.preview(waiting, answer)
    assert dict(preview.headline)[f"COU test: {PALADIN} passes {cou} vs 9"] == pytest.approx(chance)
    out = g.apply(waiting, answer)
    assert [r.request for r in out.chance] == list(preview.draws)
    assert out.chance[0].request.explain[0] == f"D6 + {cou}+0 vs 9"
    paladin = out.state.fighter(PALADIN)
    assert paladin.resolute == bool(used) and not paladin.steeled and not out.state.steeling
    assert ("(Resolute)" in out.report[0]["text"]) == bool(used)
    assert (paladin.rout == 9) == ("in rout" in out.report[0]["text"])
    assert out.state.to_act == "A" and out.state.phase == "activation"
    whole = g.whole_odds(waiting, answer)
    assert whole is not None and dict(whole.events)[f"COU test: {PALADIN} fails"] == pytest.approx(1 - chance)


def test_no_question_where_resolute_changes_nothing(g: Game) -> None:
    """COU 6 against FEAR 5: he passes on anything but a natural 1, with or without +1: the charge draws his test at
    once, as before; nor is his own charge offered with Resolute on such a test."""
    s = charged(g, fear=5)
    out = g.apply(s, HUNTER_CHARGES)
    assert not out.state.steeling and [r.request.label for r in out.chance] == [f"COU test: {PALADIN}"]
    assert [r.request for r in out.chance] == list(g.preview(s, HUNTER_CHARGES).draws)
    mine = replace(s, to_act="A")
    assert not any(lg.action.get("resolute") for lg in g.legal_actions(mine))


def test_spent_or_stored_before_no_question(g: Game) -> None:
    spent = charged(g)
    spent = spent.with_fighters(replace(spent.fighter(PALADIN), resolute=True))
    assert not g.apply(spent, HUNTER_CHARGES).state.steeling
    assert not g.apply(charged(g, declarations="keeper"), HUNTER_CHARGES).state.steeling


def test_only_his_answer_is_taken_while_he_is_asked(g: Game) -> None:
    waiting = g.apply(charged(g), HUNTER_CHARGES).state
    with pytest.raises(IllegalActionError, match="not 'B'"):
        g.apply(waiting, {"kind": "declare", "side": "B", "fighter": PALADIN, "ability": "Resolute", "value": 1})
    with pytest.raises(IllegalActionError, match=r"waits for his player's Resolute \(declare Alahan paladin yes\|no\)"):
        g.apply(waiting, {"kind": "hold", "side": "A", "fighter": GUARD})
    with pytest.raises(IllegalActionError, match="1 \\(used\\) or 0, not 3"):
        g.apply(waiting, {"kind": "declare", "side": "A", "fighter": PALADIN, "ability": "Resolute", "value": 3})
    assert g.parse_words(waiting, ["declare", "Alahan", "paladin", "yes"]) == \
        g.parse_action(waiting, g.legal_actions(waiting)[1].action)


def routed(g: Game) -> SkirmishState:
    """The ford's three Lions in rout, free; the paladin's COU 4 (vs the rally's 8: 50 %, 66.7 % with +1)."""
    s = charged(g)
    paladin = s.fighter(PALADIN)
    lions = [replace(s.fighter(SWORDSMAN), rout=5), replace(paladin, rout=5, card=paladin.card.model_copy(
        update={"COU": 4})), replace(s.fighter(GUARD), rout=5)]
    return replace(s.with_fighters(*lions), phase="tactical", to_act="A")


def test_the_rally_asks_him_before_his_test_and_goes_on_in_order(g: Game) -> None:
    """Third-edition rules: "each routed fighter tests COU 8 or DIS 8"; Resolute "right before any … COU test": the
    swordsman tests, the paladin is asked, on his answer he tests and the guard after him."""
    s = routed(g)
    fate, report = Fate.from_state(s.rng), []  # type: ignore[var-annotated]
    paused = steeling.rally(s, fate, report)
    assert [r.request.label for r in fate.records] == [f"rally test: {SWORDSMAN}"]
    assert paused.steeling == (PALADIN, "rally") and paused.to_act == "A"
    paused = replace(paused, rng=fate.state)
    offers = g.legal_actions(paused)
    assert "COU 4 vs 8: 50.0%" in offers[0].text and "COU 5 vs 8: 66.7%" in offers[1].text
    preview = g.preview(paused, offers[1].action)
    assert [r.label for r in preview.draws] == [f"rally test: {PALADIN}", f"rally test: {GUARD}"]
    out = g.apply(paused, offers[1].action)
    assert [r.request for r in out.chance] == list(preview.draws)
    assert out.chance[0].request.explain[0] == "D6 + 5+0 vs 8"
    assert out.state.fighter(PALADIN).resolute and not out.state.steeling and out.state.phase == "tactical"
    assert "(Resolute)" in out.report[0]["text"]


def test_the_rally_does_not_ask_where_dis_or_a_sure_test_makes_it_useless(g: Game) -> None:
    s = routed(g)
    bold = s.with_fighters(replace(s.fighter(PALADIN), card=s.fighter(PALADIN).card.model_copy(update={"COU": 7})))
    fate = Fate.from_state(s.rng)
    assert not steeling.rally(bold, fate, []).steeling  # COU 7 vs 8 and 8 vs 8: both fail only on a natural 1
    assert len(fate.records) == 3


def test_on_the_web_only_the_charged_fighters_side_answers(tmp_path: Path) -> None:
    """Two sides on the keeper's API: the hunter (FEAR 9, a card file beside the scenario) charges the paladin; the
    paladin's side is asked, the other side's token is refused (403), a value out of range is a 422 naming what is
    allowed, the answer is taken once (the same position again: 409), and the phone page shows both offers."""
    band = (WARBANDS / "wolfen_of_yllia.yaml").read_text().replace("    FEAR: 5\n", "    FEAR: 9\n", 1)
    (tmp_path / "wolfen.yaml").write_text(band)
    ford = (SCENARIOS / "the_ford.yaml").read_text()
    ford = ford.replace("warband: wolfen_of_yllia", "warband: wolfen.yaml").replace("at: [34, 22]", "at: [12, 8]")
    (tmp_path / "ford.yaml").write_text(ford)
    app = create_app(tmp_path / "w.db")
    keeper = app.state.keeper
    bid, tokens = keeper.create(SetupRequest(scenario=tmp_path / "ford.yaml", seed=7, db=keeper.store.url),
                                ruleset="confrontation")
    client = TestClient(app)

    def post(role: str, body: dict[str, Any]) -> Any:
        doc = client.get(f"/api/battles/{bid}", params={"token": tokens[role]}).json()
        return client.post(f"/api/battles/{bid}/actions", params={"token": tokens[role]},
                           json={**body, "position": doc["position"]})

    for body in ({"kind": "tactical"}, {"kind": "lead", "first": "B"}):
        assert any(post(role, body).status_code == 200 for role in ("A", "B"))
    assert post("B", {**HUNTER_CHARGES}).status_code == 200
    answer = {"kind": "declare", "side": "A", "fighter": PALADIN, "ability": "Resolute"}
    assert post("B", {**answer, "value": 1}).status_code == 403
    bad = post("A", {**answer, "value": 7})
    assert bad.status_code == 422 and "1 (used) or 0, not 7" in bad.text
    page = client.get(f"/b/{bid}", params={"token": tokens["A"]}).text
    assert "uses Resolute on his COU test" in page and "keeps Resolute for a later test" in page
    doc = client.get(f"/api/battles/{bid}", params={"token": tokens["A"]}).json()
    first = client.post(f"/api/battles/{bid}/actions", params={"token": tokens["A"]},
                        json={**answer, "value": 1, "position": doc["position"]})
    again = client.post(f"/api/battles/{bid}/actions", params={"token": tokens["A"]},
                        json={**answer, "value": 1, "position": doc["position"]})
    assert first.status_code == 200 and again.status_code == 409
    assert "COU test (Resolute)" in first.text


def test_a_bad_resolute_on_a_players_card_is_one_problem_named_where(tmp_path: Path) -> None:
    """A hostile card file (``Resolute/x``): the scenario is refused naming the card and the value, and only that
    (before, each of that side's fighters was also reported as "A or B is required, got 'A'", and the side as having
    no fighter: problems that were not there)."""
    lions = (WARBANDS / "lions_of_alahan.yaml").read_text().replace("Resolute/1", "Resolute/x", 1)
    (tmp_path / "lions.yaml").write_text(lions)
    ford = (SCENARIOS / "the_ford.yaml").read_text().replace("warband: lions_of_alahan", "warband: lions.yaml")
    (tmp_path / "ford.yaml").write_text(ford)
    with pytest.raises(DataFileError) as err:
        read_scenario(tmp_path / "ford.yaml")
    assert len(err.value.problems) == 1
    assert "('Alahan paladin'): Resolute/X needs a whole number X, got 'Resolute/x'" in err.value.problems[0]
