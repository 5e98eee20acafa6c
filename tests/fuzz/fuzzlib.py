"""What the CLI and the web fuzz drivers share: hostile values, the corpus, timed cases, the summary.

The drivers (``driver.py``) run in a child process under an address-space limit; every case is
timed and cut off after :data:`CASE_SECONDS`. A case never raises: it returns a problem string
(or ``None``), and the driver writes a JSON summary the pytest tests assert on.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sys
import time
import traceback
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS = HERE / "corpus"
#: The corpus of issue "Nothing hostile gets through" that came first (alias bomb, deep nesting...).
CORE_HOSTILE = ROOT / "tests" / "core" / "hostile"
ARTIFACTS = ROOT / "test-artifacts"

#: Print each case before it runs (to find the one that hangs the driver): FUZZ_TRACE=1.
TRACE = bool(os.environ.get("FUZZ_TRACE"))
#: CPU time one case may take (CPU, not wall time: the suite shares two cores with other test workers).
CASE_SECONDS = 5.0
#: CPU time after which a case is cut off (a loop that never ends): far past :data:`CASE_SECONDS`, which a
#: case that finishes is held to.
CASE_CUTOFF_CPU_SECONDS = 20.0
#: Wall time after which a case is cut off (a case blocked for good). Generous: at a load average of 11 a
#: case of 2.5 s of CPU once ran past the 20 s wall-time cut-off this used to be.
CASE_WALL_SECONDS = 120.0
#: The address-space limit (``RLIMIT_AS``) of the driver process. Measured: a whole run peaks near 330 MB
#: RSS and 520 MB of address space (the 250k-entry TOML musters; the web keeper's thread pool).
MEMORY_LIMIT = 1024 * 1024 * 1024
#: Output of one refusal (CLI: stdout + stderr; web: the 4xx body).
MAX_REFUSAL = 20_000
#: Output of anything else (a legal command on a hostile-but-valid file prints a whole battle).
MAX_OUTPUT = 1_000_000

#: Lone surrogates: what Python makes of argv bytes that are not UTF-8 (``surrogateescape``).
SURROGATES = ["\udcff", "\udc80", "\udce9"]

#: IDs and names that broke (or could break) something somewhere.
HOSTILE_TEXTS = [
    "", " ", "-", "--", "../../../../etc/passwd", "..", "/", "C:\\Windows\\win.ini", "b-0000000000000000",
    "' OR '1'='1", "'; DROP TABLE battles; --", "%s%s%n", "{0}{1}", "${HOME}", "$(id)", "`id`",
    "[/]", "[bold red]x", "[link=file:///etc/passwd]x[/link]", "\x1b[2J\x1b[31m", "\u202eslliB", "Bill\u200bmen",
    "☃", "😀" * 50, "é" * 1000, "x" * 100_000, "\r\n", "\t", "*", "%", "_", "NULL", "None", "null", "0", "-1",
    "1e309", "１２３", "ǅ", "İ", "Billmen", "billmen", "A:Billmen", "A", "B", "spectator", "b\udcff", "\udcff" * 10,
]

#: A battle id, a unit name, a token... as hypothesis writes them.
TEXTS = st.one_of(
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=300),
    st.sampled_from(HOSTILE_TEXTS),
    st.tuples(st.sampled_from(["b-", "A:", "B:", "../", "%2e%2e/", ""]),
              st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
              st.sampled_from(["", *SURROGATES, "\x1b", "[/]", "é"])).map("".join),
    st.integers(min_value=200, max_value=20_000).map(lambda n: "x" * n),
)


def argv_text(text: str) -> str:
    """``text`` as it can reach argv (no NUL byte: execve cannot pass one)."""
    return text.replace("\x00", "")


JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=-(10**60), max_value=10**60),
                        st.floats(allow_nan=False), st.text(max_size=50), st.sampled_from(HOSTILE_TEXTS[:40]))
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)), max_leaves=20)


def mutate(doc: Any, data: st.DataObject) -> Any:
    """``doc`` with one value somewhere inside replaced by a hypothesis value (or removed)."""
    path: list[Any] = []
    node = doc
    while isinstance(node, (dict, list)) and node and data.draw(st.integers(0, 3), label="deeper") > 0:
        key = data.draw(st.sampled_from(sorted(node, key=str) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]
    if not path:
        return data.draw(JSON_VALUES, label="whole document")
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and data.draw(st.booleans(), label="delete"):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(JSON_VALUES, label="value")
    return doc


def file_bytes(data: st.DataObject, seeds: list[tuple[str, Any]]) -> tuple[str, bytes]:
    """A file a hypothesis user wrote: random bytes, random text, or a valid document mutated.

    ``seeds`` are (suffix, parsed document) pairs; returns (suffix, content).
    """
    how = data.draw(st.sampled_from(["bytes", "text", "mutated", "mutated", "spliced"]), label="how")
    if how == "bytes":
        return data.draw(st.sampled_from([".yaml", ".toml", ".json", ".yml", ""])), data.draw(st.binary(max_size=2000))
    if how == "text":
        suffix = data.draw(st.sampled_from([".yaml", ".toml", ".json"]))
        return suffix, data.draw(st.text(max_size=2000)).encode("utf-8", "surrogatepass")
    suffix, original = data.draw(st.sampled_from(seeds), label="seed")
    doc = json.loads(json.dumps(original, default=str))
    if how == "mutated":
        for _ in range(data.draw(st.integers(1, 3), label="mutations")):
            doc = mutate(doc, data)
    text = dump(doc, suffix)
    if how == "spliced":  # a byte-level edit of a valid file: cut, insert junk, flip
        raw = bytearray(text.encode("utf-8", "surrogatepass"))
        at = data.draw(st.integers(0, max(0, len(raw) - 1)))
        raw[at:at + data.draw(st.integers(0, 50))] = data.draw(st.binary(max_size=30))
        return suffix, bytes(raw)
    return suffix, text.encode("utf-8", "surrogatepass")


def dump(doc: Any, suffix: str) -> str:
    """``doc`` written in the format of ``suffix`` (TOML when it can be, else JSON-as-YAML)."""
    if suffix == ".toml" and isinstance(doc, dict):
        import tomli_w

        try:
            return tomli_w.dumps(_tomlable(doc))
        except (TypeError, ValueError):
            pass
    if suffix in (".yaml", ".yml", ".toml"):
        import yaml

        return str(yaml.safe_dump(doc, allow_unicode=True))
    return json.dumps(doc, ensure_ascii=False)


def _tomlable(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {str(k): _tomlable(v) for k, v in doc.items() if v is not None}
    if isinstance(doc, list):
        return [_tomlable(v) for v in doc if v is not None]
    return doc


def hypothesis_cases(key: str, examples: int, body: Callable[[st.DataObject], None]) -> None:
    """Run ``body`` on ``examples`` hypothesis examples, seeded by ``key`` (reproducible, no shrinking:
    a body records its problems instead of raising)."""

    @seed(zlib.crc32(key.encode()))
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data: st.DataObject) -> None:
        body(data)

    run()


# -- the corpus ---------------------------------------------------------------------------------------


def static_corpus() -> list[Path]:
    """The hostile files kept under ``tests/`` (this folder's and the core's)."""
    return sorted(CORPUS.iterdir()) + sorted(CORE_HOSTILE.iterdir())


def runtime_corpus(where: Path) -> list[Path]:
    """Hostile files too large to keep in git, and things that are not files, made in ``where``."""
    where.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []

    def put(name: str, content: bytes | str) -> None:
        path = where / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        made.append(path)

    entry = "  - unit: Billmen\n    level: 3\n"
    put("musters_250k_entries.yaml", "name: Huge\ngame_type: Common\nunits:\n" + entry * 250_000)
    put("musters_250k_entries.toml", 'name = "Huge"\ngame_type = "Common"\n' + '[[units]]\nunit = "Billmen"\n' * 250_000)
    put("musters_250k_names.yaml", "name: Huge\nunits:\n" + "".join(f"  - unit: U{i}\n" for i in range(250_000)))
    put("huge_name.yaml", "name: " + "N" * 99_000 + "\ngame_type: Common\nunits:\n  - unit: " + "U" * 99_000 + "\n")
    put("huge_name_over_limit.toml", 'name = "' + "N" * 100_001 + '"\n')
    put("larger_than_8mib.yaml", "a: 1\n" * (8 * 1024 * 1024 // 5 + 2))
    put("long_line.yaml", "name: " + "x" * 3_000_000 + "\n")
    put("deep_json.json", "[" * 100_000 + "]" * 100_000)
    put("huge_int.json", '{"format": "rulekeeper-battle", "version": ' + "9" * 5000 + "}")
    rng = random.Random(20)
    put("binary_1mib.json", bytes(rng.randrange(256) for _ in range(1 << 20)))
    for suffix in (".yaml", ".toml", ".json"):
        folder = where / f"folder{suffix}"
        folder.mkdir(exist_ok=True)
        made.append(folder)
    loop = where / "loop.yaml"
    if not loop.is_symlink():
        loop.symlink_to(loop)
    made.append(loop)
    made.append(where / "missing.yaml")
    made.append(where / "no" / "such" / "dir" / "muster.toml")
    made.append(where / ("n" * 300 + ".yaml"))  # a name longer than the file system allows
    made.append(where / "/".join(["deep"] * 1200) / "x.yaml")  # a path longer than PATH_MAX
    made += [Path("/dev/null"), Path("/dev/zero"), Path("/proc/self/mem"), Path("/")]
    return made


def export_corpus(export: Path, where: Path) -> list[Path]:
    """A real export, and that export tampered, truncated and retyped in every way we thought of."""
    where.mkdir(parents=True, exist_ok=True)
    raw = export.read_bytes()
    doc = json.loads(raw)
    made: list[Path] = [export]

    def put(name: str, content: bytes | str | Any) -> None:
        path = where / f"{name}.json"
        if isinstance(content, (bytes, str)):
            path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
        else:
            path.write_text(json.dumps(content, ensure_ascii=True, allow_nan=True))
        made.append(path)

    for frac in (0.0, 0.01, 0.5, 0.99):
        put(f"truncated_{int(frac * 100)}", raw[: int(len(raw) * frac)])
    put("bom", b"\xef\xbb\xbf" + raw)
    put("utf16", raw.decode().encode("utf-16"))
    put("nul_inside", raw[: len(raw) // 2] + b"\x00" + raw[len(raw) // 2:])
    put("yaml_not_json", dump(doc, ".yaml"))
    wrongs: list[Any] = [None, -1, 10**30, "x" * 200_000, [[[[[]]]]], "b\ud800"]
    for key in sorted(doc):
        put(f"no_{key}", {k: v for k, v in doc.items() if k != key})
        for i, wrong in enumerate(wrongs):
            put(f"{key}_wrong_{i}", {**doc, key: wrong})
    battle = doc.get("battle") if isinstance(doc.get("battle"), dict) else {}
    for key in sorted(battle):
        for i, wrong in enumerate([None, -5, "../../../../tmp/evil", "x" * 10_000, "b-\x00é☃", {}]):
            put(f"battle_{key}_wrong_{i}", {**doc, "battle": {**battle, key: wrong}})
    log = doc.get("log") if isinstance(doc.get("log"), list) else []
    if log:
        first = log[0]
        put("log_reordered", {**doc, "log": log[::-1]})
        put("log_duplicated", {**doc, "log": log + log})
        put("log_10000_entries", {**doc, "log": [first] * 10_000})
        put("log_entry_not_object", {**doc, "log": [1, "x", None]})
        for key in sorted(first):
            for i, wrong in enumerate([None, "x", {"kind": "teleport", "unit": "A:Billmen", "target": "Z99"}]):
                put(f"log0_{key}_wrong_{i}", {**doc, "log": [{**first, key: wrong}, *log[1:]]})
    initial = doc.get("initial") if isinstance(doc.get("initial"), dict) else {}
    for key in sorted(initial):
        put(f"initial_no_{key}", {**doc, "initial": {k: v for k, v in initial.items() if k != key}})
        put(f"initial_{key}_retyped", {**doc, "initial": {**initial, key: "x"}})
    return made


# -- timed cases and the summary ------------------------------------------------------------------------


class CaseTimeout(BaseException):  # noqa: N818 - a BaseException, so no `except Exception` swallows it
    """A case ran past :data:`CASE_SECONDS`."""


def _on_alarm(signum: int, frame: Any) -> None:
    if signum == signal.SIGPROF:
        raise CaseTimeout(f"still running after {CASE_CUTOFF_CPU_SECONDS} s of CPU")
    raise CaseTimeout(f"still running after {CASE_WALL_SECONDS} s")


def _timed(case: Callable[[], tuple[str, str | None, str]]) -> tuple[str, str | None, str, float, float]:
    """``case()`` under the cut-offs: (outcome, problem or None, where, CPU seconds, wall seconds).

    Why a case over :data:`CASE_SECONDS` runs a second time before it is reported: the process's CPU
    time also counts its other threads, and on a busy two-core machine a refusal that takes 0.1 s was
    once charged 7.6 s. A case that is really slow is slow twice.
    """
    t0, cpu0 = time.perf_counter(), time.process_time()
    where = ""
    signal.setitimer(signal.ITIMER_REAL, CASE_WALL_SECONDS)
    signal.setitimer(signal.ITIMER_PROF, CASE_CUTOFF_CPU_SECONDS)
    try:
        outcome, problem, where = case()
    except CaseTimeout as exc:
        outcome, problem, where = "timeout", str(exc), where_raised(exc)
    except MemoryError as exc:
        outcome, problem, where = "memory", "MemoryError (the memory limit was reached)", where_raised(exc)
    except Exception as exc:  # the case's own harness broke: still a finding
        outcome, problem, where = "harness", f"{type(exc).__name__}: {str(exc)[:300]}", where_raised(exc)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.setitimer(signal.ITIMER_PROF, 0)
    return outcome, problem, where, time.process_time() - cpu0, time.perf_counter() - t0


def where_raised(exc: BaseException) -> str:
    """The innermost frame of rulekeeper's own code that an exception passed through."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/rulekeeper/" in f.filename.replace(os.sep, "/") and "/tests/" not in f.filename]
    f = (ours or frames or [None])[-1]
    if f is None:
        return "?"
    name = f.filename.replace(os.sep, "/")
    name = name.split("/src/", 1)[-1] if "/src/" in name else name.rsplit("/", 2)[-1]
    return f"{name}:{f.lineno}"


