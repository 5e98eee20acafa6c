"""War fury and Sequence are the players' to declare before a fight's INI test (before_ini.py), each rule quoted.

War fury (active): "This ability can be used in every combat before the INI test. When using this ability the
fighter gets an additional combat die placed in attack for that combat. Additionally, the following lasts until
the end of the round: he must place more dice in attack than in defence; he suffers a -1 to the natural result of
his DEF." Sequence/X (active): "A fighter with this ability can acquire up to X additional combat dice in every
combat he takes part … This ability activates before the INI test."
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from test_confrontation_placing import engaged_fight

from rulekeeper.core.errors import IllegalActionError
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.placing import choices
from rulekeeper.rulesets.confrontation.skirmish import fray_of, group_of, next_round
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

HUNTER, GUARD = "Wolfen hunter", "Alahan guard"


def with_card(s: SkirmishState, key: str, **changes: Any) -> SkirmishState:
    """``key``'s card changed (abilities, characteristics), the rest of the skirmish as it is."""
    f = s.fighter(key)
    return s.with_fighters(replace(f, card=f.card.model_copy(update=changes)))


def furious_fight(g: Game, furious: bool = False) -> SkirmishState:
    """The ford's guard charged into the hunter, who has War fury (``furious``: he used it earlier this round)."""
    s = with_card(engaged_fight(g), HUNTER, abilities=["War fury"])
    return s.with_fighters(replace(s.fighter(HUNTER), furious=furious))


def fight(g: Game, s: SkirmishState) -> Any:
    return g.apply(s, {"kind": "fight", "side": "A", "fighter": GUARD})


def hunter_side(s: SkirmishState) -> tuple[int, int, int]:
    """The hunter's combat dice, his attack-only dice and the DEF test's modifier in the fight underway."""
    group = group_of(s, s.fighter(GUARD))
    assert group is not None
    fray = fray_of(group, s)
    i = [f.key for f in (*group[0], *group[1])].index(HUNTER)
    return fray.dice(i), fray.fighters[i].attack_only_dice(), fray.fighters[i].shape("DEF", False).natural_bonus


def test_war_fury_is_the_players_choice_before_the_ini_test(g: Game) -> None:
    """"This ability can be used in every combat before the INI test": the fight draws nothing; the hunter's player
    declares (used, the keeper's proposal, listed first; or not); nothing else is legal meanwhile."""
    out = fight(g, furious_fight(g))
    assert not out.chance
    s = out.state
    assert s.before_ini == ("A", GUARD) and s.to_act == "B" and g.status(s).acting == (HUNTER,)
    offered = g.legal_actions(s)
    assert [(lg.action["kind"], lg.action["value"]) for lg in offered] == [("declare", 1), ("declare", 0)]
    assert offered[0].text.endswith("(the keeper's proposal)") and "uses War fury" in offered[0].text
    assert {lg.note for lg in offered} == {"then the INI tests"} and {lg.side for lg in offered} == {"B"}
    assert state_from_json(state_to_json(s)) == s  # the declarations under way are stored with the state
    with pytest.raises(IllegalActionError, match="waits for Wolfen hunter's War fury to be declared before its INI test"):
        g.apply(s, {"kind": "fight", "side": "B", "fighter": HUNTER})
    with pytest.raises(IllegalActionError, match="War fury: 1 \\(used\\) or 0, not 2"):
        g.apply(s, {"kind": "declare", "side": "B", "fighter": HUNTER, "ability": "War fury", "value": 2})
    assert g.parse_words(s, ["declare", "Wolfen", "hunter", "yes"]) == g.parse_action(
        s, {"kind": "declare", "fighter": HUNTER, "ability": "War fury", "value": 1})


def test_war_fury_used_adds_its_attack_die_and_binds_him_until_the_round_ends(g: Game) -> None:
    """"the fighter gets an additional combat die placed in attack for that combat … he must place more dice in
    attack than in defence; he suffers a -1 to the natural result of his DEF"; the last declaration draws the INI
    tests, as the fight would have."""
    s = fight(g, furious_fight(g)).state
    used = g.apply(s, g.legal_actions(s)[0].action)
    assert [c.request.label.split(":")[0] for c in used.chance] == ["INI test", "INI test"]
    after = used.state
    assert after.placing and after.fighter(HUNTER).furious
    dice, forced, defence = hunter_side(after)
    assert forced == 1 and defence == -1
    while choices(after).fighter.key != HUNTER:
        after = g.apply(after, g.legal_actions(after)[0].action).state
    c = choices(after)
    assert c.forced == 1 and c.dice == dice  # his dice to place; War fury's goes to attack on top
    assert all(n + c.forced > c.dice - n for n in c.allowed)  # more dice in attack than in defence
    assert min(c.allowed) + c.forced <= c.dice - min(c.allowed) + 1


