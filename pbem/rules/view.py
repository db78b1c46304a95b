"""Per-seat projections of a state for reports (boardgame.io-style secret stripping)."""
from __future__ import annotations

from typing import Any

from pbem.rules.core.armies import commander
from pbem.rules.core.control import (
    Term,
    fleet_table,
    legitimacy_terms,
    province_control,
    royal_controller,
    victory_terms,
)
from pbem.rules.core.state import SEATS, GameState, State, _copy, all_hands, deck
from pbem.rules.core.units import specials_in_play
from pbem.rules.engine import legal_options, pack_of


def view(state: GameState, seat: str | None) -> dict[str, Any]:
    """JSON-safe view of ``state``. ``seat=None``: the public view (hand sizes, never
    cards in hands or the deck order). With ``seat``: adds ``"private"``: that seat's
    private part of the state (``hand``, ``training``, ``standing``, and ``withheld``
    while its player-turn waits for a reaction window) with its ``seat`` and legal
    ``options``.

    Secrets are stripped generically: everything public is computed from the state
    without its ``private`` and ``secret`` parts (:func:`public_part`), and the private
    section copies only the viewing seat's part.

    Keys: pack, turn, year_bc, round, step, phase, active, turn_order, usurpers,
    champions, vp, lp, vp_terms and lp_terms ({seat: [{kind, what, value, rule}]}: every
    source of its VP and LP, summing to them, LP never below 0), provinces {id: seat|None},
    fleets {id: {home, seat|None, strength, dispersed}} (R-15), garrisons {space: seat},
    independent [space], armies [{space, seat, commander, generals, minor, cus}],
    dispersed {seat: {type: n}}, generals {id: {seat, where, space}}, royals {id: {space,
    active, seat, controller}}, court (marriage offers, the tomb, card LP, Condemnation,
    counted heirs; R-11, R-12), independent_armies, discards, hand_sizes, deck_size, claim,
    result, sieges {space: {seat, points}}, inside {space: {seat, cus, generals}} (units
    inside a major city, R-5), reaction_window {kind, seat, mover, space,
    options} | None; special_units {id: {unit, status, seat, space}} only once one has
    left its holding box (R-4.1); private adds standing (orders). Rules: R-3.2 (control),
    R-1.4 (VP), R-11.1 (LP), R-12, R-10, R-9.3, R-4.1.

    >>> from pbem.rules import Dice, apply, new_game
    >>> from tests.rules.rules_minipack import mini_pack
    >>> state, _ = new_game(mini_pack(), b"doc")
    >>> state, _ = apply(state, "north", {"first_player": "east"}, Dice(b"doc", state.step))
    >>> east = view(state, "east")
    >>> east["active"], len(east["private"]["hand"]), east["hand_sizes"]["west"]
    ('east', 5, 5)
    >>> "private" in view(state, None), view(state, "west")["private"]["hand"] == east["private"]["hand"]
    (False, False)
    """
    pack = pack_of(state)
    full = state.peek()
    s = public_part(full)
    year = next((t.year_bc for t in pack.turns if t.number == s["turn"]), None)
    vp_terms, lp_terms = victory_terms(pack, s), legitimacy_terms(pack, s)
    armies = []
    spaces = sorted(set(s["cus"]) | {g["space"] for g in s["generals"].values()
                                     if g["where"] == "map"}
                    | {x for ms in s["minors"].values() for x in ms})
    for x in spaces:
        for owner in SEATS:
            gens = sorted((g for g, v in s["generals"].items() if v["where"] == "map"
                           and v["space"] == x and v["seat"] == owner),
                          key=lambda g: (-pack.generals[g].rank, g))
            cus = dict(s["cus"].get(x, {}).get(owner, {}))
            minor = x in s["minors"].get(owner, [])
            if gens or cus or minor:
                armies.append({"space": x, "seat": owner,
                               "commander": commander(pack, s, owner, x),
                               "generals": gens, "minor": minor, "cus": cus})
    out: dict[str, Any] = {
        "pack": s["pack_name"], "turn": s["turn"], "year_bc": year, "round": s["round"],
        "step": s["step"], "phase": s["phase"], "active": s["active"],
        "turn_order": s["turn_order"], "usurpers": s["usurpers"],
        "champions": s["champions"],
        "vp": {seat: sum(t.value for t in ts) for seat, ts in vp_terms.items()},
        "lp": {seat: max(0, sum(t.value for t in ts)) for seat, ts in lp_terms.items()},
        "vp_terms": _terms(vp_terms), "lp_terms": _terms(lp_terms),
        "provinces": province_control(pack, s),
        "fleets": {fid: {"home": f.home, "seat": f.seat, "strength": f.strength, "dispersed": f.dispersed}
                   for fid, f in fleet_table(pack, s).items()},
        "garrisons": dict(sorted(s["garrisons"].items())),
        "independent": list(s["independent"]), "armies": armies,
        "dispersed": {k: dict(v) for k, v in s["dispersed"].items() if v},
        "generals": s["generals"],
        "royals": {r: {**v, "controller": royal_controller(pack, s, r)}
                   for r, v in s["royals"].items()},
        "independent_armies": s["indep_armies"], "discards": s["discards"],
        "removed": s["removed"],
        "hand_sizes": {k: len(v) for k, v in all_hands(full).items()},
        "deck_size": len(deck(full)), "claim": s["claim"], "result": s["result"],
        "primary": s["primary"],
        "sieges": dict((s.get("war") or {}).get("sieges") or {}),
        "inside": dict(sorted((s.get("inside") or {}).items())),  # R-5, public
        "court": dict(s.get("court") or {}),  # offers, tomb, Condemnation
        "reaction_window": (dict(s["war"]["pause"])
                            if (s.get("war") or {}).get("pause") else None),
    }
    specials = specials_in_play(pack, s)
    if specials:  # special units out of their holding box (map, dispersed, destroyed)
        out["special_units"] = specials
    if seat is not None:
        out["private"] = {"seat": seat, **(full["private"].get(seat) or
                                           {"hand": [], "training": [], "standing": []}),
                          "options": dict(legal_options(state, seat))}
    return _copy(out)


def _terms(terms: dict[str, list[Term]]) -> dict[str, list[dict[str, Any]]]:
    """Terms of VP or LP as plain data: ``{seat: [{kind, what, value, rule}]}``."""
    return {seat: [{"kind": t.kind, "what": t.what, "value": t.value, "rule": t.rule} for t in ts]
            for seat, ts in terms.items()}


def public_part(s: State) -> State:
    """``s`` without what any seat keeps to itself (``private``) or nobody may see
    (``secret``): what a view may be computed from (R-3.2, boardgame.io's player view)."""
    return {k: v for k, v in s.items() if k not in ("private", "secret")}
