"""The web fuzz table: every endpoint of the keeper, what it is fed, and what an answer must look like.

:func:`routes` walks ``app.routes`` (through included routers and mounts); a route missing from
:data:`WEB_TABLE` fails ``test_every_endpoint_is_in_the_fuzz_table``. Every request must answer
below 500, a refusal in the project's error format (JSON ``{"error", "message"}``, or an HTML page
with the error banner for the browser pages), with the security headers, within bounded size.
"""

from __future__ import annotations

import json
import warnings
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fuzzlib import (
    HOSTILE_TEXTS,
    JSON_VALUES,
    MAX_OUTPUT,
    MAX_REFUSAL,
    TEXTS,
    Recorder,
    hypothesis_cases,
    mutate,
    runtime_corpus,
    static_corpus,
    where_raised,
)
from hypothesis import strategies as st


@dataclass
class Env:
    client: Any
    bid: str
    tokens: dict[str, str]
    wt_bid: str
    wt_tokens: dict[str, str]
    pastes: list[tuple[str, str]]  # (name, text) of corpus files small enough to paste into a form
    host_key: str


@dataclass(frozen=True)
class Request:
    method: str
    url: str
    body: bytes | None = None
    ctype: str | None = None
    headers: tuple[tuple[str, bytes], ...] = ()


#: A request maker: (env, hostile text or drawn data) → a request.
Make = Callable[[Env, Any], Request]


@dataclass(frozen=True)
class Feed:
    """One way of feeding an endpoint hostile input."""

    what: str  # what is hostile: "id", "token", "query", "json", "form", "raw"
    make: Make
    corpus: bool = True  # fed every hostile text (or pasted file)
    examples: int = 6  # hypothesis examples
    endless: bool = False  # a valid link opens a stream that never ends: never fed a real token


#: Longest hostile text put in a URL (HTTP servers refuse longer request lines; so does the test client).
MAX_IN_URL = 8_000


def q(text: str) -> str:
    """``text`` as a URL path segment (lone surrogates become the bytes they stand for)."""
    return quote(text[:MAX_IN_URL], safe="", errors="surrogateescape")


def qs(params: dict[str, str]) -> str:
    return urlencode(params, quote_via=lambda s, *a: q(s))


def header(text: str) -> bytes:
    """``text`` as a header value can carry it (UTF-8 bytes, no line breaks)."""
    return text.encode("utf-8", "surrogateescape").replace(b"\r", b"").replace(b"\n", b"").replace(b"\0", b"")[:300]


def jbody(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=True, allow_nan=True).encode()


FORM = "application/x-www-form-urlencoded"
JSON_CT = "application/json"


def form(fields: dict[str, str]) -> bytes:
    return qs(fields).encode()


def api(path: str) -> Callable[[Env, str], str]:
    """``/api/battles/{id}{path}`` for a hostile battle id."""
    return lambda e, v: f"/api/battles/{q(v)}{path}"


def _api_reads(path: str, extra: str = "") -> list[Feed]:
    return [
        Feed("id", lambda e, v: Request("GET", f"/api/battles/{q(v)}{path}?{qs({'token': e.tokens['A']})}{extra}")),
        Feed("token", lambda e, v: Request("GET", f"/api/battles/{e.bid}{path}?{qs({'token': v})}{extra}")),
        Feed("token", lambda e, v: Request("GET", f"/api/battles/{e.bid}{path}{extra.replace('&', '?', 1)}",
                                           headers=(("X-Rulekeeper-Token", header(v)),)), corpus=False),
    ]


def _api_writes(path: str, valid: Callable[[Env], dict[str, Any]]) -> list[Feed]:
    def hostile_json(e: Env, data: Any) -> Request:
        doc = mutate(valid(e), data) if data.draw(st.booleans()) else data.draw(JSON_VALUES)
        return Request("POST", f"/api/battles/{e.bid}{path}?{qs({'token': e.tokens['A']})}", jbody(doc), JSON_CT)

    return [
        Feed("id", lambda e, v: Request("POST", f"/api/battles/{q(v)}{path}?{qs({'token': e.tokens['A']})}",
                                        jbody(valid(e)), JSON_CT)),
        Feed("token", lambda e, v: Request("POST", f"/api/battles/{e.bid}{path}?{qs({'token': v})}",
                                           jbody(valid(e)), JSON_CT)),
        Feed("json", hostile_json, corpus=False, examples=25),
        Feed("raw", lambda e, v: Request("POST", f"/api/battles/{e.bid}{path}?{qs({'token': e.tokens['A']})}",
                                         v.encode("utf-8", "surrogateescape"), JSON_CT)),
    ]


