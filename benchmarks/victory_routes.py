"""How bot games end and which cards they play for what: the balance signal for the
reconstructed components (issue 12; with strong bots, issue 27 Part A item 6). Measured,
never asserted.

    .venv/bin/python benchmarks/victory_routes.py [--games 1000] [--seed routes]
        [--bots random|strong] [--playouts 24] [--workers 1] [--rows FILE]
        [--from-rows FILE ...]

Plays ``--games`` games on the real pack and prints: how often each victory route happens
(``GameWon.how``: automatic VP or LP, regency, end of game) with the turn; the LP and VP
of the winners; how often the seat that starts with Alexander IV (dealt Perdiccas) won;
for each Tyche card how often it was played for its event, for its OPs (garrisons,
activation, training, fleet upgrade) or discarded, and each surprise card how often it
was played for its event at each moment (R-8.5) or discarded; and how often the royal
family's events happened (captures, marriages, burials, deaths).

``--bots random`` (the default): all four seats play the random test driver
(``pbem.rules.bot_orders``), game ``g`` seeded ``{seed}-{g}`` with the generator
``Random(g)``, as since issue 12. ``--bots strong``: all four seats play the strong bot
(:func:`pbem.rules.bots.search.search_orders`) with no clock and ``--playouts`` rounds
per decision (default the in-play ``bot_playouts``, 24; fewer for a quicker signal),
each seat with its own generator ``Random("{seed}-{g}-{seat}")``. Odd games ask the
reaction windows (``ask_windows``), even games do not. ``--workers`` games run side by
side. ``--rows FILE`` appends each game's result as a JSON line as it ends and skips the
games already in the file (a run stopped early goes on where it stopped); ``--from-rows``
plays nothing and prints the summary of the games in the files.
"""
from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bot_strength import append_row, read_rows  # noqa: E402
from pbem import rules  # noqa: E402
from pbem.gamesettings import BOT_PLAYOUTS  # noqa: E402
from pbem.pack.loader import load_pack  # noqa: E402
from pbem.rules.bots.search import Budget, search_orders  # noqa: E402
from pbem.rules.core.control import royal_controller  # noqa: E402
from pbem.rules.dice import Dice  # noqa: E402

ROYAL_KINDS = ("RoyalTaken", "RoyalControlLost", "RoyalActivated", "MarriageOffered",
               "MarriageConcluded", "RoyalKilled", "RoyalMoved", "BodyBuried",
               "LegitimacyAdjusted", "CondemnationPlaced", "MutinyStruck", "ChampionLost",
               "ChampionRegained", "RoyalRemoved")

_PACK = None


def play(job: tuple[str, int, str, int]) -> dict:
    """One game: ``(bots, g, seed prefix, playouts)`` -> its row: the ``GameWon`` data
    (``how``, ``winner``, ...), ``turn``, final ``lp`` and ``vp`` per seat, ``heir`` (the
    seat holding Alexander IV at the start), ``cards`` (``[card, use, plays]``),
    ``royal`` (events per kind), ``refused`` (orders the check refused: the default
    played instead; never expected) and ``cpus`` (the strong bots' CPU seconds per
    decision)."""
    global _PACK
    bots, g, prefix, playouts = job
    if _PACK is None:
        _PACK = load_pack()
    seed = f"{prefix}-{g}".encode()
    state, _ = rules.new_game(_PACK, seed, {"ask_windows": bool(g % 2)})
    heir = royal_controller(_PACK, state.peek(), "alexander_iv")
    rng = random.Random(g)
    rngs = {s: random.Random(f"{prefix}-{g}-{s}") for s in rules.SEATS}
    budget = Budget(seconds=None, playouts=playouts)
    cards: collections.Counter = collections.Counter()
    royal: collections.Counter = collections.Counter()
    cpus: list[float] = []
    refused = 0
    won: dict = {}
    while rules.pending(state):
        d = rules.pending(state)[0]
        if bots == "strong":
            c0 = time.process_time()
            orders = search_orders(state, d.seat, rngs[d.seat], budget)
            cpus.append(time.process_time() - c0)
            checked = rules.check(state, d.seat, orders)
            if checked.problems:
                refused += 1
                checked = rules.check(state, d.seat, d.default)
            state, events = rules.execute(state, checked, Dice(seed, state.step))
        else:
            state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng),
                                        Dice(seed, state.step))
        for e in events:
            if e.kind == "CardPlayed":
                cards[(e.data["card"], e.data["use"])] += 1
            elif e.kind == "CardDiscarded":
                cards[(e.data["card"], "discard")] += 1
            elif e.kind == "SurprisePlayed":  # played for its event at a moment
                cards[(e.data["card"], f"event ({e.data['moment']})")] += 1
            elif e.kind in ROYAL_KINDS:
                royal[e.kind] += 1
                if e.kind == "BodyBuried":
                    royal["BodyBuried in Pella" if e.data["pella"]
                          else "BodyBuried elsewhere"] += 1
            elif e.kind == "GameWon":
                won = dict(e.data)
    view = rules.view(state, None)
    return {**won, "g": g, "bots": bots, "seed": prefix,
            "playouts": playouts if bots == "strong" else None,
            "turn": state.turn, "lp": view["lp"], "vp": view["vp"], "heir": heir,
            "cards": [[c, u, k] for (c, u), k in cards.items()], "royal": dict(royal),
            "refused": refused, "cpus": cpus}


