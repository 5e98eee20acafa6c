"""The web rule keeper: a JSON API (and, later, pages) over the same engine and store."""
