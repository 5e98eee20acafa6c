"""Rule tests: lightning and artillery resolve by their own rules, not like arrows (issue 9, point 4),
close-range friendly fire by Aggressiveness and the spell-resist option (point 7).

Each test quotes the seed sentence it checks (shared/seeds/000_5e8e85320d1136c5.txt, "Fate Screen",
"Armour Types", "Special Rules", "Stats").
"""

from __future__ import annotations

import math

import pytest
from exillis_battle_kit import act, battle, chances, do, legal, nobody_acts, put, setc, tables

from rulekeeper.core.chance import Fate
from rulekeeper.rulesets.exillis.artillery import boulder_request, fragment_request, resolve_artillery
from rulekeeper.rulesets.exillis.battle.draws import opening_draws
from rulekeeper.rulesets.exillis.battle.shooting import crossed
from rulekeeper.rulesets.exillis.lightning import bolt_odds, bolt_request, resolve_lightning
from rulekeeper.rulesets.exillis.options import ExIllisOptions
from rulekeeper.rulesets.exillis.ranged import ShotSetup, shot_odds
from rulekeeper.rulesets.exillis.spells import resist_weights


def _setup(state, shooter: str, target: str, shot: str, bonus: float = 1.0) -> ShotSetup:
    u = state.unit(shooter)
    z = state.board.parse(target)
    assert u.zone is not None
    return ShotSetup(u.c, tuple(x.c for x in state.in_zone(z)), state.terrain_at(z), crossed(state, u.zone, z),
                     state.board.distance(u.zone, z), shot, tables().rules, state.options, bonus)


def _ympes_at(enemies, terrain=None, allies=()):
    s = battle([{"unit": "Ympes", "zone": "A1"}, *allies], enemies, terrain=terrain or {})
    return act(nobody_acts(s), "A:Ympes")


# -- Lightning --------------------------------------------------------------------------------


def test_lightning_is_a_zone_attack_not_a_spell_cast_at_one_unit():
    """Lightning Attacks Possible Results: "Bulk Hit: The projectile hits an enemy because of the zone's
    density (Bulk)" — the caster picks a zone, the bolt picks the miniature."""
    s = _ympes_at([{"unit": "Billmen", "zone": "B1"}])
    shots = {(lg.action.target, lg.action.option) for lg in legal(s) if lg.action.kind == "shoot"}
    casts = {lg.action.option for lg in legal(s) if lg.action.kind == "cast"}
    assert ("B1", "lightning") in shots
    assert "lightning" not in casts and "firebolt" in casts


def test_armour_multiplies_each_miniatures_bulk_for_lightning():
    """"Armour multiplies each miniature's Bulk." Medium Armour: "the Bulk is multiplied by 2 for
    targeting"; Heavy Armour: "the Bulk is multiplied by 3 for targeting"."""
    s = _ympes_at([{"unit": "Billmen", "zone": "B1"}, {"unit": "Vileins", "zone": "B1"},
                   {"unit": "Franc Chevalers", "zone": "B1"}])
    odds, lines = bolt_odds(_setup(s, "A:Ympes", "B1", "lightning"))
    p = dict(odds)
    # Billmen (medium) 8 × 2 × 2 = 32, Vileins (light) 8 × 2 × 1 = 16, Franc Chevalers (heavy) 4 × 4 × 3 = 48
    assert math.isclose(p["Bulk hit"], 0.9)  # no cover, no friend: all but Luck and Bad Luck
    assert any("medium armour 2 = 32" in x for x in lines)
    assert any("heavy armour 3 = 48" in x for x in lines)
    out = do(s, "shoot", "A:Ympes", "B1", "lightning")
    pick = chances(out, "which miniature: A:Ympes #1")
    assert pick, "the bolt picks a miniature by Bulk × Armour"
    w = dict(zip(pick[0].request.outcomes, pick[0].request.weights, strict=True))
    assert w["B:Billmen #1"] == 4.0 and w["B:Vileins #1"] == 2.0 and w["B:Franc Chevalers #1"] == 12.0


