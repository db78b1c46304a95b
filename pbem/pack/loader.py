"""Load and validate a Successors data pack (see DATA-PACK.md).

``load_pack()`` reads the twelve YAML files of a pack directory, checks every entry
against a schema and the whole pack against the facts the rules depend on, and returns an
immutable :class:`~pbem.pack.model.Pack`. Every problem found is collected; if there is
any, :class:`PackError` is raised naming each one by file, entry and field, e.g.::

    paths.yaml: paths[12]: unknown space 'Pelusim' (did you mean 'pelusium'?)

The built-in pack lives in the ``pbem.data`` package (``successors/``) and is cached.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from collections import Counter
from collections.abc import Callable, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path as FsPath
from types import MappingProxyType
from typing import Any

import yaml

from pbem.pack import checks, names
from pbem.pack.graph import build_adjacency, components
from pbem.pack.model import (
    Card,
    Chart,
    CuType,
    Effect,
    Fleet,
    General,
    IndependentArmy,
    Pack,
    Path,
    Province,
    RoyalMember,
    Space,
    SpecialUnit,
    StartForce,
    Turn,
)
from pbem.pack.vocabulary import (
    AREAS,
    CARD_TYPES,
    EFFECT_NEEDS,
    EFFECT_PARAMS,
    EFFECT_PRIMITIVES,
    PATH_KINDS,
    REQUIRED_CHARTS,
    ROYAL_KINDS,
    SOURCES,
    SPACE_KINDS,
    suggest,
)

PACK_FILES: tuple[str, ...] = (
    "provinces.yaml", "spaces.yaml", "paths.yaml", "generals.yaml", "royals.yaml",
    "independents.yaml", "fleets.yaml", "units.yaml", "cards.yaml", "charts.yaml",
    "turns.yaml", "constants.yaml",
)
"""The YAML files every pack directory holds (``land.geojson`` is optional, and so are
``languages.yaml`` and the ``names.<code>.yaml`` of each language it declares:
:mod:`pbem.pack.names`)."""

REQUIRED_CONSTANTS: tuple[str, ...] = (
    "hand_size", "auto_victory_vp", "auto_victory_lp", "auto_victory_from_turn",
    "minor_general_initiative", "minor_general_battle", "minor_generals",
    "reinforcement_mercenaries", "reinforcement_macedonia_bonus", "reinforcement_lp_bonus",
    "reinforcement_vp_bonus", "reinforcement_vp_tie_bonus", "reinforcement_per_province",
    "garrison_range_mps", "training_phalangite_ops", "training_phalangite_min_segments",
    "training_auxiliary_ops", "training_cards_per_turn", "training_units_max",
    "champion_lp", "strategos_lp", "macedonia_province", "lord_of_asia_vp",
    "lord_of_asia_provinces", "strongest_fleet_vp", "strongest_fleet_min_strength",
    "hellespont_vp", "hellespont_ports", "strongholds", "major_city_inside_capacity",
    "siege_points_major_city", "siege_points_stronghold", "siege_points_independent_minor",
    "assault_min_cus", "movement_mercenary_cus", "path_mp_cost",
)
"""Constant keys the rules core reads; a pack missing one is rejected."""

CONSTANT_ALIASES: Mapping[str, str] = MappingProxyType({
    "first_auto_victory_turn": "auto_victory_from_turn",
    "mp_cost": "path_mp_cost",
    "garrison_placement_range_mp": "garrison_range_mps",
    "reinforcement_max_per_province": "reinforcement_per_province",
    "minor_general_count": "minor_generals",
    "training_cost_phalangite_ops": "training_phalangite_ops",
    "training_cost_auxiliary_ops": "training_auxiliary_ops",
})
"""Second names under which :attr:`Pack.constants` also exposes a constant
(alias -> key in constants.yaml); an alias may not be written in the YAML itself."""

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # same rules as safe_load, faster


class PackError(ValueError):
    """A data pack failed validation. ``problems`` lists every problem found, each a
    line ``"<file>: <entry>: <what is wrong>"``."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        head = f"data pack has {len(problems)} problem(s):"
        super().__init__("\n".join([head, *("  " + p for p in problems)]))


# --------------------------------------------------------------------------- schema
# field spec: name -> (check, required, default). A check returns True for a good value.
def _is_str(v: Any) -> bool:
    return isinstance(v, str) and v != ""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _is_id(v: Any) -> bool:
    return isinstance(v, str) and bool(_ID.match(v))


