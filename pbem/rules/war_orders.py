"""Orders for armies (R-9.1, R-8.2 activation, R-16.1 Major Campaign, R-10 assaults,
R-14 independent armies, R-9.3 standing orders): parsing, validation by a dry run of the
same executor, and carrying them out.

Shapes (see ``docs/orders.md``)::

    movement: [{army: Ptolemy, path: [Memphis, Pelusium], drop: {cus: {mercenary: 1}},
                pick_up: {at: Pelusium, cus: {loyal: 1}}, assault: 2, escort: [..]}]
    tyche: {card: 12, use: activate, army: Ptolemy, path: [Memphis, Pelusium]}
    tyche: {card: 12, use: event, moves: [{army: .., path: [..]}, {army: .., path: [..]}]}
    standing: [{when: intercept, army: Ptolemy, into: [Gaza], if_enemy_strength_at_most: 8},
               {when: avoid, army: Eumenes, toward: Sinope, if_attacker_ratio_at_least: 2},
               {when: naval_battle, against: [east], fleets: [athenian_fleet]},
               {when: inside_join, city: [Babylon], join: false},
               {when: losses, order: [mercenary, elephant, loyal, royal]}]
    surrender: {assault: [Tyre]}
"""
from __future__ import annotations

import contextlib
import contextvars
import difflib
from collections.abc import Iterator
from typing import Any

from pbem.pack.model import Card, Pack
from pbem.rules.constants import const
from pbem.rules.context import Ctx, DryDice
from pbem.rules.mapinfo import resolve_id, resolve_space
from pbem.rules.state import Rejection, _copy

State = dict[str, Any]
MOVE_KEYS = ("army", "path", "drop", "pick_up", "assault", "escort")
PART_KEYS = ("at", "cus", "generals", "royals")
STANDING_KEYS = {"intercept": ("when", "army", "into", "if_enemy_strength_at_most"),
                 "avoid": ("when", "army", "toward", "if_attacker_ratio_at_least"),
                 "naval_battle": ("when", "against", "fleets"),
                 "inside_join": ("when", "city", "join"),
                 "losses": ("when", "order")}


def _rej(rej: list[Rejection], code: str, rule: str, msg: str, where: str,
         hint: str | None = None) -> None:
    rej.append(Rejection(code, rule, f"{msg} ({rule})", where, hint))


SEAT_NAMES = ("north", "east", "south", "west")


def _own_armies(pack: Pack, s: State, seat: str) -> str:
    """A hint naming ``seat``'s armies: its generals on the map and its minor generals'
    spaces (R-5), as players read them."""
    gens = sorted(f"{pack.generals[g].name} ({pack.spaces[v['space']].name})"
                  for g, v in s["generals"].items()
                  if g in pack.generals and v.get("seat") == seat
                  and v.get("where") == "map" and v.get("space") in pack.spaces)
    minors = sorted(pack.spaces[x].name for x in s["minors"].get(seat, [])
                    if x in pack.spaces)
    names = gens + [f"the minor general in {x}" for x in minors]
    if not names:
        return "you have no general on the map: an army needs a general (R-5)"
    return "your armies: " + ", ".join(names) + " (a general's name or his space)"


def _resolve_royal(pack: Pack, text: Any) -> str | None:
    """Royal id from an id or a name (case-insensitive), else None (R-12.5)."""
    return resolve_id(pack.royals, text)


def resolve_general(pack: Pack, text: Any) -> str | None:
    """General id from an id or a name (case-insensitive), else None (R-5)."""
    return resolve_id(pack.generals, text)


def resolve_army(pack: Pack, s: State, seat: str, text: Any) -> tuple[str | None, str]:
    """The start space of ``seat``'s army named by a general (id or name) or a space
    where it has a general. Returns ``(space, "")`` or ``(None, message)``."""
    gid = resolve_general(pack, text)
    if gid:
        g = s["generals"].get(gid) or {}
        if g.get("seat") != seat or g.get("where") != "map":
            return None, f"{pack.generals[gid].name} is not one of your generals on the map"
        return g["space"], ""
    sid, hint = resolve_space(pack, text)
    if sid is None:
        return None, f"there is no general or space {text!r}" + (f"; {hint}" if hint else "")
    return sid, ""


