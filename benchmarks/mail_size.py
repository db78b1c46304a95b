"""How many bytes a seat's mailbox receives, measured, not asserted (issue 24 item 15).

    .venv/bin/python benchmarks/mail_size.py [--turns 5] [--seed 1] [--root DIR]

Plays one game of random legal orders through ``Judge.handle_message`` with the map on
(as in production, every seat with the default preferences) until ``--turns`` game
turns are over or the game ends, and sizes every mail the judge queues, as sent (the
raw RFC 5322 bytes, attachments base64-encoded). Prints the bytes of a turn report
(median, mean, max), how many reports carry the map picture, and the bytes each seat
receives per game turn and over the game (every kind of mail, and the reports alone).
``--root``: run another checkout's code (the "before" of a change).
"""
from __future__ import annotations

import argparse
import email
import email.policy
import random
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--turns", type=int, default=5, help="stop after this many game turns (the game has 5)")
ap.add_argument("--seed", type=int, default=1, help="seed of the random players")
ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1], help="checkout whose code runs")
ap.add_argument("--max-steps", type=int, default=400)
args = ap.parse_args()
sys.path.insert(0, str(args.root.resolve()))
sys.path.insert(1, str(args.root.resolve() / "benchmarks"))  # its bench_judge puts its root first

from bench_judge import SEATS, mail, new_judge

from pbem import rules


def _kib(n: float) -> str:
    return f"{n / 1024:,.0f} KiB"


def _picture_height(raw: bytes) -> int:
    """The height in pixels of the PNG a mail carries (0 without one)."""
    if b"image/png" not in raw:
        return 0
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    png = next(p.get_content() for p in msg.walk() if p.get_content_type() == "image/png")
    return int.from_bytes(png[20:24], "big")


def main() -> None:
    judge, keys = new_judge(Path(tempfile.mkdtemp()), map_attachment=True)
    rng = random.Random(args.seed)
    sizes: list[tuple[int, str, str, int, int]] = []  # (game turn, kind, to_addr, bytes, picture height or 0)
    for n in range(args.max_steps):
        state = judge.state("b1")
        pending = rules.pending(state)
        if not pending or state.turn > args.turns:
            break
        turn = state.turn
        d = pending[0]
        orders = rules.bot_orders(state, d.seat, rng)
        doc = {"game": "b1", "seat": d.seat, "key": keys[d.seat], "step": state.step, "orders": orders}
        status = judge.handle_message(mail(d.seat, doc, n))
        assert status == "applied", status
        for row in judge.store.due_mail(now="9999", limit=10_000):
            raw = bytes(row["raw"])
            sizes.append((turn, row["kind"], row["to_addr"], len(raw), _picture_height(raw)))
            judge.store.mark_sent(row["id"])
    turns = sorted({t for t, *_ in sizes})
    reports = [s for s in sizes if s[1] == "report"]
    with_map = [s for s in reports if s[4]]
    print(f"{len(turns)} game turns, {n} decisions, {len(sizes)} mails")
    if reports:
        b = [s[3] for s in reports]
        print(f"turn report mail: median {_kib(statistics.median(b))}, mean {_kib(statistics.mean(b))}, "
              f"max {_kib(max(b))}; {len(with_map)} of {len(reports)} carry the map")
    for what, pick in (("the overview alone (picture under 800 px high)", lambda h: h < 800),
                       ("the overview and a zoom", lambda h: h >= 800)):
        b = [s[3] for s in with_map if pick(s[4])]
        if b:
            print(f"  {what}: {len(b)} mails, median {_kib(statistics.median(b))}, max {_kib(max(b))}")
    per: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for turn, kind, to, size, _pic in sizes:
        per[to, turn][0] += size
        if kind == "report":
            per[to, turn][1] += size
    print("per seat per game turn (all mail / reports):")
    for seat in SEATS:
        to = f"{seat}@pbem.localhost"
        cells = [f"{_kib(per[to, t][0])} / {_kib(per[to, t][1])}" for t in turns]
        total = sum(per[to, t][0] for t in turns)
        print(f"  {seat:<6} " + "; ".join(f"t{t}: {c}" for t, c in zip(turns, cells, strict=True))
              + f"; game: {total / 2**20:.1f} MiB")
    full = [per[f"{s}@pbem.localhost", t][0] for s in SEATS for t in turns]
    print(f"mean per seat per game turn: {_kib(statistics.mean(full))}, largest {_kib(max(full))}")


if __name__ == "__main__":
    main()
