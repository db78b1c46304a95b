"""What happens to the royal family on the board (R-12, R-11.2): capture in battle, by
an overrun and in a completed siege; burial and the tomb; the end of the turn (marriage
offers expire, the body buried in Pella); death, entry on the map and activation of a
member by a card; Mutiny.

Control changes that follow from the position alone (a member left alone, found alone,
a marriage) are settled after every event (:mod:`pbem.rules.core.royals`); this module
carries out the procedures that change control on purpose.
"""
from __future__ import annotations

from pbem.pack.model import Effect, Pack
from pbem.rules.context import Ctx
from pbem.rules.core.armies import commander, side_legitimacy
from pbem.rules.core.control import legitimacy_points, royal_controller
from pbem.rules.core.pack import const
from pbem.rules.core.pieces import INDEP, cus_at, has_general
from pbem.rules.core.royals import court, in_play, why_no_burial
from pbem.rules.core.state import State
from pbem.rules.resolve.effects import lift_abandoned, tidy_markings
from pbem.rules.resolve.surprises import prestige_moment


def capture(ctx: Ctx, winner: str, loser: str, space: str, how: str) -> None:
    """R-12.3: the members ``loser`` controls in ``space`` pass to ``winner`` (heirs and
    the cart: ``RoyalTaken``); a woman captured becomes inactive where she is
    (``RoyalControlLost``, R-12.2). ``how``: battle, overrun, joined or siege. Nothing
    when either side is independent (independent armies never control; a member left
    alone is settled by the position)."""
    if INDEP in (winner, loser) or winner == loser:
        return
    pack, s = ctx.pack, ctx.s
    for rid in sorted(s["royals"]):
        if rid not in pack.royals or not in_play(s, rid) \
                or s["royals"][rid]["space"] != space \
                or royal_controller(pack, s, rid) != loser:
            continue
        if pack.royals[rid].kind == "woman":
            ctx.emit("RoyalControlLost", {"royal": rid, "seat": loser, "space": space,
                                          "how": how, "by": winner, "woman": True,
                                          "rule": "R-12.3"})
        else:
            ctx.emit("RoyalTaken", {"royal": rid, "seat": winner, "from": loser,
                                    "space": space, "how": how, "rule": "R-12.3"})


def capture_in_siege(ctx: Ctx, besieger: str, space: str, owner: str) -> None:
    """R-12.3: when the siege of a major city completes, the members held there by its
    owner or by the faction inside pass to the besieger (:func:`capture`)."""
    rec = (ctx.s.get("inside") or {}).get(space)
    for loser in dict.fromkeys([owner, rec["seat"] if rec else owner]):
        capture(ctx, besieger, loser, space, "siege")


def bury(ctx: Ctx, seat: str) -> None:
    """R-12.4: ``seat`` buries the body where it stands (checked by
    :func:`pbem.rules.core.royals.why_no_burial`): in the space ``burial_pella_space``
    its faction gains ``burial_pella_lp`` for good; elsewhere the tomb gives
    ``tomb_guardian_lp`` to whoever controls the city. The tomb never moves
    (``BodyBuried``)."""
    x = ctx.s["royals"]["body"]["space"]
    ctx.emit("BodyBuried", {"seat": seat, "space": x,
                            "pella": x == const(ctx.pack, "burial_pella_space"),
                            "rule": "R-12.4"})


def end_of_turn(ctx: Ctx) -> None:
    """The royal family at the end of the turn (R-12.4, R-12.2): the controller of the body
    standing in Pella with a general of his buries it there [D] (burial needs no card and
    may happen in the end-of-turn phase; in Pella it can only gain him LP); then every
    marriage offer ends and its card goes back to the deck (``MarriageOfferEnded``)."""
    pack, s = ctx.pack, ctx.s
    seat = royal_controller(pack, s, "body") if "body" in s["royals"] else None
    pella = const(pack, "burial_pella_space")
    if seat and why_no_burial(pack, s, seat, pella) is None:
        bury(ctx, seat)
    for rid, offer in sorted((court(s).get("offers") or {}).items()):
        ctx.emit("MarriageOfferEnded", {"royal": rid, "seat": offer["seat"],
                                        "card": offer["card"], "married": offer["married"],
                                        "rule": "R-12.2"})


def kill(ctx: Ctx, seat: str, card: int, royal: str) -> None:
    """R-12.6: ``royal`` dies (Drink the Hemlock) and leaves play (``RoyalKilled``)."""
    r = ctx.s["royals"][royal]
    ctx.emit("RoyalKilled", {"royal": royal, "seat": seat, "card": card, "rule": "R-12.6",
                             "controller": royal_controller(ctx.pack, ctx.s, royal),
                             "space": r.get("space")})


