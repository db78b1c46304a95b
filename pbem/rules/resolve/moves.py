"""Lists of army moves as orders give them (R-9.1, R-8.2 activation, R-16.1 Major
Campaign, R-10 assaults): reading a move, the checks no dice can change, the check by a
dry run of the executor (:mod:`pbem.rules.resolve.movement`), and carrying them out.

Shape (see ``docs/orders.md``)::

    [{army: Ptolemy, path: [Memphis, Pelusium], drop: {cus: {mercenary: 1}},
      pick_up: {at: Pelusium, cus: {loyal: 1}}, assault: 2, escort: [..],
      surprise: [48, 52]}]      # surprise cards for the move's moments (R-8.5)
"""
from __future__ import annotations

import contextlib
from typing import Any

from pbem.pack.model import Pack
from pbem.plural import count
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.armies import (
    army_options,
    can_overrun,
    group_initiative,
    own_armies_hint,
    resolve_army,
    unknown_army_params,
)
from pbem.rules.core.board import (
    EMPTY_PATH,
    LAND_KINDS,
    _resolve_royal,
    classify_path,
    closest_name,
    closest_space,
    info,
    land_distance,
    name_hint,
    path_gaps,
    resolve_fleet,
    resolve_general,
    resolve_space,
)
from pbem.rules.core.control import fleet_owner, fleet_ready
from pbem.rules.core.footprint import Unsure, move_footprint, rest_footprint
from pbem.rules.core.names import fleet_name
from pbem.rules.core.pack import const
from pbem.rules.core.pieces import cus_at, enemy_of, group_at
from pbem.rules.core.problems import did_you_mean, reject
from pbem.rules.core.state import State, hand_of
from pbem.rules.core.units import (
    resolve_unit_type,
    unit_types_text,
)
from pbem.rules.resolve.movement import (
    NO_CUS,
    NOT_YOURS,
    blocked_text,
    close_windows_dry,
    missing_at,
    new_cursor,
    run_cursor,
)
from pbem.rules.resolve.siege import LIMITS, min_assault_cus, siege_target
from pbem.rules.resolve.surprises import (
    MOVE_MOMENTS,
    moments_of,
    read_cards,
    surprise_effect,
)

MOVE_KEYS = ("army", "path", "drop", "pick_up", "assault", "escort", "surprise")


PART_KEYS = ("at", "cus", "generals", "royals")


def _part(pack: Pack, raw: Any, where: str, rej: list[Problem]) -> list[dict]:
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for i, p in enumerate(items):
        w = f"{where}[{i}]" if isinstance(raw, list) else where
        if not isinstance(p, dict):
            reject(rej, "movement.bad_part", "drop/pick_up is {at: Space, cus: {type: n}, generals: [..], royals: [..]}",
                 w, "drop: {cus: {mercenary: 1}} or pick_up: {at: Gaza, cus: {loyal: 1}}")
            continue
        part: dict[str, Any] = {"at": None, "cus": {}, "generals": [], "royals": []}
        for k, v in p.items():
            if k not in PART_KEYS:
                reject(rej, "orders.unknown_key", f"no field {k!r}", f"{w}.{k}",
                     "fields: " + ", ".join(PART_KEYS), rule="R-9.1", params={"field": k})
            elif k == "at":
                sid, hint = resolve_space(pack, v)
                if sid is None:
                    reject(rej, "orders.unknown_space", f"there is no space {v!r}",
                         f"{w}.at", hint, params={"name": v})
                part["at"] = sid
            elif k == "cus":
                if not isinstance(v, dict) or any(
                        resolve_unit_type(pack, t) is None or not isinstance(n, int) or
                        isinstance(n, bool) or n < 1 for t, n in v.items()):
                    bad = next((t for t in v if resolve_unit_type(pack, t) is None), None) \
                        if isinstance(v, dict) else None
                    reject(rej, "movement.bad_cus", "cus maps CU types to counts: {mercenary: 1, loyal: 2}", f"{w}.cus",
                         name_hint(bad, pack.special_units, words=tuple(pack.cu_types),  # `loyal` (issue 24 N8)
                                   otherwise="types: " + unit_types_text(pack), pack=pack))
                else:
                    part["cus"] = {resolve_unit_type(pack, t): n for t, n in v.items()}
            elif k == "generals":
                for g in (v if isinstance(v, list) else [v]):
                    gid = resolve_general(pack, g)
                    if gid is None:
                        reject(rej, "commanders.unknown_general", f"there is no general {g!r}", f"{w}.generals",
                             name_hint(g, pack.generals, otherwise="generals: [Seleucus] "
                                       "(names of your generals in the army)", pack=pack))
                    else:
                        part["generals"].append(gid)
            else:
                for r in (v if isinstance(v, list) else [v]):
                    rid = _resolve_royal(pack, r)
                    if rid is None:
                        reject(rej, "movement.unknown_royal", f"there is no royal {r!r}", f"{w}.royals",
                             name_hint(r, pack.royals, otherwise="names: " + ", ".join(
                                 m.name for m in pack.royals.values()), pack=pack))
                    else:
                        part["royals"].append(rid)
        out.append(part)
    return out


def parse_move(pack: Pack, s: State, seat: str, raw: Any, where: str,
               rej: list[Problem], mp: int | None = None) -> dict | None:
    """One army move (see module docstring) → ``{"army": start, "path": [ids], "drop",
    "pick_up", "assault", "mp", "escort", "where"}`` or None (rejections appended)."""
    n0 = len(rej)
    if not isinstance(raw, dict):
        reject(rej, "movement.not_a_mapping", "each move is {army: General, path: [Space, ...]}", where,
             "movement: [{army: Ptolemy, path: [Pelusium, Gaza]}]")
        return None
    for k in raw:
        if k not in MOVE_KEYS:
            reject(rej, "orders.unknown_key", f"a move has no field {k!r}", f"{where}.{k}",
                   did_you_mean(k, MOVE_KEYS), rule="R-9.1", params={"field": k})
    start, msg = resolve_army(pack, s, seat, raw.get("army"))
    if start is None:
        reject(rej, "movement.unknown_army", msg, f"{where}.army",
             own_armies_hint(pack, s, seat), params=unknown_army_params(pack, s, seat, raw.get("army"), msg))
    path = raw.get("path")
    if not isinstance(path, list) or not path:
        reject(rej, "movement.path_missing", "give the path as a list of spaces",
             f"{where}.path", "path: [Memphis, Pelusium]")
        path = []
    ids = []
    for i, x in enumerate(path):
        sid, hint = resolve_space(pack, x)
        if sid is None:
            prev = next((y for y in reversed(ids) if y is not None), start)
            reject(rej, "orders.unknown_space", f"there is no space {x!r}",
                 f"{where}.path[{i}]", hint or _next_to_hint(pack, prev), params={"name": x})
        ids.append(sid)
    if ids and ids[0] == start:
        ids = ids[1:]  # the path may repeat the start space
    assault = raw.get("assault", 0)
    if not isinstance(assault, int) or isinstance(assault, bool) or assault < 0:
        reject(rej, "movement.bad_assault", "assault is a number of rolls (0-2)",
             f"{where}.assault", "assault: 1 (or leave it out)")
    escort = raw.get("escort")
    if escort is not None:
        fids = [resolve_fleet(pack, f) for f in escort] if isinstance(escort, list) else [None]
        if None in fids:
            bad = escort[fids.index(None)] if isinstance(escort, list) else escort
            reject(rej, "movement.bad_escort", "escort lists fleet ids",
                 f"{where}.escort", name_hint(bad, pack.fleets, otherwise="fleets: " + ", ".join(
                     f.name for f in pack.fleets.values()), pack=pack))
        else:
            escort = list(dict.fromkeys(fids))
    drop = _part(pack, raw["drop"], f"{where}.drop", rej) if "drop" in raw else []
    pick = _part(pack, raw["pick_up"], f"{where}.pick_up", rej) if "pick_up" in raw else []
    cards = read_cards(pack, s, seat, raw["surprise"], MOVE_MOMENTS, f"{where}.surprise",
                       rej, in_hand=False) if "surprise" in raw else []
    if len(rej) != n0:
        return None
    return {"army": start, "path": ids, "drop": drop, "pick_up": pick,
            "assault": assault, "mp": mp, "escort": escort, "where": where,
            "surprise": cards}


