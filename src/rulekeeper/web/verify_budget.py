"""``POST /verify`` on a budget: a pasted export is verified in a child process with limits.

Why: anyone may paste an export (no link needed), and replaying one costs what its battle
costs.  The export's claimed board, units and actions are checked against the documented
limits first (:func:`rulekeeper.core.size.check_size`, inside ``verify_export``), and the
replay itself runs in a child process capped at :data:`MEMORY_BYTES` of address space and
:data:`SECONDS` of wall time; past either the answer is 413 ``too_large`` and the keeper
is untouched (a 10000×10000 map used to end in a MemoryError, an HTTP 500 and a traceback).
At most :data:`AT_ONCE` verifications run at once (then 503 ``busy``); per address they are
rate-limited by :mod:`.ratelimit`.
"""

from __future__ import annotations

import multiprocessing
import resource
import threading
from multiprocessing.connection import Connection

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.size import BattleTooLargeError
from rulekeeper.persistence.errors import StoreBusyError
from rulekeeper.service.dice import Verification, verify_export

#: Address space of the child that verifies one export.
MEMORY_BYTES = 768 * 1024 * 1024
#: Wall-clock seconds one verification may take.
SECONDS = 20.0
#: Verifications running at once, over every client.
AT_ONCE = 2

_slots = threading.BoundedSemaphore(AT_ONCE)


def _child(doc: object, conn: Connection) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    try:
        conn.send(("ok", verify_export(doc)))
    except RulekeeperError as exc:
        conn.send(("refused", exc))
    except MemoryError:
        conn.send(("memory", None))
    finally:
        conn.close()


def verify_on_budget(doc: object) -> Verification:
    """``verify_export(doc)`` in a child process with a memory and time budget (a typed refusal past it)."""
    if not _slots.acquire(blocking=False):
        raise StoreBusyError("other exports are being verified just now; try again in a few seconds")
    try:
        ctx = multiprocessing.get_context("fork")
        receive, send = ctx.Pipe(duplex=False)
        child = ctx.Process(target=_child, args=(doc, send), daemon=True)
        child.start()
        send.close()
        try:
            if not receive.poll(SECONDS):
                raise BattleTooLargeError(f"verifying this export took longer than {SECONDS:g} s: it is too large "
                                          "for this keeper (verify it with rulekeeper battle verify)")
            try:
                kind, value = receive.recv()
            except EOFError:
                kind, value = "memory", None
        finally:
            if child.is_alive():
                child.kill()
            child.join(5)
            receive.close()
        if kind == "ok":
            assert isinstance(value, Verification)
            return value
        if kind == "refused":
            raise value
        raise BattleTooLargeError(f"verifying this export needed more than {MEMORY_BYTES // 2**20} MiB: it is too "
                                  "large for this keeper (verify it with rulekeeper battle verify)")
    finally:
        _slots.release()
