"""The War Table campaign in the web keeper: the SVG region map, the order form, the Stability chart."""