def _next_to_hint(pack: Pack, space: str | None) -> str | None:
    """For a name in a path that is no space and close to none (issue 24.F): the spaces
    next to the one before it (R-9.1), where the path may go on."""
    if space is None or space not in pack.spaces:
        return None
    near = sorted({pack.spaces[y].name for y, _k in info(pack).adjacent.get(space, ())})
    return f"next to {pack.spaces[space].name}: " + ", ".join(near) if near else None


def move_bonus(pack: Pack, mv: dict) -> int:
    """R-8.5: the MPs a ``movement_bonus`` card of the move's ``surprise`` list adds to
    its allowance (Forced March)."""
    return sum(int(surprise_effect(pack, n).params.get("mp", 0)) for n in mv.get("surprise") or []
               if "move" in moments_of(pack, n))


def surprise_checks(pack: Pack, s: State, seat: str, mv: dict, rej: list[Problem],
                    soft: bool = False, unsure: Unsure | None = None,
                    ends: bool = True) -> None:
    """R-8.5: the cards of a move's ``surprise`` list are in ``seat``'s hand, and (with
    ``ends``) a ``siege`` card's move ends where there is something to besiege (R-10,
    :func:`end_checks`). ``soft`` (after dice): the cards that no longer qualify are
    dropped, never refused. ``unsure`` (a check after a die or a refused part): a card
    that may have come into the hand since is kept without a refusal."""
    keep = []
    known = unsure is None or unsure.hand_known
    for i, n in enumerate(mv.get("surprise") or []):
        w = f"{mv['where']}.surprise"
        if n not in hand_of(s, seat):
            if not soft and known:
                read_cards(pack, s, seat, [n], MOVE_MOMENTS, w, rej)
            if not soft and not known:
                keep.append(n)
            continue
        if ends and "siege" in moments_of(pack, n) and _no_siege(pack, s, seat, mv, n, i,
                                                             rej if not soft else []):
            continue
        keep.append(n)
    mv["surprise"] = keep


def escort_checks(pack: Pack, s: State, seat: str, mv: dict, rej: list[Problem],
                  soft: bool = False, unsure: Unsure | None = None) -> None:
    """R-15: every fleet of a move's ``escort`` belongs to ``seat`` (it controls the
    fleet's home) and was not dispersed this turn; otherwise ``movement.escort_not_yours``
    or ``movement.escort_dispersed``, at the check (a fleet named wrongly used to be
    dropped at the naval battle, where the mover then fought at strength 0). ``soft``
    (after dice): such fleets are left out, never refused. ``unsure`` (the board may
    differ from ``s``, :class:`pbem.rules.core.footprint.Unsure`): a fleet is refused
    only when no marker of its home may have changed (its owner) and, for a dispersed
    one, when nothing at all may differ (an earlier naval battle); otherwise it is kept
    and the naval battle reads it as before."""
    escort = mv.get("escort")
    if not escort:
        return
    keep = []
    for i, f in enumerate(escort):
        owner = fleet_owner(pack, s, f)
        if owner == seat and fleet_ready(s, f):
            keep.append(f)
            continue
        if soft:
            continue
        home = pack.fleets[f].home
        homes = info(pack).province_spaces.get(home, ()) if home in pack.provinces else (home,)
        if unsure and (unsure.touches_markers(homes) if owner != seat else True):
            keep.append(f)  # the dice may have changed it: the naval battle decides
            continue
        own = [fleet_name(pack, x) for x in sorted(pack.fleets)
               if fleet_owner(pack, s, x) == seat and fleet_ready(s, x)]
        hint = ("your fleets ready to escort: " + ", ".join(own) if own else
                "you have no fleet ready: leave out escort")
        w = f"{mv['where']}.escort[{i}]"
        if owner != seat:
            reject(rej, "movement.escort_not_yours", f"the {fleet_name(pack, f)} is not "
                   f"yours: a fleet belongs to whoever controls its home "
                   f"({'nobody' if owner is None else owner} now)", w, hint, rule="R-15")
        else:
            reject(rej, "movement.escort_dispersed", f"the {fleet_name(pack, f)} was "
                   "dispersed this turn and cannot fight again before the next turn", w,
                   hint, rule="R-15")
    mv["escort"] = keep


def _no_siege(pack: Pack, s: State, seat: str, mv: dict, n: int, i: int,
              rej: list[Problem]) -> bool:
    """R-8.5, R-10: True (with ``surprise.no_siege`` in ``rej``) when the ``siege`` card
    ``n`` of move ``mv`` has nothing to besiege where the move ends."""
    end = mv["path"][-1] if mv["path"] else mv["army"]
    if siege_target(pack, s, seat, end)[0] is not None:
        return False
    reject(rej, "surprise.no_siege", f"#{n} {pack.cards[n].name} needs a siege you "
           f"conduct, and the move ends in {pack.spaces[end].name}, where there "
           "is nothing to besiege", f"{mv['where']}.surprise[{i}]", "end the move at an "
           "independent marker or another player's major city")
    return True


def end_checks(pack: Pack, s: State, seat: str, mv: dict, rej: list[Problem]) -> None:
    """R-10, R-8.5: what a move does where it ends needs something to besiege there: its
    ``assault`` rolls (``siege.illegal``) and its ``siege`` surprise cards
    (``surprise.no_siege``). The assault and the card happen where the move ends; the
    orders name the end of the path, so nothing to besiege there is a mistake the
    check sees (issue 24), whatever the dice do on the way."""
    end = mv["path"][-1] if mv["path"] else mv["army"]
    if mv.get("assault") and siege_target(pack, s, seat, end)[0] is None:
        reject(rej, "siege.illegal", f"there is nothing to besiege in {pack.spaces[end].name} "
               "(an independent marker or another player's major city), where the move ends",
               f"{mv['where']}.assault", "leave out assault on this move (assault: 0), or "
               "end the move where there is something to besiege", rule="R-10")
    for i, n in enumerate(mv.get("surprise") or []):
        if n in hand_of(s, seat) and "siege" in moments_of(pack, n):
            _no_siege(pack, s, seat, mv, n, i, rej)


