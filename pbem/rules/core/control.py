"""Control of spaces and provinces, victory and legitimacy points, fleets' owners and
strength (R-3, R-1.4, R-11.1, R-12.1, R-15).

All functions read a working dict ``s`` (see :mod:`pbem.rules.core.state`) and the pack.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pbem.pack.model import Pack
from pbem.rules.core.board import info
from pbem.rules.core.pack import const
from pbem.rules.core.state import SEATS, State


def space_controller(s: State, space: str) -> str | None:
    """Seat whose garrison is in ``space``, ``"independent"`` for an independent marker,
    or None for a vacant space (R-3.2, R-3.3)."""
    if space in s["garrisons"]:
        return s["garrisons"][space]
    if space in s["independent"]:
        return "independent"
    return None


def province_controller(pack: Pack, s: State, province: str) -> str | None:
    """Seat controlling ``province``: a strict majority of its non-transit spaces,
    including its major city if it has one (R-3.2; "Media needs 5 garrisons incl.
    Ecbatana"). Returns None when nobody does (independent majorities control nothing)."""
    spaces, majors = info(pack).province_control.get(province, ((), ()))
    if not spaces:
        return None
    garrisons = s["garrisons"]
    counts: dict[str, int] = {}
    for x in spaces:
        c = garrisons.get(x)
        if c:
            counts[c] = counts.get(c, 0) + 1
    for seat, n in counts.items():
        if 2 * n > len(spaces) and all(garrisons.get(m) == seat for m in majors):
            return seat
    return None


def province_control(pack: Pack, s: State) -> dict[str, str | None]:
    """``{province_id: seat | None}`` for every province (R-3.2), the same as
    :func:`province_controller` of each, counted in one pass over the garrisons."""
    mi = info(pack)
    garrisons = s["garrisons"]
    out: dict[str, str | None] = dict.fromkeys(pack.provinces)
    counts: dict[tuple[str, str], int] = {}
    for x, seat in garrisons.items():
        prov = mi.counts_for.get(x)
        if prov in out and seat:
            counts[prov, seat] = counts.get((prov, seat), 0) + 1
    for (prov, seat), n in counts.items():
        spaces, majors = mi.province_control[prov]
        if 2 * n > len(spaces) and all(garrisons.get(m) == seat for m in majors):
            out[prov] = seat
    return out


@dataclass(frozen=True)
class Term:
    """One source of a seat's VP (R-1.4) or LP (R-11.1): its ``kind`` (a key of
    :data:`VP_KINDS` or :data:`LP_PARTS`), ``what`` it is about (a province, royal,
    general or space id, a card number; None for a title such as Champion), its
    ``value`` in points (negative for Condemnation or a card's malus) and the ``rule``
    that gives it. A seat's total is the sum of its terms (LP never below 0)."""

    kind: str
    what: str | int | None
    value: int
    rule: str


VP_KINDS = ("province", "lord_of_asia", "hellespont", "strongest_fleet", "capital",
            "capital_destroyed")
"""The sources of victory points (R-1.4), the kinds of :func:`victory_terms`."""


def capitals(s: State) -> dict[str, str]:
    """The capitals standing (R-1.4, game option ``capitals``): ``{space: seat}``."""
    return (s.get("war") or {}).get("capitals") or {}


def victory_terms(pack: Pack, s: State) -> dict[str, list[Term]]:
    """``{seat: [Term]}``, every source of each seat's VP (R-1.4), in the order of
    :data:`VP_KINDS`: each controlled province with printed VP (R-3.2), Lord of Asia
    (Phrygia, Syria and Babylonia together), the Hellespont (all its ports), the single
    strongest fleet (dispersed fleets count; a tie gives nobody); with the game option
    ``capitals`` (seed 001), ``capital_vp`` for the seat's capital while it stands
    (``what``: its space) and ``destroy_capital_vp`` for each enemy capital it destroyed.
    Values come from the pack."""
    ctrl = province_control(pack, s)
    terms: dict[str, list[Term]] = {seat: [] for seat in SEATS}
    for prov, seat in ctrl.items():
        if seat and pack.provinces[prov].vp:
            terms[seat].append(Term("province", prov, pack.provinces[prov].vp, "R-1.4"))
    asia = list(const(pack, "lord_of_asia_provinces"))
    owners = {ctrl.get(p) for p in asia}
    if len(owners) == 1 and None not in owners:
        terms[owners.pop()].append(Term("lord_of_asia", None, const(pack, "lord_of_asia_vp"), "R-1.4"))
    ports = info(pack).hellespont
    holders = {s["garrisons"].get(x) for x in ports}
    if ports and len(holders) == 1 and None not in holders:
        terms[holders.pop()].append(Term("hellespont", None, const(pack, "hellespont_vp"), "R-1.4"))
    best = strongest_fleet(pack, s, ctrl)
    if best is not None:
        terms[best].append(Term("strongest_fleet", None, const(pack, "strongest_fleet_vp"), "R-1.4"))
    for space, seat in sorted(capitals(s).items()):
        terms[seat].append(Term("capital", space, const(pack, "capital_vp"), "R-1.4"))
    for seat, n in sorted(((s.get("war") or {}).get("capitals_destroyed") or {}).items()):
        terms[seat].append(Term("capital_destroyed", None, n * const(pack, "destroy_capital_vp"),
                                "R-1.4"))
    return terms


def strongest_fleet(pack: Pack, s: State, ctrl: dict[str, str | None] | None = None) -> str | None:
    """The seat with the single strongest fleet total (R-1.4: at least the pack's
    minimum strength; a tie gives nobody), or None."""
    if not pack.fleets:
        return None
    strength = fleet_strengths(pack, s, ctrl)
    top = max(strength.values())
    best = [x for x in SEATS if strength[x] == top]
    return best[0] if len(best) == 1 and top >= const(pack, "strongest_fleet_min_strength") else None


def victory_points(pack: Pack, s: State) -> dict[str, int]:
    """VP per seat (R-1.4): the sum of its :func:`victory_terms`. Kept by the parts of
    the position they read (:func:`_vp_key`: the garrisons, the fleets' upgrades, the
    capitals), since the same position is scored again and again (after each board
    event for the Champions, R-11.4, and at each player-turn's end for victory, R-1.1);
    the answer is a new dict each time."""
    key = _vp_key(s)
    hit = _VP.get(key)
    if hit is not None and hit[0] is pack:
        return dict(hit[1])
    got = {seat: sum(t.value for t in ts) for seat, ts in victory_terms(pack, s).items()}
    if len(_VP) >= 512:  # a few MB at most (each key holds the garrisons)
        _VP.clear()
    _VP[key] = (pack, dict(got))
    return got


_VP: dict[tuple, tuple[Pack, dict[str, int]]] = {}


def _vp_key(s: State) -> tuple:
    """What :func:`victory_terms` reads of the position (R-1.4): the garrisons (province
    control, the Hellespont, the fleets' owners), each fleet's upgrade and its owner,
    the capitals standing and the capitals destroyed; with the pack's ``id`` the key of
    :data:`_VP`."""
    w = s.get("war") or {}
    fleets = w.get("fleets") or {}
    return (frozenset(s["garrisons"].items()),
            tuple(sorted((fid, f.get("upgrade", 0), f.get("owner")) for fid, f in fleets.items())),
            frozenset((w.get("capitals") or {}).items()),
            frozenset((w.get("capitals_destroyed") or {}).items()))


def fleet_owner(pack: Pack, s: State, fleet: str,
                ctrl: dict[str, str | None] | None = None) -> str | None:
    """R-15: a fleet belongs to whoever controls its home province (or, for a home that is
    a space such as Athenai, that space)."""
    home = pack.fleets[fleet].home
    if home in pack.provinces:
        return (ctrl or {}).get(home) if ctrl is not None else \
            province_controller(pack, s, home)
    owner = s["garrisons"].get(home)
    return owner


def fleet_strengths(pack: Pack, s: State, ctrl: dict[str, str | None] | None = None
                    ) -> dict[str, int]:
    """Total fleet strength per seat (R-1.4: strongest fleet, dispersed fleets count):
    printed strength plus the R-8.2 upgrade its owner made (lost on changing hands,
    R-15)."""
    out = {seat: 0 for seat in SEATS}
    for row in fleet_table(pack, s, ctrl).values():
        if row.seat in out:
            out[row.seat] += row.strength
    return out


@dataclass(frozen=True)
class FleetRow:
    """One fleet as the table of fleets shows it (R-15): the ``seat`` it belongs to (the
    controller of its ``home`` province or space; None: nobody's), its ``strength``
    (printed, plus the R-8.2 upgrade while the seat that made it owns it) and whether
    it is ``dispersed`` (in the dispersed box this turn [D]; it still counts for the
    strongest fleet, R-1.4)."""

    home: str
    seat: str | None
    strength: int
    dispersed: bool


def fleet_table(pack: Pack, s: State, ctrl: dict[str, str | None] | None = None
                ) -> dict[str, FleetRow]:
    """``{fleet id: FleetRow}`` for every fleet of the pack, in the pack's order (R-15,
    R-8.2); :func:`fleet_strengths` is its sum per seat."""
    kept = (s.get("war") or {}).get("fleets") or {}
    out = {}
    for fid, f in pack.fleets.items():
        owner = fleet_owner(pack, s, fid, ctrl)
        up = kept.get(fid) or {}
        bonus = int(up.get("upgrade", 0)) if owner and up.get("owner") == owner else 0
        out[fid] = FleetRow(f.home, owner, f.strength + bonus,
                            up.get("dispersed_turn") == s["turn"])
    return out


def seat_at(s: State, space: str | None) -> set[str]:
    """Seats with a general, minor general, CU or garrison in ``space`` (R-12.1)."""
    if space is None:
        return set()
    seats = {seat for seat, cus in s["cus"].get(space, {}).items() if sum(cus.values())}
    seats |= {g["seat"] for g in s["generals"].values()
              if g["where"] == "map" and g["space"] == space and g["seat"]}
    seats |= {seat for seat, sp in s["minors"].items() if space in sp}
    if space in s["garrisons"]:
        seats.add(s["garrisons"][space])
    return seats


def royal_controller(pack: Pack, s: State, royal: str) -> str | None:
    """Seat controlling a royal family member (R-12.1), or None: the ``seat`` its record
    holds (set and cleared only by events: capture, activation, marriage, control lost;
    :mod:`pbem.rules.core.royals`). A member off the map or gone is controlled by nobody.
    A record without ``seat`` (a snapshot older than the field) is read from the
    position: :func:`positional_controller`."""
    r = s["royals"].get(royal)
    if not r or r.get("gone") or not r.get("space"):
        return None
    if "seat" in r:
        return r["seat"]
    return positional_controller(pack, s, royal)


def positional_controller(pack: Pack, s: State, royal: str) -> str | None:
    """The seat the position alone gives a member (R-12.1): the only seat with a general,
    army, CU or garrison in its space; women only when active. Several seats present
    (inside/outside a major city) → the one with units, else the garrison [D]. Used for
    records without a stored controller and for members found alone (R-12.3)."""
    r = s["royals"][royal]
    if pack.royals[royal].kind == "woman" and not r["active"]:
        return None
    seats = seat_at(s, r["space"])
    if len(seats) == 1:
        return next(iter(seats))
    movers = seats - ({s["garrisons"].get(r["space"])} if len(seats) > 1 else set())
    return next(iter(movers)) if len(movers) == 1 else None


LP_PARTS = ("heir", "women", "strategos", "generals", "champion", "burial",
            "tomb_guardian", "cards", "condemnation", "adjust")
"""The sources of legitimacy (R-11.1), the keys of :func:`legitimacy_parts`."""


def counted_heir(pack: Pack, s: State, seat: str) -> str | None:
    """The heir whose LP ``seat`` counts (R-11.1: only one heir counts, the player's
    choice): the one named by its ``heir`` order (``court["heirs"]``) while it controls
    him, else the most valuable heir it controls (ties: by id); None without one."""
    mine = [r for r, rm in pack.royals.items() if rm.kind == "heir"
            and royal_controller(pack, s, r) == seat]
    chosen = ((s.get("court") or {}).get("heirs") or {}).get(seat)
    if chosen in mine:
        return chosen
    return min(mine, key=lambda r: (-pack.royals[r].lp, r), default=None)


def legitimacy_terms(pack: Pack, s: State) -> dict[str, list[Term]]:
    """``{seat: [Term]}``, every source of each seat's LP (R-11.1), kinds in the order
    of :data:`LP_PARTS`, only those that give something: the one counted heir
    (:func:`counted_heir`); every active woman it controls; Strategos of Europe
    (controls Macedonia); its generals' own LP (Perdiccas, Leonnatus: on the map or
    dispersed); Champion (R-11.4); the burial in Pella (R-12.4, for good) and the Tomb
    Guardian (whoever controls the city of a tomb elsewhere); card events of this turn
    or for the game (Suspicion, Eurydike, Funeral Games; one term per card);
    Condemnation on one of its major generals (R-16.1); ``lp_adjust``. The body gives
    nothing until buried."""
    terms: dict[str, list[Term]] = {seat: [] for seat in SEATS}
    for seat, kind, what, v, rule in _lp_sources(pack, s):
        terms[seat].append(Term(kind, what, v, rule))
    order = {k: i for i, k in enumerate(LP_PARTS)}
    return {seat: sorted(ts, key=lambda t: order[t.kind]) for seat, ts in terms.items()}


def _lp_sources(pack: Pack, s: State) -> Iterator[tuple[str, str, str | int | None, int, str]]:
    """The sources of :func:`legitimacy_terms` as ``(seat, kind, what, value, rule)``, in
    the order found (R-11.1), only those of a seat that give something: one pass shared
    by the terms and :func:`legitimacy_points` (which needs no :class:`Term` and no
    sorting; issue 27 item 5). The heirs' controllers are read once for every seat
    (:func:`counted_heir` of each seat, the same choice)."""
    court = s.get("court") or {}
    heirs: dict[str | None, list[str]] = {seat: [] for seat in SEATS}
    for r, rm in pack.royals.items():  # counted_heir's ``mine`` of every seat, in one pass
        if rm.kind == "heir":
            c = royal_controller(pack, s, r)
            if c in heirs:
                heirs[c].append(r)
    chosen_of = court.get("heirs") or {}
    for seat in SEATS:
        mine = heirs[seat]
        chosen = chosen_of.get(seat)
        heir = chosen if chosen in mine else \
            min(mine, key=lambda r: (-pack.royals[r].lp, r), default=None)
        if heir and pack.royals[heir].lp:
            yield seat, "heir", heir, pack.royals[heir].lp, "R-11.1"
    for rid, rm in pack.royals.items():
        if rm.kind == "woman" and (s["royals"].get(rid) or {}).get("active"):
            seat = royal_controller(pack, s, rid)
            if seat in SEATS and rm.lp:
                yield seat, "women", rid, rm.lp, "R-11.1"
    macedonia = const(pack, "macedonia_province")
    seat, v = province_controller(pack, s, macedonia), const(pack, "strategos_lp")
    if seat in SEATS and v:
        yield seat, "strategos", macedonia, v, "R-11.1"
    for gid, pg in pack.generals.items():  # the pack's order: a state read back from its snapshot orders its keys otherwise
        g = s["generals"].get(gid)
        if g and g["seat"] and g["where"] in ("map", "dispersed") and g["seat"] in SEATS \
                and pg.legitimacy:
            yield g["seat"], "generals", gid, pg.legitimacy, "R-11.1"
    for seat in s["champions"]:
        v = const(pack, "champion_lp")
        if seat in SEATS and v:
            yield seat, "champion", None, v, "R-11.4"
    tomb = court.get("tomb")
    if tomb and tomb.get("pella"):
        seat, v = tomb["seat"], const(pack, "burial_pella_lp")
        if seat in SEATS and v:
            yield seat, "burial", tomb["space"], v, "R-12.4"
    elif tomb:
        seat, v = s["garrisons"].get(tomb["space"]), const(pack, "tomb_guardian_lp")
        if seat in SEATS and v:
            yield seat, "tomb_guardian", tomb["space"], v, "R-12.4"
    cards: dict[tuple[str, int], int] = {}
    for a in court.get("lp_cards") or []:
        if a.get("turn") in (None, s["turn"]):
            key = (a["seat"], int(a["card"]))
            cards[key] = cards.get(key, 0) + int(a["amount"])
    for (seat, card), v in cards.items():
        if seat in SEATS and v:
            yield seat, "cards", card, v, "R-11.1"
    cond = court.get("condemned")
    g = s["generals"].get(cond["general"]) if cond else None
    if cond and g and g["seat"] and g["where"] in ("map", "dispersed"):
        seat, v = g["seat"], int(cond["lp"])
        if seat in SEATS and v:
            yield seat, "condemnation", cond["general"], v, "R-16.1"
    for seat, v in s["lp_adjust"].items():
        if seat in SEATS and v:
            yield seat, "adjust", None, v, "R-11.1"


def legitimacy_parts(pack: Pack, s: State) -> dict[str, dict[str, int]]:
    """``{seat: {source: LP}}``: :func:`legitimacy_terms` summed by kind (keys
    :data:`LP_PARTS`, only those that give the seat something)."""
    parts: dict[str, dict[str, int]] = {}
    for seat, ts in legitimacy_terms(pack, s).items():
        parts[seat] = {}
        for t in ts:
            parts[seat][t.kind] = parts[seat].get(t.kind, 0) + t.value
    return parts


def legitimacy_points(pack: Pack, s: State) -> dict[str, int]:
    """LP per seat (R-11.1): the sum of its :func:`legitimacy_terms`, never below 0
    (summed from their sources, :func:`_lp_sources`, without building the terms)."""
    total = dict.fromkeys(SEATS, 0)
    for seat, _kind, _what, v, _rule in _lp_sources(pack, s):
        total[seat] += v
    return {seat: max(0, v) for seat, v in total.items()}


def hostile_marker(s: State, seat: str, space: str) -> bool:
    """R-3.5: ``space`` holds an enemy garrison or an independent marker for ``seat``."""
    owner = s["garrisons"].get(space)
    return (owner is not None and owner != seat) or space in s["independent"]


def fleet_strength(pack: Pack, s: State, fleet: str) -> int:
    """Printed strength plus upgrades kept while the same seat owns it (R-15)."""
    f = ((s.get("war") or {}).get("fleets") or {}).get(fleet) or {}
    base = pack.fleets[fleet].strength
    if f.get("owner") and f["owner"] == fleet_owner(pack, s, fleet):
        return base + int(f.get("upgrade", 0))
    return base


def fleet_ready(s: State, fleet: str) -> bool:
    """False while a fleet dispersed this turn is in the dispersed box [D]."""
    f = ((s.get("war") or {}).get("fleets") or {}).get(fleet) or {}
    return f.get("dispersed_turn") != s["turn"]


def fleet_strength_cap(pack: Pack) -> int:
    """R-8.2 [D]: the most a fleet may be upgraded to, the largest strength column of the
    pack's ``naval`` chart (``"6+"`` → 6): a stronger fleet would read the same column.
    Raises KeyError when the pack has no naval chart."""
    best = 0
    for label in pack.charts["naval"].columns:
        text = str(label).strip().rstrip("+")
        top = text.rsplit("-", 1)[-1] if "-" in text[1:] else text
        if top.isdigit():
            best = max(best, int(top))
    return best


def why_no_fleet_upgrade(pack: Pack, s: State, seat: str, fleet: str) -> str | None:
    """None when ``seat`` may upgrade ``fleet`` now (R-8.2: a fleet he controls, R-15),
    else the reason: another owner, or the fleet is already at
    :func:`fleet_strength_cap`."""
    f = pack.fleets[fleet]
    owner = fleet_owner(pack, s, fleet)
    if owner != seat:
        home = pack.provinces[f.home].name if f.home in pack.provinces else \
            pack.spaces[f.home].name if f.home in pack.spaces else f.home
        return (f"the {f.name} belongs to {owner or 'nobody'}: a fleet belongs to whoever "
                f"controls {home}")
    cap = fleet_strength_cap(pack)
    if fleet_strength(pack, s, fleet) >= cap:
        return f"the {f.name} is already at strength {cap}, the largest the naval table reads"
    return None


def upgradable_fleets(pack: Pack, s: State, seat: str) -> list[str]:
    """Fleet ids ``seat`` may upgrade with a Tyche card now (R-8.2): those for which
    :func:`why_no_fleet_upgrade` finds no reason (tested here without its messages)."""
    if "naval" not in pack.charts:
        return []
    mine = [f for f in sorted(pack.fleets) if fleet_owner(pack, s, f) == seat]
    if not mine:
        return []
    cap = fleet_strength_cap(pack)
    return [f for f in mine if fleet_strength(pack, s, f) < cap]


def has_upgrades(s: State) -> bool:
    """True when some fleet carries an upgrade (R-8.2)."""
    return any(f.get("upgrade") for f in ((s.get("war") or {}).get("fleets") or {}).values())


def fleets_of(pack: Pack, s: State, seat: str, ready_only: bool = True) -> list[str]:
    """Fleet ids owned by ``seat`` (only those not dispersed this turn by default)."""
    return sorted(f for f in pack.fleets if fleet_owner(pack, s, f) == seat
                  and (fleet_ready(s, f) or not ready_only))
