"""Characters typed on the command line: ``NAME[:mounted][:STATE][@TERRAIN[+TERRAIN]]``.

``Grast:mounted:wounded@flat+brush`` is Grast mounted, on his wounded side, his two hexes on flat
ground and brush; ``Thrug@trees`` is Thrug on foot in the trees; ``Grast:horse`` is Grast's horse without him. Without ``@`` the default terrain
(``--terrain``) is used.
"""

from __future__ import annotations

from rulekeeper.core.errors import ImpossibleRequestError, UnknownNameError

from .data import SheetData, State
from .fighters import STATES, Fighter

MAX_SPECS = 40


def parse_fighter(sheet: SheetData, spec: str, terrain: str = "flat") -> Fighter:
    """The :class:`Fighter` a spec names (typed errors for unknown names, states and terrains)."""
    text, _, where = spec.partition("@")
    parts = [p.strip() for p in text.split(":")]
    if not parts[0]:
        raise ImpossibleRequestError(f"{spec!r}: a character needs a name (e.g. 'Grast:mounted@flat').")
    name, character = sheet.character(parts[0])
    mounted, horse, state = False, False, "healthy"
    for word in parts[1:]:
        w = word.casefold().replace(" ", "_").replace("-", "_")
        if w == "mounted":
            mounted = True
        elif w in ("foot", "on_foot"):
            mounted = False
        elif w == "horse":
            horse = True
        elif w in STATES:
            state = w
        else:
            raise UnknownNameError("character state", word, ["mounted", "foot", "horse", *STATES])
    terrains = tuple(sheet.terrain_name(t) for t in (where.split("+") if where else [terrain]))
    st: State = state  # type: ignore[assignment]
    return Fighter(name, character, mounted, st, terrains, horse)


def parse_fighters(sheet: SheetData, specs: list[str], terrain: str = "flat") -> list[Fighter]:
    """Several specs, each possibly a comma-separated list."""
    items = [s.strip() for group in specs for s in group.split(",") if s.strip()]
    if len(items) > MAX_SPECS:
        raise ImpossibleRequestError(f"At most {MAX_SPECS} characters in one combat, got {len(items)}.")
    fighters = [parse_fighter(sheet, s, terrain) for s in items]
    names = [f.label for f in fighters]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ImpossibleRequestError(f"{dup[0]} is named twice: each character fights once.")
    return fighters
