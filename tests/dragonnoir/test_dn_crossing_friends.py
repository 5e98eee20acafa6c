"""Issue 24, point 6: crossing friendly characters, the seed's reading as a ruleset option.

"Characters cannot pass through hexes containing enemy characters, unless these are stunned or dead. Crossing hexes
containing friendly characters, on the other hand, poses no problem." — and "at the end of each movement sequence,
only one living character must remain per hex". ``crossing=refused`` (the keeper's former reading) stays the default;
``crossing=friends`` is the seed's, offered only where nothing can stop the mover on the friend's hex.
"""

from __future__ import annotations

from dataclasses import replace

from dn_game_kit import G, act, battle, kinds, legal, man

from rulekeeper.rulesets.dragonnoir.state import DNState


def _moving(option: str, *others: dict[str, object]) -> DNState:
    """Side A's movement: Jon on C3 with his friend Arlon on D3 in the way; Goblin 1 far off on H1 unless ``others``."""
    s = battle([man("Jon", "A", "C3"), man("Arlon", "A", "D3"), *(others or (man("Goblin 1", "B", "H5"),))])
    s = replace(s, options=(*s.options, ("crossing", option)))
    while s.phase != "move":
        s = act(s, kind="end").state
    return s


def test_the_option_and_its_default_are_listed() -> None:
    info = {o.name: o for o in G.options()}["crossing"]
    assert info.default == "refused" and set(info.choices) == {"refused", "friends"}


def test_by_default_a_friend_is_never_crossed() -> None:
    assert not legal(_moving("refused"), "move", unit="Jon", to="D3")


def test_the_seeds_reading_a_friends_hex_is_crossed_and_the_mover_steps_on() -> None:
    """'Crossing hexes containing friendly characters ... poses no problem'; 'only one living character must remain'."""
    s = _moving("friends")
    over = [lg for lg in G.legal_actions(s) if lg.action.get("to") == "D3" and lg.action["kind"] == "move"]
    assert len(over) == 1 and "over Arlon" in over[0].note
    s = G.apply(s, over[0].action).state
    assert s.man("Jon").hex == "D3" and s.man("Arlon").hex == "D3"
    # standing on Arlon's hex, Jon steps on before anything else: no other character, no end of movement
    assert kinds(s) == {"move"} and {a["unit"] for a in legal(s, "move")} == {"Jon"}
    onward = legal(s, "move")[0]
    s = G.apply(s, onward).state
    assert s.man("Jon").hex == onward["to"] != "D3" and "end_phase" in kinds(s)
    assert len(s.living_on("D3")) == 1


def test_never_an_enemy_and_never_on_horseback() -> None:
    """'Characters cannot pass through hexes containing enemy characters'; decision: a horseman crosses nobody."""
    s = _moving("friends", man("Goblin 1", "B", "H5"), man("Goblin 2", "B", "B1"))
    assert not legal(replace(s, men=tuple(replace(m, side="B") if m.name == "Arlon" else m for m in s.men)),
                     "move", unit="Jon", to="D3")
    grast = battle([man("Grast", "A", "C3", "C4", mounted=True), man("Arlon", "A", "D3"), man("Goblin 1", "B", "H5")])
    grast = replace(grast, options=(*grast.options, ("crossing", "friends")))
    while grast.phase != "move":
        grast = act(grast, kind="end").state
    assert not any("D3" in str(a.get("to")) for a in legal(grast, "move", unit="Grast"))


def test_not_where_the_infiltration_roll_could_stop_him_on_the_friend() -> None:
    """An enemy in a position to attack next to Arlon's hex: leaving it would cost the infiltration roll, and
    'stopped' would leave two living men on one hex — the crossing is not offered."""
    s = _moving("friends", man("Goblin 1", "B", "E3"))
    assert not legal(s, "move", unit="Jon", to="D3")


def test_not_when_he_cannot_step_on() -> None:
    s = _moving("friends")
    jon = s.man("Jon")
    cost = next(lg.cost for lg in G.legal_actions(s) if lg.action.get("to") == "D3")
    assert cost is not None
    assert not legal(s.with_men(replace(jon, mp=int(cost))), "move", unit="Jon", to="D3")


def test_not_where_a_defensive_shot_could_stop_him_on_the_friend() -> None:
    """An enemy archer who may fire at Jon on Arlon's hex (defensive fire interrupts a move 'on a precise hex'): shot
    down there, he would stay on his friend's hex — the crossing is not offered; the same step without the archer is."""
    archer = man("Elf 1", "B", "H3")
    s = _moving("friends", archer)
    assert not legal(s, "move", unit="Jon", to="D3")
    from rulekeeper.rulesets.dragonnoir.shots import defensive_shooters

    jon = replace(s.man("Jon"), hexes=("D3",), steps=1, moved=True)
    assert defensive_shooters(s.with_men(jon), jon)  # the reason: Elf 1 could shoot him there
