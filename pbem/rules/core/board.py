"""The map (R-3.1, R-3.4, R-9.1): adjacency, distances, path kinds and costs, areas,
provinces, and names as players write them.

Pure functions of the pack; :func:`info` is cached per pack object.
"""
from __future__ import annotations

import difflib
import heapq
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.mail.suggest import did_you_mean as near_miss
from pbem.pack import names as pack_names
from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.core.pack import const, per_pack
from pbem.rules.core.problems import reject

_CACHE: dict[int, tuple[Pack, MapInfo]] = {}


@dataclass(frozen=True)
class MapInfo:
    """``adjacent[space] -> ((other, path_kind), ...)``; ``province_spaces[province] ->
    (space ids)``; ``names`` maps lower-cased ids and names to space ids;
    ``province_control[province] -> (non-transit space ids, major city ids among them)``,
    the spaces that count for control; ``order[space] -> its index in the pack``
    (to list a few spaces in the pack's order without walking every space);
    ``counts_for[space] -> province`` for each space that counts for control;
    ``hellespont``: the Hellespont spaces (R-1.4), in the pack's order; ``transit``:
    the transit points."""

    adjacent: dict[str, tuple[tuple[str, str], ...]]
    province_spaces: dict[str, tuple[str, ...]]
    names: dict[str, str]
    province_control: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]
    order: dict[str, int]
    counts_for: dict[str, str]
    hellespont: tuple[str, ...]
    transit: frozenset[str]


def info(pack: Pack) -> MapInfo:
    """Return the (cached) :class:`MapInfo` of ``pack``."""
    return per_pack(_CACHE, pack, _map_info)


def _map_info(pack: Pack) -> MapInfo:
    """The :class:`MapInfo` of ``pack``, computed (:func:`info` keeps it)."""
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
    spaces = {k: tuple(sorted(v)) for k, v in prov.items()}
    counted = {k: tuple(x for x in v if pack.spaces[x].kind != "transit") for k, v in spaces.items()}
    mi = MapInfo({k: tuple(sorted(v)) for k, v in adj.items()}, spaces, names,
                 {k: (v, tuple(x for x in v if pack.spaces[x].kind == "major_city"))
                  for k, v in counted.items()},
                 {sid: i for i, sid in enumerate(pack.spaces)},
                 {x: k for k, v in counted.items() for x in v},
                 tuple(x for x, sp in pack.spaces.items() if sp.hellespont),
                 frozenset(x for x, sp in pack.spaces.items() if sp.kind == "transit"))
    return mi


SPACE_CUTOFF = 0.75
"""The least :class:`difflib.SequenceMatcher` ratio for a misspelled space name to be
offered or read as a space (issue 24 N4: at 0.6, ``Ascalon`` was offered Calydon and
``Joppa`` Borsippa; real slips such as ``Pergamon``, ``Byzantion``, ``Sardes`` score
0.75 or more)."""


def resolve_space(pack: Pack, text: object) -> tuple[str | None, str | None]:
    """Resolve a space given by id or name (case-insensitive).

    Returns ``(space_id, None)`` or ``(None, hint)`` where ``hint`` is ``"did you mean
    X?"`` for a near miss (or None).
    """
    if not isinstance(text, str):
        return None, None
    mi = info(pack)
    key = " ".join(text.strip().lower().split())
    sid = mi.names.get(key) or mi.names.get(key.replace(" ", "_")) or pack_names.lookup(pack, "spaces", text)
    if sid:  # a name in any of the pack's languages too, accents aside (issue 28)
        return sid, None
    names = {**pack_names.every_name(pack, "spaces"), **mi.names}  # every language's names too (issue 28)
    close = difflib.get_close_matches(key, list(names), n=1, cutoff=SPACE_CUTOFF)
    if close:
        return None, f"did you mean {pack.spaces[names[close[0]]].name}?"
    return None, None


