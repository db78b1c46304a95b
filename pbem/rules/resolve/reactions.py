"""Reactions to a moving army (R-9.3): interception and avoid battle, and the units
inside a major city joining a battle (R-9.2), decided by an answer given in a reaction
window, a matching standing order, or (game option ``ask_windows: true``) a new reaction
window that pauses the mover (:func:`decide`).
"""
from __future__ import annotations

import copy
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.context import Ctx
from pbem.rules.core.armies import initiative, side_strength_fixed
from pbem.rules.core.board import LAND_KINDS, info
from pbem.rules.core.control import hostile_marker
from pbem.rules.core.pack import chart_dice, chart_read
from pbem.rules.core.pieces import (
    INDEP,
    army_space,
    enemy_of,
    group_at,
    inside_cus,
    inside_generals,
)
from pbem.rules.core.state import SEATS, State, hand_of, standing_orders
from pbem.rules.core.units import fixed_strength
from pbem.rules.resolve.combat import battle
from pbem.rules.resolve.effects import move_all
from pbem.rules.resolve.surprises import find_play, play

PAUSE = "pause"


def _order_after(s: State, seat: str) -> list[str]:
    order = list(s["turn_order"]) or list(SEATS)
    if seat in order:
        i = order.index(seat)
        order = order[i + 1:] + order[:i]
    return [x for x in order if x != seat]


def _check(pack: Pack, chart: str, die: int, ini: int) -> tuple[bool, dict]:
    cols = [int(c) for c in pack.charts[chart].columns]
    col = str(max(min(ini, max(cols)), min(cols)))
    ok, rec = chart_read(pack, chart, die, col)
    return bool(ok), rec


def intercept_candidates(pack: Pack, s: State, rseat: str, space: str, mover: str
                         ) -> list[dict[str, Any]]:
    """Armies of ``rseat`` that may try to intercept into ``space`` (R-9.3): a general in
    a space joined to it by a land or mountain/strait path, not blocked by R-3.5 (an
    enemy or independent marker in ``space`` where ``rseat`` has no CUs)."""
    if hostile_marker(s, rseat, space) and not sum(
            s["cus"].get(space, {}).get(rseat, {}).values()):
        return []
    out = []
    for y, kind in info(pack).adjacent.get(space, ()):
        if kind not in LAND_KINDS or y == space:
            continue
        ini = initiative(pack, s, rseat, y)
        if ini <= 0 or enemy_of(s, rseat, y) is not None or not _outside_army(s, rseat, y):
            continue
        if any(o["space"] == y for o in out):
            continue
        out.append({"space": y, "initiative": ini,
                    "strength": side_strength_fixed(pack, s, rseat, y)})
    return out


def _outside_army(s: State, seat: str, space: str) -> bool:
    """True when ``seat`` has a general outside the city in ``space`` to lead a move
    (R-5: units inside a major city stay there)."""
    g = group_at(s, seat, space, [])
    return bool(g["generals"] or (g["minor"] and g["cus"]))


def avoid_targets(pack: Pack, s: State, seat: str, space: str) -> list[str]:
    """Spaces the army of ``seat`` in ``space`` may avoid battle into (R-9.3, R-3.5):
    joined by a land or mountain/strait path, free of other factions' units and of enemy
    or independent markers (unless ``seat`` already has CUs there)."""
    out = []
    for y, kind in info(pack).adjacent.get(space, ()):
        if kind not in LAND_KINDS or y in out:
            continue
        if enemy_of(s, seat, y) is not None:
            continue
        if hostile_marker(s, seat, y) and not sum(s["cus"].get(y, {}).get(seat, {}).values()):
            continue
        out.append(y)
    return sorted(out)


def _decide(ctx: Ctx, c: dict, cur: dict, kind: str, rseat: str, options: list[str],
            match, rule: str = "R-9.3") -> Any:
    """The reacting seat's choice: an answer given in a reaction window, a matching
    standing order, a new reaction window (returns PAUSE) or None (no reaction)."""
    ans = cur.get("answer")
    if ans and ans.get("seat") == rseat and ans.get("kind") == kind:
        cur["answer"] = None
        return ans.get("choice")
    for i, order in enumerate(standing_orders(ctx.s, rseat)):
        choice = match(order)
        if choice:
            ctx.emit("ReactionChosen", {"seat": rseat, "kind": kind, "choice": choice,
                                        "source": "standing", "order": i,
                                        "space": cur["space"], "rule": rule})
            return choice
    if asks(ctx, c) and options:
        open_window(ctx, c, cur, kind, rseat, options, rule)
        return PAUSE
    return None