def _part(pack: Pack, raw: Any, where: str, rej: list[Rejection]) -> list[dict]:
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for i, p in enumerate(items):
        w = f"{where}[{i}]" if isinstance(raw, list) else where
        if not isinstance(p, dict):
            _rej(rej, "movement.bad_part", "R-9.1",
                 "drop/pick_up is {at: Space, cus: {type: n}, generals: [..], royals: [..]}",
                 w, "drop: {cus: {mercenary: 1}} or pick_up: {at: Gaza, cus: {loyal: 1}}")
            continue
        part: dict[str, Any] = {"at": None, "cus": {}, "generals": [], "royals": []}
        for k, v in p.items():
            if k not in PART_KEYS:
                _rej(rej, "orders.unknown_key", "R-9.1", f"no field {k!r}", f"{w}.{k}",
                     "fields: " + ", ".join(PART_KEYS))
            elif k == "at":
                sid, hint = resolve_space(pack, v)
                if sid is None:
                    _rej(rej, "orders.unknown_space", "R-3.1", f"there is no space {v!r}",
                         f"{w}.at", hint)
                part["at"] = sid
            elif k == "cus":
                from pbem.rules.units import is_unit_type, unit_types  # specials
                if not isinstance(v, dict) or any(
                        not is_unit_type(pack, t) or not isinstance(n, int) or
                        isinstance(n, bool) or n < 1 for t, n in v.items()):
                    _rej(rej, "movement.bad_cus", "R-9.1",
                         "cus maps CU types to counts: {mercenary: 1, loyal: 2}", f"{w}.cus",
                         "types: " + ", ".join(unit_types(pack)))
                else:
                    part["cus"] = dict(v)
            elif k == "generals":
                for g in (v if isinstance(v, list) else [v]):
                    gid = resolve_general(pack, g)
                    if gid is None:
                        _rej(rej, "commanders.unknown_general", "R-5",
                             f"there is no general {g!r}", f"{w}.generals",
                             "generals: [Seleucus] (names of your generals in the army)")
                    else:
                        part["generals"].append(gid)
            else:
                for r in (v if isinstance(v, list) else [v]):
                    rid = _resolve_royal(pack, r)
                    if rid is None:
                        _rej(rej, "movement.unknown_royal", "R-12.5",
                             f"there is no royal {r!r}", f"{w}.royals",
                             "ids: " + ", ".join(sorted(pack.royals)))
                    else:
                        part["royals"].append(rid)
        out.append(part)
    return out


def parse_move(pack: Pack, s: State, seat: str, raw: Any, where: str,
               rej: list[Rejection], mp: int | None = None) -> dict | None:
    """One army move (see module docstring) → ``{"army": start, "path": [ids], "drop",
    "pick_up", "assault", "mp", "escort", "where"}`` or None (rejections appended)."""
    n0 = len(rej)
    if not isinstance(raw, dict):
        _rej(rej, "movement.not_a_mapping", "R-9.1",
             "each move is {army: General, path: [Space, ...]}", where,
             "movement: [{army: Ptolemy, path: [Pelusium, Gaza]}]")
        return None
    for k in raw:
        if k not in MOVE_KEYS:
            close = difflib.get_close_matches(str(k), MOVE_KEYS, n=1)
            _rej(rej, "orders.unknown_key", "R-9.1", f"a move has no field {k!r}",
                 f"{where}.{k}", f"did you mean {close[0]}?" if close else None)
    start, msg = resolve_army(pack, s, seat, raw.get("army"))
    if start is None:
        _rej(rej, "movement.unknown_army", "R-9.1", msg, f"{where}.army",
             _own_armies(pack, s, seat))
    path = raw.get("path")
    if not isinstance(path, list) or not path:
        _rej(rej, "movement.path_missing", "R-9.1", "give the path as a list of spaces",
             f"{where}.path", "path: [Memphis, Pelusium]")
        path = []
    ids = []
    for i, x in enumerate(path):
        sid, hint = resolve_space(pack, x)
        if sid is None:
            _rej(rej, "orders.unknown_space", "R-3.1", f"there is no space {x!r}",
                 f"{where}.path[{i}]", hint)
        ids.append(sid)
    if ids and ids[0] == start:
        ids = ids[1:]  # the path may repeat the start space
    assault = raw.get("assault", 0)
    if not isinstance(assault, int) or isinstance(assault, bool) or assault < 0:
        _rej(rej, "movement.bad_assault", "R-10", "assault is a number of rolls (0-2)",
             f"{where}.assault", "assault: 1 (or leave it out)")
    escort = raw.get("escort")
    if escort is not None:
        from pbem.rules.naval import resolve_fleet
        fids = [resolve_fleet(pack, f) for f in escort] if isinstance(escort, list) else [None]
        if None in fids:
            _rej(rej, "movement.bad_escort", "R-15", "escort lists fleet ids",
                 f"{where}.escort", "ids: " + ", ".join(sorted(pack.fleets)))
        else:
            escort = list(dict.fromkeys(fids))
    drop = _part(pack, raw["drop"], f"{where}.drop", rej) if "drop" in raw else []
    pick = _part(pack, raw["pick_up"], f"{where}.pick_up", rej) if "pick_up" in raw else []
    if len(rej) != n0:
        return None
    return {"army": start, "path": ids, "drop": drop, "pick_up": pick,
            "assault": assault, "mp": mp, "escort": escort, "where": where}


