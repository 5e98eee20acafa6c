"""Starting a stored campaign: a campaign file checked whole, its options, its tables, its seed.

The stored initial document is the state's own JSON in full (:func:`.session.state_json`): the map,
the units with their whole profiles, every Dungeon's table with its entries, the options and the
RNG seeded from the request, so the campaign replays identically even if the shipped files change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulekeeper.core.errors import DataFileError, RulekeeperError, UnknownNameError
from rulekeeper.core.game import BattleSetup, SetupRequest
from rulekeeper.core.rng import RngState
from rulekeeper.core.ruleset import OptionInfo

from ..codec import fields_of
from ..data import read_mapping
from ..model import OPTION_INFO, WarTableOptions, parse_option_pairs, parse_options
from .files import parse_campaign, table_for
from .given import load_all, match_given
from .model import CampaignOptions
from .session import NAME, CampaignGameState, side_key, snapshot, state_json
from .tables import RollTable

#: How many rounds a campaign file without ``rounds:`` lasts.
DEFAULT_ROUNDS = 3

CAMPAIGN_OPTIONS: tuple[OptionInfo, ...] = (
    OptionInfo("reclaim_fallen", "lifts", ("lifts", "stays"),
               "Reclaim on a Fallen Enclave. lifts: it stands again at 20 ('strengthened or renewed'). stays: a "
               "Fallen Enclave cannot be Reclaimed."),
    OptionInfo("stability_cap", "full", ("full", "none"),
               "full: no rise takes Stability above the Enclave's full value. none: rises are not capped."),
    OptionInfo("fallen_on", "any_order", ("any_order", "action"),
               "'without any defenders present when it takes an action'. any_order: holding is an action too. "
               "action: a hostile unit that holds does not make the Enclave fall."),
    OptionInfo("zero_stability", "falls", ("falls", "stands"),
               "An Enclave whose Stability a penalty brings to 0. falls: it is Fallen (as after a direct attack). "
               "stands: only a direct attack makes it Fallen."),
    OptionInfo("victory", "enclaves", ("enclaves", "none"),
               "Who wins after the last round (estimated: the seed has none). enclaves: the holders if at least "
               "half their Enclaves stand, else the one faction holding none. none: no winner."),
    OptionInfo("downtime_every", "1", ("1", "2", "3", "4"),
               "A round of Downtime closes every N-th round (the seed does not say how often; any N >= 1)."),
    OptionInfo("move_range", "1", ("1", "2", "3"),
               "How many borders a move order may cross (the seed gives no range; any N >= 1)."),
    OptionInfo("faith_cost", "1", ("0", "1", "2", "3"),
               "Faith spent to restore an Enclave to full (the seed's 'Faith under Resources' is lost; any N >= 0)."),
)
_CHOICES = {o.name: o.choices for o in CAMPAIGN_OPTIONS[:5]}


class CampaignSetupError(RulekeeperError):
    code = "impossible_request"


def _whole(name: str, value: str, low: int) -> int:
    try:
        n = int(value)
    except ValueError:
        raise RulekeeperError(f"option {name}: expected a whole number >= {low}, got {value!r}") from None
    if n < low:
        raise RulekeeperError(f"option {name}: expected a whole number >= {low}, got {value!r}")
    return n


def campaign_options(values: Mapping[str, object]) -> tuple[CampaignOptions, WarTableOptions]:
    """Campaign options and battle options from one ``NAME -> VALUE`` mapping (names routed by kind)."""
    camp: dict[str, Any] = {}
    battle: dict[str, str] = {}
    battle_names = {o.name for o in OPTION_INFO}
    for raw_name, raw_value in values.items():
        name, value = raw_name.strip().lower().replace("-", "_"), str(raw_value).strip().lower()
        if name in _CHOICES:
            if value.replace("-", "_") not in _CHOICES[name]:
                raise UnknownNameError(f"value for option {name}", value, _CHOICES[name])
            camp[name] = value.replace("-", "_")
        elif name in ("downtime_every", "move_range"):
            camp[name] = _whole(name, value, 1)
        elif name == "faith_cost":
            camp[name] = Fraction(_whole(name, value, 0))
        elif name in battle_names:
            battle[name] = value
        else:
            raise UnknownNameError("War Table campaign option", raw_name,
                                   [o.name for o in (*CAMPAIGN_OPTIONS, *OPTION_INFO)])
    return CampaignOptions(**camp), parse_options(battle)


def setup_campaign(request: SetupRequest) -> BattleSetup:
    """A campaign file (``request.scenario``): every problem in one :class:`DataFileError`.

    ``request.data``: the game master's own tables (:mod:`.given`), each checked whole before the
    campaign file; the Dungeons that roll on them get them, stored in the initial document.
    """
    if request.armies or request.board is not None or request.scenario is None:
        raise CampaignSetupError("a War Table campaign starts from a campaign file: rulekeeper battle new "
                                 "examples/wartable/shroudfall.yaml")
    path = Path(request.scenario)
    where = str(path)
    given = load_all(request.data)
    raw = read_mapping(path)
    campaign = parse_campaign(raw, where, path.parent, given)
    own = match_given(given, [d.table for d in campaign.dungeons], campaign.name)
    problems: list[str] = []
    values: dict[str, object] = dict(fields_of(raw.get("options") or {}, f"{where}: options"))
    try:
        values.update(parse_option_pairs(list(request.options)))
        options, battle_options = campaign_options(values)
    except RulekeeperError as exc:
        problems.append(f"options: {exc.message}")
        options, battle_options = CampaignOptions(), WarTableOptions()
    sides = tuple((side_key(f.name), f.name) for f in campaign.factions)
    if len({k for k, _ in sides}) != len(sides):
        problems.append("factions: two factions' names give the same side key")
    if len(sides) < 2:
        problems.append("factions: a campaign needs at least two factions (each is a side)")
    tables: list[tuple[str, RollTable]] = []
    for d in campaign.dungeons:
        if d.table not in dict(tables):
            tables.append((d.table, own.get(d.table) or table_for(d.table, path.parent)))
    if problems:
        raise DataFileError(where, problems)
    rounds = raw.get("rounds") or DEFAULT_ROUNDS  # a whole number: the campaign file's schema checked it
    if not isinstance(rounds, (int, str, float)):
        raise DataFileError(where, [f"rounds: expected a whole number, got {rounds!r}"])
    state = CampaignGameState(campaign, RngState.from_seed(request.seed), options, battle_options, tuple(tables),
                              campaign.round + int(rounds) - 1, sides, (), ((campaign.round, snapshot(campaign)),),
                              compact=True)
    state = replace(state, last_log=(f"{campaign.name}: round {campaign.round} of {state.last_round}",))
    doc = state_json(state)  # the full form, marked: its checkpoints are compact (:mod:`.checkpoint`)
    return BattleSetup(NAME, campaign.name, request.seed, dict(doc), campaign.name, {"sides": dict(sides)})
