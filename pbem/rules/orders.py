"""Orders of a player-turn (R-8): parsing, validation, legal options and defaults.

The shape is documented in ``docs/orders.md``. ``run_player_turn`` is the single code
path of ``validate`` (dry dice, events discarded) and ``apply`` (real dice): every
segment is checked against the position left by the previous one, then carried out.
"""
from __future__ import annotations

import difflib
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.constants import const
from pbem.rules.context import Ctx, DryDice
from pbem.rules.mapinfo import resolve_space
from pbem.rules.reinforcement import (
    cus_of,
    default_target,
    placement_targets,
    raise_mercenary,
    tidy_markings,
)
from pbem.rules.state import Rejection, _copy, public_orders
from pbem.rules.tyche import (
    card_label,
    check_tyche,
    do_tyche,
    event_supported,
    general_targets,
    legal_garrison_spaces,
    uses_for,
)
from pbem.rules.war_orders import is_paused

State = dict[str, Any]
TOP_KEYS = ("commanders", "surrender", "tyche", "movement", "step", "standing", "inside",
            "outside")
SURRENDER_KEYS = ("accept", "remove", "decline", "assault")


def _rej(rej: list[Rejection], code: str, rule: str, msg: str, where: str,
         hint: str | None = None) -> None:
    rej.append(Rejection(code, rule, f"{msg} ({rule})", where, hint))


def tyche_only(pack: Pack, s: State) -> bool:
    """True in an extra Tyche-only segment (round past the hand size, R-6.5)."""
    return s["round"] > const(pack, "hand_size")


# --- surrender segment (R-8.1) -------------------------------------------------------

def surrender_options(pack: Pack, s: State, seat: str) -> dict[str, list[str]]:
    """R-8.1: ``{"accept": [space], "remove": [space]}``. Accept: a minor city without an
    independent marker where ``seat`` has CUs and no garrison of its own (an enemy
    garrison is replaced); or [L] a vacant major city or conquered stronghold where it has
    CUs. Remove: a minor city with an enemy garrison where it has CUs (leave it vacant)."""
    acc, rem = [], []
    for x in sorted(s["cus"]):
        if cus_of(s, seat, x) == 0 or x in s["independent"]:
            continue
        kind = pack.spaces[x].kind
        owner = s["garrisons"].get(x)
        if owner == seat:
            continue
        if kind == "minor_city":
            acc.append(x)
            if owner:
                rem.append(x)
        elif kind in ("major_city", "stronghold") and owner is None:
            acc.append(x)
    return {"accept": acc, "remove": rem}


def check_surrender(pack: Pack, s: State, seat: str, part: Any, where: str,
                    rej: list[Rejection]) -> dict[str, list[str]] | None:
    """Validate ``surrender: {accept: [..], remove: [..], decline: [..]}`` (R-8.1);
    ``assault`` (free siege rolls) is rules core II and rejected as not yet supported."""
    if part is None:
        return {"accept": [], "remove": [], "decline": []}
    if not isinstance(part, dict):
        _rej(rej, "surrender.not_a_mapping", "R-8.1",
             "surrender must be a mapping with accept/remove/decline lists", where,
             "surrender: {accept: [Tarsus]}")
        return None
    n0 = len(rej)
    opts = surrender_options(pack, s, seat)
    plan: dict[str, list[str]] = {"accept": [], "remove": [], "decline": []}
    seen: set[str] = set()
    for k, v in part.items():
        if k not in SURRENDER_KEYS:
            close = difflib.get_close_matches(str(k), SURRENDER_KEYS, n=1)
            _rej(rej, "orders.unknown_key", "R-8.1", f"surrender has no field {k!r}",
                 f"{where}.{k}", f"did you mean {close[0]}?" if close else None)
            continue
        if k == "assault":  # free rolls (pbem.rules.siege)
            from pbem.rules.war_orders import check_surrender_assault
            plan["assault"] = check_surrender_assault(pack, s, seat, v, f"{where}.assault",
                                                      rej)
            continue
        items = v if isinstance(v, list) else [v]
        for i, item in enumerate(items):
            w = f"{where}.{k}[{i}]"
            sid, hint = resolve_space(pack, item)
            if sid is None:
                _rej(rej, "orders.unknown_space", "R-3.1", f"there is no space {item!r}",
                     w, hint)
                continue
            name = pack.spaces[sid].name
            if sid in seen:
                _rej(rej, "surrender.duplicate", "R-8.1", f"{name} is listed twice", w)
                continue
            seen.add(sid)
            if k in ("accept", "remove") and sid not in opts[k]:
                _rej(rej, f"surrender.cannot_{k}", "R-8.1",
                     _why_not_surrender(pack, s, seat, sid, k), w,
                     ("you may accept: " + ", ".join(pack.spaces[x].name for x in opts[k]))
                     if opts[k] else None)
                continue
            plan[k].append(sid)
    return plan if len(rej) == n0 else None


