"""An export file that is JSON but not a document (a list, a number) is refused by name, never a traceback.

``core.datafiles.read_export`` hands back the parsed JSON as an ``object`` (issue 22: JSON only at the
boundary, checked where it is read); ``BattleService.import_`` checks it is an object before reading its keys
(it used to call ``.get`` on whatever the file held: an AttributeError for ``[]``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekeeper.persistence.errors import StoreError
from rulekeeper.persistence.store import BattleStore
from rulekeeper.service.battles import BattleService


@pytest.mark.parametrize(("text", "kind"), [("[]", "list"), ("3", "int"), ('"battle"', "str")])
def test_an_export_that_is_not_a_json_object_is_refused(tmp_path: Path, text: str, kind: str) -> None:
    path = tmp_path / "battle.json"
    path.write_text(text, encoding="utf-8")
    with BattleStore(tmp_path / "battles.db") as store:
        with pytest.raises(StoreError) as refused:
            BattleService(store).import_(path)
        assert store.list() == []
    assert refused.value.code == "store"
    assert f"the file holds a JSON {kind}, not an object" in refused.value.message
    assert refused.value.details["field"] == "(document)"
