"""Rule tests (issue 9, part A): the cavalry charge's impact and terrain, the Charging Sequence at
equal priority, the Polearm's secondary weapon, the Baneret's Challenge and Intimidation ending
with the melee.

Each test quotes the seed sentence it checks (shared/seeds/000_5e8e85320d1136c5.txt); numbers
the seed does not give are the estimates of ``data/actions.yaml`` (docs/rules/exillis-battles.md).
"""

from __future__ import annotations

import pytest
from exillis_battle_kit import act, battle, chances, do, legal, nobody_acts, put, reports, setc, tables, unit, zone

from rulekeeper.core.chance import Fate
from rulekeeper.rulesets.exillis.aftermath import apply_morale
from rulekeeper.rulesets.exillis.battle.charging import melee_context
from rulekeeper.rulesets.exillis.exchange import Blow, resolve_exchange
from rulekeeper.rulesets.exillis.melee import MeleeContext, duel_odds
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.setup import UnitSpec, build, load_tables

T = load_tables()


def _pair(attacker: str, defender: str):
    taken: set[str] = set()
    return build(T, UnitSpec(attacker), "A", taken), build(T, UnitSpec(defender), "B", taken)


def _final(attacker: str, defender: str, **ctx: object) -> float:
    a, d = _pair(attacker, defender)
    return duel_odds(a, d, MeleeContext(T.rules, **ctx)).final_damage  # type: ignore[arg-type]


# -- "a powerful charge if they can manage to perform it at units in the open" ---------------------


@pytest.mark.parametrize(("cavalry", "impact"), [("Franc Chevalers", 1.5), ("Hobelars", 1.5)])
def test_a_cavalry_charge_in_the_open_strikes_harder_than_a_fight(cavalry: str, impact: float) -> None:
    """"Cavalry units have a Movement of 2 and usually have a powerful charge if they can manage to
    perform it at units in the open." The lance (wiki: "lances count as the secondary melee weapon" on
    the charge) multiplies Weapon Damage and Armour Piercing (estimates: ×1.5 for both)."""
    fight = _final(cavalry, "Vileins", action="fight")
    charge = _final(cavalry, "Vileins", action="charge")
    # Vileins' Armour 12 is pierced either way, so the damage grows by exactly the impact
    assert charge == pytest.approx(impact * fight)
    a, d = _pair(cavalry, "Vileins")
    assert any("lance impact" in line for line in duel_odds(a, d, MeleeContext(T.rules, action="charge")).explain)


def test_terrain_blunts_the_cavalry_charge() -> None:
    """"... a powerful charge if they can manage to perform it at units in the open" (seed); wiki:
    "Any terrain feature counts as protection against cavalry charges". Against units in a zone with
    a terrain feature the lance's bonus is lost (``charge_impact_in_terrain`` 0): as a fight."""
    fight = _final("Franc Chevalers", "Vileins", action="fight")
    assert _final("Franc Chevalers", "Vileins", action="charge", open_ground=False) == pytest.approx(fight)


def test_a_charge_without_a_cavalry_rule_has_no_impact() -> None:
    """"A charge is an action combining a move and a melee attack in the same turn." — only cavalry
    has the "powerful charge": an infantry charge hits as a fight."""
    assert _final("Billmen", "Vileins", action="charge") == pytest.approx(_final("Billmen", "Vileins", action="fight"))


@pytest.mark.parametrize(("terrain", "open_ground"), [(None, True), ("fences", False), ("forests", False),
                                                      ("hills", False)])
def test_units_in_the_open_are_those_in_a_zone_without_terrain(terrain: str | None, open_ground: bool) -> None:
    """Wiki (Terrain Features): "Field is the only terrain that allows a full-power cavalry charge and
    does not count as a terrain feature"; seed: "units in the open"."""
    s = battle([unit("Franc Chevalers", "A2")], [unit("Vileins", "C2")], terrain={"C2": terrain} if terrain else None)
    assert melee_context(s, tables(), zone(s, "C2"), "charge", "front").open_ground is open_ground


