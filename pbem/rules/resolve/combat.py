"""Land battle (R-9.2), royal CUs changing sides (R-4.3), overrun (R-9.4), hostile tribes
(R-9.5), and the losses of a defeated side.

A *side* is everything of one faction in the battle space: a seat's CUs, major generals
and minor general, or every independent army there (``"independent"``). Every roll goes
through :meth:`Ctx.roll` and is summarised in an event naming the chart, row and column
read, so ``fold`` never rolls.
"""
from __future__ import annotations

from typing import Any

from pbem.rules.context import Ctx
from pbem.rules.core.armies import (
    battle_rating,
    commander,
    local_troops,
    side_legitimacy,
)
from pbem.rules.core.pack import chart_dice, chart_read, const
from pbem.rules.core.pieces import (
    INDEP,
    cus_at,
    indep_at,
    inside_cus,
    inside_generals,
    outside_cus,
    sitting_out,
)
from pbem.rules.core.units import is_macedonian, unit_strength
from pbem.rules.resolve.effects import (
    disperse_generals,
    lift_abandoned,
    lose_cus,
    move_all,
    note_attack,
    tidy_markings,
)
from pbem.rules.resolve.royals import capture, mutiny, mutiny_strikes, mutiny_types
from pbem.rules.resolve.surprises import (
    candidates,
    find_play,
    in_turn_order,
    play,
    prestige_moment,
    surprise_effect,
)


def battle_mutiny(ctx: Ctx, attacker: str, defender: str, space: str,
                  pledges: dict[str, list[int]]) -> None:
    """R-16.3, R-11.2, R-8.5: before a land battle between two seats, each of them (in
    turn order from the seat on turn) may play a Mutiny, a surprise card (seed 004), at
    the moment ``battle_start``: pledged for the battle (a move's ``surprise`` list, a
    window answer's ``play``) or by standing order ``{when: battle_start, play: N}``
    (``against``: the other seat). It is played only when it would strike the other
    side's army (:func:`pbem.rules.resolve.royals.mutiny_strikes`); its royal and loyal
    CUs then desert before legitimacy is compared for the royal CUs (R-4.3)."""
    if INDEP in (attacker, defender):
        return
    for seat in in_turn_order(ctx.s, (attacker, defender)):
        other = defender if seat == attacker else attacker
        for n, source in candidates(ctx, seat, "battle_start", pledges.get(seat), space,
                                    other):
            types = mutiny_types(surprise_effect(ctx.pack, n))
            if not mutiny_strikes(ctx.pack, ctx.s, seat, other, space, types):
                continue
            play(ctx, seat, n, "battle_start", space, source)
            mutiny(ctx, seat, n, other, space, types)
            break


