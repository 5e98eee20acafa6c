"""Fair hidden information, walked over every page and endpoint for every role.

The issue: "no client ever receives the RNG state; results that a side has not been shown do
not appear in any response to anyone (API, log, end screen, spectator) until revealed; a result
counts as shown the moment any response carries it, so it can never be undone."

How it is checked, without knowing what any page prints: two **worlds** play the same battle
with different seeds.  Their states differ only in their dice — the RNG state, and the results
the dice gave.  Every page and endpoint a link can reach (a crawl following every link from each
role's battle page, plus every GET of the API) must answer *byte for byte the same* in both
worlds, once battle ids and links are written alike: at the start (nothing rolled, so any
difference is the seed or the RNG state showing) and after an action whose results are still
face down (any difference is the hidden result, or the RNG state, showing).  Once the results
are revealed the worlds may differ, and then only in what was revealed; the RNG state itself
is looked for by value in every answer.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from rulekeeper.core.game import SetupRequest
from rulekeeper.service.scenarios import find_scenario
from rulekeeper.web.api import Keeper, create_app
from rulekeeper.web.ratelimit import RateLimits

HOST_KEY = "host-key-of-the-fairness-walk-0123456789"
#: Large seeds, so that a seed printed anywhere can be found by its digits.
SEEDS = (4_611_686_018_427_388_039, 6_917_529_027_641_081_903)
#: Pages that never end (the live event stream) or are not a battle's: not crawled.
SKIP_PATHS = ("/static/", "/openapi.json")
MAX_PAGES = 400


@dataclass
class World:
    """One battle in its own keeper, with the links of its roles."""

    client: TestClient
    keeper: Keeper
    bid: str
    tokens: dict[str, str]
    seed: int
    pages: dict[str, str] = field(default_factory=dict)

    def normalise(self, text: str) -> str:
        """The answer with what differs between worlds by construction written alike."""
        text = text.replace(self.bid, "BID")
        for role, token in self.tokens.items():
            text = text.replace(token, f"TOKEN-{role}")
        text = re.sub(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?(\.\d+)?(\+00:00|Z)?", "TIME", text)  # seconds or not: the host page shows minutes
        # hashes (the log's fingerprint, the dice commitment) seal the seed, so they differ between worlds;
        # they reveal nothing of it: a verifiable battle's seed has 63 bits no one can search
        return re.sub(r"\b[0-9a-f]{64}\b|\b[0-9a-f]{4}(-[0-9a-f]{4}){3}\b", "HASH", text)


def make_world(tmp_path: Path, name: str, seed: int | None) -> World:
    """A duel with a chosen seed, or (``None``) with verifiable dice both sides have contributed to.

    Both worlds' devices contribute the same values: the worlds' dice then differ only in the
    keepers' secrets, which no answer may carry before the end.
    """
    app = create_app(tmp_path / f"{name}.db", host_key=HOST_KEY,
                     rate_limits=RateLimits(guesses=1_000_000, creations=1_000_000))
    keeper: Keeper = app.state.keeper
    scenario = find_scenario("duel")
    assert scenario is not None
    request = SetupRequest(scenario=scenario.info.path, seed=seed or 0, db=keeper.store.url)
    bid, tokens = keeper.create(request, verifiable=seed is None)
    world = World(TestClient(app, follow_redirects=False), keeper, bid, tokens, seed or 0)
    if seed is None:
        for n, role in enumerate(("A", "B")):
            sent = world.client.post(f"/b/{bid}/dice", data={"token": tokens[role], "contribution": f"{n + 7:064x}"})
            assert sent.status_code == 303, sent.text[:300]
        world.seed = keeper.store.get(bid).seed
        assert world.seed > 2**40  # sealed: a 63-bit seed made from the secret and both contributions
    return world


def same_origin_links(text: str) -> Iterator[str]:
    for target in re.findall(r'(?:href|hx-get|sse-connect)="([^"]+)"', text):
        url = html.unescape(target)
        if url.startswith("/") and not url.startswith("//") and not any(url.startswith(s) for s in SKIP_PATHS):
            yield url


def api_gets(world: World) -> list[str]:
    """Every GET of the API with a battle id in its path, for every role's token."""
    routes = [r for r in world.client.app.routes  # type: ignore[attr-defined]
              if isinstance(r, APIRoute) and "GET" in r.methods and r.path.startswith("/api/")]
    urls = []
    for route in routes:
        path = route.path.replace("{battle_id}", world.bid).replace("{bid}", world.bid)
        if "{" in path:
            continue
        urls.append(path)
        urls.extend(f"{path}?token={token}" for token in world.tokens.values())
    return urls


