"""Issue 24, point 6: infiltration on an advance after combat, the seed's reading as a ruleset option.

"Important: the advance after combat must take into account the stacking and infiltration of enemy lines rules.
However, in the latter case, an enemy character adjacent to the hex crossed causes a die roll only if he is not
engaged at that moment in a combat, in attack or in defence. It does not matter whether the combat has already taken
place or not."

The keeper's former reading (no roll on an advance) stays the default, ``advance_infiltration=off``;
``advance_infiltration=on`` is the seed's.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from dn_game_kit import G, act, battle, legal, man

from rulekeeper.rulesets.dragonnoir.state import DNState, Man


def _advancing(option: str) -> DNState:
    """Thrug (D3) has beaten Goblin 1 (E3) away or dead and stands on E3, his first hex of the advance; Goblin 2 waits
    on F3, next to E3 and not next to anyone of Thrug's side."""
    for seed in range(1, 120):
        s = battle([man("Thrug", "A", "D3"), man("Goblin 1", "B", "E3"), man("Goblin 2", "B", "F3")], seed=seed)
        s = replace(s, options=(*s.options, ("advance_infiltration", option)))
        while s.phase != "combat":
            s = act(s, kind="end").state
        out = act(s, kind="attack", units=["Thrug"], targets=["Goblin 1"])
        after = out.state
        while legal(after, "place"):  # the loser's player chooses where he retreats (the first hex offered)
            after = G.apply(after, legal(after, "place")[0]).state
        if after.pending is not None and after.pending.kind == "advance" and not after.living_on("E3"):
            first = legal(after, "advance", unit="Thrug", to="E3")
            if first:
                return G.apply(after, first[0]).state
    raise AssertionError("no combat left E3 free to advance into in 120 seeds")


def test_the_option_and_its_default_are_listed() -> None:
    info = {o.name: o for o in G.options()}["advance_infiltration"]
    assert info.default == "off" and set(info.choices) == {"off", "on"}


def test_by_default_no_roll_on_an_advance() -> None:
    s = _advancing("off")
    assert s.man("Thrug").hex == "E3" and s.pending is not None and s.pending.unit == "Thrug"
    step = legal(s, "advance", unit="Thrug")[0]
    assert G.preview(s, step).draws == ()
    out = G.apply(s, step)
    assert out.chance == () and out.state.man("Thrug").hex == step["to"]


def test_the_seeds_reading_leaving_a_hex_next_to_an_enemy_not_engaged_costs_the_roll() -> None:
    """'the advance after combat must take into account the ... infiltration of enemy lines rules'."""
    s = _advancing("on")
    step = legal(s, "advance", unit="Thrug")[0]
    shown = G.preview(s, step)
    assert [d.label for d in shown.draws] == ["infiltration: Thrug leaves E3"]
    assert dict(shown.headline)["slips past"] == pytest.approx(0.7)  # 1–7 pass on the d10 (moves.yaml, estimated)
    out = G.apply(s, step)
    assert [c.request for c in out.chance] == list(shown.draws)  # the odds shown are the odds drawn
    result = out.chance[0].outcome.split("→")[1]
    thrug = out.state.man("Thrug")
    if result == "pass":
        assert thrug.hex == step["to"]
    else:  # stopped or stunned: 'his movement ends there', here the advance
        assert thrug.hex == "E3" and (out.state.pending is None or out.state.pending.kind != "advance")
        assert (thrug.health == "stunned") == (result == "stunned")


def test_every_result_of_the_roll_happens_as_the_table_says() -> None:
    seen: dict[str, str] = {}
    for seed in range(40):
        s = _advancing("on")
        out = G.apply(_reseed(s, seed), legal(s, "advance", unit="Thrug")[0])
        result = out.chance[0].outcome.split("→")[1]
        seen[result] = f"{out.state.man('Thrug').hex}/{out.state.man('Thrug').health}"
    assert set(seen) == {"pass", "stopped", "stunned"}, seen
    assert seen["stopped"] == "E3/healthy" and seen["stunned"] == "E3/stunned" and not seen["pass"].startswith("E3")


def _beside(s: DNState, enemy: str, name: str) -> Man:
    """A dwarf of Thrug's side on a free hex next to ``enemy``, not next to Thrug's E3."""
    board = s.board
    near_e3 = {board.label(n) for n in board.neighbours(board.parse("E3"))} | {"E3"}
    spot = next(board.label(n) for n in board.neighbours(board.parse(s.man(enemy).hex))
                if board.label(n) not in near_e3 and not s.living_on(board.label(n)))
    return Man(name, "Dwarf 1", "A", (spot,))


def test_an_enemy_engaged_in_a_combat_causes_no_roll() -> None:
    """'an enemy character adjacent to the hex crossed causes a die roll only if he is not engaged at that moment in
    a combat': a dwarf of Thrug's side stands next to each goblin by E3 (a combat between them is fought or may
    still be). With only one of them engaged, the other still causes the roll."""
    s = _advancing("on")
    by_e3 = [o.name for o in s.men if o.side == "B" and o.standing
             and set(o.hexes) & {s.board.label(n) for n in s.board.neighbours(s.board.parse("E3"))}]
    assert "Goblin 2" in by_e3 and len(by_e3) == 2  # Goblin 2, and Goblin 1 who retreated next to E3
    one = s.add(_beside(s, "Goblin 2", "Dwarf 1"))
    step = legal(one, "advance", unit="Thrug")[0]
    assert [d.label for d in G.preview(one, step).draws] == ["infiltration: Thrug leaves E3"]
    both = one.add(_beside(one, "Goblin 1", "Dwarf 2"))
    step = legal(both, "advance", unit="Thrug")[0]
    assert G.preview(both, step).draws == ()
    assert G.apply(both, step).chance == ()


def _reseed(s: DNState, seed: int) -> DNState:
    """The same position with another RNG state (the battle's own generator, seeded anew)."""
    from rulekeeper.core.rng import Rng

    return replace(s, rng=Rng.from_seed(seed).state)


def _stunned_goblin_1(option: str) -> DNState:
    for seed in range(1, 120):
        s = battle([man("Thrug", "A", "D3"), man("Goblin 1", "B", "E3"), man("Goblin 2", "B", "F3")], seed=seed)
        s = replace(s, options=(*s.options, ("advance_infiltration", option)))
        while s.phase != "combat":
            s = act(s, kind="end").state
        out = act(s, kind="attack", units=["Thrug"], targets=["Goblin 1"])
        if out.state.man("Goblin 1").health == "stunned":
            return out.state
    raise AssertionError("no stunned result in 120 seeds")


def test_no_step_onto_a_stunned_mans_hex_that_he_would_owe_a_roll_to_leave() -> None:
    """Decision: stopped or stunned on the stunned loser's hex, two living men would remain on it ('at the end of each
    movement sequence, only one living character must remain per hex'), so under the seed's reading the advance over
    him is offered only when leaving his hex owes no roll; Goblin 2 (F3, not engaged) stands next to E3."""
    assert legal(_stunned_goblin_1("off"), "advance", unit="Thrug", to="E3")
    assert not legal(_stunned_goblin_1("on"), "advance", unit="Thrug", to="E3")
