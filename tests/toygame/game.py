"""A dice race on the game protocol: the smallest whole rule system the keeper can play.

Two sides, ``A`` and ``B``, take turns. The side to act either **rolls** a six-sided die and
adds it to its score (a 1 busts the score back to 0, unless the ``bust`` option says ``none``)
or **holds**. The first side to reach the scenario's target wins; at the turn limit the higher
score wins, equal scores draw. Each side also has a **secret pick** (one of :data:`PICKS`),
drawn when the race starts: it stands in for a real game's hidden information, so that
:meth:`ToyGame.view` has something to hide and the conformance test something to look for.

It shows the minimum a game writes: :class:`~rulekeeper.core.base.BaseGame` supplies every
other member (sides, JSON of the typed state, parsing actions from their listed words, no
presenter, no CLI command). All chance goes through the RNG state kept in :class:`ToyState`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field

from rulekeeper.core.actioncodec import ActionCodec
from rulekeeper.core.base import BaseGame
from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.game import GameResult, JsonDict, LegalAction, OddsPreview, Outcome, Status
from rulekeeper.core.rng import RngState
from rulekeeper.core.ruleset import OptionInfo, Resolution

from .duel import ToyDuelKernel

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"
SIDES = ("A", "B")
PICKS = ("owl", "lynx", "stag", "wren", "boar", "newt")  # words found nowhere else in a view
FACES, DIE = [(str(f), 1.0) for f in range(1, 7)], ("a fair six-sided die: each face 1/6",)
BUST = OptionInfo("bust", "one", ("one", "none"), "what a roll of 1 does: 'one' busts the score to 0, 'none' adds 1")


class Scenario(BaseModel, extra="forbid"):
    """A race as its file writes it (every problem listed at once by ``core.datafiles.read_model``)."""

    ruleset: Literal["toy"] = "toy"
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    target: int = Field(ge=2, le=1000, strict=True)
    turn_limit: int = Field(ge=1, le=1000, strict=True)
    sides: dict[Literal["A", "B"], dict[Literal["name"], Annotated[str, Field(min_length=1)]]] = Field(min_length=2)


@dataclass(frozen=True)
class Move:
    """A side's action, typed: roll the die or hold (``ACTIONS`` is its one JSON codec)."""

    kind: Literal["roll", "hold"]
    side: str


ACTIONS = ActionCodec(Move)


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


