"""Live updates: time from one side's commit to the other side's page showing it.

    python bench/bench_live.py [--moves N]

A real keeper (uvicorn, its own process) and Debian's chromium (Playwright): sides A and B
each have a page open on a duel; moves are committed through the API by the side to act
(what the page's Commit does on the server), and a MutationObserver in the *other* side's
page notes when its live region shows the new version.  Two runs side by side, on the same
battles: the pages as shipped (server-sent events) and the same pages with ``EventSource``
removed, which fall back to polling.  Goal (issue "The web keeper at a real table"): a median
under 0.3 s with server-sent events.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/lib/chromium/chromium"
SERVER = """
import sys, uvicorn
from rulekeeper.web.api import create_app
uvicorn.run(create_app(sys.argv[1]), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""
WATCH = """() => { window.__changedAt = null; const live = document.getElementById('stream') || document.body;
  new MutationObserver(() => { const el = document.getElementById('live');
    if (el && el.dataset.version !== window.__seen && window.__changedAt === null) window.__changedAt = Date.now(); })
  .observe(live, {subtree: true, childList: true, attributes: true});
  window.__seen = document.getElementById('live').dataset.version; }"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(base: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    import json

    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{base}{path}", data=data, headers={"X-Rulekeeper-Token": token,
                                                                       "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def one_battle(base: str, pages: dict[str, Page], moves: int, lags: list[float]) -> None:
    made = call(base, "/api/battles", "", {"scenario": "exillis:duel", "seed": len(lags) + 1})
    bid, tokens = made["id"], made["tokens"]
    for side, page in pages.items():
        page.goto(f"{base}/b/{bid}?token={tokens[side]}")
        page.wait_for_selector("#live")
    for _ in range(moves):
        acts = call(base, f"/api/battles/{bid}/actions", tokens["A"])
        side = acts.get("side")
        if side not in pages or not acts.get("actions"):
            return
        other = pages["B" if side == "A" else "A"]
        other.evaluate(WATCH)
        time.sleep(0.3)  # let the pages settle (a poll due right now would flatter polling)
        first = {key: value for key, value in acts["actions"][0].items() if key not in ("text", "acp", "note", "odds")}
        started = time.time() * 1000
        out = call(base, f"/api/battles/{bid}/actions", tokens[side], {**first, "position": acts["position"]})
        deadline = time.time() + 15
        while other.evaluate("() => window.__changedAt") is None and time.time() < deadline:
            time.sleep(0.01)  # the time is the page's own (Date.now() in the observer), not this loop's
        lags.append((other.evaluate("window.__changedAt") - started) / 1000)
        if out.get("over"):
            return


def run(base: str, browser: Any, sse: bool, moves: int, battles: int) -> list[float]:
    lags: list[float] = []
    contexts = [browser.new_context(viewport={"width": 1366, "height": 900}),
                browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)]
    if not sse:
        for ctx in contexts:
            ctx.add_init_script("delete window.EventSource")
    pages = {"A": contexts[0].new_page(), "B": contexts[1].new_page()}
    for _ in range(battles):
        one_battle(base, pages, moves, lags)
    for ctx in contexts:
        ctx.close()
    return lags


def describe(name: str, lags: list[float]) -> str:
    q = statistics.quantiles(lags, n=20)
    return f"{name:<24} n={len(lags):3d}  median {statistics.median(lags):.3f} s  p95 {q[18]:.3f} s  max {max(lags):.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--battles", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.Popen([sys.executable, "-c", SERVER, str(Path(folder) / "b.db"), str(port)],
                                env={**os.environ})
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + "/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM)
                pushed = run(base, browser, True, args.moves, args.battles)
                polled = run(base, browser, False, args.moves, args.battles)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    print(describe("server-sent events", pushed))
    print(describe("polling (no EventSource)", polled))
    print(f"polling ÷ pushed, medians: {statistics.median(polled) / statistics.median(pushed):.1f}×")


if __name__ == "__main__":
    main()
