"""Victory (R-1): automatic victory with its holding period, end-game scoring with
tie-breaks. Regency (R-1.3) is checked at the start of the turns the pack names.

A seat that conceded by the table's vote (the state's ``conceded``, issue 29; [D]
docs/rules.md, "Votes and concession") is out of the contest: it claims no automatic
victory, wins no regency and is ranked after every other seat at the end; its pieces
stay on the map and its VP and LP are still counted and shown.
"""
from __future__ import annotations

from pbem.pack.model import Pack
from pbem.rules.context import Ctx
from pbem.rules.core.armies import best_seniority, macedonian_cus
from pbem.rules.core.control import (
    legitimacy_points,
    province_controller,
    royal_controller,
    victory_points,
)
from pbem.rules.core.pack import const
from pbem.rules.core.state import SEATS, State


def auto_victory_kind(pack: Pack, s: State, seat: str) -> str | None:
    """``"vp"`` or ``"lp"`` when ``seat`` meets an automatic-victory threshold now
    (R-1.1; never combined), else None. Before ``auto_victory_from_turn`` always None."""
    return auto_victory_kinds(pack, s)[seat]


def auto_victory_kinds(pack: Pack, s: State) -> dict[str, str | None]:
    """:func:`auto_victory_kind` of every seat, ``{seat: "vp" | "lp" | None}``, with the
    VP (and, when some seat needs them, the LP) computed once (R-1.1)."""
    if s["turn"] < const(pack, "auto_victory_from_turn"):
        return dict.fromkeys(SEATS)
    out_of_contest = set(s.get("conceded") or ())
    vp = victory_points(pack, s)
    out: dict[str, str | None] = {x: "vp" if vp[x] >= const(pack, "auto_victory_vp") and x not in out_of_contest
                                  else None for x in SEATS}
    if not all(out.values()):
        lp = legitimacy_points(pack, s)
        for x in SEATS:
            if out[x] is None and x not in out_of_contest and lp[x] >= const(pack, "auto_victory_lp"):
                out[x] = "lp"
    return out


def check_victory(ctx: Ctx, end_of_turn: bool, finished: str | None = None) -> None:
    """R-1.1, checked by the engine after every player-turn and at the end of the turn.

    A seat reaching the threshold claims (``VictoryClaimed``, waiting for every other
    seat's next full player-turn); the claim lapses when it no longer holds
    (``VictoryClaimUpdated`` cleared); it wins (``GameWon``) once every other seat has
    finished a player-turn, or at the end of the turn, whichever comes first."""
    pack, s = ctx.pack, ctx.s
    if s["result"]:
        return
    claim = s["claim"]
    if claim:
        seat = claim["seat"]
        if auto_victory_kind(pack, s, seat) is None:
            ctx.emit("VictoryClaimUpdated", {"seat": seat, "cleared": True,
                                             "rule": "R-1.1", "why": "no longer holds"})
            claim = None
        else:
            waiting = [x for x in claim["waiting"] if x != finished]
            if waiting != claim["waiting"]:
                ctx.emit("VictoryClaimUpdated", {"seat": seat, "waiting": waiting,
                                                 "rule": "R-1.1"})
            if not waiting or end_of_turn:
                ctx.emit("GameWon", {"winner": seat, "how": f"automatic ({claim['kind']})",
                                     "vp": victory_points(pack, s),
                                     "lp": legitimacy_points(pack, s), "rule": "R-1.1"})
                return
    if claim is None:
        order = s["turn_order"] or list(SEATS)
        kinds = auto_victory_kinds(pack, s)
        for seat in order:
            kind = kinds[seat]
            if kind:
                ctx.emit("VictoryClaimed", {"seat": seat, "kind": kind, "rule": "R-1.1",
                                            "waiting": [x for x in SEATS if x != seat]})
                if end_of_turn:
                    ctx.emit("GameWon", {"winner": seat, "how": f"automatic ({kind})",
                                         "vp": victory_points(pack, s),
                                         "lp": legitimacy_points(pack, s),
                                         "rule": "R-1.1"})
                return


def ranking(pack: Pack, s: State) -> list[tuple[str, tuple]]:
    """Seats ordered for the end-game (R-1.2): most VP; then control of Macedonia; most
    Macedonian CUs; most senior major general. A seat that conceded (``conceded``, [D]
    docs/rules.md) comes after every seat still in the game, whatever its VP, and the
    conceded seats among themselves by the same keys. Returns ``[(seat, key)]`` best
    first (``key``: the R-1.2 keys)."""
    vp = victory_points(pack, s)
    mac = province_controller(pack, s, const(pack, "macedonia_province"))
    out = set(s.get("conceded") or ())
    keys = {x: (-vp[x], 0 if mac == x else 1, -macedonian_cus(pack, s, x),
                best_seniority(pack, s, x)) for x in SEATS}
    return sorted(keys.items(), key=lambda kv: (kv[0] in out, kv[1], SEATS.index(kv[0])))


def final_scoring(ctx: Ctx) -> None:
    """End of the last turn (R-1.2): emit ``GameWon`` with the ranking and tie-break."""
    rank = ranking(ctx.pack, ctx.s)
    data = {"winner": rank[0][0], "how": "end of game (most VP)", "vp": victory_points(ctx.pack, ctx.s),
            "ranking": [x for x, _ in rank], "keys": {x: list(k) for x, k in rank}, "rule": "R-1.2"}
    if ctx.s.get("conceded"):  # the seats ranked last whatever their VP ([D] docs/rules.md)
        data["conceded"] = list(ctx.s["conceded"])
    ctx.emit("GameWon", data)


REGENCY = (("alexander_iv", "regency_turn_alexander_iv"), ("heracles", "regency_turn_heracles"))


def start_of_turn_checks(ctx: Ctx) -> None:
    """Start of a turn: regency (R-1.3) and the unburied body (R-12.4).

    At the start of turn ``regency_turn_<heir>`` the seat controlling that heir wins if
    its LP+VP is strictly the highest (``GameWon`` how="regency"); otherwise the heir
    leaves play [L] (``RoyalRemoved``). At the start of turn ``body_lost_turn`` the body
    is removed when it is still unburied (a buried body is the tomb: gone from the map,
    :mod:`pbem.rules.resolve.royals`)."""

    pack, s = ctx.pack, ctx.s
    for rid, key in REGENCY:
        if rid not in s["royals"] or s["royals"][rid].get("gone"):
            continue
        if s["turn"] != const(pack, key):
            continue
        seat = royal_controller(pack, s, rid)
        vp, lp = victory_points(pack, s), legitimacy_points(pack, s)
        total = {x: vp[x] + lp[x] for x in SEATS}
        rivals = [x for x in SEATS if x != seat and x not in (s.get("conceded") or ())]
        if seat and seat not in (s.get("conceded") or ()) and all(total[seat] > total[x] for x in rivals):
            ctx.emit("GameWon", {"winner": seat, "how": "regency", "heir": rid,
                                 "totals": total, "rule": "R-1.3"})
            return
        ctx.emit("RoyalRemoved", {"royal": rid, "rule": "R-1.3", "controller": seat,
                                  "totals": total,
                                  "why": "came of age without producing a regent"})
    if "body" in s["royals"] and not s["royals"]["body"].get("gone") \
            and s["turn"] == const(pack, "body_lost_turn"):
        ctx.emit("RoyalRemoved", {"royal": "body", "rule": "R-12.4",
                                  "why": "not buried by the start of this turn"})
