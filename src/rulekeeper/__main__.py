"""``python -m rulekeeper`` runs the command line."""

from rulekeeper.cli.app import main

main()
