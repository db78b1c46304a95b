"""Reactions to a moving army (R-9.3): interception and avoid battle, naval battles
(R-15) and the units inside a major city joining a battle (R-9.2), decided by standing
orders or, with the game option ``ask_windows: true``, by a reaction window: ``pending``
then returns a Decision of kind ``intercept`` / ``avoid_battle`` / ``naval_battle`` /
``inside_join`` for the reacting seat and the mover's orders resume after the answer.
Windows open in the movement segment and for Tyche moves (activation R-8.2, Major
Campaign R-16.1); the rest of that player-turn waits in the suspended cursor
(``cursor["rest"]``, :func:`pbem.rules.orders.finish_turn`).

Standing orders (``standing:`` in any orders of the seat)::

    {when: intercept, army: Ptolemy, into: [Gaza], if_enemy_strength_at_most: 8}
    {when: avoid, army: Eumenes, toward: Sinope, if_attacker_ratio_at_least: 2}
    {when: naval_battle, against: [east], fleets: [athenian_fleet]}       (R-15)
    {when: inside_join, city: [Babylon], join: false}                     (R-9.2)
    {when: losses, order: [mercenary, elephant, loyal, royal]}  (R-9.2, R-9.5, R-8.8)

A reaction answer is an orders mapping ``{intercept: {army: Ptolemy}}`` /
``{intercept: none}`` / ``{avoid_battle: {toward: Sinope}}`` / ``{avoid_battle: none}`` /
``{naval_battle: {fleets: [athenian_fleet]}}`` / ``{naval_battle: none}`` /
``{inside_join: join}`` / ``{inside_join: stay}`` / ``{inside_join: none}`` (the default,
join). ``none`` in any case or an empty value is no reaction.
"""
from __future__ import annotations

import copy
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.combat import (
    battle,
    chart_read,
    enemy_of,
    fixed_strength,
    initiative,
    side_strength_fixed,
)
from pbem.rules.constants import chart_dice
from pbem.rules.context import Ctx
from pbem.rules.mapinfo import info, resolve_space
from pbem.rules.state import SEATS, Decision, Event, Rejection, public_orders

State = dict[str, Any]
PAUSE = "pause"
LAND = ("land", "mountain_strait")


def war_get(s: State, key: str, default: Any = None) -> Any:
    """Read ``s["war"][key]`` without creating anything (read-only paths)."""
    return (s.get("war") or {}).get(key, default)


def army_space(pack: Pack, s: State, seat: str, army: str) -> str | None:
    """Where the army named ``army`` (a general id of ``seat`` or a space id) stands."""
    g = s["generals"].get(army)
    if g is not None:
        return g["space"] if g["where"] == "map" and g["seat"] == seat else None
    return army if army in pack.spaces else None


def hostile_marker(s: State, seat: str, space: str) -> bool:
    """R-3.5: ``space`` holds an enemy garrison or an independent marker for ``seat``."""
    owner = s["garrisons"].get(space)
    return (owner is not None and owner != seat) or space in s["independent"]


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
        if kind not in LAND or y == space:
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
    from pbem.rules.movement import group_at
    g = group_at(s, seat, space, [])
    return bool(g["generals"] or (g["minor"] and g["cus"]))


def avoid_targets(pack: Pack, s: State, seat: str, space: str) -> list[str]:
    """Spaces the army of ``seat`` in ``space`` may avoid battle into (R-9.3, R-3.5):
    joined by a land or mountain/strait path, free of other factions' units and of enemy
    or independent markers (unless ``seat`` already has CUs there)."""
    out = []
    for y, kind in info(pack).adjacent.get(space, ()):
        if kind not in LAND or y in out:
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
    for i, order in enumerate(war_get(ctx.s, "standing", {}).get(rseat, [])):
        choice = match(order)
        if choice:
            ctx.emit("ReactionChosen", {"seat": rseat, "kind": kind, "choice": choice,
                                        "source": "standing", "order": i,
                                        "space": cur["space"], "rule": rule})
            return choice
    if ctx.s.get("options", {}).get("ask_windows") and options \
            and c["segment"] in ("movement", "tyche"):
        ctx.emit("ReactionWindowOpened", {"kind": kind, "seat": rseat, "mover": c["seat"],
                                          "space": cur["space"], "options": options,
                                          "segment": c["segment"], "rule": rule})
        # The mover's remaining orders are a private plan: kept for the judge only.
        ctx.emit("MoveSuspended", {"seat": c["seat"], "cursor": copy.deepcopy(c), "rule": "R-9.3"},
                 public=False)
        return PAUSE
    return None


