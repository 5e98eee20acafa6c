"""The ``rulekeeper`` command line (Typer + Rich)."""