def _may_react(ctx: Ctx, c: dict, cur: dict, rseat: str, when: str,
               ask: bool | None = None) -> bool:
    """Whether :func:`_decide` may give ``rseat`` another answer than "no reaction" in a
    window of kind ``when`` (``intercept``), whatever the options: an answer waiting for
    it, a standing order of that ``when`` (no other can match, R-9.3) or a window that
    may open (:func:`asks`). When False, the options need not be computed (issue 27
    item 5: an interception's candidates, at every space a move enters). ``ask``:
    :func:`asks` of ``ctx`` and ``c`` when the caller has it (it reads neither the
    seat nor ``when``)."""
    ans = cur.get("answer")
    if ans and ans.get("seat") == rseat and ans.get("kind") == when:
        return True
    return (asks(ctx, c) if ask is None else ask) or \
        any(o.get("when") == when for o in standing_orders(ctx.s, rseat))


def asks(ctx: Ctx, c: dict) -> bool:
    """True when a reaction window may open for a move of cursor ``c``: the game option
    ``ask_windows`` and a move of the movement or the Tyche segment (R-9.3)."""
    return bool(ctx.s.get("options", {}).get("ask_windows")) and \
        c["segment"] in ("movement", "tyche")


def open_window(ctx: Ctx, c: dict, cur: dict, kind: str, rseat: str, options: list[Any],
                rule: str, **extra: Any) -> None:
    """Open a reaction window of ``kind`` for ``rseat`` (``ReactionWindowOpened``,
    public) and suspend the mover's cursor (``MoveSuspended``, the judge's only). In a
    check the answer is another seat's choice, which the check cannot know: it counts
    among :attr:`pbem.rules.context.Ctx.chances`."""
    ctx.other_seat_asked()
    ctx.emit("ReactionWindowOpened", {"kind": kind, "seat": rseat, "mover": c["seat"],
                                      "space": cur["space"], "options": options,
                                      "segment": c["segment"], "rule": rule, **extra})
    # The mover's remaining orders are a private plan: kept for the judge only.
    ctx.emit("MoveSuspended", {"seat": c["seat"], "cursor": copy.deepcopy(c), "rule": "R-9.3"})


def plays_of(cur: dict, seat: str) -> list[int]:
    """The surprise cards ``seat`` named for the moments of the current move (R-8.5): the
    mover's move ``surprise`` list, another seat's ``play`` in a window answer."""
    return list((cur.get("plays") or {}).get(seat) or [])


def surprise_window(ctx: Ctx, c: dict, cur: dict, seat: str, moment: str) -> str:
    """R-8.5 with ``ask_windows``: before a battle (``moment: battle``, the defender) or
    a naval landing near its garrisons (``naval_landing``) in another seat's turn, a
    ``surprise`` window asks ``seat`` which surprise cards it plays there (answer
    ``{surprise: {play: [N, ...]}}`` or ``{surprise: none}``). It opens on public facts
    only — never on what the seat holds — so it tells nobody about its hand: for a seat
    whose hand is not empty and that has answered no window during this move (its
    ``play`` there serves the whole move). Returns ``"go"`` or ``"pause"``."""
    ans = cur.get("answer")
    if ans and ans.get("seat") == seat and ans.get("kind") == "surprise":
        cur["answer"] = None
        return "go"
    if seat == INDEP or not asks(ctx, c) or seat in (cur.get("plays") or {}) \
            or not hand_of(ctx.s, seat):
        return "go"
    open_window(ctx, c, cur, "surprise", seat, [], "R-8.5", moment=moment)
    return PAUSE


def _check_bonus(ctx: Ctx, seat: str, moment: str, cur: dict, space: str, army_at: str,
                 enemy: str) -> tuple[int, int | None]:
    """R-8.5 Ambush (``interception_bonus``): ``seat`` may play a card pledged for this
    move or by standing order on its own interception or avoid-battle check, before the
    die; returns ``(modifier, card)`` (``(0, None)`` when none is played)."""
    got = find_play(ctx, seat, moment, plays_of(cur, seat), army_at, enemy)
    if got is None:
        return 0, None
    eff = play(ctx, seat, got[0], moment, space, got[1])
    return int(eff.params.get("modifier", 0)), got[0]


