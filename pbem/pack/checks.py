"""Cross-file checks of a data pack (called by :func:`pbem.pack.loader.load_pack`).

Each check appends ``"<file>: <entry>: <problem>"`` lines to the reader's problem list;
none raises. The checks implement the structural facts of DATA-PACK.md: references
resolve, sea paths join ports, every province can be controlled (R-3.2), charts have no
gaps, card events use known primitives (R-16.3), the map is connected, every port has a
sea path, nine strongholds (R-2), five Hellespont ports (R-1.4).
"""
from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from pbem.pack.graph import build_adjacency, components
from pbem.pack.model import Path
from pbem.pack.vocabulary import (
    AREAS,
    EFFECT_NEEDS,
    EFFECT_PARAMS,
    EFFECT_PRIMITIVES,
    PATH_KINDS,
    REQUIRED_CHARTS,
    suggest,
)

Rows = dict[Any, tuple[str, dict[str, Any]]]


@dataclass
class Context:
    """Schema-checked entries of one pack, indexed by id (``(where, entry)`` pairs)."""

    reader: Any
    provinces: Rows
    spaces: Rows
    paths: list[tuple[str, dict[str, Any]]]
    generals: Rows
    royals: Rows
    indeps: Rows
    fleets: Rows
    cu_types: Rows
    specials: Rows
    cards: Rows
    charts: Rows
    turns: list[tuple[str, dict[str, Any]]]
    constants: dict[str, Any]
    docs_ok: bool

    def err(self, where: str, text: str) -> None:
        self.reader.err(where, text)

    def ref(self, where: str, what: str, value: Any, table: Rows) -> bool:
        """Report ``value`` unless it is a key of ``table``; True when it is."""
        if value in table:
            return True
        self.err(where, f"unknown {what} {value!r}{suggest(value, list(table))}")
        return False


def run_all(ctx: Context) -> None:
    """Run every cross-file check on ``ctx`` (problems go to ``ctx.reader``)."""
    check_map(ctx)
    check_paths(ctx)
    check_pieces(ctx)
    check_cards(ctx)
    check_charts(ctx)
    check_turns(ctx)
    check_constants(ctx)
    if ctx.docs_ok:
        check_graph(ctx)
        check_counts(ctx)


def check_map(ctx: Context) -> None:
    """Spaces name known provinces; flags fit the space kind; every province has
    spaces, at least one non-transit space and at most one major city (R-3.2)."""
    by_prov: dict[str, list[dict[str, Any]]] = {p: [] for p in ctx.provinces}
    names: Counter[str] = Counter()
    for where, s in ctx.spaces.values():
        names[s["name"]] += 1
        if ctx.ref(where, "province", s["province"], ctx.provinces):
            by_prov[s["province"]].append(s)
        if s["hostile_tribes"] and s["kind"] != "stronghold":
            ctx.err(where, "hostile_tribes is only allowed on a stronghold")
        if s["hellespont"] and not s["port"]:
            ctx.err(where, "a Hellespont space must be a port")
        if s["kind"] == "transit" and (s["independent"] or s["treasure_city"]):
            ctx.err(where, "a transit point cannot be independent or a treasure city")
        if not (-90 <= s["lat"] <= 90 and -180 <= s["lon"] <= 180):
            ctx.err(where, f"lat/lon out of range: {s['lat']}, {s['lon']}")
    for name, n in names.items():
        if n > 1:
            ctx.err("spaces.yaml", f"space name {name!r} is used {n} times")
    for pid, members in by_prov.items():
        where = ctx.provinces[pid][0]
        if not members:
            ctx.err(where, f"province {pid!r} has no spaces")
            continue
        held = [s for s in members if s["kind"] != "transit"]
        if not held:
            ctx.err(where, f"province {pid!r} cannot be controlled: it has no non-transit space (R-3.2)")
        majors = [s["id"] for s in members if s["kind"] == "major_city"]
        if len(majors) > 1:
            ctx.err(where, f"province {pid!r} cannot be controlled as R-3.2 reads: it has "
                    f"{len(majors)} major cities ({', '.join(majors)}); at most one")
    for where, p in ctx.provinces.values():
        if p["fleet"] is not None and ctx.ref(where, "fleet", p["fleet"], ctx.fleets):
            home = ctx.fleets[p["fleet"]][1]["home"]
            if home != p["id"]:
                ctx.err(where, f"fleet {p['fleet']!r} has home {home!r}, not {p['id']!r}")