def static_checks(pack: Pack, s: State, seat: str, mv: dict, segment: str,
                  rej: list[Rejection]) -> None:
    """Checks that need no dice (R-9.1, R-10): the path's shape and cost from the start
    with the army standing there now, and the assault limit of the segment."""
    from pbem.rules.movement import (
        classify_path,
        controlled_royals,
        group_at,
        group_initiative,
    )
    from pbem.rules.siege import LIMITS

    most = int(const(pack, LIMITS[segment]))
    if mv["assault"] > most:
        _rej(rej, "siege.too_many_assaults", "R-10",
             f"at most {most} assaults per space in a {segment} segment",
             f"{mv['where']}.assault", f"assault: {most}")
    mp = mv["mp"]
    if mp is None:
        g = group_at(s, seat, mv["army"], controlled_royals(pack, s, seat))
        mp = group_initiative(pack, s, seat, g)
    _kind, cost, err = classify_path(pack, mv["army"], mv["path"], mp)
    if err:
        _rej(rej, "movement.bad_path", "R-9.1", err, f"{mv['where']}.path",
             _path_hint(pack, mv["army"], mv["path"]))
    elif cost > mp:
        _rej(rej, "movement.too_far", "R-9.1",
             f"{pack.spaces[mv['path'][-1]].name} is {cost} MPs from "
             f"{pack.spaces[mv['army']].name} on that path, the army has {mp}",
             f"{mv['where']}.path", "stop earlier on the path: land paths cost 1 MP, "
             "mountain/strait paths 2")


def _path_hint(pack: Pack, start: str, path: list[str]) -> str:
    """The spaces next to the first space of the path whose next step is no path
    (R-9.1), as a hint for ``movement.bad_path``."""
    from pbem.rules.mapinfo import info

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
        return f"{who} ({pack.spaces[o['space']].name}, {o['allowance']} MPs)"

    return ("change the path or leave out this move; armies that may move: " +
            ", ".join(label(o) for o in opts))


def army_options(pack: Pack, s: State, seat: str) -> list[dict[str, Any]]:
    """``seat``'s armies that may move (R-9.1): ``[{"army": commander id or space,
    "space", "commander", "allowance": MPs in the movement segment, "cus": {type: n}}]``."""
    from pbem.rules.movement import (
        controlled_royals,
        group_at,
        group_commander,
        group_initiative,
    )

    spaces = {g["space"] for g in s["generals"].values()
              if g["where"] == "map" and g["seat"] == seat and g["space"]}
    spaces |= set(s["minors"].get(seat, []))
    out = []
    royals = controlled_royals(pack, s, seat)
    for x in sorted(spaces):
        g = group_at(s, seat, x, royals)
        cmd = group_commander(pack, s, seat, g)
        if cmd is None or (cmd == "minor" and not g["cus"]):
            continue
        try:
            mp = group_initiative(pack, s, seat, g)
        except KeyError:  # the pack lacks the minor general's initiative
            continue
        out.append({"army": cmd if cmd != "minor" else x, "space": x, "commander": cmd,
                    "allowance": mp, "cus": g["cus"]})
    return out