class ToyGame(BaseGame[ToyState, Move]):
    """The dice race: its rules, its odds and its secret; the rest is :class:`BaseGame`'s."""

    name: ClassVar[str] = "toy"
    aliases: ClassVar[tuple[str, ...]] = ("toy race", "dice race")
    title: ClassVar[str] = "Toy dice race"
    state_type: ClassVar[type] = ToyState
    option_infos: ClassVar[tuple[OptionInfo, ...]] = (BUST,)
    scenario_folder: ClassVar[Path | None] = SCENARIO_DIR
    scenario_model: ClassVar[type[BaseModel] | None] = Scenario
    previewed_draws: ClassVar[tuple[str, ...]] = ("roll",)
    action_codec = ACTIONS

    def sample_resolution(self, fate: Fate) -> Resolution:
        """Five rolls of the die (the calculator side: what ``lab``'s and the conformance test's replays check)."""
        faces = [fate.draw(discrete(f"sample roll {i + 1}", FACES, DIE)).outcome for i in range(5)]
        return Resolution(self.name, "rolls", {"faces": faces}, fate.record_dicts())

    def initial_state(self, document: JsonDict) -> ToyState:
        sc, fate = document["scenario"], Fate.from_state(RngState.from_seed(int(document["seed"])))
        pick_a = fate.choose("secret pick of A", [(p, 1.0) for p in PICKS])
        pick_b = fate.choose("secret pick of B", [(p, 1.0) for p in PICKS if p != pick_a])
        return ToyState(str(sc["name"]), (sc["sides"]["A"]["name"], sc["sides"]["B"]["name"]), int(sc["target"]),
                        int(sc["turn_limit"]), document["options"]["bust"], (0, 0), (pick_a, pick_b), "A", 0, "",
                        False, None, "", fate.state)

    def status(self, state: ToyState) -> Status:
        to_act = () if state.over else (state.to_act,)
        return Status(state.over, to_act, to_act, state.turn, state.winner, state.reason)

    def legal_actions(self, state: ToyState) -> list[LegalAction]:
        side, name = state.to_act, state.names[SIDES.index(state.to_act)]
        return [LegalAction(ACTIONS.encode(m), f"{m.kind} ({name})", side, None, "", m.kind.title(), group)
                for m, group in ((Move("roll", side), "Dice"), (Move("hold", side), "Pass")) if not state.over]

    def apply(self, state: ToyState, action: Move) -> Outcome:
        side = self.legal_side(state, action)
        fate, scores, i = Fate.from_state(state.rng), list(state.scores), SIDES.index(side)
        name = state.names[i]
        if action.kind == "roll":
            face = int(fate.draw(roll_request(state, side)).outcome)
            busts = face == 1 and state.bust == "one"
            scores[i] = 0 if busts else scores[i] + face
            text = f"{name} roll 1: bust, back to 0" if busts else f"{name} roll {face}: {scores[i]} points"
        else:
            text = f"{name} hold at {scores[i]} points"
        new = replace(state, scores=(scores[0], scores[1]), to_act=SIDES[1 - i], turn=state.turn + 1, last=text,
                      rng=fate.state)
        if scores[i] >= state.target:
            new = replace(new, over=True, winner=side, reason=f"reached {state.target} points")
        elif new.turn >= state.turn_limit:
            leader = None if scores[0] == scores[1] else SIDES[0 if scores[0] > scores[1] else 1]
            new = replace(new, over=True, winner=leader, reason=f"turn limit ({state.turn_limit} turns)")
        report = [{"text": text}] + ([{"text": f"The race is over: {new.reason}"}] if new.over else [])
        return self.outcome(new, action, side, fate.records, report)

    def preview(self, state: ToyState, action: Move) -> OddsPreview:
        side = self.legal_side(state, action)
        if action.kind == "hold":
            return OddsPreview((("reach the target", 0.0),))
        need, busts = state.target - state.scores[SIDES.index(side)], state.bust == "one"
        p_win = sum(1 for face in range(1, 7) if face >= need and not (face == 1 and busts)) / 6
        return OddsPreview((("reach the target", p_win), ("bust", 1 / 6 if busts else 0.0)),
                           (roll_request(state, side),))

    def policy(self, state: ToyState) -> Move | None:
        """Roll, unless ahead with two turns or fewer left (a bust could lose it)."""
        side, i = state.to_act, SIDES.index(state.to_act)
        hold = state.scores[i] > state.scores[1 - i] and state.turn_limit - state.turn <= 2
        return None if state.over else Move("hold" if hold else "roll", side)

    def result(self, state: ToyState) -> GameResult | None:
        summary = {"scores": dict(zip(SIDES, state.scores, strict=True)), "turns": state.turn, "winner": state.winner}
        name = None if state.winner is None else state.names[SIDES.index(state.winner)]
        return GameResult(state.winner, name, state.reason, summary) if state.over else None

    def view(self, state: ToyState, role: str) -> JsonDict:
        """The state but its RNG (dropped by the default view) and the picks; a side also sees its own pick."""
        shown = {k: v for k, v in super().view(state, role).items() if k not in ("picks", "names", "scores")}
        shown |= {"to_act": None if state.over else state.to_act, "sides": {
            s: {"name": n, "score": v} for s, n, v in zip(SIDES, state.names, state.scores, strict=True)}}
        return shown | ({"your_pick": state.picks[SIDES.index(role)]} if role in SIDES else {})

    def secrets(self, state: ToyState, role: str) -> list[str]:
        """What ``role`` must never see (the conformance test looks for them in every view)."""
        return [pick for side, pick in zip(SIDES, state.picks, strict=True) if side != role]

    def duel_kernel(self) -> ToyDuelKernel:
        """Toy bands trading blows, for the balance lab's tests (``tests/toygame/duel.py``)."""
        return ToyDuelKernel()


def roll_request(state: ToyState, side: str) -> ChanceRequest:
    """The one draw of the race: a fair d6 (the preview shows exactly this request)."""
    return discrete(f"roll: {side} ({state.names[SIDES.index(side)]}), turn {state.turn + 1}", FACES, DIE)