def try_intercept(ctx: Ctx, c: dict, cur: dict) -> str:
    """Interception windows when the mover enters ``cur["space"]`` (R-9.3): each other
    seat in turn order may send one adjacent army; one die on the ``interception`` chart
    (column = initiative). Success: the interceptor moves in and defends in a battle.
    Returns ``"fought"``, ``"none"`` or ``"pause"``."""
    from pbem.rules.movement import move_all

    pack, s, mover = ctx.pack, ctx.s, c["seat"]
    b = cur["space"]
    if "interception" not in pack.charts:
        return "none"
    strength = fixed_strength(pack, cur["group"]["cus"])
    for rseat in _order_after(s, mover):
        if rseat in cur["asked"]:
            continue
        cands = intercept_candidates(pack, s, rseat, b, mover)
        if not cands:
            cur["asked"].append(rseat)
            continue
        spaces = [x["space"] for x in cands]

        def match(o: dict, spaces=spaces, rseat=rseat) -> str | None:
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
        die = ctx.roll(chart_dice(ctx.pack, "interception")[0], f"interception by {rseat} from {choice} into {b}",
                       "R-9.3")[0]
        ok, rec = _check(pack, "interception", die, ini)
        ctx.emit("InterceptionRolled", {"seat": rseat, "from": choice, "into": b,
                                        "mover": mover, "die": die, "initiative": ini,
                                        "read": rec, "success": ok, "rule": "R-9.3"})
        if ok:
            move_all(ctx, rseat, choice, b, "R-9.3", "interception")
            battle(ctx, mover, rseat, b, cur["prev"], why="intercepted")
            if enemy_of(s, mover, b) is None and not sum(
                    s["cus"].get(b, {}).get(mover, {}).values()):
                pass
            return "fought"
    return "none"


def try_avoid(ctx: Ctx, c: dict, cur: dict, defender: str) -> str:
    """Avoid battle (R-9.3): the entered army of ``defender`` may step to a free adjacent
    space (one die on the ``avoid_battle`` chart, column = initiative). Returns
    ``"avoided"``, ``"battle"`` or ``"pause"``."""
    from pbem.rules.movement import move_all

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
    die = ctx.roll(chart_dice(ctx.pack, "avoid_battle")[0], f"{defender} avoids battle in {b}", "R-9.3")[0]
    ok, rec = _check(pack, "avoid_battle", die, ini)
    ctx.emit("AvoidBattleRolled", {"seat": defender, "space": b, "toward": choice,
                                   "die": die, "initiative": ini, "read": rec,
                                   "success": ok, "rule": "R-9.3"})
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
    from pbem.rules.combat import INDEP
    from pbem.rules.inside import inside_cus, inside_generals

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


# --- reaction windows: pending decision and answer ----------------------------------

WINDOW_RULE = {"intercept": "R-9.3", "avoid_battle": "R-9.3", "naval_battle": "R-15",
               "inside_join": "R-9.2"}
QUESTION = {
    "intercept": "{mover}'s army has entered {space}: you may intercept it with an adjacent "
                 "army (R-9.3)",
    "avoid_battle": "{mover}'s army has entered {space}, where your army stands: you may try "
                    "to avoid battle (R-9.3)",
    "naval_battle": "{mover}'s army lands at {space} by sea near your garrisons: you may "
                    "declare a naval battle with your fleets (R-15; an attack, R-11.4)",
    "inside_join": "{mover} attacks your army outside {space}: your units inside the city "
                   "may join the battle or stay inside, out of it (R-9.2)",
}
DEFAULTS = {"intercept": "none", "avoid_battle": "none", "naval_battle": "none",
            "inside_join": "join"}


def _choice_rows(pack: Pack, kind: str, options: list[str]) -> list[dict[str, str]]:
    if kind == "naval_battle":
        return [{"fleet": f, "name": pack.fleets[f].name if f in pack.fleets else f}
                for f in options]
    if kind == "inside_join":
        return [{"answer": x, "name": "join the battle" if x == "join" else
                 "stay inside, out of the battle"} for x in options]
    return [{"space": x, "name": pack.spaces[x].name} for x in options]


