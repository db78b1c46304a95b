"""Lists of army moves as orders give them (R-9.1, R-8.2 activation, R-16.1 Major
Campaign, R-10 assaults): reading a move, the checks no dice can change, the check by a
dry run of the executor (:mod:`pbem.rules.resolve.movement`), and carrying them out.

Shape (see ``docs/orders.md``)::

    [{army: Ptolemy, path: [Memphis, Pelusium], drop: {cus: {mercenary: 1}},
      pick_up: {at: Pelusium, cus: {loyal: 1}}, assault: 2, escort: [..],
      surprise: [48, 52]}]      # surprise cards for the move's moments (R-8.5)
"""
from __future__ import annotations

import contextlib
from typing import Any

from pbem.pack.model import Pack
from pbem.plural import count
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.armies import (
    army_options,
    group_initiative,
    own_armies_hint,
    resolve_army,
)
from pbem.rules.core.board import (
    _resolve_royal,
    classify_path,
    info,
    resolve_fleet,
    resolve_general,
    resolve_space,
)
from pbem.rules.core.pack import const
from pbem.rules.core.pieces import controlled_royals, group_at
from pbem.rules.core.problems import did_you_mean, reject
from pbem.rules.core.state import State, _copy, hand_of
from pbem.rules.core.units import (
    resolve_unit_type,
    unit_types_text,
)
from pbem.rules.resolve.movement import new_cursor, run_cursor
from pbem.rules.resolve.siege import LIMITS, siege_target
from pbem.rules.resolve.surprises import (
    MOVE_MOMENTS,
    moments_of,
    read_cards,
    surprise_effect,
)

MOVE_KEYS = ("army", "path", "drop", "pick_up", "assault", "escort", "surprise")


PART_KEYS = ("at", "cus", "generals", "royals")


def _part(pack: Pack, raw: Any, where: str, rej: list[Problem]) -> list[dict]:
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for i, p in enumerate(items):
        w = f"{where}[{i}]" if isinstance(raw, list) else where
        if not isinstance(p, dict):
            reject(rej, "movement.bad_part", "drop/pick_up is {at: Space, cus: {type: n}, generals: [..], royals: [..]}",
                 w, "drop: {cus: {mercenary: 1}} or pick_up: {at: Gaza, cus: {loyal: 1}}")
            continue
        part: dict[str, Any] = {"at": None, "cus": {}, "generals": [], "royals": []}
        for k, v in p.items():
            if k not in PART_KEYS:
                reject(rej, "orders.unknown_key", f"no field {k!r}", f"{w}.{k}",
                     "fields: " + ", ".join(PART_KEYS), rule="R-9.1")
            elif k == "at":
                sid, hint = resolve_space(pack, v)
                if sid is None:
                    reject(rej, "orders.unknown_space", f"there is no space {v!r}",
                         f"{w}.at", hint)
                part["at"] = sid
            elif k == "cus":
                if not isinstance(v, dict) or any(
                        resolve_unit_type(pack, t) is None or not isinstance(n, int) or
                        isinstance(n, bool) or n < 1 for t, n in v.items()):
                    reject(rej, "movement.bad_cus", "cus maps CU types to counts: {mercenary: 1, loyal: 2}", f"{w}.cus",
                         "types: " + unit_types_text(pack))
                else:
                    part["cus"] = {resolve_unit_type(pack, t): n for t, n in v.items()}
            elif k == "generals":
                for g in (v if isinstance(v, list) else [v]):
                    gid = resolve_general(pack, g)
                    if gid is None:
                        reject(rej, "commanders.unknown_general", f"there is no general {g!r}", f"{w}.generals",
                             "generals: [Seleucus] (names of your generals in the army)")
                    else:
                        part["generals"].append(gid)
            else:
                for r in (v if isinstance(v, list) else [v]):
                    rid = _resolve_royal(pack, r)
                    if rid is None:
                        reject(rej, "movement.unknown_royal", f"there is no royal {r!r}", f"{w}.royals",
                             "names: " + ", ".join(r.name for r in pack.royals.values()))
                    else:
                        part["royals"].append(rid)
        out.append(part)
    return out


