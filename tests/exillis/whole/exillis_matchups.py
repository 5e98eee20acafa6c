"""The Ex illis positions the whole-action odds are checked on (not a test module).

Each builds a reachable battle position and names the action to preview: charges (front, flank,
rear, into a zone of several units), fights, volleys (into a melee: friendly fire), wounded and
tired units. Units are kept small so that the seeded Monte Carlo of ``apply`` stays quick.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from exillis_battle_kit import act, battle, do, nobody_acts, setc, unit

from rulekeeper.rulesets.exillis.battle.state import BattleState


@dataclass(frozen=True)
class Matchup:
    name: str
    build: Callable[[], BattleState]
    kind: str
    unit: str
    target: str | None = None
    option: str | None = None
    #: plays of ``apply`` the agreement test compares with (more where the error it must catch is smaller)
    plays: int = 120


def _two(a: str, za: str, na: int, b: str, zb: str, nb: int, **kw: object) -> Callable[[], BattleState]:
    return lambda: act(battle([unit(a, za, miniatures=na)], [unit(b, zb, miniatures=nb)], terrain={}), f"A:{a}")


def _engaged_then(charger: str, zc: str, n: int) -> Callable[[], BattleState]:
    """Billmen charge Vileins in C2 from the front (B2), then ``charger`` from ``zc`` joins the melee."""
    def build() -> BattleState:
        s = battle([unit("Billmen", "B2", miniatures=3), unit(charger, zc, miniatures=n)],
                   [unit("Vileins", "C2", miniatures=5)], terrain={})
        s = nobody_acts(act(s, "A:Billmen"))
        s = do(s, "charge", "A:Billmen", "C2").state
        return act(nobody_acts(s), f"A:{charger}")
    return build


def _wounded(build: Callable[[], BattleState], key: str, hp: tuple[float, ...]) -> Callable[[], BattleState]:
    return lambda: setc(build(), key, hp=hp)


def _tired(build: Callable[[], BattleState], key: str, fatigue: float) -> Callable[[], BattleState]:
    return lambda: setc(build(), key, fatigue=fatigue)


def _crowd() -> BattleState:
    s = battle([unit("Franc Chevalers", "B2", miniatures=2)],
               [unit("Vileins", "C2", miniatures=3), unit("Soffrances", "C2", miniatures=1)], terrain={})
    return act(s, "A:Franc Chevalers")


def _with_hero(a: str, za: str, na: int, hero: str, b: str, zb: str, nb: int) -> Callable[[], BattleState]:
    """``a`` led by ``hero`` (a group: each member strikes its own round in turn, wounds carried between them)."""
    return lambda: act(battle([unit(a, za, miniatures=na, hero=hero)], [unit(b, zb, miniatures=nb)], terrain={}),
                       f"A:{a}")


def _into_melee() -> BattleState:
    s = battle([unit("Billmen", "C2", miniatures=3), unit("Longbowmen", "B2", miniatures=3)],
               [unit("Vileins", "C2", miniatures=4)], terrain={})
    return act(s, "A:Longbowmen")


def _lightning_into_melee() -> BattleState:
    """Ympes throw lightning into a melee of Billmen (medium armour: twice the pull) and Vileins: friendly fire."""
    s = battle([unit("Billmen", "C2", miniatures=2), unit("Ympes", "B2", miniatures=4)],
               [unit("Vileins", "C2", miniatures=3)], terrain={})
    return act(s, "A:Ympes")


def _equal_priority() -> BattleState:
    """Hobelars (CP 4) charge wounded Billmen in a defensive stance (RP 3 + 1): a reaction of equal priority, half
    the time; the Billmen the charge cuts down still strike back (the casualties are removed after both rounds)."""
    s = battle([unit("Hobelars", "B2", miniatures=3)], [unit("Billmen", "C2", miniatures=4)], terrain={})
    s = setc(s, "B:Billmen", stance="defensive", hp=(20.0, 20.0, 20.0, 20.0))
    return act(s, "A:Hobelars")


MATCHUPS = [
    Matchup("knights charge peasants", _two("Franc Chevalers", "B2", 2, "Vileins", "C2", 4), "charge", "A:Franc Chevalers", "C2"),
    Matchup("billmen fight peasants", _two("Billmen", "C2", 4, "Vileins", "C2", 4), "fight", "A:Billmen"),
    Matchup("peasants fight billmen", _two("Vileins", "C2", 5, "Billmen", "C2", 3), "fight", "A:Vileins"),
    Matchup("serjants fight ympes", _two("Serjants (Sword)", "C2", 3, "Ympes", "C2", 4), "fight", "A:Serjants (Sword)"),
    Matchup("ympes fight serjants", _two("Ympes", "C2", 4, "Serjants (Sword)", "C2", 2), "fight", "A:Ympes"),
    Matchup("knights fight soffrances", _two("Franc Chevalers", "C2", 2, "Soffrances", "C2", 1), "fight", "A:Franc Chevalers"),
    Matchup("arbalestiers fight billmen", _two("Arbalestiers", "C2", 3, "Billmen", "C2", 3), "fight", "A:Arbalestiers"),
    Matchup("flank charge", _engaged_then("Hobelars", "C1", 2), "charge", "A:Hobelars", "C2"),
    Matchup("rear charge", _engaged_then("Franc Chevalers", "D2", 1), "charge", "A:Franc Chevalers", "C2"),
    Matchup("charge into a crowded zone", _crowd, "charge", "A:Franc Chevalers", "C2"),
    Matchup("wounded billmen fight", _wounded(_two("Billmen", "C2", 3, "Vileins", "C2", 4), "A:Billmen",
                                               (50.0, 9.0, 30.0)), "fight", "A:Billmen"),
    Matchup("fight wounded peasants", _wounded(_two("Billmen", "C2", 3, "Vileins", "C2", 4), "B:Vileins",
                                               (45.0, 12.0, 3.0, 45.0)), "fight", "A:Billmen"),
    Matchup("tired serjants fight", _tired(_two("Serjants (Spear)", "C2", 3, "Vileins", "C2", 4),
                                           "A:Serjants (Spear)", 9.0), "fight", "A:Serjants (Spear)"),
    Matchup("longbow volley", _two("Longbowmen", "B2", 4, "Vileins", "C2", 4), "shoot", "A:Longbowmen", "C2", "shot"),
    Matchup("crossbow volley", _two("Arbalestiers", "B2", 3, "Billmen", "C2", 3), "shoot", "A:Arbalestiers", "C2", "shot"),
    Matchup("volley fire", _two("Longbowmen", "B2", 3, "Vileins", "C2", 4), "shoot", "A:Longbowmen", "C2",
            "volley_fire"),
    Matchup("swift shot", _two("Longbowmen", "B2", 2, "Ympes", "C2", 3), "shoot", "A:Longbowmen", "C2", "swift_shot"),
    Matchup("volley into a melee", _into_melee, "shoot", "A:Longbowmen", "C2", "shot"),
    Matchup("volley at shielded knights", _two("Longbowmen", "B2", 4, "Franc Chevalers", "C2", 2), "shoot",
            "A:Longbowmen", "C2", "shot"),
    Matchup("wounded knights shot", _wounded(_two("Longbowmen", "B2", 3, "Franc Chevalers", "C2", 2),
                                             "B:Franc Chevalers", (20.0, 70.0)), "shoot", "A:Longbowmen", "C2", "shot"),
    # a long action: the volley it will shoot when its time comes (the agreement test resolves it as the engine does)
    Matchup("aimed volley resolved later", _wounded(_two("Longbowmen", "B2", 4, "Vileins", "C2", 2), "B:Vileins",
                                                     (9.0, 9.0)), "shoot", "A:Longbowmen", "C2", "aim",
            400),  # 400: a plain shot's odds instead of Aim's (P(2 killed) 0.59 against 0.73) fail it
    # lightning's own draws: Bulk × Armour, cover, the resist roll, friendly fire
    Matchup("lightning bolts", _two("Ympes", "B2", 4, "Vileins", "C2", 3), "shoot", "A:Ympes", "C2", "lightning"),
    Matchup("lightning into a melee", _lightning_into_melee, "shoot", "A:Ympes", "C2", "lightning",
            plays=400),  # 400: a Luck without its × 1.5 (P(none killed) 0.68 against 0.59) fails it
    # actions of several rounds, each finding the zone as the one before left it (wounds, casualties, morale)
    Matchup("group fight of a hero and retinue", _with_hero("Billmen", "C2", 2, "Dismounted Baneret", "Vileins", "C2", 3),
            "fight", "A:Billmen"),
    Matchup("charge meets a reaction striking first", _two("Serjants (Sword)", "B2", 2, "Serjants (Spear)", "C2", 3),
            "charge", "A:Serjants (Sword)", "C2"),
    Matchup("charge meets a reaction striking after", _two("Franc Chevalers", "B2", 2, "Serjants (Spear)", "C2", 3),
            "charge", "A:Franc Chevalers", "C2"),
    Matchup("group charge meets a reaction", _with_hero("Billmen", "B2", 2, "Dismounted Baneret", "Serjants (Spear)",
                                                         "C2", 3), "charge", "A:Billmen", "C2"),
]

#: A charge met by a reaction of equal priority (CP 1 against RP 1): the simultaneous exchange, always sampled whole.
SIMULTANEOUS = [Matchup("simultaneous exchange at equal priority", _equal_priority, "charge", "A:Hobelars", "C2")]
MATCHUPS += SIMULTANEOUS

#: The matchups of several rounds (a group's fight, a charge that meets reactions): sampled whole when too big.
SEVERAL_ROUNDS = [m for m in MATCHUPS if m.name.startswith(("group ", "charge meets"))]
