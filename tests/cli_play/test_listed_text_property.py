"""Issue 30, property: in random reachable states of every registered game (and the toy race), each legal
action's listed text, typed back as words, is that action; and acting by its number or by its words gives the
same outcome.

The walk's choices come from a seeded :class:`random.Random` whose seed hypothesis draws; the words are the
listed text as a shell would split it (at spaces), and as a player quoting it whole would type it.
"""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_kit import run
from rulekeeper.cli import action_words
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.ruleset import games, register_for_tests, unregister_for_tests
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService
from toygame import ToyGame

ROOT = Path(__file__).resolve().parents[2]
#: Steps of a random walk, legal actions checked per state, outcomes compared per state.
STEPS, CHECKED, APPLIED = 8, 20, 2


@pytest.fixture(scope="module", autouse=True)
def toy_registered() -> Iterator[None]:
    register_for_tests(ToyGame)
    yield
    unregister_for_tests(ToyGame.name)


NAMES = sorted({g.name for g in games()} | {ToyGame.name})


def game_named(name: str) -> Game:
    return next(g for g in [*games(), ToyGame()] if g.name == name)


def walk(g: Game, rng: random.Random) -> Iterator[Any]:
    """States reached by random legal actions from a random shipped scenario."""
    scenario = rng.choice(g.scenarios())
    state = g.initial_state(g.setup(SetupRequest(scenario=scenario.path, seed=rng.randrange(1000))).document)
    for _ in range(STEPS):
        legal = g.legal_actions(state)
        if g.status(state).over or not legal:
            return
        yield state
        state = g.apply(state, rng.choice(legal).action).state


def record(g: Game, state: Any, action: dict[str, Any]) -> str:
    return json.dumps(g.apply(state, action).record, sort_keys=True)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_listed_text_is_its_action_and_a_number_acts_as_the_words(name: str, seed: int) -> None:
    g = game_named(name)
    rng = random.Random(seed)
    checked = 0
    for state in walk(g, rng):
        legal = g.legal_actions(state)
        for n, lg in enumerate(rng.sample(legal, min(CHECKED, len(legal))), 1):
            for words in (lg.text.split(), [lg.text], shlex.split(shlex.quote(lg.text))):
                assert action_words.parse(g, state, legal, words) == lg.action, (lg.text, words)
            checked += 1
            if n <= APPLIED:
                number = legal.index(lg) + 1
                by_number = action_words.by_number(legal, number).action
                by_words = action_words.parse(g, state, legal, lg.text.split())
                assert record(g, state, by_number) == record(g, state, by_words)
    assert checked > 0


def test_acting_by_number_and_by_words_in_the_cli_logs_the_same_battle(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Two battles of one seed: one played by numbers, the other by the listed texts; their logs are identical."""
    svc = BattleService(BattleStore(None))
    starter = ROOT / "examples" / "exillis" / "starter.yaml"
    by_number, by_words = svc.new(starter, seed=7), svc.new(starter, seed=7)
    rng = random.Random(3)
    for _ in range(6):
        if svc.status(by_number).over:
            break
        listed = json.loads(run(monkeypatch, capsys, "battle", "actions", by_number, "--json")[1])["actions"]
        line = rng.choice(listed)
        assert run(monkeypatch, capsys, "battle", "act", by_number, str(line["n"]))[0] == 0
        code, _, err = run(monkeypatch, capsys, "battle", "act", by_words, *line["text"].split())
        assert code == 0, err
    logs = [[(e.action, e.result) for e in svc.store.entries(b)] for b in (by_number, by_words)]
    assert logs[0] == logs[1] and len(logs[0]) == 6