def static_checks(pack: Pack, s: State, seat: str, mv: dict, segment: str,
                  rej: list[Problem], soft: bool = False, unsure: Unsure | None = None,
                  ends: bool = True, before: Unsure | None = None,
                  fixed_start: bool = False, general: str | None = None,
                  written: list[str | None] | None = None) -> None:
    """Checks that need no dice (R-9.1, R-10, R-15): the path's shape and cost from the
    start with the army standing there now (with a Forced March's MPs, R-8.5), the
    assault limit of the segment, the move's surprise cards (:func:`surprise_checks`)
    and its escort (:func:`escort_checks`). ``unsure``: where the board may differ from
    ``s`` (a check after a die or a refused part,
    :class:`pbem.rules.core.footprint.Unsure`): the path is then refused
    only when no unit may come or go at the army's start (else the general named may
    stand somewhere else when the move is carried out) or ``fixed_start`` (the army is
    named by its space); ``general``, the general who names it, and ``written``, the
    path as the orders give it: when he may stand elsewhere, the path is refused only if
    it fits none of the spaces he may stand in (:func:`_from_anywhere`). The cost is
    refused only when no unit may come or go at the start (else who commands may
    differ). ``before``: the footprints of the earlier moves
    of the same list; the cost is refused only when the start is outside both (they may
    bring or take generals there, and so change who commands). ``ends``: also check a
    ``siege`` card's end (:func:`surprise_checks`)."""

    most = int(const(pack, LIMITS[segment]))
    if mv["assault"] > most:
        reject(rej, "siege.too_many_assaults", f"at most {most} assaults per space in a {segment} segment",
             f"{mv['where']}.assault", f"assault: {most}")
    mp = mv["mp"]
    if mp is None:
        g = group_at(s, seat, mv["army"], [])  # the royals count for no allowance
        mp = group_initiative(pack, s, seat, g)
    surprise_checks(pack, s, seat, mv, rej, soft, unsure, ends)
    escort_checks(pack, s, seat, mv, rej, soft, unsure)
    mp += move_bonus(pack, mv)  # Forced March
    start = mv["army"]
    elsewhere = unsure is not None and unsure.touches_moved([start]) and not fixed_start
    if not soft:
        _parts_on_path(pack, mv, _starts(mv, unsure, general) if elsewhere else None, rej)
    if elsewhere:
        _from_anywhere(pack, mv, mp, unsure, general, written, rej)
        return  # the general named may stand elsewhere when the move is carried out
    sure_mp = not (unsure is not None and unsure.touches_moved([start])) and not (
        before is not None and before.touches_moved([start]))  # who commands may differ
    _kind, cost, err = classify_path(pack, start, mv["path"], mp)
    gaps = path_gaps(pack, start, mv["path"]) if err else []
    if gaps:  # issue 24 N3: every gap of the path and its cost in one answer
        _gaps_and_cost(pack, mv, start, gaps, mp if sure_mp else None, rej)
    elif err:
        reject(rej, "movement.bad_path", err, f"{mv['where']}.path",
             _kind_hint(pack, start, mv["path"]))
    elif cost > mp and sure_mp:
        reject(rej, "movement.too_far", f"{pack.spaces[mv['path'][-1]].name} is {count(cost, 'MP')} from "
             f"{pack.spaces[mv['army']].name} on that path, the army has {mp}",
             f"{mv['where']}.path", "stop earlier on the path: land paths cost 1 MP, "
             "mountain/strait paths 2")


def _parts_on_path(pack: Pack, mv: dict, starts: set[str] | None, rej: list[Problem]
                   ) -> None:
    """R-9.1: a ``drop`` or ``pick_up`` ``{at: Space}`` takes place where the army passes,
    its start or a space of its path; one naming another space would never happen (it
    was accepted and silently left undone: issue 24, "no order silently lost"), so it is
    refused (``movement.illegal``). ``starts``: when the army's general may start the
    move elsewhere than the checked board shows (after a die or a refused part), every
    space he may start from (:func:`_starts`; an empty set: anywhere, nothing refused):
    a space off the path is then refused only when it is none of them — else it is
    left to the real run."""
    on = {mv["army"], *mv["path"]}
    for key, verb in (("drop", "leaves units"), ("pick_up", "takes units along")):
        for part in mv.get(key) or []:
            at = part.get("at")
            if at is None or at in on or (starts is not None and (not starts or at in starts)):
                continue
            _once(rej, "movement.illegal", f"{pack.spaces[at].name} is not on this move's path: "
                  f"{key} {verb} only where the army passes (its start or a space of its path)",
                  f"{mv['where']}.{key}", f"name a space of the path in {key}'s at:, or "
                  f"add {pack.spaces[at].name} to the path")


def _starts(mv: dict, unsure: Unsure | None, general: str | None) -> set[str]:
    """Every space the army of move ``mv``, named by ``general``, may start from when the
    board may differ from the checked one by ``unsure``: where it stands on the checked
    board, where he stood before (``unsure.was_at``) and anywhere units may come or go
    (``unsure.moved``). Empty when the check cannot say (``unsure.everywhere``, no
    general)."""
    if unsure is None or unsure.everywhere or general is None:
        return set()
    return unsure.moved | {mv["army"]} | ({unsure.was_at[general]}
                                          if general in unsure.was_at else set())


def _gaps_and_cost(pack: Pack, mv: dict, start: str, gaps: list[tuple[str, str]],
                   mp: int | None, rej: list[Problem]) -> None:
    """R-9.1, issue 24 N3 (every mistake in one answer): a ``movement.bad_path`` for each
    step of the move's path that is not next to the space before it
    (:func:`pbem.rules.core.board.path_gaps`), the first with the spaces the path may
    take instead; and ``movement.too_far`` when the path's end is farther from the start
    than ``mp`` (None: the MPs are not sure) by any land path, so that no fix of the
    gaps makes it reachable, or else (issue 24.7) when the path as written costs more
    than ``mp`` with each gap filled by the shortest land path between its two spaces
    (the steps it names cost what they cost: leaving out a space used to be told first,
    and the MPs only in the answer to the path filled in); not for a path with sea
    steps (a naval move costs less)."""
    where = f"{mv['where']}.path"
    for k, (prev, x) in enumerate(gaps):
        reject(rej, "movement.bad_path", f"{pack.spaces[x].name} is not next to "
               f"{pack.spaces[prev].name}", where,
               _path_hint(pack, start, mv["path"]) if k == 0 else _next_to_hint(pack, prev))
    adj = info(pack).adjacent
    prev, sea = start, False
    for x in mv["path"]:
        kinds = {k for y, k in adj.get(prev, ()) if y == x}
        sea = sea or bool(kinds) and not kinds & set(LAND_KINDS)
        prev = x
    end = mv["path"][-1]
    far = land_distance(pack, start, end)
    if mp is not None and not sea and far is not None and far > mp:
        reject(rej, "movement.too_far", f"{pack.spaces[end].name} is at least "
               f"{count(far, 'MP')} from {pack.spaces[start].name} by any land path, the "
               f"army has {mp}", where, "end the move nearer: land paths cost 1 MP, "
               "mountain/strait paths 2")
        return
    along = None if sea or mp is None else _filled_cost(pack, start, mv["path"])
    if along is not None and along > mp:
        reject(rej, "movement.too_far", f"{pack.spaces[end].name} is at least "
               f"{count(along, 'MP')} from {pack.spaces[start].name} along the path as "
               f"written, each gap filled by the shortest land path, the army has {mp}",
               where, "end the move nearer, or leave out a space on the way: land paths "
               "cost 1 MP, mountain/strait paths 2")


