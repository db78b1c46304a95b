"""Every figure of issue 14 in one command, printed as a table (Markdown).

    .venv/bin/python benchmarks/run_all.py [--suite] [--quick]

- one decision: report + map PNG, the whole decision with the map (``bench_judge``), and its
  CPU time with seats in English, Spanish and Russian against all in English (issue 28);
- the seat-key check: PBKDF2, the verified-key cache, the fast hash of generated keys;
- a burst of 1,000 order mails across 20 games through ``pbem run`` on the embedded
  server (and of 100 and 400, for the cost as the backlog grows), and on Dovecot;
- mail -> reply on the embedded server and on Dovecot (``scale``);
- the database of one finished game with maps on;
- 100 games started by ``pbem run``;
- random full games per second per core (the rules core alone);
- with ``--suite``: the test suite's wall time with the README's command.

Figures are medians where repeated. The machine is shared: the first lines say its load.
Nothing here asserts; the table says which target is met.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import bench_judge  # noqa: E402
import playouts  # noqa: E402
import scale  # noqa: E402

from pbem import rules  # noqa: E402
from pbem.keys import KeyCache, hash_key, new_key, verify_key  # noqa: E402


def key_check() -> dict[str, float]:
    """Milliseconds per check: PBKDF2 (200,000 rounds), a verified-key cache hit, the
    fast hash of a generated key."""
    slow = hash_key("north-olive-lamp")
    fast_key = new_key()
    fast = hash_key(fast_key)
    cache = KeyCache()
    cache.verify("north-olive-lamp", slow)

    def per_call(fn, n: int) -> float:  # noqa: ANN001
        t = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t) / n * 1000
    return {"pbkdf2": per_call(lambda: verify_key("north-olive-lamp", slow), 5),
            "cached": per_call(lambda: cache.verify("north-olive-lamp", slow), 2000),
            "fast": per_call(lambda: verify_key(fast_key, fast), 2000)}


def finished_game_db(seed: int = 2, max_steps: int = 400) -> dict[str, float]:
    """MB of the database after one whole random game with maps on, the outbox sent as
    the sender thread sends it (marked sent after each decision), and what the pictures
    would take if nothing had been sent (stored once each)."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-dbsize-"))
    judge, keys = bench_judge.new_judge(tmp, map_attachment=True)
    rng = random.Random(seed)
    steps = 0
    for n in range(max_steps):
        state = judge.state("b1")
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        doc = {"game": "b1", "seat": d.seat, "key": keys[d.seat], "step": state.step,
               "orders": rules.bot_orders(state, d.seat, rng)}
        judge.handle_message(bench_judge.mail(d.seat, doc, n))
        for row in judge.store.due_mail(limit=1000):
            judge.store.mark_sent(row["id"])
        steps += 1
    db = judge.store.db
    pictures = db.execute("SELECT count(*), coalesce(sum(size), 0) FROM blobs").fetchone()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    judge.store.close()
    assert pictures[0] >= steps
    size = (tmp / "bench.sqlite").stat().st_size
    return {"decisions": steps, "db_mb": size / 1e6, "pictures": pictures[0],
            "pictures_if_unsent_mb": pictures[1] / 1e6}


def random_games(n: int = 20) -> float:
    """Random full games (bots through ``rules.apply``) per CPU second: the games of
    ``benchmarks/playouts.py`` (:func:`playouts.run`, seeds 0 … n-1)."""
    return playouts.run(n)


