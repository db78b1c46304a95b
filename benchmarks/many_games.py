"""How far one judge goes (issue 30, item 6): the cost of one order mail, one decision and
one deadline pass with 10 running games in the database and with 10,000, start-up time,
database size and memory. Measured, never asserted.

    .venv/bin/python benchmarks/many_games.py [--games 10 10000] [--repeat 15]

For each size a fresh database gets one *probe* game made by the judge itself
(:func:`pbem.service.play.setup.new_game`, played a few decisions in) and the other games
as copies of a second real game, row by row in SQL under new game ids and new seat
addresses (every table that has a ``game_id`` column; unique Message-IDs suffixed). The
copies are running games for every query the judge makes (open deadlines, seats by
address, outbox and inbox rows); only their hash chains name the template's id, which no
figure here reads. Creating 10,000 games through the judge would take most of an hour and
measure the same tables.

Then, on the probe game, through ``Judge.handle_message`` (parse, envelope, key, rules,
events, snapshot, receipts, reports — everything but the network; maps off, as for the
figures of issue 14's judge benchmark):

- ``order mail``: a standing-orders mail (a valid key, a rising ``seq``): checked,
  logged, a receipt queued; no decision;
- ``decision``: the orders of the seat the probe waits for, which resolve a decision and
  queue four reports and the next prompt;
- ``deadline pass``: ``Judge.tick()`` (every open deadline of every game looked at);
- ``start``: a new process opening the store and building the judge (``make_judge``),
  then one deadline pass — what ``pbem run`` does before its first poll;
- ``database``: the file's size (after a WAL checkpoint), per running game;
- ``memory``: the peak RSS of that new process after it handled one decision.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem import rules  # noqa: E402
from pbem.config import parse_config  # noqa: E402
from pbem.service import Judge  # noqa: E402
from pbem.service.play.setup import NewSeat, new_game  # noqa: E402
from pbem.store import Store  # noqa: E402

SEATS = ("north", "east", "south", "west")
STANDING = {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}


def config_of(tmp: Path) -> dict:
    """The judge's config: no config game (every game is a database game, as `pbem game
    new` makes them), maps off, no reply limit in the way."""
    return {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / "many.sqlite"),
            "map_attachment": False, "seat_reply_rate_per_hour": 1_000_000}


def mail(sender: str, doc: dict, mid: str) -> bytes:
    """An orders mail from ``sender`` with ``doc`` as its YAML body."""
    return (f"From: {sender}\r\nTo: judge@pbem.localhost\r\nSubject: orders\r\nMessage-ID: <{mid}@players.test>\r\n"
            f"\r\n{yaml.safe_dump(doc, sort_keys=False)}").encode()


def make_game(judge: Judge, game_id: str, tag: str) -> dict[str, str]:
    """A game made by the judge; returns the seat keys."""
    made = new_game(judge, game_id, [NewSeat(s, s.title(), f"{s}.{tag}@pbem.localhost") for s in SEATS],
                    host_email=f"host.{tag}@pbem.localhost")
    return dict(made.keys)


def play(judge: Judge, game_id: str, keys: dict[str, str], tag: str, decisions: int, rng: random.Random,
         n0: int = 0) -> list[float]:
    """``decisions`` decisions of ``game_id`` by mail; returns ms per decision."""
    out = []
    for n in range(decisions):
        state = judge.state(game_id)
        seat = rules.pending(state)[0].seat
        doc = {"game": game_id, "seat": seat, "key": keys[seat], "step": state.step,
               "orders": rules.bot_orders(state, seat, rng)}
        t = time.perf_counter()
        status = judge.handle_message(mail(f"{seat}.{tag}@pbem.localhost", doc, f"{game_id}-d{n0 + n}"))
        out.append((time.perf_counter() - t) * 1000)
        assert status == "applied", status
    return out


def clone(db: Path, template: str, count: int) -> None:
    """``count`` copies of ``template``'s rows in every table with a ``game_id`` column,
    as games ``c00001``…, each with its own seat addresses and Message-IDs."""
    conn = sqlite3.connect(db)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    plans = []
    for t in tables:
        cols = conn.execute(f"PRAGMA table_info({t})").fetchall()
        names = [c[1] for c in cols]
        if "game_id" not in names and t != "games":
            continue
        key = "id" if t == "games" else "game_id"
        auto = [c[1] for c in cols if c[5] == 1 and c[2].upper() == "INTEGER" and sum(x[5] > 0 for x in cols) == 1]
        keep = [n for n in names if n not in auto]
        exprs = []
        for n in keep:
            if n == key:
                exprs.append(":new")
            elif n in ("email", "to_addr", "sender", "host_email", "address"):
                exprs.append(f"replace({n}, '@pbem.localhost', '.' || :new || '@pbem.localhost')")
            elif n == "message_id":
                exprs.append(f"{n} || '.' || :new")
            else:
                exprs.append(n)
        plans.append(f"INSERT INTO {t} ({', '.join(keep)}) SELECT {', '.join(exprs)} FROM {t} WHERE {key} = :old")
    with conn:
        for i in range(1, count + 1):
            for sql in plans:
                conn.execute(sql, {"new": f"c{i:05d}", "old": template})
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def child(tmp: str, probe: str, keys: str) -> None:
    """In a new process: start-up (open the store, build the judge, one deadline pass),
    then one decision; prints JSON with the start time and the peak RSS."""
    import resource

    from pbem.service.loop import make_judge
    t = time.perf_counter()
    config = parse_config(config_of(Path(tmp)), base=Path(tmp))
    judge, poller = make_judge(config)
    judge.tick()
    start = time.perf_counter() - t
    play(judge, probe, json.loads(keys), "probe", 1, random.Random(9), n0=900)
    poller.close()
    print(json.dumps({"start_s": start, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def measure(games: int, repeat: int) -> dict[str, float]:
    """Every figure for a database of ``games`` running games."""
    tmp = Path(tempfile.mkdtemp(prefix=f"many{games}-"))
    raw = config_of(tmp)
    judge = Judge(parse_config(raw, base=tmp), Store(raw["database"]))
    rng = random.Random(1)
    keys = make_game(judge, "probe", "probe")
    template_keys = make_game(judge, "template", "template")
    play(judge, "template", template_keys, "template", 3, rng)
    play(judge, "probe", keys, "probe", 3, rng)
    judge.store.close()
    t = time.perf_counter()
    clone(Path(raw["database"]), "template", games - 2)
    cloned = time.perf_counter() - t
    judge = Judge(parse_config(raw, base=tmp), Store(raw["database"]))
    running = len(judge.store.games())
    order_ms, tick_ms = [], []
    seat = rules.pending(judge.state("probe"))[0].seat
    for n in range(repeat):
        doc = {"game": "probe", "seat": seat, "key": keys[seat], "step": judge.state("probe").step, "seq": n + 1,
               "orders": STANDING}
        t = time.perf_counter()
        status = judge.handle_message(mail(f"{seat}.probe@pbem.localhost", doc, f"probe-s{n}"))
        order_ms.append((time.perf_counter() - t) * 1000)
        assert status == "applied", status
        t = time.perf_counter()
        judge.tick()
        tick_ms.append((time.perf_counter() - t) * 1000)
    decision_ms = play(judge, "probe", keys, "probe", repeat, rng, n0=100)
    judge.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    judge.store.close()
    size = Path(raw["database"]).stat().st_size
    proc = subprocess.run([sys.executable, __file__, "--child", str(tmp), "probe", json.dumps(keys)],
                          capture_output=True, text=True, check=True)
    kid = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"games": running, "order_ms": statistics.median(order_ms), "decision_ms": statistics.median(decision_ms),
            "tick_ms": statistics.median(tick_ms), "start_s": kid["start_s"], "rss_mb": kid["rss_mb"],
            "db_mb": size / 1e6, "kb_per_game": size / 1e3 / running, "clone_s": cloned}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[10, 10_000])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    rows = [measure(n, args.repeat) for n in args.games]
    base = rows[0]
    print("| running games | order mail | decision | deadline pass | start | peak RSS | database | per game |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        ratio = "" if r is base else (f" ({r['order_ms'] / base['order_ms']:.2f}×, {r['decision_ms'] / base['decision_ms']:.2f}×,"
                                      f" {r['tick_ms'] / base['tick_ms']:.2f}×)")
        print(f"| {r['games']:,} | {r['order_ms']:.1f} ms | {r['decision_ms']:.1f} ms | {r['tick_ms']:.1f} ms | "
              f"{r['start_s']:.2f} s | {r['rss_mb']:.0f} MB | {r['db_mb']:.1f} MB | {r['kb_per_game']:.0f} kB |{ratio}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