def closest_space(pack: Pack, text: object) -> str | None:
    """The one space a misspelled ``text`` is close to (issue 24.7a), or None when it is
    close to none or to more than one: the spaces among the close matches of
    :func:`resolve_space`'s "did you mean" (names and ids, case ignored) that are
    nearly as close as the best one."""
    return closest_name(text, info(pack).names, SPACE_CUTOFF)


def closest_name(text: object, names: Mapping[str, str], cutoff: float = 0.6) -> str | None:
    """The one id that ``names`` (lower-case name or id → id) holds for the names a
    misspelled ``text`` is close to (difflib ratio ``cutoff`` or more, case ignored,
    within 0.05 of the best), or None when it is close to none or to more than one id."""
    if not isinstance(text, str):
        return None
    key = " ".join(text.strip().lower().split())
    scored = sorted(((difflib.SequenceMatcher(None, key, n).ratio(), sid) for n, sid in names.items()),
                    reverse=True)
    if not scored or scored[0][0] < cutoff:
        return None
    best = {sid for r, sid in scored if r >= scored[0][0] - 0.05}
    return best.pop() if len(best) == 1 else None


def distances(pack: Pack, sources: set[str], limit: int, costs: dict[str, int],
              blocked_middle: set[str] | None = None) -> dict[str, int]:
    """MP distance from any of ``sources`` to each space within ``limit`` MPs, moving
    along path kinds present in ``costs`` (kind -> MP cost). Spaces in ``blocked_middle``
    may be reached but not passed through (R-8.3 middle-space restriction).
    """
    adjacent = info(pack).adjacent
    blocked = blocked_middle or set()
    best: dict[str, int] = {s: 0 for s in sources}
    heap = [(0, s) for s in sorted(sources)]
    heapq.heapify(heap)
    pop, push, far, cost_of, get = heapq.heappop, heapq.heappush, 1 << 30, costs.get, best.get
    while heap:
        d, s = pop(heap)
        if d > get(s, far) or (d > 0 and s in blocked):
            continue
        for other, kind in adjacent.get(s, ()):
            c = cost_of(kind)
            if c is None:
                continue
            nd = d + c
            if nd <= limit and nd < get(other, far):
                best[other] = nd
                push(heap, (nd, other))
    return best


_REACH: dict[tuple[int, int, tuple[tuple[str, int], ...]],
             tuple[Pack, dict[str, tuple[tuple[str, str | None], ...]]]] = {}


def reachable(pack: Pack, sources: set[str], limit: int, costs: dict[str, int],
              blocked_middle: set[str] | None = None) -> set[str]:
    """The spaces :func:`distances` reaches (its keys), without their distances: from
    any of ``sources`` within ``limit`` MPs along the path kinds of ``costs``, not
    passing through a space of ``blocked_middle`` (R-8.3). When no path of three steps
    fits in ``limit`` (the garrison range, R-8.3: 2 MPs, steps of at least 1), each
    space's paths of one and two steps are read from a table made once per pack, limit
    and costs (the map never changes); otherwise :func:`distances` is asked."""
    least = min(costs.values(), default=0)
    if least <= 0 or 3 * least <= limit:
        return set(distances(pack, sources, limit, costs, blocked_middle))
    key = (id(pack), limit, tuple(sorted(costs.items())))
    hit = _REACH.get(key)
    if hit is None or hit[0] is not pack:
        hit = (pack, _reach_table(pack, limit, costs))
        _REACH[key] = hit
    table = hit[1]
    blocked = blocked_middle or ()
    out = set(sources)
    for src in sources:
        for dest, via in table.get(src, ()):
            if via is None or via not in blocked:
                out.add(dest)
    return out


