"""Confrontation skirmishes in the web keeper: an SVG table in cm over the generic presenter."""
