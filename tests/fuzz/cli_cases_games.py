"""The fuzz table's entries for the newer commands: the lab, the War Table campaign, Confrontation, Dragon Noir.

Kept apart from :mod:`cli_cases` (which would pass 500 lines) and merged into its ``CLI_TABLE``. The
lab's command lines stay cheap (``--sims 2 --backend serial``, two units): a hostile value is refused
before any battle, and a valid one simulates two. Folder parameters (Dragon Noir's ``--sheet``, the
sweeps of ``lab compare``) are fed the corpus both as it is (a file where a folder is wanted) and
dropped into a folder under the name the reader looks for (:func:`folders`).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from fuzzlib import ROOT

if TYPE_CHECKING:
    from cli_cases import Slot

#: What the folder kinds hold: Dragon Noir's sheet files, a sweep's matrix.
SHEET_FILES = ("combat.yaml", "fire.yaml", "terrain.yaml", "moves.yaml", "characters.yaml")
FOLDER_FILES = {"sheet": SHEET_FILES, "sweep": ("matrix.csv",)}
#: Cheap lab runs: a hostile value is refused before the first battle; a valid one fights two.
CHEAP = ("--sims", "2", "--backend", "serial")
SHIPPED_MAP = str(ROOT / "src" / "rulekeeper" / "rulesets" / "dragonnoir" / "data" / "maps" / "example.yaml")
CAMPAIGN = ROOT / "examples" / "wartable" / "shroudfall.yaml"
DELVE_TABLE = str(ROOT / "examples" / "wartable" / "barrow_delve.yaml")


def folders(kind: str, files: list[Path], where: Path) -> list[str]:
    """Each corpus file given as it is, and copied into a folder of its own under a name the reader reads
    (the sheet's five files in turn; a sweep's ``matrix.csv``); what is not a regular file is linked."""
    made = [str(p) for p in files if "250k" not in p.name]
    names = FOLDER_FILES[kind]
    root = where / f"folders-{kind}"
    for i, path in enumerate(p for p in files if "250k" not in p.name):
        folder = root / f"{i:03d}-{path.name[:40]}"
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / names[i % len(names)]
        try:
            regular = path.is_file() and not path.is_symlink() and not str(path).startswith(("/dev", "/proc"))
        except OSError:  # a name longer than the file system allows
            regular = False
        try:
            shutil.copyfile(path, target) if regular else target.symlink_to(path)
        except OSError:  # a link to a path longer than PATH_MAX: the plain path is fed already
            continue
        made.append(str(folder))
    return made


def hypothesis_folder(kind: str, where: Path, content: bytes, n: int) -> str:
    """A folder holding one hypothesis-written file under a name the reader reads."""
    names = FOLDER_FILES[kind]
    where.mkdir(parents=True, exist_ok=True)
    (where / names[n % len(names)]).write_bytes(content)
    return str(where)


def make_campaign(svc: object) -> str:
    """A real War Table campaign (with the game master's own Delve table) for ``campaign-chart``/``-map``."""
    from rulekeeper.core.game import SetupRequest
    from rulekeeper.service.battles import BattleService

    assert isinstance(svc, BattleService)
    request = SetupRequest(scenario=CAMPAIGN, seed=1, db=svc.store.url, data=(Path(DELVE_TABLE),))
    return svc.new(request, ruleset="wartable-campaign")


def real_sweep(tmp: Path) -> str:
    """A real (tiny) sweep folder, the valid side of ``lab compare``: made when first needed (the lab's
    libraries map ~600 MB of address space, so the heavy readers before it run without them)."""
    from cli_cases import run_cli

    out = tmp / "real-sweep"
    if (out / "matrix.csv").is_file():
        return str(out)
    ran = run_cli(["lab", "sweep", "exillis", "--units", "Billmen,Vileins", *CHEAP, "--out", str(out), "--json"])
    assert ran.code == 0 and (out / "matrix.csv").is_file(), (ran.code, ran.exc, ran.err[-500:])
    return str(out)


def lab_table() -> dict[str, list[Slot]]:
    """``lab play|duel|sweep|compare``: the game, the units, the scenario, the house rule, the outputs."""
    from cli_cases import Slot

    play = ["lab", "play"]
    duel = ["lab", "duel"]
    sweep = ["lab", "sweep"]
    two = ("--units", "Billmen,Vileins")
    return {
        "lab play": [
            Slot("game", "text", lambda e, v: [*play, v, "duel", *CHEAP], sample=8, examples=2),
            Slot("scenario", "file", lambda e, v: [*play, "exillis", v, *CHEAP, "--json"], sample=40, examples=3),
            Slot("scenario", "text", lambda e, v: [*play, "exillis", v, *CHEAP], sample=8, examples=2)],
        "lab duel": [
            Slot("game", "text", lambda e, v: [*duel, v, "Billmen", "Vileins", *CHEAP], sample=8, examples=2),
            Slot("first", "text", lambda e, v: [*duel, "exillis", v, "Vileins", *CHEAP, "--json"], sample=10,
                 examples=2),
            Slot("second", "text", lambda e, v: [*duel, "exillis", "Billmen", v, *CHEAP], sample=10, examples=2),
            Slot("house_rule", "file", lambda e, v: [*duel, "exillis", "Billmen", "Vileins", *CHEAP, "--house-rule", v,
                                                     "--json"], examples=4),
            Slot("plot", "out", lambda e, v: [*duel, "exillis", "Billmen", "Vileins", *CHEAP, "--plot", v], sample=6,
                 examples=1),
            Slot("csv", "out", lambda e, v: [*duel, "exillis", "Billmen", "Vileins", *CHEAP, "--csv", v, "--json"])],
        "lab sweep": [
            Slot("game", "text", lambda e, v: [*sweep, v, *two, *CHEAP, "--out", str(e.tmp / "sweep-g")], sample=6,
                 examples=1),
            Slot("house_rule", "file", lambda e, v: [*sweep, "exillis", *two, *CHEAP, "--out", str(e.tmp / "sweep-h"),
                                                     "--house-rule", v], sample=20, examples=2),
            Slot("out", "out", lambda e, v: [*sweep, "exillis", *two, *CHEAP, "--out", v, "--json"], examples=2)],
        "lab compare": [
            Slot("base", "sweep", lambda e, v: ["lab", "compare", v, real_sweep(e.tmp), "--json"], examples=3),
            Slot("variant", "sweep", lambda e, v: ["lab", "compare", real_sweep(e.tmp), v], sample=30, examples=2)],
    }


def campaign_table() -> dict[str, list[Slot]]:
    """``campaign-chart|campaign-map ID`` (a War Table campaign) and ``battle new --data``."""
    from cli_cases import Slot, db_slot

    return {
        "campaign-chart": [
            Slot("battle", "id", lambda e, v: ["campaign-chart", v, "--out", str(e.tmp / "chart.png"), "--db", e.db],
                 sample=12),
            Slot("out", "out", lambda e, v: ["campaign-chart", e.campaign_id, "--out", v, "--db", e.db]),
            db_slot("campaign-chart", "ID", "--out", "OUT")],
        "campaign-map": [
            Slot("battle", "id", lambda e, v: ["campaign-map", v, "--db", e.db], sample=12),
            db_slot("campaign-map", "ID")],
    }


def battle_new_data() -> Slot:
    """``battle new SCENARIO --data FILE``: the War Table campaign's own tables (the game that reads them)."""
    from cli_cases import Slot

    return Slot("data", "file", lambda e, v: ["battle", "new", str(CAMPAIGN), "--ruleset", "wartable-campaign",
                                              "--data", v, "--db", e.scratch, "--json"], heavy=True)


def confrontation_table() -> dict[str, list[Slot]]:
    """``odds confrontation test|combat``, ``resolve confrontation combat``: card files, names, the Wound Table."""
    from cli_cases import Slot

    t: dict[str, list[Slot]] = {
        "odds confrontation test": [
            Slot("test", "text", lambda e, v: ["odds", "confrontation", "test", v, "4", "--json"], sample=12,
                 examples=3)]}
    for group, extra in (("odds", ("--method", "monte-carlo", "--runs", "100")), ("resolve", ())):
        base = [group, "confrontation", "combat"]
        full = group == "odds"
        t[" ".join(base)] = [
            Slot("fighters", "file", lambda e, v, b=base, x=extra: [*b, v, "Wolfen hunter", *x, "--json"],
                 sample=None if full else 20, examples=4 if full else 2, heavy=full),
            Slot("fighters", "text", lambda e, v, b=base, x=extra: [*b, "Alahan swordsman", v, *x], sample=10,
                 examples=2),
            Slot("wound_table", "file", lambda e, v, b=base, x=extra: [*b, "Alahan swordsman", "Wolfen hunter", *x,
                                                                       "--wound-table", v],
                 sample=None if full else 20, examples=3 if full else 1)]
    return t


def dragonnoir_table() -> dict[str, list[Slot]]:
    """``odds|resolve dragonnoir combat|fire``: the ``--sheet`` folder and the ``--map`` file."""
    from cli_cases import Slot

    t: dict[str, list[Slot]] = {}
    for group in ("odds", "resolve"):
        full = group == "odds"
        combat = [group, "dragonnoir", "combat", "--attacker", "Laberne", "--defender", "Jon"]
        fire = [group, "dragonnoir", "fire", "--shooter", "Laberne", "--target", "Arlon"]
        t[f"{group} dragonnoir combat"] = [
            Slot("sheet", "sheet", lambda e, v, c=combat: [*c, "--sheet", v, "--json"], sample=None if full else 30,
                 examples=4 if full else 2)]
        t[f"{group} dragonnoir fire"] = [
            Slot("map_file", "file", lambda e, v, f=fire: [*f, "--map", v], sample=None if full else 30,
                 examples=4 if full else 2, heavy=full),
            Slot("sheet", "sheet", lambda e, v, f=fire: [*f, "--map", SHIPPED_MAP, "--sheet", v],
                 sample=40 if full else 20, examples=2)]
    return t


def games_table() -> dict[str, list[Slot]]:
    """The lab last: its libraries (numba, pyarrow) stay mapped once imported."""
    return {**campaign_table(), **confrontation_table(), **dragonnoir_table(), **lab_table()}

