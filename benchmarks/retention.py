"""What a finished game costs the live database, before and after retention (issue 30,
item 7). Measured, never asserted.

    .venv/bin/python benchmarks/retention.py [--decisions 60] [--map]

A config game is played ``--decisions`` orders mails through ``Judge.handle_message``
(random legal orders; maps on with ``--map``, as a real judge mails them), every mail
marked sent as the outbox pass would (which drops the sent pictures' bytes), then
abandoned by the host. Sizes are of ``VACUUM INTO`` copies (what the data takes, not
the free pages SQLite keeps for reuse):

- ``live, running``: the live database while the game runs (just before the end), less
  the empty database;
- ``live, finished``: with the game over, before retention;
- ``live, after the move``: what the finished game leaves in the live database once it
  moved (its inbox rows without bytes and a ``moved_games`` row);
- ``archive, moved`` / ``archive, pruned``: the game in the archive database before and
  after its raw mail and sent bodies are pruned;
- the time the move (copy, verify, delete) and the prune took.
"""
from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem import rules  # noqa: E402
from pbem.config import parse_config  # noqa: E402
from pbem.service import Judge  # noqa: E402
from pbem.service.retention import run as run_retention  # noqa: E402
from pbem.service.log.trust import abandon  # noqa: E402
from pbem.store import Store  # noqa: E402
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, player_mail  # noqa: E402


def _size(path: Path) -> int:
    """Bytes the database's data takes (a VACUUM INTO copy)."""
    out = path.with_suffix(".vacuum")
    out.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    try:
        conn.execute("VACUUM INTO ?", [str(out)])
    finally:
        conn.close()
    size = out.stat().st_size
    out.unlink()
    return size


def _drain(store: Store) -> None:
    for row in store.db.execute("SELECT id FROM outbox WHERE status = 'pending'").fetchall():
        store.mark_sent(row[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=60)
    ap.add_argument("--map", action="store_true", help="Maps in the reports (as mailed by default).")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(base / "pbem.sqlite"),
               "map_attachment": args.map,
               "games": [{"id": "g1", "host_email": "host@pbem.localhost",
                          "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                     "key_hash": HASHES[s]} for s in SEATS]}]}
        empty = Store(base / "empty.sqlite")
        empty.close()
        blank = _size(base / "empty.sqlite")
        judge = Judge(parse_config(raw, base=base), Store(base / "pbem.sqlite"))
        judge.ensure_games()
        rng = random.Random(7)
        played = 0
        for _ in range(args.decisions):
            state = judge.state("g1")
            pending = rules.pending(state)
            if not pending:
                break
            seat = pending[0].seat
            doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
                   "orders": rules.bot_orders(state, seat, rng)}
            if judge.handle_message(player_mail(seat, doc)) == "applied":
                played += 1
            _drain(judge.store)
        live = base / "pbem.sqlite"
        running = _size(live) - blank
        if judge.store.game("g1")["status"] == "active":  # a long run may end by the rules
            abandon(judge, "g1", "benchmark")
        _drain(judge.store)
        finished = _size(live) - blank
        later = datetime.now(UTC) + timedelta(days=400)
        t0 = time.perf_counter()
        moved = run_retention(judge.store, judge.config, datetime.now(UTC) + timedelta(days=31))
        move_s = time.perf_counter() - t0
        assert moved.moved == ["g1"], moved
        after = _size(live) - blank
        archive = base / "pbem.archive.sqlite"
        arch_moved = _size(archive) - blank
        t0 = time.perf_counter()
        pruned = run_retention(judge.store, judge.config, later)
        prune_s = time.perf_counter() - t0
        assert list(pruned.pruned) == ["g1"], pruned
        arch_pruned = _size(archive) - blank
        figures = {"decisions": played, "map": args.map, "live_running_bytes": running,
                   "live_finished_bytes": finished, "live_after_move_bytes": after,
                   "archive_moved_bytes": arch_moved, "archive_pruned_bytes": arch_pruned,
                   "move_seconds": round(move_s, 2), "prune_seconds": round(prune_s, 2)}
        print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
