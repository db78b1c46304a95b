"""The greedy baseline bot (issue 27 Part A; docs/bots.md): one ply, no search.

For the seat's decision it builds candidate orders documents from its legal options
(:func:`candidates`: the deadline default, then every card of the hand with each of its
uses, the fields filled at random by :func:`pbem.rules.bots.random.candidate_orders`),
carries each out on one sample of its own view (:func:`pbem.rules.bots.seat_view.redeal`)
with its own dice, the same dice for every candidate, and keeps the one whose position
:func:`evaluate` scores best. Reaction windows are answered by a rule of thumb
(:func:`reaction_answer`): the rest of the mover's move is hidden from the seat, so
there is nothing to carry out. It reads only the seat's view (:func:`seat_view`) and
draws only from the ``rng`` it is given.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pbem.rules.bots.random import candidate_orders, random_reinforcements
from pbem.rules.bots.royals import land_path, within
from pbem.rules.bots.seat_view import redeal, seat_view
from pbem.rules.core.armies import group_initiative
from pbem.rules.core.control import legitimacy_points, royal_controller, victory_points
from pbem.rules.core.pieces import controlled_royals, group_at
from pbem.rules.core.problems import IllegalOrders
from pbem.rules.core.state import SEATS, GameState, war_get
from pbem.rules.dice import Dice
from pbem.rules.engine import apply, legal_options, pack_of, pending, validate
from pbem.rules.orders import reactions, reinforcements, turn_order
from pbem.rules.orders.common import plan_of
from pbem.rules.phases.player_turn import default_orders

HEIRS = ("alexander_iv", "heracles")
"""The heirs whose controller may win by regency (R-1.3)."""

WIN = 1000.0
"""The score of a finished game: +WIN won, -WIN lost."""


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights, per point or piece of one seat (R-1.4 VP, R-11.1 LP,
    R-4 CUs on the map, R-5 CUs with a general): its strength less that of its rivals."""

    vp: float = 1.0
    lp: float = 1.0
    """An LP counts as a VP: regency compares VP + LP (R-1.3), and the automatic LP
    victory needs fewer points than the VP one (R-1.1)."""
    cu_in_army: float = 0.15
    cu_alone: float = 0.08
    heir: float = 4.0
    """Per heir (Alexander IV, Heracles) the seat controls while he is in play (R-1.3
    regency, R-12.1): most games end by a regency."""
    leader: float = 0.5
    """How much of the strongest rival's score is taken off (the rest: the rivals' mean)."""


WEIGHTS = Weights()


def strength(state: GameState, w: Weights = WEIGHTS) -> dict[str, float]:
    """``{seat: score}``: ``vp·VP + lp·LP + heir·heirs controlled + cu_in_army·CUs
    with a general + cu_alone·other CUs`` of each seat (R-1.4, R-11.1, R-1.3, R-4, R-5).
    Reads only public data."""
    pack = pack_of(state)
    s = state.peek()
    vp, lp = victory_points(pack, s), legitimacy_points(pack, s)
    led = {(g["seat"], g["space"]) for g in s["generals"].values()
           if g["where"] == "map" and g["space"]}
    out = {x: w.vp * vp[x] + w.lp * max(0, lp[x]) for x in SEATS}
    for rid in HEIRS:
        if rid in s["royals"] and not s["royals"][rid].get("gone"):
            who = royal_controller(pack, s, rid)
            if who in out:
                out[who] += w.heir
    for space, by_seat in s["cus"].items():
        for x, cus in by_seat.items():
            if x in out:
                n = sum(cus.values())
                out[x] += n * (w.cu_in_army if (x, space) in led else w.cu_alone)
    return out


def evaluate(state: GameState, seat: str, w: Weights = WEIGHTS) -> float:
    """How good ``state`` is for ``seat``: ±:data:`WIN` once the game is won (R-1),
    else its :func:`strength` less ``leader`` × the strongest rival's and
    (1 − ``leader``) × the rivals' mean. Higher is better; public data only."""
    if state.result:
        return WIN if state.result.get("winner") == seat else -WIN
    sc = strength(state, w)
    rivals = [sc[x] for x in SEATS if x != seat]
    return sc[seat] - w.leader * max(rivals) - (1 - w.leader) * sum(rivals) / len(rivals)


