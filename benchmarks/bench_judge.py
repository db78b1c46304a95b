"""How long the judge takes per decision, measured, not asserted.

    .venv/bin/python benchmarks/bench_judge.py [--steps 40] [--map] [--languages en,es,ru,es]

Plays one game of random legal orders through ``Judge.handle_message`` (parse, envelope,
rules, events, snapshot, receipts, reports, prompts — everything but the network), and
times its parts separately: the rules core alone (``rules.apply``), rendering the four
reports, the map PNG, and reports + map together. Prints medians and 90th percentiles
in milliseconds; the whole decision also in CPU time of the process (all its threads),
which a loaded shared machine disturbs less than the wall clock. The seat keys are of the form ``pbem key new`` makes (fast hash).
``--languages``: the four seats' mail languages (issue 28), north to west; each report
is rendered in its seat's language, as the service renders it, and the seats' map
pictures are drawn as the service draws them (``build.seat_map_pngs``: one per language
among the seats, the zoom for the seats to move).
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

from pbem import i18n, rules  # noqa: E402
from pbem.config import parse_config  # noqa: E402
from pbem.keys import hash_key, new_key  # noqa: E402
from pbem.report import build  # noqa: E402
from pbem.rules.dice import Dice  # noqa: E402
from pbem.service import Judge  # noqa: E402
from pbem.store import Store  # noqa: E402

SEATS = ("north", "east", "south", "west")


def mail(seat: str, doc: dict, n: int) -> bytes:
    """An orders mail from ``seat`` with ``doc`` as its YAML body."""
    body = yaml.safe_dump(doc, sort_keys=False)
    return (f"From: {seat}@pbem.localhost\r\nTo: judge@pbem.localhost\r\nSubject: orders\r\n"
            f"Message-ID: <bench-{n}@players.test>\r\n\r\n{body}").encode()


def _stats(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[max(0, math.ceil(0.9 * len(ms)) - 1)]
    return f"{name:<34} median {statistics.median(ms):8.1f} ms   p90 {p90:8.1f} ms   (n={len(ms)})"


def new_judge(tmp: Path, map_attachment: bool, languages: dict[str, str] | None = None
              ) -> tuple[Judge, dict[str, str]]:
    """A judge with game ``b1`` (four seats, fast-hash keys, a fixed seed, each seat's
    ``languages``, English by default) in ``tmp``."""
    keys = {s: new_key() for s in SEATS}
    languages = languages or {}
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / "bench.sqlite"),
        "map_attachment": map_attachment, "seat_reply_rate_per_hour": 10_000,
        "games": [{"id": "b1", "seats": [
            {"seat": s, "player": s.title(), "email": f"{s}@pbem.localhost", "key_hash": hash_key(keys[s]),
             "language": languages.get(s, "en")} for s in SEATS]}]}, base=tmp)
    judge = Judge(config, Store(config.database), new_seed=lambda: b"bench")
    judge.ensure_games()
    return judge, keys


def measure(steps: int = 40, map_attachment: bool = True, seed: int = 1,
            languages: dict[str, str] | None = None) -> dict[str, list[float]]:
    """Milliseconds per decision of each part, for ``steps`` decisions of one game
    (the seats' mail in ``languages``, English by default)."""
    languages = languages or {}
    judge, keys = new_judge(Path(tempfile.mkdtemp()), map_attachment, languages)
    rng = random.Random(seed)
    out: dict[str, list[float]] = {"whole": [], "whole_cpu": [], "core": [], "render": [], "png": [],
                                   "report_png": []}
    for n in range(steps):
        state = judge.state("b1")
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        orders = rules.bot_orders(state, d.seat, rng)
        t = time.perf_counter()
        new, events = rules.apply(state, d.seat, orders, Dice(b"bench", state.step))
        out["core"].append((time.perf_counter() - t) * 1000)
        pack = judge.pack_for("b1")
        seats = judge.store.seats("b1")
        t = time.perf_counter()
        for row in seats:
            build.render_report(pack, new, events, game_id="b1", step=state.step, seat=row["seat"], seats=seats,
                                headline="bench", seed_commitment="x",
                                tr=i18n.translations(languages.get(row["seat"], "en")))
        out["render"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        # the seats' pictures as the service draws them: the zoom for the seats to move,
        # each seat's language (issue 28)
        build.seat_map_pngs(pack, new, events, title=f"b1 step {state.step}", seats=list(SEATS),
                            players={s: s.title() for s in SEATS}, zoom={p.seat for p in rules.pending(new)},
                            languages={s: languages.get(s, "en") for s in SEATS})
        out["png"].append((time.perf_counter() - t) * 1000)
        out["report_png"].append(out["render"][-1] + out["png"][-1])
        doc = {"game": "b1", "seat": d.seat, "key": keys[d.seat], "step": state.step, "orders": orders}
        t, cpu = time.perf_counter(), time.process_time()
        status = judge.handle_message(mail(d.seat, doc, n))
        out["whole"].append((time.perf_counter() - t) * 1000)
        out["whole_cpu"].append((time.process_time() - cpu) * 1000)
        assert status == "applied", status
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--map", action="store_true", help="attach the map PNG to reports (as in production)")
    ap.add_argument("--languages", default="", help="the seats' languages, north to west, e.g. en,es,ru,es")
    args = ap.parse_args()
    got = measure(args.steps, args.map, languages=dict(zip(SEATS, args.languages.split(","), strict=False))
                  if args.languages else None)
    print(_stats("handle_message (whole decision)", got["whole"]))
    print(_stats("  the same, CPU time (all threads)", got["whole_cpu"]))
    print(_stats("rules.apply", got["core"]))
    print(_stats("render 4 reports", got["render"]))
    print(_stats("the seats' map PNGs (1000 px)", got["png"]))
    print(_stats("4 reports + map PNG", got["report_png"]))


if __name__ == "__main__":
    main()
