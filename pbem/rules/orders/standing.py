"""Standing orders (R-9.3, R-9.2, R-15): ``standing: [...]``, sent at any time, carried
out by :mod:`pbem.rules.resolve.reactions` and :mod:`pbem.rules.resolve.naval` when
their moment comes. Like every order kind (:mod:`pbem.rules.orders`): :func:`read`,
:func:`options`, :func:`check`, :func:`execute`.

Shapes (see ``docs/orders.md``)::

    standing: [{when: intercept, army: Ptolemy, into: [Gaza], if_enemy_strength_at_most: 8},
               {when: avoid, army: Eumenes, toward: Sinope, if_attacker_ratio_at_least: 2},
               {when: naval_battle, against: [east], fleets: [athenian_fleet]},
               {when: inside_join, city: [Babylon], join: false},
               {when: losses, order: [mercenary, elephant, loyal, royal]},
               {when: battle_roll, play: 52, army: Eumenes, against: [north]},
               {when: free_passage, to: [north], royal: [Cleopatra]}]

The last kind plays a surprise card when its moment comes (R-8.5; the moments of
:data:`pbem.rules.resolve.surprises.STANDING_MOMENTS`): ``battle_roll``, ``prestige``,
``naval_landing``, ``interception_check``, ``avoid_check``, ``battle_start`` (a Mutiny
against the army the seat's army fights, R-11.2). Such an order is secret
until it fires, fires once (the card leaves the hand) and in any player-turn, the
seat's own included.

``free_passage`` grants the seats of ``to`` (all other seats when left out) free passage
for the marriage of the women of ``royal`` (all when left out): the seat's CUs in her
space no longer forbid it (R-12.2, seed 002). It stays in force until the seat's standing
orders change; the marriage it lets take place says so (``MarriageConcluded.passage``).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.armies import own_armies_hint
from pbem.rules.core.board import (
    _resolve_royal,
    name_hint,
    resolve_fleet,
    resolve_general,
    resolve_space,
)
from pbem.rules.core.problems import reject
from pbem.rules.core.state import SEATS, State, standing_orders
from pbem.rules.core.units import (
    resolve_unit_type,
    unit_types_text,
)
from pbem.rules.resolve.surprises import STANDING_MOMENTS, read_cards

STANDING_KEYS = {"intercept": ("when", "army", "into", "if_enemy_strength_at_most"),
                 "avoid": ("when", "army", "toward", "if_attacker_ratio_at_least"),
                 "naval_battle": ("when", "against", "fleets"),
                 "inside_join": ("when", "city", "join"),
                 "losses": ("when", "order"),
                 # play a surprise card when its moment comes (STANDING_MOMENTS)
                 "battle_roll": ("when", "play", "army", "against"),
                 "prestige": ("when", "play", "army", "against"),
                 "naval_landing": ("when", "play", "against"),
                 "interception_check": ("when", "play", "army", "against"),
                 "avoid_check": ("when", "play", "army", "against"),
                 "battle_start": ("when", "play", "army", "against"),
                 # R-12.2: the seat's CUs do not forbid these seats' marriages
                 "free_passage": ("when", "to", "royal")}
assert set(STANDING_MOMENTS) <= set(STANDING_KEYS)


def read(pack: Pack, s: State, seat: str, raw: Any, where: str, rej: list[Problem]
         ) -> list[tuple[int, dict[str, Any]]] | None:
    """``standing:`` (a list, ``none`` or ``[]`` to clear) in ids: ``[(index, order)]``
    with armies as general or space ids, spaces, fleets and CU types as ids, numbers and
    flags checked (R-9.3, R-9.2, R-15); the hints name ``seat``'s armies."""
    if raw in (None, "none"):
        return []
    if not isinstance(raw, list):
        reject(rej, "standing.not_a_list", "standing is a list of orders", where,
             "standing: [{when: intercept, army: Ptolemy}]")
        return None
    n0 = len(rej)
    out = []
    armies = own_armies_hint(pack, s, seat)
    for i, o in enumerate(raw):
        w = f"{where}[{i}]"
        when = o.get("when") if isinstance(o, dict) else None
        when = when.strip().lower() if isinstance(when, str) else None
        if when not in STANDING_KEYS:
            got = f"; got when: {o['when']!r}" if isinstance(o, dict) and "when" in o else ""
            reject(rej, "standing.bad_when", "each standing order is a mapping with when: "
                 + " | ".join(STANDING_KEYS) + got, w,
                 "when: " + " | ".join(STANDING_KEYS) + ", e.g. "
                 "{when: intercept, army: Ptolemy}")
            continue
        keys = STANDING_KEYS[when]
        norm: dict[str, Any] = {"when": when}
        for k, v in o.items():
            if k == "when":
                continue
            if k not in keys:
                reject(rej, "orders.unknown_key", f"{when} has no field {k!r}",
                     f"{w}.{k}", "fields: " + ", ".join(keys), rule="R-9.3", params={"field": k})
            elif k == "army":
                gid = resolve_general(pack, v)
                sid = None if gid else resolve_space(pack, v)[0]
                if gid is None and sid is None:
                    near = name_hint(v, pack.generals, pack.spaces, pack=pack)
                    reject(rej, "standing.unknown_army", f"there is no general or space {v!r}",
                           f"{w}.army", f"{near} {armies}" if near else armies)
                norm["army"] = gid or sid
            elif k in ("into", "toward"):
                vals = v if isinstance(v, list) else [v]
                ids = []
                for x in vals:
                    sid, hint = resolve_space(pack, x)
                    if sid is None:
                        reject(rej, "orders.unknown_space", f"there is no space {x!r}", f"{w}.{k}",
                             hint or ("into: [Gaza, Pelusium]" if k == "into"
                                      else "toward: Sinope"), params={"name": x})
                    ids.append(sid)
                if k == "toward" and len(ids) != 1:
                    reject(rej, "standing.bad_toward", "toward names one space to avoid battle into", f"{w}.toward",
                         "toward: Sinope")
                norm[k] = ids if k == "into" else (ids[0] if ids else None)
            elif k.startswith("if_"):
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    reject(rej, "standing.bad_number", f"{k} is a number",
                         f"{w}.{k}", f"{k}: 2")
                norm[k] = v
            elif k in ("against", "to"):
                vals = v if isinstance(v, list) else [v]
                seats = [x.strip().lower() if isinstance(x, str) else x for x in vals]
                bad = [x for x, y in zip(vals, seats, strict=True) if y not in SEATS
                       or y == seat]
                if bad:
                    others = tuple(x for x in SEATS if x != seat)
                    reject(rej, "standing.bad_seat", f"{k} lists the other seats; {bad[0]!r} is not one",
                         f"{w}.{k}", name_hint(bad[0], words=others, otherwise="seats: " + ", ".join(
                             others) + f"; e.g. {k}: [east]"))
                norm[k] = seats
            elif k == "royal":  # free_passage: the women it is granted for
                vals = v if isinstance(v, list) else [v]
                rids = [_resolve_royal(pack, x) for x in vals]
                women = sorted(r.name for r in pack.royals.values() if r.kind == "woman")
                bad = [pack.royals[r].name if r else repr(x)
                       for x, r in zip(vals, rids, strict=True)
                       if r is None or pack.royals[r].kind != "woman"]
                if bad:
                    reject(rej, "standing.bad_royal", f"royal lists royal women; {bad[0]} "
                           "is not one", f"{w}.royal", "women: " + ", ".join(women),
                           rule="R-12.2")
                norm[k] = rids
            elif k == "fleets":
                vals = v if isinstance(v, list) else [v]
                fids = [resolve_fleet(pack, x) for x in vals]
                bad = [x for x, f in zip(vals, fids, strict=True) if f is None]
                if bad:
                    reject(rej, "standing.bad_fleet", "fleets lists fleet ids" +
                         (f"; there is no fleet {bad[0]!r}" if bad else ""),
                         f"{w}.fleets", name_hint(bad[0], pack.fleets, otherwise="fleets: " + ", ".join(
                             f.name for f in pack.fleets.values()), pack=pack))
                norm[k] = fids
            elif k == "city":  # inside_join: major cities
                vals = v if isinstance(v, list) else [v]
                ids = []
                for x in vals:
                    sid, hint = resolve_space(pack, x)
                    if sid is None or pack.spaces[sid].kind != "major_city":
                        reject(rej, "standing.bad_city", f"{x!r} is no major city" if sid else f"there is no space {x!r}",
                             f"{w}.city", hint or "major cities: " + ", ".join(
                                 sorted(sp.name for sp in pack.spaces.values()
                                        if sp.kind == "major_city")))
                    ids.append(sid)
                norm[k] = ids
            elif k == "join":
                if not isinstance(v, bool):
                    reject(rej, "standing.bad_join", "join is true or false",
                         f"{w}.join", "join: false")
                norm[k] = v
            elif k == "play":  # the surprise card played at the moment
                if isinstance(v, list):
                    reject(rej, "surprise.not_a_card", "play names one card per standing "
                           "order", f"{w}.play", f"play: {v[0] if v else 52}", rule="R-8.5")
                    continue
                got_cards = read_cards(pack, s, seat, v, (when,), f"{w}.play", rej)
                norm[k] = got_cards[0] if got_cards else None
            elif k == "order":  # losses: CU types lost first
                vals = v if isinstance(v, list) else [v]
                types = [resolve_unit_type(pack, x) for x in vals]
                bad = [x for x, t in zip(vals, types, strict=True) if t is None]
                if bad or not vals or len(set(map(str, types))) != len(vals):
                    reject(rej, "standing.bad_order", "order lists CU types, each once" + (f"; no type {bad[0]!r}"
                                                              if bad else ""),
                         f"{w}.order", name_hint(bad[0] if bad else None, pack.special_units,
                                                 words=tuple(pack.cu_types),  # as written (issue 24 N8)
                                                 otherwise="types: " + unit_types_text(pack), pack=pack))
                norm[k] = [t if t is not None else x for x, t in zip(vals, types, strict=True)]
        if when in ("intercept", "avoid") and "army" not in o:
            reject(rej, "standing.army_missing", "name the army", f"{w}.army",
                 armies)
        if when == "losses" and "order" not in o:
            reject(rej, "standing.order_missing", "list the CU types lost first",
                 f"{w}.order", "order: [mercenary, elephant, loyal, royal]")
        if when in STANDING_MOMENTS and "play" not in o:
            reject(rej, "standing.play_missing", f"name the surprise card to play at "
                   f"{when}", f"{w}.play", f"{{when: {when}, play: <card>}}", rule="R-8.5")
        out.append((i, norm))
    return out if len(rej) == n0 else out