def test_war_fury_not_used_gives_no_die_and_no_constraint(g: Game) -> None:
    s = fight(g, furious_fight(g)).state
    unused = g.apply(s, g.legal_actions(s)[1].action).state
    assert not unused.fighter(HUNTER).furious
    dice, forced, defence = hunter_side(unused)
    assert (forced, defence) == (0, 0)
    while choices(unused).fighter.key != HUNTER:
        unused = g.apply(unused, g.legal_actions(unused)[0].action).state
    c = choices(unused)
    assert c.forced == 0 and c.dice == dice and sorted(c.allowed) == list(range(c.dice + 1))  # any count


def test_an_earlier_use_this_round_still_binds_him_without_its_die(g: Game) -> None:
    """"Additionally, the following lasts until the end of the round": used in an earlier fight this round and not
    now, he gets no die but must still place more dice in attack than in defence, DEF -1."""
    s = fight(g, furious_fight(g, furious=True)).state
    offered = g.legal_actions(s)
    assert "his earlier use this round still binds him" in offered[1].text
    bound = g.apply(s, offered[1].action).state
    dice, forced, defence = hunter_side(bound)
    assert (forced, defence) == (0, -1)
    while choices(bound).fighter.key != HUNTER:
        bound = g.apply(bound, g.legal_actions(bound)[0].action).state
    c = choices(bound)
    assert c.forced == 0 and c.allowed and all(n > c.dice - n for n in c.allowed)


def test_sequence_dice_as_the_seeds_example_allows(g: Game) -> None:
    """Sequence/X: "Malek has ATT 6 and DEF 3, he also suffers Serious wound penalties, so his ATT is 4 and DEF is 1.
    He has Sequence/2. He can take one die, going to ATT 3, DEF 0, but he cannot take the second one"."""
    s = with_card(engaged_fight(g), HUNTER, abilities=["Sequence/2"], ATT=6, DEF=3, HP=4)
    s = s.with_fighters(replace(s.fighter(HUNTER), hp=2))  # Serious wounds: -2 (the table's Serious)
    s = fight(g, s).state
    offered = g.legal_actions(s)
    assert [lg.action["value"] for lg in offered] == [1, 0] and offered[0].action["ability"] == "Sequence"
    with pytest.raises(IllegalActionError, match="0 to 1 die \\(his ATT and DEF allow no more\\), not 2"):
        g.apply(s, {**offered[0].action, "value": 2})
    before = hunter_side(g.apply(s, offered[1].action).state)[0]
    assert hunter_side(g.apply(s, offered[0].action).state)[0] == before + 1


def test_declared_as_proposed_a_fight_ends_as_the_keeper_declaring_would(g: Game) -> None:
    """The same cards, the same RNG, the same order: War fury declared as proposed (used) in every fight of the
    ford ends exactly as ``declarations=keeper`` (a battle stored before the choice), but for the record of his use
    (``furious``, kept until the round's end)."""
    ends = {}
    for declarations in ("players", "keeper"):
        info = next(sc for sc in g.scenarios() if sc.key == "the_ford")
        s = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=2,
                                                 options=(f"declarations={declarations}",))).document)
        declared = 0
        while not g.status(s).over:
            action = g.policy(s)
            assert action is not None
            declared += action["kind"] == "declare"
            s = g.apply(s, action).state
        doc = g.state_to_json(s)
        ends[declarations] = {**doc, "options": None,
                              "fighters": [{k: v for k, v in f.items() if k not in ("furious", "resolute")} for f in doc["fighters"]]}
        assert (declared > 0) == (declarations == "players")
    assert ends["players"] == ends["keeper"]


