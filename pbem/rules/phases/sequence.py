"""The sequence of play (R-6): turn order, usurper, reinforcements, deal, rounds of
player-turns, extra Tyche-only segments, isolation, end of turn.

Functions take a :class:`~pbem.rules.context.Ctx` and emit events.
"""
from __future__ import annotations

from typing import Any

from pbem.problems import Problem
from pbem.rules.context import Ctx, settle_royals
from pbem.rules.core.control import victory_points
from pbem.rules.core.pack import const
from pbem.rules.core.state import SEATS, all_hands, hand_of
from pbem.rules.orders import turn_order
from pbem.rules.orders.common import plan_of
from pbem.rules.phases.isolation import isolation_phase
from pbem.rules.phases.reinforcement import reinforcement_phase
from pbem.rules.phases.victory import check_victory, final_scoring, start_of_turn_checks
from pbem.rules.resolve.royals import end_of_turn as royals_end_of_turn


def has_mandatory_play(ctx: Ctx, seat: str) -> bool:
    """True when ``seat`` holds a non-surprise card (it owes a Tyche play, R-8.2)."""
    return any(ctx.pack.cards[n].type != "surprise" for n in hand_of(ctx.s, seat))


def decide_turn_order(ctx: Ctx) -> None:
    """R-6.1: the seat with fewest VP names the first player: ties for fewest VP roll one
    die each, highest first, re-rolled among ties (``TurnOrderChooserNamed``); the
    chooser's ``turn_order`` decision (:mod:`pbem.rules.orders.turn_order`) then sets the
    order, clockwise from the first player, and :func:`turn_order_chosen` goes on."""
    vp = victory_points(ctx.pack, ctx.s)
    low = min(vp.values())
    tied = [seat for seat in SEATS if vp[seat] == low]
    rolls: dict[str, int] = {}
    rounds: list[dict[str, int]] = []
    while len(tied) > 1:
        again = f", re-roll {len(rounds)}" if rounds else ""
        rolled = {seat: ctx.roll(1, f"turn order tie{again}: {seat}", "R-6.1")[0] for seat in tied}
        rolls.update(rolled)
        rounds.append(rolled)
        top = max(rolled.values())
        tied = [seat for seat in tied if rolled[seat] == top]
    ctx.emit("TurnOrderChooserNamed", {"seat": tied[0], "vp": vp, "rolls": rolls,
                                       "rounds": rounds, "rule": "R-6.1"})


def run_turn_order(ctx: Ctx, seat: str, orders: Any) -> list[Problem]:
    """The chooser's turn-order decision (R-6.1): read, checked once and carried out
    (:mod:`pbem.rules.orders.turn_order`). Returns every problem found (nothing is
    carried out then); the engine then calls :func:`turn_order_chosen`."""
    rej: list[Problem] = []
    plan = ctx.planned("turn_order", lambda: plan_of(
        turn_order, ctx.pack, ctx.s, seat, orders, "orders", rej))
    if plan is None:
        return rej
    ctx.emit("OrdersApplied", {"seat": seat, "step": ctx.s["step"], "orders": orders,
                               "rule": "R-6.1"})
    turn_order.execute(ctx, seat, plan)
    return rej


def turn_order_chosen(ctx: Ctx) -> None:
    """After the turn-order decision: the Usurpers (R-6.2), then the reinforcement phase
    (R-6.3, not on the first turn) or the deal and round 1 (R-6.4, R-6.5)."""
    label_usurpers(ctx)
    if ctx.s["turn"] > first_turn(ctx):
        reinforcement_phase(ctx)
        return  # continue_turn runs after the last seat's reinforcements decision
    continue_turn(ctx)


def label_usurpers(ctx: Ctx) -> None:
    """R-6.2: the seat(s) with most VP are Usurpers for the whole turn."""
    vp = victory_points(ctx.pack, ctx.s)
    top = max(vp.values())
    ctx.emit("UsurpersLabelled", {"seats": [s for s in SEATS if vp[s] == top],
                                  "vp": vp, "rule": "R-6.2"})