def simulate(pack: Pack, s: State, seat: str, moves: list[dict], segment: str,
             rej: list[Rejection]) -> None:
    """Dry-run ``moves`` on a copy of ``s`` with dry dice (every die 1) and turn each
    cancelled move or assault into a rejection (the same executor as :func:`do_moves`)."""
    from pbem.rules.movement import new_cursor, run_cursor

    ctx = Ctx(pack, _copy(s), DryDice())
    c = new_cursor(seat, segment, moves)
    try:
        run_cursor(ctx, c)
    except KeyError as e:  # a chart or constant the pack lacks
        _rej(rej, "rules.pack_incomplete", "R-9", f"the data pack lacks {e}", "orders")
        return
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
            _rej(rej, code, rule, ev.data["why"], mv["where"], hint)
        elif ev.kind == "ArmyReorganised" and ev.data.get("rule") == "R-12.5":
            mv = next((m for m in moves if m["army"] == ev.data.get("army")), moves[0])
            _rej(rej, ev.data.get("code", "movement.royal_moved_twice"), "R-12.5",
                 ev.data["error"], f"{mv['where']}.pick_up",
                 "leave them out of pick_up; they may move again in the next segment")


SOFT: contextvars.ContextVar[bool] = contextvars.ContextVar("pbem_war_soft", default=False)
"""True while ``apply`` carries out orders that passed a dry-run validation: what the
real dice made impossible since is cancelled (an event), never refused."""


def has_war_orders(orders: Any) -> bool:
    """True when ``orders`` hold army moves, an activation or assault rolls."""
    if not isinstance(orders, dict):
        return False
    ty = orders.get("tyche")
    sur = orders.get("surrender")
    return (isinstance(orders.get("movement"), list)
            or (isinstance(ty, dict) and isinstance(ty.get("use"), str)
                and ty["use"].strip().lower() in ("activate", "event"))
            or (isinstance(sur, dict) and "assault" in sur))


@contextlib.contextmanager
def soft_if_valid(valid: bool) -> Iterator[None]:
    """Run the block in soft mode (see :data:`SOFT`) when ``valid``."""
    token = SOFT.set(valid)
    try:
        yield
    finally:
        SOFT.reset(token)


def _soft_moves(pack: Pack, s: State, seat: str, part: list, where: str, segment: str,
                mp: int | None) -> dict:
    moves, cancelled = [], []
    for i, raw in enumerate(part):
        r: list[Rejection] = []
        mv = parse_move(pack, s, seat, raw, f"{where}[{i}]", r, mp)
        if mv is not None:
            with contextlib.suppress(KeyError):
                static_checks(pack, s, seat, mv, segment, r)
        if mv is not None and not r:
            moves.append(mv)
        else:
            cancelled.append({"army": raw.get("army") if isinstance(raw, dict) else None,
                              "why": "; ".join(x.message for x in r) or "not possible now",
                              "where": f"{where}[{i}]"})
    return {"kind": "moves", "moves": moves, "segment": segment, "cancelled": cancelled}


def check_moves(pack: Pack, s: State, seat: str, part: list, where: str,
                rej: list[Rejection], segment: str = "movement", mp: int | None = None
                ) -> dict | None:
    """Validate a list of moves; returns ``{"kind": "moves", "moves": [...],
    "segment"}`` or None. Rejection codes: ``movement.*``, ``siege.illegal``. In soft
    mode (:data:`SOFT`) nothing is refused: moves made impossible are listed under
    ``"cancelled"``."""
    if SOFT.get():
        return _soft_moves(pack, s, seat, part, where, segment, mp)
    n0 = len(rej)
    moves = []
    for i, raw in enumerate(part):
        mv = parse_move(pack, s, seat, raw, f"{where}[{i}]", rej, mp)
        if mv:
            moves.append(mv)
    if len(rej) != n0:
        return None
    try:
        for mv in moves:
            static_checks(pack, s, seat, mv, segment, rej)
    except KeyError as e:  # MissingConstant: the pack lacks movement numbers
        _rej(rej, "rules.pack_incomplete", "R-9", f"the data pack lacks {e}", where)
    if len(rej) != n0:
        return None
    simulate(pack, s, seat, moves, segment, rej)
    return {"kind": "moves", "moves": moves, "segment": segment} if len(rej) == n0 else None


