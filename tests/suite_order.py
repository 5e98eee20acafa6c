"""Which test files xdist hands out first (read by ``tests/conftest.py``)."""

#: The costliest files, started first: xdist (``--dist loadfile --no-loadscope-reorder``) hands files to its
#: workers in collection order, and a long file handed out last kept one worker busy for minutes after the others
#: had finished. Without ``--no-loadscope-reorder`` xdist hands out the files with most tests first and this
#: list is ignored: mypy and the one-test browser files then went out last. Most costly first, CPU and the wall
#: time a browser, a keeper server or PostgreSQL holds a worker together (CPU ledgers of 2 December 2026, every
#: file measured, loaded), so that the run ends on small files that fill the gaps. Refresh from the "CPU time by
#: test file" section a run prints.
COSTLIEST_FIRST = (
    "tests/test_conformance.py",
    "tests/fuzz/test_fuzz_cli.py",
    "tests/persistence/test_races.py",
    "tests/test_typing.py",
    "tests/web/test_schemathesis.py",
    "tests/persistence/test_store.py",
    "tests/cli_play/test_play_terminal.py",  # its scenarios forked, not started, since 3 December: 17 s, not 43
    "tests/exillis/test_lab_kernel_fallback.py",  # compiled for one thread since 3 December: 31 s, not 99
    "tests/web/test_table_walk.py",
    "tests/web/test_fairness_walk.py",
    "tests/fuzz/test_fuzz_web.py",
    "tests/exillis/whole/test_whole_compiled.py",
    "tests/web/test_keeper_side.py",
    "tests/web/test_walk_regressions.py",
    "tests/confrontation/test_confrontation_browser.py",
    "tests/web/test_pages.py",
    "tests/exillis/test_lab_kernel.py",
    "tests/web/test_web_dice.py",
    "tests/web/test_browser.py",
    "tests/confrontation/test_confrontation_duel.py",
    "tests/wartable/test_wartable_properties.py",
    "tests/battlesystem/test_battlesystem_browser.py",
    "tests/confrontation/test_confrontation_magic_browser.py",
    "tests/web/test_api.py",
    "tests/persistence/test_convention_hall.py",
    "tests/test_cli_start_up.py",
    "tests/web/test_phone.py",
    "tests/exillis/test_muster_properties.py",
    "tests/wartable/campaign/test_campaign_given_tables.py",
    "tests/service/test_campaign_cli.py",
    "tests/web/test_musters.py",
    "tests/persistence/test_migrations.py",
    "tests/web/test_table_regressions.py",
    "tests/persistence/test_crash.py",
    "tests/confrontation/test_confrontation_shooting_browser.py",
    "tests/confrontation/test_confrontation_terrain_browser.py",
    "tests/confrontation/test_confrontation_leap_browser.py",
    "tests/confrontation/test_confrontation_flight_browser.py",
    "tests/exillis/test_melee.py",
    "tests/exillis/test_cli_exillis.py",
    "tests/dragonnoir/test_dn_browser_place.py",
    "tests/dragonnoir/test_dn_browser.py",
    "tests/wartable/campaign/test_wartable_campaign_browser.py",
    "tests/wartable/test_wartable_engagement_browser.py",
    "tests/web/test_browser_keeper.py",
    "tests/web/test_browser_navigation.py",
    "tests/web/test_browser_whole.py",
    "tests/service/test_damaged_store.py",
    "tests/service/test_battle_cli.py",
    "tests/service/test_dice_cli.py",
    "tests/service/test_battle_service.py",
)
