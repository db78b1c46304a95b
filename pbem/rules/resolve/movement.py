"""Army movement (R-9.1): pick-up and drop-off, and the resumable executor that runs a
player's list of moves through interception, avoid battle, overrun, battle, hostile
tribes, naval battles and assaults.

A list of moves is carried out by a *cursor* (plain JSON data, so a reaction window can
store it in the state and resume it in the next decision)::

    {"seat", "segment": "movement"|"tyche", "moves": [move], "i": int, "cur": None|{...},
     "moved": [general id | "minor@space"], "royals_moved": {royal: army key}}

    move = {"army": start space, "path": [space, ...], "drop": [part], "pick_up": [part],
            "assault": int, "mp": int|None, "escort": [fleet]|None, "where": str,
            "surprise": [card]}   # surprise cards for this move's moments (R-8.5)
    part = {"at": space|None, "cus": {type: n}, "generals": [id], "royals": [id]}
"""
from __future__ import annotations

import copy

from pbem.pack.model import Pack
from pbem.plural import count
from pbem.problems import Problem, problem
from pbem.rules.context import Ctx
from pbem.rules.core.armies import can_overrun, group_initiative
from pbem.rules.core.board import classify_path, step_cost
from pbem.rules.core.pack import const
from pbem.rules.core.pieces import (
    INDEP,
    controlled_royals,
    cus_at,
    enemy_of,
    generals_at,
    group_at,
    inside_generals,
    outside_cus,
)
from pbem.rules.core.state import SEATS, State, _copy, suspended_move, war_get
from pbem.rules.core.units import unit_name
from pbem.rules.resolve.combat import battle, hostile_tribes, overrun
from pbem.rules.resolve.effects import emit_move
from pbem.rules.resolve.inside import sally
from pbem.rules.resolve.naval import naval_challenge, storm_at_sea
from pbem.rules.resolve.reactions import (
    plays_of,
    surprise_window,
    try_avoid,
    try_inside_join,
    try_intercept,
)
from pbem.rules.resolve.siege import assault_after_move, surprise_siege_points
from pbem.rules.resolve.surprises import find_play, play, surprise_effect

NO_CUS = "a minor general never moves without CUs (R-5)"
"""Why a minor general's group cannot move (R-5): it has no CUs."""


def royals_moved_by_others(c: dict, royals: list[str], key: str | None) -> list[str]:
    """R-12.5: the royal family members of ``royals`` that already moved with another
    army of the cursor's seat in this segment (one member moves with only one army of a
    faction per segment; the cursor records ``royals_moved: {royal: army key}``)."""
    moved = c.setdefault("royals_moved", {})
    return [r for r in royals if moved.get(r) not in (None, key)]


def _royal_refusal(pack: Pack, royals: list[str]) -> Problem:
    """R-12.5: why ``royals`` may not join a second army this segment. The message is the
    bare reason (it goes into ``MoveCancelled.why``; a validation turns it into a
    rejection with the rule appended)."""
    names = ", ".join(pack.royals[r].name if r in pack.royals else r for r in royals)
    return problem("movement.royal_moved_twice",
                   f"{names} already moved with another army in this segment: a member of "
                   f"the royal family moves with only one army per segment",
                   hint="leave them out of pick_up; they may move again in the next segment")


def _names(pack: Pack, key: str, x: str) -> str:
    """A general, royal family member or CU type as players read it."""

    if key == "generals":
        return pack.generals[x].name if x in pack.generals else x
    if key == "royals":
        return pack.royals[x].name if x in pack.royals else x
    return unit_name(pack, x)


def _subtract(pack: Pack, group: dict, part: dict) -> str | None:
    for t, n in part.get("cus", {}).items():
        if group["cus"].get(t, 0) < n:
            return f"the army has {group['cus'].get(t, 0)} {_names(pack, 'cus', t)} CUs, not {n}"
        group["cus"][t] -= n
        if not group["cus"][t]:
            del group["cus"][t]
    for key in ("generals", "royals"):
        for g in part.get(key, []):
            if g not in group[key]:
                return f"{_names(pack, key, g)} is not with the army"
            group[key].remove(g)
    return None


NOT_YOURS = "is not yours to carry"
"""The words of a pick-up naming a royal family member its faction does not control
(R-12.1, R-12.4), which the check's fix tells apart (:mod:`pbem.rules.resolve.moves`)."""