def bot_dice(rng: random.Random, step: int) -> Dice:
    """Dice of the bot's own (never the game's seed): a fresh seed drawn from ``rng``."""
    return Dice(b"bot:%d" % rng.getrandbits(64), step)


def settle(state: GameState, seat: str, dice_rng: random.Random, limit: int = 8
           ) -> GameState:
    """Carry ``state`` on while another seat answers a reaction window that ``seat``'s
    orders opened (R-9.3), each answer the window's deadline default, until ``seat``'s
    player-turn is over or ``limit`` answers were given."""
    for _ in range(limit):
        d = pending(state)
        if not d or d[0].kind == "player_turn" or not war_get(state.peek(), "pause"):
            return state
        try:
            state, _ = apply(state, d[0].seat, d[0].default, bot_dice(dice_rng, state.step))
        except IllegalOrders:
            return state
    return state


def outcome(sample: GameState, seat: str, orders: Mapping[str, Any], seed: int,
            score: Callable[[GameState, str], float] = evaluate) -> float | None:
    """The score of ``orders`` of ``seat`` carried out on ``sample`` with the dice of
    ``seed`` (then :func:`settle`), or None when the engine refuses them."""
    if validate(sample, seat, orders):
        return None
    dice_rng = random.Random(seed)
    try:
        after, _ = apply(sample, seat, orders, bot_dice(dice_rng, sample.step))
    except IllegalOrders:
        return None
    return score(settle(after, seat, dice_rng), seat)


