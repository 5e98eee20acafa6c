"""The Battle System's golden playthrough: a seeded autoplay battle through the game protocol,
every action, every chance result (label, outcome, uniform number) and the state after each.

Regenerate deliberately, after a rules change, with::

    python tests/golden/battlesystem_playthrough.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

try:  # imported by the tests, in the golden package
    from .playthrough import digest as digest
    from .playthrough import protocol_play, protocol_start, regenerate
except ImportError:  # run as a script: python tests/golden/battlesystem_playthrough.py
    from playthrough import digest as digest  # type: ignore[no-redef]
    from playthrough import protocol_play, protocol_start, regenerate  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
SCENARIO_DIR = "src/rulekeeper/rulesets/battlesystem/data/scenarios"
GOLDEN = [(f"{SCENARIO_DIR}/river_crossing.yaml", 7)]


def start(scenario: str, seed: int) -> Any:
    return protocol_start("battlesystem", scenario, seed)


def play(scenario: str, seed: int) -> dict[str, Any]:
    return protocol_play("battlesystem", scenario, seed)


def path_for(scenario: str, seed: int) -> Path:
    return HERE / f"battlesystem_{Path(scenario).stem}_seed{seed}.json"


if __name__ == "__main__":
    regenerate(GOLDEN, play, path_for)