def _page_reads(path: str, query: tuple[str, ...] = ()) -> list[Feed]:
    feeds = [
        Feed("id", lambda e, v: Request("GET", f"/b/{q(v)}{path}?{qs({'token': e.tokens['A']})}")),
        Feed("token", lambda e, v: Request("GET", f"/b/{e.bid}{path}?{qs({'token': v})}")),
    ]
    for name in query:
        feeds.append(Feed("query", lambda e, v, n=name: Request(
            "GET", f"/b/{e.bid}{path}?{qs({'token': e.tokens['A'], n: v})}"), examples=4))
    return feeds


def _page_writes(path: str, fields: Callable[[Env], dict[str, str]]) -> list[Feed]:
    def hostile_form(e: Env, data: Any) -> Request:
        valid = fields(e)
        hostile = data.draw(st.dictionaries(st.sampled_from([*valid, "token", "position", "kind", "unit", "target",
                                                             "option", "all", "x"]), TEXTS, max_size=6))
        body = {**valid, **hostile} if data.draw(st.booleans()) else hostile
        return Request("POST", f"/b/{e.bid}{path}", form(body), FORM)

    return [
        Feed("id", lambda e, v: Request("POST", f"/b/{q(v)}{path}", form(fields(e)), FORM)),
        Feed("token", lambda e, v: Request("POST", f"/b/{e.bid}{path}", form({**fields(e), "token": v}), FORM)),
        Feed("form", hostile_form, corpus=False, examples=25),
        Feed("raw", lambda e, v: Request("POST", f"/b/{e.bid}{path}?{qs({'token': e.tokens['A']})}",
                                         v.encode("utf-8", "surrogateescape"), FORM)),
    ]


def _new_battle_json(e: Env, data: Any) -> Request:
    doc = mutate({"scenario": "duel", "seed": 1, "practice": False}, data) if data.draw(st.booleans()) \
        else data.draw(JSON_VALUES)
    return Request("POST", "/api/battles", jbody(doc), JSON_CT)


def _new_battle_form(e: Env, data: Any) -> Request:
    fields = data.draw(st.dictionaries(st.sampled_from(["from", "game", "muster_a", "muster_b", "scenario", "seed",
                                                        "practice", "board"]), TEXTS, max_size=6))
    return Request("POST", "/new", form({"from": "musters", **fields}), FORM)


def _paste(e: Env, v: str) -> Request:
    """A corpus file pasted as both army lists (``v`` is the paste's index)."""
    _, text = e.pastes[int(v)]
    return Request("POST", "/new", form({"from": "musters", "game": "exillis", "muster_a": text, "muster_b": text,
                                         "seed": "1"}), FORM)


def _builder_posts(path: str) -> list[Feed]:
    """The muster builder's form (web/musters.py): any field, a pasted corpus file, raw bytes."""
    names = ["do", "game", "name", "game_type", "faction", "general", "description", "paste", "side_a", "side_b",
             "unit_0", "miniatures_0", "level_0", "hero_0", "hero_level_0", "label_0", "unit_39", "unit_40", "x"]

    def hostile_form(e: Env, data: Any) -> Request:
        fields = data.draw(st.dictionaries(st.sampled_from(names), TEXTS, max_size=8))
        return Request("POST", path, form({"game": "exillis", **fields}), FORM)

    return [
        Feed("form", hostile_form, corpus=False, examples=25),
        Feed("paste", lambda e, v: Request("POST", path, form({"do": "load", "game": "exillis",
                                                                "paste": e.pastes[int(v)][1]}), FORM)),
        Feed("form", lambda e, v: Request("POST", path, form({"game": "exillis", "unit_0": v, "level_0": v}), FORM)),
        Feed("raw", lambda e, v: Request("POST", path, v.encode("utf-8", "surrogateescape"), FORM)),
    ]


