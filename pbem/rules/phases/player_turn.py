"""A player-turn (R-8): its segments in order (commanders, standing orders, units inside,
surrender, Tyche, movement, forage), the reaction windows that pause it (R-9.3) and its
resumption, its legal options and its deadline default.

``run_player_turn`` is the single code path of ``validate`` (dry dice, events discarded)
and ``apply`` (real dice): every segment is checked against the position left by the
previous one, then carried out.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.cards.registry import resolve_event
from pbem.rules.context import Ctx, settle_royals
from pbem.rules.core.lazy import LazyOptions
from pbem.rules.core.footprint import Unsure, places_footprint, rest_footprint
from pbem.rules.core.board import info
from pbem.rules.core.control import hostile_marker
from pbem.rules.core.pieces import cus_at, enemy_unit_spaces
from pbem.rules.core.problems import did_you_mean, reject
from pbem.rules.core.royals import passage_requests
from pbem.rules.core.state import (
    Event,
    State,
    _copy,
    hand_of,
    is_paused,
    public_orders,
    suspended_move,
    war_get,
    withheld_orders,
)
from pbem.rules.orders import (
    burial,
    commanders,
    heir,
    inside,
    movement,
    outside,
    reactions,
    reinforcements,
    standing,
    surrender,
    turn_order,
    tyche,
)
from pbem.rules.orders.common import TOP_KEYS, plan_of, tyche_only
from pbem.rules.orders.reactions import WINDOW_RULE, reaction_decision
from pbem.rules.phases.footprints import (
    as_written,
    left_to_chance,
    of_plan,
    sure_problems,
)
from pbem.rules.resolve.effects import forage, tidy_markings
from pbem.rules.resolve.movement import close_windows_dry, run_cursor
from pbem.rules.resolve.moves import besieges
from pbem.rules.resolve.siege import may_complete
from pbem.rules.resolve.surprises import end_segment


def run_player_turn(ctx: Ctx, seat: str, orders: Any) -> list[Problem]:
    """Validate and carry out ``orders`` of ``seat`` segment by segment on ``ctx``.
    Returns every rejection found (events emitted so far must then be discarded)."""
    pack, s = ctx.pack, ctx.s
    rej: list[Problem] = []
    if s["result"]:
        reject(rej, "game.over", "the game is over", "orders")
        return rej
    if s["active"] != seat:
        reject(rej, "turn.not_your_turn", f"it is {s['active'] or 'nobody'}'s turn, not {seat}'s", "orders",
             "wait for your player_turn prompt; standing orders alone ({standing: "
             "[...]}) may be sent at any time")
        return rej
    if not isinstance(orders, dict):
        reject(rej, "orders.not_a_mapping", "orders must be a mapping", "orders",
             "orders: {tyche: {card: 12, use: discard}, movement: mercenary}")
        return rej
    only = tyche_only(pack, s)
    for k in orders:
        if k not in TOP_KEYS:
            reject(rej, "orders.unknown_key", f"orders have no field {k!r}", f"orders.{k}",
                   did_you_mean(k, TOP_KEYS, "fields: surrender, tyche, movement"), params={"field": k})
        elif only and k in ("surrender", "movement"):
            reject(rej, "orders.tyche_only_segment", f"this is an extra Tyche-only segment: no {k} segment", f"orders.{k}")
    applied = ctx.emit("OrdersApplied", {"seat": seat, "step": s["step"],
                                         "orders": public_orders(orders), "rule": "R-8"})
    if ctx.dry:  # issue 24: where the board may differ from this dry run's, so far none
        ctx.unsure = Unsure(was_at={g: v["space"] for g, v in s["generals"].items()
                                    if v["seat"] == seat and v["where"] == "map"})
        ctx.refused = Unsure()
    # R-5 commanders, R-9.3 standing orders, R-5 units coming out then going inside
    for kind, name in ((commanders, "commanders"), (standing, "standing"),
                       (outside, "outside"), (inside, "inside"), (heir, "heir")):
        if name in orders:
            _segment(ctx, seat, kind, name, orders, rej)
            if rej and ctx.quick:  # a yes/no check: refused already
                return rej
            if name == "standing" and not rej and (s.get("court") or {}).get("offers"):
                settle_royals(ctx, None)  # a free passage it grants takes effect
    end_segment(ctx)  # a sally's prestige cards lapse
    if not only and "surrender" in orders:
        _segment(ctx, seat, surrender, "surrender", orders, rej)
        if rej and ctx.quick:
            return rej
        end_segment(ctx)
    if "tyche" not in orders:
        reject(rej, "tyche.missing", "every player-turn plays or discards one non-surprise card", "orders.tyche",
             "tyche: {card: N, use: discard}")
    else:
        chances, ev0 = ctx.chances, len(ctx.events)
        tplan = ctx.planned("tyche", lambda: _checked(ctx, seat, tyche, "tyche", orders, rej))
        if rej and ctx.quick:
            return rej
        _note_partly(ctx, "tyche", tplan)
        if tplan is not None and (not rej or ctx.dry):
            rest = _turn_rest(pack, tplan, orders, only)
            tyche.execute(ctx, seat, tplan)
            if is_paused(s):  # a Tyche move waits for a reaction window
                if not ctx.dry:
                    withhold_orders(ctx, applied, orders)  # the rest stays private
                    return rej  # the rest runs when the window closes (finish_turn)
                _dry_windows(ctx, seat, rest)  # a check: check the rest of the turn now
            end_segment(ctx)
        _footprint(ctx, seat, "tyche", orders["tyche"], tplan, chances, ev0)
    if not only:
        chances = ctx.chances
        mplan = ctx.planned("movement", lambda: _movement_plan(
            ctx, seat, orders.get("movement"), rej))
        if rej and ctx.quick:
            return rej
        _note_partly(ctx, "movement", mplan)
        if mplan is not None and (not rej or ctx.dry):
            movement.execute(ctx, seat, mplan)
            if is_paused(s) and ctx.dry:  # a check: answer the windows, check the rest
                close_windows_dry(ctx)
            if not is_paused(s):  # a reaction window defers forage
                end_segment(ctx)
                forage(ctx, seat)
            else:  # the later moves of the list stay private until they run
                withhold_orders(ctx, applied, orders)
        _footprint(ctx, seat, "movement", orders.get("movement"), mplan, chances)
    if (not rej or ctx.dry) and not is_paused(s):
        bury_at_end(ctx, seat, orders, rej)
        tidy_markings(ctx, seat)
    return rej


def _note_partly(ctx: Ctx, name: str, plan: Any) -> None:
    """In a check: note in ``ctx.partly`` what of the part ``name`` was left to the dice
    or answers before it (:func:`pbem.rules.phases.footprints.left_to_chance`), for the
    receipt (issue 24.1)."""
    if not ctx.dry or not ctx.unsure:
        return
    rolls = [ev.data.get("purpose", "") for ev in ctx.events if ev.kind == "DiceRolled"]
    windows = any(ev.kind == "ReactionWindowOpened" for ev in ctx.events)
    cause = "the Unrest roll" if rolls and not windows and all(
        p.startswith("unrest") for p in rolls) else "the dice and answers before it"
    ctx.partly += left_to_chance(ctx.pack, name, plan, ctx.unsure, cause)


def _checked(ctx: Ctx, seat: str, kind: Any, name: str, orders: dict[str, Any],
             rej: list[Problem]) -> Any:
    """The plan of the part ``name`` of ``orders`` (:func:`plan_of`). In a check, every
    part is checked even after an earlier one was refused (issue 24: every mistake in
    one answer), against the board the earlier parts leave. The order's shape
    (``kind.read``) is refused as it is; of what the board decides (``kind.check``), a
    problem that may depend on a refused part's footprint (``ctx.refused``) is left
    out, and so is one of a Tyche army move that may depend on a die or another seat's
    answer (``ctx.unsure``; a move is cancelled, not refused, when the dice make it
    impossible): :func:`pbem.rules.phases.footprints.sure_problems`. The other parts are
    carried out strictly after dice, so their problems stand as the dry run finds them."""
    if not ctx.dry:
        return plan_of(kind, ctx.pack, ctx.s, seat, orders[name], f"orders.{name}", rej,
                       ctx.soft)
    ctx.unsure.hand_known = not ctx.chances
    shape: list[Problem] = []
    board: list[Problem] = []
    where = f"orders.{name}"
    order = kind.read(ctx.pack, ctx.s, seat, orders[name], where, shape)
    # a Tyche activation's dry run is kept for its execution (Ctx.keep_rehearsal)
    more = {"rehearse": ctx} if kind is tyche else {}
    plan = None if order is None else kind.check(ctx.pack, ctx.s, seat, order, where, board,
                                                 False, **more)
    rej += shape + sure_problems(ctx.pack, ctx.s, seat, board, ctx.unsure, orders,
                                 ctx.refused)
    return plan if not shape and not board else None


def _footprint(ctx: Ctx, seat: str, name: str, part: Any, plan: Any, chances: int,
               start: int | None = None, keep: set[str] | None = None) -> None:
    """In a check, after the part ``name``: add to ``ctx.unsure`` where it may have
    changed the board otherwise than the dry run shows: all it would do as written when
    it was refused (:func:`pbem.rules.phases.footprints.as_written`), the footprint of
    its plan when a die or another seat's answer came into it
    (:func:`pbem.rules.phases.footprints.of_plan`), or, for a Tyche activation whose
    only dice were its assault where it ended (``start``: the index of the part's first
    event), :func:`_assault_only`. ``keep``: spaces where the part's dice cannot change
    what there is to besiege (a free assault that cannot complete its siege, R-10)."""
    if not ctx.dry:
        return
    if plan is None:
        foot = as_written(ctx.pack, ctx.s, seat, name, part)
        ctx.unsure.add(foot)
        ctx.refused.add(foot)
    elif ctx.chances != chances:
        narrow = (_assault_only(ctx, seat, plan, chances, start)
                  or _after_first_step(ctx, seat, plan, chances, start)) \
            if name == "tyche" else None
        foot = narrow or of_plan(ctx.pack, name, plan)
        if keep:
            foot.sieges = (foot.sieges or set()) - keep
        ctx.unsure.add(foot)


AFTER_ARRIVAL = frozenset({"DiceRolled", "AssaultRolled", "CUsRemoved", "SiegePointsScored",
                           "SiegeCompleted", "AssaultCancelled", "MoveEnded", "Note"})
"""Events that may follow the first die of a Tyche activation that rolled only for its
assault where it ended (R-10): CUs lost, siege points, a siege completed."""


def _assault_only(ctx: Ctx, seat: str, plan: Any, chances: int, start: int | None,
                  allowed: frozenset[str] = AFTER_ARRIVAL) -> Unsure | None:
    """Issue 24.1: a Tyche activation (R-8.2) whose first die came after its last step,
    followed only by its assault's results (:data:`AFTER_ARRIVAL`): its units stand
    where it ended whatever the dice (an assault only takes CUs away and changes the
    siege there, R-10), so the board may differ only in that space (the seat's CUs
    there at most as before the assault, ``most_cus``), not along the whole move as
    :func:`pbem.rules.phases.footprints.of_plan` says. None when that is not so (a
    battle, hostile tribes, a window on the way, a card event after the move)."""
    if start is None or not isinstance(plan, dict) or plan.get("use") != "activate" \
            or ctx.pack.cards[plan["card"]].type in ("bonus", "unrest"):
        return None
    first = ctx.chance_at[chances]
    moved = [k for k in range(start, len(ctx.events)) if ctx.events[k].kind == "ArmyMoved"]
    if not moved or moved[-1] >= first or any(
            e.kind not in allowed for e in ctx.events[first:]):
        return None
    end = ctx.events[moved[-1]].data["to"]
    cus = dict(cus_at(ctx.s, seat, end))
    for e in ctx.events[first:]:
        if e.kind == "CUsRemoved" and e.data.get("seat") == seat and e.data.get("space") == end:
            for ty, n in e.data["cus"].items():
                cus[ty] = cus.get(ty, 0) + n
    out = places_footprint(ctx.pack, [end])
    out.most_cus[end] = cus
    return out


def _after_first_step(ctx: Ctx, seat: str, plan: Any, chances: int, start: int | None
                      ) -> Unsure | None:
    """Issue 24.1: the footprint of a Tyche activation (R-8.2) by land whose first die
    or other seat's answer came after it had taken a step: from the space it then
    stood in on (:func:`pbem.rules.core.footprint.rest_footprint`), not the whole move
    (the spaces it left before are the dry run's: a minor general's army it passed
    moves as written). None when it had taken no step then, for a naval move (a loser
    goes back to its port, R-15) or a card whose event follows the move."""
    if start is None or not isinstance(plan, dict) or plan.get("use") != "activate" \
            or ctx.pack.cards[plan["card"]].type in ("bonus", "unrest"):
        return None
    moves = (plan.get("war") or {}).get("moves") or []
    if len(moves) != 1:
        return None
    first = ctx.chance_at[chances]
    steps = [e for e in ctx.events[start:first] if e.kind == "ArmyMoved"
             and e.data.get("seat") == seat]
    if not steps or any(e.data.get("naval") for e in ctx.events[start:]
                        if e.kind == "ArmyMoved" and e.data.get("seat") == seat):
        return None
    path, at = list(moves[0]["path"]), steps[-1].data["to"]
    rest = path[path.index(at):] if at in path else path
    around, battle_at = _reach(ctx, seat, rest, start)
    if not battle_at and rest == [path[-1]]:  # hostile tribes where it ends, no battle:
        quiet = _assault_only(ctx, seat, plan, chances, start,  # only CUs lost there
                              AFTER_ARRIVAL | {"HostileTribesRolled"})
        if quiet is not None:
            return quiet
    return rest_footprint(ctx.pack, moves[0]["army"], path, at, besieges(moves[0]),
                          around, back=battle_at)


def _reach(ctx: Ctx, seat: str, rest: list[str], start: int) -> tuple[set[str], bool]:
    """Issue 24.1: the spaces next to ``rest`` (the spaces a Tyche move enters from its
    first die on) where other seats' units may come or go: every space next to one
    where another faction stands or a battle was fought (an army avoiding battle, R-9.3,
    steps into any free one), the spaces of other seats' armies that may intercept
    into a space of ``rest`` (R-9.3: none into a space with an enemy garrison or an
    independent marker where that seat has no CUs, R-3.5, read on the markers as the
    move met them: an assault after it, which the dry run's dice may have completed,
    changes them later), and every space another seat's army
    moved from or to in the part's events (``start``: its first event) — the board
    read is the one after the dry run, so an interceptor or avoider the dry run moved
    is found by its event, and so is an army the dry run's dice defeated, dispersed or
    took CUs from (a side of a ``BattleFought``, ``CUsRemoved``, ``CUsDispersed``): it
    stood there before the dice and, under other dice, may still stand there and
    intercept (game 29 of the dice half: Craterus, dispersed in Tarsus by dry dice of 6,
    avoided battle into Anazarbus under dry dice of 1). With them, whether a battle may
    be fought in ``rest[0]`` (another faction there or met there in the dry run, or an
    army that may intercept into it): only then may a tie send the army back where it
    came from (R-9.2)."""
    pack, s = ctx.pack, ctx.s
    others = enemy_unit_spaces(s, seat)
    stood: dict[str, set[str]] = {}  # other seats' units the dry run took from a space
    for e in ctx.events[start:]:
        d = e.data
        if e.kind == "ArmyMoved" and d.get("seat") not in (seat, None):
            stood.setdefault(d.get("from"), set()).add(d["seat"])
        elif e.kind in ("CUsRemoved", "CUsDispersed", "MinorGeneralRemoved") \
                and d.get("seat") not in (seat, None):
            stood.setdefault(d.get("space"), set()).add(d["seat"])
        elif e.kind == "BattleFought":  # an independent army: the space, no seat
            stood.setdefault(d.get("space"), set()).update(
                o for o in (d.get("attacker"), d.get("defender"))
                if o not in (seat, None, "independent"))
    others |= {x for x in stood if x in pack.spaces}
    fought = {e.data.get("space") for e in ctx.events[start:]
              if e.kind in ("BattleFought", "BattleAvoided", "OverrunCarriedOut")}
    before: dict[str, str | None] = {}  # the marker a space had before the dry run changed it
    for e in ctx.events[start:]:
        x = e.data.get("space")
        if e.kind == "SiegeCompleted":
            before.setdefault(x, e.data.get("marker"))
        elif e.kind == "GarrisonRemoved":
            before.setdefault(x, e.data.get("seat"))
        elif e.kind == "GarrisonPlaced":
            before.setdefault(x, None)

    def hostile(o: str, x: str) -> bool:  # on the board the move met
        if x not in before:
            return hostile_marker(s, o, x)
        return before[x] is not None and before[x] != o
    out: set[str] = set()
    for e in ctx.events[start:]:
        if e.kind == "ArmyMoved" and e.data.get("seat") != seat:
            out |= {e.data.get("from"), e.data.get("to")}
    mi = info(pack)
    battle_at = False
    for k, x in enumerate(rest):
        nbrs = {y for y, _k in mi.adjacent.get(x, ())}
        if x in others or x in fought:
            out |= nbrs
            battle_at = battle_at or k == 0
            continue
        for y in nbrs & others:
            seats = {o for o, by in s["cus"].get(y, {}).items() if o != seat and sum(by.values())} | {
                v["seat"] for v in s["generals"].values()
                if v["where"] == "map" and v["space"] == y and v["seat"] not in (seat, None)} | {
                o for o, ms in s["minors"].items() if o != seat and y in ms} | stood.get(y, set())
            if any(not (hostile(o, x) and not sum(s["cus"].get(x, {}).get(o, {}).values()))
                   for o in seats) or not seats:
                out.add(y)
                battle_at = battle_at or k == 0
    return {x for x in out if x is not None}, battle_at


def bury_at_end(ctx: Ctx, seat: str, orders: Any, rej: list[Problem],
                lenient: bool = False) -> None:
    """R-12.4: the ``bury`` order at the end of the player-turn, checked on the position
    then (leniently after a die was rolled, or when the player-turn resumes after a
    reaction window: ``lenient``), then carried out (:mod:`pbem.rules.orders.burial`).
    In a check, a refusal stands only when the body's space and the space named are
    clear of where the board is unsure (``ctx.unsure``)."""
    if not isinstance(orders, dict) or "bury" not in orders:
        return
    soft = (ctx.soft or ctx.rolled or lenient) and not ctx.dry
    mine: list[Problem] = []
    plan = ctx.planned("bury", lambda: plan_of(burial, ctx.pack, ctx.s, seat,
                                               orders["bury"], "orders.bury", mine, soft))
    if not lenient and (not ctx.dry or burial.holds(ctx.pack, ctx.s, orders["bury"], seat,
                                                    ctx.unsure)):
        rej += mine
    if plan is not None:
        burial.execute(ctx, seat, plan)


def _withheld(ctx: Ctx) -> Any:
    """The orders of the player-turn a reaction window paused (R-9.3), or None."""
    w = withheld_orders(ctx.s)
    return w["orders"] if w else None


def _movement_plan(ctx: Ctx, seat: str, part: Any, rej: list[Problem]
                   ) -> dict[str, Any] | None:
    """The movement segment's plan (R-8.7), checked against the board as it stands. In
    a check, that board may be unsure where an earlier part was refused or met a die or
    another seat's answer (``ctx.unsure``): what depends on it is left to the real
    run, which cancels what is still impossible (``MoveCancelled``; docs/orders.md
    "Validation"). Carrying the orders out after dice, the check is soft."""
    pack, s = ctx.pack, ctx.s
    if not ctx.dry:
        return movement.check(pack, s, seat, part, "orders.movement", rej, ctx.soft,
                              lenient=ctx.rolled)
    ctx.unsure.hand_known = not ctx.chances
    return movement.check(pack, s, seat, part, "orders.movement", rej, rehearse=ctx,
                          unsure=ctx.unsure or None)


def _turn_rest(pack: Pack, tplan: dict[str, Any], orders: dict[str, Any], only: bool
               ) -> dict[str, Any] | None:
    """The rest of the player-turn after a Tyche army move (R-8.2, R-16.1), carried in the
    cursor so a reaction window may pause the move (R-9.3): the card's event when it
    follows the activation (bonus and unrest cards, as in ``do_tyche``), the movement
    segment's orders (unless a Tyche-only round), forage and tidying. None when the
    card moves no army."""
    war = tplan.get("war")
    if not war or war.get("kind") != "moves":
        return None
    card = pack.cards[tplan["card"]]
    event = None
    if tplan["use"] != "event" and card.type in ("bonus", "unrest"):
        event = {"card": tplan["card"], "plan": _copy({k: v for k, v in tplan.items()
                                                      if k != "war"})}
    rest = {"event": event, "segment": not only, "movement": _copy(orders.get("movement"))}
    war["rest"] = rest
    return rest


def _dry_windows(ctx: Ctx, seat: str, rest: dict[str, Any] | None) -> None:
    """Validation only (dry dice): answer every window the Tyche move opened with "no
    reaction" and finish the move, so the movement segment's orders are checked up front
    against the board as it would stand (R-9.3)."""
    close_windows_dry(ctx)
    if rest and rest.get("event"):
        resolve_event(ctx, seat, ctx.pack.cards[rest["event"]["card"]], rest["event"]["plan"])


def finish_turn(ctx: Ctx, seat: str, rest: dict[str, Any]) -> bool:
    """The rest of a player-turn whose Tyche move waited for a reaction window (R-8.2,
    R-9.3): the card's event, the movement segment (R-8.7; orders validated when sent,
    so what the dice and reactions made impossible since is cancelled, never refused),
    forage (R-8.8) and tidying (R-4.2). Returns False when a window opened again."""

    pack, s = ctx.pack, ctx.s
    if rest.get("event"):
        resolve_event(ctx, seat, pack.cards[rest["event"]["card"]], rest["event"]["plan"])
    end_segment(ctx)  # the Tyche segment is over
    if rest.get("segment"):
        rej: list[Problem] = []
        mplan = movement.check(pack, s, seat, rest.get("movement"), "orders.movement",
                               rej, True, lenient=True)
        if mplan is None or rej:
            ctx.emit("MoveCancelled", {"seat": seat, "army": None, "where": "orders.movement",
                                       "why": "; ".join(r.message for r in rej)
                                              or "not possible now", "rule": "R-9.1"})
        else:
            movement.execute(ctx, seat, mplan)
            if is_paused(s):  # a movement-segment window: forage follows its cursor
                return False
        end_segment(ctx)
        forage(ctx, seat)
    bury_at_end(ctx, seat, _withheld(ctx), [], lenient=True)
    tidy_markings(ctx, seat)
    return True


def run_reaction(ctx: Ctx, seat: str, orders: Any) -> list[Problem]:
    """Check and carry out the answer of the seat whose reaction window is open
    (:mod:`pbem.rules.orders.reactions`), then resume the mover's moves (and the rest of
    its player-turn when they end)."""
    pack, s = ctx.pack, ctx.s
    p = war_get(s, "pause")
    rej: list[Problem] = []
    key = p["kind"]
    if seat != p["seat"]:
        reject(rej, "turn.not_your_turn", f"{p['seat']} is answering a {key} window now",
               "orders", "wait until the window closes; standing orders alone "
               "({standing: [...]}) may be sent at any time", rule=WINDOW_RULE[key])
        return rej
    plan = ctx.planned("answer", lambda: plan_of(reactions, pack, s, seat, orders, "orders",
                                                 rej))
    if plan is None:
        return rej
    c = copy.deepcopy(suspended_move(ctx.s))
    reactions.execute(ctx, seat, plan)
    c["cur"]["answer"] = {"seat": seat, "kind": key, "choice": plan["choice"]}
    if key != "inside_join":  # the cards it names serve the rest of the move
        c["cur"].setdefault("plays", {})[seat] = list(plan["play"])
    finish_moves(ctx, c)
    return rej


def _segment(ctx: Ctx, seat: str, kind: Any, name: str, orders: dict[str, Any],
             rej: list[Problem]) -> None:
    """One segment of a player-turn: the order kind ``kind`` (a module of
    :mod:`pbem.rules.orders`) read and checked once (:meth:`Ctx.planned`, :func:`_checked`),
    then carried out when its plan holds; in a check, its footprint noted
    (:func:`_footprint`)."""
    chances = ctx.chances
    plan = ctx.planned(name, lambda: _checked(ctx, seat, kind, name, orders, rej))
    before = {x: dict(cus_at(ctx.s, seat, x)) for x in plan.get("assault", [])} \
        if ctx.dry and name == "surrender" and plan else {}  # R-10: CUs may be lost there
    if ctx.dry and name == "outside" and isinstance(plan, list):  # a sally's losses
        before = {x: dict(cus_at(ctx.s, seat, x)) for x in
                  (y if isinstance(y, str) else y.get("space") for y in plan) if x}
    keep = {x for x in plan.get("assault", []) if x not in (plan.get("surprise") or {})
            and not may_complete(ctx.pack, ctx.s, seat, x)} \
        if ctx.dry and name == "surrender" and plan else set()  # R-10: no siege completes
    if plan is not None:
        kind.execute(ctx, seat, plan)
    _footprint(ctx, seat, name, orders[name], plan, chances, keep=keep)
    if before and ctx.chances != chances:
        ctx.unsure.add(Unsure(most_cus=before))


def finish_moves(ctx: Ctx, c: dict) -> bool:
    """Run the cursor; when it ends in the movement segment, run the mover's forage
    segment and tidy its markings (R-8.8, R-4.2). Returns False when paused again."""

    if not run_cursor(ctx, c):
        return False
    if c.get("resume_forage"):
        end_segment(ctx)  # the movement segment is over
        forage(ctx, c["seat"])
        bury_at_end(ctx, c["seat"], _withheld(ctx), [], lenient=True)
        tidy_markings(ctx, c["seat"])
    if c.get("rest") is not None:  # a Tyche move: the rest of the player-turn
        if not finish_turn(ctx, c["seat"], c["rest"]):
            return False
    reveal_orders(ctx)
    return True


def withhold_orders(ctx: Ctx, applied: Event, orders: Any) -> None:
    """R-9.3: the mover's player-turn paused for a reaction window. The public
    ``OrdersApplied`` (``applied``, emitted earlier in this same apply, so not yet
    committed) is cut down to what has been carried out (no ``movement``; of a paused
    Tyche move only the card and its use) and marked ``withheld``; the full orders go
    to a private ``OrdersWithheld`` for the mover (kept in ``war["withheld"]``) and are
    made public by :func:`reveal_orders` once the player-turn has run."""
    p = war_get(ctx.s, "pause")
    if not p or not isinstance(orders, dict):
        return
    seat = applied.data["seat"]
    full = public_orders(orders)
    shown = {k: v for k, v in full.items() if k != "movement"}
    if p.get("segment") == "tyche" and isinstance(shown.get("tyche"), dict):
        shown["tyche"] = {k: v for k, v in shown["tyche"].items() if k in ("card", "use")}
    for i, ev in enumerate(ctx.events):
        if ev is applied:
            ctx.events[i] = Event(ev.kind, {**ev.data, "orders": shown, "withheld": True},
                                  ev.public, ev.seat)
    ctx.emit("OrdersWithheld", {"seat": seat, "step": applied.data["step"],
                                "orders": copy.deepcopy(full), "rule": "R-9.3"})


def reveal_orders(ctx: Ctx) -> None:
    """R-9.3: once the paused player-turn has run, its orders withheld by
    :func:`withhold_orders` become public (``OrdersRevealed``)."""
    w = withheld_orders(ctx.s)
    if w and not war_get(ctx.s, "pause"):
        ctx.emit("OrdersRevealed", {"seat": w["seat"], "step": w["step"],
                                    "orders": copy.deepcopy(w["orders"]), "rule": "R-9.3"})


def turn_seat(before: dict | None, s: State, seat: str) -> str | None:
    """After an applied decision: the seat whose player-turn now ends (the mover when
    ``before``, the window open before the decision, was a reaction window), or None
    while a reaction window is open (the player-turn goes on)."""
    if war_get(s, "pause"):
        return None
    return before["mover"] if before else seat


def run_standing(ctx: Ctx, seat: str, orders: dict) -> list[Problem]:
    """Validate and record standing orders sent outside the seat's own decision
    (``StandingOrdersSet``; the step does not advance, R-9.3). From the seat whose
    reaction window is open, the window is then decided by the new standing orders when
    one of them applies (the step advances, as with an answer); otherwise the window
    stays open and still waits for an answer."""

    rej: list[Problem] = []
    std = ctx.planned("standing", lambda: plan_of(
        standing, ctx.pack, ctx.s, seat, orders["standing"], "orders.standing", rej))
    if std is not None and not rej:  # a private choice: only its seat sees it
        standing.execute(ctx, seat, std)
        p = war_get(ctx.s, "pause")
        if p and p["seat"] == seat:
            _decide_by_standing(ctx, seat, orders, p)
    return rej


def _decide_by_standing(ctx: Ctx, seat: str, orders: dict, p: dict) -> None:
    """R-9.3: resume the paused cursor without an answer, so the window seat's standing
    orders are consulted again at the same point. When none decides, the window would
    only open again: everything done here is undone and the window stays open."""
    saved, n, rolled, mark = copy.deepcopy(ctx.s), len(ctx.events), ctx.rolled, ctx.dice_mark()
    ctx.emit("OrdersApplied", {"seat": seat, "step": ctx.s["step"],
                               "orders": public_orders(orders), "rule": WINDOW_RULE[p["kind"]]})
    c = copy.deepcopy(suspended_move(ctx.s))
    ctx.emit("ReactionWindowClosed", {"seat": seat, "kind": p["kind"],
                                      "rule": WINDOW_RULE[p["kind"]]})
    if c.get("cur"):
        c["cur"]["answer"] = None
    finish_moves(ctx, c)
    first = next((e for e in ctx.events[n:]
                  if e.kind in ("ReactionChosen", "ReactionWindowOpened")), None)
    if first is None or first.kind != "ReactionChosen" or first.data.get("seat") != seat:
        ctx.restore(saved, n)
        ctx.rolled = rolled
        ctx.rewind_dice(mark)  # the undone dice were never rolled: no gap in the log's numbering


def legal_options_of(pack: Pack, s: State, seat: str) -> Mapping[str, Any]:
    """Options of ``seat``'s current decision: while a reaction window is open (R-9.3)
    the window's options for the seat answering it (those of its pending Decision) and
    inactive player-turn options for everyone else, the waiting mover included;
    reinforcement options during the reinforcement phase (see
    :mod:`pbem.rules.orders.reinforcements`), else :func:`player_turn_options`."""
    if is_paused(s) and not s["result"]:
        window = reaction_decision(pack, s, s["step"])
        if window is not None and window.seat == seat:
            return dict(window.options)
        return player_turn_options(pack, s, seat)
    if s.get("reinforce") and not s["result"]:
        return reinforcements.options(pack, s, seat)
    if s.get("order_choice") and not s["result"]:
        return turn_order.options(pack, s, seat)
    return player_turn_options(pack, s, seat)


def player_turn_options(pack: Pack, s: State, seat: str) -> LazyOptions:
    """Legal choices of ``seat`` now, JSON-safe, in words for the prompt (R-8): those of
    each order kind of the player-turn (:mod:`pbem.rules.orders`)::

        {"seat", "step", "round", "tyche_only": bool, "active": bool,
         **tyche.options: "hand", "surprise_discards", "surprise_plays" (R-8.5),
                          "garrison_spaces", "training",
                          "general_spaces", "special_unit_armies", "fleet_upgrades",
         "surrender": {"accept": [id], "remove": [id]},
         **movement.options: "movement", "armies", "mercenary_spaces",
         "heirs": [royal id] (heir, R-11.1), "bury": [space] (bury, R-12.4),
         "free_passage": [{"to", "royal", "space"}] (marriages the seat's CUs alone
                          forbid: a standing order free_passage would let them happen,
                          R-12.2; listed in every seat's options, its turn or not)}

    (The other kinds' options, :func:`pbem.rules.orders.commanders.options` and those
    of inside and outside, are not listed in the prompt yet.)

    Spaces, armies and the segments' choices are listed only for the seat whose
    player-turn it is (R-6.5); an extra Tyche-only segment has no surrender or movement
    segment (R-6.5).

    A :class:`pbem.rules.core.lazy.LazyOptions` (issue 27 item 5): every key is there,
    in this order, but each value is computed on its first read (``dict(...)`` gives
    the plain dict); its parts ``card(n)`` and ``event_choices(n)`` give one hand
    card's entry and event choices (:func:`pbem.rules.orders.tyche.option_parts`)."""
    active = s["active"] == seat and not s["result"] and not is_paused(s)
    only = tyche_only(pack, s)
    ty, parts = tyche.option_parts(pack, s, seat)
    mv = movement.option_parts(pack, s, seat)
    step, round_ = s["step"], s["round"]
    thunks: dict[str, Callable[[], Any]] = {
        "seat": lambda: seat, "step": lambda: step, "round": lambda: round_,
        "active": lambda: active, "tyche_only": lambda: only}
    for k in ("hand", "surprise_discards", "surprise_plays",
              "garrison_spaces"):  # the prompt's order
        thunks[k] = ty.pop(k)
    thunks["surrender"] = (lambda: surrender.options(pack, s, seat)) if active and not only \
        else (lambda: {"accept": [], "remove": []})
    thunks.update(mv)
    thunks.update(ty)
    thunks["heirs"] = lambda: heir.options(pack, s, seat) if active else []
    thunks["bury"] = lambda: burial.options(pack, s, seat) if active else []
    thunks["free_passage"] = lambda: passage_requests(pack, s, seat)
    return LazyOptions(thunks, parts)


def default_orders(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """Orders used when the deadline passes [D]: discard the non-surprise card with the
    fewest OPs that may be discarded (lowest number on ties), else play the first
    must-play card for its event; take the mercenary at the default space (R-8.7)."""
    cards = [n for n in hand_of(s, seat) if pack.cards[n].type != "surprise"]
    out: dict[str, Any] = {}
    disc = [n for n in cards if not pack.cards[n].must_play]
    if disc:
        n = min(disc, key=lambda k: (pack.cards[k].ops or 0, k))
        out["tyche"] = {"card": n, "use": "discard"}
    elif cards:
        out["tyche"] = {"card": min(cards), "use": "event"}
    if not tyche_only(pack, s):
        out["movement"] = "mercenary"
    return out
