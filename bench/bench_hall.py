"""Convention-hall load bench (issue 23): many battles, live streams on each, acting clients, 1 vs 2 processes.

For each process count (``--processes 1 2``) it starts ``rulekeeper serve --workers N`` on a fresh
PostgreSQL database (a private throw-away server unless ``--server`` gives a URL prefix with ``{}``
for the database name), creates ``--battles`` battles directly in the database (no rate limit),
opens ``--streams`` live streams (``/b/{id}/events``) on each, and lets ``--clients`` acting clients
play for ``--seconds`` (each client plays its own share of the battles: the side to act posts the
first legal action at the position it saw).  It reports:

* act latency p50/p99 (the POST of an action, answered);
* stream lag p50/p99 (from the act's answer to each of the battle's streams receiving the new version;
  an event arriving before the answer counts as 0);
* lost updates: streams whose last version differs from the battle's final position after a 3 s quiet
  period (must be 0);
* throughput (actions answered per second) and the ratio 2 processes ÷ 1;
* the CPU seconds the bench's own client used (it shares the machine with the keeper it measures:
  one asyncio process speaking HTTP/1.1 by hand, no thread per stream, no HTTP library).

Run: ``PYTHONPATH=src python3 bench/bench_hall.py`` (full size: 200 battles x 3 streams, 16 clients,
60 s per run); ``--battles 20 --seconds 30`` for a short check.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = "exillis:starter"


def _bin(name: str) -> str:
    found = shutil.which(name) or (sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [""])[-1]
    if not found:
        sys.exit(f"PostgreSQL's {name} not found: give --server")
    return found


@contextmanager
def private_postgresql() -> Iterator[str]:
    """A throw-away PostgreSQL server on a Unix socket (as in tests/persistence/conftest.py)."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    home = Path(tempfile.mkdtemp(prefix="rkbench"))
    if prefix:
        shutil.chown(home, "postgres")
    run: dict[str, Any] = {"capture_output": True, "text": True, "timeout": 120, "check": True}
    subprocess.run([*prefix, _bin("initdb"), "-D", str(home / "data"), "-A", "trust", "-U", "postgres", "--no-sync"],
                   **run)
    subprocess.run([*prefix, _bin("pg_ctl"), "-D", str(home / "data"), "-o", f"-k {home} -c listen_addresses='' -F "
                    "-c max_connections=300", "-l", str(home / "log"), "-w", "start"], **run)
    try:
        yield f"postgresql+psycopg://postgres@/{{}}?host={home}"
    finally:
        subprocess.run([*prefix, _bin("pg_ctl"), "-D", str(home / "data"), "-m", "immediate", "-w", "stop"],
                       capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def new_database(server: str) -> str:
    from sqlalchemy import create_engine, text

    name = f"rk_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server.format("postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return server.format(name)


def make_battles(url: str, n: int) -> list[tuple[str, dict[str, str]]]:
    """``n`` battles of :data:`SCENARIO` with a chosen seed, made in the database: (id, tokens)."""
    from rulekeeper.core.game import SetupRequest
    from rulekeeper.service.scenarios import shipped_scenarios
    from rulekeeper.web.api import create_app

    keeper = create_app(url).state.keeper
    scenario = next(s for s in shipped_scenarios() if s.key == SCENARIO)
    made = [keeper.create(SetupRequest(scenario=scenario.info.path, seed=i + 1), ruleset=scenario.game,
                          title=f"Table {i + 1}") for i in range(n)]
    keeper.bots.wait_idle(60)  # no keeper side here, but each creation pokes the runner: let it finish
    keeper.bots.close()
    keeper.store.close()
    keeper.access.close()
    return made


@contextmanager
def keeper(url: str, processes: int) -> Iterator[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "rulekeeper", "serve", "--port", "0", "--db", url, "--workers",
                             str(processes), "--no-qr", "--no-demo"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        found = re.search(r"http://127\.0\.0\.1:(\d+)", proc.stdout.readline())
        assert found, "the keeper did not print its address"
        base = f"http://127.0.0.1:{found.group(1)}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/scenarios", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                sys.exit("the keeper did not start")
            time.sleep(0.2)
        time.sleep(1.0 * processes)  # every worker up
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


@dataclass
class Run:
    acts: list[float] = field(default_factory=list)  # latency of each answered action
    lags: list[float] = field(default_factory=list)
    answered: dict[tuple[str, int], float] = field(default_factory=dict)  # (battle, position) -> answer time
    seen: dict[tuple[int, int], float] = field(default_factory=dict)  # (stream, position) first seen
    last: dict[int, int] = field(default_factory=dict)  # stream -> last position it was told
    errors: int = 0
    refused: int = 0
    reconnects: int = 0


class Http:
    """One keep-alive HTTP/1.1 connection spoken by hand on asyncio streams.

    Why not httpx: the bench shares the 2 cores with the keeper it measures, and an HTTP library's
    per-request and per-event work (with 600 streams) took CPU the second keeper process needed.
    Writing a request line and reading a Content-Length body (or the chunks of an event stream)
    costs a few microseconds.
    """

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.reader is None or self.writer is None or self.writer.is_closing() or self.reader.at_eof():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port, limit=1 << 20)
        return self.reader, self.writer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def send(self, method: str, target: str, body: bytes | None = None,
                   accept: str = "application/json") -> tuple[asyncio.StreamReader, int, dict[str, str]]:
        """Send a request (on a fresh connection if the kept one was closed) and read its head."""
        for attempt in (0, 1):
            reader, writer = await self._open()
            head = f"{method} {target} HTTP/1.1\r\nHost: {self.host}\r\nAccept: {accept}\r\n"
            if body is not None:
                head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            writer.write(head.encode() + b"\r\n" + (body or b""))
            try:
                await writer.drain()
                line = await reader.readline()
                if not line:
                    raise ConnectionResetError("closed by the keeper")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
                continue  # a kept connection the keeper had closed (its keep-alive ran out): once more
            status = int(line.split(b" ", 2)[1])
            headers = {}
            while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            return reader, status, headers
        raise AssertionError("unreachable")

    async def request(self, method: str, target: str, body: Any = None) -> tuple[int, Any]:
        """One request; the answer's status and its JSON body (None if empty or not JSON)."""
        data = None if body is None else json.dumps(body).encode()
        reader, status, headers = await self.send(method, target, data)
        if headers.get("transfer-encoding") == "chunked":
            raw = b"".join([chunk async for chunk in chunks(reader)])
        else:
            raw = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection") == "close":
            self.close()
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, None


async def chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """The chunks of a chunked body, until the last (empty) one."""
    while True:
        size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
        if size == 0:
            await reader.readline()
            return
        data = await reader.readexactly(size + 2)
        yield data[:-2]


async def stream(host: str, port: int, bid: str, token: str, sid: int, run: Run, stop: asyncio.Event) -> None:
    """One live page: reads the battle's event stream and notes when each new version arrives."""
    seen = None
    while not stop.is_set():
        conn = Http(host, port)
        try:
            target = f"/b/{bid}/events?token={token}" + (f"&v={seen}" if seen else "")
            reader, status, _ = await conn.send("GET", target, accept="text/event-stream")
            if status != 200:
                run.errors += 1
                await asyncio.sleep(1)
                continue
            pending = b""
            async for chunk in chunks(reader):
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if line.startswith(b"data: "):
                        seen = line[6:].decode()
                        pos = int(seen.split(".")[0])
                        run.last[sid] = pos
                        run.seen.setdefault((sid, pos), time.monotonic())
            run.reconnects += 1  # the keeper ended the stream (its lifetime): a browser reconnects
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            if not stop.is_set():
                run.reconnects += 1
                await asyncio.sleep(0.2)
        finally:
            conn.close()


async def actor(host: str, port: int, mine: list[tuple[str, dict[str, str]]], run: Run, stop: asyncio.Event) -> None:
    """One acting client: round its battles, the side to act posting the first legal action at the position seen."""
    conn, live = Http(host, port), list(mine)
    try:
        while live and not stop.is_set():
            for bid, tokens in list(live):
                if stop.is_set():
                    return
                status, doc = await conn.request("GET", f"/api/battles/{bid}/actions?token={tokens['A']}")
                if status != 200 or not isinstance(doc, dict):
                    run.errors += 1
                    continue
                side = str(doc.get("side") or "")
                if not doc.get("actions") or side not in tokens:
                    live.remove((bid, tokens))  # over (or nobody the bench plays is to act)
                    continue
                first = {k: v for k, v in doc["actions"][0].items() if k in ("kind", "unit", "target", "option")}
                started = time.monotonic()
                status, answer = await conn.request("POST", f"/api/battles/{bid}/actions?token={tokens[side]}",
                                                    {**first, "position": doc["position"]})
                done = time.monotonic()
                if status == 200:
                    run.acts.append(done - started)
                    run.answered[(bid, int(answer["position"]))] = done
                elif status in (409, 422):
                    run.refused += 1
                else:
                    run.errors += 1
    finally:
        conn.close()


async def play(base: str, battles: list[tuple[str, dict[str, str]]], streams: int, clients: int,
               seconds: float) -> tuple[Run, float, int]:
    host, port = base.removeprefix("http://").rsplit(":", 1)[0], int(base.rsplit(":", 1)[1])
    run, stop = Run(), asyncio.Event()
    battle_of = {i * streams + k: bid for i, (bid, _) in enumerate(battles) for k in range(streams)}
    roles = ("spectator", "A", "B")
    tasks = [asyncio.create_task(stream(host, int(port), bid, tokens[roles[k % 3]], i * streams + k, run, stop))
             for i, (bid, tokens) in enumerate(battles) for k in range(streams)]
    await asyncio.sleep(3 + len(tasks) / 200)  # the streams are open
    stop_acting = asyncio.Event()
    started = time.monotonic()
    actors = [asyncio.create_task(actor(host, port, battles[c::clients], run, stop_acting)) for c in range(clients)]
    await asyncio.wait(actors, timeout=seconds)
    stop_acting.set()
    await asyncio.gather(*actors, return_exceptions=True)
    elapsed = time.monotonic() - started
    await asyncio.sleep(3)  # quiet: every stream should now know the last position
    finals, conn = {}, Http(host, port)
    for bid, tokens in battles:
        finals[bid] = (await conn.request("GET", f"/api/battles/{bid}?token={tokens['spectator']}"))[1]
    conn.close()
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lost = sum(1 for sid, bid in battle_of.items() if run.last.get(sid) != _position(finals[bid] or {}))
    for (sid, pos), seen in run.seen.items():
        if (battle_of[sid], pos) in run.answered:
            run.lags.append(max(0.0, seen - run.answered[(battle_of[sid], pos)]))
    return run, elapsed, lost


def _position(doc: dict[str, Any]) -> int:
    return int(doc.get("position", -1))


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--battles", type=int, default=200)
    ap.add_argument("--streams", type=int, default=3)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--server", help="PostgreSQL URL prefix with {} for the database (default: a private server)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results = {}
    with (private_postgresql() if args.server is None else _given(args.server)) as server:
        for n in args.processes:
            url = new_database(server)
            battles = make_battles(url, args.battles)
            with keeper(url, n) as base:
                cpu = time.process_time()
                run, elapsed, lost = asyncio.run(play(base, battles, args.streams, args.clients, args.seconds))
                cpu = time.process_time() - cpu
            results[n] = {
                "processes": n, "battles": args.battles, "streams": args.battles * args.streams,
                "clients": args.clients, "seconds": round(elapsed, 1), "acts": len(run.acts),
                "throughput": round(len(run.acts) / elapsed, 1),
                "act_p50_ms": round(pct(run.acts, 0.5) * 1000, 1), "act_p99_ms": round(pct(run.acts, 0.99) * 1000, 1),
                "lag_p50_ms": round(pct(run.lags, 0.5) * 1000, 1), "lag_p99_ms": round(pct(run.lags, 0.99) * 1000, 1),
                "lags": len(run.lags), "lost_updates": lost, "refused": run.refused, "errors": run.errors,
                "reconnects": run.reconnects, "client_cpu_s": round(cpu, 1),
            }
            print(json.dumps(results[n]) if args.json else
                  f"{n} process(es): {results[n]['acts']} acts in {results[n]['seconds']} s = "
                  f"{results[n]['throughput']}/s; act p50 {results[n]['act_p50_ms']} ms p99 "
                  f"{results[n]['act_p99_ms']} ms; stream lag p50 {results[n]['lag_p50_ms']} ms p99 "
                  f"{results[n]['lag_p99_ms']} ms over {results[n]['lags']} deliveries; lost updates {lost}; "
                  f"refused {run.refused}; errors {run.errors}; the bench's client used {cpu:.1f} s of CPU", flush=True)
    if 1 in results and 2 in results and results[1]["throughput"]:
        ratio = results[2]["throughput"] / results[1]["throughput"]
        print(json.dumps({"ratio_2_to_1": round(ratio, 2)}) if args.json else f"throughput 2 processes / 1: {ratio:.2f}")


@contextmanager
def _given(server: str) -> Iterator[str]:
    yield server


if __name__ == "__main__":
    main()
