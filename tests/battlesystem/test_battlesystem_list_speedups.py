"""The shortcuts that make the action list with odds fast (issue 22, point 5) give exactly what they replace:
the legal list's label search (``movement.reach_labels``) finds what the board's general search
(``HexMap.reach``, the old way) finds on the positions of both shipped scenarios, and the attack odds
cached by "morale is 0 or not" are the odds of every morale."""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.battlesystem.combat import Unit
from rulekeeper.rulesets.battlesystem.movement import blocking, left, moves, step_cost
from rulekeeper.rulesets.battlesystem.state import BattleState, Piece


def old_moves(state: BattleState, piece: Piece) -> dict[str, int]:
    """``movement.moves`` as it searched before: ``HexMap.reach`` with enemies occupied and friends crossed."""
    if not piece.can_fight or left(piece) == 0 or piece.barrage is not None:
        return {}
    board = state.board
    enemies, friends = blocking(state, piece)
    start = board.parse(piece.hex)
    found = board.reach(start, left(piece), step_cost(board), occupied=enemies, pass_through=friends)
    return {board.label(h): c for h, c in sorted(found.items(), key=lambda hc: (hc[0].r, hc[0].q)) if h != start}


def positions() -> list[BattleState]:
    g = game("battlesystem")
    out = []
    for info in g.scenarios():
        state = g.initial_state(g.setup(SetupRequest(scenario=info.path, seed=1)).document)
        for _ in range(10):
            out.append(state)
            action = g.policy(state)
            if action is None:
                break
            state = g.apply(state, action).state
    return out


def test_label_search_matches_the_board_search() -> None:
    compared = reached = 0
    for state in positions():
        for p in state.units:
            for piece in (p, replace(p, spent=0, barrage=None)):  # as it stands, and with its whole rating
                new, old = moves(state, piece), old_moves(state, piece)
                assert list(new.items()) == list(old.items()), (state.turn, piece.name)
                compared += 1
                reached += len(new)
    assert compared >= 300 and reached >= 4000, (compared, reached)



def test_attack_odds_read_morale_only_as_zero_or_not() -> None:
    """``odds.attack_odds`` caches by whether each unit's morale is 0, not by its value: the odds computed
    afresh are the same for every other morale."""
    from rulekeeper.rulesets.battlesystem.odds import _attack_odds
    from rulekeeper.rulesets.battlesystem.options import BattleSystemOptions
    from rulekeeper.rulesets.battlesystem.state import unit_types

    types, opts = unit_types(), BattleSystemOptions()
    a, d = Unit.fresh(types.get("Light Infantry")), Unit.fresh(types.get("Heavy Infantry"))
    base = _attack_odds(a, replace(d, soldiers=7), "melee", 1, opts)
    for am, dm in ((1, 1), (3, 9), (a.morale, 2)):
        other = _attack_odds(replace(a, morale=am), replace(d, soldiers=7, morale=dm), "melee", 1, opts)
        assert other == base and list(other.morale_to_defender) == list(base.morale_to_defender)
    fleeing = _attack_odds(a, replace(d, soldiers=7, morale=0), "melee", 1, opts)
    assert fleeing.morale_to_defender == {0: 1} != base.morale_to_defender


def test_barrage_preview_odds_read_morale_only_as_zero_or_not() -> None:
    """A barrage preview's figures (``actions._share``, its odds cached by "morale is 0 or not") are those of
    ``odds.barrage_share`` for the unit's very morale."""
    from rulekeeper.rulesets.battlesystem.actions import _share
    from rulekeeper.rulesets.battlesystem.odds import barrage_share
    from rulekeeper.rulesets.battlesystem.options import BattleSystemOptions
    from rulekeeper.rulesets.battlesystem.state import unit_types

    types, opts = unit_types(), BattleSystemOptions()
    guns = Unit.fresh(types.get("Artillery"))
    for morale, on_target in ((9, True), (3, True), (1, False), (0, False)):
        unit = replace(Unit.fresh(types.get("Light Infantry")), soldiers=12, morale=morale)
        odds = barrage_share(guns, unit, on_target, 14, 0, opts)
        mean = float(sum(o * p for o, p in odds.casualties.items()))
        flee = float(sum(p for o, p in odds.morale.items() if o >= morale))
        assert _share("Artillery", "Light Infantry", 12, morale, on_target, 14, opts) == (mean, flee)
    assert 0 < _share("Artillery", "Light Infantry", 12, 3, True, 14, opts)[1] < 1
