"""``rulekeeper resolve wartable``: resolve a War Table battle and show every step.

The command only gathers the battle (flags and/or a battle file), calls the pure
:func:`rulekeeper.rulesets.wartable.resolve_combat` and renders the report: one Rich
table per rules step with its arithmetic, then the Enclave Stability effects. Every
user mistake surfaces as a typed :class:`RulekeeperError`, which ``main()`` turns
into exit code 2 and a one-line message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulekeeper.cli.groups import resolve_app
from rulekeeper.cli.output import console, print_json
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.rulesets.wartable import (
    Battle,
    Combatant,
    CombatReport,
    EnclaveState,
    WarTableData,
    load_battle,
    load_data,
    parse_option_pairs,
    resolve_battle,
)
from rulekeeper.rulesets.wartable.model import SideName
from rulekeeper.rulesets.wartable.render import report_renderables
from rulekeeper.rulesets.wartable.rounding import exact

COMMAND = "wartable"


def render(report: CombatReport) -> None:
    """Print the report as one table per step, then Stability effects and notes."""
    for part in report_renderables(report.to_dict()):
        console.print(part)


def build_battle(
    attackers: list[str],
    defenders: list[str],
    region_traits: list[str],
    battle_file: Path | None,
    data_files: list[Path],
    option_pairs: list[str],
    enclave: str | None,
    stability: float | None,
    enclave_side: str,
    action: str | None,
) -> tuple[Battle, WarTableData]:
    """Merge a battle file (if any) with the flags; flags add units and override options."""
    if battle_file is not None:
        base, data = load_battle(battle_file, data_files)
    else:
        if not attackers:
            raise ImpossibleRequestError("name at least one --attacker (or give --battle FILE)")
        base, data = Battle((), ()), load_data(data_files)
    options = {**base.options, **parse_option_pairs(option_pairs)}
    side = enclave_side.strip().lower()
    if side not in ("attackers", "defenders"):
        raise ImpossibleRequestError(
            f"--enclave-side must be 'attackers' or 'defenders', got {enclave_side!r}", option="enclave-side"
        )
    enc = base.enclave
    if enclave is not None:
        role: SideName = "attackers" if side == "attackers" else "defenders"
        enc = EnclaveState(enclave, None if stability is None else exact(stability), role)
    elif stability is not None:
        if enc is None:
            raise ImpossibleRequestError("--stability needs --enclave NAME (or an enclave in the battle file)")
        enc = EnclaveState(enc.name, exact(stability), enc.side)
    battle = Battle(
        attackers=base.attackers + tuple(Combatant(data.unit(n)) for n in attackers),
        defenders=base.defenders + tuple(Combatant(data.unit(n)) for n in defenders),
        region_traits=base.region_traits + tuple(region_traits),
        action=action or base.action,
        enclave=enc,
        options=options,
        title=base.title,
    )
    return battle, data


def resolve_wartable(
    attacker: Annotated[
        list[str] | None, typer.Option("--attacker", "-a", metavar="UNIT", help="Attacking unit (repeatable).")
    ] = None,
    defender: Annotated[
        list[str] | None, typer.Option("--defender", "-d", metavar="UNIT", help="Defending unit (repeatable).")
    ] = None,
    region_trait: Annotated[
        list[str] | None,
        typer.Option("--region-trait", "-r", metavar="TRAIT", help="Trait of the battle's region (repeatable)."),
    ] = None,
    battle: Annotated[
        Path | None,
        typer.Option("--battle", "-b", metavar="FILE", help="Battle file (YAML/TOML): sides, units, traits, enclave."),
    ] = None,
    data: Annotated[
        list[Path] | None,
        typer.Option("--data", metavar="FILE", help="Data file adding/overriding units and modifiers (repeatable)."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="NAME=VALUE", help="Rule reading NAME=VALUE, e.g. step5=literal."),
    ] = None,
    enclave: Annotated[
        str | None, typer.Option("--enclave", metavar="NAME", help="Enclave whose settlement is in the region.")
    ] = None,
    stability: Annotated[
        float | None, typer.Option("--stability", metavar="N", help="The Enclave's Stability before battle.")
    ] = None,
    enclave_side: Annotated[
        str, typer.Option("--enclave-side", metavar="SIDE", help="Side holding the Enclave: defenders or attackers.")
    ] = "defenders",
    action: Annotated[
        str | None, typer.Option("--action", metavar="ACTION", help="The attackers' action (default: attack).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Resolve a War Table combat (steps 1-6) and its Enclave Stability effects."""
    built, loaded = build_battle(
        attacker or [],
        defender or [],
        region_trait or [],
        battle,
        data or [],
        option or [],
        enclave,
        stability,
        enclave_side,
        action,
    )
    report = resolve_battle(built, loaded)
    if as_json:
        print_json(report.to_dict())
    else:
        render(report)


def register(app: typer.Typer) -> None:
    """Add ``wartable`` to the ``resolve`` group (``app`` is the root, unused here)."""
    del app
    if any(c.name == COMMAND for c in resolve_app.registered_commands):
        return
    resolve_app.command(COMMAND)(resolve_wartable)