def finished(path: Path, settings: dict, games: int) -> list[dict]:
    """The rows of ``path`` (JSON lines; none when it does not exist) of games ``< games``
    of the run ``settings`` (bots, seed prefix, playouts): skipped when the run starts
    again (:func:`benchmarks.bot_strength.read_rows`). A row of another run raises
    ``SystemExit``; a game twice counts once."""
    if not path.exists():
        return []
    kept: dict[int, dict] = {}
    for n, r in read_rows(path):
        other = {k: (r.get(k), v) for k, v in settings.items() if r.get(k) != v}
        if other:
            raise SystemExit(f"{path}:{n}: a game of another run (file, this run: {other})")
        if r["g"] < games:
            kept.setdefault(r["g"], r)
    return list(kept.values())


def summary(rows: list[dict]) -> None:
    """Print the summary of the module docstring for ``rows`` (one per game, :func:`play`)."""
    pack = load_pack()
    n = len(rows)
    routes: collections.Counter = collections.Counter()
    by_turn: collections.Counter = collections.Counter()
    cards: dict = collections.defaultdict(collections.Counter)
    royal: collections.Counter = collections.Counter()
    lp_win, vp_win, heir_won = [], [], 0
    for r in rows:
        how = str(r.get("how", "none"))
        routes[how] += 1
        by_turn[(how, r["turn"])] += 1
        w = r.get("winner")
        if w:
            lp_win.append(r["lp"][w])
            vp_win.append(r["vp"][w])
            heir_won += w == r["heir"]
        for c, u, k in r["cards"]:
            cards[c][u] += k
        royal.update(r["royal"])
    print("\nVictory routes:")
    for how, k in routes.most_common():
        turns = ", ".join(f"turn {t}: {c}" for (h, t), c in sorted(by_turn.items()) if h == how)
        print(f"  {how:28} {k:5} ({100 * k / n:5.1f} %)  {turns}")
    if lp_win:
        print(f"\nWinners' LP: mean {sum(lp_win) / len(lp_win):.1f}, max {max(lp_win)}; "
              f"VP: mean {sum(vp_win) / len(vp_win):.1f}, max {max(vp_win)}")
    print(f"The seat starting with Alexander IV won {heir_won} of {n} games")
    cpus = [t for r in rows for t in r.get("cpus", [])]
    if cpus:
        print(f"Strong bots' CPU s/decision: median {statistics.median(cpus):.2f}, "
              f"max {max(cpus):.2f} ({len(cpus)} decisions); refused orders "
              f"{sum(r['refused'] for r in rows)}")
    print("\nCards (plays per use):")
    for card in sorted(cards):
        uses = ", ".join(f"{u} {k}" for u, k in cards[card].most_common())
        print(f"  #{card:<3} {pack.cards[card].name:32} {uses}")
    print("\nRoyal family and legitimacy events (per game):")
    for kind in (*ROYAL_KINDS, "BodyBuried in Pella", "BodyBuried elsewhere"):
        print(f"  {kind:22} {royal[kind] / n:6.2f}")


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print its summary (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", default="routes")
    ap.add_argument("--bots", choices=("random", "strong"), default="random",
                    help="who plays the four seats")
    ap.add_argument("--playouts", type=int, default=BOT_PLAYOUTS,
                    help="the strong bots' rounds per decision (no clock; default the "
                         "in-play bot_playouts)")
    ap.add_argument("--workers", type=int, default=1, help="games side by side")
    ap.add_argument("--rows", help="append each game's result to this file (JSON lines); "
                         "the games already in it are not played again")
    ap.add_argument("--from-rows", nargs="+", metavar="FILE",
                    help="play nothing: print the summary of the games in these files")
    a = ap.parse_args(argv)
    if a.from_rows:
        rows = [r for f in a.from_rows for _, r in read_rows(Path(f))]
        print(f"{len(rows)} games from {', '.join(a.from_rows)}")
        summary(rows)
        return
    playouts = a.playouts if a.bots == "strong" else None
    settings = {"bots": a.bots, "seed": a.seed, "playouts": playouts}
    rows = finished(Path(a.rows), settings, a.games) if a.rows else []
    done = {r["g"] for r in rows}
    jobs = [(a.bots, g, a.seed, playouts) for g in range(a.games) if g not in done]
    t0 = time.time()
    with multiprocessing.Pool(a.workers) as pool:
        for r in pool.imap_unordered(play, jobs):
            rows.append(r)
            if a.rows:
                append_row(Path(a.rows), r)
            if a.bots == "strong":  # slow: one line per game on stderr
                print(f"{len(rows)}/{a.games} g{r['g']} {r.get('winner')} "
                      f"({r.get('how')}, turn {r['turn']})", file=sys.stderr, flush=True)
    rows.sort(key=lambda r: r["g"])
    print(f"{len(rows)} games ({len(done)} of them from {a.rows}), {a.bots} bots"
          + (f", {playouts} playouts per decision" if playouts else "")
          + f", {time.time() - t0:.0f} s")
    summary(rows)


if __name__ == "__main__":
    main()