@dataclass
class KnownBug:
    """A bug the suite found in code this suite may not change: counted, not failed (see the xfail tests)."""

    key: str
    where: str  # a regex on ``Failure.where``
    problem: str  # a regex on ``Failure.problem``
    reason: str
    skip: str = "(?!)"  # a regex on the case's arguments: cases not run at all (they take the driver down)

    def matches(self, failure: dict[str, Any]) -> bool:
        return bool(re.search(self.where, failure["where"]) and re.search(self.problem, failure["problem"]))

    def skips(self, args: Any) -> bool:
        return bool(re.search(self.skip, " ".join(map(str, args)) if isinstance(args, list) else str(args)))


#: Bugs in the persistence and service layers (being rewritten by the lead): reproduced by the
#: xfail(strict=True) tests in test_fuzz_cli.py / test_fuzz_web.py. Empty when none is open.
KNOWN_BUGS: list[KnownBug] = []


@dataclass
class Recorder:
    target: str
    cases: Counter[str] = field(default_factory=Counter)
    outcomes: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    failures: list[dict[str, Any]] = field(default_factory=list)
    known: list[dict[str, Any]] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")
    seconds: Counter[str] = field(default_factory=Counter)
    memory_jumps: list[tuple[float, str]] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    cpu_started: float = field(default_factory=time.process_time)
    rss: float = 0.0
    slow: list[tuple[float, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.signal(signal.SIGPROF, _on_alarm)
        self.rss = _rss_mb()

    def run(self, name: str, label: str, args: Any, case: Callable[[], tuple[str, str | None, str]]) -> None:
        """Run one case of command/endpoint ``name``; ``case`` returns (outcome, problem or None, where)."""
        bug = next((b for b in KNOWN_BUGS if b.skips(args)), None)
        if bug is not None:
            self.known.append({"name": name, "label": label, "args": short(args), "problem": "not run", "where": "",
                               "seconds": 0, "bug": bug.key})
            self.outcomes[name]["known bug (not run)"] += 1
            return
        self.cases[name] += 1
        if TRACE:
            print(f"{name} [{label}] {short(args, 120)}", file=sys.stderr, flush=True)
        outcome, problem, where, seconds, wall = _timed(case)
        if seconds > CASE_SECONDS and problem is None:  # once more: a slow case is slow twice
            outcome, problem, where, seconds, wall = _timed(case)
        self.seconds[name] += seconds
        self.slow.append((round(seconds, 3), f"{name} [{label}] {short(args, 100)}"))
        if len(self.slow) > 40:
            self.slow = sorted(self.slow, reverse=True)[:15]
        rss = _rss_mb()
        if rss > self.rss + 20:
            self.memory_jumps.append((round(rss - self.rss), f"{name} [{label}] {short(args, 100)}"))
        self.rss = max(self.rss, rss)
        if seconds > CASE_SECONDS and problem is None:
            problem = f"took {seconds:.1f} s of CPU ({wall:.1f} s wall; limit {CASE_SECONDS} s)"
        if seconds > self.slowest[0]:
            self.slowest = (seconds, f"{name} [{label}]")
        self.outcomes[name][outcome] += 1
        if problem is not None:
            failure = {"name": name, "label": label, "args": short(args), "problem": problem[:1000],
                       "where": where, "seconds": round(seconds, 3)}
            bug = next((b for b in KNOWN_BUGS if b.matches(failure)), None)
            if bug is not None:
                self.known.append({**failure, "bug": bug.key})
                self.outcomes[name][outcome] -= 1
                self.outcomes[name]["known bug"] += 1
            else:
                self.failures.append(failure)

    def summary(self, extra: dict[str, Any]) -> dict[str, Any]:
        return {
            "target": self.target, "total": sum(self.cases.values()), "cases": dict(self.cases),
            "outcomes": {k: dict(v) for k, v in self.outcomes.items()}, "failures": self.failures[:200],
            "failure_count": len(self.failures), "known": self.known[:50], "known_count": len(self.known),
            "slowest": {"seconds": round(self.slowest[0], 3), "case": self.slowest[1]},
            "peak_rss_mb": round(_rss_mb(), 1), "memory_limit_mb": MEMORY_LIMIT // (1024 * 1024),
            "peak_address_space_mb": _vm_peak_mb(),
            "wall_seconds": round(time.perf_counter() - self.started, 1),
            "cpu_seconds": round(time.process_time() - self.cpu_started, 1),
            "seconds": {k: round(v, 1) for k, v in self.seconds.most_common()},
            "memory_jumps_mb": sorted(self.memory_jumps, reverse=True)[:10],
            "slowest_cases": sorted(self.slow, reverse=True)[:15], **extra,
        }


def _vm_peak_mb(field: str = "VmPeak") -> float | None:
    try:
        line = next(x for x in Path("/proc/self/status").read_text().splitlines() if x.startswith(field + ":"))
    except (OSError, StopIteration):
        return None
    return round(int(line.split()[1]) / 1024, 1)


def _rss_mb() -> float:
    """The driver's own peak resident set (``VmHWM``, which starts afresh at ``exec``).

    Not ``ru_maxrss``: Linux keeps in it the high-water mark of the process image before ``exec``, so a driver
    started by a pytest worker that had run mypy in-process (~1.2 GB) reported that worker's peak as its own
    (seen once in a clean-clone CI: 1,032 MB, where the driver itself peaks near 340 MB)."""
    hwm = _vm_peak_mb("VmHWM")
    if hwm is not None:
        return hwm
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def short(value: Any, limit: int = 300) -> Any:
    """A value small enough to print (long texts cut, with their length)."""
    if isinstance(value, str):
        return value if len(value) <= limit else f"{value[:80]}…<{len(value)} chars>"
    if isinstance(value, (list, tuple)):
        return [short(v, limit) for v in value]
    if isinstance(value, dict):
        return {short(k, 80): short(v, limit) for k, v in list(value.items())[:20]}
    if isinstance(value, bytes):
        return short(value.decode("utf-8", "backslashreplace"), limit)
    return value


def table(summary: dict[str, Any]) -> Iterator[str]:
    """The summary as the lines printed at the end of the pytest run."""
    s = summary
    yield (f"fuzz {s['target']}: {s['total']} cases, {s['failure_count']} failures, {s['known_count']} known bugs (xfail); "
           f"slowest {s['slowest']['seconds']} s ({s['slowest']['case'][:100]}); peak RSS {s['peak_rss_mb']} MB "
           f"(address space {s.get('peak_address_space_mb')} MB) under a {s['memory_limit_mb']} MB RLIMIT_AS; "
           f"{s['cpu_seconds']} s CPU")
    totals: Counter[str] = Counter()
    for name in sorted(s["cases"]):
        outs = s["outcomes"].get(name, {})
        totals.update(outs)
        yield f"  {name:<44} {s['cases'][name]:>5}  " + ", ".join(f"{k} {v}" for k, v in sorted(outs.items()) if v)
    yield "  all: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items()) if v)
    for f in s["failures"][:10]:
        yield f"  FAILURE {f['name']} [{f['label']}] {f['where']}: {f['problem'][:200]}"


def utf8_clean(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def write_summary(summary: dict[str, Any], out: Path) -> None:
    out.write_text(json.dumps(summary, indent=1, ensure_ascii=True, default=str))
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"fuzz-summary-{summary['target']}.txt").write_text("\n".join(table(summary)) + "\n")


def limit_memory(limit: int = MEMORY_LIMIT) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
