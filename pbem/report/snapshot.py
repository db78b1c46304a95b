"""The map snapshot attached to reports: control colours, armies, this step's moves.

Drawn from the data pack's coordinates: PNG for mail, 1000 px wide, an overview drawn
for that width with a zoom for the seat to move (:mod:`pbem.report.overview`), SVG of
the full map for the archive (:mod:`pbem.report.mapview`). Built from the public view
only, so the picture never shows anything secret.
"""
from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from pbem import i18n, rules
from pbem.pack.model import Pack
from pbem.report import raster
from pbem.report.context import SEAT_COLOURS, strength
from pbem.report.mapview import (
    MapOverlay,
    render_map_svg,
)

_BATTLE_KINDS = ("BattleFought", "NavalBattleFought", "Overrun", "ArmyOverran")
_SIEGE_WORDS = ("Siege", "Assault", "Subjugat")


def _legs(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The legs of a move event: its ``path`` pairwise when present, else ``from`` ->
    ``to`` (or ``space``), else nothing."""
    path = data.get("path")
    if isinstance(path, (list, tuple)) and len(path) > 1:
        return [(str(a), str(b)) for a, b in itertools.pairwise(path)]
    src, dst = data.get("from"), data.get("to", data.get("space"))
    if isinstance(src, str) and isinstance(dst, str) and src != dst:
        return [(src, dst)]
    return []


def overlay(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str,
            players: Mapping[str, str] | None = None) -> MapOverlay:
    """Build the map overlay from the public view and the step's public events.

    Garrisons and independent markers colour the spaces, controlled provinces get a halo
    (R-3.2), each army a box "Commander strength" in its seat's colour, independent
    armies a green box; ``*Moved`` events with a ``path`` (or ``from``/``to``) become
    arrows, battle events a red cross, siege/assault/subjugation events a dashed ring;
    royal family members on the map a crown label. ``players``: seat -> player name
    for the legend (seat names alone when None). Names and the boxes' words are in the
    language of ``pack`` (:func:`pbem.pack.names.localized`)."""
    view = rules.view(state, None)
    tr = i18n.translations(pack.language)  # the words of the army boxes in the pack's language (issue 28)
    owner: dict[str, str] = dict(view.get("garrisons", {}))
    for space in view.get("independent", []):
        owner.setdefault(space, "independent")
    armies: list[tuple[str, str, str]] = []
    for a in view.get("armies", []):
        cmd = a.get("commander")
        cus = dict(a.get("cus", {}))
        if cmd in pack.generals or a.get("minor"):
            name = pack.generals[cmd].name if cmd in pack.generals else tr.gettext("minor gen.")
            label = f"{name} {strength(pack, cus)}"
            specials = [pack.special_units[t].name for t in pack.special_units if cus.get(t)]
            if specials:  # the special units ride with their army
                label += f" + {', '.join(specials)}"
        else:
            n = sum(cus.values())
            label = tr.ngettext("%(n)d CU", "%(n)d CUs", n) % {"n": n}
        armies.append((a["space"], a.get("seat", "?"), label))
    for iid, ia in view.get("independent_armies", {}).items():
        if isinstance(ia, Mapping) and ia.get("space"):
            army = pack.independent_armies.get(iid)
            label = (army.name if army else iid).replace(" of Cappadocia", "")
            armies.append((ia["space"], "independent", f"{label} {ia.get('strength', '')}".strip()))
    royals: dict[str, list[str]] = {}
    for rid, r in view.get("royals", {}).items():
        if r.get("space"):
            member = pack.royals.get(rid)
            royals.setdefault(r["space"], []).append(member.name if member else rid)
    moves: list[tuple[str, str, str]] = []
    battles: list[str] = []
    sieges: list[str] = []
    for e in events:
        if not e.public:
            continue
        d = dict(e.data)
        if e.kind.endswith("Moved") and e.kind != "RoyalMoved":
            mover = str(d.get("seat") or ("independent" if d.get("army") else "?"))
            moves.extend((a, b, mover) for a, b in _legs(d))
        elif e.kind in _BATTLE_KINDS or "Battle" in e.kind:
            if isinstance(d.get("space"), str):
                battles.append(d["space"])
        elif any(w in e.kind for w in _SIEGE_WORDS) and isinstance(d.get("space"), str):
            sieges.append(d["space"])
    names = dict(players or {})
    seat_labels = {s: f"{s}: {names[s]}" if names.get(s) else s for s in rules.SEATS}
    return MapOverlay(space_owner=owner, seat_colours=SEAT_COLOURS, arrows=(), battles=tuple(dict.fromkeys(battles)),
                      title=title, province_owner={p: s for p, s in view.get("provinces", {}).items() if s},
                      armies=tuple(armies), moves=tuple(moves), sieges=tuple(dict.fromkeys(sieges)),
                      royals={k: ", ".join(v) for k, v in royals.items()}, seat_labels=seat_labels)


def svg(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str,
        players: Mapping[str, str] | None = None) -> str:
    """The snapshot as SVG text (archive); see :func:`overlay`."""
    return render_map_svg(pack, overlay(pack, state, events, title, players))


def png(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str, width: int = 1000,
        players: Mapping[str, str] | None = None, seat: str | None = None) -> bytes:
    """The mailed snapshot as PNG bytes ``width`` pixels wide; needs cairo. The overview
    drawn for that width (every word at least 9 px high) and its legend
    (:func:`pbem.report.overview.render_seat_map_svg`); with ``seat``, below them a zoom
    on that seat's forces and this turn's fronts, where every space's name reads
    (issue 13, issue 24 item 15). Made from cached rasters
    (:func:`pbem.report.raster.seat_map_png`, issue 14)."""
    ov = overlay(pack, state, events, title, players)
    return raster.seat_map_png(pack, ov, seat, width=width, zoom=seat is not None)


def seat_pngs(pack: Pack, state: rules.GameState, events: Sequence[rules.Event], title: str,
              seats: Sequence[str], width: int = 1000, players: Mapping[str, str] | None = None,
              zoom: Collection[str] = ()) -> dict[str, bytes]:
    """Every seat's picture of one decision, ``seat -> PNG bytes``: the seats in
    ``zoom`` (those the game now waits for) with their zoom, the others the overview,
    one PNG for all of them; the shared parts drawn once
    (:class:`pbem.report.raster.SeatMaps`, issues 14 and 24)."""
    maps = raster.SeatMaps(pack, overlay(pack, state, events, title, players), width)
    return maps.pngs(seats, zoom=zoom)


def language_pngs(packs: Mapping[str, Pack], state: rules.GameState, events: Sequence[rules.Event], title: str,
                  seats: Mapping[str, str], width: int = 1000, players: Mapping[str, str] | None = None,
                  zoom: Collection[str] = ()) -> dict[str, bytes]:
    """Every seat's picture of one decision with seats in several languages, ``seat ->
    PNG bytes``: ``packs`` is ``{language: the pack in it}`` (the first gives the
    palette), ``seats`` ``{seat: language}``; each picture as :func:`seat_pngs` makes
    it, the turn's boxes placed once for every language and the parts without words
    drawn once (:class:`pbem.report.raster.DecisionMaps`, issue 28 item 6)."""
    maps = raster.DecisionMaps({lang: (p, overlay(p, state, events, title, players)) for lang, p in packs.items()},
                               width)
    return maps.pngs(seats, zoom=zoom)
