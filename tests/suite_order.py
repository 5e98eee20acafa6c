"""Which test files xdist hands out first (read by ``tests/conftest.py``)."""

#: The costliest files, started first: xdist (``--dist loadfile``) hands files to its workers in collection
#: order, and a long file handed out last kept one worker busy for minutes after the others had finished.
#: Refresh from the "CPU time by test file" section a run prints (most costly first).
COSTLIEST_FIRST = (
    "tests/test_conformance.py",
    "tests/exillis/test_lab_kernel_fallback.py",
    "tests/fuzz/test_fuzz_cli.py",
    "tests/cli_play/test_play_terminal.py",
    "tests/test_typing.py",
    "tests/exillis/test_melee.py",
    "tests/web/test_schemathesis.py",
    "tests/fuzz/test_fuzz_web.py",
    "tests/persistence/test_store.py",
    "tests/web/test_table_walk.py",
    "tests/confrontation/test_confrontation_duel.py",
    "tests/web/test_fairness_walk.py",
    "tests/exillis/test_lab_kernel.py",
    "tests/web/test_keeper_side.py",
    "tests/web/test_walk_regressions.py",
    "tests/persistence/test_races.py",
    "tests/web/test_web_dice.py",
    "tests/web/test_browser.py",
    "tests/confrontation/test_confrontation_browser.py",
)
