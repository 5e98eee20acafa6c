"""Additional limb and Fencer's reserve die are announced by their players after the fight's INI test (after_ini.py),
each rule quoted.

Additional limb (active): "A fighter using Additional limb swaps his ATT and DEF for the duration of the combat being
played. If there are opponents endowed with Additional limb involved in this same combat, then the loser of the INI
roll is the first one to announce which of his fighters will be using this ability." Fencer: "When a Fencer's combat dice are being placed before a combat, one of them can be held in reserve
by the player controlling him."
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_confrontation_declarations import GUARD, HUNTER, fight, with_card
from test_confrontation_placing import engaged_fight

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game
from rulekeeper.rulesets.confrontation import after_ini
from rulekeeper.rulesets.confrontation.placing import choices, group_now, placed_so_far
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json


def limbed(g: Game, *keys: str, seed: int = 11) -> SkirmishState:
    """The ford's guard charged into the hunter; ``keys`` have Additional limb with ATT 2, DEF 5 (the swap raises
    ATT: the keeper proposes it)."""
    s = engaged_fight(g, seed=seed)
    for key in keys:
        s = with_card(s, key, abilities=["Additional limb"], ATT=2, DEF=5)
    return s


def attack_defence(s: SkirmishState, key: str) -> tuple[int, int]:
    """``key``'s ATT and DEF in the fight whose dice are being placed."""
    group = group_now(s)
    fray = placed_so_far(s, group, int(s.placing[2]))
    i = [f.key for f in (*group[0], *group[1])].index(key)
    return fray.fighters[i].attack, fray.fighters[i].defence


def test_additional_limb_is_announced_after_the_ini_test(g: Game) -> None:
    """The INI tests are drawn, then the fight waits for the hunter's announcement before any die is placed (the
    swap changes what he places): used (the keeper's proposal when it raises his ATT) or not."""
    out = fight(g, limbed(g, HUNTER))
    assert [c.request.label.split(":")[0] for c in out.chance] == ["INI test", "INI test"]
    s = out.state
    assert s.placing and s.before_ini == ("A", GUARD) and s.to_act == "B" and g.status(s).acting == (HUNTER,)
    offered = g.legal_actions(s)
    assert [(lg.action["ability"], lg.action["value"]) for lg in offered] == [("Additional limb", 1),
                                                                              ("Additional limb", 0)]
    assert "ATT 5, DEF 2 for this combat" in offered[0].text and offered[0].text.endswith("(the keeper's proposal)")
    assert {lg.note for lg in offered} == {"then the dice are placed"}
    assert state_from_json(state_to_json(s)) == s
    with pytest.raises(IllegalActionError, match="waits for Wolfen hunter.s Additional limb to be announced"):
        g.apply(s, {"kind": "place", "side": "B", "fighter": HUNTER, "attack": 1})
    with pytest.raises(IllegalActionError, match="Additional limb: 1 \\(used\\) or 0, not 3"):
        g.apply(s, {**offered[0].action, "value": 3})
    assert g.parse_words(s, ["declare", "Wolfen", "hunter", "no"]) == g.parse_action(s, offered[1].action)


def test_used_he_swaps_att_and_def_for_the_combat_not_used_he_keeps_them(g: Game) -> None:
    """"swaps his ATT and DEF for the duration of the combat": announced, the swap holds even where the keeper's
    policy would not use it; not announced, no swap even where the policy would."""
    s = fight(g, limbed(g, HUNTER)).state
    used, unused = (g.apply(s, lg.action) for lg in g.legal_actions(s))
    assert used.report[0]["text"] == f"{HUNTER} uses Additional limb" and not used.chance
    assert attack_defence(used.state, HUNTER) == (5, 2) and attack_defence(unused.state, HUNTER) == (2, 5)
    assert choices(used.state).fighter.key in (HUNTER, GUARD)  # the placements follow
    strong = fight(g, with_card(limbed(g, HUNTER), HUNTER, ATT=5, DEF=2)).state  # the swap would lower his ATT
    offered = g.legal_actions(strong)
    assert [lg.action["value"] for lg in offered] == [0, 1]  # the proposal: not used
    assert attack_defence(g.apply(strong, offered[1].action).state, HUNTER) == (2, 5)


def test_the_loser_of_the_ini_roll_announces_first(g: Game) -> None:
    """"the loser of the INI roll is the first one to announce which of his fighters will be using this ability";
    the winner announces seeing it."""
    winners = set()
    for seed in (4, 11):  # one seed where each camp wins the INI roll
        s = fight(g, limbed(g, HUNTER, GUARD, seed=seed)).state
        group, winner = group_now(s), int(s.placing[2])
        winners.add(winner)
        first = g.legal_actions(s)[0].action["fighter"]
        assert first in {f.key for f in group[1 - winner]}, seed
        after = g.apply(s, g.legal_actions(s)[0].action).state
        second = g.legal_actions(after)[0].action["fighter"]
        assert second in {f.key for f in group[winner]} and second != first
        placing = g.apply(after, g.legal_actions(after)[0].action).state
        assert [lg.action["kind"] for lg in g.legal_actions(placing)] and \
            {lg.action["kind"] for lg in g.legal_actions(placing)} == {"place"}
    assert winners == {0, 1}


