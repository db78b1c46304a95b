"""Game setup (R-2): primary generals, start forces, markers, royal family, deck.

Rolls come from ``Dice(seed, step=0)``; every outcome is an event so ``fold`` can
rebuild the position without dice.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.context import Ctx
from pbem.rules.core.control import positional_controller
from pbem.rules.core.state import SEATS, Event, GameState
from pbem.rules.dice import Dice
from pbem.rules.phases.sequence import start_turn


def empty_state(pack: Pack) -> GameState:
    """A board before setup: no pieces, no cards (the ``initial`` of a new game's fold),
    played with ``pack``."""
    return GameState(pack_name=pack.name, pack=pack)


def blank_position(pack: Pack, turn: int = 1) -> dict[str, Any]:
    """A working dict with the seats initialised, independent markers on every green space
    and stronghold (R-2) and nothing else: the base of scenario positions (tests)."""
    ctx = Ctx(pack, empty_state(pack).to_dict(), Dice.scripted([]))
    ctx.emit("GameStarted", {"pack": pack.name, "seats": list(SEATS), "turn": turn})
    ctx.emit("IndependentMarkersPlaced", {"spaces": _independent_spaces(pack)})
    ctx.emit("ChampionsSet", {"seats": list(SEATS)})
    return ctx.s


def _independent_spaces(pack: Pack) -> list[str]:
    return sorted(x for x, sp in pack.spaces.items()
                  if sp.independent or sp.kind == "stronghold")


def new_game(pack: Pack, seed: bytes, options: Mapping[str, Any] | None = None
             ) -> tuple[GameState, list[Event]]:
    """Set up a game (R-2) and run the first turn up to the first player-turn decision.

    Steps: independent markers and armies, the eight primary general cards dealt two per
    seat (shuffled with dice), start forces placed from the holder of Perdiccas
    clockwise, the royal family (controlled by the seat standing with them, R-12.1), Demetrius (and optional Cassander, ``options["cassander"]``) on
    the turn track, the other generals' cards into the Tyche deck, every seat Champion;
    then the turn sequence (R-6: turn order, usurper, deal). Returns the state at
    ``step == 0`` and the events from an :func:`empty_state`. Raises MissingConstant when
    the pack lacks a constant.

    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, events = new_game(mini_pack(), b"doc")
    >>> state.step, state.turn, events[0].kind
    (0, 1, 'GameStarted')
    >>> state.order_choice["seat"]  # R-6.1: the fewest VP names the first player
    'north'
    """

    opts = dict(options or {})
    ctx = Ctx(pack, empty_state(pack).to_dict(), Dice(seed, step=0))
    first = pack.turns[0].number if pack.turns else 1
    ctx.emit("GameStarted", {"pack": pack.name, "seats": list(SEATS), "turn": first,
                             "options": opts})
    ctx.emit("IndependentMarkersPlaced", {"spaces": _independent_spaces(pack),
                                          "rule": "R-2"})
    for aid, army in sorted(pack.independent_armies.items()):
        space = army.start if army.active_at_start else None
        ctx.emit("IndependentArmyPlaced", {"army": aid, "space": space,
                                           "strength": army.strength, "rule": "R-2"})
    primaries = sorted(n for n, c in pack.cards.items() if c.type == "primary")
    order = ctx.shuffle(primaries, "deal the primary general cards", "R-2")
    per = len(order) // len(SEATS)
    dealt = {seat: sorted(order[i * per:(i + 1) * per]) for i, seat in enumerate(SEATS)}
    ctx.emit("PrimaryGeneralsDealt", {"cards": dealt, "rolled": True, "rule": "R-2"})
    holder = {pack.cards[n].general: seat for seat, ns in dealt.items() for n in ns}
    start_seat = holder.get("perdiccas", SEATS[0])
    i0 = SEATS.index(start_seat)
    for k in range(len(SEATS)):
        seat = SEATS[(i0 + k) % len(SEATS)]
        for n in dealt[seat]:
            _place_primary(ctx, seat, pack.cards[n].general)
    for rid, rm in sorted(pack.royals.items()):  # with whoever stands there
        seat = positional_controller(pack, {**ctx.s, "royals": {
            rid: {"space": rm.start, "active": rm.active}}}, rid) if rm.start else None
        ctx.emit("RoyalPlaced", {"royal": rid, "space": rm.start, "active": rm.active,
                                 "rule": "R-2", **({"seat": seat} if seat else {})})
    for gid, g in sorted(pack.generals.items()):
        if gid in ctx.s["generals"]:
            continue
        if g.optional and not opts.get(gid):
            continue
        where = "track" if g.arrival_turn else ("deck" if g.card else "box")
        ctx.emit("GeneralPlaced", {"general": gid, "seat": None, "where": where,
                                   "space": None, "rule": "R-2"})
    ctx.emit("ChampionsSet", {"seats": list(SEATS), "rule": "R-2"})
    start_turn(ctx)
    return GameState.from_dict(ctx.s, pack), ctx.events


def _place_primary(ctx: Ctx, seat: str, gid: str | None) -> None:
    """Place a primary general with his start troops and garrisons (R-2)."""
    if gid is None:
        return
    g = ctx.pack.generals[gid]
    if g.start is None:
        ctx.emit("GeneralPlaced", {"general": gid, "seat": seat, "where": "dispersed",
                                   "space": None, "rule": "R-2"})
        return
    ctx.emit("GeneralPlaced", {"general": gid, "seat": seat, "where": "map",
                               "space": g.start.space, "rule": "R-2"})
    if any(g.start.cus.values()):
        ctx.emit("CUsPlaced", {"seat": seat, "space": g.start.space,
                               "cus": {t: n for t, n in g.start.cus.items() if n},
                               "rule": "R-2"})
    for x in g.start.garrisons:
        if ctx.s["garrisons"].get(x) is None:
            ctx.emit("GarrisonPlaced", {"seat": seat, "space": x, "rule": "R-2"})