def test_lightning_is_drawn_to_cover_twice_and_never_falls_on_free_space():
    """"Cover: The projectile hits cover in the targeted zone. Lightning is drawn to cover and has twice
    the chances to hit cover." (No "Missed" result is listed for lightning.)"""
    s = _ympes_at([{"unit": "Vileins", "zone": "B1"}], terrain={"B1": "fences"})
    odds, _ = bolt_odds(_setup(s, "A:Ympes", "B1", "lightning"))
    p = dict(odds)
    # Vileins 16 against fences cover 16 × 2 = 32
    assert math.isclose(p["Bulk hit"], 0.9 * 16 / 48) and math.isclose(p["Cover"], 0.9 * 32 / 48)
    assert set(p) == {"Bulk hit", "Friendly fire", "Cover", "Luck", "Bad Luck"}
    assert math.isclose(p["Luck"], 0.05) and math.isclose(p["Bad Luck"], 0.05)


def test_lightning_friendly_fire_follows_the_rule_of_bulk():
    """"Friendly Fire: The projectile hits a friendly miniature in accordance with the rule of Bulk.
    Armour multiplies each miniature's Bulk." — and "it will cause a Morale penalty of 5 for each ally hit"."""
    s = _ympes_at([{"unit": "Vileins", "zone": "B1"}], allies=[{"unit": "Billmen", "zone": "B1"}])
    p = dict(bolt_odds(_setup(s, "A:Ympes", "B1", "lightning"))[0])
    assert math.isclose(p["Friendly fire"], 0.9 * 32 / 48) and math.isclose(p["Bulk hit"], 0.9 * 16 / 48)
    setup = _setup(s, "A:Ympes", "B1", "lightning")
    for seed in range(40):
        report = resolve_lightning(setup, Fate.from_seed(seed))
        ff = [r for r in report.shots if r.outcome == "Friendly fire"]
        if ff:
            billmen = next(m for m in report.morale if m.unit == "A:Billmen")
            assert any("friendly fire" in r for r in billmen.reasons)
            return
    pytest.fail("no friendly fire in 40 volleys")


def test_a_struck_miniature_may_resist_unless_luck():
    """"Resisted: The projectile strikes a miniature, but it resists all of its effects." / "Luck: The
    projectile strikes an enemy miniature with 50% increased damage, leaving the miniature no chance
    to resist."."""
    s = _ympes_at([{"unit": "Vileins", "zone": "B1"}])
    setup = _setup(s, "A:Ympes", "B1", "lightning")
    seen = set()
    for seed in range(30):
        fate = Fate.from_seed(seed)
        report = resolve_lightning(setup, fate)
        labels = [r.request.label for r in fate.records]
        for shot in report.shots:
            seen.add(shot.outcome)
            resist = f"resist roll: {shot.shooter} → {shot.target}"
            if shot.outcome == "Luck":
                assert resist not in labels
            if shot.outcome in ("Bulk hit", "Resisted"):
                assert resist in labels
    assert {"Bulk hit", "Resisted", "Luck"} <= seen


def test_lightning_preview_is_the_first_bolt_draw():
    """The odds shown before the action are the resolution's first draw ("where the bolt falls")."""
    s = _ympes_at([{"unit": "Vileins", "zone": "B1"}])
    lg = next(lg for lg in legal(s) if lg.action.kind == "shoot" and lg.action.option == "lightning")
    (req,) = opening_draws(s, tables(), lg)
    out = do(s, "shoot", "A:Ympes", "B1", "lightning")
    first = out.chance[0].request
    assert (req.label, req.outcomes, req.probabilities) == (first.label, first.outcomes, first.probabilities)
    assert req.label == "where the bolt falls: A:Ympes #1"
    assert req == bolt_request(_setup(s, "A:Ympes", "B1", "lightning"), "A:Ympes #1")


# -- Artillery --------------------------------------------------------------------------------


def _mangonel(enemies, allies=()):
    s = battle([{"unit": "Mangonel", "zone": "A1"}, *allies], enemies, width=5, height=4)
    return act(nobody_acts(s), "A:Mangonel")


