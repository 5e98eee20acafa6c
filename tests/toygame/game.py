"""A dice race on the game protocol: the smallest whole rule system the keeper can play.

Two sides, ``A`` and ``B``, take turns. The side to act either **rolls** a six-sided die and
adds it to its score (a 1 busts the score back to 0, unless the ``bust`` option says
``none``) or **holds** (nothing happens, the turn passes). The first side to reach the
scenario's target wins; at the turn limit the higher score wins, equal scores draw.

Each side also has a **secret pick** (one of :data:`PICKS`), drawn from the seed when the
race starts. It has no effect on the race: it stands in for a real game's hidden
information (a hidden deployment, a hand of cards), so that :meth:`ToyGame.view` has
something to hide from the other side and the conformance test something to look for.

Everything random goes through :class:`~rulekeeper.core.chance.Fate`, built from the
:class:`~rulekeeper.core.rng.RngState` kept inside :class:`ToyState`, so ``apply`` is a pure
function and a stored log replays bit for bit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, IllegalActionError, RulekeeperError, UnknownNameError
from rulekeeper.core.game import (
    SPECTATOR,
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

from .duel import ToyDuelKernel

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"
SIDES = ("A", "B")
KINDS = ("roll", "hold")
FACES = tuple(str(i) for i in range(1, 7))
#: The secret picks (words that appear nowhere else in a view, so a leak is easy to see).
PICKS = ("owl", "lynx", "stag", "wren", "boar", "newt")
BUST_CHOICES = ("one", "none")
DIE_EXPLAIN = ("a fair six-sided die: each face 1/6",)


def other(side: str) -> str:
    return "B" if side == "A" else "A"


@dataclass(frozen=True)
class ToyState:
    """The whole race: plain data, the RNG state included."""

    scenario: str
    names: tuple[str, str]
    target: int
    turn_limit: int
    bust: str
    scores: tuple[int, int]
    picks: tuple[str, str]
    to_act: str
    turn: int
    last: str
    over: bool
    winner: str | None
    reason: str
    rng: RngState

    def score(self, side: str) -> int:
        return self.scores[SIDES.index(side)]

    def name(self, side: str) -> str:
        return self.names[SIDES.index(side)]


class ToyGame:
    """The dice race, implementing every method of :class:`rulekeeper.core.game.Game`."""

    name: ClassVar[str] = "toy"
    aliases: ClassVar[tuple[str, ...]] = ("toy race", "dice race")
    title: ClassVar[str] = "Toy dice race"
    deterministic: ClassVar[bool] = False

    # -- the calculator side -------------------------------------------------------------------

    def options(self) -> list[OptionInfo]:
        return [OptionInfo("bust", "one", BUST_CHOICES, "what a roll of 1 does: 'one' busts the score to 0, "
                                                        "'none' just adds 1")]

    def roster(self) -> list[JsonDict]:
        return [{"name": "d6", "faces": list(FACES)}]

    def sample_resolution(self, fate: Fate) -> Resolution:
        """Five rolls of the die."""
        faces = [fate.draw(roll_request(f"sample roll {i + 1}")).outcome for i in range(5)]
        return Resolution(self.name, "rolls", {"faces": faces}, fate.record_dicts())

    # -- setting a race up ---------------------------------------------------------------------

    def scenarios(self) -> list[ScenarioInfo]:
        out = []
        for p in sorted(SCENARIO_DIR.glob("*.toml")):
            sc = read_scenario(p)
            out.append(ScenarioInfo(p.stem, sc["name"], sc["description"], p))
        return out

    def setup(self, request: SetupRequest) -> BattleSetup:
        if request.armies or request.board is not None:
            raise RulekeeperError("the toy race starts from a scenario file only (no army lists, no board)")
        if request.scenario is None:
            raise RulekeeperError("give a scenario file, e.g. tests/toygame/scenarios/race.toml")
        sc = read_scenario(request.scenario)
        opts = parse_options(request.options)
        doc: JsonDict = {"ruleset": self.name, "scenario": sc, "seed": request.seed, "options": opts}
        sides = {"A": sc["sides"]["A"], "B": sc["sides"]["B"]}
        return BattleSetup(self.name, sc["name"], request.seed, doc, sc["name"], {"sides": sides})

    def initial_state(self, document: JsonDict) -> ToyState:
        try:
            sc = document["scenario"]
            fate = Fate.from_state(RngState.from_seed(int(document["seed"])))
            pick_a = fate.choose("secret pick of A", [(p, 1.0) for p in PICKS])
            pick_b = fate.choose("secret pick of B", [(p, 1.0) for p in PICKS if p != pick_a])
            return ToyState(
                scenario=str(sc["name"]), names=(str(sc["sides"]["A"]), str(sc["sides"]["B"])),
                target=int(sc["target"]), turn_limit=int(sc["turn_limit"]),
                bust=str(document.get("options", {}).get("bust", "one")), scores=(0, 0), picks=(pick_a, pick_b),
                to_act="A", turn=0, last="", over=False, winner=None, reason="", rng=fate.state)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulekeeperError):
                raise
            raise RulekeeperError(f"the stored race's initial document is damaged: {exc!r}") from None

    def roles(self, document: JsonDict) -> tuple[str, ...]:
        return SIDES

    def reseeded(self, document: JsonDict, seed: int) -> JsonDict:
        return {**document, "seed": int(seed)}

    # -- playing -------------------------------------------------------------------------------

    def status(self, state: ToyState) -> Status:
        to_act = () if state.over else (state.to_act,)
        return Status(state.over, to_act, to_act, state.turn, state.winner, state.reason)

    def legal_actions(self, state: ToyState) -> list[LegalAction]:
        if state.over:
            return []
        s = state.to_act
        return [LegalAction({"kind": "roll", "side": s}, f"roll ({state.name(s)})", s, None, "", "Roll", "Dice"),
                LegalAction({"kind": "hold", "side": s}, f"hold ({state.name(s)})", s, None, "", "Hold", "Pass")]

    def parse_action(self, state: ToyState, data: Mapping[str, Any]) -> JsonDict:
        kind = str(data.get("kind", "")).strip().lower()
        if kind not in KINDS:
            raise IllegalActionError(f"not an action of the toy race: {kind!r} (roll or hold)", kind=kind)
        side = data.get("side")
        if side is None or side == "":
            if state.over:
                raise IllegalActionError("the race is over")
            side = state.to_act
        side = str(side).strip().upper()
        if side not in SIDES:
            raise IllegalActionError(f"no side {side!r} in the toy race (A or B)", side=side)
        return {"kind": kind, "side": side}

    def parse_words(self, state: ToyState, words: Sequence[str], option: str | None = None) -> JsonDict:
        """``roll`` or ``hold``, optionally followed by the side (``roll A``)."""
        if not 1 <= len(words) <= 2:
            raise IllegalActionError("an action is KIND [SIDE], e.g. roll")
        return self.parse_action(state, {"kind": words[0], "side": words[1] if len(words) > 1 else None})

    def _check(self, state: ToyState, action: JsonDict) -> tuple[str, str]:
        if state.over:
            raise IllegalActionError("the race is over")
        kind, side = action.get("kind"), action.get("side")
        if kind not in KINDS or set(action) != {"kind", "side"}:
            raise IllegalActionError(f"not an action of the toy race: {action!r}")
        if side != state.to_act:
            raise IllegalActionError(f"it is side {state.to_act}'s turn, not {side!r}'s")
        return str(kind), str(side)

    def apply(self, state: ToyState, action: JsonDict) -> Outcome:
        kind, side = self._check(state, action)
        fate = Fate.from_state(state.rng)
        scores = list(state.scores)
        i = SIDES.index(side)
        if kind == "roll":
            face = int(fate.draw(roll_request(roll_label(state, side))).outcome)
            if face == 1 and state.bust == "one":
                scores[i] = 0
                text = f"{state.name(side)} roll 1: bust, back to 0"
            else:
                scores[i] += face
                text = f"{state.name(side)} roll {face}: {scores[i]} points"
        else:
            text = f"{state.name(side)} hold at {scores[i]} points"
        turn = state.turn + 1
        over, winner, reason = False, None, ""
        if scores[i] >= state.target:
            over, winner, reason = True, side, f"reached {state.target} points"
        elif turn >= state.turn_limit:
            over, reason = True, f"turn limit ({state.turn_limit} turns)"
            winner = None if scores[0] == scores[1] else SIDES[0 if scores[0] > scores[1] else 1]
        new = replace(state, scores=(scores[0], scores[1]), to_act=other(side), turn=turn, last=text, over=over,
                      winner=winner, reason=reason, rng=fate.state)
        report: tuple[JsonDict, ...] = ({"text": text},)
        if over:
            report += ({"text": f"The race is over: {reason}"},)
        chance = tuple(fate.records)
        record: JsonDict = {"chance": [c.to_dict() for c in chance], "report": list(report)}
        return Outcome(new, {"kind": kind, "side": side}, side, chance, (), report, record)

    def preview(self, state: ToyState, action: JsonDict) -> OddsPreview:
        kind, side = self._check(state, action)
        if kind == "hold":
            return OddsPreview((("reach the target", 0.0),))
        need = state.target - state.score(side)
        p_win = sum(1 for f in range(1, 7) if f >= need and not (f == 1 and state.bust == "one")) / 6
        p_bust = 1 / 6 if state.bust == "one" else 0.0
        return OddsPreview((("reach the target", p_win), ("bust", p_bust)),
                           (roll_request(roll_label(state, side)),))

    def policy(self, state: ToyState) -> JsonDict | None:
        """Roll, unless ahead with two turns or fewer left (a bust could lose it)."""
        if state.over:
            return None
        s = state.to_act
        ahead = state.score(s) > state.score(other(s))
        kind = "hold" if ahead and state.turn_limit - state.turn <= 2 else "roll"
        return {"kind": kind, "side": s}

    def action_text(self, action: JsonDict) -> str:
        return f"side {action.get('side')}: {action.get('kind')}"

    def side_of(self, action: JsonDict) -> str:
        return str(action.get("side", ""))

    def result(self, state: ToyState) -> GameResult | None:
        if not state.over:
            return None
        summary = {"scores": dict(zip(SIDES, state.scores, strict=True)), "turns": state.turn,
                   "winner": state.winner}
        return GameResult(state.winner, None if state.winner is None else state.name(state.winner), state.reason,
                          summary)

    # -- JSON and views --------------------------------------------------------------------------

    def state_to_json(self, state: ToyState) -> JsonDict:
        return {"scenario": state.scenario, "names": list(state.names), "target": state.target,
                "turn_limit": state.turn_limit, "bust": state.bust, "scores": list(state.scores),
                "picks": list(state.picks), "to_act": state.to_act, "turn": state.turn, "last": state.last,
                "over": state.over, "winner": state.winner, "reason": state.reason, "rng": state.rng.to_dict()}

    def state_from_json(self, document: JsonDict) -> ToyState:
        try:
            d = document
            return ToyState(str(d["scenario"]), (str(d["names"][0]), str(d["names"][1])), int(d["target"]),
                            int(d["turn_limit"]), str(d["bust"]), (int(d["scores"][0]), int(d["scores"][1])),
                            (str(d["picks"][0]), str(d["picks"][1])), str(d["to_act"]), int(d["turn"]),
                            str(d["last"]), bool(d["over"]), None if d["winner"] is None else str(d["winner"]),
                            str(d["reason"]), RngState.from_dict(d["rng"]))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RulekeeperError(f"a stored race state is damaged: {exc!r}") from None

    def view(self, state: ToyState, role: str) -> JsonDict:
        """Everything but the RNG state and the picks; a side also sees its own pick."""
        doc: JsonDict = {
            "scenario": state.scenario, "target": state.target, "turn": state.turn, "turn_limit": state.turn_limit,
            "sides": {s: {"name": state.name(s), "score": state.score(s)} for s in SIDES},
            "to_act": None if state.over else state.to_act, "last": state.last, "over": state.over,
            "winner": state.winner, "reason": state.reason,
        }
        if role in SIDES and role != SPECTATOR:
            doc["your_pick"] = state.picks[SIDES.index(role)]
        return doc

    # -- presentation: the keeper's generic presenters -------------------------------------------

    def web_presenter(self) -> None:
        return None

    def cli_presenter(self) -> None:
        return None

    def register_cli(self, hooks: Any) -> None:
        return None

    def army_builder(self) -> None:
        return None  # no army lists: the pages say so

    def campaign(self) -> None:
        return None

    def duel_kernel(self) -> ToyDuelKernel:
        """Toy bands trading blows, for the balance lab's tests (``tests/toygame/duel.py``)."""
        return ToyDuelKernel()