def do_moves(ctx: Ctx, seat: str, plan: dict) -> bool:
    """Carry out a plan of :func:`check_moves`; False when a reaction window opened."""
    from pbem.rules.movement import new_cursor, run_cursor

    for x in plan.get("cancelled", []):
        ctx.emit("MoveCancelled", {"seat": seat, "army": x["army"], "why": x["why"],
                                   "where": x["where"], "rule": "R-9.1"})
    c = new_cursor(seat, plan["segment"], plan["moves"])
    c["resume_forage"] = plan["segment"] == "movement"
    if plan.get("rest") is not None:  # the rest of the player-turn after a Tyche move
        c["rest"] = plan["rest"]
    return run_cursor(ctx, c)


def is_paused(s: State) -> bool:
    """True while a reaction window is open."""
    return bool((s.get("war") or {}).get("pause"))


# --- Tyche: activation, Major Campaign, independent armies (R-14) ---

def war_event(card: Card) -> str | None:
    """``"major_campaign"`` / ``"independent"`` when the card's event is resolved here."""
    prims = {e.primitive for e in card.effects}
    if "move_armies" in prims:
        return "major_campaign"
    if "activate_independent" in prims:
        return "independent"
    return None


def check_tyche_war(pack: Pack, s: State, seat: str, part: dict, card: Card, use: str,
                    where: str, rej: list[Rejection], plan: dict) -> None:
    """Validate ``use: activate`` (one army, MA = the card's OPs, R-8.2) and the events
    Major Campaign (``moves``: up to two armies, ``major_campaign_mp`` each, R-16.1) and
    independent army activation (R-14); fills ``plan["war"]``."""
    if use == "activate":
        if "army" not in part or "path" not in part:
            _rej(rej, "tyche.activate_army_missing", "R-8.2",
                 "name the army and its path to activate with this card", f"{where}.army",
                 "tyche: {card: 12, use: activate, army: Ptolemy, path: [Memphis, Pelusium]}")
            return
        raw = {k: part[k] for k in MOVE_KEYS if k in part}
        if SOFT.get():
            plan["war"] = _soft_moves(pack, s, seat, [raw], where, "tyche", card.ops)
            return
        n0 = len(rej)
        mv = parse_move(pack, s, seat, raw, where, rej, card.ops)
        if mv is None:
            return
        static_checks(pack, s, seat, mv, "tyche", rej)
        if len(rej) == n0:
            simulate(pack, s, seat, [mv], "tyche", rej)
        if len(rej) == n0:
            plan["war"] = {"kind": "moves", "moves": [mv], "segment": "tyche"}
        return
    kind = war_event(card)
    if kind == "major_campaign":
        eff = next(e for e in card.effects if e.primitive == "move_armies")
        most = int(eff.params.get("armies", 2))
        mp = int(eff.params.get("mp", const(pack, "major_campaign_mp")))
        raw = part.get("moves", [])
        if not isinstance(raw, list) or not 1 <= len(raw) <= most:
            _rej(rej, "tyche.moves_missing", "R-16.1",
                 f"Major Campaign moves 1 to {most} armies: moves: [{{army, path}}, ...]",
                 f"{where}.moves", "moves: [{army: Ptolemy, path: [Pelusium, Gaza]}]")
            return
        mv = check_moves(pack, s, seat, raw, f"{where}.moves", rej, "tyche", mp)
        if mv:
            plan["war"] = mv
    elif kind == "independent":
        plan["war"] = {"kind": "independent"}


