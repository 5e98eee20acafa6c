"""The CLI fuzz table: every command that reads a file or an ID, the slots it is fed through, the checks.

:data:`CLI_TABLE` names, per command path (``"battle new"``), the parameters fed hostile values and the
command line around each. :func:`uncovered` walks the Typer/Click tree: a command (or a new parameter)
that reads a file or an ID and is not in the table fails ``test_every_command_is_in_the_fuzz_table``.
"""

from __future__ import annotations

import io
import json
import sys
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cli_cases_games as games
from fuzzlib import (
    HOSTILE_TEXTS,
    MAX_OUTPUT,
    MAX_REFUSAL,
    ROOT,
    TEXTS,
    Recorder,
    argv_text,
    export_corpus,
    file_bytes,
    hypothesis_cases,
    runtime_corpus,
    static_corpus,
    where_raised,
)
from hypothesis import strategies as st

#: Commands that read no file and no ID, or that the table covers another way (with the reason).
EXCLUDED = {
    "serve": "starts a server that never returns; the database it opens is fuzzed through --db of every "
             "battle command, and every endpoint of the app it serves by the web fuzz driver",
}


@dataclass(frozen=True)
class Env:
    """What the command lines around a hostile value need: databases with real battles, valid files."""

    tmp: Path
    db: str  # holds the real battles; only read, and written by act/undo/autoplay of a real battle
    scratch: str  # battle new / import write here
    exillis_id: str
    wartable_id: str
    scenario: str
    muster: str
    muster_b: str
    wt_battle: str
    campaign_id: str  # a War Table campaign (campaign-chart, campaign-map)


Argv = Callable[[Env, str], list[str]]
#: The muster commands exit 1 for a muster with problems (their documented contract).
MUSTER = frozenset({0, 1, 2})


@dataclass(frozen=True)
class Slot:
    """One parameter of one command, fed hostile values of one kind."""

    param: str  # the Click parameter's name
    kind: str  # file | export | out | id | text | db | sheet | sweep (folders: cli_cases_games.folders)
    argv: Argv
    sample: int | None = None  # None: the whole corpus of its kind; n: n of it (a reader fuzzed elsewhere)
    examples: int = 5  # hypothesis examples
    ok: frozenset[int] = frozenset({0, 2})
    heavy: bool = False  # also fed the 250k-entry files (1-4 s each: only the main reader of each kind)


def db_slot(*prefix: str, tail: tuple[str, ...] = (), sample: int | None = 3) -> Slot:
    return Slot("db", "db", lambda e, v: [*prefix, *tail, "--db", v], sample=sample, examples=1)


def exillis_calc(group: str, alias: str, cmd: str, full: bool) -> dict[str, list[Slot]]:
    """``odds|resolve exillis|ex-illis melee|shoot|cast``: unit names and the --data override."""
    base = [group, alias, cmd]
    s, ex = (None, 5) if full else (4, 1)
    names = {"melee": ("attacker", "defender"), "shoot": ("shooter", "target"), "cast": ("caster", "target")}[cmd]
    valid = {"melee": ["Billmen", "Vileins"], "shoot": ["Longbowmen", "--target", "Vileins"],
             "cast": ["Marrenne", "Billmen"]}[cmd]
    slots = [Slot("data", "file", lambda e, v: [*base, *valid, "--data", v], sample=None if full and cmd == "melee" else 6,
                  examples=ex)]
    first = names[0]
    slots.append(Slot(first, "text", lambda e, v: [*base, v, *valid[1:]], sample=s, examples=ex))
    if cmd == "shoot":
        slots.append(Slot("target", "text", lambda e, v: [*base, valid[0], "--target", v, "--json"], sample=s, examples=ex))
    else:
        slots.append(Slot(names[1], "text", lambda e, v: [*base, valid[0], v, "--json"], sample=s, examples=ex))
    return {" ".join(base): slots}


def battlesystem_calc() -> dict[str, list[Slot]]:
    """``odds|resolve battlesystem …``: the unit names (the unit data is the shipped file; no --data here)."""
    t: dict[str, list[Slot]] = {}
    for group, cmd in (("odds", "attack"), ("odds", "missile"), ("resolve", "attack"), ("resolve", "missile")):
        base = [group, "battlesystem", cmd]
        t[" ".join(base)] = [
            Slot("attacker", "text", lambda e, v, b=base: [*b, v, "Light Infantry"], sample=6, examples=2),
            Slot("defender", "text", lambda e, v, b=base: [*b, "Archers", v, "--json"], sample=6, examples=2)]
    base = ["resolve", "battlesystem", "barrage"]
    t[" ".join(base)] = [
        Slot("artillery", "text", lambda e, v: [*base, v, "Light Infantry"], sample=6, examples=2),
        Slot("target", "text", lambda e, v: [*base, "Artillery", v, "--json"], sample=6, examples=2)]
    return t


