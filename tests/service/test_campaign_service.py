"""Recording battles from musters in the campaign: BP to every unit, levels, players, once only."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection

from rulekeeper.core.ruleset import game as _game
from rulekeeper.persistence.campaign import AlreadyRecordedError, CampaignStore, CampaignUnit, Recording
from rulekeeper.persistence.store import BattleNotFoundError, BattleStore, StoreError
from rulekeeper.rulesets.exillis.battle.result import battle_points
from rulekeeper.rulesets.exillis.campaign_service import (
    CampaignMismatchError,
    NotFromMustersError,
    NotOverError,
    check_musters,
    muster_meta,
    record_battle,
)
from rulekeeper.rulesets.exillis.muster import Muster
from rulekeeper.rulesets.exillis.muster_battle import scenario_from_musters
from rulekeeper.rulesets.exillis.musters_data import load_musters_data
from rulekeeper.rulesets.exillis.pricing import ExIllisArmyRules
from rulekeeper.service.battles import BattleService

EXILLIS = _game("exillis")

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "examples" / "exillis" / "starter.yaml"


def U(unit: str, miniatures: int | None = None, level: int = 1, hero: str | None = None,
      hero_level: int | None = None, label: str = "") -> dict[str, Any]:
    """One muster entry in the file's shape."""
    d: dict[str, Any] = {"unit": unit, "level": level}
    for key, value in (("miniatures", miniatures), ("hero", hero), ("hero_level", hero_level), ("label", label)):
        if value:
            d[key] = value
    return d


def M(name: str, units: list[dict[str, Any]], game_type: str = "Common", general: str | None = None,
      faction: str | None = None) -> Muster:
    """A muster built as a muster file would be read."""
    doc: dict[str, Any] = {"name": name, "game_type": game_type, "units": units}
    if general:
        doc["general"] = general
    if faction:
        doc["faction"] = faction
    return Muster.from_dict(doc)


def entries(m: Muster) -> list[dict[str, Any]]:
    return [e.to_dict() for e in m.units]


# 4 units + 1 hero each: 1 BP per army, 2 BP for the game; 215 / 206 points at level 1.
WING = M("Broken Wing", [U("Billmen", 8, 1, "Decurion", 1), U("Longbowmen"), U("Arbalestiers"), U("Ympes")],
         general="Decurion", faction="Broken Wing")
BREC = M("Brec'Helean", [U("Vileins", hero="Marrenne", hero_level=1), U("Soffrances"), U("Franc Chevalers"),
                         U("Hobelars")], general="Marrenne", faction="Brec'Helean")
# The seed's example: "6 units and 2 Heroes (so 2 BP)" against "8 units and 2 Heroes (so 3 BP)".
SIX = M("Six", [U("Billmen", hero="Decurion", hero_level=1), U("Longbowmen", hero="Marrenne", hero_level=1),
                U("Arbalestiers"), U("Ympes"), U("Vileins"), U("Hobelars")], general="Decurion", faction="Broken Wing")
EIGHT = M("Eight", [U("Billmen", hero="Knight Baneret", hero_level=1),
                    U("Serjants", hero="Dismounted Baneret", hero_level=1), U("Vileins"), U("Arbalestiers"),
                    U("Hobelars"), U("Mendicum", 5), U("Vileins", 5), U("Billmen", 5)])


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "rk.db"


@pytest.fixture()
def svc(db: Path) -> Iterator[BattleService]:
    with BattleStore(db) as store:
        yield BattleService(store)


@pytest.fixture()
def camp(db: Path) -> Iterator[CampaignStore]:
    with CampaignStore(db) as store:
        yield store


def battle(svc: BattleService, a: M, b: M, *, size: tuple[int, int] = (5, 4), practice: bool = False,
           seed: int = 1, play: bool = True) -> str:
    sc = scenario_from_musters(a, b, *size, roster=EXILLIS.t.roster, rules=EXILLIS.t.rules)
    bid = svc.new(EXILLIS.setup_from_scenario(sc, seed, practice=practice,
                                              meta=muster_meta(a, b, EXILLIS.t.roster, load_musters_data())))
    if play:
        assert svc.autoplay(bid).over
    return bid


def levels(camp: CampaignStore) -> dict[tuple[str, str], tuple[int, int]]:
    return {(u.muster, u.slot): (u.level, u.bp) for u in camp.units()}


def everything(camp: CampaignStore) -> tuple[Any, ...]:
    return (camp.units(), camp.players(), camp.battles(), camp.musters())


# -- the award ------------------------------------------------------------------------------------