def try_intercept(ctx: Ctx, c: dict, cur: dict) -> str:
    """Interception windows when the mover enters ``cur["space"]`` (R-9.3): each other
    seat in turn order may send one adjacent army; one die on the ``interception`` chart
    (column = initiative). Success: the interceptor moves in and defends in a battle.
    Returns ``"fought"``, ``"none"`` or ``"pause"``."""

    pack, s, mover = ctx.pack, ctx.s, c["seat"]
    b = cur["space"]
    if "interception" not in pack.charts:
        return "none"
    strength: int | None = None  # the mover's, once a seat has candidates (issue 27 item 5)
    ask = asks(ctx, c)  # the same for every seat: read once
    for rseat in _order_after(s, mover):
        if rseat in cur["asked"]:
            continue
        if not _may_react(ctx, c, cur, rseat, "intercept", ask):
            cur["asked"].append(rseat)  # what :func:`_decide` answers: no reaction
            continue
        cands = intercept_candidates(pack, s, rseat, b, mover)
        if not cands:
            cur["asked"].append(rseat)
            continue
        spaces = [x["space"] for x in cands]
        if strength is None:  # the group is the same until an interception succeeds
            strength = fixed_strength(pack, cur["group"]["cus"])

        def match(o: dict, spaces=spaces, rseat=rseat, strength=strength) -> str | None:
            if o.get("when") != "intercept":
                return None
            y = army_space(pack, s, rseat, o.get("army", ""))
            if y not in spaces:
                return None
            if o.get("into") and b not in o["into"]:
                return None
            lim = o.get("if_enemy_strength_at_most")
            if lim is not None and strength > lim:
                return None
            return y

        choice = _decide(ctx, c, cur, "intercept", rseat, spaces, match)
        if choice == PAUSE:
            return "pause"
        cur["asked"].append(rseat)
        if not choice or choice not in spaces:
            continue
        ini = initiative(pack, s, rseat, choice)
        mod, card = _check_bonus(ctx, rseat, "interception_check", cur, b, choice, mover)
        die = ctx.roll(chart_dice(ctx.pack, "interception")[0], f"interception by {rseat} from {choice} into {b}",
                       "R-9.3")[0]
        ok, rec = _check(pack, "interception", die, ini + mod)
        ctx.emit("InterceptionRolled", {"seat": rseat, "from": choice, "into": b,
                                        "mover": mover, "die": die, "initiative": ini,
                                        "read": rec, "success": ok, "rule": "R-9.3",
                                        **({"modifier": mod, "card": card} if card else {})})
        if ok:
            move_all(ctx, rseat, choice, b, "R-9.3", "interception")
            battle(ctx, mover, rseat, b, cur["prev"], why="intercepted",
                   pledges=cur.get("plays"))
            if enemy_of(s, mover, b) is None and not sum(
                    s["cus"].get(b, {}).get(mover, {}).values()):
                pass
            return "fought"
    return "none"


def try_avoid(ctx: Ctx, c: dict, cur: dict, defender: str) -> str:
    """Avoid battle (R-9.3): the entered army of ``defender`` may step to a free adjacent
    space (one die on the ``avoid_battle`` chart, column = initiative). Returns
    ``"avoided"``, ``"battle"`` or ``"pause"``."""

    pack, s, mover = ctx.pack, ctx.s, c["seat"]
    b = cur["space"]
    ini = initiative(pack, s, defender, b)
    if ini <= 0 or "avoid_battle" not in pack.charts:
        return "battle"
    targets = avoid_targets(pack, s, defender, b)
    mine = fixed_strength(pack, cur["group"]["cus"])
    theirs = side_strength_fixed(pack, s, defender, b)

    def match(o: dict) -> str | None:
        if o.get("when") != "avoid":
            return None
        if army_space(pack, s, defender, o.get("army", "")) != b:
            return None
        lim = o.get("if_attacker_ratio_at_least")
        if lim is not None and theirs and mine < lim * theirs:
            return None
        want = o.get("toward")
        if want:
            return want if want in targets else None
        return targets[0] if targets else None

    choice = _decide(ctx, c, cur, "avoid_battle", defender, targets, match)
    if choice == PAUSE:
        return "pause"
    if not choice or choice not in targets:
        return "battle"
    mod, card = _check_bonus(ctx, defender, "avoid_check", cur, b, b, mover)
    die = ctx.roll(chart_dice(ctx.pack, "avoid_battle")[0], f"{defender} avoids battle in {b}", "R-9.3")[0]
    ok, rec = _check(pack, "avoid_battle", die, ini + mod)
    ctx.emit("AvoidBattleRolled", {"seat": defender, "space": b, "toward": choice,
                                   "die": die, "initiative": ini, "read": rec,
                                   "success": ok, "rule": "R-9.3",
                                   **({"modifier": mod, "card": card} if card else {})})
    if not ok:
        return "battle"
    move_all(ctx, defender, b, choice, "R-9.3", "avoided battle")
    ctx.emit("BattleAvoided", {"seat": defender, "space": b, "to": choice,
                               "mover": mover, "rule": "R-9.3"})
    return "avoided"


def try_inside_join(ctx: Ctx, c: dict, cur: dict, defender: str) -> str:
    """R-9.2: units of ``defender`` inside the major city where the mover attacks its
    army outside *may* join the battle: a standing order ``{when: inside_join, city:
    [..], join: false}``, else (option ``ask_windows``) an ``inside_join`` window, else
    they join [D]. Asked after interception and avoid battle, just before the battle.
    Returns ``"join"``, ``"stay"`` or ``"pause"``."""

    s, b = ctx.s, cur["space"]
    if defender == INDEP or not (inside_cus(s, defender, b) or inside_generals(s, defender, b)):
        return "join"

    def match(o: dict) -> str | None:
        if o.get("when") != "inside_join" or (o.get("city") and b not in o["city"]):
            return None
        return "join" if o.get("join", True) else "stay"

    choice = _decide(ctx, c, cur, "inside_join", defender, ["join", "stay"], match,
                     rule="R-9.2")
    if choice == PAUSE:
        return "pause"
    return "stay" if choice == "stay" else "join"