def check_paths(ctx: Context) -> None:
    """Paths join two different known spaces; sea and trans-Mediterranean paths join
    ports only (R-9.1); no path is listed twice."""
    seen: dict[tuple[str, str, str], str] = {}
    for where, p in ctx.paths:
        ok_a = ctx.ref(where, "space", p["a"], ctx.spaces)
        ok_b = ctx.ref(where, "space", p["b"], ctx.spaces)
        if p["a"] == p["b"]:
            ctx.err(where, f"path joins {p['a']!r} to itself")
        if ok_a and ok_b and p["kind"] in ("sea", "trans_med"):
            for end in (p["a"], p["b"]):
                if not ctx.spaces[end][1]["port"]:
                    ctx.err(where, f"{p['kind']} path {p['a']}-{p['b']}: {end!r} is not a port")
        key = (*sorted((p["a"], p["b"])), p["kind"])
        if key in seen:
            ctx.err(where, f"duplicate path {p['a']}-{p['b']} ({p['kind']}), first at {seen[key]}")
        else:
            seen[key] = where


def _garrison_space_ok(ctx: Context, where: str, sid: str) -> None:
    if not ctx.ref(where, "garrison space", sid, ctx.spaces):
        return
    s = ctx.spaces[sid][1]
    if s["kind"] in ("transit", "stronghold") or s["independent"]:
        ctx.err(where, f"garrison space {sid!r} is a {s['kind']}"
                f"{' (independent)' if s['independent'] else ''}: garrisons go on vacant cities (R-8.3)")


def check_pieces(ctx: Context) -> None:
    """Generals, royals, independent armies, fleets and special units name known
    spaces, provinces, CU types and cards."""
    seniority: dict[int, str] = {}
    for where, g in ctx.generals.values():
        if g["seniority"] in seniority:
            ctx.err(where, f"seniority {g['seniority']} already used by {seniority[g['seniority']]!r}")
        seniority[g["seniority"]] = g["id"]
        st = g["start"]
        if g["primary"] and st is None:
            ctx.err(where, "a primary general needs 'start'")
        if st is not None:
            w = f"{where}: start"
            extra = set(st) - {"space", "cus", "garrisons"}
            for fld in sorted(extra):
                ctx.err(w, f"unknown field {fld!r}")
            if "space" not in st:
                ctx.err(w, "field 'space' is missing")
            else:
                ctx.ref(w, "space", st["space"], ctx.spaces)
            cus = st.get("cus", {})
            if not isinstance(cus, dict):
                ctx.err(w, "'cus' must be a mapping of CU type to count")
            else:
                for t, n in cus.items():
                    ctx.ref(w + ".cus", "CU type", t, ctx.cu_types)
                    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                        ctx.err(w + ".cus", f"count for {t!r} must be a non-negative integer")
            gars = st.get("garrisons", [])
            if not isinstance(gars, list):
                ctx.err(w, "'garrisons' must be a list of space ids")
            else:
                for sid in gars:
                    _garrison_space_ok(ctx, w + ".garrisons", sid)
        for loc in g["optional_start"]:
            if loc not in ctx.provinces and loc not in ctx.spaces:
                ctx.ref(where + ": optional_start", "province", loc, ctx.provinces)
        if g["card"] is not None and ctx.ref(where, "card", g["card"], ctx.cards):
            c = ctx.cards[g["card"]][1]
            if c["general"] != g["id"]:
                ctx.err(where, f"card {g['card']} is {c['name']!r}, not a card of {g['id']!r}")
    for where, m in ctx.royals.values():
        if m["start"] is not None:
            ctx.ref(where, "start space", m["start"], ctx.spaces)
    for where, a in ctx.indeps.values():
        if a["start"] is not None:
            ctx.ref(where, "start space", a["start"], ctx.spaces)
        for sid in a["entry_area"]:
            ctx.ref(where + ": entry_area", "space", sid, ctx.spaces)
        if a["start"] is None and not a["entry_area"]:
            ctx.err(where, "needs a start space or an entry_area")
        if a["active_at_start"] and a["start"] is None:
            ctx.err(where, "active_at_start needs a start space")
    for where, f in ctx.fleets.values():
        if f["home"] not in ctx.provinces and f["home"] not in ctx.spaces:
            ctx.ref(where, "fleet home", f["home"], ctx.provinces)
    for where, u in ctx.specials.values():
        ctx.ref(where, "CU type", u["cu_type"], ctx.cu_types)


