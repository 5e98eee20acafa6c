"""Wizards in Dragon Noir battles: one spell and one counterspell per player turn, counter before the roll."""

from __future__ import annotations

import pytest
from dn_game_kit import G, act, battle, legal, man, set_man

from rulekeeper.rulesets.dragonnoir.magic import shipped_spells
from rulekeeper.rulesets.dragonnoir.sorcery import sheet
from rulekeeper.rulesets.dragonnoir.state import DNState


def _duel() -> DNState:
    return battle([man("Zacharie", "A", "B3"), man("Thrug", "A", "B4"), man("Shaman", "B", "G3"),
                   man("Goblin 1", "B", "G4")])


def test_each_wizard_starts_with_level_times_100_energy_points() -> None:
    """'available EP = Level x 100. Thus, a first-level wizard has 100 energy points.'"""
    s = _duel()
    assert {w.name: w.energy for w in s.wizards} == {"Zacharie": 100, "Shaman": 100}


def test_a_counter_is_announced_before_the_caster_rolls() -> None:
    """'The counter must be announced before the wizard who cast the spell has rolled the die. In this case, it is
    the wizard who countered who rolls the die ... A counterspell costs double the energy points of the spell
    cast.' 'Whatever the final result, both wizards spend the corresponding energy points'."""
    s = _duel()
    cast = legal(s, "cast", unit="Zacharie", spell="Stunning", target="Goblin 1")[0]
    out = G.apply(s, cast)
    assert not out.chance and out.state.pending is not None and out.state.to_act == "B"
    s = out.state
    counter = legal(s, "counter")[0]
    preview = G.preview(s, counter)
    out = G.apply(s, counter)
    assert out.chance[0].request == preview.draws[0] and out.chance[0].request.label.startswith("counterspell die")
    cost = shipped_spells().spell("Stunning")[1].ep
    after = out.state
    assert sheet(after, "Zacharie").energy == 100 - cost and sheet(after, "Shaman").energy == 100 - 2 * cost
    assert after.pending is None and after.to_act == "A"
    assert not legal(after, "cast", unit="Zacharie")  # 'each wizard can cast one spell'


def test_a_spells_odds_say_whether_the_counter_stops_it_and_whether_it_takes_effect() -> None:
    """'If the counter fails, the wizard who cast the spell rolls': the spell takes effect when the counter fails
    and then its die succeeds. Played as a user: the headline was each die's label with its chance of success,
    "spell die (Shaman: Raise the Living Deads) 60.0 %" beside the counter, as if the counter did not matter."""
    s = G.apply(_duel(), legal(_duel(), "cast", unit="Zacharie", spell="Stunning", target="Goblin 1")[0]).state

    def success(request: object) -> float:
        return sum(p for outcome, p in request.odds() if outcome.endswith("success"))  # type: ignore[attr-defined]

    countered = G.preview(s, legal(s, "counter")[0])
    stops, lands = countered.draws
    # and the third way it ends, so that the three add up (played as a user: "stops it 50.0 %, takes effect 40.0 %")
    assert countered.headline == (("Shaman's counter stops it", pytest.approx(success(stops))),
                                  ("Zacharie's Stunning takes effect", pytest.approx((1 - success(stops)) * success(lands))),
                                  ("Zacharie's Stunning fails on its own die",
                                   pytest.approx((1 - success(stops)) * (1 - success(lands)))))
    assert sum(float(p) for _, p in countered.headline) == pytest.approx(1.0)
    let_be = G.preview(s, legal(s, "let_be")[0])
    assert let_be.headline == (("Zacharie's Stunning takes effect", pytest.approx(success(let_be.draws[0]))),)
    assert 0 < success(stops) < 1 and 0 < success(lands) < 1  # neither figure is vacuous


def test_let_be_rolls_the_spell_and_a_stun_lands_as_a_stunned_result() -> None:
    s = _duel()
    for seed in range(1, 30):
        s = battle([man("Zacharie", "A", "B3"), man("Shaman", "B", "G3"), man("Goblin 1", "B", "G4")], seed=seed)
        s = act(s, kind="cast", unit="Zacharie", spell="Stunning", target="Goblin 1").state
        preview = G.preview(s, {"kind": "let_be", "side": "B"})
        out = act(s, kind="let_be")
        assert [c.request for c in out.chance] == list(preview.draws)
        if out.state.man("Goblin 1").health == "stunned":
            return
    raise AssertionError("the stun never landed in 30 seeds")


def test_a_wounded_wizard_has_half_his_energy() -> None:
    """'When a wizard is wounded, the number of energy points he has left is divided by two (rounded down).'"""
    s = _duel()
    s = set_man(s, "Goblin 1", health="wounded")  # any action syncs the magic sheets with the counters
    s = set_man(s, "Zacharie", health="wounded")
    out = act(s, kind="end")
    assert sheet(out.state, "Zacharie").energy == 50 and sheet(out.state, "Zacharie").wounded


def test_a_cast_says_its_chance_once() -> None:
    """Played as a user: "Call the Gargoyles — Shaman's Call the Gargoyles takes effect 50.0 % · 60 EP, succeeds 50%"
    (a spell nobody can counter rolls as it is cast, and its odds and its note gave the same chance). A cast that
    waits for the enemy's answer shows no odds yet, so its note keeps the die's chance."""
    s = _duel()
    listed = {(lg.action["spell"], lg.action["target"]): lg for lg in G.legal_actions(s)
              if lg.action["kind"] == "cast" and lg.action["unit"] == "Zacharie"}
    waits = listed[("Stunning", "Goblin 1")]
    assert G.preview(s, waits.action).headline == () and waits.note.startswith("30 EP, succeeds ")
    at_once = [lg for lg in listed.values() if G.preview(s, lg.action).headline]
    assert at_once, "a cast that rolls at once"
    for lg in at_once:
        cost = shipped_spells().spell(str(lg.action["spell"]))[1].ep
        assert lg.note == f"{cost} EP", lg.note
        assert "takes effect" in G.preview(s, lg.action).line()