def roll_label(state: ToyState, side: str) -> str:
    return f"roll: {side} ({state.name(side)}), turn {state.turn + 1}"


def roll_request(label: str) -> ChanceRequest:
    """The one draw of the race: a fair d6 (the preview shows exactly this request)."""
    return discrete(label, [(f, 1.0) for f in FACES], DIE_EXPLAIN)


def parse_options(options: Sequence[str]) -> JsonDict:
    out: JsonDict = {"bust": "one"}
    for item in options:
        key, _, value = item.partition("=")
        if key.strip() != "bust":
            raise UnknownNameError("option", key.strip(), ["bust"])
        if value.strip() not in BUST_CHOICES:
            raise UnknownNameError("value of bust", value.strip(), BUST_CHOICES)
        out["bust"] = value.strip()
    return out


def read_scenario(path: Path) -> JsonDict:
    """A scenario file as the initial document keeps it; every problem listed at once."""
    raw = read_data_file(path)
    problems: list[str] = []
    if not isinstance(raw, dict):
        raise DataFileError(str(path), ["a scenario is a table of keys"])
    if raw.get("ruleset", "toy") != "toy":
        problems.append(f"ruleset is {raw.get('ruleset')!r}, not 'toy'")
    for key in ("name", "description"):
        if not isinstance(raw.get(key), str) or not raw.get(key):
            problems.append(f"{key}: a text is required")
    for key, lo in (("target", 2), ("turn_limit", 1)):
        v = raw.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= 1000:
            problems.append(f"{key}: a whole number from {lo} to 1000 is required")
    sides = raw.get("sides")
    names: dict[str, str] = {}
    if not isinstance(sides, dict) or set(sides) != set(SIDES):
        problems.append("sides: exactly [sides.A] and [sides.B] are required")
    else:
        for s in SIDES:
            n = sides[s].get("name") if isinstance(sides[s], dict) else None
            if not isinstance(n, str) or not n:
                problems.append(f"sides.{s}.name: a text is required")
            else:
                names[s] = n
    unknown = set(raw) - {"ruleset", "name", "description", "target", "turn_limit", "sides"}
    problems += [f"{k}: unknown key" for k in sorted(unknown)]
    if problems:
        raise DataFileError(str(path), problems)
    return {"name": raw["name"], "description": raw["description"], "target": raw["target"],
            "turn_limit": raw["turn_limit"], "sides": names}