def do_tyche_war(ctx: Ctx, seat: str, plan: dict) -> None:
    """Carry out the war part of a Tyche plan (after ``CardPlayed``)."""
    from pbem.rules.independents import activate_independent, activation_effect

    w = plan["war"]
    if w["kind"] == "moves":
        do_moves(ctx, seat, w)
    elif w["kind"] == "independent":
        card = ctx.pack.cards[plan["card"]]
        eff = activation_effect(card)
        activate_independent(ctx, seat, eff.params["army"],
                             list(eff.params.get("path", [])), plan["card"])
        rest = tuple(e for e in card.effects if e.primitive != "activate_independent")
        if rest and not ctx.s["result"]:  # the card's other effects (e.g. Lamian War)
            import dataclasses

            from pbem.rules.card_events import resolve_event
            resolve_event(ctx, seat, dataclasses.replace(card, effects=rest), plan)


# --- standing orders (R-9.3, R-15) ---------------------------------------------------

def check_standing(pack: Pack, s: State, seat: str, raw: Any, where: str,
                   rej: list[Rejection]) -> list[dict] | None:
    """Validate ``standing:`` (a list, ``none`` or ``[]`` to clear); returns the
    normalised list (armies as general ids or space ids, spaces as ids)."""
    if raw in (None, "none"):
        return []
    if not isinstance(raw, list):
        _rej(rej, "standing.not_a_list", "R-9.3", "standing is a list of orders", where,
             "standing: [{when: intercept, army: Ptolemy}]")
        return None
    n0 = len(rej)
    out = []
    armies = _own_armies(pack, s, seat)
    for i, o in enumerate(raw):
        w = f"{where}[{i}]"
        when = o.get("when") if isinstance(o, dict) else None
        when = when.strip().lower() if isinstance(when, str) else None
        if when not in STANDING_KEYS:
            got = f"; got when: {o['when']!r}" if isinstance(o, dict) and "when" in o else ""
            _rej(rej, "standing.bad_when", "R-9.3",
                 "each standing order is a mapping with when: intercept | avoid | "
                 "naval_battle | inside_join | losses" + got, w,
                 "when: " + " | ".join(STANDING_KEYS) + ", e.g. "
                 "{when: intercept, army: Ptolemy}")
            continue
        keys = STANDING_KEYS[when]
        norm: dict[str, Any] = {"when": when}
        for k, v in o.items():
            if k == "when":
                continue
            if k not in keys:
                _rej(rej, "orders.unknown_key", "R-9.3", f"{when} has no field {k!r}",
                     f"{w}.{k}", "fields: " + ", ".join(keys))
            elif k == "army":
                gid = resolve_general(pack, v)
                sid = None if gid else resolve_space(pack, v)[0]
                if gid is None and sid is None:
                    _rej(rej, "standing.unknown_army", "R-9.3",
                         f"there is no general or space {v!r}", f"{w}.army", armies)
                elif gid is not None and (s["generals"].get(gid) or {}).get("seat") not in (
                        seat, None):  # another seat's general (not yet in play: allowed)
                    _rej(rej, "standing.not_your_army", "R-9.3",
                         f"{pack.generals[gid].name} is not one of your generals (he is "
                         f"{s['generals'][gid]['seat']}'s): a standing order moves only "
                         f"your own armies", f"{w}.army", armies)
                norm["army"] = gid or sid
            elif k in ("into", "toward"):
                vals = v if isinstance(v, list) else [v]
                ids = []
                for x in vals:
                    sid, hint = resolve_space(pack, x)
                    if sid is None:
                        _rej(rej, "orders.unknown_space", "R-3.1",
                             f"there is no space {x!r}", f"{w}.{k}",
                             hint or ("into: [Gaza, Pelusium]" if k == "into"
                                      else "toward: Sinope"))
                    ids.append(sid)
                if k == "toward" and len(ids) != 1:
                    _rej(rej, "standing.bad_toward", "R-9.3",
                         "toward names one space to avoid battle into", f"{w}.toward",
                         "toward: Sinope")
                norm[k] = ids if k == "into" else (ids[0] if ids else None)
            elif k.startswith("if_"):
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    _rej(rej, "standing.bad_number", "R-9.3", f"{k} is a number",
                         f"{w}.{k}", f"{k}: 2")
                norm[k] = v
            elif k == "against":
                vals = v if isinstance(v, list) else [v]
                seats = [x.strip().lower() if isinstance(x, str) else x for x in vals]
                bad = [x for x, y in zip(vals, seats, strict=True) if y not in SEAT_NAMES
                       or y == seat]
                if bad:
                    _rej(rej, "standing.bad_seat", "R-15",
                         f"against lists the other seats; {bad[0]!r} is not one",
                         f"{w}.against", "seats: " + ", ".join(
                             x for x in SEAT_NAMES if x != seat) + "; e.g. against: [east]")
                norm[k] = seats
            elif k == "fleets":
                from pbem.rules.naval import resolve_fleet
                vals = v if isinstance(v, list) else [v]
                fids = [resolve_fleet(pack, x) for x in vals]
                bad = [x for x, f in zip(vals, fids, strict=True) if f is None]
                if bad:
                    _rej(rej, "standing.bad_fleet", "R-15", "fleets lists fleet ids" +
                         (f"; there is no fleet {bad[0]!r}" if bad else ""),
                         f"{w}.fleets", "ids: " + ", ".join(sorted(pack.fleets)))
                norm[k] = fids
            elif k == "city":  # inside_join: major cities
                vals = v if isinstance(v, list) else [v]
                ids = []
                for x in vals:
                    sid, hint = resolve_space(pack, x)
                    if sid is None or pack.spaces[sid].kind != "major_city":
                        _rej(rej, "standing.bad_city", "R-9.2",
                             f"{x!r} is no major city" if sid else f"there is no space {x!r}",
                             f"{w}.city", hint or "major cities: " + ", ".join(
                                 sorted(sp.name for sp in pack.spaces.values()
                                        if sp.kind == "major_city")))
                    ids.append(sid)
                norm[k] = ids
            elif k == "join":
                if not isinstance(v, bool):
                    _rej(rej, "standing.bad_join", "R-9.2", "join is true or false",
                         f"{w}.join", "join: false")
                norm[k] = v
            elif k == "order":  # losses: CU types lost first
                from pbem.rules.units import is_unit_type, unit_types
                vals = v if isinstance(v, list) else [v]
                bad = [x for x in vals if not is_unit_type(pack, x)]
                if bad or not vals or len(set(map(str, vals))) != len(vals):
                    _rej(rej, "standing.bad_order", "R-9.2",
                         "order lists CU types, each once" + (f"; no type {bad[0]!r}"
                                                              if bad else ""),
                         f"{w}.order", "types: " + ", ".join(sorted(unit_types(pack))))
                norm[k] = list(vals)
        if when in ("intercept", "avoid") and "army" not in o:
            _rej(rej, "standing.army_missing", "R-9.3", "name the army", f"{w}.army",
                 armies)
        if when == "losses" and "order" not in o:
            _rej(rej, "standing.order_missing", "R-9.2", "list the CU types lost first",
                 f"{w}.order", "order: [mercenary, elephant, loyal, royal]")
        out.append(norm)
    return out if len(rej) == n0 else None