_PARAM_REFS = {
    "royal": "royals", "army": "indeps", "general": "generals", "unit": "specials",
    "to": "spaces", "chart": "charts",
}


def check_cards(ctx: Context) -> None:
    """Card events use known effect primitives with known references; general cards
    name a general; OPs are 1-4 (R-8.2, R-16.3)."""
    for where, c in ctx.cards.values():
        if c["ops"] is not None and not 1 <= c["ops"] <= 4:
            ctx.err(where, f"ops must be 1-4 or null, got {c['ops']}")
        if c["type"] in ("general", "primary") and c["general"] is None:
            ctx.err(where, f"a {c['type']} card needs 'general'")
        if c["general"] is not None:
            ctx.ref(where, "general", c["general"], ctx.generals)
        if c["type"] == "unrest" and not c["must_play"]:
            ctx.err(where, "unrest cards must be must_play (R-16.2)")
        if not c["effects"] and c["type"] not in ("primary",) and c["event"] != "none":
            ctx.err(where, "a card without effects must say event: none")
        if c["event"] == "none" and c["effects"]:
            ctx.err(where, "a card with event: none has no effects")
        if c["event"] == "none" and not str(c.get("reason") or "").strip():
            ctx.err(where, "an OPs-only card (event: none) says why under reason")
        _check_general_card(ctx, where, c)
        for i, eff in enumerate(c["effects"]):
            w = f"{where}: effects[{i}]"
            if not isinstance(eff, dict) or "effect" not in eff:
                ctx.err(w, "must be a mapping with 'effect: <primitive>'")
                continue
            prim = eff["effect"]
            if prim not in EFFECT_PRIMITIVES:
                ctx.err(w, f"unknown effect primitive {prim!r}{suggest(prim, sorted(EFFECT_PRIMITIVES))}")
                continue
            for param, table in _PARAM_REFS.items():
                if param in eff and not (param == "royal" and eff[param] == "any"):
                    ctx.ref(w, param, eff[param], getattr(ctx, table))
            for pid in eff.get("provinces", []) or []:
                ctx.ref(w, "province", pid, ctx.provinces)
            for sid in eff.get("cities", []) or []:
                ctx.ref(w, "space", sid, ctx.spaces)
            if "type" in eff:
                ctx.ref(w, "CU type", eff["type"], ctx.cu_types)
            if prim == "activate_independent":
                _check_scripted_path(ctx, w, eff)
            if prim in EFFECT_PARAMS:
                _check_params(ctx, w, eff, EFFECT_PARAMS[prim])
            for (p, param, value), need in EFFECT_NEEDS.items():
                if prim == p and eff.get(param) == value and need not in eff:
                    ctx.err(w, f"{prim} with {param}: {value} needs {need!r}")
            if "area" in eff and eff["area"] not in AREAS:
                ctx.err(w, f"area must be one of {', '.join(AREAS)}, got {eff['area']!r}")


def _check_params(ctx: Context, where: str, eff: dict[str, Any],
                  spec: dict[str, tuple[str, bool]]) -> None:
    """An effect's parameters against its primitive's declaration
    (:data:`pbem.pack.vocabulary.EFFECT_PARAMS`): required ones present, no unknown one,
    each of its kind (``count``: a whole number ≥ 1)."""
    for param, (_kind, required) in spec.items():
        if required and param not in eff:
            ctx.err(where, f"{eff['effect']} needs {param!r}")
    for param, value in eff.items():
        if param == "effect":
            continue
        if param not in spec:
            ctx.err(where, f"{eff['effect']} has no parameter {param!r}; it takes: "
                           + (", ".join(spec) or "none"))
        else:
            why = _param_problem(ctx, spec[param][0], value)
            if why:
                ctx.err(where, f"{param} must be {why}, got {value!r}")


