"""CPU time of ``rules.check`` on played positions, measured, not asserted (issue 24).

    .venv/bin/python benchmarks/bench_check.py [--games 3] [--root DIR]

The positions and orders are made once with this checkout: every player-turn of
``--games`` random real-pack games (the bots' legal orders), and beside each the same
orders with a movement mistake after a Tyche activation (dice before the movement
segment, the case issue 24 made the check look at closer). ``--root`` then times the
checks with ``pbem`` imported from another checkout (e.g. an extracted ``main``) on the
very same states and orders: the states travel as plain dicts.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make(games: int) -> list[tuple[dict, str, dict]]:
    """``(state dict, seat, orders)`` of the bots' player-turns and their mutations."""
    sys.path.insert(0, str(ROOT))
    import pbem.rules as R
    from pbem.pack.loader import load_pack
    from pbem.rules.bots.war import random_moves

    pack = load_pack()
    out = []
    for g in range(games):
        seed = f"bench-check-{g}".encode()
        state, _ = R.new_game(pack, seed, {"bot_inside": True} if g % 2 else None)
        rng = random.Random(g)
        while R.pending(state):
            d = R.pending(state)[0]
            orders = R.bot_orders(state, d.seat, rng)
            if d.kind == "player_turn":
                out.append((state.to_dict(), d.seat, orders))
                opts = R.legal_options(state, d.seat)
                card = next((h for h in opts["hand"] if "activate" in h["uses"]), None)
                moves = random_moves(pack, state, d.seat, rng, mp=card["ops"]) if card else []
                later = random_moves(pack, state, d.seat, rng)
                if moves and later and not opts["tyche_only"]:
                    bad = dict(later[-1], path=list(reversed(later[-1]["path"])))
                    out.append((state.to_dict(), d.seat, {
                        "tyche": {"card": card["card"], "use": "activate", **moves[0]},
                        "movement": later[:-1] + [bad]}))
            state, _ = R.apply(state, d.seat, orders, R.Dice(seed, state.step))
    return out


def timed(root: Path, cases: Path) -> dict:
    """Check every case with ``pbem`` from ``root``; seconds of CPU in all and per check."""
    code = f"""
import json, sys, time
sys.path.insert(0, {str(root)!r})
import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.core.state import GameState
pack = load_pack()
cases = json.load(open({str(cases)!r}))
states = [(GameState.from_dict(s, pack), seat, o) for s, seat, o in cases]
t = time.process_time()
refused = sum(bool(R.check(st, seat, o).problems) for st, seat, o in states)
dt = time.process_time() - t
print(json.dumps({{"checks": len(states), "cpu_s": round(dt, 2),
                  "ms_per_check": round(1000 * dt / len(states), 2), "refused": refused}}))
"""
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(got.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--root", type=Path, help="another checkout to compare with")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cases = Path(tmp) / "cases.json"
        cases.write_text(json.dumps(make(args.games), default=str))
        print("this checkout:", timed(ROOT, cases))
        if args.root:
            print(f"{args.root}:", timed(args.root, cases))


if __name__ == "__main__":
    started = time.time()
    main()
    print(f"({time.time() - started:.0f} s in all)")