def royal_defection(ctx: Ctx, attacker: str, defender: str, space: str,
                    pledges: dict[str, list[int]] | None = None
                    ) -> tuple[str, str, int] | None:
    """R-4.3, R-11.5: before a battle the royal CUs of the side with less legitimacy
    (faction LP + its commander's prestige) will not fight: they are set aside
    (``RoyalCUsSetAside``) and join the winner after the battle (:func:`royals_rejoin`;
    seed 001: "el bando con menos prestigio debe dejarlas a un lado para que se unan al
    ejército ganador"). When that side's army holds only royal CUs there is no battle:
    they go over to the other side (``RoyalCUsDefected``, ``without_battle``) and its
    generals are dispersed. Never between a seat and independents. First either side may
    play a prestige surprise card (Orator's Gift, R-11.2, R-8.5) that changes who sets
    them aside (:func:`pbem.rules.resolve.surprises.prestige_moment`; ``pledges``: the
    cards each seat named for this battle). Returns ``("joined", weak seat, count)`` when
    the army went over without battle, ``("aside", weak seat, count)`` when royal CUs
    were set aside, else None."""
    if INDEP in (attacker, defender):
        return None
    s, pack = ctx.s, ctx.pack

    def weak_royals(v: dict[str, int]) -> str | None:
        a, d = v[attacker], v[defender]
        weak = None if a == d else attacker if a < d else defender
        return weak if weak and cus_at(s, weak, space).get("royal") else None

    prestige_moment(ctx, space, {attacker: False, defender: True}, weak_royals, pledges)
    la = side_legitimacy(pack, s, attacker, space, False)
    ld = side_legitimacy(pack, s, defender, space, True)
    if la == ld:
        return None
    weak, strong = (attacker, defender) if la < ld else (defender, attacker)
    have = cus_at(s, weak, space)
    n = have.get("royal", 0)
    if not n:
        return None
    legit = {attacker: la, defender: ld}
    if sum(have.values()) == n:
        ctx.emit("RoyalCUsDefected", {"from": weak, "to": strong, "space": space,
                                      "count": n, "legitimacy": legit,
                                      "without_battle": True, "rule": "R-4.3"})
        disperse_generals(ctx, weak, space, "R-4.3")
        return "joined", weak, n
    ctx.emit("RoyalCUsSetAside", {"seat": weak, "space": space, "count": n,
                                  "legitimacy": legit, "rule": "R-4.3"})
    return "aside", weak, n


def royals_rejoin(ctx: Ctx, aside: dict[str, int], space: str, winner: str | None) -> None:
    """R-4.3: after the battle the royal CUs set aside (``aside``: ``{seat: count}``)
    join the winner's army in ``space`` (``RoyalCUsJoined``), their own side's when it
    won; on a tie there is no winner and they go back to their own side [D]."""
    for seat, n in aside.items():
        to = winner or seat
        ctx.emit("RoyalCUsJoined", {"seat": to, "from": seat, "space": space, "count": n,
                                    "rule": "R-4.3"})


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


