"""The pieces of the Ex illis whole-action odds, checked exactly (issue 27), and its surfaces.

* The damage law: ``damage.roll`` rounds ``final × spread`` half up with the spread uniform on
  [0.8, 1.2) ("the damage is modulated by plus or minus 20%"): each whole number gets the share
  of the spread that rounds to it, which :func:`dist.damage_odds` must give exactly.
* One knight against one peasant, worked by hand from the Fate Screen's own odds.
* The hook: moves and waits have no whole-action odds; the web preview and the CLI lead with them.
"""

from __future__ import annotations

import json
import math
from html import escape
from pathlib import Path

import pytest
from exillis_battle_kit import act, battle, legal, tables, unit
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from rulekeeper.cli.app import app
from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.core.whole import percent
from rulekeeper.rulesets.exillis import damage as dmg
from rulekeeper.rulesets.exillis.battle.charging import melee_context
from rulekeeper.rulesets.exillis.melee import duel_odds
from rulekeeper.rulesets.exillis.whole.compute import whole_action
from rulekeeper.rulesets.exillis.whole.dist import damage_odds, wounds
from rulekeeper.web.api import create_app


@pytest.mark.parametrize(("final", "mult", "div"), [(27.216, 1.0, 1.0), (27.216, 1.0, 3.0), (33.6, 1.5, 1.0),
                                                    (4.0, 1.0, 1.0), (0.0, 1.0, 1.0)])
def test_the_damage_law_is_the_roll_s_own(final: float, mult: float, div: float) -> None:
    """Every whole damage ``roll`` can give, with the share of a fine sweep of the spread that gives it."""
    law = dict(damage_odds(final, mult, div))
    assert math.isclose(sum(law.values()), 1.0, abs_tol=1e-12)
    n = 20000  # the spread swept on a grid: each share is known to within 2/n
    counts: dict[int, int] = {}
    for k in range(n):
        hit = dmg.roll(_Spread((k + 0.5) / n), "x", final, mult, div)  # type: ignore[arg-type]
        counts[hit] = counts.get(hit, 0) + 1
    assert {h for h, p in law.items() if p > 2 / n} <= set(counts) <= set(law)
    for hit in law:
        assert abs(counts.get(hit, 0) / n - law[hit]) <= 2 / n


class _Spread:
    """A fate whose uniform draw is the point ``u`` of the range (the sweep of the spread)."""

    def __init__(self, u: float) -> None:
        self.u = u

    def uniform(self, label: str, low: float, high: float) -> float:
        return low + (high - low) * self.u


def test_the_seed_example_blocked_hit_ranges_from_7_to_11() -> None:
    """Seed: "you get a hit ranging from 7 to 11" (27.2 blocked by a Shield of 3, ±20 %)."""
    law = damage_odds(27.216, 1.0, 3.0)
    assert [k for k, _ in law] == [7, 8, 9, 10, 11]


def test_wounds_merge_every_killing_blow() -> None:
    out = wounds(10.0, 27.216)
    assert out == ((0.0, True, pytest.approx(1.0)),)
    kept = dict(((h, k), p) for h, k, p in wounds(30.0, 27.216))
    assert kept[(0.0, True)] == pytest.approx(sum(p for d, p in damage_odds(27.216) if d >= 30))


def test_one_knight_against_one_peasant_by_hand() -> None:
    """A single strike: kill chance = Σ over hit outcomes of P(outcome) × P(damage ≥ HP), from the Fate Screen."""
    s = act(battle([unit("Franc Chevalers", "C2", miniatures=1)], [unit("Vileins", "C2", miniatures=1)],
                   terrain={}), "A:Franc Chevalers")
    lg = next(lg for lg in legal(s) if lg.action.kind == "fight")
    odds = whole_action(s, tables(), lg)
    assert odds is not None and odds.method == "exact" and odds.error_bound == 0.0
    z = s.board.parse("C2")
    ctx = melee_context(s, tables(), z, "fight", "front")
    knight, peasant = s.unit("A:Franc Chevalers").c, s.unit("B:Vileins").c
    o = duel_odds(knight, peasant, ctx)
    shd = max(1.0, peasant.stat("shd"))
    hp = peasant.hp[0]
    by_hand = 0.0
    for outcome, p in o.odds:
        mult = ctx.options.luck_multiplier if outcome == "Luck" else 1.0
        div = shd if outcome == "Blocked" else 1.0
        if outcome in ("Attack", "Luck", "Blocked"):
            by_hand += p * sum(q for d, q in damage_odds(o.final_damage, mult, div) if d >= hp)
    assert odds.measure("enemy_killed").probability("1") == pytest.approx(by_hand, abs=1e-12)