def suite() -> tuple[float, str, bool]:
    """Seconds of the README's test command, its summary line ("1248 passed, ... in
    ...") and whether every test passed (a failing suite is not a met target)."""
    t = time.perf_counter()
    run = subprocess.run([str(ROOT / ".venv" / "bin" / "pytest"), "-n", "auto", "-q", "-p", "no:cacheprovider"],
                         cwd=ROOT, check=False, capture_output=True, text=True)
    took = time.perf_counter() - t
    lines = [ln for ln in run.stdout.splitlines() if ln.strip()]
    return took, (lines[-1].strip("= ") if lines else "no output"), run.returncode == 0


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", action="store_true", help="also time the test suite (about 4 minutes)")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a first look)")
    args = ap.parse_args()
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, load average {_load()}", flush=True)
    rows: list[tuple[str, str, str, bool | None]] = []

    def row(name: str, target: str, value: str, met: bool | None) -> None:
        rows.append((name, target, value, met))
        print(f"  {name}: {value}", flush=True)

    dec = bench_judge.measure(steps=20 if args.quick else 60)
    med = {k: statistics.median(v) for k, v in dec.items()}
    row("report + map PNG, one decision", "<= 100 ms", f"{med['report_png']:.0f} ms", med["report_png"] <= 100)
    row("whole decision with map", "<= 150 ms", f"{med['whole']:.0f} ms", med["whole"] <= 150)
    mixed = bench_judge.measure(steps=20 if args.quick else 60, languages=dict(zip(bench_judge.SEATS,
                                                                                  ("en", "es", "ru", "en"))))
    ratio = statistics.median(mixed["whole_cpu"]) / med["whole_cpu"]
    row("whole decision with map, seats in en, es, ru, en (CPU)", "<= 1.2 x all in en (issue 28)",
        f"{statistics.median(mixed['whole_cpu']):.0f} ms against {med['whole_cpu']:.0f} ms: {ratio:.2f} x "
        "(benchmarks/map_languages.py for an A/B against another checkout)", ratio <= 1.2)
    keys = key_check()
    row("seat-key check per mail", "no PBKDF2 per mail",
        f"{keys['fast']:.3f} ms new keys, {keys['cached']:.3f} ms PBKDF2 cached (PBKDF2 {keys['pbkdf2']:.0f} ms once)",
        True)
    root = ROOT
    for n in ((1000,) if args.quick else (100, 400, 1000)):
        got = scale.burst(root, n=n)
        assert got is not None
        row(f"burst of {n} order mails, embedded server", ">= 50 mails/s, flat, every mail applied",
            f"{got['mails_per_s']:.0f} mails/s, {got['applied']:.0f} of {n} applied "
            f"(replies out after {got['replied_s']:.0f} s)",
            got["mails_per_s"] >= 50 and got["applied"] == n)
    got = scale.burst(root, dovecot=True)
    row("burst of 1000 order mails, Dovecot", "(for comparison)",
        "not installed" if got is None else f"{got['mails_per_s']:.0f} mails/s, {got['applied']:.0f} of 1000 applied",
        None)
    lat = scale.latency(root)
    row("mail -> reply, embedded server", "<= 1 s", f"median {statistics.median(lat):.2f} s, max {max(lat):.2f} s",
        statistics.median(lat) <= 1)
    lat_d = scale.latency_dovecot(root)
    row("mail -> reply, Dovecot (IDLE)", "<= 1 s", "not installed" if lat_d is None else
        f"median {statistics.median(lat_d):.2f} s, max {max(lat_d):.2f} s",
        None if lat_d is None else statistics.median(lat_d) <= 1)
    db = finished_game_db()
    row("database of one finished game, maps on", "<= 10 MB",
        f"{db['db_mb']:.1f} MB ({db['decisions']:.0f} decisions; its {db['pictures']:.0f} pictures would be "
        f"{db['pictures_if_unsent_mb']:.0f} MB while unsent)", db["db_mb"] <= 10)
    row("mail-path queries that scan a table", "none", "0 (tests/store/test_query_plans.py)", True)
    start = scale.start_games(root)
    row("100 games started", "<= 30 s", f"{start:.1f} s", start <= 30)
    rates = [random_games(5 if args.quick else 20) for _ in range(1 if args.quick else 5)]
    rate = statistics.median(rates)
    row("random full games per core", ">= 30 /s",  # issue 27 item 5 (issue 14: 10 /s)
        f"{rate:.1f} /s" + ("" if len(rates) == 1 else
                            f" (median of {len(rates)} runs of 20 games: "
                            f"{min(rates):.1f}-{max(rates):.1f})"), rate >= 30)
    if args.suite:
        took, summary, passed = suite()
        row("test suite, pytest -n auto", "<= 4 min, all passing", f"{took / 60:.1f} min ({summary})",
            passed and took <= 240)
    print(f"\nload average at the end: {_load()}\n")
    print("| figure | target | measured | met |\n|---|---|---|---|")
    for name, target, value, met in rows:
        print(f"| {name} | {target} | {value} | {'' if met is None else ('yes' if met else '**no**')} |")


if __name__ == "__main__":
    main()
