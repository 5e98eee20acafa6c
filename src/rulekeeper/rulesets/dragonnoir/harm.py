"""What a blow or a shot does to a piece on the map: the counter flips, retreats and unhorsing.

The tables give a letter and its key a harm (``retreat``, ``stunned``, ``wounded``, ``killed``,
the horse ``killed``); this module turns it into the new counter side, following the Cry Havoc
key the data files use ("a stunned or wounded character stunned or wounded again is dead") and the
seed's special powers (spectres only retreat, a dog dies of one wound, trolls take three wounds,
Crazy Ork goes berserk, Zed's curare kills the wounded). A horseman harmed is unhorsed: "the
appropriate counter - horseman stunned, wounded or dead - is placed by the player to whom he
belongs on one of the hexes adjacent to his horse ... If he is entirely surrounded by enemies, an
unhorsed horseman is automatically dead. The horse stays in place". Retreats and the unhorsed
rider's hex are chosen by the rules keeper (docs/rules/dragonnoir.md, "Battles").
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.boards.hexes import hex_direction, hex_distance, hex_neighbour

from .data import shipped_sheet
from .fighters import can_enter
from .report import Lines
from .state import DNState, Man, character_of, feature_between, fighter_of, riderless


def _flip(kind: str, health: str, harm: str, spell: bool = False) -> str:
    """The counter side after ``harm`` (``retreat`` when the harm becomes a retreat, ``same`` when ignored);
    ``spell``: the harm of a spell, not "a shot or a combat" (Crazy Ork's berserk rule does not fire)."""
    if kind == "spectre":
        return "retreat" if harm in ("stunned", "wounded", "killed") else harm
    if kind == "dog":
        return {"stunned": "retreat", "wounded": "dead", "killed": "dead"}.get(harm, harm)
    if kind == "troll":
        if harm == "stunned":
            return "retreat"
        if harm == "wounded":
            return {"healthy": "wounded", "wounded": "wounded_twice"}.get(health, "dead")
        return "dead" if harm == "killed" else harm
    if kind == "ork":
        if health == "berserk":
            return "dead" if harm in ("wounded", "killed") else "same"
        if harm in ("stunned", "wounded") and not spell:
            return "berserk"
    if kind in ("dragon", "dragon part") and harm in ("stunned", "wounded", "killed"):
        # "The results D, E and F become 'Dragon wounded'"; the Baby Dragon "obeys the same rules as the
        # Black Dragon", which dies of its third wound ("wound the central part three times"): as special.suffer.
        return {"healthy": "wounded", "wounded": "wounded_twice"}.get(health, "dead")
    if harm == "killed":
        return "dead"
    if harm in ("stunned", "wounded"):
        return harm if health == "healthy" else "dead"
    return harm


def never_retreats(m: Man) -> bool:
    """"in attack as in defence, the dragon never retreats"; berserk Crazy Ork: "'Attacker retreats' or 'Defender
    retreats' are no longer applied to him"."""
    kind = character_of(m.character).kind
    return kind == "dragon part" or (kind == "ork" and m.health == "berserk")


def _free(state: DNState, label: str, mover: Man) -> bool:
    return all(m.name == mover.name or not m.alive for m in state.on(label))


def _enterable(state: DNState, m: Man, label: str, frm: str) -> bool:
    board = state.board
    if not board.contains(board.parse(label)) or not _free(state, label, m):
        return False
    feature = feature_between(state, frm, label)
    if feature is not None and not feature.passable:
        return False
    return can_enter(shipped_sheet(), fighter_of(state, m), state.terrain_at(label)) is None


def retreat_moves(state: DNState, m: Man, away: list[str]) -> list[tuple[str, ...]]:
    """The legal one-hex retreats of ``m`` (a horseman's two hexes the same way), the keeper's proposal first.

    Legal (estimated where Cry Havoc's "retreats 1 hex" is silent): onto free hexes he may enter, no wall between,
    farther from the enemies he retreats from (``away``) than he stands now. The proposal: the farthest, then the
    first direction from the east."""
    board = state.board
    foes = [board.parse(h) for h in away]

    def gap(hexes: tuple[str, ...]) -> int:
        return min((hex_distance(board.parse(h), f) for f in foes for h in hexes), default=0)

    now = gap(m.hexes)
    found: list[tuple[int, int, tuple[str, ...]]] = []
    for d in range(6):
        moved = tuple(board.label(hex_neighbour(board.parse(h), d)) if board.contains(
            hex_neighbour(board.parse(h), d)) else "" for h in m.hexes)
        if "" in moved or not all(_enterable(state, m, to, frm) for to, frm in zip(moved, m.hexes, strict=True)):
            continue
        if foes and gap(moved) <= now:
            continue
        found.append((-gap(moved), d, moved))
    return [moved for _, _, moved in sorted(found)]


def retreat_ends(state: DNState, m: Man, away: list[str], hexes: int) -> list[tuple[str, ...]]:
    """Where a retreat of ``hexes`` hexes may end: every position reached by legal one-hex retreats in a row (each
    farther from the enemies than the last), as far as the retreat can go — a two-hex retreat (a horse shying,
    Errare's armour) stops after one hex only where no second hex is legal (decision, docs/rules/dragonnoir.md)."""

    def walk(state: DNState, m: Man, left: int) -> list[tuple[int, tuple[str, ...]]]:
        moves = retreat_moves(state, m, away) if left else []
        if not moves:
            return [(0, m.hexes)]
        out: list[tuple[int, tuple[str, ...]]] = []
        for hexes_after in moves:
            moved = replace(m, hexes=hexes_after)
            out += [(depth + 1, end) for depth, end in walk(state.with_men(moved), moved, left - 1)]
        return out

    ends = walk(state, m, hexes)
    farthest = max(depth for depth, _ in ends)
    return list(dict.fromkeys(end for depth, end in ends if depth == farthest and depth > 0))


def retreat(state: DNState, m: Man, away: list[str], hexes: int = 1) -> tuple[DNState, Lines]:
    """Move ``m`` back ``hexes`` hexes (Cry Havoc's key, issue 24): "a stunned character forced to retreat dies";
    "one who cannot retreat legally is wounded instead". The retreat is his player's to place among its legal ends
    (:mod:`.placing`, :func:`retreat_ends`); the keeper's proposal takes the first legal hex at each step."""
    from .placing import offer

    start = m.hexes
    if m.health == "stunned":
        return state.with_men(replace(m, health="dead")), [
            {"text": f"  {m.name} is stunned and forced to retreat: he dies", "kind": "harm"}]
    choices = retreat_ends(state, m, away, hexes)
    for _ in range(hexes):  # the keeper's proposal: its first choice at each hex
        moves = retreat_moves(state, m, away)
        if not moves:
            break
        m = replace(m, hexes=moves[0])
        state = state.with_men(m)
    if m.hexes == start:
        if character_of(m.character).kind == "spectre":
            return state, [{"text": f"  {m.name} cannot retreat and holds his ground", "kind": "note"}]
        state, more = hurt(state, m.name, "wounded", away)
        return state, [{"text": f"  {m.name} cannot retreat: wounded instead", "kind": "harm"}, *more]
    state = offer(state, m.name, "retreats", [m.hexes, *choices])
    return state, [{"text": f"  {m.name} retreats {'-'.join(start)} → {'-'.join(m.hexes)}", "kind": "retreat"}]


def _place_rider(state: DNState, rider: Man, horse_hexes: tuple[str, ...]) -> str | None:
    """The hex next to his horse an unhorsed rider lands on (the keeper's proposal): free, enterable on foot,
    farthest from enemies."""
    spots = rider_spots(state, rider, horse_hexes)
    return spots[0] if spots else None


def rider_spots(state: DNState, rider: Man, horse_hexes: tuple[str, ...]) -> list[str]:
    """Every hex next to his horse an unhorsed rider may be placed on, the farthest from enemies first."""
    board = state.board
    foes = [board.parse(h) for e in state.men if e.alive and e.side != rider.side for h in e.hexes]
    found: list[tuple[int, int, str]] = []
    for i, h in enumerate(horse_hexes):
        for d in range(6):
            n = hex_neighbour(board.parse(h), d)
            label = board.label(n) if board.contains(n) else ""
            if not label or label in horse_hexes or not _free(state, label, rider):
                continue
            if can_enter(shipped_sheet(), replace(fighter_of(state, rider), mounted=False,
                                                terrains=(state.terrain_at(label),)), state.terrain_at(label)):
                continue
            gap = min((hex_distance(n, f) for f in foes), default=0)
            found.append((-gap, i * 6 + d, label))
    return list(dict.fromkeys(label for _, _, label in sorted(found)))


def _make_room(state: DNState, rider: Man, horse_hexes: tuple[str, ...]) -> tuple[DNState, str | None, Lines]:
    """"If all the adjacent hexes are occupied, a friendly character is shifted by one hex to make room for the
    unhorsed horseman": the first friend on foot next to the horse who can step to a free hex (decision: the keeper
    picks him, by the horse's hexes and the directions in order); None when no friend can move."""
    board = state.board
    for h in horse_hexes:
        for n in board.neighbours(board.parse(h)):
            spot = board.label(n)
            here = state.living_on(spot)
            foot = replace(fighter_of(state, rider), mounted=False, terrains=(state.terrain_at(spot),))
            if spot in horse_hexes or len(here) != 1 or can_enter(shipped_sheet(), foot, state.terrain_at(spot)):
                continue
            friend = here[0]
            if friend.side != rider.side or friend.mounted or friend.horse or friend.character.startswith("Black"):
                continue
            for o in board.neighbours(n):
                to = board.label(o)
                if to not in horse_hexes and _enterable(state, friend, to, spot):
                    state = state.with_men(replace(friend, hexes=(to,)))
                    return state, spot, [{"text": f"  {friend.name} is shifted {spot} → {to} to make room",
                                          "kind": "retreat"}]
    return state, None, []


def unhorse(state: DNState, m: Man, health: str, horse_dies: bool) -> tuple[DNState, Lines]:
    """The horseman leaves the saddle with ``health``; his horse stays on its two hexes, alive or dead."""
    horse = riderless(m, m.hexes, "dead" if horse_dies else "healthy")
    spots = rider_spots(state, m, m.hexes)
    spot = spots[0] if spots else None
    lines: Lines = [{"text": f"  {m.name} is unhorsed" + (", his horse killed" if horse_dies else ""),
                     "kind": "harm"}]
    if spot is None:
        state, spot, shifted = _make_room(state, m, m.hexes)
        lines += shifted
    if spot is None:
        health = "dead"
        lines.append({"text": f"  {m.name} is surrounded: 'an unhorsed horseman is automatically dead'",
                      "kind": "harm"})
        spot = m.hexes[0]
    rider = replace(m, hexes=(spot,), mounted=False, facing=None, health=health, mp=0, riding="",
                    stunned_at=state.player_turn if health == "stunned" else 0)
    try:
        state.man(horse.name)
        state = state.with_men(horse)
    except KeyError:
        state = state.add(horse)
    lines.append({"text": f"  {m.name} now on {spot}, {health}", "kind": "harm"})
    state = state.with_men(rider)
    if health != "dead" and spots and spot == spots[0]:  # "placed by the player to whom he belongs"
        from .placing import offer

        state = offer(state, m.name, "is unhorsed", [(h,) for h in spots])
    return state, lines


def _shrink_mp(m: Man, before: int, after: int) -> int:
    return max(0, m.mp - max(0, before - after))


def movement_of(m: Man) -> int:
    """The blue number of the counter side up (0 for the stunned, the dead and a horse alone)."""
    if m.horse or not m.standing:
        return 0
    c = character_of(m.character)
    sides = (c.mounted or {}) if m.mounted else c.foot
    counter = sides.get(m.health)  # type: ignore[call-overload]
    return 0 if counter is None else int(counter.movement)


def hurt(state: DNState, name: str, harm: str, away: list[str], retreat_hexes: int = 1,
         curare: bool = False, horse_killed: bool = False, spell: bool = False) -> tuple[DNState, Lines]:
    """Apply ``harm`` to the piece ``name``; ``away`` are the hexes of the enemies it retreats from; ``spell`` when
    a spell, not a shot or a combat, deals it."""
    m = state.man(name)
    kind = character_of(m.character).kind
    if m.horse:
        if harm in ("stunned", "wounded", "killed"):
            return state.with_men(replace(m, health="dead")), [{"text": f"  {m.name} is killed", "kind": "harm"}]
        return state, [{"text": f"  {m.name}: no effect on a horse alone", "kind": "note"}]
    if kind == "dragon part" and harm in ("stunned", "wounded", "killed"):
        from .dragon import wounded

        return wounded(state, name)
    if curare and harm == "wounded" and kind not in ("spectre", "dragon", "dragon part"):
        harm = "killed"
    flip = _flip(kind, m.health, harm, spell)
    if flip == "same":
        return state, [{"text": f"  {m.name} is berserk: '{harm}' no longer applies to him", "kind": "note"}]
    if flip == "retreat":
        if never_retreats(m):
            return state, [{"text": f"  {m.name} never retreats", "kind": "note"}]
        return retreat(state, m, away, retreat_hexes)
    if m.mounted:
        return unhorse(state, m, flip, horse_killed)
    before = movement_of(m)
    new = replace(m, health=flip, stunned_at=state.player_turn if flip == "stunned" else m.stunned_at)
    new = replace(new, mp=_shrink_mp(m, before, movement_of(new)))
    return state.with_men(new), [{"text": f"  {m.name}: {m.health} → {flip}", "kind": "harm"}]


def kill_horse_under(state: DNState, name: str) -> tuple[DNState, Lines]:
    """The horse is killed and the rider unhorsed unhurt."""
    m = state.man(name)
    return unhorse(state, m, m.health, True)


def facing_towards(a: str, b: str, state: DNState) -> int | None:
    board = state.board
    return hex_direction(board.parse(a), board.parse(b))
