"""Issue 25, points 7 and 8: the preview of a shot at a fleeing unit, and the failed attack's morale.

Each fault is reproduced first as the issue reported it, then the reading the docs record
(docs/rules/battlesystem.md, "Options" and "Decisions where the guide is silent").
"""

from __future__ import annotations

import json
from fractions import Fraction

from bs_kit import G, battle, set_unit
from rigged_fate import RiggedFate
from typer.testing import CliRunner

from rulekeeper.cli.app import app
from rulekeeper.rulesets.battlesystem import BattleSystemOptions, Reach, Unit, attack_odds, load_unit_types
from rulekeeper.rulesets.battlesystem.combat import resolve_attack


def _fresh(name: str, morale: int | None = None) -> Unit:
    u = Unit.fresh(load_unit_types().get(name))
    return u if morale is None else Unit(u.card, u.name, u.soldiers, morale, u.ammunition)


def test_odds_of_a_shot_at_a_fleeing_unit_show_no_morale_roll() -> None:
    """Issue 25 (7): `odds battlesystem missile Archers "Light Infantry" --morale 0 --json` said p_defender_flees
    1.0 and showed a morale-damage distribution, but "A unit that has been reduced to 0 morale" rolls none."""
    out = CliRunner().invoke(app, ["odds", "battlesystem", "missile", "Archers", "Light Infantry", "--morale", "0",
                                   "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["morale_damage"] == {"0": 1.0}
    assert doc["p_defender_flees"] == 0.0 and doc["defender_fleeing"] is True
    assert doc["mean_casualties"] == 23.5  # 5d10+10+0-14 (27.5 - 4): the shot itself is unchanged


def test_preview_is_the_roll_for_a_shot_at_a_fleeing_unit() -> None:
    """The morale distribution shown is what the resolution does: no morale roll at 0 morale, whatever the roll."""
    odds = attack_odds(_fresh("Archers"), _fresh("Light Infantry", 0), "missile")
    assert odds.morale_to_defender == {0: Fraction(1)} and odds.p_breaks(0) == 0
    res = resolve_attack(RiggedFate({"Missile: Archers on Light Infantry": ["32"]}), _fresh("Archers"),
                         _fresh("Light Infantry", 0), Reach(2), kind="missile")
    assert (res.casualties, res.morale) == (32, None)
    # in a battle: the shot's preview says the target already flees, and draws the one request the shot draws
    s = set_unit(battle([("A", "Archers", "Bows", "A1"), ("B", "Light Infantry", "Foot", "C1"),
                         ("B", "Pikemen", "Pikes", "H1")]), "Foot", morale=0)
    shot = {"kind": "shoot", "side": "A", "unit": "Bows", "target": "Foot"}
    head = G.preview(s, shot).headline_dict()
    assert head["target flees"] == "already fleeing: no morale roll"
    assert [c.request.label for c in G.apply(s, shot).chance] == ["Missile: Bows on Foot"]


def test_a_failed_attack_rolls_no_morale_by_default_as_the_seeds_example() -> None:
    """Issue 25 (8). The failed-attack example: "Military Police attack and roll 5d10+2+0-25 (or simply 5d10-23).
    The roll results in a -7 which means that the military police unit ends up losing 7 soldiers." — and no
    morale roll. Default now; the rule sentence "Every time a unit deals damage to a different unit, they also
    roll for morale damage" stays the option `failed_attack_morale=defender`."""
    assert BattleSystemOptions().failed_attack_morale == "none"
    wanted = {"Attack: Military Police on Pikemen": ["-7"], "Morale damage: Pikemen on Military Police": ["15"]}
    r = resolve_attack(RiggedFate(wanted), _fresh("Military Police"), _fresh("Pikemen"), Reach(1))
    assert (r.roll, r.attacker_losses, r.morale, r.attacker.morale) == (-7, 7, None, 100)
    assert attack_odds(_fresh("Military Police"), _fresh("Pikemen")).morale_to_attacker == {0: Fraction(1)}
    other = BattleSystemOptions(failed_attack_morale="defender")
    r = resolve_attack(RiggedFate(wanted), _fresh("Military Police"), _fresh("Pikemen"), Reach(1), options=other)
    assert r.morale is not None and (r.morale.victim, r.morale.damage) == ("Military Police", 7)
