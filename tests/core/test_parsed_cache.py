"""Large data files parse once and are recalled by their content (``core.parsed_cache``): the shipped
Ex illis profiles cost about a tenth of a second of every ``odds`` and ``battle show`` to parse."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from rulekeeper.core import datafiles, parsed_cache
from rulekeeper.core.errors import DataFileError

UNITS = Path(datafiles.__file__).resolve().parents[1] / "rulesets/exillis/data/units.yaml"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(parsed_cache.CACHE_ENV, str(folder))
    return folder


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real = datafiles.parse_data_text

    def spy(text: str, where: str, suffix: str) -> Any:
        parsed.append(where)
        return real(text, where, suffix)

    monkeypatch.setattr(datafiles, "parse_data_text", spy)
    return parsed


def test_a_large_file_is_parsed_once_then_recalled_whole(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = _counting(monkeypatch)
    first = datafiles.read_data_file(UNITS)
    second = datafiles.read_data_file(UNITS)
    assert parsed == [str(UNITS)]
    assert second == first and second is not first  # a fresh tree: a caller may change its own
    assert list(second["units"]) == list(first["units"])  # key order kept
    assert len(list((cache / "parsed").glob("*.marshal"))) == 1


def test_an_edited_file_is_parsed_again(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = _counting(monkeypatch)
    mine = tmp_path / "units.yaml"
    text = "units:\n" + "".join(f"  U{i}: {{miniatures: {i}}}\n" for i in range(300))
    mine.write_text(text, encoding="utf-8")
    assert datafiles.read_data_file(mine)["units"]["U7"] == {"miniatures": 7}
    mine.write_text(text.replace("U7: {miniatures: 7}", "U7: {miniatures: 9}"), encoding="utf-8")
    assert datafiles.read_data_file(mine)["units"]["U7"] == {"miniatures": 9}
    assert parsed == [str(mine), str(mine)]


def test_a_refused_file_is_refused_every_time(cache: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: 1\n" + "".join(f"b{i}: 2\n" for i in range(1000)) + "a: 3\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataFileError, match="duplicate key 'a'"):
            datafiles.read_data_file(bad)
    assert not (cache / "parsed").exists()


def test_what_marshal_cannot_hold_is_parsed_each_time(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = _counting(monkeypatch)
    dated = tmp_path / "dated.yaml"
    dated.write_text("when: 2026-12-01\n" + "".join(f"k{i}: {i}\n" for i in range(800)), encoding="utf-8")
    assert str(datafiles.read_data_file(dated)["when"]) == "2026-12-01"
    assert str(datafiles.read_data_file(dated)["when"]) == "2026-12-01"
    assert len(parsed) == 2


def test_a_cache_folder_that_cannot_be_written_only_means_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(parsed_cache.CACHE_ENV, str(blocker))
    assert datafiles.read_data_file(UNITS)["units"]


def test_a_damaged_entry_is_parsed_again(cache: Path) -> None:
    good = datafiles.read_data_file(UNITS)
    (entry,) = (cache / "parsed").glob("*.marshal")
    entry.write_bytes(b"\x00garbage")
    assert datafiles.read_data_file(UNITS) == good


def test_small_files_are_not_kept(cache: Path, tmp_path: Path) -> None:
    small = tmp_path / "small.yaml"
    small.write_text("a: 1\n", encoding="utf-8")
    assert datafiles.read_data_file(small) == {"a": 1}
    assert not (cache / "parsed").exists()


def test_the_folder_keeps_only_the_newest_entries(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user who reads many different files over the years keeps at most ``MAX_ENTRIES`` of them cached."""
    monkeypatch.setattr(parsed_cache, "MAX_ENTRIES", 3)
    for i in range(5):
        mine = tmp_path / f"units{i}.yaml"
        mine.write_text(f"units:  # {i}\n" + "".join(f"  U{k}: {{miniatures: {k}}}\n" for k in range(300)))
        assert datafiles.read_data_file(mine)["units"]["U7"] == {"miniatures": 7}
        for entry in (cache / "parsed").glob("*.marshal"):  # one second apart, whatever the clock's grain
            if entry.stat().st_mtime > 1_500_000_000:  # just written (the clock says 2026)
                os.utime(entry, (1_000_000_000 + i, 1_000_000_000 + i))
    assert len(list((cache / "parsed").glob("*.marshal"))) == 3
    parsed = _counting(monkeypatch)
    datafiles.read_data_file(tmp_path / "units4.yaml")  # the newest is still recalled
    datafiles.read_data_file(tmp_path / "units0.yaml")  # the oldest was removed: parsed again
    assert parsed == [str(tmp_path / "units0.yaml")]


def test_the_game_files_a_setup_reads_are_recalled_too(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Confrontation scenario reads two warband files (about 12 ms of YAML each) every time it is set up or listed;
    Dragon Noir's sheets and the War Table's files the same: each is parsed once, then recalled."""
    from rulekeeper.rulesets.confrontation.cards import WARBANDS, load_warband, parse_warband
    from rulekeeper.rulesets.dragonnoir.data import load_sheet
    from rulekeeper.rulesets.wartable.data import load_data

    parsed = _counting(monkeypatch)
    lions = WARBANDS / "lions_of_alahan.yaml"
    assert load_warband(lions) == load_warband(lions)
    load_sheet(None), load_sheet(None)
    load_data(), load_data()
    assert parsed.count(str(lions)) == 1
    sheet = [where for where in parsed if "dragonnoir/data/" in where]
    assert sorted(set(sheet)) == [f"rulekeeper/rulesets/dragonnoir/data/{name}.yaml"
                                  for name in ("characters", "combat", "fire", "moves", "terrain")]
    # the large ones once; those under MIN_BYTES (combat, moves, the War Table's) parse faster than a recall
    assert [where for where in set(parsed) if parsed.count(where) > 1] and all(
        parsed.count(where) == 1 for where in sheet if where.rsplit("/", 1)[1] in {"characters.yaml", "fire.yaml",
                                                                                   "terrain.yaml"})
    pasted = lions.read_text(encoding="utf-8")  # a text pasted into the web keeper is a visitor's: never recalled
    from rulekeeper.rulesets.confrontation import cards

    monkeypatch.setattr(cards, "parse_data_text", datafiles.parse_data_text)  # the spy
    parse_warband(pasted, "pasted"), parse_warband(pasted, "pasted")
    assert parsed.count("pasted") == 2