def _add(ctx: Ctx, seat: str, space: str, group: dict, part: dict) -> str | None:
    s = ctx.s
    have = cus_at(s, seat, space)
    for t, n in part.get("cus", {}).items():
        if have.get(t, 0) - group["cus"].get(t, 0) < n:
            return (f"there are not {n} {_names(ctx.pack, 'cus', t)} CUs of yours to pick up "
                    f"in {ctx.pack.spaces[space].name if space in ctx.pack.spaces else space}")
        group["cus"][t] = group["cus"].get(t, 0) + n
    for g in part.get("generals", []):
        if g not in generals_at(s, seat, space) or g in group["generals"]:
            return f"{_names(ctx.pack, 'generals', g)} is not there to pick up"
        group["generals"].append(g)
    for r in part.get("royals", []):
        if s["royals"].get(r, {}).get("space") != space or r in group["royals"]:
            return f"{_names(ctx.pack, 'royals', r)} is not there to pick up"
        if r not in controlled_royals(ctx.pack, s, seat):
            return (f"{_names(ctx.pack, 'royals', r)} {NOT_YOURS}: an army moves "
                    "only the members its faction controls (women once active; the "
                    "funeral cart not on turn 1)")
        group["royals"].append(r)
    return None


def missing_at(pack: Pack, s: State, seat: str, space: str, part: dict) -> str | None:
    """What of a pick-up ``part`` (R-9.1: CUs, generals, royal family members) ``seat``
    does not have in ``space`` on the board ``s``, in the words of the move that would
    try it, or None."""
    return _add(Ctx(pack, s, None), seat, space, {"cus": {}, "generals": [], "royals": []},
                part)


def start_move(ctx: Ctx, c: dict, mv: dict) -> str | Problem | None:
    """Begin move ``mv`` of cursor ``c``: build the moving group at the start space,
    apply drop-offs and pick-ups there, set the allowance. Returns why it cannot start
    (a text under R-9.1, or a Problem under another rule) or None."""
    pack, s, seat = ctx.pack, ctx.s, c["seat"]
    start = mv["army"]
    # the royals the group takes are the controlled ones standing at the start: none
    # to look for when no royal stands there (issue 27 item 5)
    here = any(r.get("space") == start for r in s["royals"].values())
    g = group_at(s, seat, start, controlled_royals(pack, s, seat) if here else [])
    if not g["generals"] and not g["minor"]:
        return f"you have no general in {pack.spaces[start].name}: CUs without a " \
               f"general cannot move (R-5)"
    key = (g["generals"] or [f"minor@{start}"])[0]
    stay = royals_moved_by_others(c, g["royals"], key)
    if stay:  # R-12.5 [D]: carried only by default, they stay behind
        g["royals"] = [r for r in g["royals"] if r not in stay]
        ctx.emit("Note", {"text": ", ".join(pack.royals[r].name for r in stay)
                          + f" already moved with another army this segment and stay in "
                            f"{pack.spaces[start].name}", "rule": "R-12.5"})
    for part in mv.get("pick_up", []):
        again = royals_moved_by_others(c, [r for r in part.get("royals", [])
                                           if part.get("at") in (None, start)], key)
        if again:
            return _royal_refusal(pack, again)
    for part in mv.get("drop", []):
        if part.get("at") in (None, start):
            err = _subtract(ctx.pack, g, part)
            if err:
                return err
    for part in mv.get("pick_up", []):
        if part.get("at") in (None, start) and part.get("at") is not None:
            err = _add(ctx, seat, start, g, part)
            if err:
                return err
    if not g["generals"] and not g["minor"]:
        return "the army would move without a general (R-5)"
    if g["minor"] and not g["generals"] and not g["cus"]:
        return NO_CUS
    keys = g["generals"] or [f"minor@{start}"]
    if any(k in c["moved"] for k in keys):
        return "this army has already moved in this segment (R-9.1)"
    mp = mv.get("mp")
    if mp is None:
        mp = group_initiative(pack, s, seat, g)
    march = find_play(ctx, seat, "move", mv.get("surprise"), start)
    if march is not None and march[1] == "orders":  # Forced March, before the path
        mp += int(surprise_effect(pack, march[0]).params.get("mp", 0))
    else:
        march = None
    kind, cost, err = classify_path(pack, start, mv["path"], mp)
    if err:
        return err
    if cost > mp:
        return (f"{pack.spaces[mv['path'][-1]].name} is {count(cost, 'MP')} from "
                f"{pack.spaces[start].name} on that path, the army has {mp}")
    for i, x in enumerate(mv["path"][:-1]):
        e = enemy_of(s, seat, x)
        if e and not can_overrun(pack, s, seat, x, g["cus"], e):
            return blocked_text(pack, x)
    c["moved"] += keys
    _parts_off_the_way(ctx, c, mv)
    if march is not None:
        eff = play(ctx, seat, march[0], "move", start, "orders")
        ctx.emit("MovementBonusGained", {"seat": seat, "card": march[0], "space": start,
                                         "mp": int(eff.params.get("mp", 0)),
                                         "allowance": mp, "rule": "R-9.1"})
    sallies = _sallies(s, seat, start, g)
    c["cur"] = {"space": start, "prev": None, "group": g,
                "path": [] if sallies else list(mv["path"]),
                "mp": mp, "kind": kind, "stage": None, "asked": [], "answer": None,
                "start": start, "key": keys[0],
                "plays": {seat: [n for n in mv.get("surprise") or []
                                 if march is None or n != march[0]]}}
    if sallies:  # leaving a major city past an enemy outside is a sally: a battle
        sally(ctx, seat, start)
        sync_group(ctx, seat, c["cur"])
    return None


