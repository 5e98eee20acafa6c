"""Confrontation Evo's test core and effect language, as a library (not yet a registered game).

The seed is the A–Z abilities list; the core rules it refers to (opening a 6, the Wound Table on
page 78) are not in it, so the core here is documented, marked ``estimated`` where it is a guess,
and kept in data the player may replace (docs/rules/confrontation.md).
"""