def _answer_text(pack: Pack, kind: str, options: list[str]) -> str:
    first = options[0] if options else "?"
    if kind == "intercept":
        return "{intercept: {army: <general or space>}} or {intercept: none}"
    if kind == "avoid_battle":
        return "{avoid_battle: {toward: <space>}} or {avoid_battle: none}"
    if kind == "naval_battle":
        return f"{{naval_battle: {{fleets: [{first}]}}}} or {{naval_battle: none}}"
    return "{inside_join: join} or {inside_join: stay}"


def reaction_decision(pack: Pack, s: State, step: int) -> Decision | None:
    """The open reaction window as a Decision, or None. Kinds: ``intercept`` and
    ``avoid_battle`` (R-9.3), ``naval_battle`` (R-15), ``inside_join`` (R-9.2). Options:
    ``{mover, space, question, choices, answer, active: True}`` (also the seat's
    ``legal_options`` while the window is open); default: no reaction (inside units:
    join)."""
    p = war_get(s, "pause")
    if not p:
        return None
    key = p["kind"]
    mover, space = p["mover"], pack.spaces[p["space"]].name
    return Decision(seat=p["seat"], kind=key, step=step,
                    options={"mover": mover, "space": p["space"],
                             "question": QUESTION[key].format(mover=mover, space=space),
                             "choices": _choice_rows(pack, key, p["options"]),
                             "answer": _answer_text(pack, key, p["options"]),
                             "active": True},
                    default={key: DEFAULTS[key]}, rule=WINDOW_RULE[key])


def _is_none(val: Any) -> bool:
    """True for the "no reaction" answer: ``none`` in any case, an empty value (YAML
    ``null``) or ``false`` (R-9.3)."""
    return val is None or val is False or (isinstance(val, str) and
                                           val.strip().lower() == "none")


NONE_HINT = {"intercept": "{intercept: none}", "avoid_battle": "{avoid_battle: none}",
             "naval_battle": "{naval_battle: none}",
             "inside_join": "{inside_join: none} (the default: join)"}


def _parse_answer(pack: Pack, s: State, seat: str, p: dict, ans: Any,
                  rej: list[Rejection]) -> Any:
    """The choice in a window answer (see :func:`reaction_decision`, R-9.3, R-9.2, R-15),
    rejections added. ``none`` (any case) or an empty value is no reaction (for
    ``inside_join`` the default, join); every bad answer's hint names the exact forms,
    the ``none`` form included."""
    key, opts = p["kind"], p["options"]
    rule = WINDOW_RULE[key]
    if key == "inside_join":  # only join, stay or none (= join): never a mapping or bool
        val = ans.strip().lower() if isinstance(ans, str) else ans
        if ans is None or val == "none":
            return "join"
        if val not in opts:
            rej.append(Rejection("reaction.bad_answer", rule,
                                 f"{ans!r} is not an answer here: join, stay or none "
                                 f"({rule})", f"orders.{key}",
                                 "{inside_join: join}, {inside_join: stay} or "
                                 + NONE_HINT[key]))
            return None
        return val
    if isinstance(ans, dict) and len(ans) == 1:  # {army: none}, {fleets: none}
        inner = next(iter(ans.values()))
        if _is_none(inner) and inner is not False:
            return None
    if _is_none(ans):
        return None
    if key == "naval_battle":
        from pbem.rules.naval import resolve_fleet
        raw = ans.get("fleets") if isinstance(ans, dict) else ans
        items = raw if isinstance(raw, list) else [raw]
        out = []
        for x in items:
            f = resolve_fleet(pack, x)
            if f not in opts:
                rej.append(Rejection("reaction.bad_fleet", rule,
                                     f"{x!r} is not one of your ready fleets ({rule})",
                                     f"orders.{key}.fleets",
                                     "fleets: " + ", ".join(opts) + "; or "
                                     + NONE_HINT[key]))
            elif f not in out:
                out.append(f)
        if not out and not rej:
            rej.append(Rejection("reaction.bad_fleet", rule, f"name at least one fleet "
                                 f"({rule})", f"orders.{key}.fleets",
                                 f"{{naval_battle: {{fleets: [{opts[0]}]}}}} or "
                                 + NONE_HINT[key]))
        return out
    field = "army" if key == "intercept" else "toward"
    val = ans.get(field) if isinstance(ans, dict) else ans
    sid = None
    if isinstance(val, str):
        g = val.strip().lower()
        gid = next((k for k, v in pack.generals.items() if g in (k, v.name.lower())), None)
        sid = army_space(pack, s, seat, gid) if gid else resolve_space(pack, val)[0]
    if sid not in opts:
        rej.append(Rejection(f"reaction.bad_{field}", rule,
                             f"{val!r} is not one of the choices ({rule})",
                             f"orders.{key}.{field}",
                             "choices: " + ", ".join(pack.spaces[x].name for x in opts)
                             + "; or " + NONE_HINT[key]))
    return sid


