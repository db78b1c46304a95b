"""How strong the bots are (issue 27 Part A item 4): win rates against three random bots
and against three greedy bots, and the time per decision. Measured, never asserted.

    .venv/bin/python benchmarks/bot_strength.py [--games 100] [--budget 1.0]
        [--playouts 64] [--bot search|greedy] [--opponents random,greedy] [--workers 2]
        [--seed bots]

Game ``g`` against opponent ``o`` is seeded ``{seed}-{o}-{g}`` (dice and the bots' own
generators), and the measured bot takes seat ``SEATS[g % 4]``: the seats rotate, so
each seat is played equally often. The other three seats are the opponent bot (the
random bot as a player, :func:`pbem.rules.bots.random.random_bot`, or the greedy
baseline). Games run side by side on ``--workers`` processes (the 2-core machine: 2);
``--budget`` is the strong bot's seconds per decision, as in play; ``--budget 0`` takes the
clock away and ``--playouts`` rounds alone bound the search (comparable runs on a loaded
machine: the CPU time per decision is then the figure to read).

Prints, per opponent, a Markdown row: games, wins, the win rate with its 95 % Wilson
interval (a fair share is 25 %), how the games ended, and the measured bot's wall time
and CPU time per decision (median and slowest).
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.rules.bots.greedy import greedy_orders
from pbem.rules.bots.random import random_bot
from pbem.rules.bots.search import Budget, search_orders
from pbem.rules.core.control import royal_controller
from pbem.rules.dice import Dice

_PACK = None


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for ``z`` = 1.96): (low, high)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(job: tuple[str, str, int, str, float | None, int]) -> dict:
    """One game: ``(bot, opponent, g, seed prefix, seconds, playouts)`` -> the result
    row (``seconds`` None: no clock, the search bounded by ``playouts`` rounds)."""
    global _PACK
    bot, opponent, g, prefix, seconds, playouts = job
    if _PACK is None:
        _PACK = load_pack()
    seed = f"{prefix}-{opponent}-{g}".encode()
    me = rules.SEATS[g % 4]
    state, _ = rules.new_game(_PACK, seed)
    rngs = {x: random.Random(f"{prefix}-{opponent}-{g}-{x}") for x in rules.SEATS}
    budget = Budget(seconds=seconds, playouts=playouts)
    walls, cpus, refused = [], [], 0
    heir = royal_controller(_PACK, state.peek(), "alexander_iv")
    while rules.pending(state):
        d = rules.pending(state)[0]
        if d.seat == me:
            w0, c0 = time.perf_counter(), time.process_time()
            orders = (search_orders(state, me, rngs[me], budget) if bot == "search"
                      else greedy_orders(state, me, rngs[me]))
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
        elif opponent == "greedy":
            orders = greedy_orders(state, d.seat, rngs[d.seat])
        else:
            orders = random_bot(state, d.seat, rngs[d.seat])
        checked = rules.check(state, d.seat, orders)
        if checked.problems:  # never expected: counted, and the default played
            refused += 1
            checked = rules.check(state, d.seat, d.default)
        state, _ = rules.execute(state, checked, Dice(seed, state.step))
    return {"opponent": opponent, "g": g, "seat": me, "won": state.result["winner"] == me,
            "how": state.result["how"].split(" (")[0], "walls": walls, "cpus": cpus,
            "refused": refused, "turn": state.turn, "heir_mine": heir == me}


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print its table (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per opponent")
    ap.add_argument("--budget", type=float, default=1.0,
                    help="seconds of wall time per decision (0: no clock, --playouts only)")
    ap.add_argument("--playouts", type=int, default=Budget().playouts,
                    help="at most this many rounds per decision (with --budget 0 the "
                         "only bound: comparable runs on a loaded machine)")
    ap.add_argument("--bot", choices=("search", "greedy"), default="search")
    ap.add_argument("--opponents", default="random,greedy")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", default="bots")
    ap.add_argument("--rows", help="append each game's result to this file (JSON lines); "
                         "the games already in it are not played again (resumable)")
    ap.add_argument("--from-rows", nargs="+", metavar="FILE",
                    help="play nothing: print the table of the games in these --rows files "
                         "(a run stopped early still counts the games it finished)")
    a = ap.parse_args(argv)
    if a.from_rows:
        rows = [r for f in a.from_rows for _, r in read_rows(Path(f))]
        print(f"{len(rows)} games from {', '.join(a.from_rows)}\n")
        table(rows, sorted({r["opponent"] for r in rows}))
        return
    seconds = a.budget or None
    opponents = a.opponents.split(",")
    settings = {"bot": a.bot, "seed": a.seed, "seconds": seconds, "playouts": a.playouts}
    rows = finished(Path(a.rows), settings, opponents, a.games) if a.rows else []
    done = {(r["opponent"], r["g"]) for r in rows}
    jobs = [(a.bot, o, g, a.seed, seconds, a.playouts) for o in opponents
            for g in range(a.games) if (o, g) not in done]
    if done:
        print(f"{len(done)} games already in {a.rows}: skipped, {len(jobs)} to play",
              file=sys.stderr, flush=True)
    t0 = time.time()
    with multiprocessing.Pool(a.workers) as pool:
        for r in pool.imap_unordered(play, jobs):  # one line per game on stderr
            r.update(settings)
            rows.append(r)
            if a.rows:
                append_row(Path(a.rows), r)
            print(f"{len(rows)}/{len(jobs) + len(done)} {r['opponent']} g{r['g']} "
                  f"{r['seat']} {'won' if r['won'] else 'lost'} ({r['how']}, "
                  f"turn {r['turn']})", file=sys.stderr, flush=True)
    bound = f"{seconds} s" if seconds else "no clock"
    print(f"{a.bot} bot, budget {bound} and {a.playouts} playouts per decision, "
          f"{a.games} games per opponent ({len(done)} of them from {a.rows}), "
          f"{a.workers} workers, seed {a.seed!r}, {time.time() - t0:.0f} s in all\n")
    table(rows, opponents)


def read_rows(path: Path) -> list[tuple[int, dict]]:
    """The rows of a ``--rows`` file (JSON lines) with their line numbers; a line that is
    not JSON (a run killed while writing it) is left out with a warning on stderr, so
    its game is played again."""
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError:
                print(f"{path}:{n}: not a row (cut short?): left out", file=sys.stderr)
    return rows


def append_row(path: Path, row: dict) -> None:
    """Append ``row`` to the ``--rows`` file ``path`` as one JSON line (after a newline
    when a killed run left the last line without one)."""
    with open(path, "a+b") as out:
        out.seek(0, 2)
        if out.tell():
            out.seek(-1, 2)
            if out.read(1) != b"\n":
                out.write(b"\n")
        out.write((json.dumps(row) + "\n").encode())


def finished(path: Path, settings: dict, opponents: list[str], games: int) -> list[dict]:
    """The rows of ``path`` (a ``--rows`` file, JSON lines; none when it does not exist)
    that a run of ``settings`` (bot, seed prefix, seconds, playouts) against
    ``opponents`` with ``games`` games each would play again: those games are skipped,
    so a run stopped early and started again with the same file goes on where it
    stopped (:func:`read_rows`). A row of another bot, seed, clock or number of playouts raises
    ``SystemExit`` (one file holds one run); a row without them (written before they
    were recorded) is taken as the same run. A game twice in the file counts once."""
    if not path.exists():
        return []
    kept: dict[tuple[str, int], dict] = {}
    for n, r in read_rows(path):
        other = {k: (r[k], v) for k, v in settings.items() if k in r and r[k] != v}
        if other:
            raise SystemExit(f"{path}:{n}: a game of another run (file, this run: {other})")
        if r["opponent"] in opponents and r["g"] < games:
            kept.setdefault((r["opponent"], r["g"]), r)
    return list(kept.values())


def table(rows: list[dict], opponents: list[str]) -> None:
    """Print the Markdown table of ``rows`` (one per game, :func:`play`), a row per
    opponent, with the wins by seat and by Alexander IV's first holder as comments."""
    print("| opponents | games | wins | win rate (95 % CI) | endings | wall s/decision "
          "median / max | CPU s/decision median / max | refused |")
    print("|---|---|---|---|---|---|---|---|")
    for o in opponents:
        mine = [r for r in rows if r["opponent"] == o]
        if not mine:
            continue
        wins = sum(r["won"] for r in mine)
        lo, hi = wilson(wins, len(mine))
        walls = [t for r in mine for t in r["walls"]]
        cpus = [t for r in mine for t in r["cpus"]]
        ends = collections.Counter(r["how"] for r in mine)
        print(f"| 3 × {o} | {len(mine)} | {wins} | {wins / len(mine):.0%} "
              f"({lo:.0%}–{hi:.0%}) | "
              + ", ".join(f"{k} {v}" for k, v in ends.most_common())
              + f" | {statistics.median(walls):.2f} / {max(walls):.2f} | "
              f"{statistics.median(cpus):.2f} / {max(cpus):.2f} | "
              f"{sum(r['refused'] for r in mine)} |")
        by_seat = collections.Counter(r["seat"] for r in mine if r["won"])
        print(f"<!-- wins by seat vs {o}: {dict(by_seat)} -->")
        held = [r for r in mine if r["heir_mine"]]
        print(f"<!-- vs {o}: holding Alexander IV at the start {sum(r['won'] for r in held)}"
              f"/{len(held)} won, not holding him {wins - sum(r['won'] for r in held)}"
              f"/{len(mine) - len(held)} -->")


if __name__ == "__main__":
    main()
