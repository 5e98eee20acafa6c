"""The War Table engagement's web presenter: both sides as cards, the region, the Enclave, the six steps.

The generic presenter drew one engagement as a 4,900 px key/value dump of the state (issue 25).
Here the board is what a player reads at the table: each side's units with Health (and Health
after), Attack, Defense and traits; the region's traits and the Enclave's Stability; whose turn it
is (the attackers attack, then the defenders' link answers); once resolved, each side's step-4
split and every unit's casualties. Nothing is secret (no chance, no hidden orders), so every link
sees the same board. Actions, preview, Fate Screen and end screen stay generic: the actions list
already gives the exact outcome of the one action.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict

from markupsafe import Markup

from rulekeeper.core.present import Header, Links
from rulekeeper.web.presenters import GenericPresenter

from ..codec import SIDES
from ..model import fold
from ..readings import rule_readings
from ..rounding import show
from ..state import WarTableState

TEMPLATES = Path(__file__).resolve().parent / "templates"


class UnitCard(TypedDict):
    """One unit on its side's card (``templates/wartable/board.html``)."""

    label: str
    profile: str
    health: str
    attack: str
    defense: str
    traits: list[str]
    marks: list[str]
    after: str | None
    lost: str | None
    destroyed: bool
    fights: bool


class SideCard(TypedDict):
    key: str
    name: str
    role: str
    units: list[UnitCard]


class Split(TypedDict):
    side: str
    text: str


class StabilityLine(TypedDict):
    enclave: str
    before: str
    after: str
    fallen: bool
    effects: list[str]


class Steps(TypedDict):
    """The resolved battle in a few lines: each side's step-4 split, the Stability change, the notes."""

    split: list[Split]
    stability: StabilityLine | None
    notes: list[str]


def _side(state: WarTableState, side: str) -> SideCard:
    """One side's card: its name and each unit's profile, Health now and after the battle."""
    b = state.battle
    units = b.attackers if side == "attackers" else b.defenders
    after = {} if state.report is None else {h.label: h for h in state.report.health}
    rows: list[UnitCard] = []
    for label, c in zip(state.labels()["attackers" if side == "attackers" else "defenders"], units, strict=True):
        h = after.get(label)
        rows.append({
            "label": label, "profile": "" if fold(label) == fold(c.unit.name) else c.unit.name,
            "health": show(c.base_health), "attack": show(c.unit.attack), "defense": show(c.unit.defense),
            "traits": list(c.unit.traits), "marks": [*c.marks, *(f"curse {x}" for x in c.curses)],
            "after": None if h is None else show(h.after), "lost": None if h is None else show(h.unblocked),
            "destroyed": bool(h is not None and h.destroyed), "fights": c.base_health > 0,
        })
    return {"key": side, "name": b.shown_name("attackers" if side == "attackers" else "defenders"),
            "role": side.capitalize(), "units": rows}


def _steps(state: WarTableState) -> Steps | None:
    """The resolved battle in a few readable lines: step 4's split per side, the Stability change."""
    r = state.report
    if r is None:
        return None
    st = r.stability
    stability: StabilityLine | None = None
    if st is not None:
        before = "unknown" if st.before is None else show(st.before)
        after = "unknown" if st.after is None else show(st.after)
        stability = {"enclave": st.enclave, "before": before, "after": after, "fallen": st.fallen,
                     "effects": [e.arithmetic for e in st.effects]}
    return {"split": [{"side": state.battle.shown_name(a.side), "text": a.arithmetic()} for a in r.allocations],
            "stability": stability, "notes": list(r.notes)}


class WarTableWebPresenter(GenericPresenter[WarTableState]):
    """Board and header for ``wartable`` engagements; everything else generic."""

    def template_dir(self) -> Path:
        return TEMPLATES

    def board(self, state: WarTableState, links: Links, caption: str = "") -> Markup:
        b = state.battle
        status = self.game.status(state)
        turn = None if status.over else status.to_act[0]
        enclave = None
        if b.enclave is not None:
            enclave = {"name": b.enclave.name, "side": b.shown_name(b.enclave.side),
                       "stability": "unknown" if b.enclave.stability is None else show(b.enclave.stability)}
        return self._render(
            "wartable/board.html", caption=caption, title=b.title or "War Table battle", action=b.action,
            traits=list(b.region_traits), sides=[_side(state, s) for s in SIDES], enclave=enclave,
            turn=turn, turn_name=None if turn is None else b.shown_name("attackers" if turn == "attackers" else "defenders"),
            declared=state.declared, steps=_steps(state), readings=rule_readings(b.options, enclave=enclave is not None))

    def header(self, state: WarTableState) -> Header:
        status = self.game.status(state)
        b = state.battle
        clock = "Resolved" if status.over else ("The defenders answer" if state.declared else "The attack")
        return Header({s: b.shown_name(s) for s in SIDES}, clock, status.acting)

    def action_text(self, action: Mapping[str, object]) -> str:
        return self.game.action_text(action)