def test_a_charge_into_fences_rolls_without_the_lance() -> None:
    """The resolution uses the zone's terrain: a charge at Vileins behind fences loses the lance's
    impact, one at Vileins in the open has it ("units in the open")."""
    def explain(terrain: dict[str, str] | None) -> str:
        s = act(battle([unit("Franc Chevalers", "A2")], [unit("Vileins", "C2")], terrain=terrain), "A:Franc Chevalers")
        rolls = chances(do(s, "charge", "A:Franc Chevalers", "C2"), "roll to hit: A:Franc Chevalers")
        return "\n".join(rolls[0].request.explain)

    assert "lance impact ×1.5 (in the open)" in explain(None)
    assert "lance impact ×1 (blunted by terrain, 0% of ×1.5 kept)" in explain({"C2": "fences"})


# -- "Polearm: ... Charge reaction attacks are done with their Secondary melee weapon." -------------


def test_polearm_reactions_use_the_secondary_weapon() -> None:
    """"Polearm: Attacks are tiring and take an extra 500 AcP recovery time. Charge reaction attacks are
    done with their Secondary melee weapon." (estimate: the bill thrust like a spear, WpD ×0.75)."""
    fight = _final("Billmen", "Hobelars", action="fight")
    reaction = _final("Billmen", "Hobelars", action="fight", reaction=True)
    assert reaction < fight
    a, d = _pair("Billmen", "Hobelars")
    lines = duel_odds(a, d, MeleeContext(T.rules, action="fight", reaction=True)).explain
    assert any("Polearm: secondary weapon" in line for line in lines)
    # a unit without the Polearm rule reacts with its main weapon
    assert _final("Vileins", "Hobelars", action="fight", reaction=True) == _final("Vileins", "Hobelars", action="fight")


def test_a_billmen_charge_reaction_in_battle_uses_the_secondary_weapon() -> None:
    """The charge reaction of Billmen (RP 3) against Longbowmen (CP 1) is rolled with the secondary weapon."""
    for seed in range(40):
        s = act(battle([unit("Longbowmen", "B2")], [unit("Billmen", "C2")], seed=seed), "A:Longbowmen")
        rolls = chances(do(s, "charge", "A:Longbowmen", "C2"), "roll to hit: B:Billmen")
        if rolls:
            assert "Polearm: secondary weapon" in "\n".join(rolls[0].request.explain)
            return
    pytest.fail("the Billmen never reacted")


# -- "If the charger and the target have the same value, they will both perform their actions at the
#     same time, and only after are the casualties removed." ----------------------------------------


def test_equal_priority_strikes_at_the_same_time() -> None:
    """Serjants (Sword) CP 2 charge Vileins RP 2: a Vileins that reacts strikes even if the charge
    kills it ("only after are the casualties removed"); the casualties of both are removed together."""
    for seed in range(200):
        s = act(battle([unit("Serjants (Sword)", "B2")], [unit("Vileins", "C2")], seed=seed), "A:Serjants (Sword)")
        o = do(s, "charge", "A:Serjants (Sword)", "C2")
        melee = reports(o, "melee")
        if len(melee) < 2:
            continue
        assert [m["attacker"] for m in melee] == ["A:Serjants (Sword)", "B:Vileins"]
        assert melee[0]["casualties"] == []  # removed only after both rounds
        dead = set(melee[1]["casualties"])
        struck = {d["strike"]["attacker"] for d in melee[1]["duels"]}
        if dead & struck:
            return  # a Vileins cut down by the charge still struck back
    pytest.fail("no seed showed a Vileins striking back as it fell")


def test_a_simultaneous_exchange_adds_both_rounds_wounds() -> None:
    """The exchange strikes every round on the zone as it stood, then takes the sum of the wounds:
    the zone after it is what the events say (the fold of the events over the zone before)."""
    a, d = _pair("Serjants (Sword)", "Vileins")
    ctx = MeleeContext(T.rules, action="charge")
    react = MeleeContext(T.rules, action="fight", reaction=True)
    reps = resolve_exchange((a, d), [Blow(a.key, ctx), Blow(d.key, react, frozenset({a.key}), True)], Fate.from_seed(3))
    assert [r.attacker for r in reps] == [a.key, d.key]
    from rulekeeper.rulesets.exillis.events import reduce_zone

    zone_now = {c.key: c for c in (a, d)}
    for e in reps[-1].events:
        zone_now = reduce_zone(zone_now, e)
    assert tuple(zone_now[c.key] for c in (a, d)) == reps[-1].zone
    assert reps[1].fatigue.gained == 0  # "reflex-based actions: they do not cost any ... Fatigue"