def parse_move(pack: Pack, s: State, seat: str, raw: Any, where: str,
               rej: list[Problem], mp: int | None = None) -> dict | None:
    """One army move (see module docstring) → ``{"army": start, "path": [ids], "drop",
    "pick_up", "assault", "mp", "escort", "where"}`` or None (rejections appended)."""
    n0 = len(rej)
    if not isinstance(raw, dict):
        reject(rej, "movement.not_a_mapping", "each move is {army: General, path: [Space, ...]}", where,
             "movement: [{army: Ptolemy, path: [Pelusium, Gaza]}]")
        return None
    for k in raw:
        if k not in MOVE_KEYS:
            reject(rej, "orders.unknown_key", f"a move has no field {k!r}", f"{where}.{k}",
                   did_you_mean(k, MOVE_KEYS), rule="R-9.1")
    start, msg = resolve_army(pack, s, seat, raw.get("army"))
    if start is None:
        reject(rej, "movement.unknown_army", msg, f"{where}.army",
             own_armies_hint(pack, s, seat))
    path = raw.get("path")
    if not isinstance(path, list) or not path:
        reject(rej, "movement.path_missing", "give the path as a list of spaces",
             f"{where}.path", "path: [Memphis, Pelusium]")
        path = []
    ids = []
    for i, x in enumerate(path):
        sid, hint = resolve_space(pack, x)
        if sid is None:
            reject(rej, "orders.unknown_space", f"there is no space {x!r}",
                 f"{where}.path[{i}]", hint)
        ids.append(sid)
    if ids and ids[0] == start:
        ids = ids[1:]  # the path may repeat the start space
    assault = raw.get("assault", 0)
    if not isinstance(assault, int) or isinstance(assault, bool) or assault < 0:
        reject(rej, "movement.bad_assault", "assault is a number of rolls (0-2)",
             f"{where}.assault", "assault: 1 (or leave it out)")
    escort = raw.get("escort")
    if escort is not None:
        fids = [resolve_fleet(pack, f) for f in escort] if isinstance(escort, list) else [None]
        if None in fids:
            reject(rej, "movement.bad_escort", "escort lists fleet ids",
                 f"{where}.escort", "fleets: " + ", ".join(f.name for f in pack.fleets.values()))
        else:
            escort = list(dict.fromkeys(fids))
    drop = _part(pack, raw["drop"], f"{where}.drop", rej) if "drop" in raw else []
    pick = _part(pack, raw["pick_up"], f"{where}.pick_up", rej) if "pick_up" in raw else []
    cards = read_cards(pack, s, seat, raw["surprise"], MOVE_MOMENTS, f"{where}.surprise",
                       rej, in_hand=False) if "surprise" in raw else []
    if len(rej) != n0:
        return None
    return {"army": start, "path": ids, "drop": drop, "pick_up": pick,
            "assault": assault, "mp": mp, "escort": escort, "where": where,
            "surprise": cards}


def move_bonus(pack: Pack, mv: dict) -> int:
    """R-8.5: the MPs a ``movement_bonus`` card of the move's ``surprise`` list adds to
    its allowance (Forced March)."""
    return sum(int(surprise_effect(pack, n).params.get("mp", 0)) for n in mv.get("surprise") or []
               if "move" in moments_of(pack, n))


def surprise_checks(pack: Pack, s: State, seat: str, mv: dict, rej: list[Problem],
                    soft: bool = False) -> None:
    """R-8.5: the cards of a move's ``surprise`` list are in ``seat``'s hand, and a
    ``siege`` card's move ends where there is something to besiege (R-10). ``soft``
    (after dice): the cards that no longer qualify are dropped, never refused."""
    keep = []
    end = mv["path"][-1] if mv["path"] else mv["army"]
    for i, n in enumerate(mv.get("surprise") or []):
        w = f"{mv['where']}.surprise"
        if n not in hand_of(s, seat):
            if not soft:
                read_cards(pack, s, seat, [n], MOVE_MOMENTS, w, rej)
            continue
        if "siege" in moments_of(pack, n) and siege_target(pack, s, seat, end)[0] is None:
            if not soft:
                reject(rej, "surprise.no_siege", f"#{n} {pack.cards[n].name} needs a siege you "
                       f"conduct, and the move ends in {pack.spaces[end].name}, where there "
                       "is nothing to besiege", f"{w}[{i}]", "end the move at an "
                       "independent marker or another player's major city")
            continue
        keep.append(n)
    mv["surprise"] = keep


def static_checks(pack: Pack, s: State, seat: str, mv: dict, segment: str,
                  rej: list[Problem], soft: bool = False) -> None:
    """Checks that need no dice (R-9.1, R-10): the path's shape and cost from the start
    with the army standing there now (with a Forced March's MPs, R-8.5), the assault
    limit of the segment, and the move's surprise cards (:func:`surprise_checks`)."""

    most = int(const(pack, LIMITS[segment]))
    if mv["assault"] > most:
        reject(rej, "siege.too_many_assaults", f"at most {most} assaults per space in a {segment} segment",
             f"{mv['where']}.assault", f"assault: {most}")
    mp = mv["mp"]
    if mp is None:
        g = group_at(s, seat, mv["army"], controlled_royals(pack, s, seat))
        mp = group_initiative(pack, s, seat, g)
    surprise_checks(pack, s, seat, mv, rej, soft)
    mp += move_bonus(pack, mv)  # Forced March
    _kind, cost, err = classify_path(pack, mv["army"], mv["path"], mp)
    if err:
        reject(rej, "movement.bad_path", err, f"{mv['where']}.path",
             _path_hint(pack, mv["army"], mv["path"]))
    elif cost > mp:
        reject(rej, "movement.too_far", f"{pack.spaces[mv['path'][-1]].name} is {count(cost, 'MP')} from "
             f"{pack.spaces[mv['army']].name} on that path, the army has {mp}",
             f"{mv['where']}.path", "stop earlier on the path: land paths cost 1 MP, "
             "mountain/strait paths 2")