def test_the_mangonel_shoots_artillery_and_must_reload():
    """Artillery: "Must reload between each shot."."""
    s = _mangonel([{"unit": "Billmen", "zone": "D1"}])
    assert ("D1", "artillery") in {(lg.action.target, lg.action.option) for lg in legal(s) if lg.action.kind == "shoot"}
    out = do(s, "shoot", "A:Mangonel", "D1", "artillery")
    s2 = act(nobody_acts(out.state), "A:Mangonel")
    assert [lg.action.kind for lg in legal(s2) if lg.action.kind in ("shoot", "reload")] == ["reload"]


def test_the_boulder_gives_direct_hit_friendly_fire_or_missed():
    """Artillery Possible Results: "Direct hit: The centre of the shot is a potent boulder and hits a very
    unlucky victim for massive damage." / "Friendly Fire" / "Missed: The whole blast fails to hit anything."."""
    s = _mangonel([{"unit": "Billmen", "zone": "B1"}], allies=[{"unit": "Vileins", "zone": "B1"}])
    req = boulder_request(_setup(s, "A:Mangonel", "B1", "artillery"), "A:Mangonel")
    assert req.outcomes == ("Direct hit", "Friendly fire", "Missed")
    w = dict(zip(req.outcomes, req.weights, strict=True))
    racc = s.unit("A:Mangonel").c.stat("racc")
    assert math.isclose(w["Direct hit"], racc + 16) and w["Friendly fire"] == 16 and w["Missed"] == 80 - 32
    assert "Luck" not in req.outcomes  # no Luck is listed among the artillery results


def test_a_landed_boulder_throws_fragments_that_partially_hit():
    """"Partial Hit: The blast of the artillery attack hits an enemy." / Fate Screen "Artillery fragment:
    an enemy has suffered a hit from a fragment rather than the actual boulder."."""
    s = _mangonel([{"unit": "Billmen", "zone": "B1"}])
    setup = _setup(s, "A:Mangonel", "B1", "artillery")
    frag = fragment_request(setup, setup.target_zone, "x")
    assert frag.outcomes == ("Partial hit", "Friendly fire", "Missed")
    outcomes = set()
    for seed in range(30):
        fate = Fate.from_seed(seed)
        report = resolve_artillery(setup, fate)
        outcomes |= {r.outcome for r in report.shots}
        boulder = fate.records[0].outcome
        fragments = [r for r in fate.records if r.request.label.startswith("where the fragment falls")]
        assert len(fragments) == (0 if boulder == "Missed" else 2)
    assert {"Direct hit", "Partial hit", "Missed"} <= outcomes


def test_fragments_deal_a_share_of_the_boulder_damage():
    """"a hit from a fragment rather than the actual boulder" — less than the boulder's "massive damage"."""
    s = _mangonel([{"unit": "Billmen", "zone": "B1"}])
    setup = _setup(s, "A:Mangonel", "B1", "artillery")
    direct, partial = [], []
    for seed in range(40):
        for r in resolve_artillery(setup, Fate.from_seed(seed)).shots:
            (direct if r.outcome == "Direct hit" else partial if r.outcome == "Partial hit" else []).append(r.damage)
    assert direct and partial and max(partial) < min(direct)


def test_heroes_are_less_likely_to_be_hit_by_artillery():
    """Artillery: "Heroes are less likely to be hit."."""
    s = _mangonel([{"unit": "Billmen", "zone": "B1", "hero": "Decurion"}])
    setup = _setup(s, "A:Mangonel", "B1", "artillery")
    records = []
    for seed in range(10):
        fate = Fate.from_seed(seed)
        resolve_artillery(setup, fate)
        records += fate.records
    pick = next(r for r in records if r.request.label.startswith("which miniature:"))
    w = dict(zip(pick.request.outcomes, pick.request.weights, strict=True))
    assert w["B:Decurion"] == 1.5 and w["B:Billmen #1"] == 2.0  # Decurion Bulk 3 × 0.5 (estimate)


