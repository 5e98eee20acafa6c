"""Rule systems, each a small package found through :mod:`rulekeeper.core.ruleset`."""
