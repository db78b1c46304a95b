"""Derived, cached facts about a pack's map: adjacency, spaces per province, name lookup.

Pure functions of the pack (R-3.1); cached per pack object.
"""
from __future__ import annotations

import difflib
import heapq
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.state import Rejection

_CACHE: dict[int, tuple[Pack, MapInfo]] = {}


@dataclass(frozen=True)
class MapInfo:
    """``adjacent[space] -> ((other, path_kind), ...)``; ``province_spaces[province] ->
    (space ids)``; ``names`` maps lower-cased ids and names to space ids."""

    adjacent: dict[str, tuple[tuple[str, str], ...]]
    province_spaces: dict[str, tuple[str, ...]]
    names: dict[str, str]


def info(pack: Pack) -> MapInfo:
    """Return the (cached) :class:`MapInfo` of ``pack``."""
    hit = _CACHE.get(id(pack))
    if hit is not None and hit[0] is pack:
        return hit[1]
    adj: dict[str, list[tuple[str, str]]] = {s: [] for s in pack.spaces}
    for p in pack.paths:
        adj.setdefault(p.a, []).append((p.b, p.kind))
        adj.setdefault(p.b, []).append((p.a, p.kind))
    prov: dict[str, list[str]] = {p: [] for p in pack.provinces}
    names: dict[str, str] = {}
    for sid, sp in pack.spaces.items():
        prov.setdefault(sp.province, []).append(sid)
        names[sid.lower()] = sid
        names[sp.name.lower()] = sid
        names[sp.name.lower().replace(" ", "_")] = sid
    mi = MapInfo({k: tuple(sorted(v)) for k, v in adj.items()},
                 {k: tuple(sorted(v)) for k, v in prov.items()}, names)
    _CACHE[id(pack)] = (pack, mi)
    return mi


def resolve_space(pack: Pack, text: object) -> tuple[str | None, str | None]:
    """Resolve a space given by id or name (case-insensitive).

    Returns ``(space_id, None)`` or ``(None, hint)`` where ``hint`` is ``"did you mean
    X?"`` for a near miss (or None).
    """
    if not isinstance(text, str):
        return None, None
    mi = info(pack)
    key = " ".join(text.strip().lower().split())
    sid = mi.names.get(key) or mi.names.get(key.replace(" ", "_"))
    if sid:
        return sid, None
    close = difflib.get_close_matches(key, list(mi.names), n=1, cutoff=0.6)
    if close:
        return None, f"did you mean {pack.spaces[mi.names[close[0]]].name}?"
    return None, None


def distances(pack: Pack, sources: set[str], limit: int, costs: dict[str, int],
              blocked_middle: set[str] | None = None) -> dict[str, int]:
    """MP distance from any of ``sources`` to each space within ``limit`` MPs, moving
    along path kinds present in ``costs`` (kind -> MP cost). Spaces in ``blocked_middle``
    may be reached but not passed through (R-8.3 middle-space restriction).
    """
    mi = info(pack)
    blocked = blocked_middle or set()
    best: dict[str, int] = {s: 0 for s in sources}
    heap = [(0, s) for s in sorted(sources)]
    heapq.heapify(heap)
    while heap:
        d, s = heapq.heappop(heap)
        if d > best.get(s, 1 << 30):
            continue
        if d > 0 and s in blocked:
            continue
        for other, kind in mi.adjacent.get(s, ()):
            c = costs.get(kind)
            if c is None:
                continue
            nd = d + c
            if nd <= limit and nd < best.get(other, 1 << 30):
                best[other] = nd
                heapq.heappush(heap, (nd, other))
    return best


def resolve_id(entries: Mapping[str, Any], text: object) -> str | None:
    """The id of a pack entry (generals, royals, fleets, ...) given by its id or its
    printed name, case-insensitive, spaces or underscores alike; None when no entry
    matches or ``text`` is not a string (orders name things as players read them, R-8)."""
    if not isinstance(text, str):
        return None
    key = text.strip().lower()
    return next((k for k, v in entries.items()
                 if key in (k, v.name.lower(), v.name.lower().replace(" ", "_"))), None)


def space_or_reject(pack: Pack, text: object, where: str, rej: list[Rejection]) -> str | None:
    """The space id named by ``text`` (:func:`resolve_space`), or None after appending
    an ``orders.unknown_space`` Rejection at ``where`` with the "did you mean" hint
    (R-3.1)."""
    sid, hint = resolve_space(pack, text)
    if sid is None:
        rej.append(Rejection("orders.unknown_space", "R-3.1",
                             f"there is no space {text!r} (R-3.1)", where, hint))
    return sid