def _table() -> dict[str, list[Slot]]:
    t: dict[str, list[Slot]] = {
        "battle new": [
            Slot("scenario", "file", lambda e, v: ["battle", "new", v, "--db", e.scratch]),
            # not fed the 250k-entry files: ``muster check`` is, through the same reader (load_muster), 2 s a file
            Slot("muster", "file", lambda e, v: ["battle", "new", "--muster", v, "--muster", e.muster_b, "--db", e.scratch,
                                                 "--json"]),
            Slot("ruleset", "text", lambda e, v: ["battle", "new", e.scenario, "--ruleset", v, "--db", e.scratch],
                 sample=8, examples=3),
            Slot("board", "text", lambda e, v: ["battle", "new", "--muster", e.muster, "--muster", e.muster_b,
                                                "--board", v, "--db", e.scratch], sample=8, examples=3),
            Slot("option", "text", lambda e, v: ["battle", "new", e.scenario, "--option", v, "--db", e.scratch],
                 sample=8, examples=3),
            db_slot(tail=("battle", "new", "SCENARIO")),  # SCENARIO: replaced below
            games.battle_new_data(),
        ],
        "battle list": [Slot("db", "db", lambda e, v: ["battle", "list", "--db", v, "--json"], examples=2)],
        "battle import": [Slot("file", "export", lambda e, v: ["battle", "import", v, "--db", e.scratch, "--new-id"]),
                          db_slot("battle", "import", "EXPORT")],
        "battle export": [db_slot("battle", "export", "ID", "OUT"),
                          Slot("battle", "id", lambda e, v: ["battle", "export", v, str(e.tmp / "out.json"), "--db", e.db],
                               sample=12),
                          Slot("file", "out", lambda e, v: ["battle", "export", e.exillis_id, v, "--db", e.db])],
        # battle act [ID] ACTION...: the id is the first of the words (left out: the current battle)
        "battle act": [Slot("words", "id", lambda e, v: ["battle", "act", v, "move", "Billmen", "C3", "--db", e.db],
                            sample=12),
                       Slot("words", "text", lambda e, v: ["battle", "act", e.exillis_id, "move", v, "--db", e.db]),
                       Slot("words", "text", lambda e, v: ["battle", "act", e.exillis_id, v, "--db", e.db, "--json"],
                            sample=12, examples=3),
                       Slot("option", "text", lambda e, v: ["battle", "act", e.wartable_id, "attack", "--option", v,
                                                            "--db", e.db, "--json"], sample=10, examples=3),
                       db_slot("battle", "act", "ID", "move", "Billmen", "C3")],
        # the terminal play loop: the driver's stdin is empty, so it draws the battle and ends at once
        "play": [Slot("battle", "id", lambda e, v: ["play", v, "--db", e.db], sample=12),
                 Slot("side", "text", lambda e, v: ["play", e.exillis_id, "--side", v, "--db", e.db], sample=8,
                      examples=2),
                 db_slot("play", "ID")],
        "battle use": [Slot("battle", "id", lambda e, v: ["battle", "use", v, "--db", e.db], sample=12),
                       db_slot("battle", "use", "ID")],
        "battle autoplay": [Slot("battle", "id", lambda e, v: ["battle", "autoplay", v, "--max-actions", "1", "--db", e.db],
                                 sample=12),
                            Slot("side", "text", lambda e, v: ["battle", "autoplay", e.wartable_id, "--side", v,
                                                               "--max-actions", "1", "--db", e.db, "--json"], sample=12),
                            db_slot("battle", "autoplay", "ID", "--max-actions", "1")],
        # verifiable dice (cli/dice_cmds.py): verify exits 1 on a mismatch
        "battle verify": [Slot("file", "export", lambda e, v: ["battle", "verify", v], ok=frozenset({0, 1, 2}))],
        "battle dice": [Slot("battle", "id", lambda e, v: ["battle", "dice", v, "--db", e.db, "--json"], sample=12),
                        db_slot("battle", "dice", "ID")],
        "battle contribute": [
            Slot("battle", "id", lambda e, v: ["battle", "contribute", v, "A", "--db", e.db], sample=12),
            Slot("side", "text", lambda e, v: ["battle", "contribute", e.exillis_id, v, "--db", e.db], sample=8,
                 examples=3),
            Slot("value", "text", lambda e, v: ["battle", "contribute", e.exillis_id, "A", v, "--db", e.db], sample=8,
                 examples=3),
            db_slot("battle", "contribute", "ID", "A")],
        "campaign record": [Slot("battle", "id", lambda e, v: ["campaign", "record", v, "--db", e.db], sample=12),
                            Slot("player_a", "text", lambda e, v: ["campaign", "record", e.exillis_id, "--player-a", v,
                                                                   "--db", e.db, "--json"], sample=8, examples=3),
                            db_slot("campaign", "record", "ID")],
        "campaign show": [Slot("muster", "text", lambda e, v: ["campaign", "show", "--muster", v, "--db", e.db], sample=12),
                          db_slot("campaign", "show")],
        "muster check": [Slot("file", "file", lambda e, v: ["muster", "check", v], ok=MUSTER, heavy=True),
                         Slot("data", "file", lambda e, v: ["muster", "check", e.muster, "--data", v, "--json"], sample=12,
                              ok=MUSTER)],
        "muster cost": [Slot("file", "file", lambda e, v: ["muster", "cost", v, "--json"], sample=15, examples=3,
                             ok=MUSTER),
                        Slot("data", "file", lambda e, v: ["muster", "cost", e.muster, "--data", v], sample=6, examples=2,
                             ok=MUSTER)],
        "muster export": [Slot("file", "file", lambda e, v: ["muster", "export", v, "--format", "html"], sample=15,
                               examples=3, ok=MUSTER),
                          Slot("data", "file", lambda e, v: ["muster", "export", e.muster, "--data", v], sample=6,
                               examples=2, ok=MUSTER),
                          Slot("output", "out", lambda e, v: ["muster", "export", e.muster, "-o", v], ok=MUSTER)],
        "units": [Slot("data", "file", lambda e, v: ["units", "exillis", "--data", v, "--json"], examples=4, heavy=True),
                  Slot("ruleset", "text", lambda e, v: ["units", v], sample=12, examples=4),
                  Slot("data", "file", lambda e, v: ["units", "wartable", "--data", v], sample=8, examples=2)],
        "resolve wartable": [
            Slot("battle", "file", lambda e, v: ["resolve", "wartable", "--battle", v]),
            Slot("data", "file", lambda e, v: ["resolve", "wartable", "--data", v, "-a", "Bloodless Horde", "-d",
                                               "Oathsworn Vanguard", "--json"], heavy=True),
            Slot("attacker", "text", lambda e, v: ["resolve", "wartable", "-a", v, "-d", "Oathsworn Vanguard"], sample=12),
            Slot("defender", "text", lambda e, v: ["resolve", "wartable", "--battle", e.wt_battle, "-d", v, "--json"],
                 sample=8, examples=3),
            Slot("region_trait", "text", lambda e, v: ["resolve", "wartable", "--battle", e.wt_battle, "-r", v],
                 sample=8, examples=3),
            Slot("option", "text", lambda e, v: ["resolve", "wartable", "--battle", e.wt_battle, "-o", v], sample=8,
                 examples=3),
            Slot("enclave", "text", lambda e, v: ["resolve", "wartable", "--battle", e.wt_battle, "--enclave", v,
                                                  "--stability", "50"], sample=8, examples=2),
        ],
    }
    for cmd in ("show", "actions", "undo", "replay"):
        json_flag = ["--json"] if cmd in ("show", "replay") else []
        t[f"battle {cmd}"] = [
            Slot("battle", "id", lambda e, v, c=cmd, j=json_flag: ["battle", c, v, "--db", e.db, *j],
                 sample=None if cmd == "show" else 12, ok=frozenset({0, 1, 2}) if cmd == "replay" else frozenset({0, 2})),
            db_slot("battle", cmd, "ID"),
        ]
    t.update(battlesystem_calc())
    for group in ("odds", "resolve"):
        for alias in ("exillis", "ex-illis"):
            for cmd in ("melee", "shoot", "cast"):
                t.update(exillis_calc(group, alias, cmd, full=alias == "exillis" and group == "odds"))
    t.update(games.games_table())
    return t


