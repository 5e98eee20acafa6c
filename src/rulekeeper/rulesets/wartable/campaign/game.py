"""The War Table campaign on the game protocol: simultaneous hidden orders, then the round resolves.

Registered as its own game, ``wartable-campaign`` (the one-engagement ``wartable`` game stays as
it is): ``rulekeeper battle new examples/wartable/shroudfall.yaml`` starts one, and the web
keeper offers it in its New battle form. Each faction is a side (its key is the faction's name
in lower case: ``oathsworn``, ``bloodless``); every round each side plays one ``orders`` action
(``Status.to_act`` lists every side still to give them, so both may act at once); a side's
orders stay out of the other sides' views and logs until the round resolves, which happens
inside the last side's action: moves, reach, direct attacks, battles with the six-step combat,
Reclaim, Delve rolls through the state's RNG, Downtime, Faith (:mod:`.rounds`). See the
"Campaign" section of ``docs/rules/wartable.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rulekeeper.core.base import BaseGame
from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import (
    BattleSetup,
    GameResult,
    JsonDict,
    LegalAction,
    OddsPreview,
    Outcome,
    ScenarioInfo,
    SetupRequest,
    Status,
)
from rulekeeper.core.rng import RngState
from rulekeeper.core.ruleset import OptionInfo, Resolution
from rulekeeper.core.whole import WholeMeasure, WholeOdds
from rulekeeper.core.wording import counted

from ..codec import fields_of, records_of
from ..model import OPTION_INFO
from ..rounding import show
from .actions import (
    action_text,
    checked,
    order_text,
    orders_text,
    parse_order_words,
    policy_orders,
    read_orders,
    side_choices,
)
from .checkpoint import state_from_json, state_to_json
from .orders import ORDERS, CampaignActionError, GiveOrders
from .report import round_report
from .rounds import resolve_round
from .session import COMPACT_MARK, NAME, CampaignGameState, SideOrders, snapshot, state_json
from .setup import CAMPAIGN_OPTIONS, setup_campaign

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks
    from rulekeeper.core.present import CliPresenter, WebPresenter

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"


class WarTableCampaign(BaseGame[CampaignGameState, GiveOrders]):
    """The War Table campaign as a game: sides are factions, each round one hidden orders action per side.

    Its rules take the typed state and the typed action (:class:`.orders.GiveOrders`, through its one codec
    :data:`.orders.ORDERS`); the registry's wrapper (``core.registered``) decodes the logged JSON for them."""

    name: ClassVar[str] = NAME
    state_type: ClassVar[type] = CampaignGameState
    action_codec = ORDERS
    aliases: ClassVar[tuple[str, ...]] = ("war-table-campaign", "wartable campaign", "wt-campaign")
    title: ClassVar[str] = "War Table campaign"
    deterministic: ClassVar[bool] = False  # Delve rolls
    reads_data_files: ClassVar[bool] = True  # battle new CAMPAIGN --data TABLE (the game master's tables)

    # -- the calculator side -----------------------------------------------------------------------

    def options(self) -> list[OptionInfo]:
        return [*CAMPAIGN_OPTIONS, *OPTION_INFO]

    def roster(self) -> list[JsonDict]:
        from ..combat import default_data

        return [dict(u.to_dict()) for u in default_data().units]

    def sample_resolution(self, fate: Fate) -> Resolution:
        """Round 1 of Shroudfall with a Reclaim, a Delve and a march, drawn through ``fate``."""
        state = self.initial_state(self.setup(SetupRequest(scenario=SCENARIO_DIR / "shroudfall.yaml")).document)
        from .orders import Order

        result = resolve_round(state.campaign, [Order("Hearthmere Guard", "reclaim"), Order("Barrow Horde", "delve"),
                                                Order("Ford Horde", "move", "Old Watch")], fate,
                               options=state.options, tables=state.table_map())
        summary = {"log": list(result.log), "changes": [c.to_dict() for c in result.changes],
                   "rolls": [r.to_dict() for r in result.rolls]}
        return Resolution(self.name, "round", summary, fate.record_dicts())

    def register_cli(self, hooks: CliHooks) -> None:
        """``rulekeeper campaign-chart ID`` (the Stability history as a PNG) and ``campaign-map ID``."""
        from .cli import register

        register(hooks.app)

    # -- setting up --------------------------------------------------------------------------------

    def scenarios(self) -> list[ScenarioInfo]:
        from .files import load_campaign

        out = []
        for p in sorted(SCENARIO_DIR.glob("*.yaml")):
            c = load_campaign(p)
            out.append(ScenarioInfo(p.stem, c.name, f"A War Table campaign: {counted(len(c.map.names()), 'region')}, "
                                    f"{counted(len(c.enclaves), 'Enclave')}, {counted(len(c.factions), 'faction')}", p))
        return out

    def setup(self, request: SetupRequest) -> BattleSetup:
        return setup_campaign(request)

    def recognises(self, document: object) -> bool:
        return isinstance(document, dict) and "campaign" in document and "regions" in document

    def initial_state(self, document: Mapping[str, object]) -> CampaignGameState:
        return state_from_json(document)  # every part checked

    def roles(self, document: Mapping[str, object]) -> tuple[str, ...]:
        try:
            return tuple(str(fields_of(s, "sides")["side"]) for s in records_of(document["sides"], "sides"))
        except KeyError as exc:
            raise RulekeeperError(f"the stored War Table campaign is damaged: sides ({exc!r})") from None
        except RulekeeperError as exc:
            raise RulekeeperError(f"the stored War Table campaign is damaged: {exc.message}") from None

    def reseeded(self, document: Mapping[str, object], seed: int) -> JsonDict:
        return {**document, "rng": RngState.from_seed(seed).to_dict()}

    # -- playing -------------------------------------------------------------------------------------

    def _ended(self, state: CampaignGameState) -> tuple[bool, str | None, str]:
        c = state.campaign
        standing = state.standing_factions()
        if len(standing) <= 1:
            winner = state.side_of_faction(standing[0]) if standing else None
            return True, winner, (f"only {standing[0]} has units standing" if standing else "no unit stands")
        if c.enclaves and all(e.fallen for e in c.enclaves):
            holders = {e.faction for e in c.enclaves}
            others = [f for f in standing if f not in holders]
            winner = state.side_of_faction(others[0]) if len(others) == 1 else None
            return True, winner, "every Enclave has Fallen"
        if state.round > state.last_round:
            return (True, *self._last_round_winner(state))
        return False, None, ""

    def _last_round_winner(self, state: CampaignGameState) -> tuple[str | None, str]:
        """After the last round (estimated, option ``victory``): the holders win if at least half their Enclaves stand."""
        c = state.campaign
        played = f"the campaign's last round ({state.last_round}) is played"
        if state.options.victory == "none" or not c.enclaves:
            return None, f"{played}; no victory rule (victory=none): each Enclave's Stability tells how it went"
        holders = list(dict.fromkeys(e.faction for e in c.enclaves))
        standing = {f: sum(1 for e in c.enclaves if e.faction == f and not e.fallen) for f in holders}
        held = [f for f in holders if 2 * standing[f] >= sum(1 for e in c.enclaves if e.faction == f)]
        tally = ", ".join(f"{f} {standing[f]} of {sum(1 for e in c.enclaves if e.faction == f)}" for f in holders)
        if len(held) == 1:
            return state.side_of_faction(held[0]), f"{played}; {held[0]} still hold at least half their Enclaves ({tally} standing)"
        others = [f for f in state.standing_factions() if f not in holders]
        if not held and len(others) == 1:
            return state.side_of_faction(others[0]), f"{played}; more than half the Enclaves have Fallen ({tally} standing): {others[0]} win"
        return None, f"{played}; no single winner ({tally} Enclaves standing)"

    def status(self, state: CampaignGameState) -> Status:
        over, winner, reason = self._ended(state)
        turn = len(state.history) - 1
        if over:
            return Status(True, (), (), turn, winner, reason)
        waiting = tuple(k for k, _ in state.sides if k not in state.given())
        return Status(False, waiting, tuple(state.faction_of(k) for k in waiting), turn)

    def legal_actions(self, state: CampaignGameState) -> list[LegalAction]:
        status = self.status(state)
        out: list[LegalAction] = []
        for side in status.to_act:
            faction = state.faction_of(side)
            for so in side_choices(state, side):
                parts = [order_text(o) for o in so.orders if o.kind != "hold"]
                parts += [f"Faith restores {f.enclave}" for f in so.faith]
                text = f"{faction}: " + ("; ".join(parts) or "every unit holds")
                out.append(LegalAction(ORDERS.encode(so.given(state.round)), text, side, None, "", text, faction))
        return out

    def parse_action(self, state: CampaignGameState, data: Mapping[str, object]) -> GiveOrders:
        return self._canonical(state, read_orders(state, data))

    def parse_words(self, state: CampaignGameState, words: Sequence[str], option: str | None = None) -> GiveOrders:
        if option is not None:
            raise CampaignActionError(f"campaign orders take no option (got {option!r})")
        return self._canonical(state, parse_order_words(state, words))

    @staticmethod
    def _canonical(state: CampaignGameState, given: GiveOrders) -> GiveOrders:
        """``given`` with its names made exact and every standing unit of its side listed."""
        return checked(state, given).given(state.round if given.round is None else given.round)

    def _check(self, state: CampaignGameState, given: GiveOrders) -> SideOrders:
        """The orders ``given`` stands for, if the side may give them now; a typed refusal (nothing changed) else."""
        orders = checked(state, given)
        status = self.status(state)
        if status.over:
            raise CampaignActionError("the campaign is over", code_detail="game_over")
        if given.round not in (None, state.round):
            raise CampaignActionError(f"these orders are for round {given.round}; the campaign is in round "
                                      f"{state.round}")
        if orders.side not in status.to_act:
            raise CampaignActionError(f"{state.faction_of(orders.side)} has already given its orders for round "
                                      f"{state.round} (undo them to change them)", side=orders.side)
        return orders

    def apply(self, state: CampaignGameState, action: GiveOrders) -> Outcome:
        orders = self._check(state, action)
        canonical = ORDERS.encode(orders.given(state.round))
        pending = (*state.pending, orders)
        faction = state.faction_of(orders.side)
        if len(pending) < len(state.sides):
            text = f"{faction} have given their orders for round {state.round} (hidden until the round resolves)"
            item: JsonDict = {"kind": "orders_given", "side": orders.side, "round": state.round, "text": text}
            after = replace(state, pending=pending)
            return Outcome(after, canonical, orders.side, (), (), (item,), {"chance": [], "report": [item]})
        by_side = {p.side: p for p in pending}
        every = [o for k, _ in state.sides for o in by_side[k].orders]
        faith = [f for k, _ in state.sides for f in by_side[k].faith]
        fate = Fate.from_state(state.rng)
        result = resolve_round(state.campaign, every, fate, faith_orders=faith, options=state.options,
                               battle_options=state.battle_options, tables=state.table_map())
        texts = [orders_text(state.faction_of(k), by_side[k]) for k, _ in state.sides]
        items = round_report(state.round, texts, result)
        after = replace(state, campaign=result.state,
                        rng=fate.state, pending=(),
                        history=(*state.history, (result.state.round, snapshot(result.state))), last_log=result.log)
        chance = tuple(fate.records)
        # the report reveals every side's orders: face down until its side turns it over, never undone once
        # shown (core.game.face_down), or a side could read the others' orders and change its own
        return self.outcome(after, orders.given(state.round), orders.side, chance, items, reveals=True)

    def preview(self, state: CampaignGameState, action: GiveOrders) -> OddsPreview:
        """This side's orders in words and the exact odds of its Delve rolls (never the other sides' orders)."""
        orders = self._check(state, action)
        headline: list[tuple[str, float | str]] = [("Orders", orders_text(state.faction_of(orders.side), orders))]
        draws: list[ChanceRequest] = []
        c, tables = state.campaign, state.table_map()
        for o in orders.orders:
            if o.kind != "delve":
                continue
            unit = c.unit(o.unit)
            dungeon = next(d for d in c.dungeons if d.region == unit.region)
            table = tables[dungeon.table]
            label = f"Delve {dungeon.name}: {unit.label}"
            draws.append(discrete(label, [(e.result, float(e.weight)) for e in table.entries],
                                  tuple(f"{e.span}: {e.result}" for e in table.entries)))
            headline += [(f"{unit.label}: {r}", float(p)) for r, p in table.odds()]
        if len(state.pending) + 1 == len(state.sides):
            headline.append(("Round", f"round {state.round} resolves when these orders are given"))
        return OddsPreview(tuple(headline), tuple(draws))

    def whole_odds(self, state: CampaignGameState, action: GiveOrders) -> WholeOdds | None:
        """Issue 27: each Delve order's table result, exactly (the Delve table is the campaign's only chance: the
        round's fights are the deterministic War Table, and the other sides' hidden orders are never read)."""
        orders = self._check(state, action)
        c, tables = state.campaign, state.table_map()
        measures: list[WholeMeasure] = []
        for o in orders.orders:
            if o.kind != "delve":
                continue
            unit = c.unit(o.unit)
            dungeon = next(d for d in c.dungeons if d.region == unit.region)
            odds = tables[dungeon.table].odds()
            measures.append(WholeMeasure.from_weights(f"delve_{len(measures)}", f"Delve {dungeon.name}: {unit.label}",
                                                      [(r, float(p)) for r, p in odds]))
        if not measures:
            return None
        return WholeOdds(tuple(measures), (), "exact", 0.0, "the Delve table's weights, as the round draws them")

    def policy(self, state: CampaignGameState) -> GiveOrders | None:
        status = self.status(state)
        if status.over:
            return None
        return policy_orders(state, status.to_act[0]).given(state.round)

    def policy_for(self, state: CampaignGameState, side: str) -> GiveOrders | None:
        """The shipped policy's orders for ``side`` (both sides give theirs at once: ``policy`` answers for the
        first, ``battle autoplay --side bloodless`` asks for the other)."""
        status = self.status(state)
        if status.over or side not in status.to_act:
            return None
        return policy_orders(state, side).given(state.round)

    def side_of(self, action: GiveOrders) -> str:
        return action.side

    def action_text(self, action: GiveOrders) -> str:
        return action_text(action)

    def determinise(self, state: CampaignGameState, side: str, seed: int) -> CampaignGameState:
        """The search bot's world (``rulekeeper.bots``): fresh RNG, the other sides' hidden orders re-drawn."""
        from .bot import determinise

        return determinise(state, side, seed)

    def evaluate(self, state: CampaignGameState, side: str) -> float:
        """The search bot's score of an unfinished campaign for ``side`` in [-1, 1] (``bot.evaluate``)."""
        from .bot import evaluate

        return evaluate(state, side)

    def conceals(self, state: CampaignGameState, action: GiveOrders, role: str) -> bool:
        """Orders of another side for a round not yet resolved in ``state`` are hidden from ``role``.

        That includes the orders that resolve the round while its report is face down (``state`` is
        then the board before them): they are seen with the report, when their side turns it over.
        """
        return action.side != role and action.round in (None, state.round)

    def result(self, state: CampaignGameState) -> GameResult | None:
        over, winner, reason = self._ended(state)
        if not over:
            return None
        c = state.campaign
        summary: JsonDict = {
            "rounds": state.round - 1,
            "enclaves": {e.name: {"stability": show(e.stability), "fallen": e.fallen} for e in c.enclaves},
            "units": {u.label: show(u.health) for u in c.units},
            "faith": {f.name: show(f.faith) for f in c.factions},
            "winner": winner,
        }
        return GameResult(winner, None if winner is None else state.faction_of(winner), reason, summary)

    # -- JSON and views --------------------------------------------------------------------------------

    def state_to_json(self, state: CampaignGameState) -> JsonDict:
        return dict(state_to_json(state))

    def state_from_json(self, document: Mapping[str, object]) -> CampaignGameState:
        state = state_from_json(document)
        if dict(state_to_json(state)) != document:
            raise RulekeeperError("the stored War Table campaign is damaged: it does not read back as written")
        return state

    def view(self, state: CampaignGameState, role: str) -> JsonDict:
        """The campaign without the RNG; another side's orders only as "given"."""
        full = state_json(state)  # the full form, whatever form the checkpoints take
        doc = dict(full)
        doc.pop("rng")
        doc.pop(COMPACT_MARK[0], None)
        doc["pending"] = [p if p["side"] == role else {"side": p["side"], "given": True} for p in full["pending"]]
        return doc

    # -- presentation ------------------------------------------------------------------------------------

    def web_presenter(self) -> WebPresenter:
        from .web.presenter import CampaignWebPresenter

        return CampaignWebPresenter(self)

    def cli_presenter(self) -> CliPresenter:
        from .presenter import CampaignCliPresenter

        return CampaignCliPresenter(self)

    def army_builder(self) -> None:
        return None

    def campaign(self) -> None:
        return None  # the protocol's campaign book records finished battles; this game *is* the campaign

    def duel_kernel(self) -> None:
        return None