def run_reaction(ctx: Ctx, seat: str, orders: Any) -> list[Rejection]:
    """Validate and carry out the answer of the seat whose reaction window is open, then
    resume the mover's moves (and the rest of its player-turn when they end)."""

    pack, s = ctx.pack, ctx.s
    p = war_get(s, "pause")
    rej: list[Rejection] = []
    key = p["kind"]
    rule = WINDOW_RULE[key]
    if seat != p["seat"]:
        rej.append(Rejection("turn.not_your_turn", rule,
                             f"{p['seat']} is answering a {key} window now ({rule})",
                             "orders", "wait until the window closes; standing orders "
                             "alone ({standing: [...]}) may be sent at any time"))
        return rej
    if not isinstance(orders, dict):
        rej.append(Rejection("orders.not_a_mapping", rule, f"orders must be a mapping "
                             f"({rule})", "orders", f"{{{key}: {DEFAULTS[key]}}}"))
        return rej
    alias = {"avoid": "avoid_battle", "naval": "naval_battle", "join": "inside_join"}
    given = {alias.get(k, k): v for k, v in orders.items() if k not in ("step", "standing")}
    for k in given:
        if k != key:
            rej.append(Rejection("orders.unknown_key", rule,
                                 f"this window asks for {key}, not {k} ({rule})",
                                 f"orders.{k}", f"{{{key}: {DEFAULTS[key]}}}"))
    choice = _parse_answer(pack, s, seat, p, given.get(key, DEFAULTS[key]), rej)
    std = None
    if "standing" in orders:
        from pbem.rules.war_orders import check_standing
        std = check_standing(pack, s, seat, orders["standing"], "orders.standing", rej)
    if rej:
        return rej
    ctx.emit("OrdersApplied", {"seat": seat, "step": s["step"], "orders": public_orders(orders),
                               "rule": rule})
    if std is not None:
        ctx.emit("StandingOrdersSet", {"seat": seat, "orders": std, "rule": "R-9.3"},
                 public=False, seat=seat)  # a private choice: only its seat sees it
    c = copy.deepcopy(p["cursor"])
    ctx.emit("ReactionWindowClosed", {"seat": seat, "kind": key, "rule": rule})
    ctx.emit("ReactionChosen", {"seat": seat, "kind": key, "choice": choice,
                                "source": "window", "space": p["space"], "rule": rule})
    c["cur"]["answer"] = {"seat": seat, "kind": key, "choice": choice}
    finish_moves(ctx, c)
    return rej


def finish_moves(ctx: Ctx, c: dict) -> bool:
    """Run the cursor; when it ends in the movement segment, run the mover's forage
    segment and tidy its markings (R-8.8, R-4.2). Returns False when paused again."""
    from pbem.rules.movement import run_cursor
    from pbem.rules.orders import forage
    from pbem.rules.reinforcement import tidy_markings

    if not run_cursor(ctx, c):
        return False
    if c.get("resume_forage"):
        forage(ctx, c["seat"])
        tidy_markings(ctx, c["seat"])
    if c.get("rest") is not None:  # a Tyche move: the rest of the player-turn
        from pbem.rules.orders import finish_turn
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
                                "orders": copy.deepcopy(full), "rule": "R-9.3"},
             public=False, seat=seat)


