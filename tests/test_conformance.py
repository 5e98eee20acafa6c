"""The one conformance test every registered ruleset must pass (cf. OpenSpiel's playthroughs).

Every ruleset is driven only through the core protocols, never through its own modules:

* **the calculator** (:class:`rulekeeper.core.ruleset.Ruleset`, every registered ruleset):
  names and aliases resolve, options are well-formed, the roster is JSON-able, a sample
  resolution is reproducible from its seed, its chance records sum to 1 and replay;
* **whole battles** (:class:`rulekeeper.core.game.Game`, every registered game plus the toy
  game of ``tests/toygame``), for each shipped scenario: random legal playthroughs with random
  undos that replay bit for bit from the initial document; exact JSON round-trips of the
  state; per-side views without the RNG state or the other side's secrets; illegal actions
  refused with a typed error and nothing changed; and **odds preview = odds used**: the
  chance requests ``preview`` announces are exactly those the resolution draws.

The test's own choices (which action, when to undo, which states to sample) come from a
seeded :class:`random.Random`; the seeds come from hypothesis.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekeeper.core.chance import ChanceRequest, Fate, verify_replay
from rulekeeper.core.errors import RulekeeperError, UnknownNameError
from rulekeeper.core.game import SPECTATOR, Game, JsonDict, Outcome, SetupRequest
from rulekeeper.core.registered import rules_of
from rulekeeper.core.ruleset import (
    Ruleset,
    find_ruleset,
    games,
    register_for_tests,
    registered,
    unregister_for_tests,
)
from rulekeeper.core.ruleset import game as game_named
from toygame import ToyGame

TOY = ToyGame.name


@pytest.fixture(scope="module", autouse=True)
def toy_registered() -> Iterator[None]:
    """The toy game plays beside the installed games for this module only."""
    register_for_tests(ToyGame)
    yield
    unregister_for_tests(TOY)


# Collected before the fixture runs: the installed rulesets and games, then the toy game.
RULESETS = sorted(set(registered()) | {TOY})
_INSTALLED_GAMES = {g.name: g for g in games() if g.name != TOY}
GAME_NAMES = [*sorted(_INSTALLED_GAMES), TOY]
SCENARIOS = [(name, sc.key) for name, g in [*sorted(_INSTALLED_GAMES.items()), (TOY, ToyGame())]
             for sc in g.scenarios()]

#: Hypothesis examples per (game, scenario) and the step cap of one playthrough (actions and undos).
#: Ex illis actions cost 2–4 ms; its longest scenarios end in ~120–180 actions. 2 examples, not 4: a clean
#: clone's suite took 15:16 with 4 and 17:18 with 3 (2026-12-03, a slower machine); each example is a whole
#: battle with undos, round-trips, view and odds checks, and the odds sweep below plays every scenario a third
#: time (a seed of its own), so each scenario is still played whole three times a run.
EXAMPLES = {TOY: 15}
DEFAULT_EXAMPLES = 2
STEP_CAP = {TOY: 200}
DEFAULT_STEP_CAP = 220
#: Chance in a playthrough of: an undo; a JSON round-trip; a view check; an illegal action;
#: an odds check of every legal action.
P_UNDO, P_ROUNDTRIP, P_VIEW, P_ILLEGAL, P_ODDS = 0.08, 0.15, 0.2, 0.1, 0.05
#: Label prefixes (before ":") the odds check must have matched, per game: the check is not vacuous.
#: Seeds of the non-vacuity sweep (odds at every sampled state of every scenario).
ODDS_SEEDS = (1,)
P_ODDS_SWEEP = 0.3


def the_game(name: str) -> Game:
    g = game_named(name)
    assert isinstance(g, Game), f"{name} does not implement the game protocol"
    return g


# -- the calculator protocol (every registered ruleset) ----------------------------------------------


def test_at_least_the_two_shipped_rulesets_are_registered() -> None:
    assert {"exillis", "wartable", "battlesystem"} <= set(RULESETS)
    assert "exillis" in GAME_NAMES and TOY in GAME_NAMES


@pytest.mark.parametrize("name", RULESETS)
def test_ruleset_conforms(name: str) -> None:
    cls = registered()[name]
    rs = cls()
    assert isinstance(rs, Ruleset)
    assert cls.name == name and cls.title
    for alias in (cls.name, *cls.aliases, cls.name.upper()):
        assert find_ruleset(alias) is cls
    opts = rs.options()
    assert len({o.name for o in opts}) == len(opts)
    for o in opts:
        assert o.default in o.choices and o.help
    roster = rs.roster()  # optional (core.base.BaseGame: none); the shipped games all have one
    assert all("name" in u for u in roster) and (roster or name == TOY)
    json.dumps(roster)
    first = rs.sample_resolution(fa := Fate.from_seed(2026))
    again = rs.sample_resolution(Fate.from_seed(2026))
    assert first.to_dict() == again.to_dict()
    json.dumps(first.to_dict())
    assert fa.start is not None
    verify_replay(fa.start, fa.records)
    for rec in fa.records:
        if rec.request.kind == "discrete":
            assert math.isclose(sum(rec.request.probabilities), 1.0, rel_tol=1e-12)
    if cls.deterministic:
        assert not fa.records
    else:
        assert fa.records
        other = rs.sample_resolution(Fate.from_seed(2027))
        assert other.to_dict() != first.to_dict()


def test_unknown_ruleset_suggests_closest() -> None:
    with pytest.raises(UnknownNameError) as err:
        find_ruleset("exilis")
    assert "exillis" in err.value.suggestions


def test_games_lists_a_game_registered_later() -> None:
    assert TOY in {g.name for g in games()}
    assert isinstance(rules_of(the_game("dice race")), ToyGame)


# -- helpers of the game protocol checks --------------------------------------------------------------


def walk(doc: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Every (path, key, value) of a JSON document (key None for list items)."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield f"{path}/{k}", k, v
            yield from walk(v, f"{path}/{k}")
    elif isinstance(doc, (list, tuple)):
        for i, v in enumerate(doc):
            yield f"{path}/{i}", None, v
            yield from walk(v, f"{path}/{i}")


def rng_numbers(state_json: JsonDict) -> set[int]:
    """The RNG state integers kept in a state's JSON (under any key naming ``rng``); the small
    ones (0, the has_uint32 flag) are left out, they cannot identify an RNG state."""
    out: set[int] = set()
    for _, key, value in walk(state_json):
        if isinstance(key, str) and "rng" in key.lower():
            out |= {v for _, _, v in walk(value) if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2**20}
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**20:
                out.add(value)
    return out


def assert_no_rng(doc: Any, numbers: set[int], where: str) -> None:
    """No key naming ``rng`` anywhere in ``doc``, and none of the RNG integers, as numbers or in text."""
    for path, key, value in walk(doc):
        assert not (isinstance(key, str) and "rng" in key.lower()), f"{where}: RNG key at {path}"
        if isinstance(value, int) and not isinstance(value, bool):
            assert value not in numbers, f"{where}: an RNG state integer at {path}"
    text = json.dumps(doc)
    for n in numbers:
        assert str(n) not in text, f"{where}: an RNG state integer in the text"


def check_views(g: Game, state: Any, roles: tuple[str, ...]) -> None:
    doc = g.state_to_json(state)
    numbers = rng_numbers(doc)
    if not g.deterministic:
        assert numbers, f"{g.name}: the state JSON keeps no RNG state (under a key naming 'rng')"
    for role in (*roles, SPECTATOR):
        view = g.view(state, role)
        assert isinstance(view, dict)
        assert json.loads(json.dumps(view)) == view, f"{g.name}: the view of {role} is not plain JSON"
        assert_no_rng(view, numbers, f"{g.name} view of {role}")
        secrets = getattr(g, "secrets", None)  # the game declares what each role must never see
        if callable(secrets):
            assert secrets(state, SPECTATOR), f"{g.name}: declares secrets but keeps none from a spectator"
            text = json.dumps(view)
            for secret in secrets(state, role):
                assert secret not in text, f"{g.name}: {role} sees a secret of another side ({secret!r})"


def check_status(g: Game, state: Any) -> list[Any]:
    """Status, legal actions and result agree; every legal action is canonical and of a side to act."""
    status = g.status(state)
    legal = g.legal_actions(state)
    assert status.over == (not status.to_act), f"{g.name}: to_act must be empty exactly when over"
    assert (g.result(state) is not None) == status.over
    if status.over:
        assert not legal and g.policy(state) is None
        json.dumps(g.result(state).summary)  # type: ignore[union-attr]
    else:
        assert legal, f"{g.name}: nobody can act but the battle is not over"
        for lg in legal:
            assert lg.side in status.to_act and g.side_of(lg.action) == lg.side
            assert g.parse_action(state, lg.action) == lg.action, f"{g.name}: a legal action is not canonical"
        policy = g.policy(state)
        assert policy is not None and policy in [lg.action for lg in legal]
    return legal


def check_outcome(g: Game, out: Outcome, action: JsonDict) -> None:
    assert out.action == action and out.side == g.side_of(action)
    if g.deterministic:
        assert not out.chance, f"{g.name} is deterministic but drew chance"
    assert json.loads(json.dumps(out.record)) == out.record, f"{g.name}: the record is not plain JSON"
    assert out.record["chance"] == [c.to_dict() for c in out.chance]
    assert "report" in out.record and list(out.report) == list(out.record["report"])
    for rec in out.chance:
        rec.recheck()
        if rec.request.kind == "discrete":
            assert math.isclose(sum(rec.request.probabilities), 1.0, rel_tol=1e-12)


def check_illegal(g: Game, state: Any, action: JsonDict, why: str) -> None:
    before = g.state_to_json(state)
    with pytest.raises(RulekeeperError):
        g.apply(state, action)
    assert g.state_to_json(state) == before, f"{g.name}: a refused action ({why}) changed the state"


def same_request(a: ChanceRequest, b: ChanceRequest) -> bool:
    return (a.kind, a.outcomes, a.probabilities, a.low, a.high) == (b.kind, b.outcomes, b.probabilities, b.low, b.high)


def check_odds(g: Game, state: Any, legal: list[Any], matched: Counter[str]) -> None:
    """For every legal action: the previewed draws are exactly the first draws of its resolution.

    Walk the chance records in order; while a record's label was previewed, its outcomes and
    probabilities must equal the previewed request's; stop at the first record whose label was
    not previewed (later draws depend on earlier results).
    """
    before = g.state_to_json(state)
    for lg in legal:
        odds = g.preview(state, lg.action)
        for _, value in odds.headline:
            assert isinstance(value, str) or -1e-9 <= value <= 1.0 + 1e-9, f"{g.name}: {lg.text}: {value}"
        by_label: dict[str, ChanceRequest] = {}
        for req in odds.draws:
            assert req.label not in by_label, f"{g.name}: two previewed draws labelled {req.label!r}"
            by_label[req.label] = req
        if not by_label:
            continue
        out = g.apply(state, lg.action)
        for rec in out.chance:
            want = by_label.get(rec.request.label)
            if want is None:
                break
            assert same_request(want, rec.request), (
                f"{g.name}: {lg.text}: the preview of {rec.request.label!r} is {want.odds()}, "
                f"the roll used {rec.request.odds()}")
            matched[rec.request.label.split(":", 1)[0]] += 1
    assert g.state_to_json(state) == before, f"{g.name}: preview or apply changed the state it was given"


def setup_of(g: Game, scenario_key: str, seed: int) -> JsonDict:
    sc = next(s for s in g.scenarios() if s.key == scenario_key)
    setup = g.setup(SetupRequest(scenario=sc.path, seed=seed))
    assert setup.ruleset == g.name
    doc: JsonDict = json.loads(json.dumps(setup.document))
    assert doc == setup.document, f"{g.name}: the initial document is not plain JSON"
    return doc


@dataclass
class Step:
    state: Any
    json: JsonDict
    action: JsonDict | None = None  # the action played from here, once played
    record: JsonDict | None = None


@dataclass
class Playthrough:
    """One random playthrough: the line of states kept (undo = go back in it) and what was seen."""

    g: Game
    document: JsonDict
    rnd: random.Random
    line: list[Step] = field(default_factory=list)
    played: list[JsonDict] = field(default_factory=list)  # every action ever applied, undone or not
    matched: Counter[str] = field(default_factory=Counter)
    steps: int = 0
    undos: int = 0

    def run(self, cap: int, p_odds: float) -> None:
        g, rnd = self.g, self.rnd
        roles = g.roles(self.document)
        assert roles and SPECTATOR not in roles
        state = g.initial_state(self.document)
        assert g.state_to_json(state) == g.state_to_json(g.initial_state(self.document))
        self.line = [Step(state, g.state_to_json(state))]
        while self.steps < cap:
            self.steps += 1
            here = self.line[-1]
            legal = check_status(g, here.state)
            if rnd.random() < P_VIEW:
                check_views(g, here.state, roles)
            if rnd.random() < P_ILLEGAL:
                self.try_illegal(here.state, legal)
            if not legal:
                break
            if len(self.line) > 1 and rnd.random() < P_UNDO:
                self.undo(rnd.randint(1, min(3, len(self.line) - 1)))
                continue
            if rnd.random() < p_odds:
                check_odds(g, here.state, legal, self.matched)
            action = rnd.choice(legal).action
            out = g.apply(here.state, action)
            check_outcome(g, out, action)
            if rnd.random() < P_ROUNDTRIP:
                self.roundtrip(here, action, out)
            here.action, here.record = action, out.record
            self.played.append(action)
            self.line.append(Step(out.state, g.state_to_json(out.state)))
        check_views(g, self.line[-1].state, roles)

    def undo(self, n: int) -> None:
        """Go back ``n`` states; the state kept is untouched and replays the undone action exactly."""
        self.undos += 1
        del self.line[-n:]
        back = self.line[-1]
        assert self.g.state_to_json(back.state) == back.json, f"{self.g.name}: a later apply changed a kept state"
        assert back.action is not None and back.record is not None
        again = self.g.apply(back.state, back.action)
        assert again.record == back.record, f"{self.g.name}: the same action from the same state drew differently"
        back.action = back.record = None

    def roundtrip(self, here: Step, action: JsonDict, out: Outcome) -> None:
        """state_to_json ∘ state_from_json is exact, and the restored state plays on identically."""
        g = self.g
        doc = here.json
        restored = g.state_from_json(json.loads(json.dumps(doc)))
        assert g.state_to_json(restored) == doc, f"{g.name}: the state JSON does not round-trip"
        again = g.apply(restored, action)
        assert again.record == out.record and g.state_to_json(again.state) == g.state_to_json(out.state)

    def try_illegal(self, state: Any, legal: list[Any]) -> None:
        g = self.g
        status = g.status(state)
        base = legal[0].action if legal else (self.played[-1] if self.played else None)
        if base is not None:
            check_illegal(g, state, {**base, "kind": "no-such-kind-ever"}, "a made-up kind")
        others = [a for a in self.played if g.side_of(a) not in status.to_act]
        if others:
            check_illegal(g, state, self.rnd.choice(others), "an action of a side not to act")

    def replay(self) -> None:
        """The actions kept, applied again from the initial document: identical at every step."""
        g = self.g
        state = g.initial_state(self.document)
        assert g.state_to_json(state) == self.line[0].json
        for i, step in enumerate(self.line[:-1]):
            assert step.action is not None and step.record is not None
            out = g.apply(state, step.action)
            assert out.record == step.record, f"{g.name}: replayed action {i} drew differently"
            state = out.state
            assert g.state_to_json(state) == self.line[i + 1].json, f"{g.name}: replayed state {i + 1} differs"


# -- whole battles through the game protocol -----------------------------------------------------------


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS)
def test_random_playthroughs_replay_exactly(name: str, scenario: str) -> None:
    g = the_game(name)

    @settings(max_examples=EXAMPLES.get(name, DEFAULT_EXAMPLES), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(min_value=0, max_value=2**32 - 1))
    def playthrough(seed: int) -> None:
        p = Playthrough(g, setup_of(g, scenario, seed), random.Random(seed))
        p.run(STEP_CAP.get(name, DEFAULT_STEP_CAP), P_ODDS)
        p.replay()

    playthrough()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_odds_preview_is_the_odds_used(name: str) -> None:
    """The odds check over every scenario, and proof that it compared something."""
    g = the_game(name)
    matched: Counter[str] = Counter()
    undos = longest = 0
    for sc in g.scenarios():
        for seed in ODDS_SEEDS:
            p = Playthrough(g, setup_of(g, sc.key, seed), random.Random(seed * 7919))
            p.run(STEP_CAP.get(name, DEFAULT_STEP_CAP), P_ODDS_SWEEP)
            p.replay()
            matched += p.matched
            undos += p.undos
            longest = max(longest, p.steps)
    if longest > 20:
        assert undos, f"{name}: no playthrough undid anything"
    for prefix in getattr(g, "previewed_draws", ()):  # declared by the game, so a plugin needs no edit here
        assert matched[prefix] > 0, f"{name}: no previewed draw {prefix!r} was ever compared ({dict(matched)})"
    if not g.deterministic:
        assert sum(matched.values()) > 0, f"{name}: the preview never announced a draw the resolution made"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_game_ships_scenarios_and_refuses_junk(name: str) -> None:
    g = the_game(name)
    scenarios = g.scenarios()
    assert scenarios and len({s.key for s in scenarios}) == len(scenarios)
    for s in scenarios:
        assert s.name and s.path.is_file()
    doc = setup_of(g, scenarios[0].key, 0)
    state = g.initial_state(doc)
    with pytest.raises(RulekeeperError):
        g.parse_action(state, {"kind": "no-such-kind-ever"})
    with pytest.raises(RulekeeperError):
        g.state_from_json({"nothing": "here"})
    with pytest.raises(RulekeeperError):
        g.setup(SetupRequest(scenario=Path(__file__)))


# -- the service and the API: face-down results --------------------------------------------------------


def _chance_action(g: Game, state: Any) -> JsonDict | None:
    """A legal action whose resolution draws chance (found by applying it on the side)."""
    for lg in g.legal_actions(state):
        if g.apply(state, lg.action).chance:
            return lg.action
    return None


@pytest.mark.parametrize("name", GAME_NAMES)
def test_face_down_results_stay_hidden(name: str, tmp_path: Path) -> None:
    """``act(shown=False)`` of a chance action: everyone sees the state before it, without RNG.

    A deterministic game has no face-down results: an action acted with ``shown=False`` is
    visible at once.
    """
    from rulekeeper.web.api import create_app

    g = the_game(name)
    app = create_app(tmp_path / "conformance.db")
    keeper = app.state.keeper
    sc = g.scenarios()[0]
    bid, tokens = keeper.create(SetupRequest(scenario=sc.path, seed=5, db=keeper.store.url), ruleset=name)
    svc = keeper.service
    action: JsonDict | None = None
    for _ in range(300):
        state = svc.state(bid)
        if g.status(state).over:
            break
        action = _chance_action(g, state)
        if action is not None:
            break
        if g.deterministic:
            action = g.policy(state)
            break
        policy = g.policy(state)
        assert policy is not None
        svc.act(bid, policy)
    assert action is not None, f"{name}: no chance action came up"
    before = svc.state(bid)
    out, _ = svc.act(bid, action, shown=False)
    visible = svc.visible(bid)
    client = TestClient(app)
    if g.deterministic:
        assert not out.chance and visible.pending is None
        assert g.state_to_json(visible.state) == g.state_to_json(out.state)
        shown_state = out.state
    else:
        assert out.chance and visible.pending is not None
        assert g.state_to_json(visible.state) == g.state_to_json(before)
        shown_state = before
    numbers = rng_numbers(g.state_to_json(before)) | rng_numbers(g.state_to_json(out.state))
    for role, token in tokens.items():
        body = client.get(f"/api/battles/{bid}", params={"token": token}).json()
        assert body["pending"] is (not g.deterministic) and body["role"] == role
        assert body["state"] == json.loads(json.dumps(g.view(shown_state, role)))
        assert_no_rng(body, numbers, f"API view of {role}")
        log = client.get(f"/api/battles/{bid}/log", params={"token": token}).json()
        if not g.deterministic:
            assert log["entries"][-1]["report"] == []
        assert_no_rng(log, numbers, f"API log of {role}")
