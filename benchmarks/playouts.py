"""Random full games per CPU second (issue 27 item 5), for A/B runs against another checkout.

``python benchmarks/playouts.py --root DIR --games N --repeat R`` plays N seeded random
games (the games of ``run_all.random_games``: seed ``bytes([g]) * 8``, ``random.Random(g)``,
bots through ``rules.apply``) with the code of checkout DIR (default: this one) and prints
games per CPU second (``time.process_time``) for each of R runs and their median.
``--profile FILE`` writes a cProfile (CPU-time timer) of one run. ``--ab OTHER`` runs this
checkout and OTHER side by side, one subprocess each (same moment, same load), ``--repeat``
times, and prints both medians, their ratio and the median of the paired ratios.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(n: int, first: int = 0, digest: "hashlib._Hash | None" = None) -> float:
    """Games per CPU second over ``n`` seeded random games (seeds ``first`` … ``first+n-1``).
    ``digest``: updated with every event (kind, data, visibility) and each final state,
    a quick check that two checkouts play the same games (the full one is
    ``tools/rules_baseline.py --check``)."""
    from pbem import rules
    from pbem.pack.loader import load_pack
    from pbem.rules.dice import Dice
    pack = load_pack(None)
    t = time.process_time()
    for g in range(first, first + n):
        seed = bytes([g % 256]) * 8
        state, _ = rules.new_game(pack, seed, {})
        rng = random.Random(g)
        for _ in range(5000):
            pending = rules.pending(state)
            if not pending:
                break
            d = pending[0]
            state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng),
                                        Dice(seed, state.step))
            if digest is not None:
                for e in events:
                    digest.update(json.dumps([e.kind, e.data, e.public, e.seat], sort_keys=True,
                                             default=str).encode())
        if digest is not None:
            digest.update(json.dumps(state.to_dict(), sort_keys=True, default=str).encode())
    return n / (time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=str(HERE.parent), help="checkout whose code runs")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--profile", help="write a cProfile (CPU timer) of one run here")
    ap.add_argument("--hash", action="store_true",
                    help="print a SHA-256 of the games' events and final states (not timed)")
    ap.add_argument("--ab", help="another checkout: alternate runs of both, print the ratio")
    args = ap.parse_args()
    if args.ab:
        # each pair runs side by side (one process per checkout, same moment, same load)
        res: dict[str, list[float]] = {"this": [], "other": []}
        for _ in range(args.repeat):
            procs = {name: subprocess.Popen([sys.executable, __file__, "--root", root,
                                             "--games", str(args.games), "--first",
                                             str(args.first)], stdout=subprocess.PIPE, text=True)
                     for name, root in (("this", str(HERE.parent)), ("other", args.ab))}
            for name, proc in procs.items():
                out, _ = proc.communicate()
                res[name].append(float(out.split()[0]))
        a, b = statistics.median(res["this"]), statistics.median(res["other"])
        pairs = [x / y for x, y in zip(res["this"], res["other"], strict=True)]
        print(f"this {a:.2f}/s {['%.2f' % x for x in res['this']]}")
        print(f"other {b:.2f}/s {['%.2f' % x for x in res['other']]}")
        print(f"ratio of medians {a / b:.3f}, median of paired ratios {statistics.median(pairs):.3f} "
              f"{['%.2f' % x for x in pairs]}  load {os.getloadavg()}")
        return
    sys.path.insert(0, args.root)
    if args.hash:
        h = hashlib.sha256()
        run(args.games, args.first, h)
        print(h.hexdigest())
        return
    if args.profile:
        import cProfile
        prof = cProfile.Profile(time.process_time)
        prof.enable()
        r = run(args.games, args.first)
        prof.disable()
        prof.dump_stats(args.profile)
        print(f"{r:.3f} games per CPU second")
        return
    rates = [run(args.games, args.first) for _ in range(args.repeat)]
    print(f"{statistics.median(rates):.3f} games per CPU second (median of {rates})")


if __name__ == "__main__":
    main()
