"""Issue "Nothing hostile gets through": every endpoint of the web keeper, fed hostile path parameters,
queries, forms and JSON bodies (hypothesis and the corpus, the alias bomb pasted as a muster), under a
memory limit: no 5xx, every refusal in the project's error format, bounded answers.

The driver runs in a child process (``driver.py web``); its counts are printed at the end of the pytest
run (``tests/conftest.py``) and kept in ``test-artifacts/fuzz-summary-web.txt``.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from fuzzlib import KNOWN_BUGS, MEMORY_LIMIT
from runner import explain, run_driver
from web_cases import WEB_TABLE, routes, uncovered

#: Half of each feed's hypothesis examples (the table's figures): the whole corpus still goes to every route, and
#: the run makes about 2,650 requests instead of 3,100, for the suite's 15 minutes.
HYPOTHESIS_SCALE = 0.5


def _app(tmp: Path):  # type: ignore[no-untyped-def]
    from rulekeeper.web.api import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return create_app(tmp / "w.db")


def test_every_endpoint_is_in_the_fuzz_table(tmp_path: Path) -> None:
    """A new route must be added to ``web_cases.WEB_TABLE``."""
    app = _app(tmp_path)
    assert uncovered(app) == []
    assert set(WEB_TABLE) <= set(routes(app)), set(WEB_TABLE) - set(routes(app))  # no stale entries


def test_the_web_fuzz_suite_finds_no_5xx_and_only_our_refusals(tmp_path: Path) -> None:
    summary = run_driver("web", tmp_path, scale=HYPOTHESIS_SCALE)
    assert summary["failure_count"] == 0, explain(summary)
    assert set(summary["cases"]) == set(WEB_TABLE)
    assert summary["total"] >= 2000 and summary["pasted_files"] >= 50
    assert summary["slowest"]["seconds"] < 5.0
    assert summary["peak_rss_mb"] * 1024 * 1024 < MEMORY_LIMIT
    statuses = {s for o in summary["outcomes"].values() for s in o}
    assert {"404", "422"} <= statuses and not any(s.startswith("5") for s in statuses)
    assert {k["bug"] for k in summary["known"]} <= {b.key for b in KNOWN_BUGS}
