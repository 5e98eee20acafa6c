"""Issue 24, point 6: the seed's readings as ruleset options.

The Black Dragon: "When it moves, the dragon pushes aside any other character in its path. It can therefore never be
blocked." The keeper's former reading (a horseman, two hexes, stops its step) stays the default, `dragon_horsemen=stop`;
`dragon_horsemen=push` is the seed's.
"""

from __future__ import annotations

from pathlib import Path

from dn_game_kit import G, act, legal, quiet

from rulekeeper.core.game import SetupRequest
from rulekeeper.rulesets.dragonnoir.state import DNState, Man

LAIR = Path("src/rulekeeper/rulesets/dragonnoir/data/scenarios/the_dragons_lair.yaml")


def _lair(option: str) -> DNState:
    s: DNState = quiet(G.initial_state(G.setup(SetupRequest(scenario=LAIR, seed=1,
                                                            options=(f"dragon_horsemen={option}",))).document))
    while s.side == "A":
        s = act(s, kind="end").state
    assert s.phase == "move" and legal(s, "dragon_move")
    return s


def _in_the_way(s: DNState) -> tuple[DNState, str]:
    """Grast mounted on the two hexes the dragon's head would cover after its first offered step."""
    assert s.dragon is not None
    to = legal(s, "dragon_move")[0]["to"]
    from rulekeeper.boards.hexes import hex_direction
    from rulekeeper.rulesets.dragonnoir.blackdragon import dragon_step
    from rulekeeper.rulesets.dragonnoir.data import shipped_sheet

    board = s.board
    n = board.parse(to)
    after, _ = dragon_step(shipped_sheet(), s.dragon, n, s.terrain_at(to), hex_direction(s.dragon.centre, n),
                           set(board.cells))
    head = after.hexes()["head"]
    behind = next(board.label(x) for x in board.neighbours(head) if x not in after.hexes().values()
                  and not s.living_on(board.label(x)))
    grast = next(m for m in s.men if m.character == "Grast")
    s = s.with_men(Man(grast.name, "Grast", grast.side, (board.label(head), behind), mounted=True, facing=0))
    return s, to


def test_by_default_a_horseman_stops_the_dragons_step() -> None:
    s, to = _in_the_way(_lair("stop"))
    assert not legal(s, "dragon_move", to=to)


def test_the_seeds_reading_the_dragon_is_never_blocked() -> None:
    """'It can therefore never be blocked.'"""
    s, to = _in_the_way(_lair("push"))
    before = s.man("Grast").hexes
    assert legal(s, "dragon_move", to=to)
    out = G.apply(s, legal(s, "dragon_move", to=to)[0])
    after = out.state.man("Grast")
    assert after.alive and after.hexes != before and len(after.hexes) == 2
    covered = {out.state.board.label(h) for h in out.state.dragon.hexes().values()}  # type: ignore[union-attr]
    assert not covered & set(after.hexes)