def deal_tyche(ctx: Ctx) -> None:
    """R-6.4: shuffle the Tyche deck (all cards not removed from play, not held and not
    primary; an optional card only when the game sets its rule option, e.g.
    ``capitals``, R-1.4) and deal ``hand_size`` cards to each seat in turn order."""
    s = ctx.s
    held = {n for h in all_hands(s).values() for n in h}
    opts = s.get("options") or {}
    cards = sorted(n for n, c in ctx.pack.cards.items()
                   if c.type != "primary" and n not in s["removed"] and n not in held
                   and not _general_card_out(ctx, n)
                   and (not c.optional or opts.get(c.optional) is True))
    order = ctx.shuffle(cards, "shuffle the Tyche deck", "R-6.4")
    ctx.emit("DeckShuffled", {"deck": order, "from_discards": list(s["discards"]),
                              "rule": "R-6.4"})
    size = const(ctx.pack, "hand_size")
    for seat in s["turn_order"]:
        ctx.draw(seat, size, "R-6.4", kind="CardsDealt")
    ctx.emit("TycheDealt", {"counts": {x: len(hand_of(s, x)) for x in SEATS},
                            "rule": "R-6.4"})


def _general_card_out(ctx: Ctx, n: int) -> bool:
    """A general card whose general is already in play stays out of the deck [D]."""
    g = ctx.pack.cards[n].general
    return bool(g) and ctx.s["generals"].get(g, {}).get("where") not in (None, "deck")


def start_turn(ctx: Ctx) -> None:
    """Open the turn (R-6.1): start-of-turn checks, then the seat that names the first
    player; :func:`turn_order_chosen` runs the rest (R-6.2 … R-6.4) after its decision."""

    ctx.emit("PhaseStarted", {"phase": "turn_order", "turn": ctx.s["turn"],
                              "rule": "R-6.1"})
    start_of_turn_checks(ctx)
    if ctx.s["result"]:
        return
    decide_turn_order(ctx)  # the chooser's decision follows (turn_order_chosen)


def continue_turn(ctx: Ctx) -> None:
    """After the reinforcement phase (R-6.3): shuffle and deal (R-6.4), start round 1."""
    deal_tyche(ctx)
    ctx.emit("PhaseStarted", {"phase": "strategy", "rule": "R-6.5"})
    ctx.emit("RoundStarted", {"round": 1, "rule": "R-6.5"})
    next_player_turn(ctx)


def first_turn(ctx: Ctx) -> int:
    """Number of the first turn on the pack's turn track."""
    return ctx.pack.turns[0].number if ctx.pack.turns else 1


def last_turn(ctx: Ctx) -> int:
    """Number of the last turn on the pack's turn track."""
    return ctx.pack.turns[-1].number if ctx.pack.turns else 5


def is_tyche_only(ctx: Ctx) -> bool:
    """R-6.5/R-8: rounds past the hand size are extra Tyche-only segments (no surrender,
    movement or forage segment)."""
    return ctx.s["round"] > const(ctx.pack, "hand_size")


def next_player_turn(ctx: Ctx) -> None:
    """Start the next player-turn in turn order; start a new round when every seat has
    played; end the strategy phase when nobody owes a Tyche play (R-6.5)."""

    s = ctx.s
    if s["result"]:
        return
    for _ in range(2):
        for seat in s["turn_order"]:
            if seat not in s["played"] and has_mandatory_play(ctx, seat):
                ctx.emit("PlayerTurnStarted", {"seat": seat, "round": s["round"],
                                               "tyche_only": is_tyche_only(ctx),
                                               "rule": "R-6.5"})
                if (s.get("court") or {}).get("offers"):  # a free passage
                    settle_royals(ctx, None)  # granted out of turn takes effect
                return
        if not any(has_mandatory_play(ctx, seat) for seat in SEATS):
            break
        ctx.emit("RoundStarted", {"round": s["round"] + 1, "rule": "R-6.5"})
    end_strategy_phase(ctx)
    if s["result"]:
        return
    royals_end_of_turn(ctx)  # burial in Pella, R-12.2 offers end
    check_victory(ctx, end_of_turn=True)
    if s["result"]:
        return
    if s["turn"] >= last_turn(ctx):
        final_scoring(ctx)
        return
    ctx.emit("TurnEnded", {"turn": s["turn"], "next": s["turn"] + 1, "rule": "R-6.7"})
    start_turn(ctx)


def end_strategy_phase(ctx: Ctx) -> None:
    """End of the strategy phase: surprise cards still held are discarded [D]; the
    isolation phase runs (R-6.6, R-13)."""

    left = {seat: list(h) for seat, h in all_hands(ctx.s).items() if h}
    if left:
        ctx.emit("HandsCleared", {"cards": left, "rule": "R-6.5",
                                  "decision": "[D] unplayed surprise cards are discarded"})
    ctx.emit("PhaseStarted", {"phase": "isolation", "rule": "R-6.6"})
    isolation_phase(ctx)
