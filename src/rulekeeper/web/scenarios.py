"""The scenarios a web battle may start from: the ones shipped inside the package."""

from __future__ import annotations

from pathlib import Path

from rulekeeper.core.errors import UnknownNameError

SCENARIO_DIR = Path(__file__).resolve().parents[1] / "rulesets" / "exillis" / "data" / "scenarios"


def shipped_scenarios() -> list[dict[str, str]]:
    from rulekeeper.rulesets.exillis.scenario import load_scenario

    out = []
    for p in sorted(SCENARIO_DIR.glob("*.toml")):
        sc = load_scenario(p)
        out.append({"key": p.stem, "name": sc.name, "description": sc.description})
    return out


def scenario_path(key: str) -> Path:
    names = [p.stem for p in SCENARIO_DIR.glob("*.toml")]
    if key not in names:
        raise UnknownNameError("scenario", key, names)
    return SCENARIO_DIR / f"{key}.toml"