def _opt(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: v is None or check(v)


def _list_of(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, list) and all(check(x) for x in v)


def _one_of(*values: str) -> Callable[[Any], bool]:
    return lambda v: v in values


_DESCR: dict[Any, str] = {}


def _d(check: Callable[[Any], bool], text: str) -> Callable[[Any], bool]:
    _DESCR[check] = text
    return check


ID = _d(_is_id, "a lowercase snake_case id")
STR = _d(_is_str, "a non-empty string")
INT = _d(_is_int, "an integer")
NUM = _d(_is_num, "a number")
BOOL = _d(_is_bool, "true or false")
OPT_INT = _d(_opt(_is_int), "an integer or null")
OPT_ID = _d(_opt(_is_id), "an id or null")
ID_LIST = _d(_list_of(_is_id), "a list of ids")
REF = _d(_is_str, "the id of an entry (a string)")
LATLON = _d(_opt(lambda v: isinstance(v, list) and len(v) == 2 and all(_is_num(x) for x in v)),
            "[latitude, longitude] or null")
OPT_REF = _d(_opt(_is_str), "an id (a string) or null")
REF_LIST = _d(_list_of(_is_str), "a list of ids")
STR_LIST = _d(_list_of(_is_str), "a list of strings")
SOURCE = _d(_one_of(*SOURCES), "one of " + ", ".join(SOURCES))
MAPPING = _d(lambda v: isinstance(v, dict), "a mapping")
LIST = _d(lambda v: isinstance(v, list), "a list")


def _enum(*values: str) -> Callable[[Any], bool]:
    return _d(_one_of(*values), "one of " + ", ".join(values))


SCHEMAS: dict[str, dict[str, tuple[Callable[[Any], bool], bool, Any]]] = {
    "provinces": {
        "id": (ID, True, None), "name": (STR, True, None), "vp": (INT, True, None),
        "area": (_enum(*AREAS), True, None), "fleet": (OPT_REF, False, None),
        "label": (LATLON, False, None), "source": (SOURCE, True, None),
    },
    "spaces": {
        "id": (ID, True, None), "name": (STR, True, None), "province": (REF, True, None),
        "kind": (_enum(*SPACE_KINDS), True, None), "lat": (NUM, True, None),
        "lon": (NUM, True, None), "port": (BOOL, False, False),
        "independent": (BOOL, False, False), "hostile_tribes": (BOOL, False, False),
        "hellespont": (BOOL, False, False), "treasure_city": (BOOL, False, False),
        "forage_limit": (OPT_INT, False, None), "source": (SOURCE, True, None),
    },
    "paths": {
        "a": (REF, True, None), "b": (REF, True, None),
        "kind": (_enum(*PATH_KINDS), True, None), "source": (SOURCE, True, None),
    },
    "generals": {
        "id": (ID, True, None), "name": (STR, True, None), "rank": (INT, True, None),
        "initiative": (INT, True, None), "battle": (INT, True, None),
        "prestige": (INT, False, 0), "legitimacy": (INT, False, 0),
        "primary": (BOOL, False, False), "start": (_d(_opt(MAPPING), "a mapping"), False, None),
        "optional_start": (REF_LIST, False, []), "arrival_turn": (OPT_INT, False, None),
        "card": (OPT_INT, False, None), "seniority": (INT, True, None),
        "optional": (BOOL, False, False), "source": (SOURCE, True, None),
    },
    "royals": {
        "id": (ID, True, None), "name": (STR, True, None),
        "kind": (_enum(*ROYAL_KINDS), True, None), "lp": (INT, True, None),
        "start": (OPT_REF, True, None), "active": (BOOL, True, None),
        "source": (SOURCE, True, None),
    },
    "independent_armies": {
        "id": (ID, True, None), "name": (STR, True, None), "strength": (INT, True, None),
        "battle": (INT, True, None), "start": (OPT_REF, False, None),
        "entry_area": (REF_LIST, False, []), "active_at_start": (BOOL, False, False),
        "returns_to_box": (BOOL, False, False), "source": (SOURCE, True, None),
    },
    "fleets": {
        "id": (ID, True, None), "name": (STR, True, None), "home": (REF, True, None),
        "strength": (INT, True, None), "source": (SOURCE, True, None),
    },
    "cu_types": {
        "id": (ID, True, None), "name": (STR, True, None), "strength": (OPT_INT, True, None),
        "macedonian": (BOOL, False, False), "source": (SOURCE, True, None),
    },
    "special_units": {
        "id": (ID, True, None), "name": (STR, True, None), "cu_type": (REF, True, None),
        "strength": (INT, True, None), "enters": (STR, True, None),
        "source": (SOURCE, True, None),
    },
    "cards": {
        "number": (INT, True, None), "name": (STR, True, None), "ops": (OPT_INT, True, None),
        "type": (_enum(*CARD_TYPES), True, None), "must_play": (BOOL, False, False),
        "remove_from_play": (BOOL, False, False), "general": (OPT_REF, False, None),
        "event": (STR, True, None), "effects": (LIST, True, None),
        "source": (SOURCE, True, None), "reason": (STR, False, ""),
        "optional": (STR, False, ""),
    },
    "charts": {
        "id": (ID, True, None), "name": (STR, True, None), "dice": (STR, True, None),
        "rule": (STR, False, ""), "rows": (STR_LIST, True, None),
        "columns": (STR_LIST, True, None), "cells": (MAPPING, True, None),
        "note": (STR, False, ""), "source": (SOURCE, True, None),
    },
    "turns": {
        "number": (INT, True, None), "year_bc": (INT, True, None),
        "events": (ID_LIST, False, []), "source": (SOURCE, True, None),
    },
}

# file -> top-level keys it holds
FILE_KEYS: dict[str, tuple[str, ...]] = {
    "provinces.yaml": ("provinces",), "spaces.yaml": ("spaces",), "paths.yaml": ("paths",),
    "generals.yaml": ("generals",), "royals.yaml": ("royals",),
    "independents.yaml": ("independent_armies",), "fleets.yaml": ("fleets",),
    "units.yaml": ("cu_types", "special_units"), "cards.yaml": ("cards",),
    "charts.yaml": ("charts",), "turns.yaml": ("turns",), "constants.yaml": ("constants",),
}


class _Reader:
    """Collects problems while reading one pack directory."""

    def __init__(self, root: Traversable | FsPath) -> None:
        self.root = root
        self.problems: list[str] = []

    def err(self, where: str, text: str) -> None:
        self.problems.append(f"{where}: {text}")

    def read_file(self, name: str) -> dict[str, Any]:
        node = self.root / name
        try:
            text = node.read_text(encoding="utf-8")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            self.err(name, "file is missing")
            return {}
        except UnicodeDecodeError as exc:
            self.err(name, f"not UTF-8 text ({exc})")
            return {}
        try:
            doc = yaml.load(text, Loader=_SAFE_LOADER)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = f" at line {mark.line + 1}" if mark is not None else ""
            self.err(name, f"YAML syntax error{at}: {getattr(exc, 'problem', exc)}")
            return {}
        if not isinstance(doc, dict):
            self.err(name, "top level must be a mapping")
            return {}
        return doc

    def entries(self, fname: str, doc: dict[str, Any], key: str) -> list[tuple[str, dict[str, Any]]]:
        """Schema-check ``doc[key]`` (a list of mappings); return ``(where, entry)`` for
        each entry with defaults filled in (entries with problems are still returned
        when their required fields are present, so cross-checks can run)."""
        items = doc.get(key)
        if items is None:
            self.err(fname, f"missing top-level key {key!r}")
            return []
        if not isinstance(items, list):
            self.err(f"{fname}: {key}", "must be a list")
            return []
        schema = SCHEMAS[key]
        out = []
        for i, raw in enumerate(items):
            ident = ""
            if isinstance(raw, dict):
                for k in ("id", "number"):
                    if k in raw:
                        ident = f" ({raw[k]})"
                        break
            where = f"{fname}: {key}[{i}]{ident}"
            if not isinstance(raw, dict):
                self.err(where, "entry must be a mapping")
                continue
            entry: dict[str, Any] = {}
            ok = True
            for fld, (check, required, default) in schema.items():
                if fld not in raw:
                    if required:
                        self.err(where, f"field {fld!r} is missing")
                        ok = False
                    else:
                        entry[fld] = default
                    continue
                value = raw[fld]
                if not check(value):
                    self.err(where, f"field {fld!r} must be {_DESCR.get(check, 'valid')}, got {value!r}")
                    if required:
                        ok = False
                    entry[fld] = default
                else:
                    entry[fld] = value
            for fld in raw:
                if fld not in schema:
                    self.err(where, f"unknown field {fld!r}{suggest(fld, list(schema))}")
            if ok:
                out.append((where, entry))
        return out

    def unique(self, rows: list[tuple[str, dict[str, Any]]], key: str) -> dict[Any, tuple[str, dict[str, Any]]]:
        """Index entries by ``key``; report duplicates."""
        seen: dict[Any, tuple[str, dict[str, Any]]] = {}
        for where, e in rows:
            if e[key] in seen:
                self.err(where, f"duplicate {key} {e[key]!r} (first at {seen[e[key]][0]})")
                continue
            seen[e[key]] = (where, e)
        return seen


# --------------------------------------------------------------------------- loading
def builtin_pack_dir() -> Traversable:
    """The directory of the built-in pack (``pbem/data/successors``), as a resource."""
    return resources.files("pbem.data") / "successors"


@functools.lru_cache(maxsize=1)
def _builtin() -> Pack:
    return _load(builtin_pack_dir(), "successors")


def load_pack(path: str | FsPath | None = None) -> Pack:
    """Load and validate a data pack.

    ``path`` is a directory holding the files of :data:`PACK_FILES` (as written by
    ``pbem data export``); None loads the built-in Successors pack (cached: the result is
    immutable and shared). Raises :class:`PackError` listing every problem found
    (schema, duplicate ids, unknown references, chart gaps, unknown effect primitives,
    graph and count checks of DATA-PACK.md), or if ``path`` is not a directory.
    """
    if path is None:
        return _builtin()
    root = FsPath(path)
    if not root.is_dir():
        raise PackError([f"{root}: not a directory"])
    return _load(root, root.name)


def _load(root: Traversable | FsPath, name: str) -> Pack:
    r = _Reader(root)
    docs = {f: r.read_file(f) for f in PACK_FILES}
    rows: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for fname, keys in FILE_KEYS.items():
        if fname == "constants.yaml":
            continue
        for key in keys:
            rows[key] = r.entries(fname, docs[fname], key) if docs[fname] else []
    provinces = r.unique(rows["provinces"], "id")
    spaces = r.unique(rows["spaces"], "id")
    generals = r.unique(rows["generals"], "id")
    royals = r.unique(rows["royals"], "id")
    indeps = r.unique(rows["independent_armies"], "id")
    fleets = r.unique(rows["fleets"], "id")
    cu_types = r.unique(rows["cu_types"], "id")
    specials = r.unique(rows["special_units"], "id")
    cards = r.unique(rows["cards"], "number")
    charts = r.unique(rows["charts"], "id")
    constants, constant_sources = _constants(r, docs["constants.yaml"])

    ctx = checks.Context(
        reader=r, provinces=provinces, spaces=spaces, paths=rows["paths"],
        generals=generals, royals=royals, indeps=indeps, fleets=fleets, cu_types=cu_types,
        specials=specials, cards=cards, charts=charts, turns=rows["turns"],
        constants=constants, docs_ok=all(bool(d) for d in docs.values()),
    )
    checks.run_all(ctx)
    languages, names_by_language = names.read(r, {
        "provinces": provinces, "spaces": spaces, "generals": generals, "cards": cards, "royals": royals,
        "independent_armies": indeps, "fleets": fleets, "special_units": specials})
    if r.problems:
        raise PackError(r.problems)
    return dataclasses.replace(_build(name, ctx, constant_sources), languages=languages,
                               names=_frozen(names_by_language))


def _constants(r: _Reader, doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if not doc:
        return values, sources
    table = doc.get("constants")
    if not isinstance(table, dict):
        r.err("constants.yaml", "missing top-level mapping 'constants'")
        return values, sources
    for key, entry in table.items():
        where = f"constants.yaml: constants.{key}"
        if not isinstance(entry, dict) or "value" not in entry:
            r.err(where, "must be a mapping with 'value', 'source' and 'rule'")
            continue
        if entry.get("source") not in SOURCES:
            r.err(where, f"field 'source' must be one of {', '.join(SOURCES)}, got {entry.get('source')!r}")
        extra = set(entry) - {"value", "source", "rule"}
        for fld in sorted(extra):
            r.err(where, f"unknown field {fld!r}")
        values[key] = entry["value"]
        sources[key] = str(entry.get("source"))
    for alias, key in CONSTANT_ALIASES.items():
        if alias in values:
            r.err(f"constants.yaml: constants.{alias}", f"is an alias of {key!r}; write {key!r} instead")
        elif key in values:
            values[alias] = values[key]
            sources[alias] = sources[key]
    for key in REQUIRED_CONSTANTS:
        if key not in values:
            r.err("constants.yaml", f"constant {key!r} is missing{suggest(key, list(values))}")
    return values, sources


def _frozen(value: Any) -> Any:
    """Deep-freeze YAML data: dicts become read-only mappings, lists tuples."""
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _build(name: str, ctx: Any, constant_sources: dict[str, str]) -> Pack:
    forage = ctx.charts["forage"][1]["cells"]
    provinces = {
        k: Province(**{**e, "label": None if e["label"] is None else tuple(e["label"])})
        for k, (_, e) in ctx.provinces.items()
    }
    spaces = {}
    for k, (_, e) in ctx.spaces.items():
        e = dict(e)
        if e["forage_limit"] is None:
            e["forage_limit"] = int(forage[e["kind"]]["result"])
        spaces[k] = Space(**e)
    paths = tuple(Path(**e) for _, e in ctx.paths)
    generals = {}
    for k, (_, e) in ctx.generals.items():
        e = dict(e)
        st = e["start"]
        e["start"] = None if st is None else StartForce(
            space=st["space"], cus=MappingProxyType(dict(st.get("cus", {}))),
            garrisons=tuple(st.get("garrisons", ())),
        )
        e["optional_start"] = tuple(e["optional_start"])
        generals[k] = General(**e)
    royals = {k: RoyalMember(**e) for k, (_, e) in ctx.royals.items()}
    indeps = {}
    for k, (_, e) in ctx.indeps.items():
        indeps[k] = IndependentArmy(**{**e, "entry_area": tuple(e["entry_area"])})
    fleets = {k: Fleet(**e) for k, (_, e) in ctx.fleets.items()}
    cu_types = {k: CuType(**e) for k, (_, e) in ctx.cu_types.items()}
    specials = {k: SpecialUnit(**e) for k, (_, e) in ctx.specials.items()}
    cards = {}
    for k, (_, e) in sorted(ctx.cards.items()):
        effects = tuple(
            Effect(x["effect"], _frozen({p: v for p, v in x.items() if p != "effect"}))
            for x in e["effects"]
        )
        cards[k] = Card(
            number=e["number"], name=e["name"], ops=e["ops"], type=e["type"],
            must_play=e["must_play"], remove_from_play=e["remove_from_play"],
            effects=effects, general=e["general"], source=e["source"], text=e["event"],
            reason=e["reason"], optional=e["optional"],
        )
    charts = {}
    for k, (_, e) in ctx.charts.items():
        charts[k] = Chart(
            id=e["id"], name=e["name"], dice=e["dice"], rows=tuple(e["rows"]),
            columns=tuple(e["columns"]), cells=_frozen(e["cells"]), rule=e["rule"],
            source=e["source"], note=e["note"],
        )
    turns = tuple(
        Turn(number=e["number"], year_bc=e["year_bc"], events=tuple(e["events"]), source=e["source"])
        for _, e in sorted(ctx.turns, key=lambda x: x[1]["number"])
    )
    return Pack(
        name=name,
        provinces=MappingProxyType(provinces),
        spaces=MappingProxyType(spaces),
        paths=paths,
        generals=MappingProxyType(generals),
        royals=MappingProxyType(royals),
        independent_armies=MappingProxyType(indeps),
        fleets=MappingProxyType(fleets),
        cu_types=MappingProxyType(cu_types),
        special_units=MappingProxyType(specials),
        cards=MappingProxyType(cards),
        charts=MappingProxyType(charts),
        turns=turns,
        constants=_frozen(ctx.constants),
        constant_sources=MappingProxyType(constant_sources),
        adjacency=MappingProxyType(build_adjacency(spaces, paths)),
    )


def source_counts(pack: Pack) -> Counter[str]:
    """How many entries of each ``source`` the pack holds (constants included)."""
    c: Counter[str] = Counter()
    for group in (pack.provinces, pack.spaces, pack.generals, pack.royals,
                  pack.independent_armies, pack.fleets, pack.cu_types,
                  pack.special_units, pack.cards, pack.charts):
        c.update(x.source for x in group.values())
    c.update(p.source for p in pack.paths)
    c.update(t.source for t in pack.turns)
    c.update(v for k, v in pack.constant_sources.items() if k not in CONSTANT_ALIASES)
    return c


__all__ = [
    "CONSTANT_ALIASES",
    "EFFECT_NEEDS",
    "EFFECT_PARAMS",
    "EFFECT_PRIMITIVES",
    "PACK_FILES",
    "REQUIRED_CHARTS",
    "REQUIRED_CONSTANTS",
    "PackError",
    "builtin_pack_dir",
    "components",
    "load_pack",
    "source_counts",
]
