"""``rulekeeper muster check|cost|export FILE``: Ex illis musters (army lists).

``check`` prints the muster shape (each category's points against its Shortage thresholds:
green, yellow past the first, red past the second), every cost line, the total, the Battle
Points the army brings, and every problem found. ``cost --json`` is the same report for tools;
``export --format md|html`` a printable list with the validation result (HTML: one
self-contained, escaped page, no external assets).

Exit codes (all three commands): 0 the muster is valid, 1 it has problems (the output is still
complete), 2 the file (or ``--data``) cannot be read.
"""

from __future__ import annotations

import html
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from rulekeeper.core.errors import DataFileError, RulekeeperError

if TYPE_CHECKING:  # the pricing models load when a command runs, not when the CLI starts
    from rulekeeper.rulesets.exillis.pricing import MusterReport, PricedLine

from rulekeeper.cli.fate_screen import rows_table
from rulekeeper.cli.output import console, fail, print_json
from rulekeeper.core.wording import counted

muster_app = typer.Typer(help="Ex illis musters (army lists): check, cost, export.", no_args_is_help=True)

File = Annotated[Path, typer.Argument(help="A muster file (.yaml, .yml or .toml).")]
Data = Annotated[Path | None, typer.Option(
    "--data", help="YAML/TOML file overriding unit stats ('units:') and/or muster data ('musters:').")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]

STATE_STYLE = {"green": "green", "yellow": "bold yellow", "red": "bold red"}


class Format(StrEnum):
    md = "md"
    html = "html"


def register(app: typer.Typer) -> None:
    app.add_typer(muster_app, name="muster")


def build_report(path: Path, data: Path | None = None) -> MusterReport:
    """Read ``path`` (and the ``--data`` overrides) and price and check the muster."""
    from rulekeeper.core.datafiles import read_data_file
    from rulekeeper.rulesets.exillis.muster import load_muster
    from rulekeeper.rulesets.exillis.musters_data import load_musters_data
    from rulekeeper.rulesets.exillis.pricing import ExIllisArmyRules
    from rulekeeper.rulesets.exillis.profiles import load_profiles

    roster, musters = load_profiles(), load_musters_data()
    if data is not None:
        raw = read_data_file(data)
        keys = set(raw) if isinstance(raw, dict) else set()
        if not keys & {"units", "musters"}:
            raise DataFileError(str(data), ["expected a top-level 'units' (unit overrides) and/or 'musters' "
                                            "(muster data) mapping"])
        if "units" in keys:
            roster = load_profiles(overrides=data)
        if "musters" in keys:
            musters = load_musters_data(overrides=data)
    muster = load_muster(path)
    rules = ExIllisArmyRules(roster, musters)
    return rules.report(muster.to_army_list())


def _report_or_fail(path: Path, data: Path | None, as_json: bool) -> MusterReport:
    try:
        return build_report(path, data)
    except RulekeeperError as exc:
        fail(exc, as_json=as_json)


def _done(report: MusterReport) -> None:
    if report.problems:
        raise typer.Exit(1)


# -- terminal -------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "N/A" if x is None else f"{x * 100:.0f} %"


def _header(report: MusterReport) -> list[str]:
    game = report.game.label if report.game is not None else f"{report.game_type} (unknown game type)"
    general = ", ".join(report.generals) or "none"
    bp = (f"{report.battle_points} ({counted(report.units_and_heroes, 'unit or hero', 'units and heroes')})"
          if report.earns_bp
          else f"0 ({report.game.name if report.game else 'this game type'} earns no BP)")
    return [f"Game type: {game}", f"Faction: {report.faction or 'none'}", f"General: {general}",
            f"Total: {counted(report.total, 'point')} (basic {report.basic_total})", f"Battle Points brought: {bp}"]


def _shape_rows(report: MusterReport) -> list[list[str | Text]]:
    return [[f"{s.name} ({s.category})", str(s.points), _pct(s.share), _pct(s.first), _pct(s.second),
             Text(s.state, style=STATE_STYLE[s.state])] for s in report.shape]


