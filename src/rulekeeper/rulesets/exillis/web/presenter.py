"""The Ex illis web presenter: the zone board, turn bar, actions with odds, Fate Screen, unit panel
and end screen, drawn with this package's own Jinja2 templates (``templates/``, mounted by the
web keeper as ``exillis/…``).

It implements :class:`rulekeeper.core.present.WebPresenter`; the page shell (links, turns,
reveals, undo, replay, live updates) is the keeper's and knows nothing of Ex illis. Everything
returned is :class:`~markupsafe.Markup` made by autoescaping templates, so nothing from a
battle (unit names, scenario text) reaches the page unescaped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Required, TypedDict

from jinja2 import Environment
from markupsafe import Markup

from rulekeeper.boards.zones import DIRECTIONS
from rulekeeper.core.errors import IllegalActionError, RulekeeperError
from rulekeeper.core.game import LegalAction, OddsPreview
from rulekeeper.core.present import FateScreen, Header, Links
from rulekeeper.core.wording import counted, percent

from ..battle.actions import Action
from ..battle.handlers import _crossed
from ..battle.moves import charge_routes, classify, group_of, origin_direction
from ..battle.reactions import REACTION_DIRECTION, charge_reactions
from ..battle.result import summary
from ..battle.specials import unit_mods
from ..battle.state import BattleState, BattleUnit
from ..battle.tables import BattleTables
from ..battle.turnbar import predict
from ..game import KIND_TITLES
from ..logged import entries, entry, listed, number
from ..melee import MeleeContext, duel_odds, target_odds
from ..morale import state_of
from ..profiles import STAT_KEYS
from ..ranged import ShotSetup, shot_odds
from ..shots import first_request
from ..spells import cast_odds

TEMPLATES = Path(__file__).resolve().parent / "templates"


# -- small formatting helpers ------------------------------------------------------------------


#: the one formatting of a chance (``core.wording.percent``)
pct = percent


def short(key: str) -> str:
    """``"A:Hobelars #2"`` → ``"Hobelars #2"``."""
    return key.split(":", 1)[-1]


_KEY = re.compile(r"(?<![\w:])[A-Z]:(?=[^\s:])")


def plain(text: str) -> str:
    """Engine notes name units by key (``"A:Hobelars"``); players read names (``"Hobelars"``)."""
    return _KEY.sub("", text)


def _dmg(lo_hi: tuple[int, int] | list[int] | None) -> str:
    if lo_hi is None:
        return ""
    lo, hi = lo_hi[0], lo_hi[1]
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


# -- Ex illis ----------------------------------------------------------------------------------

ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}

STAT_NAMES: dict[str, str] = {
    "ini": "Initiative", "agg": "Aggressiveness", "bulk": "Bulk", "bulk_range": "Bulk (ranged)",
    "ret": "Retaliation", "blk": "Block", "eva": "Evade", "dfl": "Deflect", "shd": "Shield", "armour": "Armour",
    "morale": "Basic morale", "mrls": "Morale sensitivity", "mblk": "Missile block", "cost": "Basic cost",
    "max_level": "Maximum level", "miniatures": "Miniatures (full)", "hp": "Hit points", "str": "Strength",
    "tgh": "Toughness", "sht": "Shooting", "acc": "Accuracy", "racc": "Ranged accuracy", "macc": "Magic accuracy",
    "mag": "Magic", "wpd": "Weapon damage", "ap": "Armour piercing", "ranged_wpd": "Ranged weapon damage",
    "ranged_ap": "Ranged armour piercing", "range": "Range", "cp": "Charge power", "rp": "Reaction power",
    "intimidation": "Intimidation", "fatigue_rate": "Fatigue rate", "veil_rate": "Veil rate", "level": "Level",
}
PERCENT_STATS = frozenset({"ret", "mrls", "mblk", "fatigue_rate", "veil_rate"})

CARD_KINDS = ("duel", "shot", "cast", "cut_down")


def _num(x: float) -> str:
    return f"{x:.0f}" if abs(x - round(x)) < 1e-9 else f"{x:.1f}"


class Badge(TypedDict):
    """One unit's counter on the board and at the head of its panel (``counter.html``, ``unit.html``)."""

    key: str
    name: str
    side: str
    hero: bool
    general: bool
    count: int
    size: int
    minis: list[bool]
    hp: float
    max_hp: float
    morale: float
    state: str
    state_text: str
    fatigue: float
    veil: float
    stance: str
    flying: bool
    fleeing: bool
    active: bool
    status: str