def enter(ctx: Ctx, seat: str, card: int, royal: str, to: str, with_army: bool) -> None:
    """R-12.5, R-2: ``royal`` comes from his holding box to ``to`` (``RoyalMoved``); with
    ``with_army`` he joins ``seat``'s army there and ``seat`` controls him."""
    ctx.emit("RoyalMoved", {"royal": royal, "from": ctx.s["royals"][royal].get("space"),
                            "to": to, "card": card, "rule": "R-12.5",
                            **({"seat": seat} if with_army else {})})


def activate(ctx: Ctx, seat: str, card: int, royal: str) -> None:
    """R-12.2: a woman becomes active under ``seat``'s control (``RoyalActivated``)."""
    ctx.emit("RoyalActivated", {"royal": royal, "seat": seat, "card": card,
                                "space": ctx.s["royals"][royal]["space"], "rule": "R-12.2"})


MUTINY_TYPES = ("royal", "loyal")
"""CU types a Mutiny turns when the card names none (its ``types`` parameter)."""


def mutiny_types(eff: Effect) -> tuple[str, ...]:
    """The CU types a Mutiny turns (effect parameter ``types``, else royal and loyal)."""
    return tuple(eff.params.get("types") or MUTINY_TYPES)


def mutiny_strikes(pack: Pack, s: State, seat: str, target: str, space: str,
                   types: tuple[str, ...], lps: dict[str, int] | None = None) -> bool:
    """R-11.2: a Mutiny played by ``seat`` would strike the army of ``target`` in
    ``space`` now: a general with CUs of ``types``, whose faction LP plus its
    commander's prestige there (no holy ground: a Mutiny is no attack, R-11.4) are below
    ``seat``'s LP. Never an independent army. ``lps``: every seat's LP now, when the
    caller has them (:func:`pbem.rules.core.control.legitimacy_points`)."""
    if INDEP in (seat, target) or seat == target:
        return False
    cus = s["cus"].get(space, {}).get(target) or {}
    if not (any(cus.get(t) for t in types) and has_general(s, target, space)):
        return False
    lps = lps if lps is not None else legitimacy_points(pack, s)
    return side_legitimacy(pack, s, target, space, False, lps) < lps[seat]


def mutiny_strength(ctx: Ctx, seat: str, target: str, space: str) -> dict[str, int]:
    """R-11.2: the legitimacy compared by Mutiny: ``seat``'s LP against the faction LP of
    ``target`` plus its commander's prestige in ``space`` (no holy ground: a Mutiny is
    no attack, R-11.4)."""
    return {seat: legitimacy_points(ctx.pack, ctx.s)[seat],
            target: side_legitimacy(ctx.pack, ctx.s, target, space, False)}


def mutiny(ctx: Ctx, seat: str, card: int, target: str, space: str,
           types: tuple[str, ...]) -> bool:
    """R-11.2 [D] Mutiny: when the army of ``target`` in ``space`` has less legitimacy
    than ``seat`` (:func:`mutiny_strength`), its CUs of ``types`` desert to ``seat``'s
    dispersed box (``MutinyStruck``; they come back with his reinforcements, R-7.2);
    the army left is tidied at once (R-4.2) and a siege it held lifted (R-10). Returns
    False (and a ``Note``) when the army is as legitimate or more, or has none of those
    CUs. First the target may play a prestige surprise card (Orator's Gift, R-8.5) that
    saves the army (:func:`pbem.rules.resolve.surprises.prestige_moment`)."""
    pack, s = ctx.pack, ctx.s
    mine = legitimacy_points(pack, s)[seat]
    prestige_moment(ctx, space, {target: False}, lambda v: v[target] < mine,
                    enemy={target: seat})
    legit = mutiny_strength(ctx, seat, target, space)
    cus = {t: n for t, n in cus_at(s, target, space).items() if t in types and n}
    if legit[target] >= legit[seat] or not cus:
        why = (f"{target}'s army there has {legit[target]} legitimacy, {seat} "
               f"{legit[seat]}" if legit[target] >= legit[seat] else
               f"{target}'s army there has no {' or '.join(types)} CUs")
        ctx.emit("Note", {"seat": seat, "rule": "R-11.2",
                          "text": f"the mutiny in {pack.spaces[space].name} fails: {why}"})
        return False
    ctx.emit("MutinyStruck", {"seat": seat, "target": target, "space": space, "cus": cus,
                              "commander": commander(pack, s, target, space),
                              "legitimacy": legit, "card": card, "rule": "R-11.2"})
    tidy_markings(ctx, target)
    lift_abandoned(ctx)
    return True