def blocked_text(pack: Pack, space: str) -> str:
    """Why a move cannot go on through ``space`` (R-9.1): another faction's army there
    that it cannot overrun ends the move, so no step may follow it."""
    return f"{pack.spaces[space].name} holds an enemy army: entering it ends the move (R-9.1)"


def _sallies(s: State, seat: str, start: str, g: dict) -> bool:
    """True when the group ``g`` starting in ``start`` takes units from inside the major
    city there while another faction's units stand outside (R-5 sally)."""
    if enemy_of(s, seat, start) is None:
        return False
    out = outside_cus(s, seat, start)
    ins = inside_generals(s, seat, start)
    return any(n > out.get(t, 0) for t, n in g["cus"].items()) or \
        any(x in ins for x in g["generals"])


def run_cursor(ctx: Ctx, c: dict) -> bool:
    """Carry out the cursor's moves from where it stands. Returns True when every move
    is done, False when a reaction window opened (the cursor is then stored in the
    state by ``ReactionWindowOpened``)."""

    pack = ctx.pack
    while True:
        if ctx.s["result"]:
            return True
        if c["cur"] is None:
            if c["i"] >= len(c["moves"]):
                return True
            mv = c["moves"][c["i"]]
            err = start_move(ctx, c, mv)
            if err:
                extra = {"code": err.code, "hint": err.hint} \
                    if isinstance(err, Problem) and err.rule != "R-9.1" else {}
                ctx.emit("MoveCancelled", {"seat": c["seat"], "army": mv["army"],
                                           "path": mv["path"],
                                           "why": err.message if isinstance(err, Problem)
                                           else err,
                                           "rule": err.rule if isinstance(err, Problem)
                                           else "R-9.1", **extra})
                c["i"] += 1
                continue
        cur = c["cur"]
        if cur["stage"] == "naval" and not cur.get("storm_done"):  # Storm at Sea
            res = storm_at_sea(ctx, c, cur)
            if res == "pause":
                return False
            cur["storm_done"] = True
            if res == "cancelled":
                cur["stage"] = None
                cur["path"] = []
                continue
        if cur["stage"] == "naval":  # naval battles declared at the landing
            res = naval_challenge(ctx, c, cur)
            if res == "pause":
                return False
            cur["answer"] = None
            cur["asked"] = []
            if res == "turned_back":
                cur["stage"] = None
                cur["path"] = []
                continue
            cur["stage"] = "tribes"
        if cur["stage"] is not None:
            res = arrive(ctx, c, cur)
            if res == "pause":
                return False
            cur["stage"] = None
            cur["answer"] = None
            cur["asked"] = []
            if res == "end":
                cur["path"] = []
        if cur["path"]:
            b = cur["path"].pop(0)
            a = cur["space"]
            cur["mp"] -= step_cost(pack, cur["kind"], a, b, cur["mp"])
            _drop_here(ctx, c, cur, a)
            minors = ctx.s["minors"].get(c["seat"], [])
            stays = {"minor_stays": True} if cur["group"]["minor"] and a in cur.get(
                "met_minors", ()) and a in minors else {}
            if cur["group"]["minor"] and b in minors:  # two markers stand there
                cur.setdefault("met_minors", []).append(b)
            emit_move(ctx, c["seat"], a, b, cur["group"], "R-9.1", mp_left=cur["mp"],
                      naval=cur["kind"] != "land", **stays)
            for r in cur["group"]["royals"]:  # they moved with this army
                c.setdefault("royals_moved", {}).setdefault(r, cur.get("key"))
            cur["prev"], cur["space"] = a, b
            _pick_here(ctx, c, cur, b)
            if cur["kind"] == "naval" and cur["path"]:
                continue  # at sea: port to port, nothing happens until landing
            cur["stage"] = "naval" if cur["kind"] in ("naval", "trans_med") else "tribes"
            continue
        mv = c["moves"][c["i"]]
        _drop_here(ctx, c, cur, cur["space"])
        if mv.get("assault") and _alive(ctx, c["seat"], cur):
            assault_after_move(ctx, c["seat"], cur["space"], int(mv["assault"]),
                               c["segment"], cur["group"], cur.get("plays"))
        if mv.get("surprise") and _alive(ctx, c["seat"], cur):  # Treachery
            surprise_siege_points(ctx, c["seat"], cur["space"],
                                  plays_of(cur, c["seat"]), c["segment"])
        ctx.emit("MoveEnded", {"seat": c["seat"], "army": mv["army"],
                               "space": cur["space"], "rule": "R-9.1"})
        c["cur"] = None
        c["i"] += 1