def candidates(view: GameState, seat: str, rng: random.Random, width: int = 24
               ) -> list[dict[str, Any]]:
    """Up to ``width`` candidate orders documents for ``seat``'s decision in ``view``
    (R-8 player-turn, R-7.2 reinforcements, R-6.1 turn order), the deadline default
    first; unchecked. A player-turn gives every (card, use) of the hand in turn, with
    random legal fields, until ``width``."""
    pack = pack_of(view)
    s = view.peek()
    opts = legal_options(view, seat)
    if view.order_choice:
        return [{"first_player": x} for x in opts["first_player"] or [seat]]
    if view.reinforce:
        out = [reinforcements.default(pack, s, seat), {"reinforcements": "default"}]
        out += [random_reinforcements(pack, view, seat, opts, rng) for _ in range(width // 3)]
        return _distinct(out)[:width]
    picks = [(h["card"], u) for h in opts["hand"] if h["type"] != "surprise"
             for u in h["uses"]]
    out = [default_orders(pack, s, seat)]
    hunts = heir_moves(view, seat) if not opts["tyche_only"] else []
    for i in range(max(0, width - 1) if picks else 0):  # no card to play: the default
        doc = candidate_orders(pack, view, opts, rng, picks[i % len(picks)])
        if i < len(hunts) and "movement" in doc:  # toward a rival's heir
            doc["movement"] = [hunts[i]]
        out.append(doc)
    return _distinct(out)


def heir_moves(view: GameState, seat: str, most: int = 4) -> list[dict[str, Any]]:
    """Up to ``most`` army moves (``{army, path}``, R-9.1) of ``seat`` toward an heir
    (R-1.3) another seat controls, along the cheapest land path through spaces no
    other faction holds and as far as the commander's initiative goes (ending on the
    heir's space means a battle there, R-9.2); nearest first."""
    pack = pack_of(view)
    s = view.peek()
    goals = [s["royals"][r]["space"] for r in HEIRS
             if r in s["royals"] and not s["royals"][r].get("gone")
             and s["royals"][r].get("space")
             and royal_controller(pack, s, r) not in (None, seat)]
    starts = sorted({g["space"] for g in s["generals"].values()
                     if g["where"] == "map" and g["seat"] == seat and g["space"]})
    return marches(pack, s, seat, goals, starts, most)


def marches(pack: Any, s: Mapping[str, Any], seat: str, goals: list[str], starts: list[str], most: int
            ) -> list[dict[str, Any]]:
    """Up to ``most`` army moves (``{army, path}``, R-9.1) of ``seat``'s armies at
    ``starts`` toward the spaces ``goals``: along the cheapest land path through spaces no
    other faction holds, as far as the commander's initiative (R-9.1) goes; those that
    end nearest their goal first, ties by start. ``s``: the position as a dict."""
    moves = []
    for goal in goals:
        for start in starts:
            path = land_path(pack, s, seat, start, goal)
            if not path:
                continue
            mp = group_initiative(pack, s, seat,
                                  group_at(s, seat, start, controlled_royals(pack, s, seat)))
            steps = within(pack, start, path, mp)
            if steps:
                moves.append((len(path) - len(steps), start, steps))
    moves.sort(key=lambda m: (m[0], m[1]))
    return [{"army": start, "path": steps} for _, start, steps in moves[:most]]


def _distinct(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``docs`` without repeats (compared as their repr), first kept."""
    seen, out = set(), []
    for d in docs:
        k = repr(d)
        if k not in seen:
            seen.add(k)
            out.append(d)
    return out


def reaction_answer(view: GameState, seat: str) -> dict[str, Any]:
    """A rule-of-thumb answer to the reaction window ``seat`` faces (R-9.3, R-9.2, R-15,
    R-8.5): intercept with the largest eligible army when it has more CUs than the
    mover's army; avoid battle toward the first choice when the mover has at least twice
    the seat's CUs there; every fleet to a naval battle; units inside join; no surprise
    card. Falls back to the window's default when the answer is refused."""
    pack = pack_of(view)
    s = view.peek()
    p = war_get(s, "pause") or {}
    key, where, mover = p.get("kind"), p.get("space"), p.get("mover")

    def cus(space: Any, who: Any) -> int:
        return sum((s["cus"].get(space, {}).get(who) or {}).values()) if space else 0

    theirs = cus(where, mover)
    answer: dict[str, Any] = {key: "none"}
    options = list(p.get("options") or [])
    if key == "intercept" and options:
        best = max(options, key=lambda o: cus(o if isinstance(o, str) else None, seat))
        if cus(best if isinstance(best, str) else None, seat) > theirs:
            answer = {key: {"army": best}}
    elif key == "avoid_battle" and options and theirs >= 2 * max(1, cus(where, seat)):
        answer = {key: {"toward": options[0]}}
    elif key == "naval_battle" and options:
        answer = {key: {"fleets": options}}
    elif key == "inside_join":
        answer = {key: "join"}
    rej: list = []
    if plan_of(reactions, pack, s, seat, answer, "orders", rej) is None:
        return {key: reactions.DEFAULTS[key]}
    return answer


def best_of(sample: GameState, seat: str, docs: list[dict[str, Any]], seed: int,
            score: Callable[[GameState, str], float] = evaluate
            ) -> list[tuple[float, int, dict[str, Any]]]:
    """``[(score, index, orders)]`` of the ``docs`` the engine accepts on ``sample``,
    best first (ties: the earlier document), each carried out with the dice of
    ``seed``."""
    scored = []
    for i, d in enumerate(docs):
        v = outcome(sample, seat, d, seed, score)
        if v is not None:
            scored.append((v, i, d))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored


def greedy_orders(state: GameState, seat: str, rng: random.Random, width: int = 24
                  ) -> dict[str, Any]:
    """The greedy bot's orders for ``seat``'s pending decision in ``state`` (R-6.1,
    R-7.2, R-8, R-9.3 …): the best of :func:`candidates` by :func:`evaluate` after one
    ply on a sample of the seat's view, or the reaction rule of thumb. Reads only
    :func:`seat_view` of ``state``; uses only ``rng``. Returns an orders document as a
    player would send it (plain data)."""
    view = seat_view(state, seat)
    if war_get(view.peek(), "pause"):
        return reaction_answer(view, seat)
    if view.order_choice:  # one-ply sees no difference: go first (the default)
        return turn_order.default(pack_of(view), view.peek(), seat)
    docs = candidates(view, seat, rng, width)
    sample = redeal(view, seat, rng)
    ranked = best_of(sample, seat, docs, rng.getrandbits(64))
    return ranked[0][2] if ranked else docs[0]
