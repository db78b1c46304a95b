"""The footprints of the parts of a player-turn (issue 24): where each part may change
the board, for the check of the parts after it (:mod:`pbem.rules.core.footprint`).

A check runs every part of the orders in one pass so that one answer names every
mistake (docs/orders.md "Validation"). A later part is checked against the board the
earlier ones leave; where an earlier part was refused (and so left out of the dry run),
or met a die or another seat's answer, that board is known only outside the part's
footprint: :func:`as_written` (a refused part, read as the player wrote it) and
:func:`of_plan` (a checked part whose outcome the dice decide). :func:`sure_problems`
says which problems of a later part hold whatever happens inside the footprints.

Helpers of :mod:`pbem.rules.phases.player_turn` (not a phase).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.pack.model import Card, Pack
from pbem.problems import Problem
from pbem.rules.core.armies import resolve_army
from pbem.rules.core.board import resolve_space
from pbem.rules.core.footprint import (
    EVERYWHERE,
    Unsure,
    move_footprint,
    near,
    places_footprint,
    provinces_footprint,
)
from pbem.rules.core.state import State, hand_of
from pbem.rules.orders.tyche import norm_use
from pbem.rules.orders.tyche_surprises import parse_card
from pbem.rules.resolve.moves import MOVE_KEYS, besieges, check_moves
from pbem.rules.resolve.surprises import moments_of

BOARD_FREE = frozenset({
    "orders.unknown_key", "orders.unknown_space", "orders.field_not_used",
    "orders.not_a_mapping", "rules.not_yet_supported", "rules.pack_incomplete",
    "tyche.not_a_mapping", "tyche.card_missing", "tyche.card_not_in_hand",
    "tyche.duplicate_card", "tyche.surprise_not_mandatory", "tyche.unknown_use",
    "tyche.must_play_not_discardable", "tyche.no_ops", "tyche.use_not_allowed",
    "tyche.not_a_surprise", "tyche.discard_drawn_not_bool", "tyche.unknown_province",
    "tyche.fleet_upgrade_ops", "tyche.unknown_fleet", "tyche.activate_army_missing",
    "tyche.moves_missing", "tyche.too_many_places", "tyche.nothing_to_place", "tyche.duplicate_place",
    "tyche.places_missing", "tyche.too_many_garrisons", "tyche.training_cards_used", "tyche.training_units_full",
    "tyche.phalangite_too_fast", "tyche.auxiliary_same_turn", "tyche.train_entry",
    "tyche.train_missing", "tyche.train_overpaid", "tyche.train_too_many_ops",
    "movement.not_a_mapping", "movement.path_missing", "movement.bad_assault",
    "movement.bad_escort", "movement.bad_part", "movement.bad_cus",
    "movement.unknown_royal", "commanders.unknown_general", "siege.too_many_assaults",
    "surprise.not_a_card", "surprise.not_a_surprise", "surprise.wrong_moment",
    "surprise.duplicate",
})
"""Problem codes of the Tyche segment that no piece on the board decides: the card and
its use, the shape of the fields and the names in them, the training record. They hold
whatever the earlier parts of the orders do."""


def _spaces(pack: Pack, value: Any) -> list[str]:
    """The space ids a field names (one name, a list or a mapping's keys), as far as
    they are names of spaces."""
    items = list(value) if isinstance(value, (list, Mapping)) else [value]
    return [sid for sid in (resolve_space(pack, x)[0] for x in items) if sid is not None]


def as_written(pack: Pack, s: State, seat: str, name: str, part: Any) -> Unsure:
    """Where the part ``name`` of the player-turn (``commanders``, ``standing``,
    ``outside``, ``inside``, ``heir``, ``surrender``, ``tyche``, ``movement``) would
    change the board if it were carried out as written: the spaces it names with what
    is around them, a move's footprint, nothing for the parts that change no piece
    (standing orders, the heir, a discard, a fleet upgrade), everywhere when it cannot
    be placed (a card event, training without ``place``, a move whose army is unknown)."""
    if name in ("standing", "heir", "bury") or part is None:
        return Unsure()
    if name in ("commanders", "outside", "inside"):  # who commands, units in or out
        return places_footprint(pack, _spaces(pack, part), units=True, markers=False)
    if name == "surrender":  # garrisons, assaults: CUs lost
        if not isinstance(part, Mapping):
            return Unsure()
        return places_footprint(pack, [x for v in part.values() for x in _spaces(pack, v)])
    if name == "movement":
        return _movement_as_written(pack, s, seat, part)
    if name != "tyche" or not isinstance(part, Mapping):
        return EVERYWHERE.copy()
    use = norm_use(part.get("use"))
    if use in ("discard", "upgrade_fleet"):
        return Unsure()
    if use == "garrisons":
        return places_footprint(pack, _spaces(pack, part.get("places")))
    if use == "train" and part.get("place") is not None:
        return places_footprint(pack, _spaces(pack, part.get("place")), units=True)
    card = _card(pack, s, seat, part.get("card"))
    if card is not None and card.type == "surprise":  # [D] issue 24 N3: no Tyche play at all
        return Unsure()  # (tyche.surprise_not_mandatory): the rest is checked as after a discard
    if use == "activate":
        out = move_footprint(pack, *_activation(pack, s, seat, part), besieges(part))
        if card is not None and card.type in ("bonus", "unrest"):  # its event follows
            out.add(_event_footprint(pack, card, None))
        return out
    if use == "event" and card is not None:
        moves = part.get("moves") if isinstance(part.get("moves"), list) else []
        return _event_footprint(pack, card, [_raw_move(pack, s, seat, m) for m in moves])
    return EVERYWHERE.copy()


def _card(pack: Pack, s: State, seat: str, value: Any) -> Any:
    """The card of the seat's hand that ``value`` names, or None."""
    n, _hint = parse_card(pack, list(hand_of(s, seat)), value)
    return pack.cards.get(n) if n in hand_of(s, seat) else None


def _raw_move(pack: Pack, s: State, seat: str, raw: Any) -> Unsure:
    """The footprint of one move as written."""
    return move_footprint(pack, *_activation(pack, s, seat, raw), besieges(raw)) \
        if isinstance(raw, Mapping) else Unsure()


def _event_footprint(pack: Pack, card: Card, moves: list[Unsure] | None) -> Unsure:
    """Where the event of ``card`` may change the board otherwise than a dry run shows:
    its army moves (``moves``: their footprints; None: not known), an unrest roll's
    provinces (R-16.2, the unrest chart), an independent army's scripted path (R-14);
    everywhere for any other effect beside those (it follows them, R-16)."""
    out = Unsure()
    for eff in card.effects:
        if eff.primitive == "move_armies" and moves is not None:
            for m in moves:
                out.add(m)
        elif eff.primitive == "unrest" and eff.params.get("chart", "unrest") in pack.charts:
            chart = pack.charts[eff.params.get("chart", "unrest")]
            out.add(provinces_footprint(pack, {str(p) for row in chart.cells.values()
                                               for v in row.values()
                                               for p in ([v] if isinstance(v, str) else v)}))
        elif eff.primitive == "activate_independent":
            path = {str(x) for x in eff.params.get("path", []) if str(x) in pack.spaces}
            out.add(Unsure(near(pack, path), moved=path, markers=set(path)))
        else:
            return EVERYWHERE.copy()
    return out


def _movement_as_written(pack: Pack, s: State, seat: str, part: Any) -> Unsure:
    """The footprint of the movement segment as written: its moves, or the mercenary's
    space (everywhere for the default space, which the board decides)."""
    if isinstance(part, list):
        out = Unsure()
        for raw in part:
            if not isinstance(raw, Mapping):
                continue
            start, _msg = resolve_army(pack, s, seat, raw.get("army"))
            path = raw.get("path") if isinstance(raw.get("path"), list) else []
            out.add(move_footprint(pack, start, [resolve_space(pack, x)[0] for x in path],
                                   besieges(raw)))
        return out
    if isinstance(part, Mapping) and "mercenary" in part:
        return places_footprint(pack, _spaces(pack, part["mercenary"]), units=True)
    if part == "mercenary":
        return EVERYWHERE.copy()
    return Unsure()


def of_plan(pack: Pack, name: str, plan: Any) -> Unsure:
    """Where a checked part may have changed the board otherwise than the check's dry
    run shows, once a die or another seat's answer came into it: the footprints of the
    army moves of its plan (a Tyche activation, Major Campaign, the movement segment),
    the spaces of a surrender segment's assaults and sieges, a sally's city, a card
    event's (:func:`_event_footprint`: unrest, an independent army); everywhere for a
    part it cannot place."""
    if plan is None:
        return Unsure()
    if name == "surrender" and isinstance(plan, Mapping):
        return places_footprint(pack, [*plan.get("assault", []), *(plan.get("surprise") or {})])
    if name in ("outside", "inside") and isinstance(plan, list):
        out = places_footprint(pack, [x if isinstance(x, str) else x.get("space")
                                      for x in plan], units=True, markers=False)
        if name == "outside":  # a sally's battle only takes the seat's units away
            out.arrive = set()
        return out
    if name == "movement" and isinstance(plan, Mapping):
        return Unsure() if plan.get("kind") != "moves" else _moves(pack, plan)
    if name != "tyche" or not isinstance(plan, Mapping):
        return EVERYWHERE.copy()
    war = plan.get("war") if isinstance(plan.get("war"), Mapping) else {}
    moved = _moves(pack, war) if war.get("kind") == "moves" else None
    card = pack.cards[plan["card"]]
    if plan.get("use") == "event":
        return _event_footprint(pack, card, None if moved is None else [moved])
    out = moved or Unsure()
    if plan.get("use") == "activate" and card.type in ("bonus", "unrest"):
        out.add(_event_footprint(pack, card, None))  # its event follows the move
    return out


def _moves(pack: Pack, plan: Mapping[str, Any]) -> Unsure:
    """The footprints of the moves of a moves plan."""
    out = Unsure()
    for mv in plan.get("moves", []):
        out.add(move_footprint(pack, mv["army"], mv["path"], besieges(mv)))
    return out


def sure_problems(pack: Pack, s: State, seat: str, problems: list[Problem], unsure: Unsure,
                  orders: Any, refused: Unsure | None = None) -> list[Problem]:
    """The problems of a part of ``orders`` that hold whatever happens where the board
    is ``unsure``: all of them when nothing is unsure; the problems of the Tyche
    segment's army moves (an activation, R-8.2; Major Campaign, R-16.1) that the moves'
    own check finds with ``unsure`` (:func:`pbem.rules.resolve.moves.check_moves`); of
    the others, when ``refused`` is given (the footprints of the refused parts only: a
    part carried out strictly after dice keeps the problems the dry run finds), those
    that hold whatever happens there: the board-free ones (:data:`BOARD_FREE`),
    ``surprise.not_in_hand`` while the hand is known, and those whose field names
    spaces (:func:`subject`) that are clear, for a garrison also those within two spaces
    (R-8.3: a CU or garrison within 2 MPs)."""
    if not unsure:
        return list(problems)
    moves: set[tuple[str, str | None, str]] | None = None
    out = []
    for p in problems:
        where = p.where or ""
        if where.startswith("orders.tyche") and p.code.split(".")[0] in (
                "movement", "siege", "surprise") and p.code not in BOARD_FREE:
            if moves is None:
                moves = _tyche_moves(pack, s, seat, orders.get("tyche"), unsure)
            if (p.code, p.where, p.message) in moves:
                out.append(p)
        elif _sure(pack, p, unsure if refused is None else refused, orders):
            out.append(p)
    return out


def _sure(pack: Pack, p: Problem, unsure: Unsure, orders: Any) -> bool:
    """Whether a problem of no army move holds whatever happens where the board is
    ``unsure`` (:func:`sure_problems`)."""
    if not unsure or p.code in BOARD_FREE:
        return True
    if p.code == "surprise.not_in_hand":
        return unsure.hand_known
    if unsure.everywhere:
        return False
    named = set(subject(pack, orders, p.where or ""))
    if not named:
        return False
    if p.code == "tyche.garrison_illegal":  # a CU or garrison within 2 MPs
        named = near(pack, near(pack, named))
    return not unsure.touches(named)


def _tyche_moves(pack: Pack, s: State, seat: str, tyche: Any, unsure: Unsure
                 ) -> set[tuple[str, str | None, str]]:
    """The problems ``(code, where, message)`` the army moves of the Tyche orders have
    with ``unsure`` (R-8.2 activation, R-16.1 Major Campaign)."""
    card = _card(pack, s, seat, tyche.get("card")) if isinstance(tyche, Mapping) else None
    if card is None:
        return set()
    rej: list[Problem] = []
    if isinstance(tyche.get("moves"), list):
        mp = next((e.params.get("mp", pack.constants.get("major_campaign_mp"))
                   for e in card.effects if e.primitive == "move_armies"), None)
        check_moves(pack, s, seat, tyche["moves"], "orders.tyche.moves", rej, "tyche",
                    None if mp is None else int(mp), unsure=unsure)
    elif "army" in tyche and "path" in tyche:
        raw = {k: tyche[k] for k in MOVE_KEYS if k in tyche}
        check_moves(pack, s, seat, [raw], "orders.tyche", rej, "tyche", card.ops,
                    unsure=unsure, single=True)
    return {(p.code, p.where, p.message) for p in rej}


def subject(pack: Pack, orders: Any, where: str) -> list[str]:
    """The spaces the field at ``where`` (``orders.tyche.places[1]``,
    ``orders.inside.Babylon``) names: the mapping keys on the way that are spaces and the
    spaces in the value there."""
    steps = [x for part in where.split(".")[1:] for x in _steps(part)]
    at, out = orders, []
    for step in steps:
        if isinstance(step, str):
            out += _spaces(pack, step) if isinstance(at, Mapping) and at is not orders else []
            at = at.get(step) if isinstance(at, Mapping) else None
        else:
            at = at[step] if isinstance(at, list) and 0 <= step < len(at) else None
    if isinstance(at, (str, list)) or (isinstance(at, Mapping) and at):
        out += _spaces(pack, at)
    return out


def _steps(part: str) -> list[str | int]:
    """``places[1]`` -> ``["places", 1]``."""
    name, _, rest = part.partition("[")
    out: list[str | int] = [name] if name else []
    for idx in rest.split("[") if rest else []:
        try:
            out.append(int(idx.rstrip("]")))
        except ValueError:
            return out
    return out


def _activation(pack: Pack, s: State, seat: str, tyche: Mapping[str, Any]
                ) -> tuple[str | None, list[str | None]]:
    """The start (a space id, or None) and path of a move as written (a Tyche
    activation, one of Major Campaign's moves)."""
    start, _msg = resolve_army(pack, s, seat, tyche.get("army"))
    path = tyche.get("path") if isinstance(tyche.get("path"), list) else []
    return start, [resolve_space(pack, x)[0] for x in path]


def left_to_chance(pack: Pack, name: str, plan: Any, unsure: Unsure, cause: str) -> list[str]:
    """What the check of the accepted part ``name`` (``tyche`` or ``movement``) with the
    army moves of ``plan`` left to ``cause`` (the dice rolled or the answers given
    before it, e.g. "the Unrest roll"), as at most one plain line for the receipt
    (issue 24.1, docs/orders.md "Validation"): the spaces of its moves where any seat's
    units may differ (``unsure.units``: an army on the way, the CUs that would overrun
    it), and the ends of moves with an assault or a siege card where the markers may
    differ (what there is to besiege, R-10, R-8.5). Empty when nothing of the part was
    left (an unrest roll places markers only: a move with no assault reads none)."""
    moves = _plan_moves(name, plan)
    if not unsure or not moves:
        return []
    if unsure.everywhere:
        return [(f"{name}: checked up to what {cause} decides: where the armies stand and "
                 "what there is to besiege when the moves are carried out")]
    units: list[str] = []
    ends: list[str] = []
    for mv in moves:
        units += [x for x in [mv["army"], *mv["path"]] if unsure.touches_units([x]) and x not in units]
        end = mv["path"][-1] if mv["path"] else mv["army"]
        sieging = mv.get("assault") or any("siege" in moments_of(pack, n) for n in mv.get("surprise") or [])
        if sieging and unsure.touches_sieges([end]) and end not in ends:
            ends.append(end)
    parts = []
    if units:
        parts.append("the armies and CUs in " + ", ".join(pack.spaces[x].name for x in units)
                     + " (a move that cannot go on then stops there)")
    if ends:
        parts.append("the markers in " + ", ".join(pack.spaces[x].name for x in ends)
                     + ", where a move ends to besiege (an assault with nothing to besiege "
                     "then is cancelled)")
    return [f"{name}: checked up to what {cause} decides: " + "; ".join(parts)] if parts else []


def _plan_moves(name: str, plan: Any) -> list[dict[str, Any]]:
    """The army moves of a checked part's plan (the movement segment's, a Tyche
    activation's or Major Campaign's)."""
    if not isinstance(plan, Mapping):
        return []
    war = plan.get("war") if name == "tyche" else plan
    if not isinstance(war, Mapping) or war.get("kind") != "moves":
        return []
    return list(war.get("moves", []))
