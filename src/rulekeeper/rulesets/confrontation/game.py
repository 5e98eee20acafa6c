"""Confrontation skirmishes on the game protocol (:class:`rulekeeper.core.game.Game`).

:class:`SkirmishGame` holds the protocol's battle half; the registered class
:class:`~.calculator.Confrontation` (entry point ``confrontation``, re-exported here) is the calculator plus this, so
``rulekeeper battle new confrontation …`` and the web keeper reach whole skirmishes through the same
plug-in as ``rulekeeper odds confrontation``. A scenario file becomes the stored initial document
(cards included), an action a protocol :class:`~rulekeeper.core.game.Outcome` whose every die comes
from the :class:`~rulekeeper.core.chance.Fate` of the RNG state kept in the skirmish's state.
Rules decisions: docs/rules/confrontation.md, "Skirmishes".
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import IllegalActionError, InvalidStatError, RulekeeperError, UnknownNameError
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
    WithoutExtras,
)
from rulekeeper.core.memo import legal_list
from rulekeeper.core.present import CliPresenter, WebPresenter
from rulekeeper.core.rng import RngState

from . import actions, policy
from .accumulators import do_absorb, named_of
from .action_words import action_text
from .authority import do_authority
from .authority_uses import do_answer, do_decline, do_pass, do_token_split
from .concentration import declaring as concentrating
from .concentration import do_concentrate, do_steady, may_concentrate, points_of
from .cover_move import after_cover, do_cover, do_ready, settle_turn
from .disengage import do_disengage, way_out
from .flight import do_flee, do_pursue, do_stay, mark_pursuers, pursuers
from .ground import Terrain
from .leap import do_leap, do_leap_charge, leaping_pursuit
from .magic import refresh
from .magic_step import magic_step
from .reaction import declare, may_react, resolve
from .reinforcement import do_choice
from .scenario import read_scenario, shipped_scenarios
from .shooting import do_shoot
from .skirmish import advance, do_charge, do_fight, do_hold, do_lead, do_move, group_of, groups, waiting, worth
from .spells import mystic_rules
from .splitting import do_split
from .state import (
    SIDES,
    DamagedStateError,
    Fighter,
    SkirmishState,
    cards_from_json,
    obstacles_from_json,
    other,
    state_from_json,
    state_to_json,
    view_of,
)
from .tactical import do_tactical, general

NAME = "confrontation"
KIND_WORDS = {"move": "move", "walk": "move", "charge": "charge", "hold": "hold", "wait": "hold",
              "fight": "fight", "melee": "fight", "combat": "fight", "shoot": "shoot", "shot": "shoot", "fire": "shoot",
              "tactical": "tactical", "roll": "tactical", "lead": "lead", "first": "lead", "flee": "flee",
              "pursue": "pursue", "stay": "stay", "remove": "remove", "keep": "keep", "return": "return",
              "disengage": "disengage", "split": "split", "leap": "leap", "jump": "leap", "authority": "authority",
              "authority_split": "authority_split", "decline": "decline", "pass": "pass", "allow": "allow",
              "force": "force", "cover": "cover", "ready": "ready", "cast": "cast", "call": "cast",
              "counter": "counter", "censure": "counter", "let": "let", "concentrate": "concentrate",
              "concentration": "concentrate", "steady": "steady", "absorb": "absorb", "assault": "charge",
              "react": "react", "withhold": "withhold"}
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
_POINTS = re.compile(r"\b(INI|ATT|STR|DEF|RES|MOV|AIM|COU|DIS)\s*[+=:]?\s*(\d+)\b", re.IGNORECASE)


AUTHORITY_USES = {
    "authority_split": lambda s, f, a: do_token_split(s, f.side, f, [str(k) for k in a["apart"]]),
    "decline": lambda s, f, a: do_decline(s, f.side),
    "pass": lambda s, f, a: do_pass(s, f.side),
    "allow": lambda s, f, a: do_answer(s, f.side, False),
    "force": lambda s, f, a: do_answer(s, f.side, True),
}


class SkirmishSetupError(RulekeeperError):
    """A set-up request a skirmish cannot start from (no scenario file, army lists)."""

    code = "impossible_request"


def _coords(value: Any) -> list[float]:
    """``[30, 20]``, ``"30,20"`` or ``"30 20"`` as a destination in cm (to the millimetre)."""
    parts: list[Any]
    if isinstance(value, str):
        parts = [p for p in re.split(r"[,\s;]+", value.strip().strip("()[]")) if p]
    elif isinstance(value, list | tuple):
        parts = list(value)
    else:
        parts = []
    try:
        x, y = (float(p) for p in parts)
    except (TypeError, ValueError):
        raise IllegalActionError(f"a destination is X,Y in cm (e.g. 30,20), got {value!r}", field="to") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise IllegalActionError(f"a destination is two finite numbers of cm, got {value!r}", field="to")
    return actions.point(x, y)


class SkirmishGame(WithoutExtras):
    """The battle half of the game protocol for Confrontation skirmishes (mixed into the registered class)."""

    # -- setting a battle up -------------------------------------------------------------------

    def scenarios(self) -> list[ScenarioInfo]:
        return shipped_scenarios()

    def setup(self, request: SetupRequest) -> BattleSetup:
        if request.armies or request.board is not None:
            raise SkirmishSetupError("a Confrontation skirmish starts from a scenario file (table, warbands and "
                                     "positions), not from army lists or a board")
        if request.scenario is None:
            raise SkirmishSetupError("give a Confrontation scenario, e.g. "
                                     "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml")
        sc = read_scenario(request.scenario)
        infos = {o.name: o for o in self.options()}  # type: ignore[attr-defined]
        options = {name: o.default for name, o in infos.items()}
        for text in request.options:
            key, sep, value = text.partition("=")
            key = key.strip().replace("-", "_")
            if not sep:
                raise InvalidStatError(f"option {text!r} must look like NAME=VALUE", option=text)
            if key not in infos:
                raise UnknownNameError("Confrontation option", key, list(infos))
            if value.strip() not in infos[key].choices:
                raise UnknownNameError(f"value for option {key}", value.strip(), infos[key].choices)
            options[key] = value.strip()
        doc: JsonDict = {"ruleset": NAME, "scenario": sc, "seed": int(request.seed), "options": options}
        return BattleSetup(NAME, sc["name"], request.seed, doc, sc["name"], {"sides": sc["sides"]})

    def initial_state(self, document: JsonDict) -> SkirmishState:
        try:
            sc = document["scenario"]
            cards = cards_from_json(sc["cards"])
            fighters = tuple(Fighter(str(f["key"]), str(f["side"]), cards[str(f["card"])], float(f["x"]),
                                     float(f["y"]), float(f["facing"]), cards[str(f["card"])].HP,
                                     rout=int(f.get("rout", 0)))
                             for f in sc["fighters"])
            state = SkirmishState(
                str(sc["name"]), (str(sc["sides"]["A"]), str(sc["sides"]["B"])), float(sc["width"]),
                float(sc["height"]), obstacles_from_json(sc["obstacles"]), fighters, 1, int(sc["round_limit"]),
                "tactical", "A", "A", tuple((str(k), str(v)) for k, v in document.get("options", {}).items()),
                False, None, "", RngState.from_seed(int(document["seed"])),
                terrain=tuple(Terrain.from_json(p) for p in sc.get("terrain", [])))
            state = settle_turn(refresh(state))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, RulekeeperError):
                raise
            raise DamagedStateError(f"the stored skirmish's initial document is damaged: {exc!r}") from None
        return state

    def roles(self, document: JsonDict) -> tuple[str, ...]:
        return SIDES

    def reseeded(self, document: JsonDict, seed: int) -> JsonDict:
        return {**document, "seed": int(seed)}

    # -- playing -------------------------------------------------------------------------------

    def status(self, state: SkirmishState) -> Status:
        to_act = () if state.over else (state.to_act,)
        acting: tuple[str, ...] = ()
        if not state.over:
            acting = state.reacting[1:2] if state.reacting else \
                tuple(f.key for f in state.standing(state.to_act) if may_concentrate(f)) \
                if state.phase == "combat" and concentrating(state) else \
                tuple(f.key for f in pursuers(state)) or tuple(mine[0].key for mine, _ in groups(state)) \
                if state.phase == "combat" else \
                (general(state, state.to_act).key,) if state.phase in ("tactical", "lead") else \
                tuple(f.key for f in state.fighters if f.returning) if state.phase == "maintenance" else \
                tuple(f.key for f in waiting(state, state.to_act))
        return Status(state.over, to_act, acting, state.round, state.winner, state.reason)

    def legal_actions(self, state: SkirmishState) -> list[LegalAction]:
        return legal_list(state, actions.legal_actions)  # built once per state (core.memo)

    def _fighter_name(self, state: SkirmishState, text: str) -> str:
        wanted = " ".join(text.split()).casefold()
        for f in state.fighters:
            if f.key.casefold() == wanted:
                return f.key
        raise UnknownNameError("fighter", text, [f.key for f in state.fighters])

    def parse_action(self, state: SkirmishState, data: Mapping[str, Any]) -> JsonDict:
        word = str(data.get("kind", "")).strip().lower()
        kind = KIND_WORDS.get(word)
        if word == "assault":  # a charge with assault fire (assault.py)
            data = {**data, "assault": True}
        if kind is None:
            raise IllegalActionError(f"not a Confrontation skirmish action: {data.get('kind')!r} "
                                     f"({', '.join(actions.KINDS)})", kind=str(data.get("kind")))
        side = data.get("side")
        side = state.to_act if side in (None, "") else str(side).strip().upper()
        if side not in SIDES:
            raise IllegalActionError(f"no side {side!r} in a skirmish (A or B)", side=str(side))
        if kind in ("react", "withhold") and state.reacting and data.get("fighter") in (None, ""):
            data = {**data, "fighter": state.reacting[1]}  # the charged fighter answers
        if kind in ("tactical", "lead", "authority", "decline", "pass", "allow", "force", "ready", "let",
                    "steady"):  # the General's
            if not state.standing(side):
                raise IllegalActionError(f"side {side} has no fighter standing", side=side)
            data = {**data, "fighter": data.get("fighter") or general(state, side).key}
        if data.get("fighter") in (None, ""):
            raise IllegalActionError(f"a {kind} needs a fighter", field="fighter")
        out: JsonDict = {"kind": kind, "side": side, "fighter": self._fighter_name(state, str(data["fighter"]))}
        if kind == "cast":
            out["spell"] = str(data.get("spell", "")).strip()
        if kind == "concentrate":
            out["points"] = points_of(data.get("points"))
        if kind == "absorb":
            named = data.get("from")
            named = [n for n in named.split(",") if n.strip()] if isinstance(named, str) else named
            out["from"] = [self._fighter_name(state, n) if isinstance(n, str) else n for n in named_of(named)]
        if kind in ("charge", "shoot", "pursue", "cast"):
            if data.get("target") in (None, ""):
                raise IllegalActionError(f"a {kind} needs a target", field="target")
            out["target"] = self._fighter_name(state, str(data["target"]))
            if kind in ("charge", "pursue") and data.get("leap"):
                out["leap"] = True
            if kind == "charge" and data.get("assault"):
                out["assault"] = True
        elif kind in ("move", "return", "leap", "cover"):
            out["to"] = _coords(data.get("to"))
        elif kind == "disengage":
            out["test"] = str(data.get("test") or "INI").strip().upper()
            f = state.fighter(out["fighter"])
            if data.get("to") not in (None, ""):
                out["to"] = _coords(data.get("to"))
            elif f.engaged and (way := way_out(state, f)) is not None:
                out["to"] = way
            else:
                raise IllegalActionError(f"{f.key} has no way out of his fight: name one (X,Y)", field="to")
        elif kind in ("split", "authority_split"):
            apart = data.get("apart")
            names = apart.split(",") if isinstance(apart, str) else apart if isinstance(apart, list) else []
            out["apart"] = [self._fighter_name(state, str(n)) for n in names if str(n).strip()]
            if not out["apart"] and kind == "split":
                raise IllegalActionError("a split names the fighters it splits off: split NAME, NAME, …", field="apart")
        elif kind == "lead":
            first = str(data.get("first", "")).strip()
            out["first"] = next((s for s in SIDES if first.upper() == s or first.casefold() == state.name(s).casefold()),
                                first)
        return out

    def parse_words(self, state: SkirmishState, words: Sequence[str], option: str | None = None) -> JsonDict:
        """``move Alahan guard 30,20`` (or ``… 30 20``), ``charge Wolfen hunter Alahan guard``, ``shoot Alahan
        crossbowman Wolfen hunter``,
        ``hold Alahan guard``, ``fight Alahan guard`` (his fray), ``tactical`` (the Tactical roll), ``lead A`` (the
        roll's winner: side A acts first): names need no quotes."""
        if not words:
            raise IllegalActionError("an action is KIND FIGHTER [TARGET|X,Y], e.g. hold Alahan guard")
        kind = KIND_WORDS.get(words[0].strip().lower())
        if kind is None:
            raise IllegalActionError(f"not a Confrontation skirmish action: {words[0]!r} ({', '.join(actions.KINDS)})")
        rest = " ".join(words[1:]).split()
        if kind == "authority" and rest and rest[0].lower() in ("split", "whole"):
            return self._token_split(state, rest)
        if kind in ("tactical", "authority", "decline", "pass", "allow", "force", "ready", "let", "steady"):
            return self.parse_action(state, {"kind": kind})
        if kind in ("react", "withhold"):
            return self.parse_action(state, {"kind": kind, "fighter": " ".join(rest)})
        if kind == "absorb":  # absorb ACCUMULATOR FROM[, FROM…]: names need no quotes
            cut = next((c for c in range(1, len(rest)) if " ".join(rest[:c]).casefold() in
                        {f.key.casefold() for f in state.fighters}), len(rest))
            return self.parse_action(state, {"kind": kind, "fighter": " ".join(rest[:cut]),
                                             "from": " ".join(rest[cut:])})
        if kind == "concentrate":  # concentrate FIGHTER ATT 2 [DEF 1 …] (or ATT+2, ATT=2)
            text = " ".join(rest)
            found = _POINTS.findall(text)
            start = _POINTS.search(text)
            return self.parse_action(state, {"kind": kind, "fighter": text[:start.start()] if start else text,
                                             "points": {c.upper(): int(n) for c, n in found}})
        if kind == "cast":
            return self._cast_words(state, rest)
        if kind == "lead":
            return self.parse_action(state, {"kind": kind, "first": " ".join(rest)})
        if kind == "split":  # split NAME, NAME, …: the block split off (the Tactical roll's winner's first fighter)
            named = [n for n in " ".join(rest).split(",") if n.strip()]
            lead = next((mine[0].key for mine, theirs in groups(state)
                         if named and self._fighter_name(state, named[0]) in {f.key for f in (*mine, *theirs)}), "")
            return self.parse_action(state, {"kind": kind, "fighter": lead or (named[0] if named else ""),
                                             "apart": named})
        if kind == "disengage":  # disengage FIGHTER [INI|STR] [X,Y]
            to = None
            if len(rest) >= 3 and all(_NUMBER.match(w.strip(",")) for w in rest[-2:]):
                to, rest = " ".join(rest[-2:]), rest[:-2]
            elif rest and "," in rest[-1]:
                to, rest = rest[-1], rest[:-1]
            test = rest.pop().upper() if rest and rest[-1].upper() in ("INI", "STR") else "INI"
            return self.parse_action(state, {"kind": kind, "fighter": " ".join(rest), "test": test, "to": to})
        if kind in ("hold", "fight", "flee", "stay", "remove", "keep", "counter"):
            return self.parse_action(state, {"kind": kind, "fighter": " ".join(rest)})
        if words[0].strip().lower() == "assault":  # assault CHARGER TARGET: a charge with assault fire
            return self.parse_action(state, {**self.parse_words(state, ["charge", *rest]), "assault": True})
        if kind == "leap" and not (rest and (_NUMBER.match(rest[-1].strip(",")) or "," in rest[-1])):
            chase = "pursue" if state.phase == "combat" else "charge"  # leap CHARGER TARGET: a charge (a pursuit)
            return {**self.parse_words(state, [chase, *rest]), "leap": True}
        if kind in ("move", "return", "leap", "cover"):
            tail = 2 if len(rest) >= 3 and all(_NUMBER.match(w.strip(",")) for w in rest[-2:]) else 1
            return self.parse_action(state, {"kind": kind, "fighter": " ".join(rest[:-tail]),
                                             "to": " ".join(rest[-tail:])})
        keys = {f.key.casefold() for f in state.fighters}
        for cut in range(1, len(rest)):
            a, b = " ".join(rest[:cut]), " ".join(rest[cut:])
            if a.casefold() in keys and b.casefold() in keys:
                return self.parse_action(state, {"kind": kind, "fighter": a, "target": b})
        raise IllegalActionError(f"{kind} takes two fighters' names: CHARGER TARGET "
                                 f"(known: {', '.join(f.key for f in state.fighters)})")

    def _cast_words(self, state: SkirmishState, rest: list[str]) -> JsonDict:
        """``cast CASTER CARD TARGET`` (``call`` for a miracle): names need no quotes."""
        keys = {f.key.casefold() for f in state.fighters}
        cards = {c.name.casefold() for c in mystic_rules().cards}
        for i in range(1, len(rest)):
            for j in range(i + 1, len(rest)):
                a, b, c = " ".join(rest[:i]), " ".join(rest[i:j]), " ".join(rest[j:])
                if a.casefold() in keys and b.casefold() in cards and c.casefold() in keys:
                    return self.parse_action(state, {"kind": "cast", "fighter": a, "spell": b, "target": c})
        raise IllegalActionError("cast takes CASTER CARD TARGET (cards: "
                                 f"{', '.join(c.name for c in mystic_rules().cards)})", field="spell")

    def _token_split(self, state: SkirmishState, rest: list[str]) -> JsonDict:
        """``authority split NAME, NAME, …`` (the block split off with a token) or ``authority whole NAME``."""
        named = [n for n in " ".join(rest[1:]).split(",") if n.strip()]
        if rest[0].lower() == "whole":
            return self.parse_action(state, {"kind": "authority_split", "fighter": " ".join(rest[1:]), "apart": []})
        keys = {self._fighter_name(state, n) for n in named}
        lead = next((f.key for mine, theirs in groups(state) for f in (*mine, *theirs)
                     if f.side == state.to_act and keys & {g.key for g in (*mine, *theirs)}), "")
        return self.parse_action(state, {"kind": "authority_split", "fighter": lead or (named[0] if named else ""),
                                         "apart": named})

    def apply(self, state: SkirmishState, action: JsonDict) -> Outcome:
        actions.check(state, action)
        fate = Fate.from_state(state.rng)
        f = state.fighter(str(action["fighter"]))
        kind = action["kind"]
        if kind == "move":
            new, report = do_move(state, f, float(action["to"][0]), float(action["to"][1]), fate)
        elif kind == "leap":
            new, report = do_leap(state, f, float(action["to"][0]), float(action["to"][1]), fate)
        elif kind == "charge" and action.get("leap"):
            new, report = do_leap_charge(state, f, state.fighter(str(action["target"])), fate)
        elif kind == "charge" and not action.get("leap") and may_react(state, f, state.fighter(str(action["target"]))):
            new, said = declare(state, f, state.fighter(str(action["target"])), action.get("assault") is True)
            report = [{"text": said, "kind": "charge"}]
        elif kind == "charge":
            new, report = do_charge(state, f, state.fighter(str(action["target"])), fate,
                                    assault=action.get("assault") is True)
        elif kind in ("react", "withhold"):  # the charge goes on while the charger stands (reaction.py)
            new, shot_said, charger, assault = resolve(state, kind == "react", fate)
            report = [] if shot_said is None else [{"text": shot_said, "kind": "shot"}]
            if not charger.killed:
                new, more = do_charge(new, charger, new.fighter(f.key), fate, assault=assault)
                report += more
            new = replace(new, to_act=charger.side)  # the charger's side made the activation
        elif kind == "shoot":
            new, report = do_shoot(state, f, state.fighter(str(action["target"])), fate)
        elif kind == "fight":
            fray = group_of(state, f)
            group = [] if fray is None else [g.key for g in (*fray[0], *fray[1])]
            new, report = do_fight(state, f, fate)
            new = mark_pursuers(new, group)
        elif kind == "split":
            new, report = do_split(state, [str(k) for k in action["apart"]])
        elif kind == "flee":
            new, report = do_flee(state, f, fate)
        elif kind == "pursue":
            new, report = do_pursue(state, f, *leaping_pursuit(state, f, action))
        elif kind == "stay":
            new, report = do_stay(state, f)
        elif kind == "disengage":
            new, report = do_disengage(state, f, str(action["test"]), list(action["to"]), fate)
        elif kind in ("remove", "keep", "return"):
            new, report = do_choice(state, f, str(kind), action.get("to"))
        elif kind == "authority":
            new, report = do_authority(state, str(action["side"]))
        elif kind == "cover":
            new, report = do_cover(state, f, float(action["to"][0]), float(action["to"][1]))
            new = after_cover(new)
        elif kind == "ready":
            new, report = do_ready(state, f.side)
        elif kind == "absorb":
            new, said = do_absorb(state, f, named_of(action["from"]))
            report = [{"text": said, "kind": "magic"}]
        elif kind in ("concentrate", "steady"):
            new, said = do_concentrate(state, f, points_of(action["points"])) if kind == "concentrate" else \
                do_steady(state, f.side)
            report = [{"text": said, "kind": "concentration"}]
        elif kind in ("cast", "counter", "let"):
            new, report = magic_step(state, f, action, fate)
        elif kind in AUTHORITY_USES:
            new, report = AUTHORITY_USES[str(kind)](state, f, action)
        elif kind == "tactical":
            new, report = do_tactical(state, fate)
        elif kind == "lead":
            new, report = do_lead(state, str(action["first"]))
            if new.phase == "combat":  # no one left to activate (all moved under cover): on to the fights
                new = advance(new, fate, report)
        else:
            new, report = do_hold(state, f)
        if new.reacting:  # a charge waits for the charged fighter's reaction fire: his side answers
            pass
        elif new.casting:  # a spell that worked waits for the enemy's counter
            new = replace(new, to_act=other(f.side))
        elif kind in ("counter", "let"):  # the caster's activation is over: the round goes on from his side
            new = replace(new, to_act=other(f.side))
        if kind in ("fight", "split"):  # the winner orders the fights: no token is spent after that
            new = replace(new, held=(0, 0))
        if state.phase == "activation" and kind not in ("pass", "allow", "force", "absorb"):
            new = replace(new, no_pass="")  # a fighter was activated: either side may pass again
        if kind not in ("lead", "split", "authority", "cover", "ready", "absorb", *AUTHORITY_USES) \
                and not new.casting and not new.reacting:  # the choice itself says who acts next
            new = advance(new, fate, report)
        new = replace(settle_turn(new), rng=fate.state)
        if new.over:
            winner = "a draw" if new.winner is None else f"{new.name(new.winner)} win"
            report.append({"text": f"The skirmish is over, {winner}: {new.reason}", "kind": "over"})
        chance = tuple(fate.records)
        lines: tuple[JsonDict, ...] = tuple(dict(line) for line in report)
        record: JsonDict = {"chance": [c.to_dict() for c in chance], "report": list(lines)}
        return Outcome(new, dict(action), str(action["side"]), chance, (), lines, record)

    def preview(self, state: SkirmishState, action: JsonDict) -> OddsPreview:
        return actions.preview(state, action)

    def policy(self, state: SkirmishState) -> JsonDict | None:
        return policy.choose(state)

    def side_of(self, action: JsonDict) -> str:
        return str(action.get("side", ""))

    def action_text(self, action: JsonDict) -> str:
        return action_text(action)

    def evaluate(self, state: SkirmishState, side: str) -> float:
        """The search bot's score of an unfinished battle for ``side`` in [-1, 1] (``rulekeeper.bots``)."""
        from .bot import evaluate

        return evaluate(state, side)

    def rollout_done(self, start: SkirmishState, state: SkirmishState, actions: int, horizon: int) -> bool:
        """Whether a search bot's simulation from ``start`` has looked far enough (``bot.rollout_done``)."""
        from .bot import rollout_done

        return rollout_done(start, state, actions, horizon)

    def rollout_policy(self, state: SkirmishState) -> JsonDict | None:
        """The shipped policy's action, computed faster (the search bot's simulations, ``bot.rollout_policy``)."""
        from .bot import rollout_policy

        return rollout_policy(state)

    def result(self, state: SkirmishState) -> GameResult | None:
        if not state.over:
            return None
        summary: JsonDict = {"winner": state.winner, "round": state.round,
                             "points standing": {s: worth(state, s) for s in SIDES},
                             "fighters": {f.key: "fled" if f.fled else "killed" if f.killed else f"{f.hp} HP"
                                          for f in state.fighters}}
        return GameResult(state.winner, None if state.winner is None else state.name(state.winner), state.reason,
                          summary)

    # -- JSON and views --------------------------------------------------------------------------

    def state_to_json(self, state: SkirmishState) -> JsonDict:
        return state_to_json(state)

    def state_from_json(self, document: JsonDict) -> SkirmishState:
        return state_from_json(document)

    def view(self, state: SkirmishState, role: str) -> JsonDict:
        """The whole skirmish but its RNG state: nothing else is secret."""
        return view_of(state)

    # -- presentation ----------------------------------------------------------------------------

    def web_presenter(self) -> WebPresenter:
        from .web.presenter import ConfrontationPresenter

        return ConfrontationPresenter(self)

    def cli_presenter(self) -> CliPresenter:
        from .render import ConfrontationCliPresenter

        return ConfrontationCliPresenter()



def __getattr__(name: str) -> type[SkirmishGame]:
    """``Confrontation``, the registered class (entry point ``rulekeeper.rulesets.confrontation.game:Confrontation``).

    It is defined in :mod:`.calculator` as the calculator plus :class:`SkirmishGame`, so it is re-exported here
    lazily (PEP 562): an import at the top would be circular, since :mod:`.calculator` imports this module.
    """
    if name == "Confrontation":
        from .calculator import Confrontation

        return Confrontation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