CLI_TABLE = _table()


def fill(argv: list[str], env: Env, export: str) -> list[str]:
    """Placeholders of the --db slots: a real scenario, battle and export."""
    swap = {"SCENARIO": env.scenario, "ID": env.exillis_id, "EXPORT": export, "OUT": str(env.tmp / "db-out.json")}
    return [swap.get(a, a) for a in argv]


# -- discovering the commands ----------------------------------------------------------------------------


def leaf_commands() -> Iterator[tuple[str, Any]]:
    """(path, command) of every runnable command of ``rulekeeper``, from the Typer/Click tree."""
    import typer
    from typer._click.core import Context

    from rulekeeper.cli.app import app

    def walk(cmd: Any, path: list[str]) -> Iterator[tuple[str, Any]]:
        if hasattr(cmd, "list_commands"):
            ctx = Context(cmd)
            for name in cmd.list_commands(ctx):
                yield from walk(cmd.get_command(ctx, name), [*path, name])
        else:
            yield " ".join(path), cmd

    yield from walk(typer.main.get_command(app), [])


def reads_file_or_id(cmd: Any) -> set[str]:
    """The parameters through which a command reads a file or an ID: every path, every text argument
    (a battle id, a unit or ruleset name), and the database."""
    found = set()
    for p in cmd.params:
        annotation = str(getattr(getattr(p, "type_descriptor", None), "annotation", ""))
        is_argument = type(p).__name__.endswith("Argument")
        if "Path" in annotation or p.name == "db" or (is_argument and "str" in annotation):
            found.add(p.name)
    return found