def _reach_table(pack: Pack, limit: int, costs: dict[str, int]
                 ) -> dict[str, tuple[tuple[str, str | None], ...]]:
    """``{space: ((dest, via), ...)}``: every path of one step (``via`` None) or two
    steps (``via`` the middle space) from ``space`` costing at most ``limit`` MPs along
    the path kinds of ``costs`` (for :func:`reachable`)."""
    adjacent = info(pack).adjacent
    out: dict[str, tuple[tuple[str, str | None], ...]] = {}
    for src in adjacent:
        paths: list[tuple[str, str | None]] = []
        for mid, kind in adjacent[src]:
            c = costs.get(kind)
            if c is None or c > limit:
                continue
            paths.append((mid, None))
            for dest, kind2 in adjacent.get(mid, ()):
                c2 = costs.get(kind2)
                if c2 is not None and c + c2 <= limit:
                    paths.append((dest, mid))
        out[src] = tuple(dict.fromkeys(paths))
    return out


def resolve_id(entries: Mapping[str, Any], text: object) -> str | None:
    """The id of a pack entry (generals, royals, fleets, ...) given by its id or its
    printed name, case-insensitive, spaces or underscores alike; None when no entry
    matches or ``text`` is not a string (orders name things as players read them, R-8)."""
    if not isinstance(text, str):
        return None
    key = text.strip().lower()
    return next((k for k, v in entries.items()
                 if key in (k, v.name.lower(), v.name.lower().replace(" ", "_"))), None)


def name_hint(text: object, *tables: Mapping[str, Any], words: tuple[str, ...] = (),
              otherwise: str | None = None, pack: Pack | None = None) -> str | None:
    """The hint ``"did you mean X?"`` for a name a player got wrong (issue 24): ``X`` the
    printed name, among the entries of ``tables`` (generals, royals, fleets, spaces,
    cards: each found by its id or its name, shown by its name; a card as ``#12 Name``)
    and ``words`` (seats, CU types), nearest to ``text``; else ``otherwise``. With
    ``pack``, an entry of the pack is found by its name in any of the pack's languages
    too, and still shown by its canonical name (issue 28: ``Лисимах`` misspelt finds
    Lysimachus). R-8: orders name things as players read them."""
    shown: dict[str, str] = {}
    sections = _sections_of(pack, tables) if pack is not None else {}
    for table in tables:
        for key, entry in table.items():
            name = getattr(entry, "name", str(key))
            label = f"#{key} {name}" if isinstance(key, int) else name
            others = pack_names.names_in_every_language(pack, sections[id(entry)], key) \
                if pack is not None and id(entry) in sections else ()
            for alias in (name, str(key), label, *others):
                shown.setdefault(alias, label)
    for w in words:
        shown.setdefault(w, w)
    hint = near_miss(text, list(shown)) if isinstance(text, (str, int)) and shown else None
    if hint is None:
        return otherwise
    return f"did you mean {shown[hint.removeprefix('did you mean ').removesuffix('?')]}?"


def _sections_of(pack: Pack, tables: tuple[Mapping[str, Any], ...]) -> dict[int, str]:
    """The pack section of each entry of ``tables`` that is one of ``pack``'s own (by
    identity: a table may be a part of one, ``{g: pack.generals[g] ...}``)."""
    wanted = {id(e) for table in tables for e in table.values()}
    out: dict[int, str] = {}
    for section in pack_names.SECTIONS:
        for entry in getattr(pack, section).values():
            if id(entry) in wanted:
                out[id(entry)] = section
    return out


def space_or_reject(pack: Pack, text: object, where: str, rej: list[Problem]) -> str | None:
    """The space id named by ``text`` (:func:`resolve_space`), or None after appending
    an ``orders.unknown_space`` Problem at ``where`` with the "did you mean" hint
    (R-3.1)."""
    sid, hint = resolve_space(pack, text)
    if sid is None:
        reject(rej, "orders.unknown_space", f"there is no space {text!r}", where, hint)
    return sid


_GENERAL_NAMES: dict[int, tuple[Pack, dict[str, str | None]]] = {}
"""Per pack object (by id, the pack kept to tell a reused id): the answers of
:func:`resolve_general` by text (issue 27 item 5: every move of every check named its
army, a scan of the generals each time)."""

_GENERAL_NAMES_MAX = 4096
"""The most texts remembered per pack (:func:`_pack_memo`)."""