def _who(pl: PricedLine) -> str:
    return pl.line.unit + (" (hero)" if pl.role == "hero" else "")


def _cost_rows(report: MusterReport, steps: bool) -> list[list[str | Text]]:
    rows: list[list[str | Text]] = []
    for pl in report.lines:
        ln = pl.line
        size = "" if pl.miniatures is None else f"{pl.miniatures}/{pl.full}"
        row: list[str | Text] = [str(ln.entry), _who(pl), size, "" if pl.level is None else str(pl.level),
                                 "/".join(pl.categories), f"{ln.base:g}", f"{ln.shortage:+g}" if ln.shortage else "",
                                 f"{ln.faction:+g}" if ln.faction else "",
                                 Text(str(ln.total), style="bold red" if pl.penalised else "bold")]
        if steps:
            row.append("; ".join(ln.steps))
        rows.append(row)
    return rows


COST_COLUMNS = ["#", "Unit", "Miniatures", "Level", "Categories", "Basic", "Shortage", "Faction", "Points"]
#: The same columns, short enough for an 80-column terminal.
TERM_COLUMNS = ["#", "Unit", "Size", "Lvl", "Cat.", "Basic", "Short.", "Fact.", "Points"]


def _print_problems(report: MusterReport) -> None:
    if not report.problems:
        console.print(Text("Valid muster: no problem found.", style="bold green"))
        return
    console.print(Text(f"{counted(len(report.problems), 'problem')}:", style="bold red"))
    for p in report.problems:
        console.print(Text(f"  - {p.text()}"))


@muster_app.command("check")
def check(file: File, data: Data = None, json: Json = False) -> None:
    """Shape, cost lines, total, Battle Points and EVERY problem of a muster (exit 1 if any)."""
    report = _report_or_fail(file, data, json)
    if json:
        print_json(report.to_dict())
        _done(report)
        return
    console.print(Text(f"Muster {report.name}", style="bold"))
    for line in _header(report):
        console.print(Text(f"  {line}"))
    console.print(rows_table("Muster shape (Shortage thresholds)", ["Category", "Points", "Share", "Doubles past",
                                                                     "Triples past", "State"], _shape_rows(report)))
    console.print(rows_table("Cost lines", TERM_COLUMNS, _cost_rows(report, steps=False)))
    console.print(Text("How each cost was made:", style="bold"))
    for pl in report.lines:
        console.print(Text(f"  {pl.line.entry} {_who(pl)}: {'; '.join(pl.line.steps)}"))
    for note in report.notes:
        console.print(Text(f"note: {note}", style="dim"))
    _print_problems(report)
    _done(report)


@muster_app.command("cost")
def cost(file: File, data: Data = None, json: Json = False) -> None:
    """Each entry's points and the total; --json gives the whole report for tools."""
    report = _report_or_fail(file, data, json)
    if json:
        print_json(report.to_dict())
        _done(report)
        return
    console.print(rows_table(f"{report.name}: cost", TERM_COLUMNS, _cost_rows(report, steps=False)))
    console.print(Text(f"Total: {counted(report.total, 'point')}", style="bold"))
    if report.problems:
        console.print(Text(f"{counted(len(report.problems), 'problem')}: run 'rulekeeper muster check {file}'.",
                           style="bold red"))
    _done(report)


@muster_app.command("export")
def export(
    file: File,
    fmt: Annotated[Format, typer.Option("--format", help="md (Markdown) or html (a self-contained page).")] = Format.md,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
    data: Data = None,
) -> None:
    """A printable muster with its validation result (Markdown or self-contained HTML)."""
    report = _report_or_fail(file, data, False)
    text = render_markdown(report) if fmt is Format.md else render_html(report)
    if output is None:
        typer.echo(text, nl=False)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(DataFileError(str(output), [f"cannot write the file ({exc.__class__.__name__}: {exc})"]))
    _done(report)


# -- Markdown and HTML ----------------------------------------------------------------------------

_MD_SPECIAL = "\\`*_[]|#"


