"""The strong bot (issue 27 Part A; docs/bots.md): candidates from the greedy policy and
plans of its own, each scored by playouts over positions re-sampled from the seat's own
view.

For the seat's decision:

1. candidate orders documents: the greedy bot's
   (:func:`pbem.rules.bots.greedy.candidates`) and :func:`heir_plans` (every card of the
   hand with an army's march on an heir: one a rival holds, or nobody; for the
   turn-order choice, every seat it may name; for reinforcements, also
   :func:`reinforcement_plans`: all of them with one army), ranked one ply deep on one sample of the
   view by :func:`search_score`, and the best ``keep`` go on;
2. in rounds, until the time ``budget`` (seconds) is spent or ``playouts`` rounds are
   done (at least one round): a new sample of the view (:func:`redeal`: the unseen cards
   re-dealt to the other hands and the deck, with the bot's own ``rng``) and a new dice
   seed of the bot's own, the same for every candidate in the round (common random
   numbers); each candidate still in the race is carried out on it, the game played on
   for ``horizon`` decisions by the playout policy (random legal orders for every seat),
   and the position scored by :func:`search_score`; after rounds 2, 6 and 14 the worse
   half of the candidates leaves the race (successive halving: the rounds go to the
   best);
3. the candidate with the best mean score is kept (ties: the earlier candidate).

:func:`search_score` is the greedy's :func:`pbem.rules.bots.greedy.evaluate` plus the
regency outlook (:func:`regency_outlook`, R-1.3: who would win a regency if an heir
came of age now) and the end-of-game outlook (:func:`end_outlook`, R-1.2: who leads in
VP), each weighted by how near its turn is.

Reaction windows are answered as the greedy bot does: the rest of the mover's move is
hidden from the seat (R-9.3), so there is nothing to play out. With a ``budget`` the
number of rounds depends on the machine's speed; with ``budget=None`` the bot is
deterministic for its ``rng``.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pbem.rules.bots.greedy import (
    HEIRS,
    _distinct,
    best_of,
    bot_dice,
    candidates,
    evaluate,
    marches,
    reaction_answer,
)
from pbem.rules.bots.random import candidate_orders, random_orders
from pbem.rules.bots.seat_view import redeal, seat_view
from pbem.rules.core.control import legitimacy_points, royal_controller, victory_points
from pbem.rules.core.problems import IllegalOrders
from pbem.rules.core.state import SEATS, GameState, war_get
from pbem.rules.engine import apply, legal_options, pack_of, pending, validate


@dataclass(frozen=True)
class Budget:
    """How hard the strong bot thinks about one decision: ``seconds`` of wall time per
    decision (None: no clock, only ``playouts``), at most ``playouts`` rounds, ``width``
    greedy candidates built (and up to as many heir plans), ``keep`` of them played out
    (halved after rounds 2, 6 and 14, never below 2), ``horizon`` decisions per
    playout."""

    seconds: float | None = 1.0
    playouts: int = 64
    width: int = 16
    keep: int = 8
    horizon: int = 8


DEFAULT_BUDGET = Budget()

HALVINGS = (2, 6, 14)
"""After these many rounds the worse half of the candidates leaves the race."""

REGENCY_WEIGHT = 40.0
"""The regency outlook's weight in the turn before an heir comes of age (R-1.3): a
regency then is as good as won or lost; halved for each turn further off."""

REGENCY_HEIRS = (("alexander_iv", "regency_turn_alexander_iv"),
                 ("heracles", "regency_turn_heracles"))
"""Each heir with the pack constant naming the turn at whose start he comes of age."""


def regency_outlook(state: GameState, seat: str, weight: float = REGENCY_WEIGHT) -> float:
    """The regency term of :func:`search_score` for ``seat`` (R-1.3): for each heir in
    play whose turn has not come, the seat controlling him (R-12.1) would win a regency
    now if its LP+VP were strictly the highest; ``+p`` when that is ``seat``, ``-p``
    when it is a rival, where ``p`` = logistic(lead − 0.5) and ``lead`` its LP+VP less
    the best other seat's; times ``weight`` halved for each turn before the heir's last
    turn. Public data only; 0 once the game is over."""
    if state.result:
        return 0.0
    pack = pack_of(state)
    s = state.peek()
    total = None
    out = 0.0
    for rid, key in REGENCY_HEIRS:
        r = s["royals"].get(rid)
        if not r or r.get("gone") or key not in pack.constants:
            continue
        ahead = int(pack.constants[key]) - 1 - s["turn"]  # 0: he comes of age next turn
        if ahead < 0:
            continue
        who = royal_controller(pack, s, rid)
        if who not in SEATS:
            continue
        if total is None:
            vp, lp = victory_points(pack, s), legitimacy_points(pack, s)
            total = {x: vp[x] + lp[x] for x in SEATS}
        lead = total[who] - max(total[x] for x in SEATS if x != who)
        p = 1.0 / (1.0 + math.exp(-(lead - 0.5)))
        out += (p if who == seat else -p) * weight * 0.5 ** ahead
    return out


END_WEIGHT = 30.0
"""The end-of-game outlook's weight in the last turn (R-1.2); halved for each turn
before it."""


def end_outlook(state: GameState, seat: str, weight: float = END_WEIGHT) -> float:
    """The end-of-game term of :func:`search_score` for ``seat`` (R-1.2: at the end of
    the last turn most VP wins, LP no longer count): ``weight`` × logistic(lead − 0.5),
    ``lead`` the seat's VP less the best rival's, halved for each turn before the last
    (the pack's last turn). Public data only; 0 once the game is over."""
    if state.result:
        return 0.0
    pack = pack_of(state)
    s = state.peek()
    last = pack.turns[-1].number if pack.turns else 5
    ahead = max(0, last - s["turn"])
    vp = victory_points(pack, s)
    lead = vp[seat] - max(vp[x] for x in SEATS if x != seat)
    return weight * 0.5 ** ahead / (1.0 + math.exp(-(lead - 0.5)))


def search_score(state: GameState, seat: str) -> float:
    """How good ``state`` is for ``seat`` in the strong bot's eyes: the greedy's
    :func:`evaluate` (±1000 for a finished game, else strength against the rivals'), plus
    :func:`regency_outlook` and :func:`end_outlook`. Higher is better; public data
    only."""
    return evaluate(state, seat) + regency_outlook(state, seat) + end_outlook(state, seat)


def heir_plans(view: GameState, seat: str, rng: random.Random, most: int = 16
               ) -> list[dict[str, Any]]:
    """Up to ``most`` player-turn orders documents of ``seat`` (R-8, R-9.1) that march
    an army on an heir (R-1.3, R-12.1) a rival controls or nobody does: each of
    :func:`heir_marches` with each card and use of the hand (fields at random), the
    march as the document's only move. Empty outside a player-turn with movement."""
    if view.order_choice or view.reinforce:
        return []
    opts = legal_options(view, seat)
    if opts["tyche_only"]:
        return []
    marches = heir_marches(view, seat)
    picks = [(h["card"], u) for h in opts["hand"] if h["type"] != "surprise"
             for u in h["uses"]]
    if not marches or not picks:
        return []
    pack = pack_of(view)
    out = []
    for i in range(most):
        doc = candidate_orders(pack, view, opts, rng, picks[i % len(picks)])
        doc["movement"] = [marches[(i // len(picks)) % len(marches)]]
        if not opts.get("bury"):  # an errand's burial left with the errand
            doc.pop("bury", None)
        out.append(doc)
        if i + 1 >= len(picks) * len(marches):
            break
    return out


def reinforcement_plans(view: GameState, seat: str) -> list[dict[str, Any]]:
    """Reinforcement orders (R-7.2) of ``seat`` that put every new and dispersed CU
    with one army: one document per placement space holding one of the seat's generals,
    the army with one of the seat's heirs first (R-1.3: keep him), then the army nearest
    an heir it does not hold. Unchecked (a space's limit may refuse one); empty outside
    the reinforcement segment."""
    if not view.reinforce:
        return []
    opts = legal_options(view, seat)
    units: dict[str, int] = {}
    for part in ("new", "dispersed"):
        for kind, n in (opts.get(part) or {}).items():
            if n:
                units[kind] = units.get(kind, 0) + int(n)
    if not units:
        return []
    pack = pack_of(view)
    s = view.peek()
    armies = {g["space"] for g in s["generals"].values()
              if g["where"] == "map" and g["seat"] == seat and g["space"]}
    spaces = [x for x in opts["placement_spaces"] if x in armies]
    heirs = {s["royals"][r].get("space") for r in HEIRS if r in s["royals"]
             and not s["royals"][r].get("gone")
             and royal_controller(pack, s, r) == seat}
    hunters = [m["army"] for m in heir_marches(view, seat)]
    spaces.sort(key=lambda x: (x not in heirs, hunters.index(x) if x in hunters
                               else len(hunters), x))
    return [{"reinforcements": [{"space": x, "cus": dict(sorted(units.items()))}]}
            for x in spaces]


def heir_marches(view: GameState, seat: str, most: int = 4) -> list[dict[str, Any]]:
    """Up to ``most`` army moves (``{army, path}``, R-9.1) of ``seat`` toward an heir in
    play (R-1.3) whom a rival controls or nobody does, along the cheapest land path
    through spaces no other faction holds, as far as the commander's initiative goes
    (ending on the heir's space is a battle there when a rival holds it, R-9.2);
    nearest first. Armies already with one of the seat's heirs stay out."""
    pack = pack_of(view)
    s = view.peek()
    goals, mine = [], set()
    for r in HEIRS:
        royal = s["royals"].get(r)
        if not royal or royal.get("gone") or not royal.get("space"):
            continue
        who = royal_controller(pack, s, r)
        if who == seat:
            mine.add(royal["space"])
        else:
            goals.append(royal["space"])
    starts = sorted({g["space"] for g in s["generals"].values()
                     if g["where"] == "map" and g["seat"] == seat and g["space"]} - mine)
    return marches(pack, s, seat, goals, starts, most)


def playout(sample: GameState, seat: str, orders: Mapping[str, Any], seed: int,
            horizon: int, score: Callable[[GameState, str], float] = search_score
            ) -> float | None:
    """``orders`` of ``seat`` carried out on ``sample``, then ``horizon`` more decisions
    of random legal orders (:func:`random_orders`, every seat, the bot's own dice from
    ``seed``), scored for ``seat``; None when the engine refuses ``orders``."""
    if validate(sample, seat, orders):
        return None
    rng = random.Random(seed)
    try:
        state, _ = apply(sample, seat, orders, bot_dice(rng, sample.step))
        for _ in range(horizon):
            d = pending(state)
            if not d:
                break
            doc = random_orders(state, d[0].seat, rng)
            state, _ = apply(state, d[0].seat, doc, bot_dice(rng, state.step))
    except IllegalOrders:
        return None
    return score(state, seat)


def search_orders(state: GameState, seat: str, rng: random.Random,
                  budget: Budget = DEFAULT_BUDGET,
                  clock: Callable[[], float] = time.perf_counter) -> dict[str, Any]:
    """The strong bot's orders for ``seat``'s pending decision in ``state`` (R-6.1,
    R-7.2, R-8; reaction windows R-9.3 as :func:`reaction_answer`), by the search of the
    module docstring within ``budget``. Reads only :func:`seat_view` of ``state``; draws
    only from ``rng`` (and reads ``clock``, seconds, when ``budget.seconds`` is set).
    Returns an orders document as a player would send it."""
    start = clock()
    view = seat_view(state, seat)
    if war_get(view.peek(), "pause"):
        return reaction_answer(view, seat)
    if view.order_choice:  # every seat the chooser may name
        docs = [{"first_player": x} for x in legal_options(view, seat)["first_player"]
                or [seat]]
    else:
        built = _distinct(candidates(view, seat, rng, budget.width)
                          + heir_plans(view, seat, rng, budget.width)
                          + reinforcement_plans(view, seat))
        ranked = best_of(redeal(view, seat, rng), seat, built, rng.getrandbits(64),
                         search_score)
        docs = [d for _, _, d in ranked[:budget.keep]]
        if not docs:
            return candidates(view, seat, rng, 1)[0]
    if len(docs) == 1:
        return docs[0]
    totals = [0.0] * len(docs)
    counts = [0] * len(docs)
    race = list(range(len(docs)))
    for done in range(budget.playouts):
        if done and budget.seconds is not None and clock() - start >= budget.seconds:
            break
        if done in HALVINGS and len(race) > 2:
            race.sort(key=lambda i: (-_mean(totals[i], counts[i]), i))
            race = sorted(race[:max(2, len(race) // 2)])
        sample = redeal(view, seat, rng)
        seed = rng.getrandbits(64)
        for i in race:
            v = playout(sample, seat, docs[i], seed, budget.horizon)
            if v is not None:
                totals[i] += v
                counts[i] += 1
    best = max(race, key=lambda i: (_mean(totals[i], counts[i]), -i))
    return docs[best]


def _mean(total: float, count: int) -> float:
    """``total / count``, or −inf for a candidate the engine refused every time."""
    return total / count if count else float("-inf")