def check_surrender_assault(pack: Pack, s: State, seat: str, raw: Any, where: str,
                            rej: list[Rejection]) -> list[str]:
    """Validate ``surrender: {assault: [Space]}`` (R-8.1 free rolls, R-10)."""
    from pbem.rules.siege import why_no_assault

    out: list[str] = []
    for i, x in enumerate(raw if isinstance(raw, list) else [raw]):
        sid, hint = resolve_space(pack, x)
        if sid is None:
            _rej(rej, "orders.unknown_space", "R-3.1", f"there is no space {x!r}",
                 f"{where}[{i}]", hint)
            continue
        if SOFT.get():  # re-checked when rolled (AssaultCancelled)
            out.append(sid)
            continue
        try:
            why = why_no_assault(pack, s, seat, sid, "surrender",
                                 {y: (1, None) for y in out}, None)
        except KeyError as e:  # MissingConstant: the pack has no siege numbers
            _rej(rej, "rules.pack_incomplete", "R-10", f"the data pack lacks {e}",
                 f"{where}[{i}]")
            continue
        if why:
            _rej(rej, "siege.illegal", "R-8.1", why, f"{where}[{i}]",
                 "leave this space out of surrender.assault; a free roll needs your army "
                 "besieging the space")
            continue
        out.append(sid)
    return out
