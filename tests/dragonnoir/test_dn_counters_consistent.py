"""Issue 24, point 7: the estimated counters and the combat table agree with what the docs say of them."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from rulekeeper.rulesets.dragonnoir.data import shipped_sheet

DOCS = Path("docs/rules/dragonnoir.md").read_text(encoding="utf-8")
SHEET = shipped_sheet()


def test_regression_grasts_mounted_potential_is_twice_his_foot_one() -> None:
    """'if the character mounts, the points remaining to the character on foot are multiplied by two' (the docs:
    'A mounted potential is twice the foot one'); the fault: Grast 6 on foot, 14 mounted."""
    _, grast = SHEET.character("Grast")
    assert grast.mounted is not None
    assert grast.mounted["healthy"].movement == 2 * grast.foot["healthy"].movement == 14
    assert "A mounted potential is twice the foot one" in DOCS


def test_regression_a_wounded_mounted_thrug_is_slower_than_a_healthy_one() -> None:
    """The fault: wounded mounted Thrug moved 16, as healthy. '(Special case: for Thrug, instead of dividing by 2 or 4,
    divide by 4 or 8.)': his wounded foot potential is an eighth of the wounded mounted one."""
    _, thrug = SHEET.character("Thrug")
    assert thrug.mounted is not None
    wounded, healthy = thrug.mounted["wounded"].movement, thrug.mounted["healthy"].movement
    assert wounded < healthy and (healthy, wounded) == (16, 12)
    assert thrug.foot["wounded"].movement == wounded // 8 == 1
    assert thrug.foot["healthy"].movement == healthy // 4 == 4


def _hurt_at(column: str, table: str = "foot") -> Fraction:
    combat = SHEET.combat
    i = combat.columns.index(column)
    rows = combat.tables[table]
    return Fraction(sum(1 for die in range(1, 11) if rows[die][i] in "DEF"), 10)


def test_regression_the_docs_give_the_tables_odds_of_hurting_a_defender() -> None:
    """The fault: the docs and combat.yaml said an unarmoured defender on foot is hurt '3 times in 10' at 1-1, where
    the table gives 1 in 10."""
    assert (_hurt_at("1-1"), _hurt_at("6-1")) == (Fraction(1, 10), Fraction(7, 10))
    assert "hurt (D–F) 1 time in 10, at 6-1 7 times in 10" in DOCS
    yaml = Path("src/rulekeeper/rulesets/dragonnoir/data/combat.yaml").read_text(encoding="utf-8")
    assert "hurt (D-F) 1 time in 10, at 6-1 7 times in 10" in yaml and "3 times in 10" not in yaml


def test_regression_the_dragons_attack_summary_has_no_attackers_retreat() -> None:
    """'in attack as in defence, the dragon never retreats (results that make it retreat are ignored)'; the fault:
    the dragon's attack summary said 'attackers retreat 20 %'."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from dn_game_kit import G, act, legal
    from test_dn_game_dragon import lair

    s = lair()
    while s.side == "A":
        s = act(s, kind="end").state
    while s.phase != "combat":
        s = act(s, kind="end").state
    attacks = [a for a in legal(s, "attack") if all(str(u).startswith("Black Dragon") for u in a["units"])]
    if not attacks:  # bring a man next to the head
        from dn_game_kit import set_man

        s = set_man(s, "Thrug", hexes=("D3",))
        attacks = [a for a in legal(s, "attack") if all(str(u).startswith("Black Dragon") for u in a["units"])]
    assert attacks
    for a in attacks:
        labels = [k for k, _ in G.preview(s, a).headline]
        assert labels == ["ratio", "defender hurt"], labels
    ours = [a for a in legal(s, "attack") if not str(a["units"][0]).startswith("Black Dragon")]
    for a in ours[:1]:
        assert "attackers retreat" in [k for k, _ in G.preview(s, a).headline]