def _param_problem(ctx: Context, kind: str, value: Any) -> str | None:
    """What a parameter value of ``kind`` (see :data:`pbem.pack.vocabulary.EFFECT_PARAMS`)
    must be, when ``value`` is not that; else None."""
    is_int = isinstance(value, int) and not isinstance(value, bool)
    if kind == "count":
        return None if is_int and value >= 1 else "a whole number of at least 1"
    if kind == "int":
        return None if is_int else "a whole number"
    if kind == "bool":
        return None if isinstance(value, bool) else "true or false"
    if kind == "text":
        return None if isinstance(value, str) and value else "a word"
    if kind.startswith("one_of:"):
        words = kind[len("one_of:"):].split("|")
        return None if value in words else "one of " + ", ".join(words)
    if kind == "cu_types":
        ok = isinstance(value, list) and value and all(v in ctx.cu_types for v in value)
        return None if ok else "a list of CU type ids (" + ", ".join(sorted(ctx.cu_types)) + ")"
    if kind in ("provinces", "spaces"):
        return None if isinstance(value, list) and value else f"a list of {kind}"
    return None  # cu_type, general: references, checked with the other pack references


def _check_general_card(ctx: Context, where: str, c: dict[str, Any]) -> None:
    """R-8.6: a general card's event is one ``place_general`` of its own general (the
    engine places the general the effect names), and only general cards have it."""
    placing = [e for e in c["effects"] if isinstance(e, dict)
               and e.get("effect") == "place_general"]
    if c["type"] == "general" and (len(placing) != 1
                                   or placing[0].get("general") != c["general"]):
        ctx.err(where, f"a general card's event is one place_general of its general "
                       f"({c['general']!r})")
    elif c["type"] != "general" and placing:
        ctx.err(where, "place_general belongs to general cards (type: general)")


def _check_scripted_path(ctx: Context, where: str, eff: dict[str, Any]) -> None:
    """R-14 [D]: an independent army's scripted ``path`` names known spaces joined by
    land or mountain/strait paths, and its first space is next to (or is) the army's
    start space or one of its entry spaces."""
    path = eff.get("path") or []
    if not isinstance(path, list) or not all(ctx.ref(where + ": path", "space", x, ctx.spaces)
                                             for x in path):
        return
    land = {frozenset((p["a"], p["b"])) for _, p in ctx.paths
            if p.get("kind") in ("land", "mountain_strait")}
    for a, b in itertools.pairwise(path):
        if frozenset((a, b)) not in land:
            ctx.err(where, f"path: {a!r} and {b!r} are not joined by a land or mountain path")
    army = ctx.indeps.get(eff.get("army"))
    if army is None or not path:
        return
    starts = [x for x in [army[1]["start"], *army[1]["entry_area"]] if x]
    if not any(x == path[0] or frozenset((x, path[0])) in land for x in starts):
        ctx.err(where, f"path: {path[0]!r} is not next to the start or entry spaces of "
                       f"{eff.get('army')!r} ({', '.join(starts)})")


_XY = re.compile(r"^\d+/\d+$")