def test_an_announcement_draws_nothing_and_previews_the_fight_with_it(g: Game) -> None:
    """The odds shown are the odds used: an announcement draws nothing, so its preview shows no draw and the fray's
    outlook with it (the placements as proposed), and no whole odds."""
    s = fight(g, limbed(g, HUNTER)).state
    shown = [g.preview(s, lg.action) for lg in g.legal_actions(s)]
    assert all(p.draws == () for p in shown)
    assert shown[0].headline and shown[0].headline != shown[1].headline  # ATT 5 / DEF 2 against ATT 2 / DEF 5: a different outlook
    assert all(g.whole_odds(s, lg.action) is None for lg in g.legal_actions(s))


def test_the_keeper_decides_in_battles_stored_before_the_choice(g: Game) -> None:
    """``declarations=keeper`` (a battle stored before the players declared): no announcement, the policy's swap
    (used when it raises his ATT)."""
    s = limbed(g, HUNTER)
    s = replace(s, options=(*((k, v) for k, v in s.options if k != "declarations"), ("declarations", "keeper")))
    after = fight(g, s).state
    assert {lg.action["kind"] for lg in g.legal_actions(after)} == {"place"}
    assert attack_defence(after, HUNTER) == (5, 2)


def fencer_fight(g: Game, placement: str = "players", seed: int = 11) -> SkirmishState:
    """The ford's guard charged into the hunter, a Fencer (two combat dice: one may be held in reserve)."""
    return with_card(engaged_fight(g, placement, seed=seed), HUNTER, abilities=["Fencer"])


def to_the_hunters_placement(g: Game, s: SkirmishState) -> SkirmishState:
    while after_ini.pending(s) is None:
        s = g.apply(s, g.legal_actions(s)[0].action).state
    return s


def test_a_fencer_says_whether_he_holds_a_die_before_he_places(g: Game) -> None:
    """Fencer: "When a Fencer's combat dice are being placed before a combat, one of them can be held in reserve by
    the player controlling him": just before he places, his player holds one (the keeper's proposal) or none."""
    s = to_the_hunters_placement(g, fight(g, fencer_fight(g)).state)
    offered = g.legal_actions(s)
    assert [(lg.action["fighter"], lg.action["ability"], lg.action["value"]) for lg in offered] == [
        (HUNTER, "Fencer", 1), (HUNTER, "Fencer", 0)]
    assert offered[0].text.endswith("(the keeper's proposal)") and {lg.note for lg in offered} == {"then he places his dice"}
    with pytest.raises(IllegalActionError, match="waits for Wolfen hunter's Fencer to be announced"):
        g.apply(s, {"kind": "place", "side": "B", "fighter": HUNTER, "attack": 1})
    held, none = (g.apply(s, lg.action) for lg in offered)
    assert held.report[0]["text"] == f"{HUNTER} holds one combat die in reserve" and not held.chance
    assert none.report[0]["text"] == f"{HUNTER} holds no combat die in reserve"
    c_held, c_none = choices(held.state), choices(none.state)
    assert c_held.fighter.key == c_none.fighter.key == HUNTER
    assert (c_held.reserve, c_none.reserve) == (True, False) and c_none.dice == c_held.dice + 1
    assert all("held in reserve" in lg.text for lg in g.legal_actions(held.state))
    assert not any("held in reserve" in lg.text for lg in g.legal_actions(none.state))
    assert state_from_json(state_to_json(none.state)) == none.state


def test_announced_and_placed_as_proposed_a_fight_ends_as_the_keeper_fighting_it_would(g: Game) -> None:
    """The same cards, the same RNG, the same order: Additional limb and Fencer's die announced as proposed and the
    dice placed as proposed end the fight exactly as the one-action fight (``placement=keeper``)."""
    ends = []
    for placement in ("players", "keeper"):
        s = with_card(fencer_fight(g, placement), GUARD, abilities=["Additional limb"], ATT=2, DEF=5)
        s = fight(g, s).state
        announced = 0
        while s.placing:
            action = g.legal_actions(s)[0].action
            announced += action["kind"] == "declare"
            s = g.apply(s, action).state
        assert announced == (2 if placement == "players" else 0)
        ends.append({**g.state_to_json(s), "options": None})
    assert ends[0] == ends[1]