def _why_not_surrender(pack: Pack, s: State, seat: str, sid: str, k: str) -> str:
    sp = pack.spaces[sid]
    if cus_of(s, seat, sid) == 0:
        return f"you have no CUs in {sp.name}"
    if sid in s["independent"]:
        return f"{sp.name} holds an independent marker: it never surrenders"
    if s["garrisons"].get(sid) == seat:
        return f"{sp.name} already holds your garrison"
    if k == "remove":
        return f"{sp.name} holds no enemy garrison to remove"
    return f"{sp.name} is a {sp.kind.replace('_', ' ')} held by another player; " \
           "only minor cities surrender"


def do_surrender(ctx: Ctx, seat: str, plan: dict[str, list[str]]) -> None:
    """Carry out R-8.1: GarrisonRemoved (enemy) / GarrisonPlaced, SurrenderDeclined."""
    for x in plan["remove"] + plan["accept"]:
        owner = ctx.s["garrisons"].get(x)
        if owner and owner != seat:
            ctx.emit("GarrisonRemoved", {"seat": owner, "space": x, "by": seat,
                                         "rule": "R-8.1"})
        if x in plan["accept"]:
            ctx.emit("GarrisonPlaced", {"seat": seat, "space": x, "rule": "R-8.1"})
    if plan.get("assault"):
        from pbem.rules.siege import surrender_assaults
        surrender_assaults(ctx, seat, plan["assault"])
    if plan["decline"]:
        ctx.emit("SurrenderDeclined", {"seat": seat, "spaces": plan["decline"],
                                       "rule": "R-8.1"})


# --- movement segment and forage (R-8.8) ------------------------------------

def check_movement(pack: Pack, s: State, seat: str, part: Any, where: str,
                   rej: list[Rejection], lenient: bool = False) -> dict[str, Any] | None:
    """Validate ``movement``: ``mercenary`` | ``{mercenary: Space}`` | ``none`` | a list
    of army moves (:mod:`pbem.rules.war_orders`). Returns ``{"kind": "mercenary",
    "space": id|None}``, ``{"kind": "none"}`` or the moves plan. ``lenient``: dice
    already changed the board this turn (e.g. unrest), so a mercenary space that is no
    longer legal falls back to the default space [D] instead of refusing the orders."""
    if part is None or part == "none":
        return {"kind": "none"}
    if part == "mercenary":
        return {"kind": "mercenary", "space": None}
    if isinstance(part, dict) and set(part) == {"mercenary"}:
        sid, hint = resolve_space(pack, part["mercenary"])
        if sid is None:
            _rej(rej, "orders.unknown_space", "R-3.1",
                 f"there is no space {part['mercenary']!r}", f"{where}.mercenary", hint)
            return None
        targets = placement_targets(pack, s, seat)
        if sid not in targets and lenient:
            return {"kind": "mercenary", "space": None, "wanted": sid}
        if sid not in targets:
            best = default_target(pack, s, seat, targets)
            why = _why_no_mercenary(pack, s, seat, sid)
            _rej(rej, "movement.mercenary_place_illegal", "R-7.2",
                 f"{pack.spaces[sid].name} is not a space where you may place "
                 f"reinforcements ({why})",
                 f"{where}.mercenary",
                 f"did you mean {pack.spaces[best].name}?" if best else None)
            return None
        return {"kind": "mercenary", "space": sid}
    if isinstance(part, list):  # army moves (pbem.rules.war_orders, R-9)
        from pbem.rules.war_orders import check_moves
        return check_moves(pack, s, seat, part, where, rej)
    _rej(rej, "movement.unknown", "R-8.7",
         "movement must be mercenary, {mercenary: Space}, none or a list of moves", where,
         "movement: mercenary")
    return None


