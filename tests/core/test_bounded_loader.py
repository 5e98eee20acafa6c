"""Hostile files get a short typed error in bounded time, never a traceback or a huge allocation.

The corpus in ``tests/core/hostile/`` is the one found by probing the CLI and the web keeper:
a 324-byte YAML alias bomb (9⁹ values once expanded), 3000 nested brackets in YAML and TOML,
a 5000-digit integer in YAML and TOML, an unhashable YAML key, a file that is not UTF-8.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cli_kit import run_main
from rulekeeper.core.datafiles import check_tree, parse_data_text, read_data_file, read_export
from rulekeeper.core.errors import DataFileError
from rulekeeper.core.limits import LIMITS
from rulekeeper.web.api import create_app

HOSTILE = sorted((Path(__file__).parent / "hostile").iterdir())


@pytest.mark.parametrize("path", HOSTILE, ids=lambda p: p.name)
def test_each_hostile_file_is_refused_quickly_with_a_short_message(path: Path) -> None:
    t0 = time.process_time()  # CPU, not wall: a loaded CI machine must not fail it, a slow reader must
    with pytest.raises(DataFileError) as info:
        read_data_file(path)
    assert time.process_time() - t0 < 2.0
    assert str(path) in str(info.value) and len(info.value.message) <= LIMITS.message + len(str(path)) + 10


@pytest.mark.parametrize("path", HOSTILE, ids=lambda p: p.name)
def test_the_cli_answers_exit_2_without_a_traceback(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for args in (["muster", "check", str(path)], ["battle", "new", str(path), "--db", str(tmp_path / "b.db")]):
        code, output = run_main(args, capsys, monkeypatch)
        assert code == 2, (args, output)
        assert "Traceback" not in output and path.name in output


def test_the_web_keeper_refuses_a_pasted_alias_bomb_at_once(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "w.db"))
    bomb = (Path(__file__).parent / "hostile" / "alias_bomb.yaml").read_text()
    t0 = time.process_time()  # the app runs in this process (TestClient): its CPU, whatever the machine's load
    r = client.post("/new", data={"from": "musters", "game": "exillis", "muster_a": bomb, "muster_b": bomb})
    assert 400 <= r.status_code < 500 and time.process_time() - t0 < 2.0
    assert len(r.content) < 50_000 and "limits" in r.text


def test_limits_leave_real_files_alone() -> None:
    units = Path(__file__).resolve().parents[2] / "src" / "rulekeeper" / "rulesets" / "exillis" / "data" / "units.yaml"
    assert read_data_file(units)["units"]  # the biggest shipped file reads as before


def test_each_limit_is_enforced_at_its_value() -> None:
    deep_ok = "[" * (LIMITS.depth - 1) + "]" * (LIMITS.depth - 1)
    assert parse_data_text(deep_ok, "f", ".yaml") is not None
    with pytest.raises(DataFileError, match="deeper"):
        parse_data_text("[" * (LIMITS.depth + 2) + "]" * (LIMITS.depth + 2), "f", ".yaml")
    assert parse_data_text("a: " + "9" * LIMITS.digits, "f", ".yaml") == {"a": int("9" * LIMITS.digits)}
    with pytest.raises(DataFileError, match="digits"):
        parse_data_text("a: " + "9" * (LIMITS.digits + 1), "f", ".yaml")
    with pytest.raises(DataFileError, match="digits"):
        check_tree({"a": [10**LIMITS.digits]}, "f")
    with pytest.raises(DataFileError, match="larger than"):
        parse_data_text("a: 1\n" * (LIMITS.file_bytes // 5 + 1), "f", ".yaml")


def test_an_error_with_250000_problems_stays_readable() -> None:
    err = DataFileError("big.yaml", [f"terrain[{i}]: unknown zone 'Z{i}'" for i in range(250_000)])
    assert len(err.message) <= LIMITS.message + 20 and "and 249950 more" in err.message


def test_an_export_that_is_not_json_or_not_utf8_is_a_typed_error(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    for content in (b"\xff\xfe", b"[" * 100_000, b'{"a": ' + b"9" * 5000 + b"}", b"{"):
        bad.write_bytes(content)
        with pytest.raises(DataFileError):
            read_export(bad)


@pytest.mark.parametrize(("suffix", "text"), [
    (".yaml", 'name: "Evil\\e[31mRED"\n'),
    (".yaml", 'units:\n  - unit: "Bill\\e]0;pwned\\amen"\n'),
    (".toml", 'name = "Evil\\u001b[2J"\n'),
    (".json", '{"name": "Evil\\u009b31m"}'),
])
def test_a_text_holding_a_control_character_is_refused(suffix: str, text: str) -> None:
    """An ESC in a unit's name reached the terminal when ``muster check`` printed it (a colour, a cleared
    screen, a window title); every reader now refuses C0/C1 control characters but tab and newlines."""
    with pytest.raises(DataFileError, match=r"control character U\+00(1B|9B)"):
        parse_data_text(text, "muster" + suffix, suffix)


def test_tabs_and_newlines_stay_allowed() -> None:
    data = parse_data_text('about: "two\\tcolumns\\nand lines\\r\\n"\n', "notes.yaml", ".yaml")
    assert data == {"about": "two\tcolumns\nand lines\r\n"}


def test_a_refusal_of_check_tree_is_not_wrapped_twice() -> None:
    """Was: TOML past the depth limit read "TOML the reader refuses (DataFileError: x.toml: nested…)"."""
    with pytest.raises(DataFileError) as caught:
        parse_data_text("a = " + "[" * 100 + "]" * 100, "x.toml", ".toml")
    assert caught.value.message.count("x.toml") == 1 and "refuses" not in caught.value.message


def test_muster_check_refuses_an_escape_in_a_name_without_printing_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    muster = tmp_path / "evil.yaml"
    muster.write_text('name: "Evil\\e[31mRED\\e]0;pwned\\a"\ngame_type: Common\nunits:\n  - unit: Billmen\n')
    code, out = run_main(["muster", "check", str(muster)], capsys, monkeypatch)
    assert code == 2 and "control character U+001B" in out and "\x1b" not in out


def _values(tree: object) -> int:
    """What check_tree counts: every key and every value."""
    stack, count = [tree], 0
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack += [*item, *item.values()]
        elif isinstance(item, list):
            stack += item
    return count


def test_a_toml_file_of_too_many_tables_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    """Was: 250,000 ``[[units]]`` tables (6.7 MB, within the size limit) took tomllib about 3 s of CPU before
    check_tree refused them; the line count refuses them with the same message, in a tenth of that."""
    path = tmp_path / "musters.toml"
    path.write_text('name = "Huge"\n' + '[[units]]\nunit = "Billmen"\n' * 250_000, encoding="utf-8")
    t0 = time.process_time()
    with pytest.raises(DataFileError, match="more than 500,000 values"):
        read_data_file(path)
    assert time.process_time() - t0 < 1.0


@pytest.mark.parametrize("text", [
    'a = 1\nb.c.d = "x"\n[t]\ne = [\n  [1, 2],\n  [3],\n]\n[[u]]\nf = {g = 1, h = [2]}\n[[u]]\n',
    'a = """\nb = 1\nc = 2\n[d]\n"""\n',  # key-like lines inside a multi-line string: counted as nothing
    "# a = 1\n#[t]\nx = '''\ny = 2\n'''\n",
    '"quoted key" = 1\n\'literal\' = [1, 2, 3]\nz = 0\n',
])
def test_the_toml_line_count_never_exceeds_the_values_parsed(text: str) -> None:
    import tomllib

    from rulekeeper.core.datafiles import toml_values_at_least

    assert 0 <= toml_values_at_least(text) <= _values(tomllib.loads(text))