def uncovered() -> list[str]:
    """Commands and parameters that read a file or an ID but are not in :data:`CLI_TABLE`."""
    missing = []
    for path, cmd in leaf_commands():
        if path in EXCLUDED:
            continue
        needed = reads_file_or_id(cmd)
        if not needed:
            continue
        if path not in CLI_TABLE:
            missing.append(f"{path} (reads {', '.join(sorted(needed))})")
            continue
        fed = {s.param for s in CLI_TABLE[path]}
        missing += [f"{path} --{p}" for p in sorted(needed - fed)]
    return missing


# -- running a command ---------------------------------------------------------------------------------


@dataclass
class Ran:
    code: int | None
    exc: BaseException | None
    out: str
    err: str


def build_once() -> None:
    """Typer turns the app into a Click command on every call (50 ms with rulekeeper's ~40 commands);
    a real run pays it once per process, so the driver builds it once too (``main()`` is unchanged)."""
    import typer.main

    built: dict[int, Any] = {}
    original = typer.main.get_command

    def get_command(app: Any) -> Any:
        if id(app) not in built:
            built[id(app)] = original(app)
        return built[id(app)]

    typer.main.get_command = get_command  # type: ignore[assignment]


def run_cli(argv: list[str]) -> Ran:
    """``rulekeeper ARGV`` in this process through ``main()`` (as the installed script), with a UTF-8
    stdout that refuses what cannot be encoded (as a terminal does) and Python's own stderr policy."""
    from rulekeeper.cli.app import main

    saved = sys.stdout, sys.stderr, sys.stdin, sys.argv
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    sys.stdout, sys.stderr, sys.stdin = out, err, io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    sys.argv = ["rulekeeper", *argv]
    code: int | None = None
    exc: BaseException | None = None
    try:
        main()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except Exception as raised:  # an uncaught exception: a traceback for the user
        exc = raised
    finally:
        sys.stdout, sys.stderr, sys.stdin, sys.argv = saved
        _reset_consoles()
    return Ran(code, exc, out.buffer.getvalue().decode("utf-8", "replace"),  # type: ignore[attr-defined]
               err.buffer.getvalue().decode("utf-8", "replace"))  # type: ignore[attr-defined]


def _reset_consoles() -> None:
    """Drop what a failed print left in Rich's buffers (in a real run the process ends; here the next
    case would inherit it)."""
    from rulekeeper.cli import output

    for console in (output.console, output.err_console):
        del console._buffer[:]


def check(ran: Ran, slot: Slot, argv: list[str]) -> tuple[str, str | None, str]:
    """(outcome, problem or None, where) of one command run."""
    if ran.exc is not None:
        return "traceback", f"uncaught {type(ran.exc).__name__}: {str(ran.exc)[:300]}", where_raised(ran.exc)
    outcome = f"exit {ran.code}"
    size = len(ran.out) + len(ran.err)
    if ran.code not in slot.ok:
        return outcome, f"exit code {ran.code}: {(ran.err or ran.out)[-300:]}", ""
    if "Traceback (most recent call last)" in ran.out + ran.err:
        return outcome, "a traceback in the output", ""
    if size > (MAX_REFUSAL if ran.code == 2 else MAX_OUTPUT):  # exit 1: a muster's whole report
        return outcome, f"{size:,} characters of output", ""
    if ran.code == 2:
        if not (ran.out + ran.err).strip():
            return outcome, "refused without a word", ""
        if "--json" in argv and ran.out.strip():  # a typed refusal in --json mode is a JSON error
            try:
                doc = json.loads(ran.out)
            except ValueError:
                return outcome, f"--json refusal is not JSON: {ran.out[:200]}", ""
            if not (isinstance(doc, dict) and {"error", "message"} <= set(doc)):
                return outcome, f"--json refusal is not in the error format: {ran.out[:200]}", ""
    return outcome, None, ""


