"""The royal family and the Champion status as pure queries (R-11.4, R-12): who may take
a member found alone, when a marriage takes place, where the body may be buried, and the changes the position calls for after each event.

Control of a member is kept in its record (``royals[id]["seat"]``) and changes only by
events (:mod:`pbem.rules.core.events.royals`). After every event that changes the
board, :meth:`pbem.rules.context.Ctx.emit` asks :func:`royal_settlement` for the next
change the new position calls for ("after completing any procedure", seed 002 §2-3):

- a controller with nothing left in the member's space (no general, army, CU or
  garrison) loses control (``RoyalControlLost``); a woman becomes inactive [D];
- an heir or the cart nobody controls is taken by the one seat present
  (``RoyalTaken``, R-12.3 "alone", also inside an independent major city);
- a woman whose marriage offer stands is married to the offering seat as soon as its
  army stands with her and no enemy CUs are there, except those of a seat that grants
  it free passage (``MarriageConcluded``, R-12.2).

Capture in battle and in a completed siege are explicit
(:mod:`pbem.rules.resolve.royals`): a controller who keeps units inside a major city
keeps its members until the siege of the city completes (R-12.3).
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.board import info
from pbem.rules.core.control import province_controller, royal_controller, seat_at, victory_points
from pbem.rules.core.pack import const, per_pack
from pbem.rules.core.pieces import inside_generals, outside_cus, wholly_inside
from pbem.rules.core.state import SEATS, State, standing_orders


def court(s: State) -> dict[str, Any]:
    """The ``court`` part of a state (read-only; empty before any royal event)."""
    return s.get("court") or {}


def in_play(s: State, royal: str) -> bool:
    """True when ``royal`` is on the map and not removed from play (R-12)."""
    r = s["royals"].get(royal) or {}
    return bool(r.get("space")) and not r.get("gone")


def is_held_inside(pack: Pack, s: State, royal: str) -> bool:
    """R-12.3 [D]: a member is inside a major city when its controller's units there are
    all inside (or it holds only the garrison): it is then taken only by a completed
    siege. Uncontrolled members are never inside (R-12.1)."""
    seat = royal_controller(pack, s, royal)
    x = (s["royals"].get(royal) or {}).get("space")
    if seat is None or x is None or pack.spaces[x].kind != "major_city":
        return False
    if wholly_inside(s, seat, x):
        return True
    return not outside_cus(s, seat, x) and not any(
        g["where"] == "map" and g["space"] == x and g["seat"] == seat
        for g in s["generals"].values()) and x not in s["minors"].get(seat, [])


def has_outside_army(s: State, seat: str, space: str) -> bool:
    """True when ``seat`` has an army in ``space`` outside any major city there: CUs and
    a major general not inside, or a minor general with its CUs (R-5, R-12.2)."""
    if not outside_cus(s, seat, space):
        return False
    ins = inside_generals(s, seat, space)
    return space in s["minors"].get(seat, []) or any(
        g["where"] == "map" and g["space"] == space and g["seat"] == seat and gid not in ins
        for gid, g in s["generals"].items())


def grants_passage(s: State, owner: str, seat: str, royal: str) -> bool:
    """R-12.2: ``owner`` grants ``seat`` free passage for the marriage of ``royal`` (seed
    002: "No debe haber Unidades de Combate enemigas en la ubicación, a menos que el
    jugador enemigo ha concedido el paso libre"): a standing order of ``owner``
    ``{when: free_passage, to: [seats], royal: [women]}`` names ``seat`` (or names no
    seat: every other seat) and ``royal`` (or no woman: all of them)."""
    return any(o.get("when") == "free_passage"
               and (not o.get("to") or seat in o["to"])
               and (not o.get("royal") or royal in o["royal"])
               for o in standing_orders(s, owner))


def enemy_cus_with(s: State, seat: str, space: str) -> list[str]:
    """The other seats with CUs in ``space`` (outside or inside a major city), sorted."""
    return sorted(o for o, c in s["cus"].get(space, {}).items() if o != seat and sum(c.values()))


def why_no_marriage(pack: Pack, s: State, seat: str, royal: str) -> str | None:
    """None when ``seat`` may marry ``royal`` now (R-12.2), else why: she is in play and
    controlled by nobody; ``seat``'s army stands with her, outside the major city (an
    inactive woman is always outside); no independent army is in her space, and no
    other seat's CUs unless that seat grants ``seat`` free passage
    (:func:`grants_passage`). The offer itself is checked by the caller."""
    r = s["royals"].get(royal) or {}
    name = pack.royals[royal].name
    if not in_play(s, royal):
        return f"{name} is not in play"
    x = r["space"]
    if royal_controller(pack, s, royal) not in (None, seat):
        return f"{name} is controlled by {royal_controller(pack, s, royal)}"
    if not has_outside_army(s, seat, x):
        return f"no army of {seat} stands with {name} in {pack.spaces[x].name}"
    if any(a.get("space") == x for a in s["indep_armies"].values()):
        return f"an independent army stands with {name} in {pack.spaces[x].name}"
    closed = [o for o in enemy_cus_with(s, seat, x) if not grants_passage(s, o, seat, royal)]
    if closed:
        return (f"enemy CUs stand with {name} in {pack.spaces[x].name} and "
                f"{', '.join(closed)} grants no free passage")
    return None


def passage_requests(pack: Pack, s: State, seat: str) -> list[dict[str, str]]:
    """R-12.2: the marriages ``seat``'s CUs alone forbid now, which a free-passage grant
    of ``seat`` would let take place: ``[{"to": the offering seat, "royal", "space"}]``
    for each standing, unmarried offer whose other conditions hold and that ``seat``
    does not grant yet (for the prompt and the bots)."""
    out = []
    for rid, offer in sorted((court(s).get("offers") or {}).items()):
        groom = offer["seat"]
        r = s["royals"].get(rid) or {}
        if offer["married"] or groom == seat or rid not in pack.royals \
                or royal_controller(pack, s, rid) is not None or not in_play(s, rid):
            continue
        x = r["space"]
        if seat not in enemy_cus_with(s, groom, x) or grants_passage(s, seat, groom, rid):
            continue
        opened = {**s, "private": {**(s.get("private") or {}), seat: {
            **((s.get("private") or {}).get(seat) or {}),
            "standing": [{"when": "free_passage", "to": [groom], "royal": [rid]}]}}}
        if why_no_marriage(pack, opened, groom, rid) is None:
            out.append({"to": groom, "royal": rid, "space": x})
    return out


def passage_from(s: State, seat: str, royal: str, space: str) -> list[str]:
    """The seats whose CUs stand in ``space`` and that grant ``seat`` free passage for
    ``royal`` (R-12.2): who let a marriage take place (``MarriageConcluded.passage``)."""
    return [o for o in enemy_cus_with(s, seat, space) if grants_passage(s, o, seat, royal)]


def why_no_burial(pack: Pack, s: State, seat: str, space: str | None = None) -> str | None:
    """None when ``seat`` may bury the body now (R-12.4), else why: from turn
    ``cart_ready_turn``; ``seat`` controls the body; it stands in a major city (in
    ``space`` when given) with a general of ``seat`` (its army won any battle there:
    a battle lost would have captured the body). The city need not be his."""
    body = s["royals"].get("body") or {}
    if (court(s).get("tomb") or body.get("gone")) or not body.get("space"):
        return "the body is no longer in play"
    ready = int(const(pack, "cart_ready_turn"))
    if s["turn"] < ready:
        return f"the body may be buried from turn {ready} on"
    if royal_controller(pack, s, "body") != seat:
        return "you do not control the body"
    x = body["space"]
    if pack.spaces[x].kind != "major_city":
        return f"the body is in {pack.spaces[x].name}, no major city"
    if space is not None and space != x:
        return f"the body is in {pack.spaces[x].name}, not in {pack.spaces[space].name}"
    if not any(g["where"] == "map" and g["space"] == x and g["seat"] == seat
               for g in s["generals"].values()) and x not in s["minors"].get(seat, []):
        return f"no general of yours stands with the body in {pack.spaces[x].name}"
    return None


def taker(pack: Pack, s: State, space: str) -> str | None:
    """The seat that takes an heir or the cart found alone in ``space`` (R-12.3): the
    only seat with a general, army, CU or garrison there; with several, the only one
    with units outside a major city; else None. Independent armies never control."""
    seats = seat_at(s, space)
    if len(seats) == 1:
        return next(iter(seats))
    out = [x for x in sorted(seats) if outside_cus(s, x, space) or any(
        g["where"] == "map" and g["space"] == space and g["seat"] == x
        and gid not in inside_generals(s, x, space) for gid, g in s["generals"].items())]
    return out[0] if len(out) == 1 else None


def seats_in(s: State, spaces: set[str]) -> dict[str, set[str]]:
    """``{space: seats with a general, minor general, CU or garrison there}`` for each of
    ``spaces`` (R-12.1; :func:`pbem.rules.core.control.seat_at` for many spaces at once)."""
    out: dict[str, set[str]] = {x: set() for x in spaces}
    for x in spaces:
        out[x] |= {seat for seat, cus in s["cus"].get(x, {}).items() if sum(cus.values())}
        if x in s["garrisons"]:
            out[x].add(s["garrisons"][x])
    for g in s["generals"].values():
        if g["where"] == "map" and g["space"] in out and g["seat"]:
            out[g["space"]].add(g["seat"])
    for seat, ms in s["minors"].items():
        for x in ms:
            if x in out:
                out[x].add(seat)
    return out


def royal_settlement(pack: Pack, s: State, spaces: tuple[str, ...] | None = None
                     ) -> tuple[str, dict[str, Any]] | None:
    """The next change of control the position calls for (see the module docstring), as
    ``(event kind, data)``, or None when control is settled. ``spaces``: look only at the
    members in these spaces (the others' spaces are known to be settled); None: all."""
    royals = s["royals"]
    if spaces is None:
        live = sorted(rid for rid, r in royals.items() if r.get("space") and not r.get("gone")
                      and "seat" in r and rid in pack.royals)
    else:  # the same members, the spaces' test first: most events are far from them all
        live = sorted(rid for rid, r in royals.items() if r.get("space") in spaces
                      and r["space"] and not r.get("gone") and "seat" in r and rid in pack.royals)
    if not live:
        return None
    offers = court(s).get("offers") or {}
    present = seats_in(s, {royals[rid]["space"] for rid in live})
    for rid in live:
        r = royals[rid]
        rm = pack.royals[rid]
        x, seat = r["space"], r["seat"]
        if seat is not None and seat not in present[x]:
            lost = {"royal": rid, "seat": seat, "space": x, "how": "left", "rule": "R-12.1"}
            return "RoyalControlLost", {**lost, "woman": True} if rm.kind == "woman" \
                else lost
        if seat is None and rm.kind in ("heir", "body") and present[x]:
            who = taker(pack, s, x)
            if who:
                return "RoyalTaken", {"royal": rid, "seat": who, "space": x,
                                      "how": "alone", "rule": "R-12.3"}
        offer = offers.get(rid)
        if seat is None and rm.kind == "woman" and offer and not offer["married"] \
                and why_no_marriage(pack, s, offer["seat"], rid) is None:
            passage = passage_from(s, offer["seat"], rid, x)
            return "MarriageConcluded", {"royal": rid, "seat": offer["seat"], "space": x,
                                         "card": offer["card"], "rule": "R-12.2",
                                         **({"passage": passage} if passage else {})}
    return None


_ALL_SEATS = frozenset(SEATS)


def vp_watch(s: State) -> tuple[dict, dict, dict] | None:
    """What a Champion's return depends on, before an event (R-11.4): the garrisons,
    fleets and capitals (R-1.4) when some seat is not a Champion, else None (nothing to
    watch). Each fleet's record is copied too: a reducer changes a record in place
    (``FleetUpgraded``, ``FleetDispersed``, ``FleetUpgradeLost``), and a copy sharing it
    would see no change (a seat losing the strongest fleet to another's upgrade would
    not be seen falling to 0 VP)."""
    if _ALL_SEATS <= set(s["champions"]):
        return None
    w = s.get("war") or {}
    return (dict(s["garrisons"]), {f: dict(r) for f, r in (w.get("fleets") or {}).items()},
            {"capitals": dict(w.get("capitals") or {}),
             "capitals_destroyed": dict(w.get("capitals_destroyed") or {})})


def champions_regained(pack: Pack, s: State, before: tuple[dict, dict, dict] | None
                       ) -> list[str]:
    """R-11.4: the seats that are not Champions and whose VP fell to 0 with the event
    just reduced (``before``: :func:`vp_watch` taken before it). Empty when no seat's
    VP changed: neither fleets nor capitals changed and no garrison whose seat VP read
    (:func:`_same_vp`); else VP are scored in full."""
    if before is None:
        return []
    garrisons, fleets, caps = before
    w = s.get("war") or {}
    now = w.get("fleets") or {}
    caps_now = {"capitals": dict(w.get("capitals") or {}),
                "capitals_destroyed": dict(w.get("capitals_destroyed") or {})}
    if fleets == now and caps == caps_now and _same_vp(pack, garrisons, s["garrisons"]):
        return []
    vp1 = victory_points(pack, s)
    zero = [x for x in SEATS if x not in s["champions"] and vp1[x] == 0]
    if not zero:
        return []
    old = {**s, "garrisons": garrisons, "war": {**w, "fleets": fleets, **caps}}
    vp0 = victory_points(pack, old)
    return [x for x in zero if vp0[x] > 0]


_VP_READS: dict[int, tuple[Pack, tuple[dict[str, tuple[str, ...]], frozenset[str]]]] = {}
"""``{id(pack): (pack, its _vp_reads)}`` (:func:`pbem.rules.core.pack.per_pack`)."""


def _vp_reads(pack: Pack) -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    """Which garrisons the VP (R-1.4, :func:`pbem.rules.core.control.victory_terms`)
    read: ``({space: the provinces whose control (R-3.2) counts its garrison}, the
    spaces whose garrison counts by itself)``. The provinces are only those whose
    controller matters to VP: a province with printed VP, one of the Lord of Asia's, a
    fleet's home (R-15); the spaces by themselves: the Hellespont's ports and the
    fleets' homes that are spaces. Kept per pack (it reads only the pack)."""
    return per_pack(_VP_READS, pack, _vp_reads_of)


def _vp_reads_of(pack: Pack) -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    """:func:`_vp_reads`, computed."""
    mi = info(pack)
    homes = {f.home for f in pack.fleets.values()}
    asia = set(const(pack, "lord_of_asia_provinces"))
    provs: dict[str, set[str]] = {}
    for prov, (spaces, majors) in mi.province_control.items():
        if pack.provinces[prov].vp or prov in asia or prov in homes:
            for x in (*spaces, *majors):
                provs.setdefault(x, set()).add(prov)
    direct = frozenset(mi.hellespont) | frozenset(h for h in homes if h not in pack.provinces)
    return {x: tuple(sorted(ps)) for x, ps in provs.items()}, direct


def _same_vp(pack: Pack, before: dict[str, str], garrisons: dict[str, str]) -> bool:
    """True when the garrisons changing from ``before`` to ``garrisons`` (the fleets'
    upgrades and the capitals unchanged) changed no seat's VP (R-1.4): no space that VP
    read by itself changed, and every province they read (:func:`_vp_reads`) with a
    changed space keeps its controller. Exact, not a guess: VP are a function of the
    provinces' controllers, those spaces' garrisons, the fleets' records and the
    capitals (:func:`pbem.rules.core.control.victory_terms`). Issue 27 item 5: this
    spares scoring the whole board after most board events."""
    if before == garrisons:  # most board events change no garrison
        return True
    changed = before.items() ^ garrisons.items()
    provs, direct = _vp_reads(pack)
    was = {"garrisons": before}
    now = {"garrisons": garrisons}
    seen: set[str] = set()
    for x, _ in changed:
        if x in direct:
            return False
        for prov in provs.get(x, ()):
            if prov not in seen:
                seen.add(prov)
                if province_controller(pack, was, prov) != province_controller(pack, now, prov):
                    return False
    return True
