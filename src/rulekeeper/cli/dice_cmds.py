"""``rulekeeper battle dice|contribute|verify``: verifiable dice on the command line (see ``service.dice``).

``battle verify FILE`` checks an export: exit 0 when every draw matches the revealed seed, 1 when
something does not match (the first mismatch is named), 2 when the file is not an export at all.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from .battle_cmds import BattleArg, BattleIdArg, Db, Json, _service, battle_app
from .battle_ids import resolve
from .output import console, print_json


@battle_app.command("dice")
def dice(battle: BattleArg = None, db: Db = None, json: Json = False) -> None:
    """The battle's verifiable dice: commitment, contributions; the secret and seed once it is over."""
    from rulekeeper.service.dice import Dice

    svc = _service(db)
    battle = resolve(svc, battle)
    status = Dice(svc).status(battle)
    if json:
        print_json({"id": battle, **status.to_dict()})
        return
    if not status.verifiable:
        console.print(f"Battle {battle} has a plain seed (no verifiable dice).")
        return
    console.print(Text(f"Verifiable dice of battle {battle}", style="bold"))
    console.print(f"  commitment  {status.commitment}")
    for role in status.roles:
        promised = (status.commitments or {}).get(role)
        shown = (status.contributions or {}).get(role) or ("committed, not revealed" if promised else "not yet")
        console.print(f"  side {role:<6} {shown}" + (f"\n    commitment {promised}" if promised else ""))
    if status.revealed:
        console.print(f"  secret      {status.secret}\n  seed        {status.seed}")
    elif status.waiting:
        console.print(Text(f"Waiting for side {', '.join(status.waiting)}: rulekeeper battle contribute {battle} SIDE",
                           style="yellow"))
    else:
        console.print("  sealed; the secret is revealed when the battle is over")


@battle_app.command("contribute")
def contribute(
    battle: BattleIdArg,
    side: Annotated[str, typer.Argument(help="The side contributing (e.g. A).")],
    value: Annotated[str | None, typer.Argument(
        help="32 random bytes as 64 hex digits (default: drawn from the system's randomness).")] = None,
    db: Db = None,
    json: Json = False,
) -> None:
    """Add a side's random contribution to a battle's verifiable dice (once per side)."""
    from rulekeeper.service.dice import Dice

    given = value if value is not None else secrets.token_hex(32)
    svc = _service(db)
    battle = resolve(svc, battle)
    status = Dice(svc).contribute(battle, side, given)
    if json:
        print_json({"id": battle, **status.to_dict()})
        return
    console.print(f"Side {side} contributed {status.contributions and status.contributions.get(side)}", soft_wrap=True)
    console.print(Text("The dice are sealed: the battle can start." if status.ready
                       else f"Still waiting for side {', '.join(status.waiting)}.", style="bold"))


@battle_app.command("verify")
def verify(file: Annotated[Path, typer.Argument(help="A battle export (battle export ID FILE).")],
           json: Json = False) -> None:
    """Recompute every draw of an exported battle from its revealed secret (exit 1: something does not match)."""
    from rulekeeper.core.datafiles import read_export
    from rulekeeper.service.dice import verify_export

    result = verify_export(read_export(file))
    if json:
        print_json({"file": str(file), **result.to_dict()})
    elif result.ok:
        console.print(Text(result.message, style="bold green"))
        if result.verifiable:
            console.print(f"  commitment {result.commitment}\n  seed       {result.seed}")
    else:
        where = f" (field {result.field})" if result.field else ""
        console.print(Text(f"does not verify{where}: {result.message}", style="bold red"), soft_wrap=True)
    if not result.ok:
        raise typer.Exit(1)