def _filled_cost(pack: Pack, start: str, path: list[str]) -> int | None:
    """R-9.1: the MPs of ``path`` from ``start`` by land, each step that is not next to
    the space before it counted as the shortest land path between the two
    (:func:`pbem.rules.core.board.land_distance`); None when one of them has none."""
    costs = const(pack, "path_mp_cost")
    adj = info(pack).adjacent
    prev, total = start, 0
    for x in path:
        kinds = [k for y, k in adj.get(prev, ()) if y == x and k in LAND_KINDS]
        step = min(int(costs[k]) for k in kinds) if kinds else land_distance(pack, prev, x)
        if step is None:
            return None
        total += step
        prev = x
    return total


def walked_prefix(pack: Pack, start: str, path: list[str]) -> list[str]:
    """R-9.1: the steps of ``path`` from ``start`` before its first step that is not
    next to the space before it (all of ``path`` when there is none)."""
    adj = info(pack).adjacent
    prev, out = start, []
    for x in path:
        if not any(y == x for y, _k in adj.get(prev, ())):
            break
        out.append(x)
        prev = x
    return out


def partial_move(pack: Pack, s: State, seat: str, mv: dict, guessed: bool = False) -> dict:
    """Issue 24.7 (every mistake in one answer): the part of a move refused for its path
    (a gap, too far, a land/sea mix, R-9.1) that the dry run can still carry out: the
    longest start of the path as written that is a path within the army's MPs, without
    the assault and the siege cards where the move ends and without the drops and
    pick-ups after it. :func:`simulate` runs it in the move's place, so what goes wrong
    at the start and on those steps (CUs or generals dropped that are not there, units
    picked up that are not there, an enemy army in the way) is told with the path's
    problems; what the move does where it ends is checked where the path as written
    ends (:func:`end_checks`, on ``"full"``, the move itself). A move of no step keeps
    its start's checks (the dry run's "the path is empty" is no problem of the
    orders). ``guessed``: ``mv`` was read from names close to what the orders wrote
    (:func:`_rest_of_move`): its end is no end the player named, so what it does there
    is not judged (``"full"`` without its assault and siege cards)."""
    mp = mv["mp"]
    if mp is None:
        g = group_at(s, seat, mv["army"], [])  # the royals count for no allowance
        mp = group_initiative(pack, s, seat, g)
    mp += move_bonus(pack, mv)
    steps = walked_prefix(pack, mv["army"], mv["path"])
    while steps:
        _kind, cost, err = classify_path(pack, mv["army"], steps, mp)
        if err is None and cost <= mp:
            break
        steps = steps[:-1]
    kept = {mv["army"], *steps}

    def within(parts: list[dict]) -> list[dict]:
        return [p for p in parts if p.get("at") in (None, *kept)]
    cards = [n for n in mv.get("surprise") or [] if "siege" not in moments_of(pack, n)]
    return {**mv, "path": steps, "assault": 0, "drop": within(mv.get("drop") or []),
            "pick_up": within(mv.get("pick_up") or []), "surprise": cards,
            "full": {**mv, "assault": 0, "surprise": cards} if guessed else mv}


def _from_anywhere(pack: Pack, mv: dict, mp: int, unsure: Unsure, general: str | None,
                   written: list[str | None] | None, rej: list[Problem]) -> None:
    """R-9.1: the path of a move named by ``general``, who may stand elsewhere than the
    checked board shows (he moved where a die or another seat's answer decides, or
    stood where a refused part would have moved units), is refused when it is no path
    from any space he may stand in: where he stood before, or anywhere units may come
    or go (``unsure.moved``). ``written``: the path as the orders give it (a start
    repeated first is left out for each space in turn)."""
    starts = _starts(mv, unsure, general)
    if not starts or written is None or None in written:
        return
    for x in starts:
        path = [y for y in written if y is not None]
        path = path[1:] if path[:1] == [x] else path
        if path and not classify_path(pack, x, path, mp)[2]:
            return
    err = classify_path(pack, mv["army"], mv["path"], mp)[2]
    reject(rej, "movement.bad_path", err or "the path leads nowhere", f"{mv['where']}.path",
           _path_hint(pack, mv["army"], mv["path"]))


def _path_hint(pack: Pack, start: str, path: list[str]) -> str:
    """The spaces next to the first space of the path whose next step is no path
    (R-9.1), as a hint for ``movement.bad_path``."""

    adj = info(pack).adjacent
    prev, walked = start, []
    for x in path:
        if not any(y == x for y, _k in adj.get(prev, ())):
            break
        prev = x
        walked.append(pack.spaces[x].name)
    near = sorted({pack.spaces[y].name for y, _k in adj.get(prev, ()) if y in pack.spaces})
    been = {pack.spaces[start].name, *walked}
    onward = [n for n in near if n not in been]  # issue 24 N4: an example never goes back
    example = f"path: [{', '.join([*walked, onward[0]])}]" if onward else "path: [a space next to the army]"
    return (f"next to {pack.spaces[prev].name}: " + ", ".join(near) +
            f"; list every space after the start (not the start itself), e.g. {example}")


def _kind_hint(pack: Pack, start: str, path: list[str]) -> str:
    """The fix for a path whose steps are all next to each other but of no one kind
    (R-9.1: land and mountain/strait paths, or port to port along sea paths ending on
    landing, or one trans-Mediterranean path), naming its steps that are sea paths only
    (issue 24 N4: it used to list the spaces next to the path's end)."""
    adj = info(pack).adjacent
    prev, sea, land = start, [], []
    for x in path:
        kinds = {k for y, k in adj.get(prev, ()) if y == x}
        step = f"{pack.spaces[prev].name}–{pack.spaces[x].name}"
        (land if kinds & set(LAND_KINDS) else sea).append(step)
        prev = x
    if not sea:
        return "a naval move starts in a port: start from a port, or go by land"
    if not land:
        return ("a naval move starts in a port and goes port to port along sea paths: "
                "start from a port, or go by land")
    return (f"this path mixes sea steps ({', '.join(sea)}) with land steps ({', '.join(land)}): "
            "a move goes by land paths only, or by sea port to port only (it ends where it "
            "lands): keep to one kind")


def _moves_hint(pack: Pack, s: State, seat: str) -> str:
    """The armies of ``seat`` that may move and their MPs (R-9.1), as a hint."""
    try:
        opts = army_options(pack, s, seat)
    except KeyError:  # the pack lacks movement numbers
        opts = []
    if not opts:
        return "you have no army that may move: leave out movement or use movement: none"
    def label(o: dict[str, Any]) -> str:
        g = pack.generals.get(o["commander"])
        who = g.name if g else "minor general"
        return f"{who} ({pack.spaces[o['space']].name}, {count(int(o['allowance']), 'MP')})"

    return ("change the path or leave out this move; armies that may move: " +
            ", ".join(label(o) for o in opts))


