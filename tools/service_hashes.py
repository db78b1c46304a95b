"""Record or check what the service writes for a fixed set of seeded games (issue 17).

Used around the split of ``pbem/service.py`` into ``pbem/service/``: every game is played
through ``Judge.handle_message`` and ``Judge.tick`` only (the public API of the service,
the same before and after), with a fixed game seed, a fixed clock, fixed seat keys and
fixed Message-IDs, so two runs of the same code give the same bytes (the outbox's
random MIME boundaries blanked in each decompressed row). Per game it prints
the event log's hash chain head (the ``hash`` of the last ``events`` row), the number of
events, a SHA-256 of the log's content without its hashes (seq, kind, data, seat,
public, step, inbox id: equal across hash-chain versions), and SHA-256 digests of the outbox (Message-ID, recipient, kind, raw bytes of
every row, uncompressed, MIME boundaries blanked) and of the inbox (status, reason, game, seat, step,
result of every row), and the number of inbox rows of each status.

The games mix accepted orders, rejected mail (wrong key, stale step, a stranger, no
orders), a history request, standing orders and a deadline default.

    .venv/bin/python tools/service_hashes.py            # print one JSON line per game
    .venv/bin/python tools/service_hashes.py --check F  # compare with a file printed before

Recorded: ``service_hashes_a532caf.jsonl`` (main before issue 17; the split of the
service, 3fd91bc, gives exactly these), ``service_hashes_9f095d3.jsonl`` (main after the
rules restructure), ``service_hashes_svc.jsonl`` (branch svc: the same ``log`` as
9f095d3, other chain heads — hash version 2 — and the answers issue 17 added),
``service_hashes_trust.jsonl`` (branch trust, issue 15: other dice on purpose — they
derive from the orders documents — so other logs, heads and mail).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem import rules  # noqa: E402
from pbem.config import parse_config  # noqa: E402
from pbem.keys import hash_key  # noqa: E402
from pbem.service import Judge  # noqa: E402
from pbem.store import Store  # noqa: E402
from pbem.store.blobs import unpack  # noqa: E402

SEATS = ("north", "east", "south", "west")
KEYS = {s: f"{s}-fixed-key" for s in SEATS}
SALT = b"0123456789abcdef"
#: MIME boundaries are random (email.generator); everything else is fixed. They are
#: blanked in the stored message decompressed (:func:`pbem.store.blobs.unpack`): since the
#: outbox stores its rows zlib-compressed (issue 14) the blanking found nothing in the
#: compressed bytes and the outbox digest changed from one run of the same code to the next.
_BOUNDARY = re.compile(rb"===============\d+==")
GAMES = [(1, {}), (2, {"ask_windows": True}), (3, {"ask_windows": True}), (4, {})]


def _mail(sender: str, body: str, n: int) -> bytes:
    return (f"From: {sender}\r\nTo: judge@pbem.localhost\r\nSubject: orders {n}\r\n"
            f"Message-ID: <fixed-{n}@players.test>\r\nDate: Mon, 01 Jan 2029 00:00:00 +0000\r\n\r\n"
            f"{body}").encode()


def play(tmp: Path, seed: int, options: dict, decisions: int) -> dict:
    """Play one game; return its digests."""
    gid = f"h{seed}"
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / f"{gid}.sqlite"),
        "map_attachment": False, "deadlines": {"player_turn": "2h", "reaction": "1h", "reminder": "30m"},
        "games": [{"id": gid, "host_email": "host@pbem.localhost", "options": options, "seats": [
            {"seat": s, "player": s.title(), "email": f"{s}@pbem.localhost",
             "key_hash": hash_key(KEYS[s], iterations=1000, salt=SALT)} for s in SEATS]}]}, base=tmp)
    now = [datetime(2029, 1, 1, tzinfo=UTC)]
    judge = Judge(config, Store(config.database), clock=lambda: now[0],
                  new_seed=lambda: hashlib.sha256(f"seed-{seed}".encode()).digest())
    judge.ensure_games()
    rng = random.Random(seed)
    n = 0
    for i in range(decisions):
        state = judge.state(gid)
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        orders = rules.bot_orders(state, d.seat, rng)
        doc = {"game": gid, "seat": d.seat, "key": KEYS[d.seat], "step": state.step, "orders": orders}
        addr = f"{d.seat}@pbem.localhost"
        if i % 5 == 1:  # a wrong key first, then a stale step
            n += 1
            judge.handle_message(_mail(addr, yaml.safe_dump({**doc, "key": "guess"}), n))
            n += 1
            judge.handle_message(_mail(addr, yaml.safe_dump({**doc, "step": state.step - 1}), n))
        if i % 7 == 2:  # a stranger with the right key (held) and one with no orders
            n += 1
            judge.handle_message(_mail("stranger@else.test", yaml.safe_dump(doc), n))
            n += 1
            judge.handle_message(_mail("stranger@else.test", "hello, can I play?", n))
        if i % 6 == 3:  # a history request from another seat
            other = next(s for s in SEATS if s != d.seat)
            n += 1
            judge.handle_message(_mail(f"{other}@pbem.localhost", yaml.safe_dump(
                {"game": gid, "seat": other, "key": KEYS[other], "history": max(state.step - 1, 0)}), n))
        if i == 4:  # the deadline passes: the default applies
            now[0] += timedelta(minutes=40)
            judge.tick()
            now[0] += timedelta(hours=3)
            judge.tick()
            continue
        n += 1
        judge.handle_message(_mail(addr, yaml.safe_dump(doc, sort_keys=False), n))
        now[0] += timedelta(minutes=1)
    db = judge.store.db
    events = db.execute("SELECT hash FROM events WHERE game_id = ? ORDER BY seq", [gid]).fetchall()
    log = hashlib.sha256()  # the log's content without its hashes: the same across hash schemes
    for r in db.execute("SELECT seq, kind, data, seat, public, step, inbox_id FROM events WHERE game_id = ? "
                        "ORDER BY seq", [gid]):
        log.update(json.dumps(list(r)).encode())
    out = hashlib.sha256()
    for r in db.execute("SELECT message_id, to_addr, kind, raw FROM outbox ORDER BY id"):
        out.update(json.dumps(r[:3]).encode() + _BOUNDARY.sub(b"=BOUNDARY=", unpack(r[3])))
    inbox = hashlib.sha256()
    for r in db.execute("SELECT status, reason, game_id, seat, step, result FROM inbox ORDER BY id"):
        inbox.update(json.dumps(list(r)).encode())
    return {"game": gid, "options": options, "events": len(events), "head": events[-1][0], "log": log.hexdigest(),
            "outbox_rows": db.execute("SELECT count(*) FROM outbox").fetchone()[0],
            "outbox": out.hexdigest(), "inbox_rows": db.execute("SELECT count(*) FROM inbox").fetchone()[0],
            "statuses": dict(db.execute("SELECT status, count(*) FROM inbox GROUP BY status ORDER BY status")),
            "inbox": inbox.hexdigest()}


def main() -> int:
    """Print the digests, or compare them with ``--check FILE``; exit 1 on a difference."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", type=Path)
    ap.add_argument("--decisions", type=int, default=40)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [play(Path(tmp), seed, options, args.decisions) for seed, options in GAMES]
    if args.check is None:
        for r in rows:
            print(json.dumps(r, sort_keys=True))
        return 0
    old = [json.loads(line) for line in args.check.read_text().splitlines() if line.strip()]
    bad = 0
    for a, b in zip(old, rows, strict=True):
        for k in sorted(set(a) & set(b)):
            if a[k] != b[k]:
                print(f"{a['game']}: {k} differs: {a[k]} -> {b[k]}")
                bad += 1
    print("same" if not bad else f"{bad} difference(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