# -- the driver ----------------------------------------------------------------------------------------


def make_env(tmp: Path) -> tuple[Env, Path]:
    """Two databases (one with a real Ex illis and a real War Table battle), and a real export."""
    from rulekeeper.persistence.store import BattleStore
    from rulekeeper.service.battles import BattleService

    scen = ROOT / "src" / "rulekeeper" / "rulesets" / "exillis" / "data" / "scenarios" / "duel.yaml"
    wt = ROOT / "examples" / "wartable" / "oathsworn_vs_bloodless.yaml"
    db = tmp / "fuzz.db"
    svc = BattleService(BattleStore(str(db)))
    ex_id = svc.new(scen, seed=1)
    svc.autoplay(ex_id, max_actions=2)
    wt_id = svc.new(ROOT / "src" / "rulekeeper" / "rulesets" / "wartable" / "data" / "scenarios"
                    / "bloodless_assault_on_enclave.yaml", seed=1)
    export = tmp / "real-export.json"
    svc.export(ex_id, export)
    musters = ROOT / "examples" / "exillis" / "musters"
    env = Env(tmp, str(db), str(tmp / "scratch.db"), ex_id, wt_id, str(scen), str(musters / "broken_wing.yaml"),
              str(musters / "brec_helean.toml"), str(wt), games.make_campaign(svc))
    return env, export


def hostile_dbs(tmp: Path, corpus: list[Path]) -> list[str]:
    """Databases that are not ours: junk, empty, a folder, another program's SQLite file, odd URLs."""
    import sqlite3

    where = tmp / "dbs"
    where.mkdir()
    (where / "junk.db").write_bytes(bytes(range(256)) * 64)
    (where / "empty.db").write_bytes(b"")
    (where / "text.db").write_text("SQLite format 3\x00 but not really\n")
    (where / "folder.db").mkdir()
    foreign = sqlite3.connect(where / "foreign.db")
    foreign.executescript("CREATE TABLE battles (x TEXT); INSERT INTO battles VALUES ('not ours');"
                          "CREATE TABLE alembic_version (version_num TEXT); INSERT INTO alembic_version VALUES ('zzz');")
    foreign.commit()
    foreign.close()
    (where / "readonly").mkdir()
    dbs = [str(where / n) for n in ("junk.db", "empty.db", "text.db", "folder.db", "foreign.db")]
    dbs += ["sqlite://", f"sqlite:///{where}/no/such/dir/x.db", "nosuchdialect://x/y", "sqlite:///:memory:",
            "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2", "/dev/null", str(where / ("d" * 300)),
            str(where / "corpus-copy.yaml"), "", "%00", "sqlite:////proc/self/mem"]
    (where / "corpus-copy.yaml").write_bytes((corpus[0]).read_bytes() if corpus[0].is_file() else b"")
    return dbs


def out_paths(tmp: Path) -> list[str]:
    where = tmp / "outs"
    where.mkdir()
    (where / "a-folder").mkdir()
    (where / "existing.json").write_text("{}")
    return [str(where / "a-folder"), "/dev/full", str(where / "no" / "dir" / "x.json"), str(where / ("n" * 300)),
            str(where / "existing.json"), "/proc/self/mem", "", ".", str(where / "ok.json"), "/dev/null",
            str(where / "é☃ \udcff.json")]


#: The 250k-entry YAML files are refused by the one YAML reader every command shares, before any command's own
#: code (more than 500,000 values, about 2 s each): the one with distinct names goes to the muster reader it was
#: written for, the other to two readers (musters and unit data). Every heavy reader gets the 250k-table TOML file,
#: which each refuses by its own count of lines.
HEAVY_YAML_READERS = {"muster check": ("250k_names", "250k_entries"), "units exillis": ("250k_entries",)}


