"""What seats in three languages cost a decision with maps on, against another tree.

    .venv/bin/python benchmarks/map_languages.py [--steps 30] [--rounds 3] [--against DIR]

Issue 28's last done-when line: "the rendering cost per decision, with four seats in three
languages and maps on, is within 20 % of today's" (today: every seat in English). Plays
one game of random legal orders (the same orders in every run) through
``Judge.handle_message`` with maps on, four seats all ``en`` and then ``en, es, ru, en``,
and takes the CPU time of the process (all its threads) per decision, which a loaded
shared machine disturbs less than the wall clock; then, on the same positions, the CPU
time of the seats' map pictures alone (``build.seat_map_pngs`` as the service calls it,
with the zoom for the seats to move). ``--against DIR``: a checkout of another version
(e.g. ``git worktree add /tmp/main main``, or ``git archive main | tar -x -C DIR``),
measured in the same rounds, each run in its own process, the trees alternating, so both
see the same load. Prints the median of the runs' medians and the ratio to the other
tree's all-English figure. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ENGLISH = "en,en,en,en"
MIXED = "en,es,ru,en"


def worker(tree: Path, languages: str, steps: int) -> dict[str, float]:
    """Medians in CPU milliseconds per decision of the code in ``tree``: the whole
    decision (``whole``) and the seats' pictures alone (``maps``)."""
    sys.path.insert(0, str(tree))
    sys.path.insert(0, str(tree / "benchmarks"))
    import bench_judge

    from pbem import rules
    from pbem.report import build
    from pbem.rules.dice import Dice

    seats = dict(zip(bench_judge.SEATS, languages.split(","), strict=True))
    judge, keys = bench_judge.new_judge(Path(tempfile.mkdtemp(prefix="pbem-maplang-")), True, seats)
    rng = random.Random(1)
    whole: list[float] = []
    positions = []
    for n in range(steps):
        state = judge.state("b1")
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        orders = rules.bot_orders(state, d.seat, rng)
        positions.append((state, d.seat, orders))
        doc = {"game": "b1", "seat": d.seat, "key": keys[d.seat], "step": state.step, "orders": orders}
        cpu = time.process_time()
        status = judge.handle_message(bench_judge.mail(d.seat, doc, n))
        whole.append((time.process_time() - cpu) * 1000)
        assert status == "applied", status
    pack = judge.pack_for("b1")
    players = {s: s.title() for s in bench_judge.SEATS}
    maps: list[float] = []
    for state, seat, orders in positions:
        new, events = rules.apply(state, seat, orders, Dice(b"bench", state.step))
        cpu = time.process_time()
        build.seat_map_pngs(pack, new, events, title=f"b1 step {state.step}", seats=list(bench_judge.SEATS),
                            players=players, zoom={p.seat for p in rules.pending(new)}, languages=seats)
        maps.append((time.process_time() - cpu) * 1000)
    return {"whole": statistics.median(whole), "maps": statistics.median(maps), "n": len(whole)}


def run(tree: Path, languages: str, steps: int) -> dict[str, float]:
    """:func:`worker` in a process of its own (its caches cold, as a judge's after start)."""
    out = subprocess.run([sys.executable, str(HERE), "--worker", str(tree), "--languages", languages,
                          "--steps", str(steps)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--against", type=Path, help="another checkout to measure in the same rounds")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--languages", default=ENGLISH, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.languages, args.steps)))
        return
    trees = {"this": HERE.parents[1]}
    if args.against:
        trees["against"] = args.against.resolve()
    got: dict[tuple[str, str], list[dict[str, float]]] = {}
    for r in range(args.rounds):
        for name, tree in trees.items():
            for languages in (ENGLISH, MIXED):
                got.setdefault((name, languages), []).append(run(tree, languages, args.steps))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    base_tree = "against" if args.against else "this"
    base = {k: statistics.median(x[k] for x in got[(base_tree, ENGLISH)]) for k in ("whole", "maps")}
    print(f"{args.rounds} rounds of {args.steps} decisions; CPU ms per decision, median of the runs' medians; "
          f"ratio to {base_tree}'s all-English")
    print(f"| tree | seats | whole decision | ratio | maps alone | ratio |\n|---|---|---|---|---|---|")
    for (name, languages), runs in got.items():
        whole = statistics.median(x["whole"] for x in runs)
        maps = statistics.median(x["maps"] for x in runs)
        print(f"| {trees[name]} | {languages} | {whole:.1f} ms | {whole / base['whole']:.2f} | {maps:.1f} ms "
              f"| {maps / base['maps']:.2f} |")


if __name__ == "__main__":
    main()