def _why_no_mercenary(pack: Pack, s: State, seat: str, sid: str) -> str:
    """What keeps the mercenary out of ``sid`` (R-7.2), naming what is there: an
    independent army, another player's units (outside the city when ``seat`` holds it
    inside), or no garrison or general of ``seat``."""
    from pbem.rules.inside import inside_rec, wholly_inside
    from pbem.rules.reinforcement import general_spaces

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
    return "the reinforcement limit per province is reached there"


def do_movement(ctx: Ctx, seat: str, plan: dict[str, Any]) -> None:
    """Carry out the movement segment (R-8.7)."""
    if plan["kind"] == "mercenary":
        if plan.get("wanted"):
            ctx.emit("Note", {"rule": "R-7.2", "seat": seat,
                              "text": f"{ctx.pack.spaces[plan['wanted']].name} can no longer "
                                      "take the mercenary after this turn's dice; it goes to "
                                      "the default space"})
        raise_mercenary(ctx, seat, plan.get("space"))
    elif plan["kind"] == "moves":
        from pbem.rules.war_orders import do_moves
        do_moves(ctx, seat, plan)


def forage(ctx: Ctx, seat: str) -> None:
    """R-8.8: every stack of ``seat`` larger than its space's ``forage_limit`` loses one
    CU, the weakest type first [D] (:func:`pbem.rules.combat.weakest`) unless the seat's
    standing order ``losses`` names the order (:func:`pbem.rules.combat.loss_type`)."""
    pack, s = ctx.pack, ctx.s
    for x in sorted(s["cus"]):
        n = cus_of(s, seat, x)
        if n and n > pack.spaces[x].forage_limit:
            from pbem.rules.combat import loss_type, standing_loss  # specials last [D]
            t = loss_type(pack, s, seat, s["cus"][x][seat])
            chosen = ({"chosen": "standing order"}
                      if standing_loss(s, seat, s["cus"][x][seat]) else {})
            ctx.emit("CUsRemoved", {"seat": seat, "space": x, "cus": {t: 1},
                                    "rule": "R-8.8", "why": "forage",
                                    "limit": pack.spaces[x].forage_limit, **chosen})


# --- the whole player-turn ------------------------------------------------------------

def run_player_turn(ctx: Ctx, seat: str, orders: Any) -> list[Rejection]:
    """Validate and carry out ``orders`` of ``seat`` segment by segment on ``ctx``.
    Returns every rejection found (events emitted so far must then be discarded)."""
    pack, s = ctx.pack, ctx.s
    rej: list[Rejection] = []
    if s["result"]:
        _rej(rej, "game.over", "R-1", "the game is over", "orders")
        return rej
    if s["active"] != seat:
        _rej(rej, "turn.not_your_turn", "R-6.5",
             f"it is {s['active'] or 'nobody'}'s turn, not {seat}'s", "orders",
             "wait for your player_turn prompt; standing orders alone ({standing: "
             "[...]}) may be sent at any time")
        return rej
    if not isinstance(orders, dict):
        _rej(rej, "orders.not_a_mapping", "R-8", "orders must be a mapping", "orders",
             "orders: {tyche: {card: 12, use: discard}, movement: mercenary}")
        return rej
    only = tyche_only(pack, s)
    for k in orders:
        if k not in TOP_KEYS:
            close = difflib.get_close_matches(str(k), TOP_KEYS, n=1)
            _rej(rej, "orders.unknown_key", "R-8", f"orders have no field {k!r}",
                 f"orders.{k}", f"did you mean {close[0]}?" if close else
                 "fields: surrender, tyche, movement")
        elif only and k in ("surrender", "movement"):
            _rej(rej, "orders.tyche_only_segment", "R-6.5",
                 f"this is an extra Tyche-only segment: no {k} segment", f"orders.{k}")
    applied = ctx.emit("OrdersApplied", {"seat": seat, "step": s["step"],
                                         "orders": public_orders(orders), "rule": "R-8"})
    if "commanders" in orders:
        from pbem.rules.generals import check_commanders, do_commanders

        cplan = check_commanders(pack, s, seat, orders["commanders"], "orders.commanders",
                                 rej)
        if cplan is not None:
            do_commanders(ctx, seat, cplan)
    if "standing" in orders:  # standing orders (pbem.rules.reactions)
        from pbem.rules.war_orders import check_standing
        std = check_standing(pack, s, seat, orders["standing"], "orders.standing", rej)
        if std is not None:
            ctx.emit("StandingOrdersSet", {"seat": seat, "orders": std, "rule": "R-9.3"},
                 public=False, seat=seat)  # a private choice: only its seat sees it
    if "inside" in orders or "outside" in orders:  # R-5 units inside a major city
        from pbem.rules.inside import run_inside_orders
        run_inside_orders(ctx, seat, orders, rej)
    if not only and "surrender" in orders:
        plan = check_surrender(pack, s, seat, orders.get("surrender"),
                               "orders.surrender", rej)
        if plan is not None:
            do_surrender(ctx, seat, plan)
    if "tyche" not in orders:
        _rej(rej, "tyche.missing", "R-8.2",
             "every player-turn plays or discards one non-surprise card", "orders.tyche",
             "tyche: {card: N, use: discard}")
    else:
        tplan = check_tyche(pack, s, seat, orders["tyche"], "orders.tyche", rej)
        if tplan is not None and not rej:
            rest = _turn_rest(pack, tplan, orders, only)
            do_tyche(ctx, seat, tplan)
            if is_paused(s):  # a Tyche move waits for a reaction window
                if not isinstance(ctx.dice, DryDice):
                    from pbem.rules.reactions import withhold_orders
                    withhold_orders(ctx, applied, orders)  # the rest stays private
                    return rej  # the rest runs when the window closes (finish_turn)
                _dry_windows(ctx, seat, rest)  # validate: check the rest of the turn now
    if not only and not rej:
        mplan = _movement_plan(ctx, seat, orders.get("movement"), rej)
        if mplan is not None and not rej:
            do_movement(ctx, seat, mplan)
            if not is_paused(s):  # a reaction window defers forage
                forage(ctx, seat)
            else:  # the later moves of the list stay private until they run
                from pbem.rules.reactions import withhold_orders
                withhold_orders(ctx, applied, orders)
    if not rej and not is_paused(s):
        tidy_markings(ctx, seat)
    return rej


