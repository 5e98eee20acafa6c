"""One entry-point target for every rule system (issue 22, scope 7): ``rulekeeper.rulesets.<x>.game:<Class>``.

The shipped rule systems used to be registered five ways (a package ``__init__``, ``game.py``,
``calculator.py``); now a reader finds every registered class in its system's ``game.py``. The one
documented exception is a second game inside a system, in its own subpackage's ``game.py``: the War
Table campaign, ``rulekeeper.rulesets.wartable.campaign.game:WarTableCampaign`` (docs/architecture.md,
"One ruleset layout"). The targets are read from ``pyproject.toml`` itself, so this holds before the
editable install is refreshed.
"""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GROUP = "rulekeeper.rulesets"
TARGET = re.compile(r"rulekeeper\.rulesets\.(?P<system>\w+)\.(?:(?P<sub>\w+)\.)?game:(?P<cls>[A-Z]\w*)")
#: entry-point name -> the subpackage its game lives in, for a second game inside a rule system
NESTED = {"wartable-campaign": "campaign"}


def targets() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found: dict[str, str] = project["entry-points"][GROUP]
    return found


def test_every_target_is_the_systems_game_module() -> None:
    found = targets()
    assert set(found) == {"exillis", "wartable", "wartable-campaign", "battlesystem", "dragonnoir", "confrontation"}
    for key, target in found.items():
        match = TARGET.fullmatch(target)
        assert match is not None, f"{key} = {target!r} is not rulekeeper.rulesets.<x>.game:<Class>"
        assert match["sub"] == NESTED.get(key), f"{key} = {target!r}: only {sorted(NESTED)} may live in a subpackage"
        assert match["system"] == key.split("-")[0]


def test_every_target_imports_and_is_the_game_its_key_names() -> None:
    for key, target in targets().items():
        module_name, _, attr = target.partition(":")
        cls: type[Any] = getattr(importlib.import_module(module_name), attr)
        assert cls.__name__ == attr
        assert cls.name == key, (key, cls.name)
