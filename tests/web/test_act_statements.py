"""One path for an act: the page and the API hand it to the service, which checks it once (issue 22, point 4).

Before: one web act ran 14 SQL statements in 6 read transactions (the page, then the service, read the
battle again and again). Now: one read transaction (the link's role and the battle record beside its last
entry) and one write transaction (the compare-and-set move and the log entry) — at most 6 statements,
counted on SQLite with SQLAlchemy's ``before_cursor_execute`` event, and, for the append the store sends
through the standard library (:mod:`rulekeeper.persistence.sqlite_writes`), with its trace hook (``COMMIT``
left out, as SQLAlchemy's event does not see it either).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine
from web_kit import new

from rulekeeper.persistence import sqlite_writes

MOST = 6


@contextmanager
def counted() -> Iterator[list[str]]:
    """Every SQL statement any engine sends inside the block (BEGIN included)."""
    seen: list[str] = []

    def hook(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        seen.append(statement.split()[0].upper() + " " + " ".join(statement.split()[1:4]))

    def traced(statement: str) -> None:
        if statement.split()[0].upper() not in ("COMMIT", "ROLLBACK"):
            hook(None, None, statement)

    event.listen(Engine, "before_cursor_execute", hook)
    sqlite_writes.trace = traced
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", hook)
        sqlite_writes.trace = None


def _a_move(client: TestClient, bid: str, token: str) -> tuple[int, str, dict[str, Any]]:
    listed = client.get(f"/api/battles/{bid}/actions", params={"token": token}).json()
    side = listed["side"]
    assert listed["actions"], listed
    action = next((a for a in listed["actions"] if a.get("kind") in ("move", "wait", "end_turn", "end_phase")),
                  listed["actions"][0])
    return listed["position"], side, {k: v for k, v in action.items() if k not in ("text", "acp", "note", "odds")}


@pytest.mark.parametrize("scenario", ["exillis:starter", "battlesystem:hill_road", "dragonnoir:the_ford"])
def test_an_act_through_the_page_or_the_api_runs_at_most_six_statements(client: TestClient, scenario: str) -> None:
    bid, tokens, _ = new(client, scenario)
    for path in ("page", "api"):
        position, side, action = _a_move(client, bid, tokens["A"])
        with counted() as statements:
            if path == "page":
                r = client.post(f"/b/{bid}/act", data={"token": tokens[side], "position": str(position),
                                                       **{k: str(v) for k, v in action.items()}},
                                follow_redirects=False)
                assert r.status_code == 303, r.text
            else:
                r = client.post(f"/api/battles/{bid}/actions", params={"token": tokens[side]},
                                json={"position": position, **action})
                assert r.status_code == 200, r.text
        print(f"{scenario} {path} act: {len(statements)} statements: {statements}")
        assert len(statements) <= MOST, statements
        assert sum(s.startswith("BEGIN") for s in statements) == 2  # one read, one write transaction
        assert sum(s.startswith("SELECT") for s in statements) == 2  # the link's role; the battle and its last entry
        assert sum(s.startswith(("UPDATE", "INSERT")) for s in statements) == 2  # the move; the entry
        if path == "page":  # face down: its side reveals it before the other side may act
            client.post(f"/b/{bid}/reveal", data={"token": tokens[side], "position": str(position + 1), "all": "1"})


def test_an_act_over_results_still_face_down_is_refused_by_the_api_too(client: TestClient) -> None:
    """The page refused to act while the last results were face down; the API, on the same service path, does too."""
    bid, tokens, _ = new(client, "exillis:starter")
    keeper = client.app.state.keeper  # type: ignore[attr-defined]
    while True:  # the page plays until an action draws chance: it stays face down
        position, side, action = _a_move(client, bid, tokens["A"])
        listed = client.get(f"/api/battles/{bid}/actions", params={"token": tokens[side]}).json()
        chancy = [a for a in listed["actions"] if a["odds"]]
        pick = {k: v for k, v in (chancy or [action])[0].items() if k not in ("text", "acp", "note", "odds")}
        r = client.post(f"/b/{bid}/act", data={"token": tokens[side], "position": str(position),
                                                **{k: str(v) for k, v in pick.items()}}, follow_redirects=False)
        assert r.status_code == 303, r.text
        if keeper.store.entry(bid, position).result.get("chance"):
            break
        client.post(f"/b/{bid}/reveal", data={"token": tokens[side], "position": str(position + 1), "all": "1"})
    state = keeper.service.state(bid)
    g = keeper.service.game(bid)
    after = g.legal_actions(state)[0]
    r = client.post(f"/api/battles/{bid}/actions", params={"token": tokens[after.side]},
                    json={"position": position + 1, **after.action})
    assert (r.status_code, r.json()["error"]) == (409, "results_pending"), r.text
    assert keeper.store.get(bid).position == position + 1  # nothing written