def _movement_plan(ctx: Ctx, seat: str, part: Any, rej: list[Rejection]
                   ) -> dict[str, Any] | None:
    """The movement segment's plan (R-8.7), checked against the board as it stands.
    In validation (dry dice) after a die was rolled earlier in the player-turn, that
    board depends on the dice: moves refused there are then checked only for what no
    dice can change (:func:`dice_free_move_checks`) and left to the real run, which
    cancels what is still impossible (``MoveCancelled``; docs/rules.md "Validation")."""
    from pbem.rules.war_orders import soft_if_valid

    pack, s = ctx.pack, ctx.s
    mine: list[Rejection] = []
    plan = check_movement(pack, s, seat, part, "orders.movement", mine, lenient=ctx.rolled)
    if not mine or not (ctx.rolled and isinstance(ctx.dice, DryDice)
                        and isinstance(part, list)):
        rej += mine
        return plan
    n0 = len(rej)
    dice_free_move_checks(pack, s, seat, part, "orders.movement", rej)
    if len(rej) != n0:
        return None
    with soft_if_valid(True):
        return check_movement(pack, s, seat, part, "orders.movement", rej, lenient=True)


def dice_free_move_checks(pack: Pack, s: State, seat: str, part: list, where: str,
                          rej: list[Rejection], segment: str = "movement") -> None:
    """R-9.1, R-10: the checks of a list of moves that no dice can change, for
    validation after dice were rolled (docs/rules.md "Validation"): each move's shape
    (fields, spaces, path list, assault count and the segment's limit, escort, drop and
    pick_up) and an army naming no general or space at all. Where the army stands, its
    path from there and its allowance depend on the board and are left to the real run.
    Rejections are appended to ``rej``."""
    from pbem.rules.siege import LIMITS
    from pbem.rules.war_orders import parse_move, resolve_general

    for i, raw in enumerate(part):
        w = f"{where}[{i}]"
        mine: list[Rejection] = []
        parse_move(pack, s, seat, raw, w, mine)
        army = raw.get("army") if isinstance(raw, dict) else None
        named = isinstance(army, str) and (resolve_general(pack, army) is not None
                                            or resolve_space(pack, army)[0] is not None)
        rej += [r for r in mine if not (r.code == "movement.unknown_army" and named)]
        n = raw.get("assault") if isinstance(raw, dict) else None
        try:
            most = int(const(pack, LIMITS[segment]))
        except KeyError:  # the pack lacks the limit: checked when carried out
            continue
        if isinstance(n, int) and not isinstance(n, bool) and n > most:
            _rej(rej, "siege.too_many_assaults", "R-10",
                 f"at most {most} assaults per space in a {segment} segment", f"{w}.assault")


