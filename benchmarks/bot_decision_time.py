"""How long the table bot thinks per decision for a number of playout rounds (issue 25):
the figures that chose the default ``bot_playouts`` and its largest value
(:data:`pbem.gamesettings.BOT_PLAYOUTS`, :data:`pbem.gamesettings.MAX_BOT_PLAYOUTS`).
Measured, never asserted.

    .venv/bin/python benchmarks/bot_decision_time.py [--playouts 24,96] [--games 4]
        [--seed times] [--bot search]

The judge's strong bot has no clock (docs/bots.md, "Its budget"): its search ends after
``bot_playouts`` rounds, so its time per decision is a property of the machine and of
that number. Each game is seeded ``{seed}-{g}``; the measured seat is ``SEATS[g % 4]``
(the seats rotate) and is played exactly as at the judge's table
(:meth:`pbem.rules.bots.table.TableBot.orders` on the seat's view, the budget of
:func:`pbem.service.play.bots.budget`, its own seed from a fixed bot key); the other
seats play random legal orders (the random bot as a player). Every decision of the
measured seat is timed in CPU seconds of this process (one core) and in wall seconds.

Prints, per playout count, a Markdown row: decisions, CPU seconds per decision median /
90th percentile / slowest, the same in wall seconds, and the slowest decision's kind.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem import rules
from pbem.gamesettings import GameSettings
from pbem.pack.loader import load_pack
from pbem.rules.bots.random import random_bot
from pbem.rules.bots.table import BOTS, bot_key, bot_seed
from pbem.rules.dice import Dice
from pbem.service.play.bots import budget


def measure(playouts: int, games: int, prefix: str, bot: str = "search") -> list[tuple[float, float, str]]:
    """``games`` games with the table bot on ``playouts`` rounds: ``(CPU s, wall s,
    decision kind)`` of each of its decisions."""
    pack = load_pack()
    table_bot = BOTS[bot]
    plan = budget(GameSettings(bot=bot, bot_playouts=playouts))
    out = []
    for g in range(games):
        seed = f"{prefix}-{g}".encode()
        me = rules.SEATS[g % 4]
        key = bot_key(seed.ljust(32, b"\0")[:32], f"{prefix}-{g}")
        state, _ = rules.new_game(pack, seed)
        others = random.Random(f"{prefix}-{g}-others")
        while rules.pending(state):
            d = rules.pending(state)[0]
            if d.seat == me:
                rng = random.Random(bot_seed(f"{prefix}-{g}", me, state.step, key))
                c0, w0 = time.process_time(), time.perf_counter()
                orders = table_bot.orders(state, me, rng, plan)
                out.append((time.process_time() - c0, time.perf_counter() - w0, d.kind))
            else:
                orders = random_bot(state, d.seat, others)
            checked = rules.check(state, d.seat, orders)
            if checked.problems:  # never expected: the default instead
                checked = rules.check(state, d.seat, d.default)
            state, _ = rules.execute(state, checked, Dice(seed, state.step))
    return out


def _p90(xs: list[float]) -> float:
    """The 90th percentile of ``xs``."""
    return statistics.quantiles(xs, n=10)[-1] if len(xs) > 1 else xs[0]


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print its table (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--playouts", default="24,96", help="comma-separated playout counts")
    ap.add_argument("--games", type=int, default=4, help="games per playout count")
    ap.add_argument("--seed", default="times")
    ap.add_argument("--bot", default="search", choices=sorted(BOTS))
    a = ap.parse_args(argv)
    print(f"{a.bot} bot, {a.games} games per row against three random bots, seed {a.seed!r}\n")
    print("| playouts | decisions | CPU s/decision median / p90 / max | wall s/decision median / p90 / max "
          "| slowest |")
    print("|---|---|---|---|---|")
    for n in (int(x) for x in a.playouts.split(",")):
        rows = measure(n, a.games, a.seed, a.bot)
        cpus = [r[0] for r in rows]
        walls = [r[1] for r in rows]
        slowest = max(rows)[2]
        print(f"| {n} | {len(rows)} | {statistics.median(cpus):.2f} / {_p90(cpus):.2f} / {max(cpus):.2f} "
              f"| {statistics.median(walls):.2f} / {_p90(walls):.2f} / {max(walls):.2f} | {slowest} |", flush=True)


if __name__ == "__main__":
    main()