def simulate(pack: Pack, s: State, seat: str, moves: list[dict], segment: str,
             rej: list[Problem], rehearse: Ctx | None = None,
             unsure: Unsure | None = None, gaps: dict[int, Unsure] | None = None,
             refused: set[int] | None = None, quick: bool = False) -> None:
    """Dry-run ``moves`` on a copy of ``s`` (a dry context: every die shows 1; reaction
    windows answered "no reaction") with the same executor as :func:`do_moves`, and
    turn what it refuses into rejections: a cancelled move or assault, a drop or pick-up
    that cannot be made (R-9.1, R-10, R-12.5), and what a move does where it ends
    (:func:`end_checks`).

    A move's refusals are rejections when the check can prove them: they come before
    the move's first die or reaction window, and nothing they read may differ from the
    dry board: units coming to or going from the start (the army, who commands it: an
    assault's CUs lost only take away, which lifts none of these refusals); for a drop
    or pick-up on the way, also units coming to or going from the path up to there;
    for a refusal that fewer CUs may cause (a minor general without CUs, an enemy army
    not overrun, an assault), anything at the start and on the path; for what it does
    where it ends (:func:`end_checks`), the markers there. They may differ neither by
    ``unsure`` (the earlier parts of the orders, a
    check after dice or a refused part) nor by the earlier moves of the list that met a
    die or a window (or were unsure themselves: their footprints,
    :func:`pbem.rules.core.footprint.move_footprint`). ``gaps``: ``{k: footprint}`` of moves
    refused before the dry run, left out of ``moves`` just before ``moves[k]``;
    ``refused``: the indices of moves already refused (their dry run tells no more).
    A move refused before the dry run for its path may stand in ``moves`` as its part
    that can be carried out (:func:`partial_move`, issue 24.7: marked by ``"full"``,
    the move as written, whose end :func:`end_checks` reads); ``gaps`` then holds its
    footprint as written for the moves after it.
    ``rehearse``: a check's context whose ``s`` is ``s``; a run that ends without a
    reaction window is kept there for :func:`do_moves` of the same moves
    (:meth:`pbem.rules.context.Ctx.keep_rehearsal`). ``quick``: a yes/no check
    (:func:`pbem.rules.engine.acceptable`): when the first move's end is refused as the
    dry run would refuse it (:func:`_first_end_refused`), no dry run is made."""

    if quick and moves and _first_end_refused(pack, s, seat, moves[0], unsure, gaps, rej):
        return  # a yes/no check: refused before the dry run, with the same answer
    ctx = Ctx(pack, dict(s), None, owned=())  # copy on write: parts copied when written
    c = new_cursor(seat, segment, moves)
    try:
        done = run_cursor(ctx, c)
        if not done:  # a window: answered "no reaction", the later moves still checked
            close_windows_dry(ctx)
    except KeyError as e:  # a chart or constant the pack lacks
        reject(rej, "rules.pack_incomplete", f"the data pack lacks {e}", "orders")
        return
    if rehearse is not None and rehearse.dry and rehearse.s is s and done and not any(
            ev.kind == "ReactionWindowOpened" for ev in ctx.events):
        rehearse.keep_rehearsal(seat, segment, moves, ctx)
    ends, start = [], 0
    for k, ev in enumerate(ctx.events):
        if ev.kind in ("MoveEnded", "MoveCancelled"):
            ends.append((start, k + 1))
            start = k + 1
    unsure = (unsure or Unsure()).copy()
    passed: set[str] = set()  # where the earlier moves of the list took or left units
    for i, mv in enumerate(moves):
        unsure.add((gaps or {}).get(i))
        if i >= len(ends):  # the game ended in an earlier move
            break
        a, b = ends[i]
        first = min((k for k in ctx.chance_at if a <= k < b), default=b)
        at_start = not unsure.touches_moved([mv["army"]])  # the army, who commands it
        whole = not unsure.touches([mv["army"]])  # its CUs too (an assault's losses)
        on_path = not unsure.touches(mv["path"])
        # no unit may differ there (markers may: an unrest roll's, R-16.2): the enemy
        # armies on the path and the CUs that would overrun them are the checked ones
        units = not unsure.touches_units([mv["army"], *mv["path"]])
        fewer = {NO_CUS, *(blocked_text(pack, x) for x in mv["path"])}  # need CUs
        # a path blocked at x reads the army's CUs and the way up to x only (issue 24.1)
        upto = {blocked_text(pack, x): not unsure.touches_units([mv["army"], *mv["path"][:k + 1]])
                for k, x in enumerate(mv["path"])}
        n0 = len(rej)
        if at_start and not units and on_path:  # the CUs may be fewer: at most as before
            _blocked_anyway(pack, s, seat, mv, unsure, rej)
        for ev in ctx.events[a:first] if i not in (refused or ()) else ():
            if ev.kind == "MoveCancelled" and "full" in mv and not mv["path"] and \
                    ev.data.get("why") == EMPTY_PATH:
                continue  # a refused move's part of no step: its start was checked
            if ev.kind == "MoveCancelled" and ev.data.get("why") in upto:
                sure = upto[ev.data["why"]]  # no overrun: the CUs and the enemy army there
            elif ev.kind == "MoveCancelled" and ev.data.get("why") in fewer:
                sure = units  # fewer CUs or another enemy army may make it so (no overrun)
            elif ev.kind == "MoveCancelled":  # at the start: only arrivals could lift it
                sure = at_start
            else:  # on the way, where it ends: only when the way there is sure
                sure = (whole and on_path) or _beyond_any(pack, s, seat, ev, mv, unsure, passed)
            if sure:
                _refusal(pack, s, seat, ev, mv, rej)
        ends_at = {mv["army"], mv["path"][-1] if mv["path"] else mv["army"]}
        if mv.get("assault") and not unsure.touches_moved(ends_at) and not passed & ends_at \
                and not any(p.code == "siege.illegal" and p.where == mv["where"]
                            for p in rej[n0:]):
            _too_few_anyway(pack, s, seat, mv, unsure, rej)  # ``s``: as before the list
        passed |= set(mv["path"])  # its start: units only leave it
        written = mv.get("full", mv)  # a refused move's part: where the move as written ends
        end = written["path"][-1] if written["path"] else written["army"]
        if not any(p.code == "siege.illegal" and (p.where or "").startswith(mv["where"])
                   for p in rej[n0:]) and not unsure.touches_sieges([end]):
            end_checks(pack, s, seat, written, rej)  # the markers there decide
        if not (whole and on_path):
            unsure.add(move_footprint(pack, mv["army"], mv["path"], besieges(mv)))
        elif first < b:
            unsure.add(_rest_of(pack, seat, mv, ctx.events[a:first], ctx.events[a:b]))


def _first_end_refused(pack: Pack, s: State, seat: str, mv: dict, unsure: Unsure | None,
                       gaps: dict[int, Unsure] | None, rej: list[Problem]) -> bool:
    """Issue 27 item 5: the refusals :func:`simulate` makes where the first move of its
    list ends, made before its dry run (``siege.illegal``: an assault with nothing to
    besiege there or too few CUs, :func:`_too_few_anyway`, R-10; a ``siege`` card with
    nothing to besiege, R-8.5), under the same conditions, added to ``rej``: True when
    one was found. The same answer as after the dry run: they read ``s`` as before the
    list and ``unsure`` as it stands for the first move (no earlier move adds to it), and
    the dry run always carries the first move to its ``MoveEnded`` or ``MoveCancelled``
    (no game ends in a movement segment; a chart the pack lacks refuses the orders
    too)."""
    n0 = len(rej)
    first = (unsure or Unsure()).copy()
    first.add((gaps or {}).get(0))
    ends_at = {mv["army"], mv["path"][-1] if mv["path"] else mv["army"]}
    if mv.get("assault") and not first.touches_moved(ends_at):
        _too_few_anyway(pack, s, seat, mv, first, rej)
    written = mv.get("full", mv)
    end = written["path"][-1] if written["path"] else written["army"]
    if len(rej) == n0 and not first.touches_sieges([end]):
        end_checks(pack, s, seat, written, rej)
    return len(rej) > n0


