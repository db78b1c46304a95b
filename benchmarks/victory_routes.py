"""How bot games end and which cards they play for what: the balance signal for the
reconstructed components (issue 12). Measured, never asserted.

    .venv/bin/python benchmarks/victory_routes.py [--games 1000] [--seed routes]

Plays ``--games`` games of the random bots (``pbem.rules.bot_orders``) on the real pack
and prints: how often each victory route happens (``GameWon.how``: automatic VP or LP,
regency, end of game) with the turn; the LP and VP of the winners; for each Tyche card how
often it was played for its event, for its OPs (garrisons, activation, training, fleet
upgrade) or discarded, and each surprise card how often it was played for its event at
each moment (R-8.5) or discarded; and how often the royal family's events happened
(captures, marriages, burials, deaths).
"""
from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem import rules  # noqa: E402
from pbem.pack.loader import load_pack  # noqa: E402
from pbem.rules.dice import Dice  # noqa: E402

ROYAL_KINDS = ("RoyalTaken", "RoyalControlLost", "RoyalActivated", "MarriageOffered",
               "MarriageConcluded", "RoyalKilled", "RoyalMoved", "BodyBuried",
               "LegitimacyAdjusted", "CondemnationPlaced", "MutinyStruck", "ChampionLost",
               "ChampionRegained", "RoyalRemoved")


def play(pack, seed: bytes, g: int, counts: dict) -> dict:
    """One bot game; adds what happened to ``counts``; returns the ``GameWon`` data."""
    state, _ = rules.new_game(pack, seed, {"ask_windows": bool(g % 2)})
    rng = random.Random(g)
    won: dict = {}
    while rules.pending(state):
        d = rules.pending(state)[0]
        state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng),
                                    Dice(seed, state.step))
        for e in events:
            if e.kind == "CardPlayed":
                counts["cards"][e.data["card"]][e.data["use"]] += 1
            elif e.kind == "CardDiscarded":
                counts["cards"][e.data["card"]]["discard"] += 1
            elif e.kind == "SurprisePlayed":  # played for its event at a moment
                counts["cards"][e.data["card"]][f"event ({e.data['moment']})"] += 1
            elif e.kind in ROYAL_KINDS:
                counts["royal"][e.kind] += 1
                if e.kind == "BodyBuried":
                    counts["royal"]["BodyBuried in Pella" if e.data["pella"]
                                    else "BodyBuried elsewhere"] += 1
            elif e.kind == "GameWon":
                won = dict(e.data)
    won["turn"] = state.turn
    won["final_lp"] = rules.view(state, None)["lp"]
    won["final_vp"] = rules.view(state, None)["vp"]
    return won


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", default="routes")
    args = ap.parse_args()
    pack = load_pack()
    counts: dict = {"cards": collections.defaultdict(collections.Counter),
                    "royal": collections.Counter()}
    routes: collections.Counter = collections.Counter()
    by_turn: collections.Counter = collections.Counter()
    lp_win, vp_win = [], []
    t0 = time.time()
    for g in range(args.games):
        won = play(pack, f"{args.seed}-{g}".encode(), g, counts)
        how = str(won.get("how", "none"))
        routes[how] += 1
        by_turn[(how, won["turn"])] += 1
        w = won.get("winner")
        if w:
            lp_win.append(won["final_lp"][w])
            vp_win.append(won["final_vp"][w])
    n = args.games
    print(f"{n} games in {time.time() - t0:.0f} s")
    print("\nVictory routes:")
    for how, k in routes.most_common():
        turns = ", ".join(f"turn {t}: {c}" for (h, t), c in sorted(by_turn.items()) if h == how)
        print(f"  {how:28} {k:5} ({100 * k / n:5.1f} %)  {turns}")
    if lp_win:
        print(f"\nWinners' LP: mean {sum(lp_win) / len(lp_win):.1f}, max {max(lp_win)}; "
              f"VP: mean {sum(vp_win) / len(vp_win):.1f}, max {max(vp_win)}")
    print("\nCards (plays per use):")
    for card in sorted(counts["cards"]):
        c = counts["cards"][card]
        uses = ", ".join(f"{u} {k}" for u, k in c.most_common())
        print(f"  #{card:<3} {pack.cards[card].name:32} {uses}")
    print("\nRoyal family and legitimacy events (per game):")
    for kind in (*ROYAL_KINDS, "BodyBuried in Pella", "BodyBuried elsewhere"):
        print(f"  {kind:22} {counts['royal'][kind] / n:6.2f}")


if __name__ == "__main__":
    main()