def options(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """``{"standing": [order], "forms": {when: [field]}}``: ``seat``'s standing orders
    now and the fields each kind takes (R-9.3, R-9.2, R-15)."""
    return {"standing": [dict(o) for o in standing_orders(s, seat)],
            "forms": {k: list(v) for k, v in STANDING_KEYS.items()}}


def check(pack: Pack, s: State, seat: str, order: list[tuple[int, dict[str, Any]]],
          where: str, rej: list[Problem], soft: bool = False) -> list[dict] | None:
    """Each general a standing order names is one of ``seat``'s (or not yet in play):
    a standing order moves only the seat's own armies (R-9.3). Returns the orders to
    record, or None after a problem."""
    n0 = len(rej)
    for i, o in order:
        gid = o.get("army")
        owner = (s["generals"].get(gid) or {}).get("seat") if gid in pack.generals else None
        if owner not in (seat, None):  # another seat's general (not yet in play: allowed)
            reject(rej, "standing.not_your_army", f"{pack.generals[gid].name} is not one of "
                   f"your generals (he is {owner}'s): a standing order moves only your own "
                   "armies", f"{where}[{i}].army", own_armies_hint(pack, s, seat))
    return [o for _i, o in order] if len(rej) == n0 else None


def execute(ctx: Ctx, seat: str, plan: list[dict[str, Any]]) -> None:
    """Record the standing orders: a private ``StandingOrdersSet`` only ``seat`` sees
    (R-9.3); they replace the seat's earlier ones."""
    ctx.emit("StandingOrdersSet", {"seat": seat, "orders": plan, "rule": "R-9.3"})


def standing_only(s: State, seat: str, orders: Any) -> bool:
    """True when ``orders`` hold only ``standing`` (and ``step``): standing orders sent
    in a player's own mail at any time, by any seat (R-9.3, :func:`run_standing`). The
    seat deciding now is no exception: its decision stays open (a window may be
    decided by the new orders, see :func:`run_standing`)."""
    if not isinstance(orders, dict) or "standing" not in orders or s.get("result"):
        return False
    return not set(orders) - {"standing", "step"}
