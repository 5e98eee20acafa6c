"""The rule-system-agnostic core: errors, seeded fate, chance records, curves, registry.

Nothing in here imports a ruleset, the CLI, persistence or the web keeper.
"""