def _table() -> dict[str, list[Feed]]:
    position = {"position": 0}
    return {
        "GET /openapi.json": [Feed("query", lambda e, v: Request("GET", f"/openapi.json?{qs({'x': v})}"), examples=2)],
        "GET /static": [Feed("id", lambda e, v: Request("GET", f"/static/{q(v)}")),
                        Feed("id", lambda e, v: Request("GET", "/static/" + "/".join([".."] * 5 + [q(v)])),
                             examples=2)],
        "GET /api/scenarios": [Feed("query", lambda e, v: Request("GET", f"/api/scenarios?{qs({'q': v})}"),
                                    examples=2)],
        "POST /api/battles": [
            Feed("json", _new_battle_json, corpus=False, examples=30),
            Feed("json", lambda e, v: Request("POST", "/api/battles", jbody({"scenario": v, "seed": 1}), JSON_CT)),
            Feed("raw", lambda e, v: Request("POST", "/api/battles", v.encode("utf-8", "surrogateescape"), JSON_CT)),
        ],
        "GET /api/battles/{battle_id}": _api_reads(""),
        "GET /api/battles/{battle_id}/actions": _api_reads("/actions"),
        "POST /api/battles/{battle_id}/actions": _api_writes("/actions", lambda e: {
            "position": 0, "kind": "move", "unit": "A:Hobelars", "target": "A1"}),
        "POST /api/battles/{battle_id}/shown": _api_writes("/shown", lambda e: dict(position)),
        "POST /api/battles/{battle_id}/undo": _api_writes("/undo", lambda e: dict(position)),
        "GET /api/battles/{battle_id}/log": [*_api_reads("/log"), Feed("query", lambda e, v: Request(
            "GET", f"/api/battles/{e.bid}/log?" + qs({"token": e.tokens["A"], "since": v})))],
        "GET /api/battles/{battle_id}/replay": _api_reads("/replay"),
        "GET /": [Feed("query", lambda e, v: Request("GET", f"/?{qs({'seed': v})}"), examples=2)],
        "GET /new": [Feed("query", lambda e, v: Request("GET", f"/new?{qs({'x': v})}"), examples=2)],
        "POST /new": [
            Feed("form", _new_battle_form, corpus=False, examples=30),
            Feed("form", lambda e, v: Request("POST", "/new", form({"scenario": v, "seed": "1"}), FORM)),
            Feed("form", lambda e, v: Request("POST", "/new", form({"scenario": "duel", "seed": v}), FORM)),
            Feed("paste", _paste),
            Feed("raw", lambda e, v: Request("POST", "/new", v.encode("utf-8", "surrogateescape"), FORM)),
        ],
        "GET /host": [Feed("token", lambda e, v: Request("GET", f"/host?{qs({'key': v})}"))],
        # the creator's "Battle created" page: any id, no creator key (another device) → a 404, never a 5xx
        "GET /created/{bid}": [Feed("id", lambda e, v: Request("GET", f"/created/{q(v)}"))],
        "POST /host/links": [
            Feed("id", lambda e, v: Request("POST", "/host/links", form({"key": e.host_key, "battle": v}), FORM)),
            Feed("token", lambda e, v: Request("POST", "/host/links", form({"key": v, "battle": e.bid}), FORM)),
            Feed("form", lambda e, data: Request("POST", "/host/links", form(data.draw(st.dictionaries(
                st.sampled_from(["key", "battle", "x"]), TEXTS, max_size=3))), FORM), corpus=False, examples=10),
            Feed("raw", lambda e, v: Request("POST", "/host/links", v.encode("utf-8", "surrogateescape"), FORM)),
        ],
        "GET /b/{bid}": _page_reads("", ("pick", "at", "fate", "open", "unit", "note")),
        "GET /b/{bid}/live": _page_reads("/live", ("v",)),
        "GET /b/{bid}/events": [
            Feed("id", lambda e, v: Request("GET", f"/b/{q(v)}/events?{qs({'token': e.tokens['A']})}"), endless=True),
            Feed("token", lambda e, v: Request("GET", f"/b/{e.bid}/events?{qs({'token': v, 'v': '0.0'})}"),
                 endless=True),
        ],
        "GET /b/{bid}/unit": _page_reads("/unit", ("key",)),
        "POST /b/{bid}/act": _page_writes("/act", lambda e: {"token": e.tokens["A"], "position": "0", "kind": "move",
                                                             "unit": "A:Hobelars", "target": "A1"}),
        "POST /b/{bid}/reveal": _page_writes("/reveal", lambda e: {"token": e.tokens["A"], "position": "1",
                                                                   "all": "1"}),
        "POST /b/{bid}/undo": _page_writes("/undo", lambda e: {"token": e.tokens["A"], "position": "0"}),
        "GET /b/{bid}/log": _page_reads("/log"),
        "GET /b/{bid}/replay": _page_reads("/replay", ("step",)),
        # verifiable dice (web/dice.py)
        "GET /api/battles/{battle_id}/dice": _api_reads("/dice"),
        "POST /api/battles/{battle_id}/dice": _api_writes("/dice", lambda e: {"contribution": "ab" * 32}),
        "POST /b/{bid}/dice": _page_writes("/dice", lambda e: {"token": e.tokens["A"], "contribution": "cd" * 32}),
        "GET /b/{bid}/verify": _page_reads("/verify"),
        "GET /verify": [Feed("query", lambda e, v: Request("GET", f"/verify?{qs({'x': v})}"), examples=2)],
        "POST /verify": [
            Feed("form", lambda e, v: Request("POST", "/verify", form({"export": v}), FORM)),
            Feed("raw", lambda e, v: Request("POST", "/verify", v.encode("utf-8", "surrogateescape"), FORM)),
        ],
        # musters, the campaign and downloads (web/musters.py, web/campaign_pages.py, web/downloads.py)
        "GET /musters": [Feed("query", lambda e, v: Request("GET", f"/musters?{qs({'game': v})}"), examples=4)],
        "POST /musters": _builder_posts("/musters"),
        "POST /musters/report": _builder_posts("/musters/report"),
        "GET /b/{bid}/campaign": _page_reads("/campaign", ("note",)),
        "POST /b/{bid}/campaign": _page_writes("/campaign", lambda e: {"token": e.tokens["A"], "player_A": "Ann"}),
        "GET /b/{bid}/download/log": _page_reads("/download/log", ("format",)),
        "GET /b/{bid}/download/export": _page_reads("/download/export"),
    }


