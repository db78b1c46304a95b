"""LP and VP shown in the views and the reports equal a recomputation from the state
(R-11.1, R-1.4), over random games of the real pack.

The recomputation here is written from RULES-BRIEF alone, independently of
``pbem.rules.core.control``: it reads the state's records (garrisons, royal family,
generals, champions, court) and the pack, never the rules core's functions. Every
decision of every game is checked: the public view's ``lp`` and ``vp``, the seat rows of
the report summary built from it, and the controller each view shows for each member of
the royal family (the record's own ``seat``).
"""
from __future__ import annotations

import os
import random

import pytest

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.report.context import state_summary
from pbem.rules.dice import Dice

GAMES = int(os.environ.get("PBEM_LP_GAMES", "16"))


def province_owner(pack, s: dict, prov: str) -> str | None:
    """R-3.2: the seat with garrisons on a strict majority of the province's non-transit
    spaces, its major city among them."""
    spaces = [x for x, sp in pack.spaces.items() if sp.province == prov and sp.kind != "transit"]
    for seat in R.SEATS:
        mine = [x for x in spaces if s["garrisons"].get(x) == seat]
        majors = [x for x in spaces if pack.spaces[x].kind == "major_city"]
        if spaces and 2 * len(mine) > len(spaces) and all(x in mine for x in majors):
            return seat
    return None


def expected_vp(pack, s: dict) -> dict[str, int]:
    """R-1.4: province VP, Lord of Asia, the Hellespont, the strongest fleet."""
    c = pack.constants
    owner = {p: province_owner(pack, s, p) for p in pack.provinces}
    vp = dict.fromkeys(R.SEATS, 0)
    for p, seat in owner.items():
        if seat:
            vp[seat] += pack.provinces[p].vp
    asia = {owner[p] for p in c["lord_of_asia_provinces"]}
    if len(asia) == 1 and None not in asia:
        vp[asia.pop()] += c["lord_of_asia_vp"]
    ports = {s["garrisons"].get(x) for x, sp in pack.spaces.items() if sp.hellespont}
    if len(ports) == 1 and None not in ports:
        vp[ports.pop()] += c["hellespont_vp"]
    fleets = dict.fromkeys(R.SEATS, 0)
    kept = (s.get("war") or {}).get("fleets") or {}
    for fid, f in pack.fleets.items():
        who = owner.get(f.home) if f.home in pack.provinces else s["garrisons"].get(f.home)
        if who:
            up = kept.get(fid) or {}
            fleets[who] += f.strength + (up.get("upgrade", 0) if up.get("owner") == who else 0)
    top = max(fleets.values())
    if top >= c["strongest_fleet_min_strength"] and list(fleets.values()).count(top) == 1:
        vp[max(fleets, key=fleets.get)] += c["strongest_fleet_vp"]
    return vp


def expected_lp(pack, s: dict) -> dict[str, int]:
    """R-11.1, R-12.4, R-16.1: the sources of legitimacy, clipped at 0."""
    c = pack.constants
    court = s.get("court") or {}
    lp = dict.fromkeys(R.SEATS, 0)
    held = {rid: r.get("seat") for rid, r in s["royals"].items()
            if r.get("space") and not r.get("gone")}
    for seat in R.SEATS:
        heirs = {rid: pack.royals[rid].lp for rid, who in held.items()
                 if who == seat and pack.royals[rid].kind == "heir"}
        chosen = (court.get("heirs") or {}).get(seat)
        if heirs:
            lp[seat] += heirs[chosen] if chosen in heirs else max(heirs.values())
        lp[seat] += sum(pack.royals[rid].lp for rid, who in held.items() if who == seat
                        and pack.royals[rid].kind == "woman" and s["royals"][rid]["active"])
    mac = province_owner(pack, s, c["macedonia_province"])
    if mac:
        lp[mac] += c["strategos_lp"]
    in_play = {g: v["seat"] for g, v in s["generals"].items()
               if v["seat"] and v["where"] in ("map", "dispersed")}
    for g, seat in in_play.items():
        lp[seat] += pack.generals[g].legitimacy
    for seat in s["champions"]:
        lp[seat] += c["champion_lp"]
    tomb = court.get("tomb")
    if tomb and tomb["pella"]:
        lp[tomb["seat"]] += c["burial_pella_lp"]
    elif tomb and s["garrisons"].get(tomb["space"]):
        lp[s["garrisons"][tomb["space"]]] += c["tomb_guardian_lp"]
    for a in court.get("lp_cards") or []:
        if a["turn"] is None or a["turn"] == s["turn"]:
            lp[a["seat"]] += a["amount"]
    cond = court.get("condemned")
    if cond and cond["general"] in in_play:
        lp[in_play[cond["general"]]] += cond["lp"]
    for seat, v in (s.get("lp_adjust") or {}).items():
        lp[seat] += v
    return {seat: max(0, v) for seat, v in lp.items()}


def check_shown(pack, state: R.GameState) -> None:
    s = state.peek()
    want_lp, want_vp = expected_lp(pack, s), expected_vp(pack, s)
    for seat in (None, *R.SEATS):
        v = R.view(state, seat)
        assert v["lp"] == want_lp, (seat, v["lp"], want_lp)
        assert v["vp"] == want_vp, (seat, v["vp"], want_vp)
        for rid, r in v["royals"].items():
            assert r["controller"] == s["royals"][rid].get("seat"), rid
    rows = state_summary(pack, R.view(state, None), [{"seat": x, "player": x}
                                                    for x in R.SEATS])["seats"]
    assert {r["seat"]: (r["lp"], r["vp"]) for r in rows} == {
        x: (want_lp[x], want_vp[x]) for x in R.SEATS}


@pytest.mark.parametrize("chunk", range(2))
def test_lp_and_vp_shown_equal_a_recomputation(chunk: int) -> None:
    pack = load_pack()
    sources: set[str] = set()
    for g in range(chunk, GAMES, 2):
        seed = f"lp-{g}".encode()
        state, _ = R.new_game(pack, seed, {"ask_windows": bool(g % 2)})
        rng = random.Random(g)
        check_shown(pack, state)
        while R.pending(state):
            d = R.pending(state)[0]
            state, events = R.apply(state, d.seat, R.bot_orders(state, d.seat, rng),
                                    Dice(seed, state.step))
            sources |= {e.kind for e in events}
            check_shown(pack, state)
    # the games went through the events that move LP, so the comparison meant something
    assert {"RoyalTaken", "LegitimacyAdjusted", "ChampionLost"} <= sources, sources