def test_the_seed_example_gives_5_bp_to_every_unit_of_both_armies(svc: BattleService, camp: CampaignStore) -> None:
    bid = battle(svc, SIX, EIGHT)
    rec = record_battle(svc, camp, bid)
    assert rec.bp == 5 and rec.note == ""
    assert rec.summary["sides"]["A"]["army_size"] == 8 and rec.summary["sides"]["A"]["army_bp"] == 2
    assert rec.summary["sides"]["B"]["army_size"] == 10 and rec.summary["sides"]["B"]["army_bp"] == 3
    assert battle_points(svc.state(bid)) == (5, "")  # the engine's result screen agrees
    units = camp.units()
    assert len(units) == 6 + 2 + 8 + 2
    # level 1 + 5 BP: 1 -> 2 (1), 2 -> 3 (2), 2 left -- for every unit, whatever became of it
    assert {(u.level, u.bp, u.bp_total, u.battles) for u in units} == {(3, 2, 5, 1)}
    statuses = {line["status"] for side in rec.summary["sides"].values() for line in side["units"]}
    assert statuses & {"destroyed", "fled"}, "somebody was destroyed or fled and still got BP"


def test_destroyed_units_still_earn_and_bp_carry_over_to_the_next_battle(svc: BattleService,
                                                                        camp: CampaignStore) -> None:
    first = record_battle(svc, camp, battle(svc, WING, BREC, seed=1))
    assert first.bp == 2
    assert set(levels(camp).values()) == {(2, 1)}          # 1 -> 2 costs 1, 1 left
    lost = [u for u in first.summary["sides"]["A"]["units"] + first.summary["sides"]["B"]["units"]
            if u["status"] == "destroyed"]
    assert lost and all(u["bp_received"] == 2 for u in lost)
    record_battle(svc, camp, battle(svc, WING, BREC, seed=2))
    assert set(levels(camp).values()) == {(3, 1)}          # 1 + 2 = 3: 2 -> 3 costs 2, 1 left
    assert {u.battles for u in camp.units()} == {2}


def test_players_level_and_renown(svc: BattleService, camp: CampaignStore) -> None:
    rec = record_battle(svc, camp, battle(svc, SIX, EIGHT), {"A": "Ann", "B": "Bob"})
    players = {p.name: p for p in camp.players()}
    # renown = the Player Level the battle was played at (1); then the 5 BP level the player 1 -> 3
    assert {(p.level, p.bp, p.bp_total, p.renown, p.battles) for p in players.values()} == {(3, 2, 5, 1, 1)}
    assert [p["renown_gained"] for p in rec.summary["players"]] == [1, 1]
    record_battle(svc, camp, battle(svc, SIX, EIGHT, seed=4), {"A": "Ann", "B": "Cy"})
    players = {p.name: p for p in camp.players()}
    assert players["Ann"].renown == 1 + 3 and players["Ann"].level == 5 and players["Ann"].battles == 2  # 2 + 5 = 3 + 4
    assert players["Cy"].renown == 1 and players["Bob"].battles == 1


def test_one_player_playing_both_sides_plays_one_battle(svc: BattleService, camp: CampaignStore) -> None:
    record_battle(svc, camp, battle(svc, WING, BREC), {"A": "Solo", "B": "Solo"})
    [p] = camp.players()
    assert (p.name, p.battles, p.renown, p.bp_total) == ("Solo", 1, 1, 2)


@pytest.mark.parametrize(("kind", "why"), [("practice", "practice"), ("board", "3 × 3"), ("gap", "15 %"),
                                           ("anything", "Anything Goes")])
def test_no_bp_but_the_battle_still_counts(svc: BattleService, camp: CampaignStore, kind: str, why: str) -> None:
    a, b = WING, BREC
    if kind == "gap":
        b = M(BREC.name, [*entries(BREC), U("Longbowmen")], general="Marrenne", faction="Brec'Helean")  # 266 v 215
    if kind == "anything":
        a = M(WING.name, entries(WING), game_type="Anything Goes", general="Decurion", faction="Broken Wing")
    bid = battle(svc, a, b, practice=kind == "practice", size=(3, 3) if kind == "board" else (5, 4))
    rec = record_battle(svc, camp, bid, {"A": "Ann"})
    assert rec.bp == 0 and why in rec.note
    assert {(u.level, u.bp, u.battles) for u in camp.units()} == {(1, 0, 1)}
    ann = next(p for p in camp.players() if p.name == "Ann")
    assert (ann.level, ann.renown, ann.battles) == (1, 1, 1)   # "each battle played awards ... Renown Points"


