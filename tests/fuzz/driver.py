"""The fuzz driver: ``python tests/fuzz/driver.py cli|web SUMMARY.json [SCALE]``.

Run by ``test_fuzz_cli.py``/``test_fuzz_web.py`` in a child process: the address-space limit
(``RLIMIT_AS``, :data:`fuzzlib.MEMORY_LIMIT`) is set before rulekeeper is imported, so every case
runs under it, and each case is cut off after :data:`fuzzlib.CASE_SECONDS` (``SIGALRM``). The summary
(counts per command/endpoint and outcome, failures, slowest case, peak RSS) is written as JSON and
as ``test-artifacts/fuzz-summary-TARGET.txt``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzzlib import Recorder, limit_memory, write_summary  # noqa: E402


def main() -> None:
    target, out = sys.argv[1], Path(sys.argv[2])
    scale = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    limit_memory()
    with tempfile.TemporaryDirectory(prefix=f"rk-fuzz-{target}-") as tmp:
        os.environ["RULEKEEPER_DB"] = str(Path(tmp) / "default.db")  # never the user's own database
        os.environ["RULEKEEPER_STATE_DIR"] = str(Path(tmp) / "state")  # nor the user's current battle
        # The lab's libraries under RLIMIT_AS: pyarrow's jemalloc reserves ~1 GB of address space it never
        # touches, OpenBLAS a buffer per core; the system allocator and one thread keep the limit about rulekeeper.
        os.environ.update(ARROW_DEFAULT_MEMORY_POOL="system", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        # The fuzz checks what the lab does with hostile input, not the kernel's speed: in a fresh checkout the
        # numba kernel compiles on its first duel (over 20 s of a case's time limit on a loaded CI machine, and
        # LLVM's memory under the limit), so the lab runs on the numpy fallback, which draws the same numbers and
        # gives the same tally (tests/exillis/test_lab_kernel_fallback.py).
        os.environ["RULEKEEPER_NUMBA"] = "0"
        rec = Recorder(target)
        if target == "cli":
            from cli_cases import run
        else:
            from web_cases import run
        extra = run(rec, Path(tmp), scale)
        write_summary(rec.summary(extra), out)


if __name__ == "__main__":
    main()