def heavy_for(slot: Slot, file_name: str, env: Env) -> bool:
    if file_name.endswith(".toml"):
        return True
    command = " ".join(slot.argv(env, "FILE")[:2])
    return any(kind in file_name for kind in HEAVY_YAML_READERS.get(command, ()))


def values_for(slot: Slot, files: list[Path], exports: list[Path], dbs: list[str], outs: list[str],
               env: Env) -> list[str]:
    kind = slot.kind
    if kind == "file":
        return [str(p) for p in files if "250k" not in p.name or slot.heavy and heavy_for(slot, p.name, env)]
    if kind in games.FOLDER_FILES:
        return games.folders(kind, files, env.tmp)
    if kind == "export":
        return [str(p) for p in exports] + [str(p) for p in files[::4]]
    if kind == "db":
        return dbs
    if kind == "out":
        return outs
    ids = [env.exillis_id + "é", env.exillis_id.upper(), env.exillis_id + "\udcff", env.exillis_id[:-1],
           env.exillis_id + " ", env.wartable_id + "/../" + env.exillis_id]
    return [argv_text(t) for t in ([*ids, *HOSTILE_TEXTS] if kind == "id" else HOSTILE_TEXTS)]


def sample(values: list[str], n: int | None, key: str) -> list[str]:
    if n is None or n >= len(values):
        return values
    start = zlib.crc32(key.encode()) % len(values)
    step = max(1, len(values) // n)
    return [values[(start + i * step) % len(values)] for i in range(n)]


def run(rec: Recorder, tmp: Path, scale: float = 1.0) -> dict[str, Any]:
    build_once()
    env, export = make_env(tmp)
    files = static_corpus() + runtime_corpus(tmp / "corpus")
    exports = export_corpus(export, tmp / "exports")
    dbs = hostile_dbs(tmp, files)
    outs = out_paths(tmp)
    seeds = _seeds(export)
    for name, slots in CLI_TABLE.items():
        for slot in slots:
            key = f"{name} --{slot.param}"
            for value in sample(values_for(slot, files, exports, dbs, outs, env), slot.sample, key):
                argv = fill(slot.argv(env, value), env, str(export))
                rec.run(name, f"--{slot.param} corpus", argv, lambda a=argv, s=slot: check(run_cli(a), s, a))
            examples = max(1, round(slot.examples * scale))
            hypothesis_cases(key, examples, _hypothesis_body(rec, name, slot, env, export, seeds, tmp))
    return {"corpus_files": len(files), "export_files": len(exports), "databases": len(dbs),
            "commands": len(CLI_TABLE)}


def _seeds(export: Path) -> list[tuple[str, Any]]:
    from rulekeeper.core.datafiles import read_data_file

    valid = [ROOT / "examples" / "exillis" / "musters" / "broken_wing.yaml",
             ROOT / "examples" / "exillis" / "musters" / "brec_helean.toml", ROOT / "examples" / "exillis" / "starter.yaml",
             ROOT / "examples" / "wartable" / "oathsworn_vs_bloodless.yaml",
             ROOT / "examples" / "wartable" / "custom_units.yaml"]
    return [(p.suffix, read_data_file(p)) for p in valid] + [(".json", json.loads(export.read_text()))]


def _hypothesis_body(rec: Recorder, name: str, slot: Slot, env: Env, export: Path, seeds: list[tuple[str, Any]],
                     tmp: Path) -> Callable[[st.DataObject], None]:
    counter = iter(range(10**9))

    def body(data: st.DataObject) -> None:
        if slot.kind in games.FOLDER_FILES:
            where = tmp / "hyp" / f"{name.replace(' ', '_')}-{slot.param}-{next(counter)}"
            value = games.hypothesis_folder(slot.kind, where, file_bytes(data, seeds)[1], next(counter))
        elif slot.kind in ("file", "export", "db"):
            suffix, content = file_bytes(data, seeds)
            if slot.kind == "export":
                suffix = ".json"
            path = tmp / "hyp" / f"{name.replace(' ', '_')}-{slot.param}-{next(counter)}{suffix}"
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(content)
            value = str(path)
        elif slot.kind == "out":
            value = str(tmp / "hyp-out" / argv_text(data.draw(TEXTS)).replace("/", "_")[:200])
            (tmp / "hyp-out").mkdir(exist_ok=True)
        else:
            value = argv_text(data.draw(TEXTS, label=slot.param))
        argv = fill(slot.argv(env, value), env, str(export))
        rec.run(name, f"--{slot.param} hypothesis", argv, lambda: check(run_cli(argv), slot, argv))

    return body
