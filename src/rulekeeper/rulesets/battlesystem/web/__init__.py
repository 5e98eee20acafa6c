"""The Battle System in the web keeper: its own presenter (an SVG hex board) over the generic one."""
