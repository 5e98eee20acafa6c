"""One entry point for every ranged action, whatever falls on the zone: arrows, bolts of
lightning or an artillery boulder (the action's ``resolution`` in ``data/actions.yaml``).

The battle handler resolves through :func:`resolve_shot`, and the odds preview asks
:func:`first_request` for the same opening draw, so the preview cannot drift from the roll
(the headline odds are read off that draw).
"""

from __future__ import annotations

from rulekeeper.core.chance import ChanceRequest, Fate, discrete

from .artillery import boulder_request, resolve_artillery
from .lightning import bolt_request, resolve_lightning
from .ranged import RangedReport, ShotSetup, resolve_volley, shot_odds


def _resolution(setup: ShotSetup) -> str:
    assert setup.data is not None
    return setup.data.action(setup.action).resolution


def resolve_shot(setup: ShotSetup, fate: Fate) -> RangedReport:
    """Resolve the ranged action of ``setup`` by its own rules."""
    kind = _resolution(setup)
    if kind == "lightning":
        return resolve_lightning(setup, fate)
    if kind == "artillery":
        return resolve_artillery(setup, fate)
    return resolve_volley(setup, fate)


def first_request(setup: ShotSetup, first: str) -> ChanceRequest:
    """The first draw the resolution makes for the shooter's first miniature ``first``."""
    kind = _resolution(setup)
    if kind == "lightning":
        return bolt_request(setup, first)
    if kind == "artillery":
        return boulder_request(setup, first)
    o = shot_odds(setup)
    assert setup.data is not None
    per_mini = setup.data.action(setup.action).shots_per_miniature
    return discrete(f"where the shot falls: {first}" + (" shot 1" if per_mini > 1 else ""), o.odds, o.explain)