def test_the_last_declarations_preview_is_the_fights_first_draws(g: Game) -> None:
    """The odds shown are the odds used: the fight that waits for declarations previews no draw; the last
    declaration previews the INI tests it draws."""
    s = furious_fight(g)
    assert g.preview(s, {"kind": "fight", "side": "A", "fighter": GUARD}).draws == ()
    waiting = fight(g, s).state
    for lg in g.legal_actions(waiting):
        shown = g.preview(waiting, lg.action).draws
        drawn = [c.request for c in g.apply(waiting, lg.action).chance]
        assert [r.label for r in shown] == [r.label for r in drawn][:len(shown)] and len(shown) == 2
        assert [r.probabilities for r in shown] == [r.probabilities for r in drawn[:2]]


def resolute_fight(g: Game, spent: bool = False) -> SkirmishState:
    """The ford's guard charged into the hunter, who has Resolute/1 (``spent``: he used it earlier this round)."""
    s = with_card(engaged_fight(g), HUNTER, abilities=["Resolute/1"])
    return s.with_fighters(replace(s.fighter(HUNTER), resolute=spent))


def hunter_ini(s: SkirmishState) -> int:
    """The modifier of the hunter's INI test in the fight underway (Resolute's X "counts as written on the card")."""
    group = group_of(s, s.fighter(GUARD))
    assert group is not None
    fray = fray_of(group, s)
    i = [f.key for f in (*group[0], *group[1])].index(HUNTER)
    return fray.fighters[i].shape("INI", False).modifier


def test_resolute_is_declared_right_before_the_ini_test(g: Game) -> None:
    """Resolute/X (active): "This ability can be used once per round right before any INI, ATT, DEF or COU test
    made by the fighter. For that test, the Characteristic is increased by X": his player declares it before the
    fight's INI test (used, the keeper's proposal, or kept); used, +1 INI and spent until the round's end."""
    s = fight(g, resolute_fight(g)).state
    offered = g.legal_actions(s)
    assert [(lg.action["ability"], lg.action["value"]) for lg in offered] == [("Resolute", 1), ("Resolute", 0)]
    assert "uses Resolute on this INI test: +1 INI (once per round)" in offered[0].text
    assert offered[0].text.endswith("(the keeper's proposal)") and "keeps Resolute" in offered[1].text
    used = g.apply(s, offered[0].action)
    assert [c.request.label.split(":")[0] for c in used.chance] == ["INI test", "INI test"]
    assert used.state.fighter(HUNTER).resolute and hunter_ini(used.state) == 1
    assert used.report[0]["text"] == f"{HUNTER} uses Resolute"  # the log's words (action_text)
    assert g.apply(s, offered[1].action).report[0]["text"] == f"{HUNTER} does not use Resolute"
    kept = g.apply(s, offered[1].action).state
    assert not kept.fighter(HUNTER).resolute and hunter_ini(kept) == 0
    with pytest.raises(IllegalActionError, match="Resolute: 1 \\(used\\) or 0, not 2"):
        g.apply(s, {**offered[0].action, "value": 2})
    assert g.parse_words(s, ["declare", "Wolfen", "hunter", "no"]) == g.parse_action(s, offered[1].action)


def test_resolute_once_per_round(g: Game) -> None:
    """"once per round": used in an earlier fight this round, he is not asked again and his INI test has no bonus;
    the next round gives it back (``next_round`` clears the mark)."""
    spent = resolute_fight(g, spent=True)
    out = fight(g, spent)
    assert out.chance and not out.state.before_ini  # nothing to declare: the INI tests are drawn at once
    assert hunter_ini(spent) == 0 and hunter_ini(resolute_fight(g)) == 1
    later = next_round(spent, [])
    assert not later.fighter(HUNTER).resolute
    assert state_from_json(state_to_json(spent)).fighter(HUNTER).resolute  # the mark is stored with the state


def test_resolute_the_keeper_declaring_gives_every_fight(g: Game) -> None:
    """A battle stored before the players declared (``declarations=keeper``) replays as it was played: Resolute on
    every fight's INI test, nothing to declare and no mark kept (the 'once per round' limit comes with the players'
    declarations)."""
    s = resolute_fight(g)
    s = replace(s, options=(*((k, v) for k, v in s.options if k != "declarations"), ("declarations", "keeper")))
    out = fight(g, s)
    assert out.chance and not out.state.before_ini and not out.state.fighter(HUNTER).resolute
    assert hunter_ini(out.state) == 1