def resolve_general(pack: Pack, text: Any) -> str | None:
    """General id from an id or a name (case-insensitive; in any of the pack's
    languages, accents aside: :func:`pbem.pack.names.lookup`), else None (R-5).
    Remembered per pack and text (:data:`_GENERAL_NAMES`): exact, as the answer reads
    only the pack (frozen) and the text."""
    if not isinstance(text, str):
        return None
    memo = _pack_memo(_GENERAL_NAMES, pack, _GENERAL_NAMES_MAX)
    if text in memo:
        return memo[text]
    gid = memo[text] = resolve_id(pack.generals, text) or pack_names.lookup(pack, "generals", text)
    return gid


def _pack_memo(table: dict[int, tuple[Pack, dict[Any, Any]]], pack: Pack, most: int
               ) -> dict[Any, Any]:
    """The memo of ``pack`` in ``table`` (one per pack object, by id, the pack kept
    beside it to tell a reused id), emptied once it holds ``most`` entries (orders come
    by mail: any text may come). For answers that read only the pack, which is frozen."""
    memo = per_pack(table, pack, lambda _p: {})
    if len(memo) >= most:
        memo.clear()
    return memo


def _resolve_royal(pack: Pack, text: Any) -> str | None:
    """Royal id from an id or a name (case-insensitive, any of the pack's languages),
    else None (R-12.5)."""
    return resolve_id(pack.royals, text) or pack_names.lookup(pack, "royals", text)


def resolve_fleet(pack: Pack, text: object) -> str | None:
    """Fleet id from an id or a name, case-insensitive, any of the pack's languages
    (R-15), else None."""
    return resolve_id(pack.fleets, text) or pack_names.lookup(pack, "fleets", text)


def area_of(pack: Pack, space: str) -> str:
    """R-3.4: the area (europe, asia, africa, islands) of ``space`` — its province's."""
    return pack.provinces[pack.spaces[space].province].area


LAND_KINDS = ("land", "mountain_strait")


def path_kind(pack: Pack, a: str, b: str) -> str | None:
    """The kind of the path joining ``a`` and ``b`` (cheapest when several), or None."""
    costs = const(pack, "path_mp_cost")
    kinds = [k for x, k in info(pack).adjacent.get(a, ()) if x == b]
    if not kinds:
        return None
    return min(kinds, key=lambda k: (costs.get(k) if costs.get(k) is not None else 99))


EMPTY_PATH = "the path is empty"
""":func:`classify_path`'s error for a path of no step (R-9.1)."""


_PATHS: dict[int, tuple[Pack, dict[tuple[str, tuple[str, ...]],
                                   tuple[str | None, int, str | None]]]] = {}
"""Per pack object (by id, the pack kept to tell a reused id): the answers of
:func:`classify_path` by ``(start, path)`` (issue 27 item 5: a move's path
was classified by its check, then again by its dry run and its execution); at most
:data:`_PATHS_MAX` per pack, the memo starting again empty beyond."""

_PATHS_MAX = 4096


def classify_path(pack: Pack, start: str, path: list[str], allowance: int
                  ) -> tuple[str | None, int, str | None]:
    """Check a path's shape and cost (R-9.1). Returns ``(kind, cost, error)``: kind is
    ``land`` (land and mountain/strait paths, 1 and 2 MPs), ``naval`` (start in a port,
    port to port along sea paths, 1 MP each; ends on landing) or ``trans_med`` (one
    trans-Mediterranean path from a port: the whole allowance); error is a message or
    None. Remembered per pack, start and path (:data:`_PATHS`): exact, as the answer
    reads only the pack (frozen) and the arguments, the allowance only as a
    trans-Mediterranean move's cost."""
    memo, key = _pack_memo(_PATHS, pack, _PATHS_MAX), (start, tuple(path))
    got = memo.get(key)
    if got is None:
        got = memo[key] = _classify_path(pack, start, path, 0)
    # the allowance is read only as the cost of a trans-Mediterranean move
    return ("trans_med", allowance, None) if got[0] == "trans_med" else got