def _parts_off_the_way(ctx: Ctx, c: dict, mv: dict) -> None:
    """Issue 24.1: a ``drop`` or ``pick_up`` whose ``at:`` is neither the start nor a
    space of the path is never done (R-9.1: only where the army passes). The check
    refuses it when it knows where the army starts; when the dice or a refused part
    left that open and the army starts elsewhere, the seat is told here
    (``ArmyReorganised`` with the error, in its report) instead of the part being
    dropped without a word."""
    pack, start = ctx.pack, mv["army"]
    way = {start, *mv["path"]}
    for key, what in (("drop", "dropped"), ("pick_up", "picked_up")):
        for part in mv.get(key) or []:
            at = part.get("at")
            if at is None or at in way or at not in pack.spaces:
                continue
            ctx.emit("ArmyReorganised", {
                "seat": c["seat"], "space": at, "army": start, what: {
                    k: part.get(k) for k in ("cus", "generals", "royals")},
                "error": f"{pack.spaces[at].name} is not on the army's way from "
                         f"{pack.spaces[start].name}: the {key.replace('_', '-')} there is not done",
                "rule": "R-9.1"})


def _alive(ctx: Ctx, seat: str, cur: dict) -> bool:
    x = cur["space"]
    return any(g in generals_at(ctx.s, seat, x) for g in cur["group"]["generals"]) or \
        x in ctx.s["minors"].get(seat, [])


def _drop_here(ctx: Ctx, c: dict, cur: dict, x: str) -> None:
    mv = c["moves"][c["i"]]
    for part in mv.get("drop", []):
        if part.get("at") == x and x != cur["start"] and not part.get("_done"):
            part["_done"] = True
            err = _subtract(ctx.pack, cur["group"], part)
            ctx.emit("ArmyReorganised", {"seat": c["seat"], "space": x, "dropped": {
                k: part.get(k) for k in ("cus", "generals", "royals")}, "error": err,
                "rule": "R-9.1"})


def _pick_here(ctx: Ctx, c: dict, cur: dict, x: str) -> None:
    mv = c["moves"][c["i"]]
    for part in mv.get("pick_up", []):
        if part.get("at") == x and not part.get("_done"):
            part["_done"] = True
            again = royals_moved_by_others(c, part.get("royals", []), cur.get("key"))
            if again:  # refused; the rest of the pick-up goes on
                ctx.emit("ArmyReorganised", {"seat": c["seat"], "space": x, "picked_up": {
                    "royals": again}, "error": _royal_refusal(ctx.pack, again).message,
                    "army": mv["army"], "code": "movement.royal_moved_twice",
                    "rule": "R-12.5"})
                part = {**part, "royals": [r for r in part["royals"] if r not in again]}
            err = _add(ctx, c["seat"], x, cur["group"], part)
            ctx.emit("ArmyReorganised", {"seat": c["seat"], "space": x, "picked_up": {
                k: part.get(k) for k in ("cus", "generals", "royals")}, "error": err,
                "rule": "R-9.1"})


