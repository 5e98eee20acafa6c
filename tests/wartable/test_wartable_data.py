"""Data and battle files: shipped data, user overlays, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekeeper.core.errors import DataFileError, InvalidStatError, UnknownNameError
from rulekeeper.rulesets.wartable import (
    load_battle,
    load_data,
    load_data_file,
    parse_options,
    resolve_battle,
    shipped_data,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "wartable"


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_shipped_data_has_the_seed_units_and_estimates_marked() -> None:
    d = shipped_data()
    ov = d.unit("oathsworn vanguard")
    assert (ov.health, ov.attack, ov.defense, ov.traits) == (100, 50, 50, ("Oathsworn", "Vanguard", "Mortal"))
    mods = {m.name: m for m in d.modifiers}
    assert sum(m.amount for m in d.modifiers if m.key in ("Oathsworn", "Vanguard") and m.stat == "attack") == 20
    assert sum(m.amount for m in d.modifiers if m.key in ("Oathsworn", "Vanguard") and m.stat == "defense") == 5
    assert all(m.estimate for m in d.modifiers if m.key in ("Oathsworn", "Vanguard"))
    ruin = mods["Ruin cover"]
    assert (ruin.source, ruin.role, ruin.action, ruin.stat, ruin.amount, ruin.estimate) == (
        "region_trait",
        "defender",
        "attack",
        "defense",
        10,
        None,
    )


def test_unknown_unit_suggests_the_closest() -> None:
    with pytest.raises(UnknownNameError) as err:
        shipped_data().unit("Bloodles Hord")
    assert err.value.suggestions[0] == "Bloodless Horde"
    assert "Did you mean 'Bloodless Horde'?" in str(err.value)


def test_user_data_adds_and_overrides(tmp_path: Path) -> None:
    p = write(
        tmp_path,
        "mine.yaml",
        """
units:
  - {name: Bloodless Horde, health: 200, attack: 20, defense: 10, traits: [Bloodless]}
  - {name: Ghoul Pack, health: 40, attack: 35, defense: 5, traits: [Bloodless]}
modifiers:
  - {name: Ruin cover, source: region_trait, key: Ruin, role: defender, action: attack, stat: defense, amount: 20}
""",
    )
    d = load_data([p])
    assert d.unit("Bloodless Horde").health == 200 and d.unit("Bloodless Horde").origin == str(p)
    assert d.unit("Ghoul Pack").attack == 35
    assert [m.amount for m in d.modifiers if m.name == "Ruin cover"] == [20]
    assert d.unit("Oathsworn Vanguard").health == 100


def test_toml_data_file(tmp_path: Path) -> None:
    p = write(tmp_path, "mine.toml", '[[units]]\nname = "Wight"\nhealth = 30\nattack = 40\ndefense = 12.5\n')
    assert load_data_file(p).unit("Wight").defense == 12.5


@pytest.mark.parametrize(
    ("body", "field", "expect"),
    [
        ("units:\n  - {name: X, health: lots, attack: 1, defense: 1}\n", "units[0].health", "valid number"),
        ("units:\n  - {name: X, health: 1, defense: 1}\n", "units[0].attack", "Field required"),
        ("units:\n  - {name: X, health: 1, attack: 1, defense: 1, speed: 3}\n", "units[0].speed", "Extra inputs"),
        (
            "modifiers:\n  - {name: M, source: weather, key: k, stat: attack, amount: 1}\n",
            "modifiers[0].source",
            "'region_trait', 'unit_trait', 'mark', 'curse' or 'action'",
        ),
        (
            "modifiers:\n  - {name: M, source: mark, key: k, stat: attack, amount: 1, role: sniper}\n",
            "modifiers[0].role",
            "'attacker', 'defender' or 'any'",
        ),
        ("modifiers:\n  - {name: M, source: mark, key: k, stat: morale, amount: 1}\n", "modifiers[0].stat", "'health'"),
        ("- just\n- a list\n", "(top level)", "expected a mapping"),
        ("units: [\n", "YAML syntax error", "at line 2, column 1"),
        (
            "units:\n  - {name: X, health: 1, attack: 1, defense: 1}\n"
            "  - {name: x, health: 1, attack: 1, defense: 1}\n",
            "units[1].name",
            "unique",
        ),
    ],
)
def test_malformed_data_file_names_file_field_and_expectation(
    tmp_path: Path, body: str, field: str, expect: str
) -> None:
    p = write(tmp_path, "broken.yaml", body)
    with pytest.raises(DataFileError) as err:
        load_data_file(p)
    msg = str(err.value)
    assert str(p) in msg and field in msg and expect in msg
    assert err.value.path == str(p)
    assert err.value.to_dict()["error"] == "data_file"


def test_missing_data_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="file not found"):
        load_data_file(tmp_path / "nope.yaml")


def test_negative_stat_in_data_file_is_invalid_stat(tmp_path: Path) -> None:
    p = write(tmp_path, "neg.yaml", "units:\n  - {name: X, health: 10, attack: -5, defense: 1}\n")
    with pytest.raises(InvalidStatError) as err:
        load_data_file(p)
    assert str(p) in str(err.value) and "units[0].attack" in str(err.value) and ">= 0" in str(err.value)
    assert err.value.details["field"] == "units[0].attack"


def test_example_battle_file_reproduces_the_seed() -> None:
    battle, data = load_battle(EXAMPLES / "oathsworn_vs_bloodless.yaml")
    assert battle.region_traits == ("Ruin",)
    r = resolve_battle(battle, data)
    assert r.to_dict()["result"] == {"Oathsworn Vanguard": 86, "Bloodless Horde": 94}


def test_example_enclave_battle_file() -> None:
    battle, data = load_battle(EXAMPLES / "bloodless_assault_on_enclave.yaml")
    r = resolve_battle(battle, data)
    assert r.stability is not None and r.stability.enclave == "Hearthmere"
    assert (r.stability.before, r.stability.after) == (60, 30)
    assert r.health_after("Oathsworn Vanguard") == 70
    assert r.health_after("Bloodless Horde #1") == 127


def test_battle_file_with_data_and_marks(tmp_path: Path) -> None:
    write(
        tmp_path,
        "extra.yaml",
        "modifiers:\n  - {name: Blessed, source: mark, key: Blessed, stat: attack, amount: 10}\n",
    )
    p = write(
        tmp_path,
        "b.toml",
        """
