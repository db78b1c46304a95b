"""The basic changes of the board that several rules share: placing CUs and the minor
general that marks them (R-4.2, R-7.2), the mercenary of the movement segment (R-8.7),
tidying the markings after a turn (R-4.2, R-5), moving a whole stack, losing single CUs,
dispersing generals, the attack on a Champion (R-11.4), lifting abandoned sieges (R-10)
and forage (R-8.8).
"""
from __future__ import annotations

from pbem.rules.context import Ctx
from pbem.rules.core.armies import is_attack_on_champion
from pbem.rules.core.pack import const
from pbem.rules.core.pieces import (
    _chosen,
    controlled_royals,
    cus_at,
    cus_of,
    free_minor_generals,
    generals_at,
    group_at,
    has_general,
    inside_generals,
    loss_type,
    sits_out,
    standing_loss,
)
from pbem.rules.core.placement import default_target, placement_targets


def place_cus(ctx: Ctx, seat: str, space: str | None, cus: dict[str, int], rule: str,
              why: str, from_dispersed: bool = False) -> None:
    """Place CUs (already checked against :func:`placement_targets`), adding a minor
    general when the space has no general or garrison of ``seat`` (R-4.2). ``space`` None
    means no legal space: new CUs go to the dispersed box [D]."""
    if space is None:
        if not from_dispersed:
            ctx.emit("DispersedAdded", {"seat": seat, "cus": cus, "rule": rule,
                                        "why": why + ": no space to place them"})
        return
    s = ctx.s
    if not has_general(s, seat, space) and s["garrisons"].get(space) != seat:
        ctx.emit("MinorGeneralPlaced", {"seat": seat, "space": space, "rule": "R-5"})
    ctx.emit("CUsPlaced", {"seat": seat, "space": space, "cus": cus, "rule": rule,
                           "why": why, "from_dispersed": from_dispersed})


def raise_mercenary(ctx: Ctx, seat: str, space: str | None) -> None:
    """R-8.7: the movement segment is spent raising mercenary CUs placed as reinforcements
    (R-7.2). ``space`` None picks :func:`default_target`."""
    n = const(ctx.pack, "movement_mercenary_cus")
    for _ in range(n):
        targets = placement_targets(ctx.pack, ctx.s, seat)
        where = space if space in targets else default_target(ctx.pack, ctx.s, seat, targets)
        ctx.emit("MercenaryRaised", {"seat": seat, "space": where, "rule": "R-8.7"})
        place_cus(ctx, seat, where, {"mercenary": 1}, "R-8.7", "mercenary raised")


def tidy_markings(ctx: Ctx, seat: str) -> None:
    """R-4.2/R-5 after a player-turn: a minor general with no CUs or with a friendly major
    general leaves the map; CUs with no general, garrison or minor general of their owner
    get a free minor general [D], else go to the dispersed box."""
    s = ctx.s
    for space in list(s["minors"].get(seat, [])):
        if cus_of(s, seat, space) == 0 or generals_at(s, seat, space):
            ctx.emit("MinorGeneralRemoved", {"seat": seat, "space": space, "rule": "R-5"})
    for space in sorted(s["cus"]):
        if cus_of(s, seat, space) == 0 or has_general(s, seat, space) \
                or s["garrisons"].get(space) == seat:
            continue
        if free_minor_generals(ctx.pack, s, seat) > 0:
            ctx.emit("MinorGeneralPlaced", {"seat": seat, "space": space, "rule": "R-4.2"})
        else:
            ctx.emit("CUsDispersed", {"seat": seat, "space": space,
                                      "cus": dict(s["cus"][space][seat]), "rule": "R-4.2"})


def emit_move(ctx: Ctx, seat: str, a: str, b: str, group: dict, rule: str, **extra) -> None:
    """``ArmyMoved`` of ``group`` from ``a`` to ``b`` (one path)."""
    ctx.emit("ArmyMoved", {"seat": seat, "from": a, "to": b, "path": [a, b],
                           "cus": {t: n for t, n in group["cus"].items() if n},
                           "generals": list(group["generals"]),
                           "minor": bool(group["minor"]), "royals": list(group["royals"]),
                           "rule": rule, **extra})


