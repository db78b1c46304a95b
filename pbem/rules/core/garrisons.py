"""Where a garrison may be placed with a Tyche card (R-8.3): hostile spaces, the range
counted from the player's CUs and garrisons, the middle-space rule, and the reason a
space is refused. Used by the Tyche segment's ``garrisons`` use and by card events that
place garrisons (#34 Satrapies Redistributed, :mod:`pbem.rules.cards.markers`).
"""
from __future__ import annotations

from pbem.pack.model import Pack
from pbem.plural import count
from pbem.rules.core.board import distances, info, reachable
from pbem.rules.core.names import indep_name
from pbem.rules.core.pack import const
from pbem.rules.core.state import State


def garrison_blocked(s: State, seat: str, space: str, pack: Pack | None = None) -> str | None:
    """Why ``space`` holds something hostile for ``seat`` (R-8.3), or None: enemy
    garrison, independent marker, enemy CUs or an independent army (by its printed name
    with ``pack``)."""
    owner = s["garrisons"].get(space)
    if owner and owner != seat:
        return f"{owner}'s garrison"
    if space in s["independent"]:
        return "an independent marker"
    for other, cus in s["cus"].get(space, {}).items():
        if other != seat and sum(cus.values()):
            return f"{other}'s CUs"
    for aid, a in s["indep_armies"].items():
        if a["space"] == space:
            return indep_name(pack, aid) if pack is not None else "an independent army"
    return None


def garrison_sources(s: State, seat: str) -> set[str]:
    """Spaces with ``seat``'s CUs or garrison (R-8.3 range is counted from these)."""
    src = {x for x, o in s["garrisons"].items() if o == seat}
    src.update(x for x, by in s["cus"].items() if seat in by and any(by[seat].values()))
    return src


def garrison_costs(pack: Pack) -> dict[str, int]:
    """MP costs used for the 2-MP range: land and mountain/strait paths only [D]."""
    costs = const(pack, "path_mp_cost")
    return {k: int(costs[k]) for k in ("land", "mountain_strait") if k in costs}


def _hostile_spaces(s: State, seat: str) -> set[str]:
    out = {x for x, o in s["garrisons"].items() if o != seat}
    out |= set(s["independent"])
    out.update(x for x, by in s["cus"].items() for o, c in by.items()
               if o != seat and any(c.values()))
    out |= {a["space"] for a in s["indep_armies"].values() if a["space"]}
    return out


def legal_garrison_spaces(pack: Pack, s: State, seat: str, mps: int | None = None
                          ) -> set[str]:
    """Spaces where ``seat`` may place a Tyche garrison now (R-8.3): not on transit
    points; not where an enemy garrison, independent marker, enemy CUs or independent
    army is, nor on his own garrison; within ``mps`` (default ``garrison_range_mps``) of
    his CU or garrison that existed before the segment (call this before placing); at
    the range's far end the middle space holding nothing hostile."""
    hostile = _hostile_spaces(s, seat)
    rng = const(pack, "garrison_range_mps") if mps is None else mps
    ok = reachable(pack, garrison_sources(s, seat), rng, garrison_costs(pack),
                   blocked_middle=hostile)
    own = {x for x, o in s["garrisons"].items() if o == seat}
    return ok - info(pack).transit - hostile - own


def any_legal_garrison_space(pack: Pack, s: State, seat: str) -> bool:
    """``bool(legal_garrison_spaces(pack, s, seat))`` (R-8.3, the default range), exactly,
    stopping at the first legal space (issue 27 item 5: a Tyche card's ``uses`` need
    only whether one exists). Looked for first among the spaces with the seat's CUs
    (range sources, 0 MPs away), then one path away from a source (within range, no
    middle space to block it), each tested alone for something hostile; only when none
    is legal are all the spaces within range computed."""
    rng, costs = const(pack, "garrison_range_mps"), garrison_costs(pack)  # raise as the list does
    garrisons = s["garrisons"]
    transit = info(pack).transit

    def legal(x: str) -> bool:
        return x not in transit and x not in garrisons and not _hostile_at(s, seat, x)

    sources = garrison_sources(s, seat)
    for x in sources:
        if legal(x):
            return True
    adjacent = info(pack).adjacent
    for x in sources:
        for y, kind in adjacent.get(x, ()):
            c = costs.get(kind)
            if c is not None and c <= rng and legal(y):
                return True
    hostile = _hostile_spaces(s, seat)
    ok = reachable(pack, sources, rng, costs, blocked_middle=hostile)
    return any(x not in hostile and x not in transit and garrisons.get(x) != seat for x in ok)


def _hostile_at(s: State, seat: str, x: str) -> bool:
    """``x in _hostile_spaces(s, seat)``, for one space."""
    if x in s["garrisons"] and s["garrisons"][x] != seat:
        return True
    if x in s["independent"]:
        return True
    for other, c in s["cus"].get(x, {}).items():
        if other != seat and any(c.values()):
            return True
    return any(a["space"] == x for a in s["indep_armies"].values() if a["space"])


def why_not_garrison(pack: Pack, s: State, seat: str, x: str, mps: int | None = None
                     ) -> str | None:
    """None when :func:`legal_garrison_spaces` (within ``mps``) holds ``x``, else a
    message naming the space and the reason (R-8.3)."""
    if x in legal_garrison_spaces(pack, s, seat, mps):
        return None
    rng = const(pack, "garrison_range_mps") if mps is None else mps
    name = pack.spaces[x].name
    if pack.spaces[x].kind == "transit":
        return f"{name} is a transit point; garrisons never go on transit points"
    if s["garrisons"].get(x) == seat:
        return f"{name} already holds your garrison"
    why = garrison_blocked(s, seat, x, pack)
    if why:
        return f"{name} holds {why}; garrisons go only where there is none"
    far = distances(pack, garrison_sources(s, seat), 99, garrison_costs(pack))
    if x in far and far[x] <= rng:
        return (f"{name} is {count(far[x], 'MP')} away only through a space holding an enemy "
                f"garrison, enemy CUs, an independent army or marker")
    if x in far:
        return f"{name} is {count(far[x], 'MP')} from your nearest garrison or CU; garrisons go " \
               f"within {rng}"
    return f"{name} cannot be reached by land from your garrisons or CUs"


def garrison_targets(pack: Pack, s: State, seat: str) -> dict[str, str | None]:
    """Every space mapped to None when legal for a Tyche garrison, else the reason
    (see :func:`why_not_garrison`; slow: for tests and explanations)."""
    return {x: why_not_garrison(pack, s, seat, x) for x in pack.spaces}