WEB_TABLE = _table()


# -- discovering the endpoints -------------------------------------------------------------------------


def routes(app: Any) -> Iterator[str]:
    """``METHOD path`` of every endpoint (a mount counts as ``GET /mount``), through included routers."""

    def walk(items: list[Any], prefix: str) -> Iterator[str]:
        for r in items:
            inner = getattr(r, "original_router", None)
            if inner is not None:  # FastAPI's included router
                yield from walk(inner.routes, prefix + (getattr(r, "prefix", "") or ""))
            elif type(r).__name__ == "Mount":
                yield f"GET {prefix}{r.path}"
            else:
                for method in sorted((getattr(r, "methods", None) or {"GET"}) - {"HEAD"}):
                    yield f"{method} {prefix}{r.path}"

    yield from walk(app.routes, "")


def uncovered(app: Any) -> list[str]:
    return sorted(set(routes(app)) - set(WEB_TABLE))


# -- one request -----------------------------------------------------------------------------------------


def send(env: Env, req: Request) -> tuple[str, str | None, str]:
    headers: dict[str, str | bytes] = dict(req.headers)
    if req.ctype:
        headers["content-type"] = req.ctype
    try:
        r = env.client.request(req.method, req.url, content=req.body, headers=headers, follow_redirects=False)
    except Exception as exc:  # raised through the test client: a 500 for a real client
        return "exception", f"uncaught {type(exc).__name__}: {str(exc)[:300]}", where_raised(exc)
    status = r.status_code
    outcome = str(status)
    if status >= 500:
        return outcome, f"{status}: {r.text[:300]}", ""
    if r.headers.get("x-content-type-options") != "nosniff":
        return outcome, "an answer without the security headers", ""
    ctype = r.headers.get("content-type", "")
    size = len(r.content)
    if status < 400:
        return outcome, (f"{size:,} bytes" if size > MAX_OUTPUT else None), ""
    if "application/json" in ctype:
        try:
            body = r.json()
        except ValueError:
            return outcome, f"a JSON refusal that is not JSON: {r.text[:200]}", ""
        if not (isinstance(body, dict) and isinstance(body.get("error"), str) and isinstance(body.get("message"), str)):
            return outcome, f"a refusal not in the error format: {r.text[:200]}", ""
        if "detail" in body:
            return outcome, f"FastAPI's own error shape: {r.text[:200]}", ""
        return outcome, (f"{size:,} bytes of refusal" if size > MAX_REFUSAL else None), ""
    if "text/html" in ctype and 'class="banner error"' in r.text:
        return outcome, (f"{size:,} bytes of refusal page" if size > MAX_OUTPUT else None), ""
    return outcome, f"a {status} that is neither our JSON error nor our error page ({ctype}): {r.text[:200]}", ""