def _turn_rest(pack: Pack, tplan: dict[str, Any], orders: dict[str, Any], only: bool
               ) -> dict[str, Any] | None:
    """The rest of the player-turn after a Tyche army move (R-8.2, R-16.1), carried in the
    cursor so a reaction window may pause the move (R-9.3): the card's event when it
    follows the activation (bonus and unrest cards, as in ``do_tyche``), the movement
    segment's orders (unless a Tyche-only round), forage and tidying. None when the
    card moves no army."""
    war = tplan.get("war")
    if not war or war.get("kind") != "moves":
        return None
    card = pack.cards[tplan["card"]]
    event = None
    if tplan["use"] != "event" and card.type in ("bonus", "unrest"):
        event = {"card": tplan["card"], "plan": _copy({k: v for k, v in tplan.items()
                                                      if k != "war"})}
    rest = {"event": event, "segment": not only, "movement": _copy(orders.get("movement"))}
    war["rest"] = rest
    return rest


def _dry_windows(ctx: Ctx, seat: str, rest: dict[str, Any] | None) -> None:
    """Validation only (dry dice): answer every window the Tyche move opened with "no
    reaction" and finish the move, so the movement segment's orders are checked up front
    against the board as it would stand (R-9.3)."""
    from pbem.rules.reactions import close_windows_dry
    close_windows_dry(ctx)
    if rest and rest.get("event"):
        from pbem.rules.card_events import resolve_event
        resolve_event(ctx, seat, ctx.pack.cards[rest["event"]["card"]], rest["event"]["plan"])


def finish_turn(ctx: Ctx, seat: str, rest: dict[str, Any]) -> bool:
    """The rest of a player-turn whose Tyche move waited for a reaction window (R-8.2,
    R-9.3): the card's event, the movement segment (R-8.7; orders validated when sent,
    so what the dice and reactions made impossible since is cancelled, never refused),
    forage (R-8.8) and tidying (R-4.2). Returns False when a window opened again."""
    from pbem.rules.war_orders import soft_if_valid

    pack, s = ctx.pack, ctx.s
    if rest.get("event"):
        from pbem.rules.card_events import resolve_event
        resolve_event(ctx, seat, pack.cards[rest["event"]["card"]], rest["event"]["plan"])
    if rest.get("segment"):
        rej: list[Rejection] = []
        with soft_if_valid(True):
            mplan = check_movement(pack, s, seat, rest.get("movement"), "orders.movement",
                                   rej, lenient=True)
        if mplan is None or rej:
            ctx.emit("MoveCancelled", {"seat": seat, "army": None, "where": "orders.movement",
                                       "why": "; ".join(r.message for r in rej)
                                              or "not possible now", "rule": "R-9.1"})
        else:
            do_movement(ctx, seat, mplan)
            if is_paused(s):  # a movement-segment window: forage follows its cursor
                return False
        forage(ctx, seat)
    tidy_markings(ctx, seat)
    return True


