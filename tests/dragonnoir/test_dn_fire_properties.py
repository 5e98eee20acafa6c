"""Properties of the line of fire on random maps: symmetric where the rules are, walls always block,
stunned characters never block ("stunned or dead characters do not block the line of fire")."""

from __future__ import annotations

import math

from dn_kit import SHEET, scene
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekeeper.boards.hexedges import Edge, segment_hexes
from rulekeeper.boards.hexes import hex_centre, hex_label, hex_lines, hex_neighbours, offset_to_hex
from rulekeeper.rulesets.dragonnoir.fire import line_of_fire

W, H = 9, 7


def passes_an_end(p: tuple[float, float], q: tuple[float, float], edge: Edge) -> bool:
    dx, dy = q[0] - p[0], q[1] - p[1]
    return any(abs((e[0] - p[0]) * dy - (e[1] - p[1]) * dx) / math.hypot(dx, dy) < 1e-9 for e in edge.ends())
LABELS = [hex_label(offset_to_hex(c, r)) for r in range(H) for c in range(W)]
TERRAINS = ["flat", "flat", "flat", "trees", "brush", "crevasse", "water", "bridge"]


@st.composite
def maps(draw: st.DrawFn) -> dict[str, object]:
    shooter, target = draw(st.lists(st.sampled_from(LABELS), min_size=2, max_size=2, unique=True))
    terrain = {lab: draw(st.sampled_from(TERRAINS)) for lab in draw(st.lists(st.sampled_from(LABELS), max_size=25))}
    terrain[shooter] = terrain[target] = "flat"
    walls = []
    for lab in draw(st.lists(st.sampled_from(LABELS), max_size=6)):
        h = offset_to_hex(ord(lab[0]) - 65, int(lab[1:]) - 1)
        n = hex_neighbours(h)[draw(st.integers(0, 5))]
        if n in {offset_to_hex(c, r) for r in range(H) for c in range(W)}:
            walls.append((lab, hex_label(n)))
    return {"shooter": shooter, "target": target, "terrain": terrain, "walls": walls}


def text(m: dict[str, object], extra: dict[str, tuple[str, str]] | None = None,
         more_walls: list[tuple[str, str]] | None = None) -> str:
    terrain = ", ".join(f"{k}: {v}" for k, v in m["terrain"].items())  # type: ignore[attr-defined]
    walls = [*m["walls"], *(more_walls or [])]  # type: ignore[misc]
    edges = ", ".join(f"{{between: [{a}, {b}], feature: wall}}" for a, b in walls)
    chars = f"  Elf 1: {{at: {m['shooter']}, side: a}}\n  Elf 2: {{at: {m['target']}, side: b}}\n"
    for name, (at, state) in (extra or {}).items():
        chars += f"  {name}: {{at: {at}, side: c, state: {state}}}\n"
    return f"width: {W}\nheight: {H}\nterrain: {{{terrain}}}\nedges: [{edges}]\ncharacters:\n{chars}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps())
def test_a_shot_is_possible_both_ways_or_neither(m: dict[str, object]) -> None:
    # terrain and walls only, two long-bowmen on flat ground: every rule that applies is symmetric
    sc = scene(text(m))
    assert line_of_fire(SHEET, sc, "Elf 1", "Elf 2").possible == line_of_fire(SHEET, sc, "Elf 2", "Elf 1").possible


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps(), st.integers(0, 100))
def test_a_wall_across_the_line_always_blocks(m: dict[str, object], pick: int) -> None:
    # "Walls block the line of fire."
    sc = scene(text(m))
    a, b = sc.piece("Elf 1").hexes[0], sc.piece("Elf 2").hexes[0]
    plus, minus = hex_lines(a, b)
    line = [h for h, _ in segment_hexes(hex_centre(a), hex_centre(b))]
    if plus != minus:
        return  # along edges a single wall is passed on one side (the lenient rule); not a crossing
    i = pick % (len(line) - 1)
    if passes_an_end(hex_centre(a), hex_centre(b), Edge.between(line[i], line[i + 1])):
        return  # the line only grazes the wall's end (tests/boards/test_hexedges.py)
    walled = scene(text(m, more_walls=[(hex_label(line[i]), hex_label(line[i + 1]))]))
    shot = line_of_fire(SHEET, walled, "Elf 1", "Elf 2")
    assert not shot.possible
    assert any("Walls block" in r for r in shot.reasons) or any("busy fighting" in r for r in shot.reasons)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps(), st.lists(st.sampled_from(LABELS), max_size=6, unique=True))
def test_stunned_characters_never_block(m: dict[str, object], spots: list[str]) -> None:
    # "stunned or dead characters do not block the line of fire."
    free = [s for s in spots if s not in (m["shooter"], m["target"])]
    names = ["Goblin 1", "Goblin 2", "Goblin 3", "Zed", "Godiva", "Troll 1"]
    stunned = {n: (at, "stunned") for n, at in zip(names, free, strict=False) if n != "Troll 1"}
    bare, crowded = scene(text(m)), scene(text(m, stunned))
    for a, b in (("Elf 1", "Elf 2"), ("Elf 2", "Elf 1")):
        assert line_of_fire(SHEET, crowded, a, b).possible == line_of_fire(SHEET, bare, a, b).possible
