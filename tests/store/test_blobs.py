"""Attachment bodies are stored once for every outbox row that shares them, sent byte
for byte, and dropped once every row that uses them is sent (pbem.store.blobs)."""
from __future__ import annotations

import os
from pathlib import Path

from pbem.mail.compose import Attachment, compose
from pbem.store import Store
from pbem.store.blobs import join, split, token
from pbem.store.schema import MIGRATIONS


def _report(to: str, picture: bytes) -> bytes:
    return compose(sender="judge@pbem.localhost", sender_name="Judge", to_addr=to, to_name=None, subject="report",
                   text="the report\n", html='<p>the report <img src="cid:map@pbem.localhost"></p>',
                   attachments=[Attachment("map.png", picture, cid="map@pbem.localhost")],
                   message_id=f"<pbem.{to.split('@')[0]}@pbem.localhost>", kind="report").raw


def _queue(store: Store, raws: list[bytes]) -> list[int]:
    ids = []
    with store.transaction():
        for n, raw in enumerate(raws):
            ids.append(store.queue_mail(message_id=f"<m{n}@x>", game_id="g1", kind="report", to_addr=f"s{n}@x.example",
                                        subject="r", raw=raw))
    return ids


def test_four_reports_share_one_picture_and_are_sent_whole(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    picture = os.urandom(150_000)
    raws = [_report(f"{s}@pbem.localhost", picture) for s in ("north", "east", "south", "west")]
    _queue(store, raws)
    assert store.db.execute("SELECT count(*), sum(length(data)) FROM blobs").fetchone()[0] == 1
    stored = store.db.execute("SELECT sum(length(raw)) FROM outbox").fetchone()[0]
    assert stored < 4 * 1_000  # the rows hold their text only, compressed
    assert [r["raw"] for r in store.due_mail()] == raws
    assert store.outbox_row(1)["raw"] == raws[0]


def test_a_picture_is_dropped_once_every_row_using_it_is_sent(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    picture = os.urandom(50_000)
    raws = [_report("north@pbem.localhost", picture), _report("east@pbem.localhost", picture)]
    ids = _queue(store, raws)
    store.mark_sent(ids[0])
    assert store.db.execute("SELECT data IS NOT NULL FROM blobs").fetchone()[0] == 1  # east still waits
    assert store.due_mail()[0]["raw"] == raws[1]
    store.mark_sent(ids[1])
    assert store.db.execute("SELECT data IS NULL, size FROM blobs").fetchone()[0] == 1
    assert b"\x00pbem-blob:" in store.outbox_row(ids[1])["raw"]  # a sent row keeps the hash
    # the same picture needed again is stored again
    west = _report("west@pbem.localhost", picture)
    with store.transaction():
        again = store.queue_mail(message_id="<again@x>", game_id="g1", kind="report", to_addr="w@x.example",
                                 subject="r", raw=west)
    assert store.outbox_row(again)["raw"] == west


def test_split_finds_the_bodies_by_parsing_too_and_never_raises() -> None:
    raw = _report("north@pbem.localhost", os.urandom(20_000))
    skeleton, bodies = split(raw)
    assert len(bodies) == 1 and token(next(iter(bodies))) in skeleton and join(skeleton, bodies) == raw
    assert split(raw, []) == (raw, {})
    for junk in (b"", b"\xff\x00garbage", b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n"):
        skeleton, bodies = split(junk)
        assert join(skeleton, bodies) == junk
    assert join(token("ab" * 32), {}) == token("ab" * 32)  # an unknown body stays a token


def test_the_migration_splits_existing_rows(tmp_path: Path) -> None:
    class Old(Store):
        MIGRATIONS = MIGRATIONS[:2]

    path = tmp_path / "db.sqlite"
    old = Old(path)
    picture = os.urandom(40_000)
    raws = [_report("north@pbem.localhost", picture), _report("east@pbem.localhost", picture)]
    for n, raw in enumerate(raws):
        old.db["outbox"].insert({"message_id": f"<m{n}@x>", "kind": "report", "to_addr": "x@x.example", "raw": raw,
                                 "status": "sent" if n == 0 else "pending", "attempts": 0,
                                 "next_attempt_at": "2026-01-01T00:00:00+00:00", "created_at": "2026-01-01"})
    old.close()
    store = Store(path)
    assert store.db.execute("SELECT count(*) FROM blobs WHERE data IS NOT NULL").fetchone()[0] == 1
    assert store.outbox_row(2)["raw"] == raws[1] and store.due_mail()[0]["raw"] == raws[1]
    assert store.db.execute("SELECT max(length(raw)) FROM outbox").fetchone()[0] < 2_000