def crawl(world: World) -> dict[str, str]:
    """Every answer reachable from the roles' pages and the host page, by normalised URL."""
    start = [f"/b/{world.bid}?token={t}" for t in world.tokens.values()]
    start += [f"/b/{world.bid}", f"/host?key={HOST_KEY}", "/"] + api_gets(world)
    seen: dict[str, str] = {}
    queue = list(start)
    while queue and len(seen) < MAX_PAGES:
        url = queue.pop(0)
        key = world.normalise(url)
        if key in seen or "/events" in urlsplit(url).path:
            continue
        response = world.client.get(url)
        assert response.status_code < 500, (url, response.text[:300])
        body = response.text if "json" not in response.headers.get("content-type", "") else json.dumps(
            response.json(), sort_keys=True)
        seen[key] = f"{response.status_code}\n{world.normalise(body)}"
        if "html" in response.headers.get("content-type", ""):
            queue.extend(u for u in same_origin_links(response.text) if u not in queue)
    assert len(seen) < MAX_PAGES, "the crawl did not end: a page links to ever new pages"
    return seen


def rng_numbers(world: World) -> set[str]:
    """The digits of the RNG state and of the seed, as any answer would print them."""
    g = world.keeper.service.game(world.bid)
    document = g.state_to_json(world.keeper.service.state(world.bid))
    found = {str(world.seed)}

    def walk(value: Any, under_rng: bool) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, under_rng or "rng" in str(key).lower())
        elif isinstance(value, list):
            for item in value:
                walk(item, under_rng)
        elif under_rng and isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**9:
            found.add(str(value))

    walk(document, False)
    assert len(found) > 2, "no RNG state found in the state document: the test would prove nothing"
    return found


def assert_no_rng_state(world: World, pages: dict[str, str]) -> None:
    numbers = rng_numbers(world)
    for url, body in pages.items():
        leaked = [n for n in numbers if n in body]
        assert not leaked, f"{url} carries the RNG state or the seed ({leaked[0][:12]}…)"


def assert_same(first: dict[str, str], second: dict[str, str], moment: str) -> None:
    assert first.keys() == second.keys(), f"{moment}: the worlds link to different pages: " \
        f"{sorted(first.keys() ^ second.keys())[:5]}"
    for url in first:
        if first[url] != second[url]:
            a, b = first[url], second[url]
            at = next(i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y) if a[:len(b)] != b[:len(a)] \
                else min(len(a), len(b))
            pytest.fail(f"{moment}: {url} differs between two battles that differ only in their dice:\n"
                        f"  one:   …{a[max(0, at - 120):at + 120]!r}\n  other: …{b[max(0, at - 120):at + 120]!r}")


def first_chance_action(world: World, battle_goes_on: bool = False) -> dict[str, Any]:
    """The first legal action of the side to act that rolls dice (a charge, a shot, a fight).

    ``battle_goes_on``: the first one whose roll (the test applies it to see) does not end the battle. A
    verifiable battle shows its seed once it is over, by design, and in about one battle of four the
    Hobelars' charge routs the only enemy unit off the field.
    """
    service = world.keeper.service
    game, state = service.game(world.bid), service.state(world.bid)
    _, legal = service.legal(world.bid)
    for candidate in legal:
        if not game.preview(state, candidate.action).draws:
            continue
        if not battle_goes_on or not game.status(game.apply(state, candidate.action).state).over:
            return candidate.action
    pytest.fail("no action of the duel's first side rolls dice" + (" and leaves the battle going" * battle_goes_on))


def going_on_action(world: World) -> dict[str, Any] | None:
    """:func:`first_chance_action` leaving the battle going, or None when this battle's dice end it on every roll."""
    try:
        return first_chance_action(world, battle_goes_on=True)
    except pytest.fail.Exception:
        return None


@pytest.fixture(params=["chosen seeds", "verifiable dice"])
def worlds(tmp_path: Path, request: pytest.FixtureRequest) -> tuple[World, World]:
    if request.param == "verifiable dice":
        return make_world(tmp_path, "one", None), make_world(tmp_path, "other", None)
    return make_world(tmp_path, "one", SEEDS[0]), make_world(tmp_path, "other", SEEDS[1])


