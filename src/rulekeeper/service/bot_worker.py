"""One decision of the keeper's side, taken in a process of its own.

Why a process: a search is CPU work in Python; in a thread of the keeper it would hold the
interpreter lock the event loop needs, and three bots thinking at once froze every page.  A
process of its own also gives the two bounds a thread cannot: its address space is capped
(``RLIMIT_AS``, :func:`cap_memory`), and it can be killed the moment its battle changes or
its time is up (:mod:`.bot_pool`).  Workers are plain ``python -m`` processes kept between
moves (importing the games costs about a second); not :mod:`multiprocessing`, whose children
re-import the parent's main script first (seconds a move under some launchers).

What it gets is what the bot is allowed to use and nothing the parent could share by
accident: the game's name, the state's JSON form, the side and the budget.  Fairness (the bot
reads only its side's view and the public odds) is the bot's own, see :mod:`rulekeeper.bots`.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from dataclasses import dataclass
from typing import TypedDict

from rulekeeper.core.game import Game, JsonDict, policy_for

#: How much lower a worker's CPU priority is than the keeper's (a move's budget is wall-clock time, so a busy
#: keeper makes its bot think a little less, never its pages answer later).
NICE = 5
#: How many of the bot's candidates an explanation keeps.
TOP = 5


@dataclass(frozen=True)
class Job:
    """What a child process needs to decide one move (plain data: it crosses a pipe)."""

    ruleset: str
    state: JsonDict
    side: str
    policy: str
    strength: str
    seconds: float
    seed: int
    memory_bytes: int


class CandidateJson(TypedDict):
    """One move the bot weighed, as the answer carries it (``value`` None: the shipped policy's move)."""

    text: str
    value: float | None
    visits: int
    action: JsonDict  # its logged JSON, for the page to word it as the log does


class Answer(TypedDict, total=False):
    """A worker's answer to one job, one JSON line on its stdout: the move (its logged JSON) with the candidates
    weighed, or ``error``; ``peak_kb`` its peak memory. A new worker's first line is ``{"ready": true}``."""

    action: JsonDict | None
    candidates: list[CandidateJson]
    iterations: int
    seconds: float
    error: str
    peak_kb: int
    ready: bool


def _vm_size() -> int:
    """This process's current address space (bytes), 0 where /proc cannot tell."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def cap_memory(extra_bytes: int) -> None:
    """Cap this process's address space at what it uses now plus ``extra_bytes``: a search that
    grows past it gets MemoryError (reported as the decision's error) instead of starving the keeper."""
    if extra_bytes <= 0:
        return
    limit = _vm_size() + extra_bytes
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def decide(game: Game, state: object, job: Job) -> Answer:
    """The move of ``job.side`` in ``state``, with the candidates the bot weighed.

    Answers a plain dict: ``action``, ``candidates`` (``text``, ``value``, ``visits``, best first),
    ``iterations``, ``seconds``.
    """
    if job.policy == "simple":
        return simple(game, state, job.side)
    from rulekeeper.bots import choose, strength_named

    decision = choose(game, state, job.side, budget=strength_named(job.strength), seed=job.seed)
    candidates: list[CandidateJson] = [{"text": c.text, "value": float(c.value), "visits": int(c.visits),
                                        "action": dict(c.action)} for c in list(decision.candidates)[:TOP]]
    return {"action": dict(decision.action), "candidates": candidates, "iterations": int(decision.iterations),
            "seconds": float(decision.seconds)}


def simple(game: Game, state: object, side: str) -> Answer:
    """The game's shipped policy for ``side`` (``core.game.policy_for``)."""
    t0 = time.perf_counter()
    chosen = policy_for(game, state, side)
    action = None if chosen is None else dict(chosen)
    if action is None:
        return {"action": None, "candidates": [], "iterations": 0, "seconds": time.perf_counter() - t0}
    text = game.action_text(action)
    return {"action": dict(action), "candidates": [{"text": text, "value": None, "visits": 0, "action": dict(action)}],
            "iterations": 0, "seconds": time.perf_counter() - t0}


def answer(job: Job) -> Answer:
    """One job's answer in a worker: the decision, or ``{"error": ...}`` (never raises)."""
    try:
        from rulekeeper.service.battles import game_of

        g = game_of(job.ruleset)
        found: Answer = decide(g, g.state_from_json(job.state), job)
    except MemoryError:
        found = {"error": "memory"}
    except Exception as exc:  # any failure of the search is the decision's error, told to the parent
        found = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    found["peak_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return found


def main(argv: list[str]) -> int:
    """A worker process: one JSON job a line on stdin, one JSON answer a line on stdout, until stdin closes.

    The protocol's stdout is kept for answers alone: anything a game prints goes to stderr.
    """
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr
    import rulekeeper.bots  # noqa: F401  (imported before the first move: its time is not the move's)
    from rulekeeper.core.ruleset import games

    games()  # every installed game, imported once here rather than inside a move's time
    os.nice(NICE)  # then the pages first: a thinking bot takes only the CPU the keeper leaves

    cap_memory(int(argv[0]) if argv else 0)  # what the moves may add to what the imports took

    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        try:
            job = Job(**json.loads(line))
        except (ValueError, TypeError) as exc:
            found: Answer = {"error": f"bad job: {exc}"}
        else:
            found = answer(job)
        out.write(json.dumps(found) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