def _classify_path(pack: Pack, start: str, path: list[str], allowance: int
                   ) -> tuple[str | None, int, str | None]:
    """:func:`classify_path`, computed."""
    costs = const(pack, "path_mp_cost")
    if not path:
        return None, 0, EMPTY_PATH
    steps: list[list[str]] = []
    prev = start
    for x in path:
        kinds = [k for y, k in info(pack).adjacent.get(prev, ()) if y == x]
        if not kinds:
            return None, 0, (f"{pack.spaces[x].name} is not next to "
                             f"{pack.spaces[prev].name}")
        steps.append(kinds)
        prev = x
    if all(any(k in LAND_KINDS for k in ks) for ks in steps):
        return "land", sum(min(int(costs[k]) for k in ks if k in LAND_KINDS)
                           for ks in steps), None
    if len(path) == 1 and "trans_med" in steps[0]:
        if not pack.spaces[start].port:
            return None, 0, f"{pack.spaces[start].name} is no port"
        return "trans_med", allowance, None
    if all("sea" in ks for ks in steps):
        if not pack.spaces[start].port:
            return None, 0, f"a naval move starts in a port; {pack.spaces[start].name} is none"
        return "naval", len(steps) * int(costs["sea"]), None
    return None, 0, ("a move goes along land and mountain paths, or port to port along sea "
                     "paths (ending on landing), or one trans-Mediterranean path")


def path_gaps(pack: Pack, start: str, path: list[str]) -> list[tuple[str, str]]:
    """R-9.1: every step of ``path`` (from ``start``) whose space is not next to the one
    before it, as ``(before, space)`` pairs; the walk goes on from each space as written,
    so one answer names every gap of a path (issue 24 N3), not only the first."""
    out, prev = [], start
    for x in path:
        if not any(y == x for y, _k in info(pack).adjacent.get(prev, ())):
            out.append((prev, x))
        prev = x
    return out


def land_distance(pack: Pack, start: str, end: str) -> int | None:
    """R-9.1: the fewest MPs of any land path (land and mountain/strait paths) from
    ``start`` to ``end``; None when no land path joins them."""
    costs = {k: int(v) for k, v in const(pack, "path_mp_cost").items() if k in LAND_KINDS}
    return distances(pack, {start}, 1 << 20, costs).get(end)


def step_cost(pack: Pack, mode: str, a: str, b: str, allowance: int) -> int:
    """MPs of one step of a move of ``mode`` (land / naval / trans_med), R-9.1."""
    costs = const(pack, "path_mp_cost")
    if mode == "trans_med":
        return allowance
    if mode == "naval":
        return int(costs["sea"])
    return min(int(costs[k]) for y, k in info(pack).adjacent.get(a, ())
               if y == b and k in LAND_KINDS)


def sea_steps(pack: Pack, sources: set[str], limit: int) -> set[str]:
    """Ports within ``limit`` sea paths of ``sources``."""
    seen = set(sources)
    frontier = set(sources)
    for _ in range(limit):
        nxt = set()
        for x in frontier:
            for y, kind in info(pack).adjacent.get(x, ()):
                if kind == "sea" and y not in seen:
                    nxt.add(y)
        seen |= nxt
        frontier = nxt
    return seen


def adjacent_provinces(pack: Pack, province: str) -> list[str]:
    """Provinces joined to ``province`` by a land or mountain/strait path."""
    mi = info(pack)
    out: set[str] = set()
    for x in mi.province_spaces.get(province, ()):
        for y, kind in mi.adjacent.get(x, ()):
            p = pack.spaces[y].province
            if kind in ("land", "mountain_strait") and p != province:
                out.add(p)
    return sorted(out)


def optional_start_spaces(pack: Pack, gid: str) -> list[str]:
    """R-8.6: the spaces of a general card's optional starting location; the card may
    name provinces (every space of the province) or single spaces."""
    out: list[str] = []
    for loc in pack.generals[gid].optional_start:
        out.extend(info(pack).province_spaces.get(loc, ()) if loc in pack.provinces else (loc,))
    return out
