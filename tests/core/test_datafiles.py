"""The strict YAML loader: libyaml's C parser when present, the same data and refusals as pure Python."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulekeeper.core import datafiles, yamlfiles
from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError
from rulekeeper.core.yamlfiles import PureStrictLoader, StrictLoader, load_yaml

UNITS = Path(datafiles.__file__).resolve().parents[1] / "rulesets/exillis/data/units.yaml"
LOADERS = [StrictLoader, PureStrictLoader]


def test_uses_libyaml_when_pyyaml_has_it() -> None:
    assert yamlfiles.C_LOADER is bool(getattr(yaml, "__with_libyaml__", False))
    if yamlfiles.C_LOADER:
        assert issubclass(StrictLoader, yaml.CSafeLoader)


def test_units_yaml_parses_to_the_same_data_with_both_loaders() -> None:
    text = UNITS.read_text(encoding="utf-8")
    assert load_yaml(text, StrictLoader) == load_yaml(text, PureStrictLoader)


@pytest.mark.parametrize("loader", LOADERS)
def test_duplicate_key_is_refused_with_its_line(loader: type[yaml.SafeLoader]) -> None:
    with pytest.raises(yaml.constructor.ConstructorError) as err:
        load_yaml("a: 1\nb:\n  c: 2\n  c: 3\n", loader)
    assert err.value.problem == "found duplicate key 'c'"
    assert err.value.problem_mark is not None and (err.value.problem_mark.line, err.value.problem_mark.column) == (3, 2)


@pytest.mark.parametrize("loader", LOADERS)
def test_safe_loading_refuses_python_tags(loader: type[yaml.SafeLoader]) -> None:
    with pytest.raises(yaml.constructor.ConstructorError):
        load_yaml("a: !!python/object/apply:os.system ['true']\n", loader)


def test_read_data_file_names_the_line_of_a_duplicate(tmp_path: Path) -> None:
    f = tmp_path / "dup.yaml"
    f.write_text("name: a\nunits:\n  - x\nname: b\n", encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        read_data_file(f)
    assert "YAML error at line 4, column 1: found duplicate key 'name'" in str(err.value)


def test_read_data_file_names_the_line_of_a_syntax_error(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("name: x\nunits: [\n", encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        read_data_file(f)
    assert "YAML syntax error at line 3, column 1" in str(err.value)


def test_empty_yaml_is_an_empty_mapping(tmp_path: Path) -> None:
    f = tmp_path / "empty.yaml"
    f.write_text("# nothing\n", encoding="utf-8")
    assert read_data_file(f) == {}
