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
from rich.markup import escape
from rich.table import Table

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
from rulekeeper.rulesets.wartable.report import STEP_TITLES
from rulekeeper.rulesets.wartable.rounding import exact, show

from .groups import resolve_app
from .output import console, print_json

COMMAND = "wartable"


def _e(text: str) -> str:
    return escape(text)


def _table(step: int, *columns: str) -> Table:
    table = Table(title=f"Step {step}. {STEP_TITLES[step]}", title_justify="left", show_lines=False)
    for col in columns:
        table.add_column(col)
    return table


def render(report: CombatReport) -> None:
    """Print the report as one table per step, then Stability effects and notes."""
    if report.title:
        console.print(f"[bold]{_e(report.title)}[/]")
    traits = ", ".join(report.region_traits) or "none"
    console.print(
        f"Action: {_e(report.action)}   Region traits: {_e(traits)}   "
        f"Options: {_e(', '.join(f'{k}={v}' for k, v in report.options.to_dict().items()))}"
    )

    t1 = _table(1, "Unit", "Side", "Traits", "Marks / Curses", "Health")
    for c in report.combatants:
        mc = ", ".join([*c.marks, *(f"curse {x}" for x in c.curses)]) or "-"
        t1.add_row(_e(c.label), c.side, _e(", ".join(c.traits) or "-"), _e(mc), show(c.health))
    console.print(t1)

    t2 = _table(2, "Unit", "Health", "Attack", "Defense")
    for t in report.totals:
        t2.add_row(_e(t.label), _e(t.health.arithmetic()), _e(t.attack.arithmetic()), _e(t.defense.arithmetic()))
    console.print(t2)

    t3 = _table(3, "Unit", "Health × Attack/100", "Hits")
    for h in report.hits:
        t3.add_row(_e(h.label), _e(h.arithmetic()), show(h.hits))
    console.print(t3)

    t4 = _table(4, "Side", "Hits dealt", "Targets", "Allocation", "Per unit")
    for a in report.allocations:
        dealt = ", ".join(f"{u} {show(n)}" for u, n in a.dealt_by)
        t4.add_row(a.side, _e(dealt), _e(", ".join(a.targets) or "-"), _e(a.arithmetic()), show(a.per_unit))
    console.print(t4)

    t5 = _table(5, "Unit", "Allocated", "Defense", "Blocked", "Unblocked", "Arithmetic")
    for b in report.blocks:
        t5.add_row(
            _e(b.label), show(b.allocated), show(b.defense), show(b.blocked), show(b.unblocked), _e(b.arithmetic())
        )
    t5.caption = (
        "step5=example: blocked hits kept exact, unblocked hits rounded up (the seed's worked example)"
        if report.options.step5 == "example"
        else "step5=literal: blocked hits rounded up (the seed's step list)"
    )
    console.print(t5)

    t6 = _table(6, "Unit", "Health before", "Unblocked", "Health after")
    for line in report.health:
        after = show(line.after) + (" (destroyed)" if line.destroyed else "")
        t6.add_row(_e(line.label), show(line.before), show(line.unblocked), _e(after))
    console.print(t6)

    st = report.stability
    if st is None:
        console.print("Enclave Stability: no Enclave in this region, no Stability effects.")
    else:
        ts = Table(title=f"Enclave Stability: {_e(st.enclave)} (held by the {st.side})", title_justify="left")
        for col in ("Effect", "Unit", "Change", "Arithmetic"):
            ts.add_column(col)
        for eff in st.effects:
            change = f"set to {show(eff.sets_to)}" if eff.sets_to is not None else show(eff.delta or exact(0))
            ts.add_row(eff.rule, _e(eff.unit or "-"), change, _e(eff.arithmetic))
        if not st.effects:
            ts.add_row("none", "-", "0", "no Stability rule triggered")
        console.print(ts)
        before = "unknown" if st.before is None else show(st.before)
        after = "unknown" if st.after is None else show(st.after)
        fallen = ' - the Enclave is "Fallen"' if st.fallen else ""
        console.print(f"Stability {before} -> {after} (change {show(st.total_delta)}){fallen}")
        for note in st.notes:
            console.print(f"  [dim]{_e(note)}[/]")
    for note in report.notes:
        console.print(f"[yellow]note[/]: {_e(note)}")


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