# -- the driver ------------------------------------------------------------------------------------------


def make_env(tmp: Path) -> Env:
    from fastapi.testclient import TestClient

    from rulekeeper.web.api import create_app
    from rulekeeper.web.ratelimit import RateLimits

    warnings.simplefilter("ignore")
    # the limits stay on, far enough not to answer 429 before the checks behind them are reached
    app = create_app(tmp / "web.db", rate_limits=RateLimits(guesses=10**9, creations=10**9))
    # entered once: one event-loop thread for every request, instead of a new one per request (40 % of a
    # short request's CPU); the driver's process ends with the run
    client = TestClient(app)
    client.__enter__()
    made = client.post("/api/battles", json={"scenario": "duel", "seed": 1}).json()
    wt = client.post("/api/battles", json={"scenario": "wartable:bloodless_assault_on_enclave", "seed": 1}).json()
    pastes = []
    for p in static_corpus() + runtime_corpus(tmp / "corpus"):
        try:
            if p.is_file() and p.stat().st_size < 200_000 and not str(p).startswith(("/dev", "/proc")):
                pastes.append((p.name, p.read_bytes().decode("utf-8", "surrogateescape")))
        except OSError:  # a name too long, a loop: nothing to paste
            continue
    host_key = str(getattr(app.state.keeper, "host_key", ""))
    return Env(client, made["id"], made["tokens"], wt["id"], wt["tokens"], pastes, host_key)


#: Hostile texts per feed beyond the first ten (a fixed sample, different for every feed; with about a hundred
#: feeds, every text of the corpus still reaches dozens of them). 12, not 25: the suite's CPU budget.
CORPUS_PER_FEED = 12


def sample(values: list[str], n: int, key: str) -> list[str]:
    start = zlib.crc32(key.encode()) % len(values)
    return [values[(start + i * 7) % len(values)] for i in range(min(n, len(values)))]


def run(rec: Recorder, tmp: Path, scale: float = 1.0) -> dict[str, Any]:
    env = make_env(tmp)
    texts = [*HOSTILE_TEXTS, env.bid + "é", env.bid.upper(), env.wt_bid, env.wt_tokens["attackers"], env.tokens["spectator"],
             env.tokens["B"], "\x00", "%00", "a\x00b", "..%2f..%2f", "<script>alert(1)</script>", "1" * 50, "-1",
             str(2**63), "1e9", "0x10"]
    secrets = {*env.tokens.values(), *env.wt_tokens.values()}
    for name, feeds in WEB_TABLE.items():
        for i, feed in enumerate(feeds):
            label = f"{feed.what} #{i}"
            if feed.corpus:
                values = [str(n) for n in range(len(env.pastes))] if feed.what == "paste" else \
                    texts[:10] + sample(texts[10:], CORPUS_PER_FEED, f"{name} {label}")
                if feed.endless:
                    values = [v for v in values if v not in secrets and v != env.bid]
                for v in values:
                    req = feed.make(env, v)
                    rec.run(name, f"{label} corpus", [req.method, req.url, req.body], lambda r=req: send(env, r))
            examples = max(1, round(feed.examples * scale))
            if feed.what in ("json", "form") and not feed.corpus:
                hypothesis_cases(f"{name} {label}", examples, _drawn(rec, env, name, label, feed))
            elif feed.what != "paste":
                hypothesis_cases(f"{name} {label}", examples, _texts(rec, env, name, label, feed))
    env.client.__exit__(None, None, None)
    return {"routes": len(WEB_TABLE), "hostile_texts": len(texts), "pasted_files": len(env.pastes)}


def _drawn(rec: Recorder, env: Env, name: str, label: str, feed: Feed) -> Callable[[Any], None]:
    def body(data: Any) -> None:
        req = feed.make(env, data)
        rec.run(name, f"{label} hypothesis", [req.method, req.url, req.body], lambda: send(env, req))

    return body


def _texts(rec: Recorder, env: Env, name: str, label: str, feed: Feed) -> Callable[[Any], None]:
    def body(data: Any) -> None:
        req = feed.make(env, data.draw(TEXTS))
        rec.run(name, f"{label} hypothesis", [req.method, req.url, req.body], lambda: send(env, req))

    return body