class OddsItem(TypedDict):
    """One headline chance of an action ("Hit 42.0 %"); ``p`` is None for a line of text."""

    label: str
    text: str
    p: float | None


class FateItem(TypedDict, total=False):
    """One line or card of the Fate Screen (``fate.html``), by its kind ``t``. The report entries a card
    shows (``strike``, ``ret``, ``s``, ``c``, ``r``) are handed to the template as the log stores them."""

    t: Required[str]  # note, header, duel, shot, cast, cut_down, casualties, morale
    text: str
    strike: Mapping[str, object]
    ret: Mapping[str, object] | None
    s: Mapping[str, object]
    c: Mapping[str, object]
    r: Mapping[str, object]
    list: list[str]
    unit: str
    before: str
    after: str
    state: str
    reasons: list[str]
    n: int  # the card's number, once it is turned
    fresh: bool  # the card turned last


@dataclass
class _Section:
    """One table of odds in the preview (one duel, one volley, one cast) and how it was made."""

    title: str
    odds: list[tuple[str, float, str]] = field(default_factory=list)  # outcome, chance, damage
    explain: list[str] = field(default_factory=list)


class ExIllisPresenter:
    """The zone board, turn bar, actions with odds and the Fate Screen of Ex illis."""

    ruleset = "exillis"

    def __init__(self, tables: BattleTables) -> None:
        self.t = tables
        self.env: Environment | None = None

    def template_dir(self) -> Path:
        return TEMPLATES

    def bind(self, env: Environment) -> None:
        self.env = env

    def _render(self, name: str, **ctx: object) -> Markup:
        assert self.env is not None, "bind() the presenter to the keeper's environment first"
        return Markup(self.env.get_template(f"exillis/{name}").render(**ctx))

    # -- the board -----------------------------------------------------------------------------

    def _badge(self, state: BattleState, u: BattleUnit) -> Badge:
        c = u.c
        return {
            "key": u.key, "name": short(u.key), "side": u.side, "hero": u.is_hero, "general": u.general,
            "count": c.count, "size": len(c.hp), "minis": [h > 0 for h in c.hp],
            "hp": sum(c.hp), "max_hp": c.max_hp * len(c.hp), "morale": c.morale, "state": state_of(c),
            "state_text": state_of(c).replace("Overconfident", "Over\u00adconfident"),  # may break on a phone
            "fatigue": c.fatigue, "veil": c.veil, "stance": c.stance, "flying": c.flying, "fleeing": c.fleeing,
            "active": u.key in state.active, "status": u.status,
        }

    def board(self, state: BattleState, links: Links, caption: str = "") -> Markup:
        rows = []
        for row in range(state.board.height):
            cells = []
            for col in range(state.board.width):
                z = (col, row)
                fd = state.fight_dir(z)
                fight = None
                if fd is not None:
                    d = DIRECTIONS[fd[1]]
                    fight = {"side": fd[0], "arrow": ARROWS[d], "dir": d}
                units = [self._badge(state, u) for u in state.in_zone(z)]
                cells.append({"name": state.board.name(z), "terrain": state.terrain_at(z), "fight": fight,
                              "units": units, "active": any(u["active"] for u in units)})
            rows.append({"label": str(row + 1), "cells": cells})
        off = [self._badge(state, u) for u in state.units if not u.on_board]
        cols = [chr(ord("A") + c) for c in range(state.board.width)]
        return self._render("board.html", rows=rows, cols=cols, off=off, links=links, caption=caption,
                            armies=dict(state.armies))

    def header(self, state: BattleState) -> Header:
        limit = f" of {state.turn_limit}" if state.turn_limit else ""
        return Header(dict(state.armies), f"Round {state.round:.1f}{limit}", tuple(short(k) for k in state.active))

    def turn_bar(self, state: BattleState) -> Markup:
        groups = []
        for g in ([] if state.over else predict(state, 8)):
            groups.append({"names": " + ".join(short(k) for k in g), "side": state.unit(g[0]).side})
        return self._render("turnbar.html", groups=groups, active=bool(state.active))

    # -- actions and odds ----------------------------------------------------------------------

    def action_text(self, action: Mapping[str, object]) -> str:
        """A logged action as a sentence ("Billmen: charge to B3"); an action that does not read as one, its values."""
        try:
            a = Action.from_dict(action)
        except IllegalActionError:
            return " ".join(str(v) for v in action.values())
        kind, unit, target, option = a.kind, short(a.unit), a.target, a.option
        title = KIND_TITLES.get(kind, kind)
        if kind in ("move", "charge", "retreat"):
            return f"{unit}: {title.lower()} to {target}"
        if kind == "shoot":
            return f"{unit}: {(option or 'shot').replace('_', ' ')} at {target}"
        if kind == "cast":
            return f"{unit}: cast {option} on {short(str(target))}"
        if kind == "stance":
            return f"{unit}: {option} stance"
        return f"{unit}: {title.lower()}"

    @staticmethod
    def _odds_items(odds: OddsPreview) -> list[OddsItem]:
        out: list[OddsItem] = []
        for k, v in odds.headline:
            if isinstance(v, float):
                out.append({"label": k, "text": pct(v), "p": v})
            else:
                out.append({"label": k, "text": str(v), "p": None})
        return out

    def actions(self, state: BattleState, legal: list[LegalAction], previews: list[OddsPreview],
                links: Links) -> Markup:
        groups: dict[str, list[dict[str, Any]]] = {}
        for i, (lg, odds) in enumerate(zip(legal, previews, strict=True)):
            groups.setdefault(str(lg.action["kind"]), []).append({
                "index": i, "label": lg.label, "acp": _num(lg.cost or 0.0), "note": lg.note,
                "odds": ", ".join(f"{o['label']} {o['text']}" for o in self._odds_items(odds)),
                "href": links.pick(i),
            })
        return self._render("actions.html", groups=[
            {"kind": k, "title": KIND_TITLES.get(k, k), "entries": v} for k, v in groups.items()])

    def _melee_sections(self, state: BattleState, u: BattleUnit, action: str, direction: str) -> list[_Section]:
        assert u.zone is not None
        zone_units = [x for x in state.in_zone(u.zone) if x.key != u.key] + [u]
        combatants = tuple(x.c for x in zone_units)
        mods = tuple((x.key, unit_mods(state, x, action == "charge")) for x in zone_units)
        ctx = MeleeContext(self.t.rules, state.options, action, direction, mods)
        out = []
        for target, p in target_odds(u.c, combatants):
            d = duel_odds(u.c, next(c for c in combatants if c.key == target), ctx)
            sec = _Section(f"{u.name} against {short(target)} — first blow lands here {pct(p)}", explain=list(d.explain))
            sec.odds = [(k, v, _dmg(d.damage.get(k))) for k, v in d.odds]
            out.append(sec)
        return out

    def _sections(self, state: BattleState, a: Action) -> list[_Section]:
        u = state.unit(a.unit)
        if u.zone is None:
            return []
        if a.kind == "fight":
            return self._melee_sections(state, u, "fight", classify(state, u.zone, u.side, u.approach))
        if a.kind == "charge":
            route = next(r for r in charge_routes(state, self.t.rules, u) if state.board.name(r.to) == a.target)
            origin = route.path[-2] if len(route.path) >= 2 else u.zone
            direction = classify(state, route.to, u.side, origin_direction(state, route.to, origin))
            moved = state.with_units({u.key: replace(u, zone=route.to)})
            secs = self._melee_sections(moved, moved.unit(u.key), "charge", direction)
            members = [m for m in group_of(state, u) if m.on_board]
            for r in reversed(charge_reactions(state, self.t, members, route.to, direction)):
                secs.insert(0, _Section(f"{short(r.defender)} may react to the charge ({direction})", [
                    ("Reacts", r.chance, ""), ("Caught", 1 - r.chance, "")],
                    [f"RP {_num(r.rp)} vs CP {_num(r.cp)}, × {REACTION_DIRECTION[direction]:g} ({direction})"]))
            return secs
        if a.kind == "shoot":
            z = state.board.parse(a.target or "")
            setup = ShotSetup(u.c, tuple(x.c for x in state.in_zone(z)), state.terrain_at(z), _crossed(state, u.zone, z),
                              state.board.distance(u.zone, z), a.option or "shot", self.t.rules, state.options)
            if self.t.rules.action(a.option or "shot").resolution != "bow":  # lightning, artillery
                req = first_request(setup, u.key)
                sec = _Section(f"{u.c.count} × {u.name}: {req.label.split(':')[0]}", explain=list(req.explain))
                sec.odds = [(k, p, "") for k, p in req.odds()]
                return [sec]
            so = shot_odds(setup)
            sec = _Section(f"{u.c.count} × {u.name}: where each shot falls", explain=list(so.explain))
            sec.odds = [(k, v, "") for k, v in so.odds]
            dmg = [f"on {short(k)}: {_dmg(v)}" for k, v in so.damage.items()]
            if dmg:
                sec.explain.append("damage per hit " + "; ".join(dmg))
            return [sec]
        if a.kind == "cast":
            v = state.unit(a.target or "")
            if v.zone is None:
                return []
            co = cast_odds(u.c, v.c, a.option or "", state.board.distance(u.zone, v.zone), self.t.rules, state.options)
            sec = _Section(f"{u.name} casts {a.option} on {v.name}", explain=list(co.explain))
            sec.odds = [(k, p, _dmg(co.damage) if k == "Spell hit" else "") for k, p in co.odds]
            return [sec]
        return []

    def preview(self, state: BattleState, legal: LegalAction, odds: OddsPreview, links: Links) -> Markup:
        try:
            sections = self._sections(state, Action.from_dict(legal.action))
        except (RulekeeperError, StopIteration, KeyError):
            sections = []
        return self._render("preview.html", lg=legal, text=self.action_text(legal.action),
                            acp=_num(legal.cost or 0.0), odds=self._odds_items(odds), sections=sections, links=links,
                            pct=pct)

    # -- the Fate Screen of results ------------------------------------------------------------

    def _items(self, report: Sequence[Mapping[str, object]]) -> list[FateItem]:
        """The report as a sequence of lines and cards; cards are what a player reveals."""
        items: list[FateItem] = []
        for r in report:
            kind = r.get("kind")
            if kind == "note":
                items.append({"t": "note", "text": plain(str(r.get("text", "")))})
            elif kind == "melee":
                items.append({"t": "header", "text": f"{short(str(r['attacker']))}: {r['action']} in {r['zone']} ({r['direction']})"})
                for d in entries(r.get("duels")):
                    ret = d.get("retaliation")
                    items.append({"t": "duel", "strike": entry(d["strike"]), "ret": None if ret is None else entry(ret)})
                items += self._aftermath(r)
            elif kind == "shoot":
                items.append({"t": "header", "text": f"{short(str(r['shooter']))}: {str(r['action']).replace('_', ' ')} at {r['zone']}"})
                for s in entries(r.get("shots")):
                    items.append({"t": "shot", "s": s})
                items += self._aftermath(r)
            elif kind == "cast":
                items.append({"t": "header", "text": f"{short(str(r['caster']))} casts {r['spell']}"})
                for c in entries(r.get("casts")):
                    items.append({"t": "cast", "c": c})
                items += self._aftermath(r)
            elif kind == "cut_down":
                items.append({"t": "cut_down", "r": r})
            elif kind == "morale" and r.get("reasons"):
                items.append(self._morale(r))
        return items

    @staticmethod
    def _morale(m: Mapping[str, object]) -> FateItem:
        return {"t": "morale", "unit": short(str(m["unit"])), "before": _num(number(m["before"])),
                "after": _num(number(m["after"])), "state": str(m.get("state_after", "")),
                "reasons": [plain(str(x)) for x in listed(m.get("reasons", []))]}

    def _aftermath(self, r: Mapping[str, object]) -> list[FateItem]:
        out: list[FateItem] = []
        if r.get("casualties"):
            out.append({"t": "casualties", "list": [short(str(x)) for x in listed(r["casualties"])]})
        out += [self._morale(m) for m in entries(r.get("morale", [])) if m.get("reasons")]
        return out

    def fate_count(self, report: Sequence[Mapping[str, object]]) -> int:
        return sum(1 for i in self._items(report) if i["t"] in CARD_KINDS)

    def fate(self, report: Sequence[Mapping[str, object]], shown: int | None, links: Links, index: int) -> FateScreen:
        """``shown`` cards revealed (None: all); the lines after the last shown card wait for the next."""
        items = self._items(report)
        total = sum(1 for i in items if i["t"] in CARD_KINDS)
        limit = total if shown is None else max(0, min(shown, total))
        visible: list[FateItem] = []
        cards = 0
        for it in items:
            if it["t"] in CARD_KINDS:
                if cards == limit:
                    break
                cards += 1
                it = {**it, "n": cards, "fresh": cards == limit and shown is not None}
            visible.append(it)
        html = self._render("fate.html", items=visible, hidden=total - limit, total=total, shown=limit,
                            links=links, index=index, short=short)
        return FateScreen(html, total, limit)

    def log_lines(self, report: Sequence[Mapping[str, object]]) -> list[str]:
        out = []
        for it in self._items(report):
            t = it["t"]
            if t in ("note", "header"):
                out.append(it["text"])
            elif t == "casualties":
                out.append("casualties: " + ", ".join(it["list"]))
            elif t == "morale":
                out.append(f"morale {it['unit']}: {it['before']} → {it['after']} ({it['state']})")
        n = self.fate_count(report)
        if n:
            out.append(f"{counted(n, 'result')} of chance")
        return out

    # -- unit panel and end screen -------------------------------------------------------------

    def unit_panel(self, state: BattleState, key: str, links: Links) -> Markup:
        u = state.unit(key)
        c, p = u.c, u.c.profile
        status = [
            ("Side", f"{u.side} — {dict(state.armies).get(u.side, u.side)}"),
            ("Status", u.status + (" (fleeing)" if c.fleeing else "")),
            ("Zone", "—" if u.zone is None else state.board.name(u.zone)),
            ("Level", str(c.level)),
            ("Miniatures", f"{c.count} of {len(c.hp)}"),
            ("Hit points", " · ".join(_num(h) for h in c.hp) + f" (max {_num(c.max_hp)} each)"),
            ("Morale", f"{_num(c.morale)} — {state_of(c)}"),
            ("Fatigue", _num(c.fatigue)), ("Veil", _num(c.veil)), ("Action points", _num(u.acp)),
            ("Stance", c.stance), ("Flying", "yes" if c.flying else "no"),
            ("Reloaded", "yes" if u.reloaded else "no"), ("Moved last turn", "yes" if c.moved else "no"),
            ("Long action", "—" if u.pending is None else f"{u.pending.option or u.pending.kind} at {u.pending.target}"),
            ("Leadership in morale", _num(u.leadership)), ("Intimidation modifier", _num(c.intimidation_mod)),
            ("Kills", str(u.kills)), ("Points", str(u.points)),
        ]
        if u.general:
            status.append(("General", "yes"))
        if u.hero:
            status.append(("Hero", short(u.hero)))
        if u.retinue:
            status.append(("Retinue", short(u.retinue)))
        if c.chain[0]:
            status.append(("Elemental chain", f"{c.chain[0]} × {c.chain[1]}"))
        stats = []
        for k in STAT_KEYS:
            try:
                v = c.stat(k)
            except RulekeeperError:
                continue
            stats.append((STAT_NAMES.get(k, k), f"{v * 100:.0f} %" if k in PERCENT_STATS else _num(v)))
        resist = [(el, _num(float(sv.value))) for el, sv in p.resist.items()]
        traits = [
            ("Kind", str(p.kind)), ("Movement", str(p.movement)), ("Armour type", str(p.armour_type)),
            ("Special rules", ", ".join(p.special_rules) or "—"), ("Heroic power", p.heroic_power or "—"),
            ("Ranged actions", ", ".join(p.shots) or "—"), ("Spells", ", ".join(p.spells) or "—"),
            ("Immune to", ", ".join(p.immune) or "—"), ("Categories", ", ".join(p.categories)),
        ]
        return self._render("unit.html", u=self._badge(state, u), status=status, stats=stats,
                            resist=resist, traits=traits, links=links)

    def result(self, state: BattleState) -> Markup:
        return self._render("result.html", r=summary(state), short=short)