attacker = "us"
data = ["extra.yaml"]
region_traits = ["Ruin"]
[options]
step5 = "literal"
[[sides.us]]
unit = "Oathsworn Vanguard"
health = 90
marks = ["Blessed"]
[[sides.them]]
unit = "Bloodless Horde"
""",
    )
    battle, data = load_battle(p)
    r = resolve_battle(battle, data)
    assert r.options.step5 == "literal"
    t = r.totals[0]
    assert t.health.total == 90 and t.attack.total == 80  # 50 + 10 + 10 + 10 (Blessed)
    assert r.hits[0].hits == 72


@pytest.mark.parametrize(
    ("body", "expect"),
    [
        ("attacker: c\nsides: {a: [Bloodless Horde], b: [Oathsworn Vanguard]}\n", "attacker: expected one of"),
        ("attacker: a\nsides: {a: [Bloodless Horde], b: [Oathsworn Vanguard], c: []}\n", "sides: expected exactly two"),
        ("sides: {a: [Bloodless Horde], b: [Oathsworn Vanguard]}\n", "attacker: Field required"),
        ("attacker: a\nsides: {a: [Bloodless Horde], b: [3]}\n", "sides.b[0]: Value error, expected a unit name"),
        (
            "attacker: a\nsides: {a: [Bloodless Horde], b: []}\nenclave: {name: E, side: z}\n",
            "enclave.side: expected one of",
        ),
    ],
)
def test_malformed_battle_file(tmp_path: Path, body: str, expect: str) -> None:
    p = write(tmp_path, "battle.yaml", body)
    with pytest.raises(DataFileError) as err:
        load_battle(p)
    assert str(p) in str(err.value) and expect in str(err.value)


def test_battle_file_unknown_unit_and_negative_health(tmp_path: Path) -> None:
    p = write(tmp_path, "b1.yaml", "attacker: a\nsides: {a: [Oathsworn Vanguardd], b: [Bloodless Horde]}\n")
    with pytest.raises(UnknownNameError, match="Oathsworn Vanguard"):
        load_battle(p)
    p2 = write(tmp_path, "b2.yaml", "attacker: a\nsides: {a: [{unit: Bloodless Horde, health: -3}], b: []}\n")
    with pytest.raises(InvalidStatError, match=r"sides\.a\[0\]\.health"):
        load_battle(p2)


def test_unknown_option_and_value() -> None:
    with pytest.raises(UnknownNameError, match="step5"):
        parse_options({"step6": "literal"})
    with pytest.raises(UnknownNameError, match="Did you mean 'literal'"):
        parse_options({"step5": "literl"})
    with pytest.raises(UnknownNameError, match="Choices: example, literal") as err:
        parse_options({"step5": "bogus"})
    assert err.value.suggestions == [] and err.value.to_dict()["choices"] == ["example", "literal"]