def test_the_15_percent_gap_is_measured_on_the_muster_points(svc: BattleService, camp: CampaignStore) -> None:
    """Shortage makes an all-archer muster cost 321 points for 248 of basic cost: against a balanced 262 the
    armies are 5 % apart in basic cost but 18 % apart in what the musters cost -- no BP."""
    archers = M("Archers", [U("Longbowmen"), U("Longbowmen"), U("Arbalestiers"), U("Arbalestiers"), U("Longbowmen")])
    mix = M("Mix", [U("Billmen"), U("Longbowmen"), U("Arbalestiers"), U("Hobelars"), U("Billmen"), U("Serjants")])
    pricing = ExIllisArmyRules(EXILLIS.t.roster, load_musters_data())
    assert [pricing.report(m.to_army_list()).total for m in (archers, mix)] == [321, 262]
    bid = battle(svc, archers, mix)
    assert battle_points(svc.state(bid)) == (2, "")    # the engine's basic-cost reading would award 2
    rec = record_battle(svc, camp, bid)
    assert rec.bp == 0 and "321 vs 262" in rec.note
    assert rec.summary["sides"]["A"]["points"] == 321 and rec.summary["sides"]["A"]["basic_points"] == 248


def test_a_unit_at_its_maximum_level_stops_receiving_bp(svc: BattleService, camp: CampaignStore) -> None:
    capped = M("Capped", [U("Billmen", 8, 30, "Decurion", 39), U("Longbowmen", level=34, label="Old guard"),
                          U("Arbalestiers", level=30), U("Ympes", level=30)], game_type="Legendary")
    rival = M("Rival", [U("Vileins", level=30, hero="Marrenne", hero_level=30), U("Soffrances", level=30),
                        U("Franc Chevalers", level=30), U("Hobelars", level=30), U("Vileins", level=30)],
              game_type="Legendary")
    rec = record_battle(svc, camp, battle(svc, capped, rival))
    assert rec.bp == 2, rec.note
    got = {u.slot: (u.level, u.bp, u.skill_points, u.bp_total) for u in camp.units("Capped")}
    assert got["#1"] == (30, 0, 6, 0)                # Billmen, maximum 30: "stops receiving BP"
    assert got["hero:Decurion"] == (39, 2, 7, 2)     # maximum 40: keeps earning
    assert got["#2"] == (34, 2, 6, 2)
    line = rec.summary["sides"]["A"]["units"][0]
    assert (line["bp_received"], line["bp_to_next"]) == (0, None)
    assert next(u for u in camp.units("Capped") if u.slot == "#2").label == "Old guard"


def test_named_characters_are_set_in_time(svc: BattleService, camp: CampaignStore) -> None:
    scots = M("Scots", [U("Billmen", hero="William Wallace", hero_level=1), U("Longbowmen"), U("Arbalestiers"),
                        U("Ympes")], general="William Wallace")
    rec = record_battle(svc, camp, battle(svc, scots, BREC))
    wallace = next(u for u in camp.units("Scots") if u.kind == "hero")
    assert wallace.named and (wallace.level, wallace.bp, wallace.skill_points) == (40, 0, 0)
    assert wallace.battles == 1
    line = next(x for x in rec.summary["sides"]["A"]["units"] if x["unit"] == "William Wallace")
    assert line["bp_received"] == 0 and line["bp_to_next"] is None


# -- refusals ---------------------------------------------------------------------------------------


def test_recording_twice_is_refused_and_changes_nothing(svc: BattleService, camp: CampaignStore) -> None:
    bid = battle(svc, WING, BREC)
    record_battle(svc, camp, bid)
    before = everything(camp)
    with pytest.raises(AlreadyRecordedError, match="already recorded") as err:
        record_battle(svc, camp, bid, {"A": "Someone else"})
    assert err.value.code == "already_recorded"
    assert everything(camp) == before


def test_a_battle_not_over_is_refused(svc: BattleService, camp: CampaignStore) -> None:
    bid = battle(svc, WING, BREC, play=False)
    with pytest.raises(NotOverError, match="not over yet") as err:
        record_battle(svc, camp, bid)
    assert err.value.code == "battle_not_over" and everything(camp) == ([], [], [], [])
    svc.autoplay(bid)
    assert record_battle(svc, camp, bid).bp == 2      # and once over, it records


def test_a_battle_from_a_scenario_file_is_refused(svc: BattleService, camp: CampaignStore) -> None:
    bid = svc.new(STARTER, 3)
    svc.autoplay(bid)
    with pytest.raises(NotFromMustersError, match="not created from musters") as err:
        record_battle(svc, camp, bid)
    assert err.value.code == "not_from_musters" and everything(camp) == ([], [], [], [])


def test_an_unknown_battle_is_refused(svc: BattleService, camp: CampaignStore) -> None:
    with pytest.raises(BattleNotFoundError):
        record_battle(svc, camp, "b-nope")


