"""The movement segment (R-8.7): ``movement: mercenary | {mercenary: Space} | none |
[moves]`` (the list of moves: :mod:`pbem.rules.resolve.moves`).

Like every order kind (:mod:`pbem.rules.orders`): :func:`read`, :func:`options`,
:func:`check`, :func:`execute`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.armies import army_options
from pbem.rules.core.board import resolve_space
from pbem.rules.core.footprint import Unsure, province_spaces
from pbem.rules.core.pieces import (
    controlled_royals,
    cus_at,
    general_spaces,
    inside_rec,
    wholly_inside,
)
from pbem.rules.core.placement import placement_targets, targets_hint
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State, is_paused
from pbem.rules.orders.common import tyche_only
from pbem.rules.resolve.effects import raise_mercenary
from pbem.rules.resolve.moves import check_moves, do_moves


def read(pack: Pack, s: State, seat: str, part: Any, where: str,
         rej: list[Problem]) -> Any:
    """The order's shape (R-8.7): ``mercenary``, ``{mercenary: Space}``, ``none`` (or
    nothing), or a list of moves; anything else is refused."""
    if part is None or part in ("none", "mercenary") or isinstance(part, list) \
            or (isinstance(part, dict) and set(part) == {"mercenary"}):
        return "none" if part is None else part
    reject(rej, "movement.unknown", "movement must be mercenary, {mercenary: Space}, none "
           "or a list of moves", where, "movement: mercenary")
    return None


def options(pack: Pack, s: State, seat: str,
            armies: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """``{"movement": ["mercenary", "none", "moves"], "armies": [{"army", "space",
    "commander", "allowance", "cus"}], "pick_ups": [{"space", "cus", "royals"}],
    "mercenary_spaces": [space]}``: what the seat on turn may do in its movement
    segment (R-8.7, R-9.1); empty lists for the others and in an extra Tyche-only
    segment (no movement segment, R-6.5; its Tyche activation still lists armies and
    pick-ups). ``armies``: the seat's :func:`army_options` of ``s`` when the caller has
    them (the seat on turn only)."""
    thunks = option_parts(pack, s, seat, armies)
    return {k: f() for k, f in thunks.items()}


def option_parts(pack: Pack, s: State, seat: str,
                 armies: list[dict[str, Any]] | None = None
                 ) -> dict[str, Callable[[], Any]]:
    """:func:`options` as ``{key: function giving its value}`` for
    :class:`pbem.rules.core.lazy.LazyOptions` (issue 27 item 5): the armies, the
    pick-ups and the mercenary spaces computed only when read. ``armies``: the seat's
    :func:`army_options` when the caller has them (else computed here, once)."""
    active = s["active"] == seat and not s["result"] and not is_paused(s)
    only = tyche_only(pack, s)
    memo: dict[str, Any] = {}

    def army_list() -> list[dict[str, Any]]:
        if "armies" not in memo:
            memo["armies"] = ([] if not active else armies if armies is not None
                              else army_options(pack, s, seat))
        return memo["armies"]

    return {"movement": lambda: [] if only or not active else ["mercenary", "none", "moves"],
            "armies": army_list,
            "pick_ups": lambda: pick_up_options(pack, s, seat, army_list()) if active else [],
            "mercenary_spaces": lambda: (sorted(placement_targets(pack, s, seat))
                                         if active and not only else [])}


def pick_up_options(pack: Pack, s: State, seat: str, armies: list[dict[str, Any]]
                    ) -> list[dict[str, Any]]:
    """R-9.1 (issue 24 N6: the prompt did not show ``pick_up``): ``seat``'s units that
    no army of its own starts from (``armies``, :func:`army_options`): CUs with no
    general of the seat, and the royal family members it controls standing apart. They
    move only when a move names them in ``pick_up: {at: Space, cus: {type: n},
    royals: [..]}`` as it passes. ``[{"space", "cus": {type: n}, "royals": [id]}]``,
    by space id."""
    starts = {a["space"] for a in armies}
    royals: dict[str, list[str]] = {}
    for r in controlled_royals(pack, s, seat):
        royals.setdefault(s["royals"][r]["space"], []).append(r)
    out = []
    for x in sorted({*s["cus"], *royals}):
        if x in starts or x not in pack.spaces:
            continue
        cus = {t: n for t, n in cus_at(s, seat, x).items() if n}
        if cus or royals.get(x):
            out.append({"space": x, "cus": cus, "royals": royals.get(x, [])})
    return out


def check(pack: Pack, s: State, seat: str, part: Any, where: str, rej: list[Problem],
          soft: bool = False, lenient: bool = False, rehearse: Ctx | None = None,
          unsure: Unsure | None = None) -> dict[str, Any] | None:
    """The movement segment against the position: a mercenary's space (R-7.2), or the
    army moves (:mod:`pbem.rules.resolve.moves`). Returns ``{"kind": "mercenary",
    "space": id|None}``, ``{"kind": "none"}`` or the moves plan. ``lenient``: dice
    already changed the board this turn (e.g. unrest), so a mercenary space that is no
    longer legal falls back to the default space [D] instead of refusing the orders;
    ``soft``: moves are carried out after dice changed the board since they were checked
    (see :func:`pbem.rules.resolve.moves.check_moves`). ``rehearse``: the check's
    context whose ``s`` is ``s``, which keeps the dry run of the moves for carrying them
    out (:meth:`pbem.rules.context.Ctx.keep_rehearsal`). ``unsure``: in a check, where
    the board may differ from ``s`` (:class:`pbem.rules.core.footprint.Unsure`): a
    mercenary's space is refused only when nothing there may differ and a space that
    takes reinforcements for sure is left elsewhere (R-7.2: the overflow spaces count
    only when there is none), and the moves as
    :func:`pbem.rules.resolve.moves.check_moves` says."""
    if part is None or part == "none":
        return {"kind": "none"}
    if part == "mercenary":
        return {"kind": "mercenary", "space": None}
    if isinstance(part, dict) and set(part) == {"mercenary"}:
        sid, hint = resolve_space(pack, part["mercenary"])
        if sid is None:
            reject(rej, "orders.unknown_space", f"there is no space {part['mercenary']!r}", f"{where}.mercenary", hint)
            return None
        targets = placement_targets(pack, s, seat)
        if sid not in targets and (lenient or _may_take(pack, s, seat, sid, targets, unsure)):
            return {"kind": "mercenary", "space": None, "wanted": sid}
        if sid not in targets:
            why = _why_no_mercenary(pack, s, seat, sid)
            reject(rej, "movement.mercenary_place_illegal", f"{pack.spaces[sid].name} is not a space where you may place "
                 f"reinforcements ({why})",
                 f"{where}.mercenary", targets_hint(pack, s, seat, targets))
            return None
        return {"kind": "mercenary", "space": sid}
    if isinstance(part, list):  # army moves (pbem.rules.resolve.moves, R-9)
        return check_moves(pack, s, seat, part, where, rej, soft=soft, rehearse=rehearse,
                           unsure=unsure)
    read(pack, s, seat, part, where, rej)  # the shape is refused
    return None


def _may_take(pack: Pack, s: State, seat: str, sid: str, targets: dict[str, str],
              unsure: Unsure | None) -> bool:
    """Whether ``sid``, no reinforcement space on the checked board, may be one when the
    orders are carried out: the board may differ there (``unsure``), or every space that
    takes reinforcements normally now may stop doing so (R-7.2: without one, the
    overflow spaces, read per province, count). ``sid`` becomes one only when units
    may come or go there, its markers may change, or it holds the seat's garrison or
    general beside another seat's units that may leave. A space with the seat's garrison or
    general stays one unless units may come or go there or its markers may change
    (no other seat's army steps in beside another's units, R-9.3)."""
    if not unsure:
        return False
    sure = [x for x, how in targets.items() if how == "normal" and (
        not unsure.touches_moved([x]) and not unsure.touches_markers([x]))]
    if not sure:
        return unsure.touches(province_spaces(pack, sid) | {sid})
    mine = s["garrisons"].get(sid) == seat or sid in general_spaces(s, seat)
    return unsure.touches_moved([sid]) or unsure.touches_markers([sid]) or (
        mine and unsure.touches([sid]))  # another seat's units there may leave


def _why_no_mercenary(pack: Pack, s: State, seat: str, sid: str) -> str:
    """What keeps the mercenary out of ``sid`` (R-7.2), naming what is there: an
    independent army, another player's units (outside the city when ``seat`` holds it
    inside), or no garrison or general of ``seat``."""

    inside = (inside_rec(s, sid) or {}).get("seat") == seat
    where = "outside your city" if inside else "there"
    if any(a.get("space") == sid for a in s["indep_armies"].values()):
        return f"an independent army stands {where}"
    others = sorted({o for o, c in s["cus"].get(sid, {}).items()
                     if o != seat and sum(c.values()) and not wholly_inside(s, o, sid)}
                    | {v["seat"] for v in s["generals"].values()
                       if v["where"] == "map" and v["space"] == sid and v["seat"] != seat
                       and not wholly_inside(s, v["seat"], sid)}
                    | {o for o, ms in s["minors"].items() if o != seat and sid in ms
                       and not wholly_inside(s, o, sid)})
    if others:
        return f"{' and '.join(others)} {'has' if len(others) == 1 else 'have'} units {where}"
    if s["garrisons"].get(sid) != seat and sid not in general_spaces(s, seat):
        return "you have neither a garrison nor a general there"
    return "the reinforcement limit is reached there"


def execute(ctx: Ctx, seat: str, plan: dict[str, Any]) -> None:
    """Carry out the movement segment (R-8.7)."""
    if plan["kind"] == "mercenary":
        if plan.get("wanted"):
            ctx.emit("Note", {"rule": "R-7.2", "seat": seat,
                              "text": f"{ctx.pack.spaces[plan['wanted']].name} can no longer "
                                      "take the mercenary after this turn's dice; it goes to "
                                      "the default space"})
        raise_mercenary(ctx, seat, plan.get("space"))
    elif plan["kind"] == "moves":
        do_moves(ctx, seat, plan)
