"""The War Table's scenarios (the one ruleset layout's ``scenario.py``): battle files.

A War Table scenario is a battle file, the one ``rulekeeper resolve wartable --battle FILE`` reads
(:func:`.battle.load_battle`, which checks it whole); the shipped ones are the seed's examples in
``data/scenarios/*.yaml``. Reading one imports pydantic, so it is done only when asked.
"""

from __future__ import annotations

from pathlib import Path

from rulekeeper.core.game import ScenarioInfo

from .model import Battle, SideName

SCENARIO_DIR = Path(__file__).resolve().parent / "data" / "scenarios"


def shipped_scenarios() -> list[ScenarioInfo]:
    """Every shipped battle file, named by its title and described by its ``about`` (or its sides)."""
    from .battle import load_battle

    out = []
    for p in sorted(SCENARIO_DIR.glob("*.yaml")):
        battle, _ = load_battle(p)
        out.append(ScenarioInfo(p.stem, battle.title or p.stem, battle.about or describe(battle), p))
    return out


def describe(battle: Battle) -> str:
    """``Oathsworn (Oathsworn Vanguard) attack Bloodless (Bloodless Horde) in a region with Ruin``."""

    def side(s: SideName) -> str:
        units = battle.attackers if s == "attackers" else battle.defenders
        return f"{battle.shown_name(s)} ({', '.join(c.label or c.unit.name for c in units) or 'nobody'})"

    where = f" in a region with {', '.join(battle.region_traits)}" if battle.region_traits else ""
    enclave = f"; Enclave {battle.enclave.name} held by the {battle.enclave.side}" if battle.enclave else ""
    return f"{side('attackers')} {battle.action} {side('defenders')}{where}{enclave}"
