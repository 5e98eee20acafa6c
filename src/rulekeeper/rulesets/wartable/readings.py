"""The chosen rule readings (the battle's options) in players' words, for the pages.

A player reading ``step5=example, stat_rounding=tenth`` under the board saw the keeper's option
keys, not the rules they choose between; here each value is the rule as it is played, one short
phrase each. The option names stay what the CLI's ``--option`` and the battle files take.
"""

from __future__ import annotations

from collections.abc import Mapping

from .model import WarTableOptions, parse_options

#: (option, value) -> the rule as played; every value of every option in OPTION_INFO has one.
PHRASES: dict[tuple[str, str], str] = {
    ("step5", "example"): "blocked hits kept exact, unblocked hits rounded up (the seed's worked example)",
    ("step5", "literal"): "blocked hits rounded up (the seed's step list)",
    ("stat_rounding", "tenth"): "stat totals rounded to one decimal place",
    ("stat_rounding", "whole"): "stat totals rounded to whole numbers",
    ("enclave_loss", "per_battle"): ("a defending unit losing more than half its Health costs the Enclave 10 Stability "
                                      "at most once a battle"),
    ("enclave_loss", "per_unit"): ("each defending unit losing more than half its Health costs the Enclave 10 "
                                    "Stability"),
    ("bloodless_health", "before"): "a Bloodless attacker's Health before the battle sets the Enclave's loss",
    ("bloodless_health", "after"): "a Bloodless attacker's Health after the battle sets the Enclave's loss",
}

#: The readings that only matter when an Enclave is in the region.
ENCLAVE_ONLY = ("enclave_loss", "bloodless_health")


def rule_readings(options: Mapping[str, str] | WarTableOptions, *, enclave: bool) -> list[str]:
    """Each chosen reading as a phrase; the Enclave's readings only where an Enclave stands."""
    return [phrase for _, _, phrase in chosen_readings(options, enclave=enclave)]


def chosen_readings(options: Mapping[str, str] | WarTableOptions, *,
                    enclave: bool) -> list[tuple[str, str, str]]:
    """(option, value, phrase) of each chosen reading, the Enclave's only where an Enclave stands: the terminal
    says the phrase and, for ``--option``, the option it comes from."""
    chosen = parse_options(options).to_dict()
    return [(name, value, PHRASES[(name, value)]) for name, value in chosen.items()
            if enclave or name not in ENCLAVE_ONLY]


def readings_text(options: Mapping[str, str] | WarTableOptions, *, enclave: bool) -> str:
    """The chosen readings on one line for the terminal: "Rule readings: stat totals rounded to one decimal place
    [stat_rounding=tenth]; ..." (it printed "Options: step5=example, stat_rounding=tenth, ...", the option keys
    the web's pages had already put in words)."""
    said = "; ".join(f"{phrase} [{name}={value}]" for name, value, phrase in chosen_readings(options, enclave=enclave))
    return f"Rule readings: {said}"