def test_a_muster_whose_entries_moved_is_refused(svc: BattleService, camp: CampaignStore) -> None:
    record_battle(svc, camp, battle(svc, WING, BREC))
    e = entries(WING)
    swapped = M(WING.name, [e[0], e[2], e[1], e[3]], general="Decurion", faction="Broken Wing")
    with pytest.raises(CampaignMismatchError, match="entry 2 is Arbalestiers but the campaign holds Longbowmen"):
        check_musters(camp, [swapped], EXILLIS.t.roster)
    bid = battle(svc, swapped, BREC)                   # set up behind the check's back
    before = everything(camp)
    with pytest.raises(CampaignMismatchError):
        record_battle(svc, camp, bid)
    assert everything(camp) == before


def test_a_unit_cannot_play_above_the_level_it_reached(svc: BattleService, camp: CampaignStore) -> None:
    record_battle(svc, camp, battle(svc, WING, BREC))  # everyone level 2 now
    check_musters(camp, [WING], EXILLIS.t.roster)          # demoted (level 1) is fine
    e = entries(WING)
    promoted = M(WING.name, [e[0] | {"level": 2, "hero_level": 3}, *e[1:]], general="Decurion")
    with pytest.raises(CampaignMismatchError, match="Decurion has reached level 2") as err:
        check_musters(camp, [promoted], EXILLIS.t.roster)
    assert len(err.value.details["problems"]) == 1     # the Billmen at 2 are fine
    new_entry = M(WING.name, [*e, U("Vileins", level=7)])
    check_musters(camp, [new_entry], EXILLIS.t.roster)     # a new entry starts where its muster says


# -- one transaction ---------------------------------------------------------------------------------


def test_a_failed_commit_leaves_the_campaign_untouched(svc: BattleService, db: Path) -> None:
    bid = battle(svc, WING, BREC)

    class Failing(CampaignStore):
        def _commit(self, conn: Connection) -> None:
            if self._opened:  # the tables are created; fail the record's commit
                raise OSError("disk full")
            super()._commit(conn)

    with Failing(db) as bad, pytest.raises(OSError):
        record_battle(svc, bad, bid)
    with CampaignStore(db) as camp:
        assert everything(camp) == ([], [], [], [])
        assert record_battle(svc, camp, bid).bp == 2    # nothing half-written: it records now


def test_an_error_while_planning_rolls_everything_back(svc: BattleService, camp: CampaignStore) -> None:
    bid = battle(svc, WING, BREC)
    camp.save_muster("Broken Wing", {"name": "Broken Wing", "units": []})
    # a unit row with an impossible level makes the write refuse half-way through the units
    bad = CampaignUnit("Brec'Helean", "#2", "unit", 2, "Soffrances", level=1, bp=0, max_level=30)
    with pytest.raises(StoreError, match="level"):
        camp.record(bid, lambda view: Recording(
            bp=2, note="", units=(replace(bad, level=3, muster="Broken Wing", slot="#1", unit="Billmen"),
                                  replace(bad, level=99)), musters={"Broken Wing": {"changed": True}}),
                    musters=["Broken Wing"], players=[])
    assert everything(camp)[0] == [] and camp.recorded(bid) is None
    assert camp.muster("Broken Wing") is not None and camp.muster("Broken Wing").document["units"] == []  # type: ignore[union-attr]


def test_two_recorders_at_once_record_the_battle_once(svc: BattleService, db: Path) -> None:
    bid = battle(svc, WING, BREC)
    results: list[str] = []

    def go() -> None:
        with BattleStore(db) as bs, CampaignStore(db) as cs:
            try:
                record_battle(BattleService(bs), cs, bid)
                results.append("recorded")
            except AlreadyRecordedError:
                results.append("refused")

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["recorded", "refused", "refused", "refused"]
    with CampaignStore(db) as camp:
        assert {u.battles for u in camp.units()} == {1} and len(camp.battles()) == 1


def test_the_campaign_lives_in_the_battle_database(svc: BattleService, camp: CampaignStore, db: Path) -> None:
    import sqlite3

    record_battle(svc, camp, battle(svc, WING, BREC))
    names = {r[0] for r in sqlite3.connect(db).execute("select name from sqlite_master where type='table'")}
    assert {"rk_battles", "rk_log", "rk_muster_musters", "rk_campaign_units", "rk_campaign_players",
            "rk_campaign_battles", "rk_campaign_meta"} <= names
    assert [m.name for m in camp.musters()] == ["Brec'Helean", "Broken Wing"]
    assert camp.muster("Broken Wing").document == WING.to_dict()  # type: ignore[union-attr]
