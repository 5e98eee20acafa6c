"""The combat report's JSON form, typed: what :meth:`.report.CombatReport.to_dict` writes and the log keeps.

Why typed records and not dicts of anything: the same JSON is drawn again from a stored battle's log
(:func:`.attack_log.combat_from_items`, checked against these shapes by pydantic), rendered by :mod:`.render` and
summed up by the campaign, so each reader knows every key it reads. Numbers are the report's
(:func:`.rounding.num`: ``86``, ``16.5``); each of the six steps carries its own kind of row, told
apart by its ``step`` number.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict  # pydantic checks a TypedDict only from here before Python 3.12

from .model import SideName

Num = int | float


class CombatantRow(TypedDict):
    unit: str
    profile: str
    side: SideName
    traits: list[str]
    marks: list[str]
    curses: list[str]
    health: Num


class AppliedRow(TypedDict):
    name: str
    source: str
    key: str
    amount: Num
    estimate: bool


class StatTotalRow(TypedDict):
    base: Num
    modifiers: list[AppliedRow]
    raw: Num
    total: Num
    arithmetic: str


class TotalsRow(TypedDict):
    unit: str
    side: SideName
    health: StatTotalRow
    attack: StatTotalRow
    defense: StatTotalRow


class HitsRow(TypedDict):
    unit: str
    side: SideName
    health: Num
    attack: Num
    exact: Num
    hits: Num
    arithmetic: str


class DealtRow(TypedDict):
    unit: str
    hits: Num


class AllocationRow(TypedDict):
    side: SideName
    dealt_by: list[DealtRow]
    total_hits: Num
    targets: list[str]
    share: Num
    per_unit: Num
    arithmetic: str


class BlockRow(TypedDict):
    unit: str
    side: SideName
    allocated: Num
    defense: Num
    blocked_exact: Num
    blocked: Num
    unblocked_exact: Num
    unblocked: Num
    reading: str
    arithmetic: str


class HealthRow(TypedDict):
    unit: str
    side: SideName
    before: Num
    unblocked: Num
    after: Num
    destroyed: bool
    arithmetic: str


class Step1(TypedDict):
    step: Literal[1]
    title: str
    rows: list[CombatantRow]


class Step2(TypedDict):
    step: Literal[2]
    title: str
    rows: list[TotalsRow]


class Step3(TypedDict):
    step: Literal[3]
    title: str
    rows: list[HitsRow]


class Step4(TypedDict):
    step: Literal[4]
    title: str
    rows: list[AllocationRow]


class Step5(TypedDict):
    step: Literal[5]
    title: str
    rows: list[BlockRow]


class Step6(TypedDict):
    step: Literal[6]
    title: str
    rows: list[HealthRow]


StepJson = Step1 | Step2 | Step3 | Step4 | Step5 | Step6


class StabilityEffectJson(TypedDict):
    rule: str
    unit: str | None
    delta: Num | None
    sets_to: Num | None
    arithmetic: str
    quote: str


class StabilityJson(TypedDict):
    enclave: str
    side: SideName
    before: Num | None
    after: Num | None
    total_delta: Num
    fallen: bool
    effects: list[StabilityEffectJson]
    notes: list[str]


class CombatReportJson(TypedDict):
    ruleset: str
    kind: str
    title: str | None
    action: str
    region_traits: list[str]
    options: dict[str, str]
    excluded: list[str]
    steps: list[StepJson]
    result: dict[str, Num]
    stability: StabilityJson | None
    notes: list[str]
