"""The balance signal of the reconstructed components (issue 12): play N random bot games
and report how often each victory route happens (automatic VP, automatic LP, regency,
end of game) and, for every card, how often it was played for its event, for its OPs
(garrisons, training, activation, fleet upgrade), discarded, or played as a surprise.

Not a test: a measurement. Usage::

    .venv/bin/python tools/balance.py --games 1000 [--options ask_windows,bot_inside]
        [--jobs 2] [--out balance.json]

Games run in ``--jobs`` processes (seeds ``balance-0`` … ``balance-N-1``); the table is
printed and, with ``--out``, written as JSON.
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pbem.rules as R  # noqa: E402
from pbem.pack.loader import load_pack  # noqa: E402


def play(args: tuple[int, dict[str, Any]]) -> dict[str, Any]:
    """One bot game: its result and the uses of every card played."""
    g, options = args
    pack = load_pack()
    seed = f"balance-{g}".encode()
    state, _ = R.new_game(pack, seed, options)
    rng = random.Random(g)
    uses: collections.Counter[str] = collections.Counter()
    decisions = 0
    while R.pending(state):
        d = R.pending(state)[0]
        state, events = R.apply(state, d.seat, R.bot_orders(state, d.seat, rng),
                                R.Dice(seed, state.step))
        decisions += 1
        for e in events:
            if e.kind == "CardPlayed":
                uses[f"{e.data['card']}:{e.data['use']}"] += 1
            elif e.kind == "CardDiscarded":
                uses[f"{e.data['card']}:" + ("surprise_discard" if e.data.get("surprise")
                                              else "discard")] += 1
            elif e.kind == "SurpriseCardPlayed":
                uses[f"{e.data['card']}:surprise"] += 1
        if decisions > 5000:
            break
    result = state.result or {}
    return {"how": _route(str(result.get("how", "unfinished"))), "turn": state.turn,
            "winner": result.get("winner"), "uses": dict(uses), "decisions": decisions}


def _route(how: str) -> str:
    if how.startswith("automatic"):
        return "automatic VP" if "vp" in how.lower() else "automatic LP"
    if how.startswith("regency"):
        return "regency"
    if how.startswith("end of game"):
        return "end of game"
    return how


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--options", default="", help="comma-separated game options set true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    options = {k: True for k in args.options.split(",") if k}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as ex:
        results = list(ex.map(play, [(g, options) for g in range(args.games)], chunksize=8))
    secs = time.perf_counter() - t0
    routes = collections.Counter(r["how"] for r in results)
    uses: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for r in results:
        for k, n in r["uses"].items():
            card, use = k.split(":", 1)
            uses[int(card)][use] += n
    pack = load_pack()
    print(f"{args.games} games in {secs:.0f} s ({args.jobs} jobs), options {options or 'none'}")
    print("\nvictory route          games   share")
    for how, n in routes.most_common():
        print(f"{how:22s} {n:6d}  {100 * n / len(results):5.1f} %")
    print("\ncard                                  event   OPs  discard  surprise")
    for n, c in sorted(pack.cards.items()):
        if c.type == "primary":
            continue
        u = uses.get(n, collections.Counter())
        ops = sum(u[k] for k in ("garrisons", "train", "activate", "upgrade_fleet"))
        print(f"#{n:<3d} {c.name[:32]:32s} {u['event']:6d} {ops:5d} {u['discard']:8d} "
              f"{u['surprise'] + u['surprise_discard']:9d}")
    if args.out:
        args.out.write_text(json.dumps({"games": args.games, "options": options,
                                        "seconds": secs, "routes": dict(routes),
                                        "uses": {str(k): dict(v) for k, v in uses.items()}},
                                       indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
