"""Confrontation Evo as a registered ruleset (``rulekeeper odds|resolve|units confrontation``, ``battle``).

It implements the calculator protocol (:class:`rulekeeper.core.ruleset.Ruleset`): options,
roster, a sample resolution drawn through fate; and, through :class:`~.game.SkirmishGame`, the game
protocol (:class:`rulekeeper.core.game.Game`): whole skirmishes on a table measured in cm.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, TypedDict

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import ImpossibleRequestError, UnknownNameError
from rulekeeper.core.ruleset import OptionInfo, Resolution

from .abilities import ABILITIES, shape_of
from .cards import CHARACTERISTICS, shipped_fighter, shipped_warbands
from .duel import Duel, Report, resolve
from .effects import TESTED
from .fighters import Combatant
from .game import SkirmishGame
from .odds import _how
from .rolls import odds_of_test, succeeds
from .wounds import load_wound_table

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks

OPTIONS = [
    OptionInfo("ephemeral_vs_regeneration", "cancel", ("cancel", "ephemeral-wins"),
               "Regeneration \"cancels out Ephemeral\" (default: neither rolls) or Ephemeral's \"In no way can a "
               "fighter with this ability benefit from Regeneration\" (Ephemeral rolls alone)."),
    OptionInfo("move_steps", "2.5", ("2.5", "free"),
               "Third-edition rules: \"movement in cm in 2.5 cm steps\" (default: a walk is a whole number of 2.5 cm "
               "steps) or walks of any length to the millimetre (a battle stored before the rule reads this way)."),
    OptionInfo("authority_tokens", "combat", ("combat", "discarded"),
               "Authority's tokens \"can be used at the beginning of the Combat Phase\" to split a fray (default: kept "
               "until then) or \"All unused tokens are discarded at the end of the activation phase\" first (no split "
               "with a token)."),
    OptionInfo("placement", "players", ("players", "keeper"),
               "After a fight's INI tests \"the winner of the roll places their combat dice … after the loser\": each "
               "player places his fighters' dice (default: one choice a fighter, the keeper's placement proposed) or "
               "the keeper places them all by its policy, the fight one action (a battle stored before the choice "
               "reads this way)."),
    OptionInfo("declarations", "players", ("players", "keeper"),
               "The active abilities the players use: War fury, Sequence/X and Resolute/X declared before a fight's "
               "INI test, Resolute/X on a COU test (charging, charged, rallying), Rallying cry, Additional limb and a Fencer's reserve die announced after it, whom Cure/X cures, and the "
               "opponent's choice on a routed fighter's Rapidity (default: one choice each, the keeper's proposal "
               "first) or the keeper uses them by its policy (a battle stored before the choice reads this way)."),
]


class AbilityEffect(TypedDict):
    """What one ability does to the test, as ``odds confrontation test --json`` prints it."""

    ability: str
    effect: str


class FinalOdds(TypedDict):
    """One final result of the test: its probability as a float and as an exact fraction."""

    final: int
    natural_fail: bool
    p: float
    exact: str


class OddsOfTestJson(TypedDict):
    """:meth:`TestOdds.to_dict`: the JSON of ``odds confrontation test --json`` (key order kept)."""

    ruleset: str
    test: str
    characteristic: int
    difficulty: int | None
    abilities: list[AbilityEffect]
    how: list[str]
    success: float | None
    success_exact: str | None
    finals: list[FinalOdds]
    method: str


@dataclass(frozen=True)
class TestOdds:
    """The exact odds of one test: how it is rolled, what each ability did, P(success), final results."""

    __test__ = False

    test: str
    characteristic: int
    difficulty: int | None
    abilities: tuple[tuple[str, str], ...]
    how: tuple[str, ...]
    finals: tuple[tuple[int, bool, Fraction], ...]  # final result, natural fail, probability
    success: Fraction | None

    def to_dict(self) -> OddsOfTestJson:
        return {
            "ruleset": "confrontation", "test": self.test, "characteristic": self.characteristic,
            "difficulty": self.difficulty, "abilities": [{"ability": a, "effect": e} for a, e in self.abilities],
            "how": list(self.how), "success": None if self.success is None else float(self.success),
            "success_exact": None if self.success is None else str(self.success),
            "finals": [{"final": f, "natural_fail": nf, "p": float(p), "exact": str(p)} for f, nf, p in self.finals],
            "method": "exact",
        }


def _effect(test: str, written: str) -> str:
    name = written.partition("/")[0].strip()
    ability = ABILITIES[name]
    if shape_of(test, [written]) == shape_of(test, []):
        return f"does not touch a {test} test ({ability.category} ability)"
    alone = shape_of(test, [written])
    parts = []
    if alone.opens != frozenset({6}):
        parts.append("opens on " + (", ".join(map(str, sorted(alone.opens))) or "nothing"))
    if not alone.negative_opening:
        parts.append("a 1 is not opened negatively")
    if alone.dice == 2:
        parts.append(f"2d6 keep the {'lowest' if alone.keep_lowest else 'highest'}")
    if alone.natural_bonus:
        parts.append(f"{alone.natural_bonus:+d} to the natural result")
    if alone.modifier:
        parts.append(f"{alone.modifier:+d} to the characteristic/final result")
    if alone.re_roll:
        parts.append("one re-roll when it fails")
    facing = " (read as: he faces a Dreadful opponent)" if name == "Dreadful" else ""
    return "; ".join(parts) + facing + (f" (not yet: {ability.partial})" if ability.partial else "")


def named_test_odds(test: str, characteristic: int, difficulty: int | None, abilities: list[str]) -> TestOdds:
    """The exact odds of a test; unknown test or ability names are typed errors."""
    test = test.strip().upper()
    if test not in TESTED:
        raise UnknownNameError("Confrontation test", test, TESTED)
    if not -20 <= characteristic <= 30 or (difficulty is not None and not -20 <= difficulty <= 60):
        raise ImpossibleRequestError("characteristic must be -20..30 and difficulty -20..60", field="characteristic")
    for written in abilities:
        name = written.partition("/")[0].strip()
        if name not in ABILITIES:
            raise UnknownNameError("implemented Confrontation ability", name, ABILITIES)
    try:
        shape = shape_of(test, abilities)
    except ValueError as exc:  # a numeric X missing (Resolute/X)
        raise ImpossibleRequestError(str(exc), field="abilities") from None
    dist = odds_of_test(shape, characteristic, difficulty)
    finals = tuple((n + characteristic + shape.modifier, n <= 1, p) for n, p in dist.items())
    success = None if difficulty is None else sum(
        (p for n, p in dist.items() if succeeds(n, characteristic, shape, difficulty)), Fraction(0))
    return TestOdds(test, characteristic, difficulty, tuple((a, _effect(test, a)) for a in abilities),
                    tuple(_how(shape)), finals, success)


class Confrontation(SkirmishGame):
    """Confrontation Evo: tests with opened results, abilities as effects, duels with exact odds, skirmishes."""

    name: ClassVar[str] = "confrontation"
    aliases: ClassVar[tuple[str, ...]] = ("confrontation evo", "conf", "cfe")
    title: ClassVar[str] = "Confrontation Evo"
    deterministic: ClassVar[bool] = False
    #: draws whose preview the conformance test must have compared with the roll (never vacuous)
    previewed_draws: ClassVar[tuple[str, ...]] = ("INI test", "AIM test", "Tactical roll")

    def options(self) -> list[OptionInfo]:
        return list(OPTIONS)

    def roster(self) -> list[dict[str, Any]]:
        """Every shipped example fighter (estimated characteristics), flat and JSON-able."""
        out: list[dict[str, Any]] = []
        for band in shipped_warbands():
            for f in band.fighters:
                row: dict[str, Any] = {"name": f.name, "warband": band.warband, "example": band.example,
                                       "size": f.size, "character": f.character, "cost": f.cost}
                row.update({c: v for c, v in f.characteristics().items() if v is not None})
                row["HP"] = f.HP
                row["abilities"] = ", ".join(f.abilities)
                row["estimated"] = ", ".join(c for c in (*CHARACTERISTICS, "HP") if c in f.estimated)
                out.append(row)
        return out

    def register_cli(self, hooks: CliHooks) -> None:
        """``odds confrontation test|combat``, ``resolve confrontation combat``, ``units confrontation``."""
        from .cli import register

        register(hooks)

    def sample_resolution(self, fate: Fate) -> Resolution:
        """One combat between two shipped example fighters, every die drawn through ``fate``."""
        duel = Duel(Combatant(shipped_fighter("Alahan paladin")), Combatant(shipped_fighter("Wolfen predator")),
                    load_wound_table())
        report = Report()
        resolve(fate, duel, report)
        summary = {"fighters": [duel.a.name, duel.b.name], "initiative": report.initiative,
                   "placement": report.placement, "blows": report.blows, "end": list(report.end)}
        return Resolution(ruleset=self.name, kind="combat", summary=summary, chance=fate.record_dicts())
