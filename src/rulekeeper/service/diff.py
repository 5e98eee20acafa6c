"""Where two JSON documents differ, path by path (replay reports name the field that drifted)."""

from __future__ import annotations


def json_diff(mine: object, stored: object, path: str = "") -> list[str]:
    """``".units[3].hp[0]: replay 4.0 vs stored 5.0"`` for every leaf that differs."""
    if isinstance(mine, dict) and isinstance(stored, dict):
        out: list[str] = []
        for k in sorted(set(mine) | set(stored), key=str):
            out += json_diff(mine.get(k), stored.get(k), f"{path}.{k}")
        return out
    if isinstance(mine, list) and isinstance(stored, list) and len(mine) == len(stored):
        out = []
        for i, (x, y) in enumerate(zip(mine, stored, strict=True)):
            out += json_diff(x, y, f"{path}[{i}]")
        return out
    return [] if mine == stored else [f"{path or '.'}: replay {mine!r} vs stored {stored!r}"]
