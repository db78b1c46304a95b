"""Graph helpers over the map of a :class:`~pbem.pack.model.Pack` (R-3.1, R-8.3, R-9.1).

The map is an undirected multigraph: spaces are nodes, paths are edges of one of four
kinds (``land``, ``sea``, ``mountain_strait``, ``trans_med``). MP costs per kind come
from the pack's ``path_mp_cost`` constant, never from code.

This module sits below :mod:`pbem.pack.model` (whose ``Pack.neighbours`` and friends call
it): it reads a pack only through the two small protocols :class:`MapPath` and
:class:`Map`, which :class:`~pbem.pack.model.Path` and :class:`~pbem.pack.model.Pack`
satisfy, so it never imports the model back.
"""
from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from typing import Any, Protocol


class MapPath(Protocol):
    """What the graph reads of a path (:class:`pbem.pack.model.Path`): its two space ids
    and its kind."""

    @property
    def a(self) -> str: ...
    @property
    def b(self) -> str: ...
    @property
    def kind(self) -> str: ...


class Map(Protocol):
    """What the graph reads of a pack (:class:`pbem.pack.model.Pack`): its spaces by id,
    its paths, its precomputed adjacency (may be empty) and its constants
    (``path_mp_cost``)."""

    @property
    def spaces(self) -> Mapping[str, Any]: ...
    @property
    def paths(self) -> tuple[Any, ...]: ...
    @property
    def adjacency(self) -> Mapping[str, tuple[tuple[str, str], ...]]: ...
    @property
    def constants(self) -> Mapping[str, Any]: ...


LAND_KINDS: frozenset[str] = frozenset({"land", "mountain_strait"})
"""Path kinds an army may follow by land (R-9.1) and an isolation trace may use (R-13)."""


def build_adjacency(
    space_ids: Iterable[str], paths: Iterable[MapPath]
) -> dict[str, tuple[tuple[str, str], ...]]:
    """Return ``space id -> ((neighbour id, path kind), ...)`` for every space in
    ``space_ids`` (spaces without paths map to ``()``). Paths naming unknown spaces are
    ignored (the loader reports them)."""
    adj: dict[str, list[tuple[str, str]]] = {s: [] for s in space_ids}
    for p in paths:
        if p.a in adj and p.b in adj:
            adj[p.a].append((p.b, p.kind))
            adj[p.b].append((p.a, p.kind))
    return {k: tuple(v) for k, v in adj.items()}


def _adjacency(pack: Map) -> Mapping[str, tuple[tuple[str, str], ...]]:
    if pack.adjacency:
        return pack.adjacency
    return build_adjacency(pack.spaces, pack.paths)


def neighbours(pack: Map, space: str) -> list[tuple[str, str]]:
    """``[(space_id, path_kind), ...]`` for every path leaving ``space`` (R-3.1).

    Raises ``KeyError`` if ``space`` is not a space of the pack."""
    adj = _adjacency(pack)
    if space not in adj:
        raise KeyError(f"unknown space {space!r}")
    return list(adj[space])


def mp_cost(pack: Map, kind: str) -> int | None:
    """MPs to follow one path of ``kind`` (R-9.1): from ``constants.path_mp_cost``; None
    means the path takes the army's whole movement allowance (trans-Mediterranean).

    Raises ``KeyError`` for an unknown path kind."""
    costs = pack.constants["path_mp_cost"]
    if kind not in costs:
        raise KeyError(f"unknown path kind {kind!r}")
    return costs[kind]


def distances(
    pack: Map, start: str, kinds: frozenset[str] = LAND_KINDS, limit: int | None = None
) -> dict[str, int]:
    """Fewest MPs from ``start`` to every space reachable over paths of ``kinds``
    (Dijkstra with :func:`mp_cost`; paths costing None are skipped). With ``limit`` only
    spaces at most ``limit`` MPs away are returned. ``start`` itself is at 0.

    Raises ``KeyError`` for an unknown ``start``."""
    adj = _adjacency(pack)
    if start not in adj:
        raise KeyError(f"unknown space {start!r}")
    best: dict[str, int] = {start: 0}
    heap: list[tuple[int, str]] = [(0, start)]
    while heap:
        d, here = heapq.heappop(heap)
        if d > best.get(here, d):
            continue
        for there, kind in adj[here]:
            if kind not in kinds:
                continue
            cost = mp_cost(pack, kind)
            if cost is None:
                continue
            nd = d + cost
            if limit is not None and nd > limit:
                continue
            if nd < best.get(there, nd + 1):
                best[there] = nd
                heapq.heappush(heap, (nd, there))
    return best


def land_distance(pack: Map, a: str, b: str) -> int | None:
    """Fewest MPs from ``a`` to ``b`` over land and mountain/strait paths (R-8.3,
    R-9.1), or None if ``b`` cannot be reached by land. Raises ``KeyError`` for unknown
    spaces."""
    if b not in pack.spaces:
        raise KeyError(f"unknown space {b!r}")
    return distances(pack, a).get(b)


def components(
    space_ids: Iterable[str], adjacency: Mapping[str, Iterable[tuple[str, str]]],
    kinds: frozenset[str] | None = None,
) -> list[set[str]]:
    """Connected components of the map (all path kinds, or only ``kinds``), largest
    first."""
    todo = set(space_ids)
    out: list[set[str]] = []
    while todo:
        seed = todo.pop()
        comp = {seed}
        stack = [seed]
        while stack:
            here = stack.pop()
            for there, kind in adjacency.get(here, ()):
                if kinds is not None and kind not in kinds:
                    continue
                if there not in comp:
                    comp.add(there)
                    todo.discard(there)
                    stack.append(there)
        out.append(comp)
    out.sort(key=len, reverse=True)
    return out


def is_connected(pack: Map) -> bool:
    """True when every space can reach every other over paths of any kind (R-3.1)."""
    return len(components(pack.spaces, _adjacency(pack))) <= 1
