"""A battle page computes the odds of the actions it shows, not of every legal action (issue 23, fault 5).

Before: the page previewed every legal action of the side to act, though the Battle System page shows only
the picked unit's actions (a 416-unit scenario cost about 750 s of CPU per page view).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_kit import new, page

from rulekeeper.core.game import OddsPreview
from rulekeeper.rulesets.battlesystem.actions import ACTIONS, BSAction
from rulekeeper.rulesets.battlesystem.game import BattleSystem
from rulekeeper.web.shown_odds import ShownOdds, shown_odds


def test_shown_odds_compute_once_when_read() -> None:
    calls: list[object] = []

    def preview(state: object, action: dict[str, Any]) -> OddsPreview:
        calls.append(action)
        return OddsPreview((("hit", 0.5),))

    odds = shown_odds(preview, object(), [{"kind": "a"}, {"kind": "b"}])
    assert calls == []
    assert odds[1].headline == (("hit", 0.5),) and odds[1].headline_dict() == {"hit": 0.5}
    assert odds[1].draws == ()
    assert calls == [{"kind": "b"}]
    assert isinstance(odds[0], ShownOdds) and not odds[0].is_computed
    assert isinstance(odds[1], ShownOdds) and odds[1].computed() == OddsPreview((("hit", 0.5),))


def test_the_battle_system_page_previews_only_the_picked_units_actions(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    bid, tokens, _ = new(client, "battlesystem:river_crossing")
    api = client.get(f"/api/battles/{bid}/actions", params={"token": tokens["A"]}).json()
    listed = [a for a in api["actions"] if a["side"] == "A"]
    unit = next(a["unit"] for a in listed if a.get("kind") == "move")
    own = [a for a in listed if a.get("unit") == unit or "unit" not in a]
    previewed: list[dict[str, object]] = []
    original = BattleSystem.preview

    def counted(self: BattleSystem, state: Any, action: BSAction) -> OddsPreview:
        previewed.append(ACTIONS.encode(action))  # the game's typed action, as the log writes it
        return original(self, state, action)

    monkeypatch.setattr(BattleSystem, "preview", counted)
    text = page(client, bid, tokens["A"], unit=unit)
    assert unit in text
    assert len(listed) > 3 * len(own)  # the page shows a small part of the list
    assert 0 < len(previewed) <= len(own)  # was len(listed): every action of the side previewed
    assert {a.get("unit") for a in previewed} <= {unit, None}