def reveal_orders(ctx: Ctx) -> None:
    """R-9.3: once the paused player-turn has run, its orders withheld by
    :func:`withhold_orders` become public (``OrdersRevealed``)."""
    w = war_get(ctx.s, "withheld")
    if w and not war_get(ctx.s, "pause"):
        ctx.emit("OrdersRevealed", {"seat": w["seat"], "step": w["step"],
                                    "orders": copy.deepcopy(w["orders"]), "rule": "R-9.3"})


def close_windows_dry(ctx: Ctx) -> None:
    """Validation only (dry dice, events discarded): answer every open reaction window
    "no reaction" and run the suspended cursor on without the rest of its player-turn,
    so the orders that follow can be checked against the board (R-9.3)."""
    from pbem.rules.movement import run_cursor

    for _ in range(len(SEATS) * 8):
        p = war_get(ctx.s, "pause")
        if not p:
            return
        c = copy.deepcopy(p["cursor"])
        c.pop("rest", None)
        ctx.emit("ReactionWindowClosed", {"seat": p["seat"], "kind": p["kind"],
                                          "rule": "R-9.3"})
        if c.get("cur"):
            c["cur"]["answer"] = {"seat": p["seat"], "kind": p["kind"], "choice": None}
        run_cursor(ctx, c)


def turn_seat(before: dict | None, s: State, seat: str) -> str | None:
    """After an applied decision: the seat whose player-turn now ends (the mover when
    ``before``, the window open before the decision, was a reaction window), or None
    while a reaction window is open (the player-turn goes on)."""
    if war_get(s, "pause"):
        return None
    return before["mover"] if before else seat


def standing_only(s: State, seat: str, orders: Any) -> bool:
    """True when ``orders`` hold only ``standing`` (and ``step``): standing orders sent
    in a player's own mail at any time, by any seat (R-9.3, :func:`run_standing`). The
    seat deciding now is no exception: its decision stays open (a window may be
    decided by the new orders, see :func:`run_standing`)."""
    if not isinstance(orders, dict) or "standing" not in orders or s.get("result"):
        return False
    return not set(orders) - {"standing", "step"}


def run_standing(ctx: Ctx, seat: str, orders: dict) -> list[Rejection]:
    """Validate and record standing orders sent outside the seat's own decision
    (``StandingOrdersSet``; the step does not advance, R-9.3). From the seat whose
    reaction window is open, the window is then decided by the new standing orders when
    one of them applies (the step advances, as with an answer); otherwise the window
    stays open and still waits for an answer."""
    from pbem.rules.war_orders import check_standing

    rej: list[Rejection] = []
    std = check_standing(ctx.pack, ctx.s, seat, orders["standing"], "orders.standing", rej)
    if std is not None and not rej:
        ctx.emit("StandingOrdersSet", {"seat": seat, "orders": std, "rule": "R-9.3"},
                 public=False, seat=seat)  # a private choice: only its seat sees it
        p = war_get(ctx.s, "pause")
        if p and p["seat"] == seat:
            _decide_by_standing(ctx, seat, orders, p)
    return rej


def _decide_by_standing(ctx: Ctx, seat: str, orders: dict, p: dict) -> None:
    """R-9.3: resume the paused cursor without an answer, so the window seat's standing
    orders are consulted again at the same point. When none decides, the window would
    only open again: everything done here is undone and the window stays open."""
    saved, n, rolled = copy.deepcopy(ctx.s), len(ctx.events), ctx.rolled
    ctx.emit("OrdersApplied", {"seat": seat, "step": ctx.s["step"],
                               "orders": public_orders(orders), "rule": WINDOW_RULE[p["kind"]]})
    c = copy.deepcopy(p["cursor"])
    ctx.emit("ReactionWindowClosed", {"seat": seat, "kind": p["kind"],
                                      "rule": WINDOW_RULE[p["kind"]]})
    if c.get("cur"):
        c["cur"]["answer"] = None
    finish_moves(ctx, c)
    first = next((e for e in ctx.events[n:]
                  if e.kind in ("ReactionChosen", "ReactionWindowOpened")), None)
    if first is None or first.kind != "ReactionChosen" or first.data.get("seat") != seat:
        ctx.s.clear()
        ctx.s.update(saved)
        del ctx.events[n:]
        ctx.rolled = rolled