def overrun(ctx: Ctx, seat: str, enemy: str, space: str) -> None:
    """Carry out an overrun (R-9.4): an attack (R-11.4), no battle and no dice. Only
    major generals and Macedonian CUs go to the dispersed box (rulebook 4.6: the box
    "for placement of Major Generals and Macedonian combat units that have been
    dispersed by combat or have been overran"); the enemy's mercenary and elephant CUs
    are eliminated, as a defeated side's are (seed 001). Independent armies are removed
    as if defeated (R-14)."""
    note_attack(ctx, seat, enemy, "overrun")
    ctx.emit("OverrunCarriedOut", {"seat": seat, "enemy": enemy, "space": space,
                                   "rule": "R-9.4"})
    capture(ctx, seat, enemy, space, "overrun")
    if enemy == INDEP:
        defeat(ctx, INDEP, space, "R-9.4")
        return
    have = outside_cus(ctx.s, enemy, space)  # units inside are not overrun
    elim = {t: n for t, n in have.items() if not is_macedonian(ctx.pack, t)}
    mac = {t: n for t, n in have.items() if t not in elim}
    if elim:
        ctx.emit("CUsRemoved", {"seat": enemy, "space": space, "cus": elim,
                                "rule": "R-9.4",
                                "why": "overrun: mercenaries and elephants eliminated"})
    if mac:
        ctx.emit("CUsDispersed", {"seat": enemy, "space": space, "cus": mac,
                                  "rule": "R-9.4"})
    disperse_generals(ctx, enemy, space, "R-9.4",
                      keep=inside_generals(ctx.s, enemy, space))
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
    """One side's battle roll (R-9.2) and every term of it, recorded so a report can
    show the sum: ``cus`` (the CUs by type), ``elephants`` (each elephant's chart
    result), ``armies`` (independent armies and their strengths), ``cus_strength``,
    ``local_troops``, ``strength``, ``commander`` (id, ``"minor"`` or None), ``rating``
    (the roll's floor), ``dice``, ``roll`` and the chart ``read`` giving ``score``."""
    pack, s = ctx.pack, ctx.s
    terms: dict[str, Any] = {}
    if side == INDEP:
        ids = indep_at(s, space)
        base = sum(s["indep_armies"][a]["strength"] for a in ids)
        terms["armies"] = {a: s["indep_armies"][a]["strength"] for a in ids}
        elephants: list[dict] = []
    else:
        have = cus_at(s, side, space)
        terms["cus"] = {t: n for t, n in sorted(have.items()) if n}
        terms["commander"] = commander(pack, s, side, space)
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
    if elephants:
        terms["elephants"] = [int(r.get("result") or 0) for r in elephants]
    return {"side": side, **terms, "cus_strength": base, "local_troops": local,
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
           why: str = "attack", inside_join: bool = True,
           pledges: dict[str, list[int]] | None = None) -> str:
    """Fight a land battle in ``space`` (R-9.2) between every unit of ``attacker`` and
    ``defender`` there (seats or ``"independent"``); ``came_from`` is where the attacker
    entered from (a tie sends it back there). Emits ``BattleFought`` {space, attacker,
    defender, sides: [{strength, dice, roll, score, read …}], result, winner} and the
    losses. Returns ``"attacker"``, ``"defender"``, ``"tie"`` or ``"joined"`` (R-4.3: an
    army of only royal CUs went over without battle). ``inside_join`` False: the
    defender's units inside the major city stay out of the battle and its losses
    (R-9.2 "may join"; event ``InsideUnitsStayedOut``). ``pledges``: the surprise cards
    each seat named for this battle (R-8.5: Orator's Gift before it, Fortune of War
    after the dice); its standing orders are read too."""

    out = None
    if not inside_join and defender != INDEP:
        cus, gens = inside_cus(ctx.s, defender, space), inside_generals(ctx.s, defender, space)
        if cus or gens:
            out = defender
            ctx.emit("InsideUnitsStayedOut", {"seat": defender, "space": space, "cus": cus,
                                              "generals": gens, "rule": "R-9.2"})
    with sitting_out(out, space):
        return _battle(ctx, attacker, defender, space, came_from, why, pledges or {})


def _reroll(ctx: Ctx, sides: dict[str, dict[str, Any]], space: str,
            pledges: dict[str, list[int]]) -> None:
    """R-8.5 Fortune of War (``reroll: battle``): after the battle dice, a seat whose
    score is the lower may re-roll its own battle dice once, by a card it pledged for
    the battle or by standing order ``{when: battle_roll, play: N}``; the new roll is a
    new logged roll, the battle rating still its floor, the elephants not rolled again.
    Then the other side, if now the lower, may do the same [D]. Event
    ``BattleDiceRerolled``; ``sides`` is updated."""
    pack, done = ctx.pack, set()
    for _ in range(2):
        fired = False
        for seat in in_turn_order(ctx.s, sides):
            me, other = sides[seat], next(v for k, v in sides.items() if k != seat)
            if seat in done or me["score"] >= other["score"]:
                continue
            got = find_play(ctx, seat, "battle_roll", pledges.get(seat), space,
                            other["side"])
            if got is None:
                continue
            play(ctx, seat, got[0], "battle_roll", space, got[1])
            before = list(me["dice"])
            dice = list(ctx.roll(chart_dice(pack, "battle")[0],
                                 f"battle in {space}: {seat} re-rolls", "R-9.2"))
            raw = sum(dice)
            me["roll"] = max(raw, me["rating"]) if me["rating"] is not None else raw
            score, me["read"] = chart_read(pack, "battle", me["roll"], max(1, me["strength"]))
            me.update(dice=dice, score=int(score), rerolled=got[0])
            ctx.emit("BattleDiceRerolled", {"seat": seat, "card": got[0], "space": space,
                                            "before": before, "dice": dice,
                                            "roll": me["roll"], "score": me["score"],
                                            "rule": "R-9.2"})
            done.add(seat)
            fired = True
        if not fired:
            return


