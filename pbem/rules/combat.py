"""Land battle (R-9.2), royal CUs changing sides (R-4.3), overrun (R-9.4), the Champion
lost by attacking (R-11.4), hostile tribes (R-9.5), and the losses of a defeated side.

A *side* is everything of one faction in the battle space: a seat's CUs, major generals
and minor general, or every independent army there (``"independent"``). Every roll goes
through :meth:`Ctx.roll` and is summarised in an event naming the chart, row and column
read, so ``fold`` never rolls.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.rules.constants import chart_dice, const
from pbem.rules.context import Ctx
from pbem.rules.control import legitimacy_points, province_controller
from pbem.rules.generals import commander
from pbem.rules.mapinfo import info
from pbem.rules.reinforcement import generals_at
from pbem.rules.units import is_macedonian, loss_key, unit_strength

State = dict[str, Any]
INDEP = "independent"


def chart_read(pack: Pack, chart: str, row: int | str, column: int | str = "result"
               ) -> tuple[Any, dict[str, Any]]:
    """Look ``row``/``column`` up on pack chart ``chart``; returns ``(cell, record)``
    where record is ``{"chart", "row", "column", "result"}`` for the event log.
    Raises KeyError when the pack lacks the chart or the cell."""
    ch = pack.charts[chart]
    cell = ch.lookup(row, column)
    return cell, {"chart": chart, "row": row, "column": column, "result": cell}


def cus_at(s: State, seat: str, space: str) -> dict[str, int]:
    """``{cu_type: n}`` of ``seat`` in ``space`` (a copy); only those outside the major
    city while its units inside stay out of the battle being fought (R-9.2)."""
    from pbem.rules.inside import outside_cus, sits_out
    if sits_out(seat, space):
        return outside_cus(s, seat, space)
    return dict(s["cus"].get(space, {}).get(seat, {}))


def indep_at(s: State, space: str) -> list[str]:
    """Ids of the independent armies in ``space`` (R-14)."""
    return sorted(a for a, v in s["indep_armies"].items() if v.get("space") == space)


def enemy_of(s: State, seat: str, space: str) -> str | None:
    """The other faction with units (CUs, a general or minor general, or an independent
    army) in ``space`` as seen by ``seat`` (a seat or ``"independent"``), else None.
    A seat whose units there are all inside the major city is no enemy (R-5)."""
    from pbem.rules.inside import wholly_inside

    if seat != INDEP and indep_at(s, space):
        return INDEP
    found: list[str] = []
    for other, cus in sorted(s["cus"].get(space, {}).items()):
        if other != seat and sum(cus.values()):
            found.append(other)
    for v in s["generals"].values():
        if v["where"] == "map" and v["space"] == space and v["seat"] and v["seat"] != seat:
            found.append(v["seat"])
    for other, ms in sorted(s["minors"].items()):
        if other != seat and space in ms:
            found.append(other)
    # units wholly inside a major city cannot be attacked: they are no enemy here
    return next((o for o in found if not wholly_inside(s, o, space)), None)


def fixed_strength(pack: Pack, cus: dict[str, int]) -> int:
    """Battle strength of ``cus`` without dice (R-9.4): pack ``cu_types`` strength per
    CU; rolled types (elephants) count the lowest value of the elephant chart [D]."""
    total = 0
    for t, n in cus.items():
        st = unit_strength(pack, t)  # special units have a fixed strength
        if st is None:
            ch = pack.charts.get("elephant_strength")
            st = min(int(ch.cells[r]["result"]) for r in ch.rows) if ch else 0
        total += st * n
    return total


def side_strength_fixed(pack: Pack, s: State, side: str, space: str) -> int:
    """Dice-free strength of a side in ``space``: CUs of a seat, or the printed strength
    of the independent armies there (R-9.4, R-14: their strength is their CU count)."""
    if side == INDEP:
        return sum(s["indep_armies"][a]["strength"] for a in indep_at(s, space))
    return fixed_strength(pack, cus_at(s, side, space))


def battle_rating(pack: Pack, s: State, side: str, space: str) -> int | None:
    """The roll floor of a side (R-9.2): its commander's battle rating (minor generals:
    constant ``minor_general_battle``), the best rating of stacked independent armies
    (R-14), or None without a general."""
    if side == INDEP:
        ids = indep_at(s, space)
        return max((pack.independent_armies[a].battle for a in ids), default=None)
    cmd = commander(pack, s, side, space)
    if cmd is None:
        return None
    if cmd == "minor":
        return int(const(pack, "minor_general_battle"))
    return pack.generals[cmd].battle


def initiative(pack: Pack, s: State, seat: str, space: str) -> int:
    """Initiative of ``seat``'s commander in ``space`` (R-9.1, R-9.3): a major general's
    rating, ``minor_general_initiative`` for a minor general, 0 without a general."""
    cmd = commander(pack, s, seat, space)
    if cmd is None:
        return 0
    if cmd == "minor":
        return int(const(pack, "minor_general_initiative"))
    return pack.generals[cmd].initiative


def local_troops(pack: Pack, s: State, side: str, space: str) -> int:
    """Local troops (R-9.2, R-14): a seat gets ``local_troops_space`` if it controls the
    space and ``local_troops_province`` if it controls the province [D: both add];
    independents get the space value for an independent marker there and the province
    value when most non-transit spaces of the province hold one, at most
    ``independent_local_troops_max``."""
    prov = pack.spaces[space].province
    if side == INDEP:
        n = const(pack, "local_troops_space") if space in s["independent"] else 0
        spaces = [x for x in info(pack).province_spaces.get(prov, ())
                  if pack.spaces[x].kind != "transit"]
        ind = sum(1 for x in spaces if x in s["independent"])
        if spaces and 2 * ind > len(spaces):
            n += const(pack, "local_troops_province")
        return min(n, const(pack, "independent_local_troops_max"))
    n = const(pack, "local_troops_space") if s["garrisons"].get(space) == side else 0
    if province_controller(pack, s, prov) == side:
        n += const(pack, "local_troops_province")
    return n


def weakest(pack: Pack, cus: dict[str, int]) -> str | None:
    """The CU type lost first [D]: ordinary CUs before special units, lowest pack
    strength, rolled types last, then by id (:func:`pbem.rules.units.loss_key`)."""
    if not cus:
        return None
    return min((t for t, n in cus.items() if n > 0), key=lambda k: loss_key(pack, k),
               default=None)


def loss_type(pack: Pack, s: State, seat: str, cus: dict[str, int]) -> str | None:
    """The CU type ``seat`` loses next out of ``cus`` when the rules let it choose (R-9.2
    winner's loss and tie, R-9.5 hostile tribes, R-8.8 forage): the first type of its
    standing order ``{when: losses, order: [type, ..]}`` it has, else :func:`weakest`
    [D]."""
    return standing_loss(s, seat, cus) or weakest(pack, cus)


def standing_loss(s: State, seat: str, cus: dict[str, int]) -> str | None:
    """The CU type the standing order ``losses`` of ``seat`` picks out of ``cus`` (the
    first listed type it has), or None (R-9.2, R-9.5, R-8.8)."""
    for o in ((s.get("war") or {}).get("standing") or {}).get(seat, []):
        if o.get("when") == "losses":
            return next((t for t in o.get("order") or [] if cus.get(t, 0) > 0), None)
    return None


def _chosen(s: State, seat: str, cus: dict[str, int]) -> dict[str, str]:
    """``{"chosen": "standing order"}`` when the seat's standing order picked the loss."""
    return {"chosen": "standing order"} if standing_loss(s, seat, cus) else {}


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


def is_attack_on_champion(s: State, attacker: str, target: str) -> bool:
    """R-11.4: ``attacker`` (a Champion) attacks ``target``, a Champion who is no
    Usurper."""
    return (attacker != INDEP and target != INDEP and attacker != target
            and attacker in s["champions"] and target in s["champions"]
            and target not in s["usurpers"])


def note_attack(ctx: Ctx, attacker: str, target: str, how: str) -> None:
    """R-11.4: the attacker loses the Champion status before the attack is resolved
    when it attacks a non-Usurper Champion (``ChampionLost``)."""
    if is_attack_on_champion(ctx.s, attacker, target):
        ctx.emit("ChampionLost", {"seat": attacker, "target": target, "how": how,
                                  "rule": "R-11.4"})


def side_legitimacy(pack: Pack, s: State, seat: str, space: str, defending: bool) -> int:
    """R-4.3/R-11.2: faction LP + the commander's prestige (+ holy ground for a defender
    holding the body or tomb in ``space``)."""
    lp = legitimacy_points(pack, s)[seat]
    cmd = commander(pack, s, seat, space)
    if cmd and cmd != "minor":
        lp += pack.generals[cmd].prestige
    body = s["royals"].get("body")
    if defending and body and body.get("space") == space:
        lp += int(const(pack, "holy_ground_prestige"))
    return lp


def royal_defection(ctx: Ctx, attacker: str, defender: str, space: str) -> str | None:
    """R-4.3: before a battle the royal CUs of the side with less legitimacy go over to
    the other side (``RoyalCUsDefected``). Returns the seat that *joined without battle*
    (its army held only royal CUs), else None. Never between a seat and independents."""
    if INDEP in (attacker, defender):
        return None
    s, pack = ctx.s, ctx.pack
    la = side_legitimacy(pack, s, attacker, space, False)
    ld = side_legitimacy(pack, s, defender, space, True)
    if la == ld:
        return None
    weak, strong = (attacker, defender) if la < ld else (defender, attacker)
    have = cus_at(s, weak, space)
    n = have.get("royal", 0)
    if not n:
        return None
    only = sum(have.values()) == n
    ctx.emit("RoyalCUsDefected", {"from": weak, "to": strong, "space": space, "count": n,
                                  "legitimacy": {attacker: la, defender: ld},
                                  "without_battle": only, "rule": "R-4.3"})
    if only:
        disperse_generals(ctx, weak, space, "R-4.3")
        return weak
    return None


def disperse_generals(ctx: Ctx, seat: str, space: str, rule: str,
                      keep: list[str] | None = None) -> None:
    """Send ``seat``'s major generals in ``space`` (but those in ``keep``, inside a major
    city, R-5) to the dispersed box and remove its minor general unless CUs of the seat
    are left there (R-9.2 loser, R-9.4 overrun)."""
    from pbem.rules.inside import inside_generals, sits_out
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


def defeat(ctx: Ctx, side: str, space: str, rule: str = "R-9.2") -> None:
    """Losses of a defeated side (R-9.2): mercenary and elephant (non-Macedonian) CUs
    eliminated; each Macedonian CU rolls on the ``macedonian_attrition`` chart
    (``AttritionRolled``), survivors dispersed; generals dispersed. A defeated
    independent army is removed, Scythians/Illyrians back to their box (R-14)."""
    pack, s = ctx.pack, ctx.s
    if side == INDEP:
        for a in indep_at(s, space):
            box = pack.independent_armies[a].returns_to_box
            ctx.emit("IndependentArmyRemoved", {"army": a, "space": space, "to_box": box,
                                                "rule": "R-14"})
        return
    have = cus_at(s, side, space)
    elim = {t: n for t, n in have.items() if not is_macedonian(pack, t)}
    mac = {t: n for t, n in have.items() if t not in elim}
    if elim:
        ctx.emit("CUsRemoved", {"seat": side, "space": space, "cus": elim, "rule": rule,
                                "why": "defeated: mercenaries and elephants eliminated"})
    lost: dict[str, int] = {}
    reads = []
    for t, n in sorted(mac.items()):
        vals = ctx.roll(n, f"attrition of {side}'s {t} CUs in {space}", rule)
        for v in vals:
            res, rec = chart_read(pack, "macedonian_attrition", v)
            reads.append(rec)
            if res == "eliminated":
                lost[t] = lost.get(t, 0) + 1
    if mac:
        ctx.emit("AttritionRolled", {"seat": side, "space": space, "reads": reads,
                                     "eliminated": lost, "rule": rule})
    if lost:
        ctx.emit("CUsRemoved", {"seat": side, "space": space, "cus": lost, "rule": rule,
                                "why": "attrition"})
    left = cus_at(s, side, space)
    if left:
        ctx.emit("CUsDispersed", {"seat": side, "space": space, "cus": left, "rule": rule})
    disperse_generals(ctx, side, space, rule)


def can_overrun(pack: Pack, s: State, seat: str, space: str, mover_cus: dict[str, int],
                enemy: str) -> bool:
    """R-9.4: the mover's dice-free strength is at least ``overrun`` chart ratio × the
    enemy's dice-free strength (an enemy with no CUs is always overrun)."""
    ratio = pack.charts["overrun"].lookup("ratio") if "overrun" in pack.charts else None
    if ratio is None:
        return False
    mine = (fixed_strength(pack, mover_cus) if seat != INDEP
            else sum(s["indep_armies"][a]["strength"] for a in mover_cus))
    if enemy != INDEP:  # units inside a major city cannot be overrun
        from pbem.rules.inside import outside_cus
        return mine >= int(ratio) * fixed_strength(pack, outside_cus(s, enemy, space))
    return mine >= int(ratio) * side_strength_fixed(pack, s, enemy, space)


def overrun(ctx: Ctx, seat: str, enemy: str, space: str) -> None:
    """Carry out an overrun (R-9.4): an attack (R-11.4); the enemy CUs and generals are
    dispersed without a battle (independent armies are removed as if defeated)."""
    note_attack(ctx, seat, enemy, "overrun")
    ctx.emit("OverrunCarriedOut", {"seat": seat, "enemy": enemy, "space": space,
                                   "rule": "R-9.4"})
    if enemy == INDEP:
        defeat(ctx, INDEP, space, "R-9.4")
        return
    from pbem.rules.inside import inside_generals, outside_cus
    have = outside_cus(ctx.s, enemy, space)  # units inside are not overrun
    if have:
        ctx.emit("CUsDispersed", {"seat": enemy, "space": space, "cus": have,
                                  "rule": "R-9.4"})
    disperse_generals(ctx, enemy, space, "R-9.4",
                      keep=inside_generals(ctx.s, enemy, space))
    from pbem.rules.siege import lift_abandoned
    lift_abandoned(ctx)


def hostile_tribes(ctx: Ctx, seat: str, space: str) -> None:
    """R-9.5: an army entering a stronghold with hostile tribes that still holds its
    independent marker rolls on the ``hostile_tribes`` chart and loses that many CUs."""
    sp = ctx.pack.spaces[space]
    if not (sp.hostile_tribes and space in ctx.s["independent"]) or seat == INDEP:
        return
    if "hostile_tribes" not in ctx.pack.charts:
        return
    v = ctx.roll(chart_dice(ctx.pack, "hostile_tribes")[0], f"hostile tribes in {sp.name}", "R-9.5")[0]
    n, rec = chart_read(ctx.pack, "hostile_tribes", v)
    ctx.emit("HostileTribesRolled", {"seat": seat, "space": space, "die": v, "read": rec,
                                     "lost": int(n), "rule": "R-9.5"})
    if n:
        lose_cus(ctx, seat, space, int(n), "R-9.5", "hostile tribes")


def _side_roll(ctx: Ctx, side: str, space: str, label: str) -> dict[str, Any]:
    pack, s = ctx.pack, ctx.s
    if side == INDEP:
        base = sum(s["indep_armies"][a]["strength"] for a in indep_at(s, space))
        elephants: list[dict] = []
    else:
        have = cus_at(s, side, space)
        base = 0
        elephants = []
        for t, n in sorted(have.items()):
            st = unit_strength(pack, t)  # special units have a fixed strength
            if st is None:
                vals = ctx.roll(n, f"elephants of {side} in {space}", "R-9.2")
                for v in vals:
                    res, rec = chart_read(pack, "elephant_strength", v)
                    elephants.append(rec)
                    base += int(res)
            else:
                base += st * n
    local = local_troops(pack, s, side, space)
    if elephants:
        ctx.emit("ElephantsRolled", {"side": side, "space": space, "reads": elephants,
                                     "rule": "R-9.2"})
    floor = battle_rating(pack, s, side, space)
    dice = list(ctx.roll(chart_dice(ctx.pack, "battle")[0], f"battle in {space}: {label} ({side})", "R-9.2"))
    raw = sum(dice)
    mod = max(raw, floor) if floor is not None else raw
    strength = base + local
    score, rec = chart_read(pack, "battle", mod, max(1, strength))
    return {"side": side, "cus_strength": base, "local_troops": local,
            "strength": strength, "dice": dice, "rating": floor, "roll": mod,
            "score": int(score), "read": rec}


def _leader_loss(ctx: Ctx, side: str, space: str, roll: int) -> str | None:
    pack = ctx.pack
    if side == INDEP or roll != int(const(pack, "leader_loss_roll")):
        return None
    cmd = commander(pack, ctx.s, side, space)
    if not cmd or cmd == "minor":
        return None
    v = ctx.roll(chart_dice(ctx.pack, "leader_loss")[0], f"leader loss check of {cmd}", "R-9.2")[0]
    res, rec = chart_read(pack, "leader_loss", v)
    ctx.emit("LeaderLossChecked", {"seat": side, "general": cmd, "die": v, "read": rec,
                                   "killed": res == "killed", "rule": "R-9.2"})
    if res == "killed":
        ctx.emit("GeneralPlaced", {"general": cmd, "seat": side, "where": "dead",
                                   "space": None, "rule": "R-9.2"})
        return cmd
    return None


def battle(ctx: Ctx, attacker: str, defender: str, space: str, came_from: str | None,
           why: str = "attack", inside_join: bool = True) -> str:
    """Fight a land battle in ``space`` (R-9.2) between every unit of ``attacker`` and
    ``defender`` there (seats or ``"independent"``); ``came_from`` is where the attacker
    entered from (a tie sends it back there). Emits ``BattleFought`` {space, attacker,
    defender, sides: [{strength, dice, roll, score, read …}], result, winner} and the
    losses. Returns ``"attacker"``, ``"defender"``, ``"tie"`` or ``"joined"`` (R-4.3: an
    army of only royal CUs went over without battle). ``inside_join`` False: the
    defender's units inside the major city stay out of the battle and its losses
    (R-9.2 "may join"; event ``InsideUnitsStayedOut``)."""
    from pbem.rules.inside import inside_cus, inside_generals, sitting_out

    out = None
    if not inside_join and defender != INDEP:
        cus, gens = inside_cus(ctx.s, defender, space), inside_generals(ctx.s, defender, space)
        if cus or gens:
            out = defender
            ctx.emit("InsideUnitsStayedOut", {"seat": defender, "space": space, "cus": cus,
                                              "generals": gens, "rule": "R-9.2"})
    with sitting_out(out, space):
        return _battle(ctx, attacker, defender, space, came_from, why)


def _battle(ctx: Ctx, attacker: str, defender: str, space: str, came_from: str | None,
            why: str) -> str:
    from pbem.rules.movement import move_all

    pack, s = ctx.pack, ctx.s
    if why == "attack":
        note_attack(ctx, attacker, defender, "battle")
    joined = royal_defection(ctx, attacker, defender, space)
    if joined:
        ctx.emit("BattleFought", {"space": space, "attacker": attacker,
                                  "defender": defender, "result": "joined",
                                  "winner": defender if joined == attacker else attacker,
                                  "rule": "R-4.3"})
        return "joined"
    a = _side_roll(ctx, attacker, space, "attacker")
    d = _side_roll(ctx, defender, space, "defender")
    if a["score"] > d["score"]:
        result, win, lose, ws, ls = "attacker", attacker, defender, a, d
    elif d["score"] > a["score"]:
        result, win, lose, ws, ls = "defender", defender, attacker, d, a
    else:
        result, win, lose, ws, ls = "tie", None, None, a, d
    ctx.emit("BattleFought", {"space": space, "attacker": attacker, "defender": defender,
                              "why": why, "sides": [a, d],
                              "strengths": {"attacker": a["strength"],
                                            "defender": d["strength"]},
                              "rolls": {"attacker": a["roll"], "defender": d["roll"]},
                              "scores": {"attacker": a["score"], "defender": d["score"]},
                              "result": result,
                              "winner": win, "came_from": came_from, "rule": "R-9.2"})
    for side, info_ in ((attacker, a), (defender, d)):
        _leader_loss(ctx, side, space, info_["roll"])
    if result == "tie":
        for side in (attacker, defender):
            if side != INDEP:
                lose_cus(ctx, side, space, 1, "R-9.2", "tie")
        if came_from and came_from != space:  # a sally goes back inside instead
            if attacker == INDEP:
                for aid in indep_at(s, space):
                    ctx.emit("IndependentArmyMoved", {"army": aid, "from": space,
                                                      "to": came_from, "rule": "R-9.2",
                                                      "why": "tie: back where it came from"})
            else:
                move_all(ctx, attacker, space, came_from, "R-9.2", "tie: attacker returns")
        _tidy_defender(ctx, defender)
        return result
    defeat(ctx, lose, space)
    ratio = int(const(pack, "winner_no_loss_ratio"))
    if win != INDEP and ws["score"] < ratio * ls["score"]:
        lose_cus(ctx, win, space, 1, "R-9.2", "winner's loss")
    if win == INDEP and pack.spaces[space].kind != "major_city":  # never there
        owner = s["garrisons"].get(space)
        if owner:
            ctx.emit("GarrisonRemoved", {"seat": owner, "space": space, "by": INDEP,
                                         "rule": "R-14"})
    _tidy_defender(ctx, defender)
    return result


def _tidy_defender(ctx: Ctx, defender: str) -> None:
    """R-4.2 "at once": a defending seat's CUs left without a general (leader loss) are
    marked or dispersed now, since its own turn's tidy-up may be far away. Sieges whose
    besieger has no CU left are lifted (R-10)."""
    from pbem.rules.siege import lift_abandoned
    lift_abandoned(ctx)
    if defender != INDEP and defender != ctx.s.get("active"):
        from pbem.rules.reinforcement import tidy_markings
        tidy_markings(ctx, defender)