def test_before_any_roll_no_page_depends_on_the_seed(worlds: tuple[World, World]) -> None:
    one, other = worlds
    pages = crawl(one)
    assert len(pages) > 20 and any("/log" in u for u in pages) and any("pick=" in u for u in pages)
    assert_same(pages, crawl(other), "before any roll")
    assert_no_rng_state(one, pages)


def test_a_face_down_result_shows_in_no_answer_to_anyone(worlds: tuple[World, World]) -> None:
    one, other = worlds
    action = first_chance_action(one)
    assert action == first_chance_action(other)
    for world in worlds:
        world.keeper.service.act(world.bid, action, shown=False)
    results = [w.keeper.store.entry(w.bid, 0).result for w in worlds]
    assert results[0] != results[1], "the two seeds rolled alike: the walk would prove nothing"
    pages = crawl(one)
    assert_same(pages, crawl(other), "results face down")
    assert_no_rng_state(one, pages)
    for world in worlds:  # no answer carried the result, so it is still face down (and may be undone)
        assert not world.keeper.store.entry(world.bid, 0).shown
    one.keeper.service.undo(one.bid, expected_position=1)
    assert one.keeper.store.get(one.bid).position == 0


def test_after_the_reveal_the_rng_state_still_shows_nowhere(worlds: tuple[World, World], tmp_path: Path) -> None:
    one, _ = worlds
    for again in range(8):  # verifiable dice are drawn anew each run: in a few, every roll of side A ends the duel
        if going_on_action(one) is not None or one.seed == SEEDS[0]:
            break
        one = make_world(tmp_path, f"again-{again}", None)
    action = first_chance_action(one, battle_goes_on=True)
    one.keeper.service.act(one.bid, action, shown=True)
    assert not one.keeper.service.status(one.bid).over
    pages = crawl(one)
    assert_no_rng_state(one, pages)
    # what was revealed now shows: the two worlds are no longer alike, and the log says what happened
    log = pages["/b/BID/log?token=TOKEN-B"]
    assert "results shown" in log and "result(s)" not in log  # whatever the dice gave, it is logged, counted in words
    assert re.search(r"(?<![\d.])(1 result|(?!1 )\d+ results) of chance", log), log


def test_the_last_blow_face_down_shows_neither_the_end_nor_the_secret(worlds: tuple[World, World]) -> None:
    """"On the last blow the spectator saw the end screen 363 ms after Commit while side B still had two
    cards face down": the battle is played to its end in both worlds, the last action left face down."""
    for world in worlds:
        service = world.keeper.service
        while not service.status(world.bid).over:
            state = service.state(world.bid)
            action = service.game(world.bid).policy(state)
            assert action is not None
            over_after = service.game(world.bid).status(service.game(world.bid).apply(state, action).state).over
            service.act(world.bid, action, shown=not over_after)
    one = worlds[0]
    pages = crawl(one)
    dice = one.keeper.store.dice(one.bid)
    for url, body in pages.items():
        assert "Winner" not in body, f"{url} shows the end while the last blow is face down"
        assert dice is None or dice.secret is None or dice.secret not in body, f"{url} shows the dice's secret"
    assert_no_rng_state(one, pages)
    for world in worlds:
        last = world.keeper.store.get(world.bid).position - 1
        assert not world.keeper.store.entry(world.bid, last).shown
    # the control: revealed by the side that played it, the end shows, and so does the dice's secret
    last = one.keeper.store.get(one.bid).position - 1
    actor = one.keeper.service.game(one.bid).side_of(one.keeper.store.entry(one.bid, last).action)
    revealed = one.client.post(f"/b/{one.bid}/reveal", data={"token": one.tokens[actor], "position": str(last + 1),
                                                              "all": "1"})
    assert revealed.status_code == 303
    assert "Winner" in one.client.get(f"/b/{one.bid}?token={one.tokens['spectator']}").text
    if dice is not None:
        answer = one.client.get(f"/api/battles/{one.bid}/dice", params={"token": one.tokens["spectator"]}).json()
        assert answer["secret"] == dice.secret and int(answer["seed"]) == one.keeper.store.get(one.bid).seed