def _rest_of(pack: Pack, seat: str, mv: dict, before: list[Any], events: list[Any]) -> Unsure:
    """Issue 24.1: the footprint of a checked move of a list whose first die or window
    came after it had taken a land step (``before``: its events up to then, ``events``:
    all of them): from the space it came from into the space it then stood in on
    (:func:`pbem.rules.core.footprint.rest_footprint`: a tie brings it back one space,
    R-9.2), not the spaces it left before (game 39 of the property test: a pick-up in
    Nicaea, which the army of Nicaea had left before its battle in Byzantium, was left
    to the dice and stopped under every dice). The whole move's footprint
    (:func:`pbem.rules.core.footprint.move_footprint`) when it took no step before, or
    for a naval move (a loser goes back to its port, R-15)."""
    steps = [e for e in before if e.kind == "ArmyMoved" and e.data.get("seat") == seat]
    if not steps or any(e.data.get("naval") for e in events
                        if e.kind == "ArmyMoved" and e.data.get("seat") == seat):
        return move_footprint(pack, mv["army"], mv["path"], besieges(mv))
    return rest_footprint(pack, mv["army"], list(mv["path"]), steps[-1].data["to"],
                          besieges(mv))


def besieges(mv: Any) -> bool:
    """Whether the move ``mv`` (a plan's, or one as written) may change what there is
    to besiege where it ends (R-10, R-8.5): it has an ``assault`` or surprise cards
    (one may be a siege card); True for what is no mapping (the check cannot say)."""
    return not isinstance(mv, dict) or bool(mv.get("assault") or mv.get("surprise"))


def _blocked_anyway(pack: Pack, s: State, seat: str, mv: dict, unsure: Unsure,
                    rej: list[Problem]) -> None:
    """R-9.1, R-9.4: a move whose path goes on through an enemy army that it cannot
    overrun even with the most CUs it may have at its start (as they stood before an
    assault's losses, ``unsure.most_cus``) cannot start, whatever the dice took."""
    cus = unsure.most_cus.get(mv["army"])
    if cus is None:
        return
    for x in mv["path"][:-1]:
        enemy = enemy_of(s, seat, x)
        if enemy is not None and not can_overrun(pack, s, seat, x, cus, enemy):
            reject(rej, "movement.illegal", blocked_text(pack, x).removesuffix(" (R-9.1)"),
                   mv["where"], _moves_hint(pack, s, seat), rule="R-9.1")
            return


def _beyond_any(pack: Pack, s: State, seat: str, ev: Any, mv: dict, unsure: Unsure,
                passed: set[str]) -> bool:
    """Issue 24.1: a pick-up on the way (R-9.1) of more CUs of a type than the seat
    could have in that space whatever the dice took there (as they stood before a
    sally's or an assault's losses, ``unsure.most_cus``; the other seats' royal CUs
    there may join a battle's winner, R-4.3), where no unit of the seat may come
    (neither ``unsure.arrive`` nor an earlier move of the list): refused as the dry run
    finds it."""
    x = ev.data.get("space")
    if ev.kind != "ArmyReorganised" or "picked_up" not in ev.data or x not in pack.spaces \
            or unsure.touches_arrive([x]) or x in passed:
        return False
    have = cus_at(s, seat, x)
    most = unsure.most_cus.get(x, {})
    royal = sum(by.get("royal", 0) for o, by in s["cus"].get(x, {}).items() if o != seat)
    for part in mv.get("pick_up") or []:
        if part.get("at") != x:
            continue
        for t, n in (part.get("cus") or {}).items():
            bound = max(have.get(t, 0), most.get(t, 0)) + (royal if t == "royal" else 0)
            if isinstance(n, int) and n > bound:
                return True
    return False


def _too_few_anyway(pack: Pack, s: State, seat: str, mv: dict, unsure: Unsure,
                    rej: list[Problem]) -> None:
    """R-10: a move with an ``assault`` whose army could not have the CUs an assault
    needs where it ends even without losses — every CU of the seat at its start, the
    CUs its ``pick_up`` names, the seat's CUs already where it ends and the other seats'
    royal CUs there, which join the winner of a battle there (R-4.3) (as they stood
    before an earlier assault's losses, ``unsure.most_cus``; no unit of the seat may
    come to the start or the end, the caller's condition) — is refused whatever the dice
    take on the way (issue 24.1: a lone general's Tyche assault after hostile tribes,
    and a move through the space of a free assault, were accepted, then cancelled under
    every dice)."""
    end = mv["path"][-1] if mv["path"] else mv["army"]
    if end not in pack.spaces or siege_target(pack, s, seat, end)[0] is None:
        return  # nothing to besiege: end_checks says so
    most = sum(sum(unsure.most_cus.get(x, cus_at(s, seat, x)).values())
               for x in {mv["army"], end})
    most += sum(int(n) for part in mv.get("pick_up") or [] for n in (part.get("cus") or {}).values()
                if isinstance(n, int))
    most += sum(by.get("royal", 0) for o, by in s["cus"].get(end, {}).items()
                if o != seat)  # set aside in a battle there, they join the winner
    need = min_assault_cus(pack, s)
    if most < need:
        reject(rej, "siege.illegal", f"assaulting {pack.spaces[end].name} needs {need} CUs, "
               f"the army can have at most {most} there", mv["where"],
               "leave out assault on this move (assault: 0), or bring an army that may "
               "assault there", rule="R-10")


def _refusal(pack: Pack, s: State, seat: str, ev: Any, mv: dict, rej: list[Problem]) -> None:
    """The rejection that a dry-run event of move ``mv`` stands for, if any: a cancelled
    move (``movement.illegal``, or the code of another rule such as R-12.5), a cancelled
    assault (``siege.illegal``), a drop or pick-up that cannot be made on the way."""
    if ev.kind == "MoveCancelled":
        code, rule, hint = "movement.illegal", "R-9.1", ev.data.get("hint")
        if ev.data.get("code"):  # a refusal under another rule
            code, rule = ev.data["code"], ev.data.get("rule", rule)
        elif hint is None:
            hint = _moves_hint(pack, s, seat)
        reject(rej, code, ev.data["why"], mv["where"], hint, rule=rule)
    elif ev.kind == "AssaultCancelled":
        reject(rej, "siege.illegal", ev.data["why"], mv["where"],
               "leave out assault on this move (assault: 0), or bring an army that may "
               "assault there", rule="R-10")
    elif ev.kind == "ArmyReorganised" and ev.data.get("rule") == "R-12.5":
        reject(rej, ev.data.get("code", "movement.royal_moved_twice"), ev.data["error"],
               f"{mv['where']}.pick_up",
               "leave them out of pick_up; they may move again in the next segment",
               rule="R-12.5")
    elif ev.kind == "ArmyReorganised" and ev.data.get("error"):
        part = "drop" if "dropped" in ev.data else "pick_up"
        at = pack.spaces[ev.data["space"]].name
        _once(rej, "movement.illegal", ev.data["error"] if part == "pick_up" else
              f"{ev.data['error']} to drop in {at}", f"{mv['where']}.{part}",
              # issue 24, trial24c: a royal it may not carry was told to pick up "only what is there"
              "leave them out of pick_up: an army carries only the royal family members you "
              "control (the women once active, Alexander's Body from turn 2 on; R-12.1, R-12.4)"
              if NOT_YOURS in str(ev.data["error"]) else
              f"{part} only what is there when the army passes {at}")


