"""Random legal walks through the shipped skirmishes with every fighter given the abilities that are players'
choices (Resolute, Additional limb, Fencer, Sequence, War fury, Cure, Rapidity in rout, Rallying cry): every choice is offered somewhere, every
offered action applies, the state survives its JSON, and the odds shown are the odds drawn (the draws a preview
announces are the first draws of the resolution, as the protocol's conformance test reads them)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.state import SkirmishState, state_from_json, state_to_json

KITS = (("Cure/4", "Fencer", "Rapidity"), ("Additional limb", "Resolute/1", "Rapidity"), ("Fencer", "Sequence/1", "Rallying cry"),
        ("War fury", "Cure/3", "Additional limb"))


def kitted(g: Game, key: str, seed: int, rnd: random.Random) -> SkirmishState:
    info = next(sc for sc in g.scenarios() if sc.key == key)
    s = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=seed)).document)
    kit = {name: rnd.choice(KITS) for name in sorted({f.card.name for f in s.fighters})}  # a card, one kit
    return s.with_fighters(*(replace(f, card=f.card.model_copy(
        update={"abilities": [*f.card.abilities, *kit[f.card.name]]})) for f in s.fighters))


def walk(g: Game, s: SkirmishState, rnd: random.Random, seen: Counter[str], steps: int) -> None:
    for _ in range(steps):
        if g.status(s).over:
            return
        lg = rnd.choice(g.legal_actions(s))
        seen[f"{lg.action['kind']} {lg.action.get('ability', '')}".strip()] += 1
        shown = {r.label: r for r in g.preview(s, lg.action).draws}
        out = g.apply(s, lg.action)
        for record in out.chance:
            if record.request.label not in shown:
                break
            assert shown[record.request.label].probabilities == record.request.probabilities, lg.action
        assert state_from_json(state_to_json(out.state)) == out.state
        s = out.state


def test_every_players_choice_is_offered_and_plays_through(g: Game) -> None:
    seen: Counter[str] = Counter()
    for trial, key in enumerate(("the_ford", "ruined_wall", "the_seers_circle", "the_watchtower", "the_broken_line",
                                 "the_ford", "the_hunters_wood", "the_mill_race")):
        rnd = random.Random(trial)
        walk(g, kitted(g, key, trial, rnd), rnd, seen, 250)
    for choice in ("declare Resolute", "declare Additional limb", "declare Fencer", "declare Sequence",
                   "declare War fury", "declare Rapidity", "declare Rallying cry", "cure", "place"):
        assert seen[choice] > 0, (choice, seen)
