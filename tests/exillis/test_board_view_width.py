"""The Ex illis board in the terminal fits the terminal: every zone of every shipped scenario is on screen.

Played as a user: each zone's column was 18 wide, so the starter board (five columns) needed about 110, and an
80-column terminal cropped columns D and E, the enemy's side of the field.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game

G = game("exillis")
SCENARIOS = list(G.scenarios())


def _drawn(scenario_index: int, width: int) -> tuple[list[str], object]:
    sc = SCENARIOS[scenario_index]
    state = G.initial_state(G.setup(SetupRequest(scenario=sc.path, seed=1)).document)
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(G.cli_presenter().board(state))
    return console.export_text().splitlines(), state


@pytest.mark.parametrize("width", [60, 80, 120])
@pytest.mark.parametrize("scenario_index", range(len(SCENARIOS)), ids=[sc.key for sc in SCENARIOS])
def test_every_zone_is_on_an_80_column_screen(scenario_index: int, width: int) -> None:
    lines, state = _drawn(scenario_index, width)
    text = "\n".join(lines)
    assert max(len(line) for line in lines) <= width
    board = state.board
    for col in range(board.width):
        for row in range(board.height):
            assert board.name((col, row)) in text, (board.name((col, row)), width)
    assert text.rstrip().endswith("┘")  # the grid's right edge is drawn, not cropped


def test_a_wide_terminal_keeps_a_units_line_whole() -> None:
    lines, _ = _drawn([sc.key for sc in SCENARIOS].index("starter"), 140)
    assert any("Billmen 8/8 ♥" in line and "Neutr" in line for line in lines)
