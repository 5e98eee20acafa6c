"""rulekeeper: a rule keeper for tabletop wargames.

Players keep their miniatures on the table; rulekeeper replaces dice, rulers and
rulebooks. The :mod:`rulekeeper.core` package knows no rule system; rule systems
live in :mod:`rulekeeper.rulesets` and are found through a registry.
"""

__version__ = "0.1.0"
