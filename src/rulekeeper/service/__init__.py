"""Services that join rulesets and persistence: what the CLI and the web keeper call."""