def test_consecutive_artillery_shots_at_one_zone_scatter_less():
    """Artillery: "Each consecutive shot in the same zone scatters less."."""
    s = _mangonel([{"unit": "Billmen", "zone": "D1"}])
    (before,) = opening_draws(s, tables(), next(lg for lg in legal(s) if lg.action.option == "artillery"))
    first = dict(zip(before.outcomes, before.weights, strict=True))
    again = put(s, "A:Mangonel", last_target="D1", streak=2)
    lg = next(lg for lg in legal(again) if lg.action.option == "artillery")
    (req,) = opening_draws(again, tables(), lg)
    w = dict(zip(req.outcomes, req.weights, strict=True))
    assert w["Direct hit"] > first["Direct hit"] and w["Missed"] == first["Missed"]


# -- Close range: allies hit only if more aggressive ------------------------------------------


def test_close_range_shots_hit_only_more_aggressive_allies():
    """Aggressiveness: "ranged attackers shooting at close range (inside the same melee) can accidentally
    hit their allies if those allies have a higher Aggressiveness than theirs"."""
    s = battle([{"unit": "Arbalestiers", "zone": "B2"}, {"unit": "Ympes", "zone": "B2"}, {"unit": "Billmen", "zone": "B2"}],
               [{"unit": "Vileins", "zone": "B2"}])
    o = shot_odds(_setup(s, "A:Arbalestiers", "B2", "shot"))
    # Arbalestiers AGG 2: Ympes (AGG 1) are behind them, Billmen (AGG 3) in front
    assert o.weights["Allied space"] == 16.0
    assert o.weights["Free space"] == 80 - 16 - 16
    s2 = setc(s, "A:Billmen", hp=(0.0,) * 8)
    o2 = shot_odds(_setup(s2, "A:Arbalestiers", "B2", "shot"))
    assert o2.weights["Allied space"] == 0.0  # the Ympes alone are never hit (they were 9.3 % before)


def test_far_shots_still_hit_any_ally():
    """Friendly Fire: "The projectile hits a friendly miniature in accordance with the rule of Bulk" —
    the Aggressiveness exception is only for shots "inside the same melee"."""
    s = battle([{"unit": "Longbowmen", "zone": "A2"}, {"unit": "Ympes", "zone": "B2"}], [{"unit": "Vileins", "zone": "B2"}])
    assert shot_odds(_setup(s, "A:Longbowmen", "B2", "shot")).weights["Allied space"] == 10.0


# -- Spell resist: Magic (default) or Magic Accuracy (option) ---------------------------------


def test_spell_resist_compares_magic_by_default_and_magic_accuracy_as_an_option():
    """Default — "the casting unit's Magic is compared to the enemy's appropriate Elemental Resistance
    using the AR 2.5". Option spell_resist=macc — Magic Accuracy "is also used to evaluate the chances a
    spell has to hit when it can be resisted"."""
    s = battle([{"unit": "Ympes", "zone": "A1"}], [{"unit": "Vileins", "zone": "B1"}])
    ympes, vileins = s.unit("A:Ympes").c, s.unit("B:Vileins").c
    by_magic, _, lines = resist_weights(ympes, vileins, "fire", ExIllisOptions())
    by_macc, _, lines2 = resist_weights(ympes, vileins, "fire", ExIllisOptions.parse(["spell_resist=macc"]))
    assert any("Magic 18" in x for x in lines) and any("MAcc 45" in x for x in lines2)
    p = by_magic["Spell hit"] / sum(by_magic.values())
    q = by_macc["Spell hit"] / sum(by_macc.values())
    assert q > p  # MAcc 45 outweighs Magic 18 against Resistance 15


def test_no_shield_blocks_a_boulder():
    """Missile Block: "this value shows the chances to block an incoming ranged attack. When blocking an enemy
    arrow or bolt, the defender does not take any damage." — a boulder is neither (no Blocked among the
    "Artillery Possible Results")."""
    s = _mangonel([{"unit": "Serjants (Spear)", "zone": "B1"}])
    assert s.unit("B:Serjants (Spear)").c.stat("mblk") > 0
    setup = _setup(s, "A:Mangonel", "B1", "artillery")
    for seed in range(20):
        fate = Fate.from_seed(seed)
        report = resolve_artillery(setup, fate)
        assert not any(r.request.label.startswith("missile block") for r in fate.records)
        assert not any(r.blocked for r in report.shots)
