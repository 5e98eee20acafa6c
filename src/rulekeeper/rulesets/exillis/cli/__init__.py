"""The Ex illis commands: the calculator (``odds``/``resolve exillis``), ``units exillis``,
``muster`` and ``campaign``, added to the CLI through :meth:`ExIllis.register_cli`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulekeeper.cli.hooks import CliHooks


def register(hooks: CliHooks) -> None:
    """Plug every Ex illis command into the CLI's groups (``hooks`` is a :class:`rulekeeper.cli.hooks.CliHooks`)."""
    from . import calculator, campaign, musters, units

    calculator.register(hooks.odds, hooks.resolve)
    musters.register(hooks.app)
    campaign.register(hooks.app)
    hooks.add_units("exillis", units.units_command)