def _soft_moves(pack: Pack, s: State, seat: str, part: list, where: str, segment: str,
                mp: int | None) -> dict:
    moves, cancelled = [], []
    for i, raw in enumerate(part):
        r: list[Problem] = []
        mv = parse_move(pack, s, seat, raw, f"{where}[{i}]", r, mp)
        if mv is not None:
            with contextlib.suppress(KeyError):
                static_checks(pack, s, seat, mv, segment, r, soft=True)
        if mv is not None and not r:
            moves.append(mv)
        else:
            cancelled.append({"army": raw.get("army") if isinstance(raw, dict) else None,
                              "why": "; ".join(x.message for x in r) or "not possible now",
                              "where": f"{where}[{i}]"})
    return {"kind": "moves", "moves": moves, "segment": segment, "cancelled": cancelled}


def check_moves(pack: Pack, s: State, seat: str, part: list, where: str,
                rej: list[Problem], segment: str = "movement", mp: int | None = None,
                soft: bool = False, rehearse: Ctx | None = None,
                unsure: Unsure | None = None, single: bool = False) -> dict | None:
    """Validate a list of moves; returns ``{"kind": "moves", "moves": [...],
    "segment"}`` or None. Problem codes: ``movement.*``, ``siege.*``, ``surprise.*``.
    Every move is checked, a refused one too (issue 24: every mistake in one answer):
    its shape and names (:func:`parse_move`), then the checks that need no dice
    (:func:`static_checks`), then the moves that passed both by a dry run
    (:func:`simulate`; a refused move's footprint counts as unsure for the moves after
    it), with a move refused by the static checks in it as far as it can be carried
    out (:func:`partial_move`, issue 24.7). ``soft`` (orders carried out after dice changed the board since they were
    checked): nothing is refused, moves made impossible are listed under
    ``"cancelled"``. ``unsure``: where the board may differ from ``s`` (a check after a
    die or a refused part of the orders, :class:`pbem.rules.core.footprint.Unsure`):
    what may depend on it is left to the real run. ``rehearse``: see
    :func:`simulate`. ``single``: ``part`` holds one move whose fields lie at ``where``
    itself (a Tyche activation, R-8.2), not at ``where[0]``."""
    if soft:
        return _soft_moves(pack, s, seat, part, where, segment, mp)
    n0 = len(rej)
    moves: list[dict] = []
    runs: list[dict] = []  # what the dry run carries out: the moves, and refused ones' parts
    gaps: dict[int, Unsure] = {}
    later = Unsure()
    for i, raw in enumerate(part):
        mine: list[Problem] = []
        mv = parse_move(pack, s, seat, raw, where if single else f"{where}[{i}]", mine, mp)
        rej += [p for p in mine if _army_problem_holds(pack, raw, p, unsure)]
        read = None
        if mv is None and mine:  # issue 24.7a/b: the rest of the move is checked too
            read = _rest_of_move(pack, s, seat, raw, where if single else f"{where}[{i}]", mine,
                                 rej, segment, mp, unsure, later)
        checked = False
        if mv is not None and not mine:
            try:
                gid = resolve_general(pack, raw.get("army"))
                written = [resolve_space(pack, x)[0] for x in raw.get("path") or []]
                static_checks(pack, s, seat, mv, segment, mine, unsure=unsure, ends=False,
                              before=later, fixed_start=gid is None, general=gid,
                              written=written)
                checked = True
            except KeyError as e:  # MissingConstant: the pack lacks movement numbers
                reject(mine, "rules.pack_incomplete", f"the data pack lacks {e}", where)
            rej += mine
        if mv is not None and not mine:
            moves.append(mv)
            runs.append(mv)
            later.add(move_footprint(pack, mv["army"], mv["path"], besieges(mv)))
        else:  # left out of the dry run: what it would have done is not known
            if mv is not None and checked:  # issue 24.7: its start and first steps dry-run
                runs.append(partial_move(pack, s, seat, mv))
            elif read is not None:  # read from close names: not judged where it ends
                runs.append(partial_move(pack, s, seat, read, guessed=True))
            foot = _raw_footprint(pack, s, seat, raw)
            gaps.setdefault(len(runs), Unsure()).add(foot)
            later.add(foot)
    twice = _twice(pack, runs, unsure, rej)
    before = Unsure()
    picks = [k for k, mv in enumerate(runs) if mv.get("full", mv).get("pick_up")]
    for mv in runs[:picks[-1] + 1] if picks else ():
        # what it picks up on the way is there, or not, whatever the dice do (the
        # moves after the last with a pick-up have nothing to check: issue 27 item 5)
        whole = mv.get("full", mv)
        if whole.get("pick_up"):
            _on_the_way(pack, s, seat, whole, _both(unsure, before), rej)
        before.add(move_footprint(pack, whole["army"], whole["path"], besieges(whole)))
    named: list[int] = []
    for mv in runs:  # a surprise card serves one move
        for n in mv.get("full", mv).get("surprise") or []:
            if n in named:
                reject(rej, "surprise.duplicate", f"#{n} {pack.cards[n].name} is named for "
                       "two moves", f"{mv['where']}.surprise", "name each card for one move")
            named.append(n)
    if len(runs) == len(moves) == len(part) and not gaps:
        runs = moves  # the very list the plan carries: its dry run may be adopted
    if runs and not (rehearse is not None and rehearse.quick and len(rej) > n0):
        # (a yes/no check, :func:`pbem.rules.engine.acceptable`, needs no dry run of
        # moves already refused)
        simulate(pack, s, seat, runs, segment, rej, rehearse if runs is moves
                 and not gaps else None, unsure, gaps, twice,
                 quick=rehearse is not None and rehearse.quick)
    return {"kind": "moves", "moves": moves, "segment": segment} if len(rej) == n0 else None


ASIDE_CARDS = frozenset({"surprise.not_a_card", "surprise.not_a_surprise", "surprise.wrong_moment",
                         "surprise.duplicate"})
"""Problems of a move's ``surprise`` list that leave its cards out without hiding its
path: the path is checked without those cards (issue 24.7b)."""