def _battle(ctx: Ctx, attacker: str, defender: str, space: str, came_from: str | None,
            why: str, pledges: dict[str, list[int]]) -> str:

    pack, s = ctx.pack, ctx.s
    if why == "attack":
        note_attack(ctx, attacker, defender, "battle")
    battle_mutiny(ctx, attacker, defender, space, pledges)  # a Mutiny first
    went = royal_defection(ctx, attacker, defender, space, pledges)
    aside: dict[str, int] = {}
    if went and went[0] == "aside":
        aside[went[1]] = went[2]
    elif went:
        joined = went[1]
        strong = defender if joined == attacker else attacker
        ctx.emit("BattleFought", {"space": space, "attacker": attacker,
                                  "defender": defender, "result": "joined",
                                  "winner": strong, "rule": "R-4.3"})
        capture(ctx, strong, joined, space, "joined")
        return "joined"
    a = _side_roll(ctx, attacker, space, "attacker")
    d = _side_roll(ctx, defender, space, "defender")
    _reroll(ctx, {attacker: a, defender: d}, space, pledges)  # R-8.5 (never independents)
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
        royals_rejoin(ctx, aside, space, None)  # before a tied attacker goes back
        if came_from and came_from != space:  # a sally goes back inside instead
            if attacker == INDEP:  # and it removes no markers this turn
                for aid in indep_at(s, space):
                    ctx.emit("IndependentArmyMoved", {"army": aid, "from": space,
                                                      "to": came_from, "rule": "R-9.2",
                                                      "why": "tie: back where it came from",
                                                      "no_markers_turn": s["turn"]})
            else:
                move_all(ctx, attacker, space, came_from, "R-9.2", "tie: attacker returns")
        _tidy_defender(ctx, defender)
        return result
    capture(ctx, win, lose, space, "battle")  # with the defeated army
    defeat(ctx, lose, space)
    ratio = int(const(pack, "winner_no_loss_ratio"))
    if win != INDEP and ws["score"] < ratio * ls["score"]:
        lose_cus(ctx, win, space, 1, "R-9.2", "winner's loss")
    royals_rejoin(ctx, aside, space, win)  # they join the winner
    if win == INDEP and pack.spaces[space].kind != "major_city":  # never there
        _remove_marker(ctx, space)
    _tidy_defender(ctx, defender)
    return result


def _remove_marker(ctx: Ctx, space: str) -> None:
    """R-14: the independent armies that won a battle in ``space`` remove the player's
    control marker there, unless every one of them tied a battle as attacker this turn
    (seed 004: "Такая армия не снимает в этот ход маркеры контроля", such an army removes
    no control markers this turn; a ``Note`` says so)."""
    s = ctx.s
    owner = s["garrisons"].get(space)
    if not owner:
        return
    held = [a for a in indep_at(s, space)
            if s["indep_armies"][a].get("no_markers_turn") == s["turn"]]
    if held and len(held) == len(indep_at(s, space)):
        names = ", ".join(ctx.pack.independent_armies[a].name for a in held)
        ctx.emit("Note", {"rule": "R-14", "text": f"{names} tied a battle as attacker "
                          f"this turn and removes no control markers: the "
                          f"{owner} garrison in {ctx.pack.spaces[space].name} stays"})
        return
    ctx.emit("GarrisonRemoved", {"seat": owner, "space": space, "by": INDEP,
                                 "rule": "R-14"})


def _tidy_defender(ctx: Ctx, defender: str) -> None:
    """R-4.2 "at once": a defending seat's CUs left without a general (leader loss) are
    marked or dispersed now, since its own turn's tidy-up may be far away. Sieges whose
    besieger has no CU left are lifted (R-10)."""
    lift_abandoned(ctx)
    if defender != INDEP and defender != ctx.s.get("active"):
        tidy_markings(ctx, defender)
