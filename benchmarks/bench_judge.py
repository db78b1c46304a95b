"""How long the judge takes per decision, measured, not asserted.

    .venv/bin/python benchmarks/bench_judge.py [--steps 40] [--map]

Plays one game of random legal orders through ``Judge.handle_message`` (parse, envelope,
rules, events, snapshot, receipts, reports, prompts — everything but the network), and
times its parts separately: the rules core alone (``rules.apply``), rendering the reports
and prompts, and the map PNG. Prints medians and 90th percentiles in milliseconds.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem import rules  # noqa: E402
from pbem.config import parse_config  # noqa: E402
from pbem.keys import hash_key  # noqa: E402
from pbem.report import build  # noqa: E402
from pbem.rules.dice import Dice  # noqa: E402
from pbem.service import Judge  # noqa: E402
from pbem.store import Store  # noqa: E402

SEATS = ("north", "east", "south", "west")


def _mail(seat: str, doc: dict, n: int) -> bytes:
    body = yaml.safe_dump(doc, sort_keys=False)
    return (f"From: {seat}@pbem.localhost\r\nTo: judge@pbem.localhost\r\nSubject: orders\r\n"
            f"Message-ID: <bench-{n}@players.test>\r\n\r\n{body}").encode()


def _stats(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[max(0, math.ceil(0.9 * len(ms)) - 1)]
    return f"{name:<34} median {statistics.median(ms):8.1f} ms   p90 {p90:8.1f} ms   (n={len(ms)})"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--map", action="store_true", help="attach the map PNG to reports (as in production)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    keys = {s: f"{s}-bench" for s in SEATS}
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / "bench.sqlite"),
        "map_attachment": args.map,
        "games": [{"id": "b1", "options": {"ask_windows": True}, "seats": [
            {"seat": s, "player": s.title(), "email": f"{s}@pbem.localhost",
             "key_hash": hash_key(keys[s], iterations=1000)} for s in SEATS]}]}, base=tmp)
    judge = Judge(config, Store(config.database), new_seed=lambda: b"bench")
    judge.ensure_games()
    rng = random.Random(1)
    whole, core, render, png = [], [], [], []
    for n in range(args.steps):
        state = judge.state("b1")
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        orders = rules.bot_orders(state, d.seat, rng)
        t = time.perf_counter()
        new, events = rules.apply(state, d.seat, orders, Dice(b"bench", state.step))
        core.append((time.perf_counter() - t) * 1000)
        pack = judge.pack_for("b1")
        seats = judge.store.seats("b1")
        t = time.perf_counter()
        for row in seats:
            build.render_report(pack, new, events, game_id="b1", step=state.step, seat=row["seat"], seats=seats,
                                headline="bench", seed_commitment="x")
        render.append((time.perf_counter() - t) * 1000)
        if n % 10 == 0:
            t = time.perf_counter()
            build.map_png(pack, new, events, title="bench")
            png.append((time.perf_counter() - t) * 1000)
        doc = {"game": "b1", "seat": d.seat, "key": keys[d.seat], "step": state.step, "orders": orders}
        t = time.perf_counter()
        status = judge.handle_message(_mail(d.seat, doc, n))
        whole.append((time.perf_counter() - t) * 1000)
        assert status == "applied", status
    print(_stats("handle_message (whole decision)", whole))
    print(_stats("rules.apply", core))
    print(_stats("render 4 reports", render))
    print(_stats("map PNG (1000 px)", png))


if __name__ == "__main__":
    main()