def _rest_of_move(pack: Pack, s: State, seat: str, raw: Any, where: str, found: list[Problem],
                  rej: list[Problem], segment: str, mp: int | None, unsure: Unsure | None,
                  before: Unsure) -> dict | None:
    """Issue 24.7 (every mistake in one answer): a move refused for its names alone — a
    place that is no space (``orders.unknown_space`` in its path), a card that is no
    surprise card of a move (:data:`ASIDE_CARDS`) — has its path checked all the same
    (:func:`static_checks`: R-9.1 adjacency and MPs) and ``movement.bad_path`` /
    ``movement.too_far`` added to ``rej``: a misspelled place read as its one close
    match (:func:`pbem.rules.core.board.closest_space`, the message says so), or else
    the path up to it; the cards left out. ``too_far`` is left out when a card that is
    no card at all might have been a Forced March (R-8.5). Returns the move so read
    (for :func:`partial_move`: its start and the steps that hold are dry-run too), or
    None when it could not be read."""
    if not isinstance(raw, dict) or not isinstance(raw.get("path"), list):
        return None
    places = [p for p in found if p.code == "orders.unknown_space" and (p.where or "").startswith(f"{where}.path[")]
    cards = [p for p in found if p.code in ASIDE_CARDS and (p.where or "").startswith(f"{where}.surprise")]
    armies = [p for p in found if p.code == "movement.unknown_army"]
    if not places + cards + armies or len(places) + len(cards) + len(armies) != len(found):
        return None
    alt, notes, path = dict(raw), [], []
    if armies:  # issue 24 N3: a misspelled general read as the one of the seat's it is close to
        gid = _closest_general(pack, s, seat, raw.get("army"))
        if gid is None:
            return None
        alt["army"] = gid
        notes.append(f"reading {raw.get('army')!r} as {pack.generals[gid].name}")
    for x in raw["path"]:
        sid = resolve_space(pack, x)[0]
        if sid is None:
            sid = closest_space(pack, x)
            if sid is None:
                notes.append(f"on the path before {x!r}")
                break
            notes.append(f"reading {x!r} as {pack.spaces[sid].name}")
        path.append(sid)
    if not path:
        return None
    alt["path"] = path
    if cards:
        alt["surprise"] = read_cards(pack, s, seat, raw["surprise"], MOVE_MOMENTS, where, [], in_hand=False)
    got: list[Problem] = []
    mv = parse_move(pack, s, seat, alt, where, got, mp)
    if mv is None or got:
        return None
    gid = resolve_general(pack, alt.get("army"))
    try:
        static_checks(pack, s, seat, mv, segment, got, unsure=unsure, ends=False, before=before,
                      fixed_start=gid is None, general=gid, written=list(path))
    except KeyError:  # the pack lacks movement numbers: the shape's problems say enough
        return None
    keep = {"movement.bad_path"} | (set() if any(p.code == "surprise.not_a_card" for p in cards)
                                    else {"movement.too_far"})
    for p in got:
        if p.code in keep and p not in rej:
            base = p.message.removesuffix(f" ({p.rule})") if p.rule else p.message
            told = f"{base}, {'; '.join(notes)}" if notes else base
            rej.append(Problem(p.code, f"{told} ({p.rule})" if p.rule else told, p.rule, p.where, p.hint))
    return mv


def _closest_general(pack: Pack, s: State, seat: str, text: Any) -> str | None:
    """The one general of ``seat`` on the map whose name (or id) a misspelled ``text``
    is close to (the same closeness as :func:`pbem.rules.core.board.closest_space`),
    or None (R-5: an army is named by its general)."""
    own = {g for g, v in s["generals"].items() if g in pack.generals and v.get("seat") == seat
           and v.get("where") == "map"}
    names = {n.lower(): g for g in own for n in (g, pack.generals[g].name)}
    return closest_name(text, names)


def _both(unsure: Unsure | None, more: Unsure) -> Unsure:
    """``unsure`` and ``more`` together."""
    out = (unsure or Unsure()).copy()
    out.add(more)
    return out


def _on_the_way(pack: Pack, s: State, seat: str, mv: dict, unsure: Unsure,
                rej: list[Problem]) -> None:
    """R-9.1: each pick-up on the way (``pick_up: {at: Space, ...}`` after the start)
    finds what it names in that space, where no unit may come or go before the army
    passes (``unsure``: the earlier parts of the orders and moves of the list)."""
    for part in mv.get("pick_up") or []:
        at = part.get("at")
        if at in (None, mv["army"]) or at not in mv["path"] or unsure.touches_moved([at]):
            continue
        why = missing_at(pack, s, seat, at, {k: v for k, v in part.items() if k != "royals"})
        if why:
            _once(rej, "movement.illegal", why, f"{mv['where']}.pick_up",
                  f"pick_up only what is there when the army passes {pack.spaces[at].name}")


def _once(rej: list[Problem], code: str, msg: str, where: str, hint: str | None) -> None:
    """:func:`reject` under R-9.1, unless the same problem is there already."""
    more: list[Problem] = []
    reject(more, code, msg, where, hint, rule="R-9.1")
    if all((p.code, p.where, p.message) != (more[0].code, more[0].where, more[0].message)
           for p in rej):
        rej += more


def _twice(pack: Pack, moves: list[dict], unsure: Unsure | None, rej: list[Problem]
           ) -> set[int]:
    """R-9.1: each army moves once per segment. A move from the space an earlier move of
    the list leaves with every general there (it drops none at its start) has no army
    left to move, whatever the dice do: the generals come back only by having moved
    (a tie sends an army back, R-9.2). Refused unless units may come to that space.
    Returns the indices of the moves refused."""
    left: dict[str, dict] = {}
    out: set[int] = set()
    for i, mv in enumerate(moves):
        start = mv["army"]
        first = left.get(start)
        if first is not None and not (unsure is not None and unsure.touches_moved([start])):
            reject(rej, "movement.illegal", f"the army in {pack.spaces[start].name} moves "
                   f"already ({first['where']}): an army moves once per segment",
                   mv["where"], "give each army one move; drop a general at the start "
                   "(drop: {generals: [..]}) to leave an army behind", rule="R-9.1")
            out.add(i)
        keeps = any(p.get("generals") and p.get("at") in (None, start)
                    for p in mv.get("drop") or [])
        if first is None and not keeps:
            left[start] = mv
    return out


def _army_problem_holds(pack: Pack, raw: Any, p: Problem, unsure: Unsure | None) -> bool:
    """Whether a problem :func:`parse_move` found in the move ``raw`` holds whatever the
    unsure parts of the orders do: all of them but an army named by a general of the
    seat that the checked board shows off the map while he may stand on it (he stood
    where a die or a refused part may have changed things; a refused card event may
    place him)."""
    if p.code != "movement.unknown_army" or not unsure:
        return True
    gid = resolve_general(pack, raw.get("army") if isinstance(raw, dict) else None)
    return gid is None or not (unsure.everywhere or unsure.may_stand(gid))


def _raw_footprint(pack: Pack, s: State, seat: str, raw: Any) -> Unsure:
    """The footprint of a move as written (one that was refused): its army's start and
    its path, as far as they name spaces; everywhere when the start is not known."""
    if not isinstance(raw, dict):
        return Unsure()
    start, _msg = resolve_army(pack, s, seat, raw.get("army"))
    path = raw.get("path") if isinstance(raw.get("path"), list) else []
    return move_footprint(pack, start, [resolve_space(pack, x)[0] for x in path],
                          besieges(raw))


def do_moves(ctx: Ctx, seat: str, plan: dict) -> bool:
    """Carry out a plan of :func:`check_moves`; False when a reaction window opened. In
    a check, the dry run :func:`simulate` kept of the same moves is adopted when the
    position has not changed since (:meth:`pbem.rules.context.Ctx.replay_rehearsal`)."""

    if not plan.get("cancelled") and ctx.replay_rehearsal(seat, plan["segment"], plan["moves"]):
        return True
    for x in plan.get("cancelled", []):
        ctx.emit("MoveCancelled", {"seat": seat, "army": x["army"], "why": x["why"],
                                   "where": x["where"], "rule": "R-9.1"})
    c = new_cursor(seat, plan["segment"], plan["moves"])
    c["resume_forage"] = plan["segment"] == "movement"
    if plan.get("rest") is not None:  # the rest of the player-turn after a Tyche move
        c["rest"] = plan["rest"]
    return run_cursor(ctx, c)