def md_escape(text: str) -> str:
    """Text safe in a Markdown table cell: specials backslash-escaped, ``<``/``>``/``&`` as entities."""
    out = html.escape(text, quote=False)
    for ch in _MD_SPECIAL:
        out = out.replace(ch, "\\" + ch)
    return " ".join(out.split())


def _table_md(columns: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    out += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]
    return out


def _plain_cost_rows(report: MusterReport) -> list[list[str]]:
    return [[c.plain if isinstance(c, Text) else c for c in row] for row in _cost_rows(report, steps=True)]


def _plain_shape_rows(report: MusterReport) -> list[list[str]]:
    return [[c.plain if isinstance(c, Text) else c for c in row] for row in _shape_rows(report)]


SHAPE_COLUMNS = ["Category", "Points", "Share", "Doubles past", "Triples past", "State"]


def render_markdown(report: MusterReport) -> str:
    lines = [f"# {md_escape(report.name)}", ""]
    lines += [f"- {md_escape(h)}" for h in _header(report)]
    lines += ["", "## Units and heroes", ""] + _table_md([*COST_COLUMNS, "How"], _plain_cost_rows(report))
    lines += ["", "## Muster shape", ""] + _table_md(SHAPE_COLUMNS, _plain_shape_rows(report))
    lines += ["", "## Validation", ""]
    if report.valid:
        lines.append("**Valid muster**: no problem found.")
    else:
        lines.append(f"**{counted(len(report.problems), 'problem')}**:")
        lines.append("")
        lines += [f"- {md_escape(p.text())}" for p in report.problems]
    if report.notes:
        lines += ["", "## Notes", ""] + [f"- {md_escape(n)}" for n in report.notes]
    return "\n".join(lines) + "\n"


_CSS = """
body { font-family: Georgia, serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #999; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #eee; }
td.steps { font-size: 0.8em; color: #555; }
.green { color: #17702a; } .yellow { color: #9a7400; font-weight: bold; } .red { color: #b00020; font-weight: bold; }
.penalised { color: #b00020; font-weight: bold; }
.ok { color: #17702a; font-weight: bold; } .bad { color: #b00020; font-weight: bold; }
@media print { body { margin: 0.5cm; } }
""".strip()


def _table_html(columns: list[str], rows: list[list[str]], classes: list[list[str]] | None = None) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for r, row in enumerate(rows):
        cells = []
        for c, cell in enumerate(row):
            cls = classes[r][c] if classes is not None else ""
            attr = f' class="{cls}"' if cls else ""
            cells.append(f"<td{attr}>{html.escape(cell)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def render_html(report: MusterReport) -> str:
    """One self-contained page: inline CSS, every text escaped, no script, link or image."""
    e = html.escape
    cost_rows = _plain_cost_rows(report)
    cost_cls = [["penalised" if (c == 8 and pl.penalised) else "steps" if c == 9 else "" for c in range(len(row))]
                for pl, row in zip(report.lines, cost_rows, strict=True)]
    shape_rows = _plain_shape_rows(report)
    shape_cls = [["" for _ in row[:-1]] + [s.state] for s, row in zip(report.shape, shape_rows, strict=True)]
    if report.valid:
        validation = '<p class="ok">Valid muster: no problem found.</p>'
    else:
        items = "".join(f"<li>{e(p.text())}</li>" for p in report.problems)
        validation = f'<p class="bad">{counted(len(report.problems), "problem")}:</p><ul>{items}</ul>'
    notes = "".join(f"<li>{e(n)}</li>" for n in report.notes)
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>{e(report.name)} - Ex illis muster</title>", f"<style>\n{_CSS}\n</style>", "</head>", "<body>",
        f"<h1>{e(report.name)}</h1>", "<ul>" + "".join(f"<li>{e(h)}</li>" for h in _header(report)) + "</ul>",
        "<h2>Units and heroes</h2>", _table_html([*COST_COLUMNS, "How"], cost_rows, cost_cls),
        "<h2>Muster shape</h2>", _table_html(SHAPE_COLUMNS, shape_rows, shape_cls),
        "<h2>Validation</h2>", validation,
    ]
    if notes:
        parts += ["<h2>Notes</h2>", f"<ul>{notes}</ul>"]
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