def test_no_whole_odds_for_an_action_without_chance() -> None:
    s = act(battle([unit("Billmen", "B2", miniatures=2)], [unit("Vileins", "D2", miniatures=2)], terrain={}),
            "A:Billmen")
    g = game("exillis")
    for lg in legal(s):
        if lg.action.kind in ("move", "wait", "stance"):
            assert g.whole_odds(s, lg.action.to_dict()) is None


def test_the_web_preview_leads_with_the_whole_action(tmp_path: Path) -> None:
    """The keeper's preview panel shows the whole action's bars above the per-draw odds: a volley, and an Aim of the
    Starter (the volley it will shoot later, said so), the very numbers of the game's ``whole_odds``."""
    client = TestClient(create_app(tmp_path / "web.db"), follow_redirects=False)
    b = client.post("/api/battles", json={"scenario": "forest_fence", "seed": 3}).json()
    token = b["tokens"]["A"]
    acts = client.get(f"/api/battles/{b['id']}/actions", params={"token": token}).json()["actions"]
    n = next(i for i, a in enumerate(acts) if a["kind"] == "shoot" and a["target"] == "D3")
    page = client.get(f"/b/{b['id']}", params={"token": token, "pick": str(n), "at": "0"}).text
    assert 'id="whole-odds"' in page and "enemy miniatures killed" in page
    assert page.index('id="whole-odds"') < page.index("Commit:")
    # the Starter, seed 7, two policy moves in: the Longbowmen may Aim at C2 (the coverage test's walk)
    g = game("exillis")
    b = client.post("/api/battles", json={"scenario": "starter", "seed": 7}).json()
    state = g.initial_state(g.setup(SetupRequest(scenario=next(s for s in g.scenarios() if s.key == "starter").path,
                                                 seed=7)).document)
    for position in range(2):
        pick = g.policy(state)
        assert pick is not None
        side = state.unit(str(pick["unit"])).side
        r = client.post(f"/api/battles/{b['id']}/actions", params={"token": b["tokens"][side]},
                        json={"position": position, **pick})
        assert r.status_code == 200, r.text
        state = g.apply(state, pick).state
    token = b["tokens"]["A"]
    acts = client.get(f"/api/battles/{b['id']}/actions", params={"token": token}).json()["actions"]
    n = next(i for i, a in enumerate(acts) if a.get("option") == "aim" and a["target"] == "C2")
    page = client.get(f"/b/{b['id']}", params={"token": token, "pick": str(n), "at": "2"}).text
    assert page.index('id="whole-odds"') < page.index("Commit:") and "resolved later" in page
    odds = g.whole_odds(state, {"kind": "shoot", "unit": "A:Longbowmen", "target": "C2", "option": "aim"})
    assert odds is not None
    shown = [escape(percent(p)) for m in odds.measures if len(m.outcomes) > 1 for _o, p in m.outcomes if p > 0]
    assert len(shown) >= 4 and all(f'<span class="whole-p">{p}</span>' in page for p in shown)


@pytest.mark.parametrize(("position", "cli"), [
    (lambda: act(battle([unit("Ympes", "B2", miniatures=4)], [unit("Vileins", "C2", miniatures=3)], terrain={}),
                 "A:Ympes"), ["Ympes", "--size", "4", "--target", "Vileins:3", "--action", "lightning"]),
    (lambda: act(battle([unit("Longbowmen", "B2", miniatures=3)], [unit("Vileins", "C2", miniatures=4)], terrain={}),
                 "A:Longbowmen"), ["Longbowmen", "--size", "3", "--target", "Vileins:4", "--action", "aim"]),
], ids=["lightning", "aim"])
def test_the_cli_whole_odds_are_the_keeper_s(position: object, cli: list[str]) -> None:
    """``odds exillis shoot … --whole`` shows the numbers the keeper previews for the same position."""
    state = position()  # type: ignore[operator]
    option = cli[cli.index("--action") + 1]
    keeper = game("exillis").whole_odds(state, {"kind": "shoot", "unit": state.active[0], "target": "C2",
                                                 "option": option})
    res = CliRunner().invoke(app, ["odds", "exillis", "shoot", *cli, "--whole", "--json"])
    assert res.exit_code == 0, res.output
    shown = json.loads(res.output)["whole"]
    assert keeper is not None and shown["method"] == keeper.method
    mine = {m["key"]: m["outcomes"] for m in shown["measures"]}
    for key in ("enemy_killed", "own_losses"):
        assert mine[key] == [[o, p] for o, p in keeper.measure(key).outcomes]
    assert [list(e) for e in keeper.events] == [list(e) for e in shown["events"]]
