"""The games' evaluation hooks rank positions as players would (issue 28: "per-game evaluation hooks where a game
wants them (material, morale, objectives)"). Each test changes one thing in a shipped position and checks the
score moves the right way for both sides."""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.rulesets.dragonnoir import bot as dragonnoir_bot
from rulekeeper.rulesets.dragonnoir.state import DNState

from .conftest import started


def _moved(state: DNState, name: str, hexes: tuple[str, ...]) -> DNState:
    return state.with_men(replace(state.man(name), hexes=hexes))


def test_dragonnoir_a_wounded_enemy_is_worth_less_than_a_healthy_one() -> None:
    _, state = started("dragonnoir", "the_mill_house")
    hurt = state.with_men(replace(state.man("Crazy Ork"), health="stunned", stunned_at=1))
    assert dragonnoir_bot.evaluate(hurt, "A") > dragonnoir_bot.evaluate(state, "A")
    assert dragonnoir_bot.evaluate(hurt, "B") < dragonnoir_bot.evaluate(state, "B")
    wounded = state.with_men(replace(state.man("Goblin 1"), health="wounded"))
    assert dragonnoir_bot.evaluate(wounded, "A") > dragonnoir_bot.evaluate(state, "A")


def test_dragonnoir_a_strong_character_counts_more_than_a_weak_one() -> None:
    """Material weighed by strength: losing Crazy Ork (attack 8, defence 4) costs more than losing a goblin (3, 3)."""
    _, state = started("dragonnoir", "the_mill_house")
    no_ork = state.with_men(replace(state.man("Crazy Ork"), health="dead"))
    no_goblin = state.with_men(replace(state.man("Goblin 1"), health="dead"))
    assert dragonnoir_bot.evaluate(no_ork, "A") > dragonnoir_bot.evaluate(no_goblin, "A")


def test_dragonnoir_a_character_within_the_enemy_s_reach_is_at_risk() -> None:
    """Threat: Jon next to Crazy Ork (his side to act next) scores worse for the Archers than Jon out of reach."""
    _, state = started("dragonnoir", "the_mill_house")
    state = replace(state, side="B")
    far = _moved(_moved(state, "Crazy Ork", ("G5",)), "Jon", ("A1",))
    near = _moved(_moved(state, "Crazy Ork", ("G5",)), "Jon", ("F5",))
    assert dragonnoir_bot.evaluate(near, "A") < dragonnoir_bot.evaluate(far, "A")
