"""Where reinforcements may go (R-7.1, R-7.2, R-8.7): the new CUs of each seat, the
legal spaces, the placement limit (per space by seed 003, per province by the rulebook;
rule option ``reinforcement_limit``) and the engine's default placement [D].

Pure queries; the placing itself is :func:`pbem.rules.resolve.effects.place_cus`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.armies import best_seniority
from pbem.rules.core.board import info
from pbem.rules.core.control import (
    legitimacy_points,
    province_control,
    province_controller,
    victory_points,
)
from pbem.plural import count
from pbem.rules.core.names import N_, general_name, indep_army_name
from pbem.rules.core.pack import const, per_pack
from pbem.rules.core.pieces import (
    besieger,
    cus_of,
    enemy_unit_spaces,
    free_minor_generals,
    general_spaces,
    generals_at,
    has_general,
)
from pbem.rules.core.state import SEATS, State, _copy

LIMITS: tuple[str, ...] = ("space", "province")
"""The values of the rule option ``reinforcement_limit`` (R-7.2 [D]): ``space`` (the
default, seed 003: at most ``reinforcement_per_province`` CUs in a space with no major
city and no major general of the seat) or ``province`` (the rulebook, 10.3: at most that
many per province outside an unbesieged friendly major city)."""


def limit_rule(s: State) -> str:
    """The reinforcement limit the game plays (R-7.2 [D]): the option
    ``reinforcement_limit``, ``space`` when it is not set (see :data:`LIMITS`)."""
    return str((s.get("options") or {}).get("reinforcement_limit") or "space")


def no_limit(pack: Pack, s: State, seat: str, space: str,
             majors: set[str] | None = None) -> bool:
    """R-7.2 [D]: any number of reinforcements may go to ``space``. Seed 003 (the
    default): a major city or a space with a major general of ``seat`` ("Нет никаких
    ограничений количеству БЧ, которое можно выставить в крупный город или к старшему
    генералу"); the rulebook (option ``reinforcement_limit: province``): an unbesieged
    major city ``seat`` controls (:func:`unlimited_city`). ``majors``: the spaces of
    ``seat``'s major generals (:func:`major_general_spaces`), when the caller has them."""
    if limit_rule(s) == "province":
        return unlimited_city(pack, s, seat, space)
    if pack.spaces[space].kind == "major_city":
        return True
    return space in majors if majors is not None else bool(generals_at(s, seat, space))


def major_general_spaces(s: State, seat: str) -> set[str]:
    """The spaces where ``seat`` has a major general on the map (R-5)."""
    return {v["space"] for v in s["generals"].values()
            if v["where"] == "map" and v["seat"] == seat}


def limit_key(pack: Pack, s: State, space: str) -> str:
    """The key of ``placed`` that counts CUs against the limit of ``space`` (R-7.2):
    ``"space:<id>"`` under seed 003's per-space limit, the province id under the
    rulebook's per-province limit."""
    if limit_rule(s) == "province":
        return pack.spaces[space].province
    return f"space:{space}"


LIMIT_TEXT = {"province": N_("at most %(n)s per province outside your unbesieged major cities"),
              "space": N_("at most %(n)s in a space with neither a major city nor a major general of yours")}
"""The placement limit of each rule option (R-7.2), filled with the pack's number."""


def limit_text(pack: Pack, s: State) -> str:
    """The placement limit in the game's words, for refusals and the prompt (R-7.2)."""
    n = const(pack, "reinforcement_per_province")
    return LIMIT_TEXT["province" if limit_rule(s) == "province" else "space"] % {"n": n}


def placement_targets(pack: Pack, s: State, seat: str,
                      placed: dict[str, int] | None = None) -> dict[str, str]:
    """Spaces where ``seat`` may place one more reinforcement CU now (R-7.2).

    ``placed`` counts CUs already placed this phase (:func:`count_placement`: per space
    under ``"space:<id>"`` and per province under the province id). Returns
    ``{space_id: "normal" | "overflow"}``: normal targets are friendly-controlled spaces
    and spaces with his general, without enemy units ([L]), at most
    ``reinforcement_per_province`` CUs per space, or per province under the rulebook's
    limit, except where :func:`no_limit`; overflow targets (only when there is no normal
    one) are uncontrolled or independent non-transit spaces of provinces no other seat
    controls, at most that many per province (both texts), needing a free minor general
    when no general of his is there.
    """
    placed = placed or {}
    limit = const(pack, "reinforcement_per_province")
    mine_gen = general_spaces(s, seat)
    hostile = enemy_unit_spaces(s, seat)
    out: dict[str, str] = {}
    # the seat's garrisons and general spaces, in the pack's order (as walking every
    # space would list them)
    own = {x for x, owner in s["garrisons"].items() if owner == seat} | set(mine_gen)
    order = info(pack).order
    majors = major_general_spaces(s, seat)
    by_space = limit_rule(s) != "province"
    for sid in sorted((x for x in own if x in order), key=order.__getitem__):
        if sid in hostile:
            continue
        if by_space:  # no_limit and limit_key under seed 003's per-space limit, inlined
            if pack.spaces[sid].kind == "major_city" or sid in majors \
                    or placed.get(f"space:{sid}", 0) < limit:
                out[sid] = "normal"
        elif no_limit(pack, s, seat, sid, majors) or placed.get(limit_key(pack, s, sid), 0) < limit:
            out[sid] = "normal"
    if out:
        return out
    free = free_minor_generals(pack, s, seat) > 0
    owners = province_control(pack, s)
    garrisons = s["garrisons"]
    for sid, prov in _overflow_candidates(pack):
        if sid in garrisons or sid in hostile:
            continue
        if (owners[prov] if prov in owners else province_controller(pack, s, prov)) \
                not in (None, seat):
            continue
        if placed.get(prov, 0) >= limit:
            continue
        if sid in mine_gen or free:
            out[sid] = "overflow"
    return out


_OVERFLOW: dict[int, tuple[Pack, tuple[tuple[str, str], ...]]] = {}


def _overflow_candidates(pack: Pack) -> tuple[tuple[str, str], ...]:
    """``(space, province)`` of every non-transit space of ``pack``, in the pack's order
    (the spaces an overflow reinforcement may go to, R-7.2, before the position is
    read); cached per pack object (the map never changes)."""
    return per_pack(_OVERFLOW, pack, lambda p: tuple(
        (sid, sp.province) for sid, sp in p.spaces.items() if sp.kind != "transit"))


def unlimited_city(pack: Pack, s: State, seat: str, space: str) -> bool:
    """R-7.2: ``space`` is an unbesieged major city ``seat`` controls, where any number of
    reinforcements may be placed (besieged: by another player's units outside or an
    independent army standing there, R-14; :func:`pbem.rules.inside.besieger`)."""
    return (pack.spaces[space].kind == "major_city" and s["garrisons"].get(space) == seat
            and besieger(pack, s, space) is None)


def count_placement(pack: Pack, s: State, seat: str, space: str,
                    placed: dict[str, int]) -> None:
    """Count a CU placed in ``space`` (R-7.2): nothing where :func:`no_limit`; else one
    against its province (the rulebook's limit, and the overflow limit of both texts)
    and, under seed 003's limit, one against the space."""
    if no_limit(pack, s, seat, space):
        return
    prov = pack.spaces[space].province
    placed[prov] = placed.get(prov, 0) + 1
    key = limit_key(pack, s, space)
    if key != prov:
        placed[key] = placed.get(key, 0) + 1


def default_target(pack: Pack, s: State, seat: str, targets: dict[str, str]) -> str | None:
    """The default space for a reinforcement [D]: a space with his major general (most
    CUs first), else his major city, else any target; ties by space id."""
    if not targets:
        return None

    def key(x: str) -> tuple:
        return (not generals_at(s, seat, x), pack.spaces[x].kind != "major_city",
                targets[x] != "normal", -cus_of(s, seat, x), x)
    return min(targets, key=key)


def auto_placement(pack: Pack, s: State, seat: str, new: dict[str, int],
                   back: dict[str, int]) -> list[dict[str, Any]]:
    """The default placement [D]: new CUs then dispersed ones, one at a time at
    :func:`default_target` (dispersed CUs without a space stay in the box). Returns
    ``[{"space": id, "cus": {type: n}}]`` in order, merged per space. Reads ``s`` only."""

    sim = {k: s[k] for k in s}
    sim["cus"] = _copy(s["cus"])
    sim["minors"] = _copy(s["minors"])
    placed: dict[str, int] = {}
    out: dict[str, dict[str, int]] = {}
    units = [t for t, n in sorted(new.items()) for _ in range(n)]
    units += [t for t, n in sorted(back.items()) for _ in range(n)]
    for t in units:
        where = default_target(pack, sim, seat, placement_targets(pack, sim, seat, placed))
        if where is None:
            continue
        if not has_general(sim, seat, where) and sim["garrisons"].get(where) != seat:
            sim["minors"].setdefault(seat, []).append(where)
        at = sim["cus"].setdefault(where, {}).setdefault(seat, {})
        at[t] = at.get(t, 0) + 1
        count_placement(pack, sim, seat, where, placed)
        out.setdefault(where, {})
        out[where][t] = out[where].get(t, 0) + 1
    return [{"space": x, "cus": c} for x, c in out.items()]


@dataclass(frozen=True)
class Grant:
    """One source of a seat's new CUs in the reinforcement phase (R-7.1): ``count`` CUs
    of ``unit`` type for the reason ``why`` — ``"every_seat"``, ``"macedonia"``
    (controls Macedonia), ``"most_lp"`` (the single seat with most LP), ``"most_lp_senior"``
    (tied for most LP, the most senior major general in play: seed 003 [D]),
    ``"most_vp"`` or ``"most_vp_tied"`` — and the seat's LP or VP that gave it
    (``points``, None for the first two)."""

    unit: str
    count: int
    why: str
    points: int | None = None


def reinforcement_grants(pack: Pack, s: State) -> dict[str, list[Grant]]:
    """R-7.1: every seat's new CUs with their reasons (:class:`Grant`): mercenaries for
    all; a loyal CU for Macedonia's controller; a loyal CU for the seat with most LP, a
    tie settled by the seniority list (seed 003, the default [D]: the tied seat with the
    most senior major general in play; rule option ``lp_bonus_tie: nobody``: the
    rulebook's "in case of a tie, nobody earns this bonus"); mercenaries for the single
    seat with most VP, or fewer to each seat tied for most. Numbers from the pack."""
    out = {seat: [Grant("mercenary", const(pack, "reinforcement_mercenaries"), "every_seat")] for seat in SEATS}

    def add(seat: str, t: str, n: int, why: str, points: int | None = None) -> None:
        if n:
            out[seat].append(Grant(t, n, why, points))
    mac = province_controller(pack, s, const(pack, "macedonia_province"))
    if mac:
        add(mac, "loyal", const(pack, "reinforcement_macedonia_bonus"), "macedonia")
    lp = legitimacy_points(pack, s)
    top = [x for x in SEATS if lp[x] == max(lp.values())]
    tied = len(top) > 1
    if tied and (s.get("options") or {}).get("lp_bonus_tie") != "nobody":
        best = min(best_seniority(pack, s, x) for x in top)
        top = [x for x in top if best_seniority(pack, s, x) == best]
    if len(top) == 1:
        add(top[0], "loyal", const(pack, "reinforcement_lp_bonus"), "most_lp_senior" if tied else "most_lp",
            lp[top[0]])
    vp = victory_points(pack, s)
    top = [x for x in SEATS if vp[x] == max(vp.values())]
    if len(top) == 1:
        add(top[0], "mercenary", const(pack, "reinforcement_vp_bonus"), "most_vp", vp[top[0]])
    else:
        for x in top:
            add(x, "mercenary", const(pack, "reinforcement_vp_tie_bonus"), "most_vp_tied", vp[x])
    return out


def reinforcement_counts(pack: Pack, s: State) -> dict[str, dict[str, int]]:
    """R-7.1: new CUs per seat by type ``{seat: {unit: n}}``, the sum of its
    :func:`reinforcement_grants`."""
    out: dict[str, dict[str, int]] = {}
    for seat, grants in reinforcement_grants(pack, s).items():
        out[seat] = {}
        for g in grants:
            out[seat][g.unit] = out[seat].get(g.unit, 0) + g.count
    return out


def placement_refusal(pack: Pack, s: State, seat: str, space: str, placed: dict[str, int],
                      targets: dict[str, str]) -> str:
    """Why ``space`` cannot take one more reinforcement CU of ``seat`` now (R-7.2), in
    the check's words, for a refusal (issue 24 N8: it said only the rule): the enemy
    pieces there ([L]: not into a space holding an enemy army, CUs or general), no
    garrison and no general of the seat there, the placement limit reached, or, when
    only overflow spaces are left (``targets``, :func:`placement_targets`), what an
    overflow space is."""
    enemies: list[str] = []
    for gid, g in sorted(s["generals"].items()):
        if g["where"] == "map" and g["space"] == space and g["seat"] != seat:
            enemies.append(f"{g['seat']}'s general {general_name(pack, gid)}")
    for other, cus in sorted((s["cus"].get(space) or {}).items()):
        if other != seat and sum(cus.values()):
            enemies.append(f"{other}'s CUs")
    for other, minors in sorted(s["minors"].items()):
        if other != seat and space in minors:
            enemies.append(f"{other}'s minor general")
    for army, a in sorted(s["indep_armies"].items()):
        if a.get("space") == space:
            enemies.append(f"the independent army {indep_army_name(pack, army)}")
    name = pack.spaces[space].name
    if space in enemy_unit_spaces(s, seat):
        said = ", ".join(enemies[:-1]) + " and " + enemies[-1] if len(enemies) > 1 else (enemies or ["an enemy"])[0]
        return (f"{said} {'is' if len(enemies) < 2 else 'are'} in {name}, and no "
                "reinforcement goes into a space holding an enemy army, CUs or general")
    limit = const(pack, "reinforcement_per_province")
    if targets and all(kind == "overflow" for kind in targets.values()):
        return (f"{name} is no overflow space now: with no garrison or general of yours that may take CUs, they "
                f"go to an uncontrolled or independent space of a province no other player controls, at most "
                f"{limit} per province, where your general is or with a free minor general")
    if s["garrisons"].get(space) != seat and space not in general_spaces(s, seat):
        owner = s["garrisons"].get(space)
        held = f"{owner}'s garrison is there" if owner else "nobody's garrison is there"
        return f"you have neither a garrison nor a general in {name} ({held})"
    key = limit_key(pack, s, space)
    if not no_limit(pack, s, seat, space) and placed.get(key, 0) >= limit:
        where = "there" if key.startswith("space:") else "in its province"
        return f"{count(placed.get(key, 0), 'CU')} already placed {where} this phase, and the limit is " \
               f"{limit_text(pack, s)}"
    return f"reinforcements go to your garrison or general without enemy units, {limit_text(pack, s)}"


def targets_hint(pack: Pack, s: State, seat: str, targets: dict[str, str]) -> str | None:
    """The hint for a correctly spelled space that cannot take a reinforcement (issue
    24.F: it used to be "did you mean" the default space, as if misspelled): the spaces
    that may (R-7.2), the default first [D] (:func:`default_target`)."""
    best = default_target(pack, s, seat, targets)
    if best is None:
        return None
    rest = sorted(pack.spaces[x].name for x in targets if x != best)
    shown = [f"{pack.spaces[best].name} (the default)", *rest[:11]]
    more = f" and {len(rest) - 11} more" if len(rest) > 11 else ""
    return "spaces that may take it: " + ", ".join(shown) + more
