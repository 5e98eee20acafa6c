"""``core.base.BaseGame``: every optional protocol member has a working default, so a game writes only
``core.base.REQUIRED`` (the protocol issue: 31 members demanded of every game; the toy game shows the
minimum and stays within 120 code lines)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulekeeper.core import ruleset as ruleset_module
from rulekeeper.core.base import REQUIRED, BaseGame
from rulekeeper.core.capabilities import army_builder_of, capabilities, duel_kernel_of, web_presenter_of
from rulekeeper.core.errors import IllegalActionError, RulekeeperError, UnknownNameError
from rulekeeper.core.game import Game, JsonDict, LegalAction, Outcome, Status
from rulekeeper.core.rng import RngState
from rulekeeper.core.ruleset import (
    game_refusal,
    games,
    missing_members,
    protocol_members,
    refusals,
    register_for_tests,
    registered,
    unregister_for_tests,
)
from rulekeeper.core.statecodec import DamagedStateError, from_json, to_json
from rulekeeper.service.reading import game_of
from toygame.game import SCENARIO_DIR, ToyGame

TOY = Path(__file__).resolve().parents[1] / "toygame" / "game.py"


@dataclass(frozen=True)
class Column:
    height: int
    label: str | None


@dataclass(frozen=True)
class Stack:
    """A state with the shapes the codec must read back: nested records, tuples, dicts, the RNG."""

    columns: tuple[Column, ...]
    pair: tuple[int, str]
    marks: dict[str, float]
    rng: RngState


class Stacking(BaseGame[Stack]):
    name, title, state_type = "stacking", "Stacking", Stack

    def legal_actions(self, state: Stack) -> list[LegalAction]:
        return [LegalAction({"kind": "raise", "column": i, "side": "A"}, f"raise column {i + 1}", "A", label=f"C{i + 1}")
                for i in range(len(state.columns))]

    def status(self, state: Stack) -> Status:
        return Status(False, ("A",))

    def initial_state(self, document: JsonDict) -> Stack:
        return stack()

    def apply(self, state: Stack, action: JsonDict) -> Outcome:
        return Outcome.made(state, action, "A", (), ())


def stack() -> Stack:
    return Stack((Column(2, "left"), Column(0, None)), (3, "x"), {"a": 1.5}, RngState.from_seed(4))


def code_lines(path: Path) -> int:
    """Lines that are code: not blank, not a comment, not a docstring."""
    source = path.read_text(encoding="utf-8")
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node):
            docstrings.update(range(node.body[0].lineno, (node.body[0].end_lineno or 0) + 1))
    return sum(1 for number, line in enumerate(source.splitlines(), 1)
               if line.strip() and not line.strip().startswith("#") and number not in docstrings)


def test_the_state_codec_round_trips_every_shape() -> None:
    state = stack()
    encoded = to_json(state)
    assert encoded["columns"] == [{"height": 2, "label": "left"}, {"height": 0, "label": None}]
    assert encoded["rng"] == state.rng.to_dict() and encoded["pair"] == [3, "x"]
    assert from_json(Stack, encoded) == state


@pytest.mark.parametrize(("damage", "where"), [
    (lambda d: d.pop("marks"), "state: missing marks"),
    (lambda d: d["columns"][1].update(height="tall"), "state.columns[1].height: int expected, not str"),
    (lambda d: d.update(pair=[1]), "state.pair: 2 items are expected, not 1"),
    (lambda d: d.update(rng={"state": 1}), "state.rng: not an RNG state"),
])
def test_a_damaged_state_is_refused_naming_the_field(damage: object, where: str) -> None:
    encoded = to_json(stack())
    damage(encoded)  # type: ignore[operator]
    with pytest.raises(DamagedStateError) as refused:
        from_json(Stack, encoded)
    assert refused.value.message.startswith(where)


def test_a_game_of_the_required_members_is_a_whole_game() -> None:
    g = Stacking()
    assert isinstance(g, Game)
    assert len(REQUIRED) <= 10 and set(REQUIRED) - {"state_type"} <= set(protocol_members())
    state = stack()
    assert g.state_from_json(g.state_to_json(state)) == state
    assert "rng" not in g.view(state, "A") and g.view(state, "A")["pair"] == [3, "x"]
    assert g.roles({}) == ("A", "B") and g.reseeded({"seed": 1, "x": 2}, 9) == {"seed": 9, "x": 2}
    assert g.reseeded({"x": 2}, 9) == {"x": 2}  # no chance, no seed: unchanged
    assert g.policy(state) == {"kind": "raise", "column": 0, "side": "A"}
    assert g.side_of({"kind": "raise", "side": "A"}) == "A" and g.result(state) is None
    assert missing_members(g) == () and capabilities(g) == ("chance",)  # no optional part, no option
    assert web_presenter_of(g) is None and army_builder_of(g) is None and duel_kernel_of(g) is None


def test_a_base_game_that_leaves_a_required_member_out_is_refused_naming_it() -> None:
    """The base declares ``status`` and the other rules abstract, and ``state_type`` has no value: a
    subclass that forgets one still has the attribute, yet registration names it as missing."""

    class Forgetful(BaseGame[Stack]):
        name, title = "forgetful", "Forgetful"

        def legal_actions(self, state: Stack) -> list[LegalAction]:
            return []

        def initial_state(self, document: JsonDict) -> Stack:
            return stack()

        def apply(self, state: Stack, action: JsonDict) -> Outcome:
            return Outcome.made(state, action, "A", (), ())

    assert missing_members(Forgetful) == ("status", "state_type")
    assert not hasattr(Forgetful, "status") and not isinstance(Forgetful(), Game)  # type: ignore[abstract]
    register_for_tests(Forgetful)
    try:
        assert game_refusal("forgetful") == "is not a whole game: it lacks `status`, `state_type`"
        assert "forgetful" not in [g.name for g in games()]
        with pytest.raises(RulekeeperError, match="Forgetful is not a whole game: it lacks `status`, `state_type`"):
            game_of("forgetful")  # what battle new answers
    finally:
        unregister_for_tests("forgetful")


def test_a_plugin_without_its_name_is_refused_naming_it_not_a_crash() -> None:
    nameless = type("Nameless", (), {"title": "Nameless"})
    registered()
    ruleset_module._LOADED["nameless"] = nameless  # the way an entry point registers: under its own key
    try:
        assert refusals()["nameless"] == "has no whole battles (only its calculator)"
        assert missing_members(nameless)[:1] == ("name",)
        assert "nameless" not in [g.name for g in games()]
    finally:
        unregister_for_tests("nameless")


def test_default_parsing_reads_forms_words_labels_and_listed_texts() -> None:
    g, state = Stacking(), stack()
    second = {"kind": "raise", "column": 1, "side": "A"}
    assert g.parse_action(state, {"kind": "RAISE", "column": "1"}) == second  # a form's text, the side filled in
    assert g.parse_words(state, ["raise column 2"]) == second  # the listed text
    assert g.parse_words(state, ["c2"]) == second  # the label
    assert g.parse_words(state, ["raise", "1"]) == second  # the values in order
    assert g.parse_action(state, {"kind": "raise", "column": 1, "side": "B"})["side"] == "B"  # "not your turn" later
    with pytest.raises(IllegalActionError) as refused:
        g.parse_words(state, ["lower", "1"])
    assert refused.value.details["legal"] == ["raise column 1", "raise column 2"]


def test_options_are_chosen_over_the_declared_defaults() -> None:
    toy = ToyGame()
    assert toy.chosen_options([]) == {"bust": "one"} and toy.chosen_options(["bust = none"]) == {"bust": "none"}
    with pytest.raises(UnknownNameError):
        toy.chosen_options(["bust=sometimes"])
    with pytest.raises(UnknownNameError):
        toy.chosen_options(["colour=red"])


def test_the_toy_game_shows_the_minimum() -> None:
    lines = code_lines(TOY)
    print(f"tests/toygame/game.py: {lines} code lines")
    assert lines <= 120
    assert [s.key for s in ToyGame().scenarios()] == sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))
    written = {n for n, v in vars(ToyGame).items() if callable(v) and not n.startswith("_")}
    assert set(REQUIRED) - {"name", "title", "state_type"} <= written


def test_legal_side_names_the_side_of_a_legal_action_and_refuses_any_other() -> None:
    g = Stacking()
    state = stack()
    assert g.legal_side(state, {"kind": "raise", "column": 1, "side": "A"}) == "A"
    with pytest.raises(IllegalActionError, match="not a legal action of Stacking now"):
        g.legal_side(state, {"kind": "raise", "column": 2, "side": "A"})
    with pytest.raises(IllegalActionError):
        g.legal_side(state, {"kind": "raise", "column": [1], "side": "A"})  # unhashable: refused, no TypeError