def _path_hint(pack: Pack, start: str, path: list[str]) -> str:
    """The spaces next to the first space of the path whose next step is no path
    (R-9.1), as a hint for ``movement.bad_path``."""

    adj = info(pack).adjacent
    prev = start
    for x in path:
        if not any(y == x for y, _k in adj.get(prev, ())):
            break
        prev = x
    near = sorted({pack.spaces[y].name for y, _k in adj.get(prev, ()) if y in pack.spaces})
    return (f"next to {pack.spaces[prev].name}: " + ", ".join(near) +
            "; list every space after the start, e.g. path: [Memphis, Pelusium]")


def _moves_hint(pack: Pack, s: State, seat: str) -> str:
    """The armies of ``seat`` that may move and their MPs (R-9.1), as a hint."""
    try:
        opts = army_options(pack, s, seat)
    except KeyError:  # the pack lacks movement numbers
        opts = []
    if not opts:
        return "you have no army that may move: leave out movement or use movement: none"
    def label(o: dict[str, Any]) -> str:
        g = pack.generals.get(o["commander"])
        who = g.name if g else "minor general"
        return f"{who} ({pack.spaces[o['space']].name}, {count(int(o['allowance']), 'MP')})"

    return ("change the path or leave out this move; armies that may move: " +
            ", ".join(label(o) for o in opts))


def simulate(pack: Pack, s: State, seat: str, moves: list[dict], segment: str,
             rej: list[Problem], rehearse: Ctx | None = None) -> None:
    """Dry-run ``moves`` on a copy of ``s`` (a dry context: every die shows 1) and turn
    each cancelled move or assault into a rejection (the same executor as
    :func:`do_moves`); refusals after the first die are left to the real run.
    ``rehearse``: a check's context whose ``s`` is ``s``; a run that ends without a
    reaction window is kept there for :func:`do_moves` of the same moves
    (:meth:`pbem.rules.context.Ctx.keep_rehearsal`)."""

    ctx = Ctx(pack, _copy(s), None)
    c = new_cursor(seat, segment, moves)
    try:
        done = run_cursor(ctx, c)
    except KeyError as e:  # a chart or constant the pack lacks
        reject(rej, "rules.pack_incomplete", f"the data pack lacks {e}", "orders")
        return
    if rehearse is not None and rehearse.dry and rehearse.s is s and done and not any(
            ev.kind == "ReactionWindowOpened" for ev in ctx.events):
        rehearse.keep_rehearsal(seat, segment, moves, ctx)
    for ev in ctx.events:
        if ev.kind == "DiceRolled":
            break  # later refusals may come from the dry dice: checked when carried out
        if ev.kind in ("MoveCancelled", "AssaultCancelled"):
            mv = next((m for m in moves if m["army"] == ev.data.get("army", ev.data.get(
                "space"))), moves[0])
            code = "movement.illegal" if ev.kind == "MoveCancelled" else "siege.illegal"
            rule = "R-9.1" if ev.kind == "MoveCancelled" else "R-10"
            hint = ev.data.get("hint")
            if ev.data.get("code"):  # a refusal under another rule
                code, rule = ev.data["code"], ev.data.get("rule", rule)
            elif hint is None and code == "movement.illegal":
                hint = _moves_hint(pack, s, seat)
            elif hint is None:
                hint = ("leave out assault on this move (assault: 0), or bring an army "
                        "that may assault there")
            reject(rej, code, ev.data["why"], mv["where"], hint, rule=rule)
        elif ev.kind == "ArmyReorganised" and ev.data.get("rule") == "R-12.5":
            mv = next((m for m in moves if m["army"] == ev.data.get("army")), moves[0])
            reject(rej, ev.data.get("code", "movement.royal_moved_twice"), ev.data["error"], f"{mv['where']}.pick_up",
                 "leave them out of pick_up; they may move again in the next segment", rule="R-12.5")