def test_resolute_used_does_not_cut_the_fights_other_declarations(g: Game) -> None:
    """Used, his Resolute is spent for the round's later fights, not for this one's queue: the guard's War fury is
    still asked after the hunter's Resolute (the camp that did not order the fight declares first)."""
    s = with_card(resolute_fight(g), GUARD, abilities=["War fury"])
    s = fight(g, s).state
    first = g.legal_actions(s)[0].action
    assert (first["fighter"], first["ability"]) == (HUNTER, "Resolute")
    after = g.apply(s, first)
    assert not after.chance and after.state.fighter(HUNTER).resolute
    assert [(lg.action["fighter"], lg.action["ability"]) for lg in g.legal_actions(after.state)] == [(GUARD, "War fury")] * 2
    assert hunter_ini(g.apply(after.state, g.legal_actions(after.state)[0].action).state) == 1


PALADIN, HUNTER_B = "Alahan paladin", "Wolfen hunter"


def paladin_near_the_hunter(g: Game, declarations: str = "players") -> SkirmishState:
    """The ford's activation phase: the paladin (Resolute/1, COU 6) 8 cm from the hunter (FEAR 9 here: a COU test
    Resolute's +1 makes likelier)."""
    info = next(sc for sc in g.scenarios() if sc.key == "the_ford")
    s = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=7,
                                             options=(f"declarations={declarations}",))).document)
    while s.phase != "activation":
        s = g.apply(s, g.legal_actions(s)[0].action).state
    hunter = s.fighter(HUNTER_B)
    s = s.with_fighters(replace(s.fighter(PALADIN), x=hunter.x - 8, y=hunter.y, facing=0.0),
                        replace(hunter, card=hunter.card.model_copy(update={"FEAR": 9})))
    return replace(s, to_act="A")


def test_resolute_on_the_charges_cou_test_is_his_players_choice(g: Game) -> None:
    """Resolute/X: "once per round right before any INI, ATT, DEF or COU test … For that test, the Characteristic is
    increased by X": a charge whose COU test he must pass is offered with and without it; with it the test is COU 7
    (shown and drawn alike), and it is spent for the round (marked: a later INI test does not ask it)."""
    s = paladin_near_the_hunter(g)
    charges = [lg for lg in g.legal_actions(s) if lg.action["kind"] == "charge" and lg.action["target"] == HUNTER_B
               and lg.action["fighter"] == PALADIN]
    assert [lg.action.get("resolute") for lg in charges] == [None, True]
    assert charges[1].text.endswith("spending Resolute on his COU test (+1 COU; not on an INI test this round)")
    plain, steeled = (g.preview(s, lg.action) for lg in charges)
    assert [r.label for r in steeled.draws][:1] == [f"COU test: {PALADIN}"]
    assert steeled.draws[0].explain[0] == "D6 + 7+0 vs 9" and plain.draws[0].explain[0] == "D6 + 6+0 vs 9"
    assert dict(steeled.headline)[f"{PALADIN} passes COU 7 vs FEAR 9"] > dict(plain.headline)[
        f"{PALADIN} passes COU 6 vs FEAR 9"]
    out = g.apply(s, charges[1].action)
    assert out.chance[0].request == steeled.draws[0]
    paladin = out.state.fighter(PALADIN)
    assert paladin.resolute and not paladin.steeled
    assert "COU test (Resolute)" in out.report[0]["text"]
    assert g.parse_words(s, ["charge", "Alahan", "paladin", "Wolfen", "hunter", "resolute"]) == \
        g.parse_action(s, charges[1].action)
    spent = replace(s, fighters=tuple(replace(f, resolute=f.key == PALADIN) for f in s.fighters))
    assert not any(lg.action.get("resolute") for lg in g.legal_actions(spent))
    with pytest.raises(IllegalActionError, match="cannot spend Resolute on this charge's COU test"):
        g.apply(spent, charges[1].action)


def test_no_resolute_on_a_charge_in_a_battle_stored_before_the_choice(g: Game) -> None:
    s = paladin_near_the_hunter(g, "keeper")
    assert not any(lg.action.get("resolute") for lg in g.legal_actions(s))