def check_charts(ctx: Context) -> None:
    """Every chart the rules read exists; every row x column cell is present; no stray
    cells; chart-specific value checks (assault ``X/Y``, unrest provinces, forage rows)."""
    for cid in REQUIRED_CHARTS:
        if cid not in ctx.charts:
            ctx.err("charts.yaml", f"chart {cid!r} is missing")
    for where, ch in ctx.charts.values():
        rows, cols, cells = ch["rows"], ch["columns"], ch["cells"]
        for lab, kind in ((rows, "row"), (cols, "column")):
            dup = [x for x, n in Counter(lab).items() if n > 1]
            if dup:
                ctx.err(where, f"duplicate {kind} label(s) {dup}")
            if not lab:
                ctx.err(where, f"chart has no {kind}s")
        cells_by_str = {str(k): v for k, v in cells.items()}
        for r in rows:
            if r not in cells_by_str:
                ctx.err(where, f"cells: row {r!r} is missing")
                continue
            line = cells_by_str[r]
            if not isinstance(line, dict):
                ctx.err(where, f"cells[{r!r}] must be a mapping of column to result")
                continue
            line = {str(k): v for k, v in line.items()}
            for c in cols:
                if c not in line:
                    ctx.err(where, f"cells[{r!r}]: column {c!r} is missing")
                elif ch["id"] == "assault" and not (isinstance(line[c], str) and _XY.match(line[c])):
                    ctx.err(where, f"cells[{r!r}][{c!r}] must be 'X/Y', got {line[c]!r}")
                elif ch["id"] == "unrest":
                    v = line[c]
                    if not isinstance(v, list) or not 1 <= len(v) <= 2:
                        ctx.err(where, f"cells[{r!r}][{c!r}] must list one or two provinces")
                    else:
                        for pid in v:
                            ctx.ref(f"{where}: cells[{r!r}]", "province", pid, ctx.provinces)
            for c in line:
                if c not in cols:
                    ctx.err(where, f"cells[{r!r}]: column {c!r} is not in columns")
        for r in cells_by_str:
            if r not in rows:
                ctx.err(where, f"cells: row {r!r} is not in rows")
        if ch["id"] == "forage":
            for kind in ("major_city", "minor_city", "stronghold", "transit"):
                if kind not in rows:
                    ctx.err(where, f"forage chart needs a row for {kind!r}")


def check_turns(ctx: Context) -> None:
    """Turns are numbered 1..n with years counting down (R-2)."""
    nums = sorted(t["number"] for _, t in ctx.turns)
    if nums != list(range(1, len(nums) + 1)):
        ctx.err("turns.yaml", f"turns must be numbered 1..n, got {nums}")
    for where, g in ctx.generals.values():
        if g["arrival_turn"] is not None and g["arrival_turn"] not in nums:
            ctx.err(where, f"arrival_turn {g['arrival_turn']} is not a turn of turns.yaml")


def check_constants(ctx: Context) -> None:
    """Constants with structure: ``path_mp_cost`` covers every path kind; Lord of Asia names
    provinces."""
    mp = ctx.constants.get("path_mp_cost")
    if mp is not None:
        if not isinstance(mp, dict):
            ctx.err("constants.yaml: constants.path_mp_cost", "must map path kind to MPs")
        else:
            for kind in PATH_KINDS:
                if kind not in mp:
                    ctx.err("constants.yaml: constants.path_mp_cost", f"path kind {kind!r} is missing")
    for pid in ctx.constants.get("lord_of_asia_provinces") or []:
        ctx.ref("constants.yaml: constants.lord_of_asia_provinces", "province", pid, ctx.provinces)


def check_graph(ctx: Context) -> None:
    """The map is connected (R-3.1) and every port has a sea or trans-Med path."""
    paths = [Path(e["a"], e["b"], e["kind"]) for _, e in ctx.paths]
    adj = build_adjacency(ctx.spaces, paths)
    comps = components(ctx.spaces, adj)
    for comp in comps[1:]:
        ctx.err("paths.yaml", f"map is not connected: {sorted(comp)} cannot reach {min(comps[0])!r}")
    for sid, (where, s) in ctx.spaces.items():
        kinds = {k for _, k in adj[sid]}
        if s["port"] and not kinds & {"sea", "trans_med"}:
            ctx.err(where, f"port {sid!r} has no sea path")
        if not kinds:
            ctx.err(where, f"space {sid!r} has no path")


def check_counts(ctx: Context) -> None:
    """Nine strongholds (R-2) and five Hellespont ports (R-1.4), as constants say."""
    want_sh = ctx.constants.get("strongholds", 9)
    sh = [s["id"] for _, s in ctx.spaces.values() if s["kind"] == "stronghold"]
    if len(sh) != want_sh:
        ctx.err("spaces.yaml", f"expected exactly {want_sh} strongholds, found {len(sh)}: {sh}")
    want_h = ctx.constants.get("hellespont_ports", 5)
    hp = [s["id"] for _, s in ctx.spaces.values() if s["hellespont"] and s["port"]]
    if len(hp) != want_h:
        ctx.err("spaces.yaml", f"expected exactly {want_h} Hellespont ports, found {len(hp)}: {hp}")