def legal_options_of(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """Options of ``seat``'s current decision: while a reaction window is open (R-9.3)
    the window's options for the seat answering it (those of its pending Decision) and
    inactive player-turn options for everyone else, the waiting mover included;
    reinforcement options during the reinforcement phase (see
    :mod:`pbem.rules.reinforce_orders`), else :func:`player_turn_options`."""
    if is_paused(s) and not s["result"]:
        from pbem.rules.reactions import reaction_decision
        window = reaction_decision(pack, s, s["step"])
        if window is not None and window.seat == seat:
            return dict(window.options)
        return player_turn_options(pack, s, seat)
    if s.get("reinforce") and not s["result"]:
        from pbem.rules.reinforce_orders import reinforcement_options
        return reinforcement_options(pack, s, seat)
    return player_turn_options(pack, s, seat)


def player_turn_options(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """Legal choices of ``seat`` now, JSON-safe, in words for the prompt (R-8)::

        {"seat", "step", "round", "tyche_only": bool, "active": bool,
         "hand": [{"card", "name", "ops", "type", "must_play", "uses": [..]}],
         "surprise_discards": [card], "garrison_spaces": [space_id],
         "surrender": {"accept": [id], "remove": [id]},
         "movement": ["mercenary", "none", "moves"], "mercenary_spaces": [id],
         "armies": [{"army", "space", "commander", "allowance", "cus"}],
         "training": {"in_training": [...], "cards_used": int, "cards_allowed": int},
         "general_spaces": {card_no: [id]}, "fleet_upgrades": [fleet_id],
         "special_unit_armies": {card_no: [space]}}

    A special-unit card (R-4.1) lists ``event`` among its uses only when
    ``special_unit_armies`` names an army of the seat the unit may join.

    A card of ``fleet_upgrade_card_ops`` OPs lists ``upgrade_fleet`` among its uses when
    ``fleet_upgrades`` (fleets the seat controls below the cap) is not empty (R-8.2).
    """
    from pbem.rules.naval import upgradable_fleets
    from pbem.rules.tyche import may_upgrade_fleet_with

    active = s["active"] == seat and not s["result"] and not is_paused(s)
    try:
        fleets = upgradable_fleets(pack, s, seat)
    except KeyError:  # the pack lacks the naval chart
        fleets = []
    out: dict[str, Any] = {"seat": seat, "step": s["step"], "round": s["round"],
                           "active": active, "tyche_only": tyche_only(pack, s)}
    hand = []
    gen_spaces: dict[str, list[str]] = {}
    special: dict[str, list[str]] = {}
    from pbem.rules.units import joining_armies, special_effect, why_no_join
    for n in s["hands"].get(seat, []):
        c = pack.cards[n]
        uses = [u for u in uses_for(c) if u != "event" or event_supported(c)]
        eff = special_effect(c)
        if "event" in uses and eff:  # offered only when an army qualifies
            joins = [] if why_no_join(pack, s, seat, eff, None) else \
                joining_armies(pack, s, seat, eff)
            special[str(n)] = joins
            if not joins:
                uses.remove("event")
        if fleets and may_upgrade_fleet_with(pack, c):
            uses.insert(uses.index("garrisons") + 1, "upgrade_fleet")
        hand.append({"card": n, "name": c.name, "ops": c.ops, "type": c.type,
                     "must_play": c.must_play, "uses": uses, "label": card_label(pack, n)})
        if c.type == "general" and c.general and active:
            gen_spaces[str(n)] = general_targets(pack, s, seat, c.general)
    out["hand"] = hand
    out["surprise_discards"] = [h["card"] for h in hand if h["type"] == "surprise"]
    out["garrison_spaces"] = (sorted(legal_garrison_spaces(pack, s, seat))
                              if active else [])
    only = out["tyche_only"]
    out["surrender"] = (surrender_options(pack, s, seat) if active and not only
                        else {"accept": [], "remove": []})
    out["movement"] = [] if only or not active else ["mercenary", "none", "moves"]
    from pbem.rules.war_orders import army_options  # armies that may move
    out["armies"] = army_options(pack, s, seat) if active else []
    out["mercenary_spaces"] = (sorted(placement_targets(pack, s, seat))
                               if active and not only else [])
    out["training"] = {"in_training": [dict(u) for u in s["training"].get(seat, [])],
                       "cards_used": s["training_cards"].get(seat, 0),
                       "cards_allowed": const(pack, "training_cards_per_turn")}
    out["general_spaces"] = gen_spaces
    out["special_unit_armies"] = special
    out["fleet_upgrades"] = fleets
    return out


def default_orders(pack: Pack, s: State, seat: str) -> dict[str, Any]:
    """Orders used when the deadline passes [D]: discard the non-surprise card with the
    fewest OPs that may be discarded (lowest number on ties), else play the first
    must-play card for its event; take the mercenary at the default space (R-8.7)."""
    cards = [n for n in s["hands"].get(seat, []) if pack.cards[n].type != "surprise"]
    out: dict[str, Any] = {}
    disc = [n for n in cards if not pack.cards[n].must_play]
    if disc:
        n = min(disc, key=lambda k: (pack.cards[k].ops or 0, k))
        out["tyche"] = {"card": n, "use": "discard"}
    elif cards:
        out["tyche"] = {"card": min(cards), "use": "event"}
    if not tyche_only(pack, s):
        out["movement"] = "mercenary"
    return out