# -- "the Baneret has a special technique with which he can directly attack a Hero" -----------------


def test_the_baneret_challenges_an_enemy_hero() -> None:
    """"Certain specialised techniques enable you to choose targets without going through the
    Aggressiveness system. For example, the Baneret has a special technique with which he can directly
    attack a Hero without taking the enemies' Aggressiveness into account." The Fight that names the
    hero sends the Baneret's attack to that hero alone; his Retinue fights as usual."""
    s = battle([unit("Hobelars", "C2", hero="Knight Baneret")], [unit("Billmen", "C2", hero="Decurion")])
    s = act(nobody_acts(s), "A:Hobelars")
    texts = [lg.action.text() for lg in legal(s)]
    assert "fight A:Hobelars B:Decurion" in texts
    o = do(s, "fight", "A:Hobelars", "B:Decurion")
    assign = {r.request.label: r.request.outcomes for r in chances(o, "target assignment")}
    assert assign["target assignment: A:Knight Baneret"] == ("B:Decurion",)
    assert "B:Billmen #1" in assign["target assignment: A:Hobelars #1"]


def test_only_a_baneret_may_challenge_and_only_heroes() -> None:
    """The technique is the Baneret's: other units have no Fight naming a target."""
    s = battle([unit("Hobelars", "C2")], [unit("Billmen", "C2", hero="Decurion")])
    s = act(nobody_acts(s), "A:Hobelars")
    assert [lg.action for lg in legal(s) if lg.action.kind == "fight" and lg.action.target] == []


# -- Intimidation ends with the melee ------------------------------------------------------------------


def test_intimidation_ends_when_the_melee_ends() -> None:
    """"Intimidation represents how the unit perceives its own chance of coming out of the melee
    victorious ... Total Intimidation of every friendly miniature in the melee / Total Intimidation of
    every enemy miniature in the melee." A dynamic modifier: with no melee left it is taken back."""
    s = battle([unit("Hobelars", "B2")], [unit("Vileins", "E4")])
    s = setc(s, "A:Hobelars", morale=154.0, intimidation_mod=84.0)
    o = do(act(nobody_acts(s), "A:Hobelars"), "wait", "A:Hobelars")
    h = o.state.unit("A:Hobelars").c
    assert (h.morale, h.intimidation_mod) == (70.0, 0.0)
    assert any("no longer in a melee" in r for m in reports(o, "morale") for r in m["reasons"])


def test_intimidation_stays_while_the_melee_lasts() -> None:
    """While enemies stand in the zone the modifier is kept (and recomputed by the next resolution)."""
    s = battle([unit("Hobelars", "C2")], [unit("Vileins", "C2")])
    s = setc(s, "A:Hobelars", morale=154.0, intimidation_mod=20.0)
    s = put(s, "B:Vileins", acp=0.0)
    o = do(act(nobody_acts(s), "A:Hobelars"), "wait", "A:Hobelars")
    assert o.state.unit("A:Hobelars").c.intimidation_mod == 20.0


def test_the_round_that_ends_a_melee_ends_its_intimidation() -> None:
    """"When a melee ends, i.e. every enemy is either dead or routed ..." — the resolution that kills
    the last enemy also takes back the winners' Intimidation modifier."""
    a, d = _pair("Billmen", "Vileins")
    a = setc_combatant(a, morale=120.0, intimidation_mod=40.0)
    dead = setc_combatant(d, hp=tuple(0.0 for _ in d.hp))
    after, changes = apply_morale((a, d), (a, dead), [], [], ExIllisOptions())
    assert (after[0].morale, after[0].intimidation_mod) == (80.0, 0.0)
    assert any("melee over" in r for c in changes for r in c.reasons)


def setc_combatant(c, **fields):  # type: ignore[no-untyped-def]
    from exillis_battle_kit import combatant_with

    return combatant_with(c, **fields)