def move_all(ctx: Ctx, seat: str, a: str, b: str, rule: str, why: str) -> None:
    """Move everything of ``seat`` in ``a`` to ``b`` (tie retreat R-9.2, avoid battle
    and interception R-9.3)."""
    g = group_at(ctx.s, seat, a, controlled_royals(ctx.pack, ctx.s, seat))
    if b in ctx.s["minors"].get(seat, []) and g["minor"]:
        g["minor"] = False
        ctx.emit("MinorGeneralRemoved", {"seat": seat, "space": a, "rule": "R-5"})
    emit_move(ctx, seat, a, b, g, rule, why=why)


def lose_cus(ctx: Ctx, seat: str, space: str, count: int, rule: str, why: str) -> int:
    """Remove ``count`` CUs of ``seat`` in ``space``, in the order of its standing order
    ``losses`` else weakest first (:func:`loss_type`); returns the number actually
    removed (``CUsRemoved`` events)."""
    done = 0
    for _ in range(count):
        have = cus_at(ctx.s, seat, space)
        t = loss_type(ctx.pack, ctx.s, seat, have)
        if t is None:
            break
        ctx.emit("CUsRemoved", {"seat": seat, "space": space, "cus": {t: 1}, "rule": rule,
                                "why": why, **_chosen(ctx.s, seat, have)})
        done += 1
    return done


def note_attack(ctx: Ctx, attacker: str, target: str, how: str) -> None:
    """R-11.4: the attacker loses the Champion status before the attack is resolved
    when it attacks a non-Usurper Champion (``ChampionLost``)."""
    if is_attack_on_champion(ctx.s, attacker, target):
        ctx.emit("ChampionLost", {"seat": attacker, "target": target, "how": how,
                                  "rule": "R-11.4"})


def disperse_generals(ctx: Ctx, seat: str, space: str, rule: str,
                      keep: list[str] | None = None) -> None:
    """Send ``seat``'s major generals in ``space`` (but those in ``keep``, inside a major
    city, R-5) to the dispersed box and remove its minor general unless CUs of the seat
    are left there (R-9.2 loser, R-9.4 overrun)."""
    if keep is None and sits_out(seat, space):  # those inside stayed out
        keep = inside_generals(ctx.s, seat, space)
    for g in generals_at(ctx.s, seat, space):
        if g in (keep or []):
            continue
        ctx.emit("GeneralPlaced", {"general": g, "seat": seat, "where": "dispersed",
                                   "space": None, "rule": rule})
    if space in ctx.s["minors"].get(seat, []) and not (keep is not None
                                                         and cus_at(ctx.s, seat, space)):
        ctx.emit("MinorGeneralRemoved", {"seat": seat, "space": space, "rule": rule})


def lift_abandoned(ctx: Ctx) -> None:
    """R-10: siege points vanish when none of the besieger's CUs are left in the space."""
    for x, sg in sorted(((ctx.s.get("war") or {}).get("sieges") or {}).items()):
        if sg["seat"] != "independent" and not sum(cus_at(ctx.s, sg["seat"], x).values()):
            ctx.emit("SiegeLifted", {"space": x, "seat": sg["seat"], "rule": "R-10"})


def forage(ctx: Ctx, seat: str) -> None:
    """R-8.8: every stack of ``seat`` larger than its space's ``forage_limit`` loses one
    CU, the weakest type first [D] (:func:`pbem.rules.combat.weakest`) unless the seat's
    standing order ``losses`` names the order (:func:`pbem.rules.combat.loss_type`)."""
    pack, s = ctx.pack, ctx.s
    for x in sorted(s["cus"]):
        n = cus_of(s, seat, x)
        if n and n > pack.spaces[x].forage_limit:
            t = loss_type(pack, s, seat, s["cus"][x][seat])
            chosen = ({"chosen": "standing order"}
                      if standing_loss(s, seat, s["cus"][x][seat]) else {})
            ctx.emit("CUsRemoved", {"seat": seat, "space": x, "cus": {t: 1},
                                    "rule": "R-8.8", "why": "forage",
                                    "limit": pack.spaces[x].forage_limit, **chosen})