def sync_group(ctx: Ctx, seat: str, cur: dict) -> None:
    """After losses, keep the moving group to what is really left in its space."""
    s, x, g = ctx.s, cur["space"], cur["group"]
    have = cus_at(s, seat, x)
    g["cus"] = {t: min(n, have.get(t, 0)) for t, n in g["cus"].items() if have.get(t, 0)}
    g["generals"] = [k for k in g["generals"] if k in generals_at(s, seat, x)]
    g["minor"] = bool(g["minor"]) and x in s["minors"].get(seat, [])
    g["royals"] = [r for r in g["royals"] if s["royals"][r].get("space") == x]


def arrive(ctx: Ctx, c: dict, cur: dict) -> str:
    """What happens on entering a space (resumable): hostile tribes (R-9.5); an enemy
    army there → overrun (R-9.4), avoid battle (R-9.3) or battle (R-9.2); else the
    interception windows of adjacent enemy armies (R-9.3). Returns ``"continue"``,
    ``"end"`` (the move ends) or ``"pause"`` (a reaction window opened)."""

    pack, s, seat = ctx.pack, ctx.s, c["seat"]
    b = cur["space"]
    if cur["stage"] == "tribes":
        hostile_tribes(ctx, seat, b)
        sync_group(ctx, seat, cur)
        cur["stage"] = "enemy"
        if not _alive(ctx, seat, cur) and not cur["group"]["cus"]:
            return "end"
    if cur["stage"] == "enemy":
        enemy = enemy_of(s, seat, b)
        if enemy is None:
            cur["stage"] = "intercept"
        else:
            extra = int(const(pack, "overrun_extra_mp"))
            if cur["mp"] >= extra and can_overrun(pack, s, seat, b, cur["group"]["cus"],
                                                  enemy):
                cur["mp"] -= extra
                overrun(ctx, seat, enemy, b)
                return "continue"
            if enemy != INDEP:
                res = try_avoid(ctx, c, cur, enemy)
                if res == "pause":
                    return "pause"
                if res == "avoided":
                    return "end"
            cur["stage"] = "join"  # the units inside may join (resumable)
    if cur["stage"] == "join":
        enemy = enemy_of(s, seat, b)
        if enemy is not None:
            join = cur.get("inside_join") or try_inside_join(ctx, c, cur, enemy)
            if join == "pause":
                return "pause"
            cur["inside_join"] = join  # kept while the surprise window waits
            if surprise_window(ctx, c, cur, enemy, "battle") == "pause":
                return "pause"
            del cur["inside_join"]
            result = battle(ctx, seat, enemy, b, cur["prev"], inside_join=join == "join",
                            pledges=cur.get("plays"))
            sync_group(ctx, seat, cur)
            if result == "tie":
                cur["space"] = cur["prev"]
                sync_group(ctx, seat, cur)
            return "end"
        cur["stage"] = "intercept"
    if cur["stage"] == "intercept":
        if cur["kind"] == "naval" and cur["path"]:
            return "continue"
        res = try_intercept(ctx, c, cur)
        if res == "pause":
            return "pause"
        if res == "fought":
            sync_group(ctx, seat, cur)
            return "end"
    return "continue"


def new_cursor(seat: str, segment: str, moves: list[dict]) -> dict:
    """A cursor for ``moves`` of ``seat`` in ``segment`` (see the module docstring)."""
    return {"seat": seat, "segment": segment, "moves": _copy(moves), "i": 0,
            "cur": None, "moved": [], "royals_moved": {}}


def close_windows_dry(ctx: Ctx) -> None:
    """A check only (dry dice, events discarded): answer every open reaction window "no
    reaction" and run the suspended cursor on without the rest of its player-turn, so
    what follows can be checked against the board (R-9.3). The answers are other seats'
    choices: each window counts among the context's chances
    (:meth:`pbem.rules.context.Ctx.other_seat_asked`)."""

    for _ in range(len(SEATS) * 8):
        p = war_get(ctx.s, "pause")
        if not p:
            return
        c = copy.deepcopy(suspended_move(ctx.s))
        c.pop("rest", None)
        ctx.emit("ReactionWindowClosed", {"seat": p["seat"], "kind": p["kind"],
                                          "rule": "R-9.3"})
        if c.get("cur"):
            c["cur"]["answer"] = {"seat": p["seat"], "kind": p["kind"], "choice": None}
        run_cursor(ctx, c)