def _soft_moves(pack: Pack, s: State, seat: str, part: list, where: str, segment: str,
                mp: int | None) -> dict:
    moves, cancelled = [], []
    for i, raw in enumerate(part):
        r: list[Problem] = []
        mv = parse_move(pack, s, seat, raw, f"{where}[{i}]", r, mp)
        if mv is not None:
            with contextlib.suppress(KeyError):
                static_checks(pack, s, seat, mv, segment, r, soft=True)
        if mv is not None and not r:
            moves.append(mv)
        else:
            cancelled.append({"army": raw.get("army") if isinstance(raw, dict) else None,
                              "why": "; ".join(x.message for x in r) or "not possible now",
                              "where": f"{where}[{i}]"})
    return {"kind": "moves", "moves": moves, "segment": segment, "cancelled": cancelled}


def check_moves(pack: Pack, s: State, seat: str, part: list, where: str,
                rej: list[Problem], segment: str = "movement", mp: int | None = None,
                soft: bool = False, rehearse: Ctx | None = None) -> dict | None:
    """Validate a list of moves; returns ``{"kind": "moves", "moves": [...],
    "segment"}`` or None. Problem codes: ``movement.*``, ``siege.illegal``. ``soft``
    (orders carried out after dice changed the board since they were checked): nothing
    is refused, moves made impossible are listed under ``"cancelled"``. ``rehearse``:
    see :func:`simulate`."""
    if soft:
        return _soft_moves(pack, s, seat, part, where, segment, mp)
    n0 = len(rej)
    moves = []
    for i, raw in enumerate(part):
        mv = parse_move(pack, s, seat, raw, f"{where}[{i}]", rej, mp)
        if mv:
            moves.append(mv)
    if len(rej) != n0:
        return None
    named: list[int] = []
    for mv in moves:  # a surprise card serves one move
        for n in mv.get("surprise") or []:
            if n in named:
                reject(rej, "surprise.duplicate", f"#{n} {pack.cards[n].name} is named for "
                       "two moves", f"{mv['where']}.surprise", "name each card for one move")
            named.append(n)
    try:
        for mv in moves:
            static_checks(pack, s, seat, mv, segment, rej)
    except KeyError as e:  # MissingConstant: the pack lacks movement numbers
        reject(rej, "rules.pack_incomplete", f"the data pack lacks {e}", where)
    if len(rej) != n0:
        return None
    simulate(pack, s, seat, moves, segment, rej, rehearse)
    return {"kind": "moves", "moves": moves, "segment": segment} if len(rej) == n0 else None


def do_moves(ctx: Ctx, seat: str, plan: dict) -> bool:
    """Carry out a plan of :func:`check_moves`; False when a reaction window opened. In
    a check, the dry run :func:`simulate` kept of the same moves is adopted when the
    position has not changed since (:meth:`pbem.rules.context.Ctx.replay_rehearsal`)."""

    if not plan.get("cancelled") and ctx.replay_rehearsal(seat, plan["segment"], plan["moves"]):
        return True
    for x in plan.get("cancelled", []):
        ctx.emit("MoveCancelled", {"seat": seat, "army": x["army"], "why": x["why"],
                                   "where": x["where"], "rule": "R-9.1"})
    c = new_cursor(seat, plan["segment"], plan["moves"])
    c["resume_forage"] = plan["segment"] == "movement"
    if plan.get("rest") is not None:  # the rest of the player-turn after a Tyche move
        c["rest"] = plan["rest"]
    return run_cursor(ctx, c)


def dice_free_move_checks(pack: Pack, s: State, seat: str, part: list, where: str,
                          rej: list[Problem], segment: str = "movement") -> None:
    """R-9.1, R-10: the checks of a list of moves that no dice can change, for
    validation after dice were rolled (docs/rules.md "Validation"): each move's shape
    (fields, spaces, path list, assault count and the segment's limit, escort, drop and
    pick_up) and an army naming no general or space at all. Where the army stands, its
    path from there and its allowance depend on the board and are left to the real run.
    Rejections are appended to ``rej``."""

    for i, raw in enumerate(part):
        w = f"{where}[{i}]"
        mine: list[Problem] = []
        parse_move(pack, s, seat, raw, w, mine)
        army = raw.get("army") if isinstance(raw, dict) else None
        named = isinstance(army, str) and (resolve_general(pack, army) is not None
                                            or resolve_space(pack, army)[0] is not None)
        rej += [r for r in mine if not (r.code == "movement.unknown_army" and named)]
        n = raw.get("assault") if isinstance(raw, dict) else None
        try:
            most = int(const(pack, LIMITS[segment]))
        except KeyError:  # the pack lacks the limit: checked when carried out
            continue
        if isinstance(n, int) and not isinstance(n, bool) and n > most:
            reject(rej, "siege.too_many_assaults", f"at most {most} assaults per space in a {segment} segment", f"{w}.assault")
