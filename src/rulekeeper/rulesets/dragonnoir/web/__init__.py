"""The web keeper's drawing of Dragon Noir battles: an SVG hex map with reach and lines of fire."""
