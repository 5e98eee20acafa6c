"""The games' evaluation hooks rank positions as players would (issue 28: "per-game evaluation hooks where a game
wants them (material, morale, objectives)"). Each test changes one thing in a shipped position and checks the
score moves the right way for both sides."""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.rulesets.dragonnoir import bot as dragonnoir_bot

from .conftest import started


def test_dragonnoir_a_wounded_enemy_is_worth_less_than_a_healthy_one() -> None:
    _, state = started("dragonnoir", "the_mill_house")
    hurt = state.with_men(replace(state.man("Crazy Ork"), health="stunned", stunned_at=1))
    assert dragonnoir_bot.evaluate(hurt, "A") > dragonnoir_bot.evaluate(state, "A")
    assert dragonnoir_bot.evaluate(hurt, "B") < dragonnoir_bot.evaluate(state, "B")
    wounded = state.with_men(replace(state.man("Goblin 1"), health="wounded"))
    assert dragonnoir_bot.evaluate(wounded, "A") > dragonnoir_bot.evaluate(state, "A")


def test_dragonnoir_a_strong_character_counts_more_than_a_weak_one() -> None:
    """Material weighed by strength: Crazy Ork (attack 8, defence 4, movement 6) is worth more than a goblin (3, 3, 7),
    and a wounded goblin (2, 2, 3) less than a healthy one."""
    _, state = started("dragonnoir", "the_mill_house")
    wounded = state.with_men(replace(state.man("Goblin 2"), health="wounded"))
    stats = {m.name: dragonnoir_bot.strength(wounded, m) for m in wounded.men}
    assert stats["Crazy Ork"] == (8, 4, 15.0) and stats["Goblin 1"] == (3, 3, 9.5) and stats["Goblin 2"] == (2, 2, 5.5)
    worth = {name: dragonnoir_bot.worth(wounded, wounded.man(name)) for name in stats}
    assert worth["Crazy Ork"] > worth["Goblin 1"] > worth["Goblin 2"]


def test_dragonnoir_a_wizard_s_energy_left_is_worth_something() -> None:
    """Magic points left: the same duel scores lower for a side whose wizard has spent his energy."""
    _, state = started("dragonnoir", "the_wizards_duel")
    wizard = state.wizards[0]
    side = state.man(wizard.name).side
    spent = replace(state, wizards=(replace(wizard, energy=0), *state.wizards[1:]))
    assert wizard.energy > 0
    assert dragonnoir_bot.evaluate(spent, side) < dragonnoir_bot.evaluate(state, side)
