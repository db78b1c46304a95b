"""Hostile mail through the whole `pbem run` loop (issue 17): hypothesis writes mails
with 8-bit and control characters in headers, encoded CR/LF in display names, NULs,
colliding Message-IDs, bogus encodings, deeply nested or unterminated multiparts, and
mails above the size limit; they are dropped into the judge's maildir (pymap serves
them over IMAP on 127.0.0.1) while one real `pbem run` process polls. After every batch:
the process still runs, and no mail is lost — each is stored in the inbox (its raw
bytes, or its head when too large) and moved out of the INBOX to Processed or
Quarantine. The number of examples is bounded."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbem.store import Store
from tests.conftest import ACCOUNTS, KEYS
from tests.mailservers import start_pymap
from tests.service.helpers import drop, folder, pbem_run, stop, wait_until, write_config

LIMIT = 300_000
_ids = itertools.count(1)

NASTY = [b"=?utf-8?q?G:=0D=0Anorth@pbem.localhost?= <attacker@evil.test>", b"north@pbem.localhost",
         "Kléitos <north@pbem.localhost>".encode(), b"nor\x00th@pbem.localhost", b"<>", b"", b"\x00\x01\x02",
         b"=?utf-8?b?AAAA?=", b'"a\r\n b" <east@pbem.localhost>', b"a@b, c@d, north@pbem.localhost",
         b"=?x-unknown?q?abc?=", b"\xff\xfe\xfd", b"<\xc3\xa9@pbem.localhost>", b"<same-id@fuzz.test>",
         b"auto-replied", b"multipart/mixed; boundary=\"b\"", b"base64", b"quoted-printable", b"x" * 2000,
         b"mx.pbem.localhost; dmarc=fail header.from=pbem.localhost"]
NAMES = [b"From", b"To", b"Subject", b"Message-ID", b"In-Reply-To", b"References", b"Content-Type",
         b"Content-Transfer-Encoding", b"Auto-Submitted", b"Authentication-Results", b"MIME-Version",
         b"Sender", b"Reply-To", b"X-Pbem-Loop", b"Date"]

values = st.one_of(st.sampled_from(NASTY), st.binary(max_size=60),
                   st.text(max_size=60).map(lambda t: t.encode("utf-8", "surrogatepass")))
headers = st.lists(st.tuples(st.one_of(st.sampled_from(NAMES), st.binary(min_size=1, max_size=12)), values),
                   max_size=12)


def _orders(seat: str, good_key: bool) -> bytes:
    key = KEYS[seat] if good_key else "guess"
    return (f"game: g1\nseat: {seat}\nkey: {key}\nstep: 0\norders:\n  movement: mercenary\n").encode()


@st.composite
def bodies(draw) -> bytes:  # noqa: ANN001
    kind = draw(st.sampled_from(["text", "binary", "orders", "nested", "huge"]))
    if kind == "text":
        return draw(st.text(max_size=400)).encode("utf-8", "surrogatepass")
    if kind == "binary":
        return draw(st.binary(max_size=400))
    if kind == "orders":
        return _orders(draw(st.sampled_from(["north", "east", "south", "west"])), draw(st.booleans()))
    if kind == "huge":
        return b"filler\r\n" * (LIMIT // 6 + draw(st.integers(1, 5000)))
    depth = draw(st.integers(1, 40))
    parts = [b"Content-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n--b%d\r\n" % (i, i) for i in range(depth)]
    tail = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth))) if draw(st.booleans()) else b""
    return b"".join(parts) + b"Content-Type: text/plain\r\n\r\n" + _orders("north", False) + tail


@st.composite
def hostile_mails(draw) -> bytes:  # noqa: ANN001
    head = b"".join(name + b": " + value + b"\r\n" for name, value in draw(headers))
    sep = draw(st.sampled_from([b"\r\n", b"\n", b"\r\n"]))
    return head + sep + draw(bodies())


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    server = start_pymap(tmp / "pymap", ACCOUNTS)
    path, config = write_config(tmp, server, max_message_bytes=LIMIT)
    proc = pbem_run(path)
    log = path.with_suffix(".log")
    assert wait_until(lambda: log.exists() and b"polling" in log.read_bytes(), 60), log.read_bytes()
    store = Store(config.database)
    yield proc, server, store, log
    stop(proc)
    server.stop()


def _nested(depth: int, closed: bool) -> bytes:
    parts = b"".join(b"Content-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n--b%d\r\n" % (i, i) for i in range(depth))
    tail = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth))) if closed else b""
    return parts + b"Content-Type: text/plain\r\n\r\n" + _orders("north", True) + tail


#: one of each kind the issue names, always run besides the random examples
KNOWN = [
    "From: Kléitos <north@pbem.localhost>\r\nMessage-ID: <é@pbem.localhost>\r\nSubject: ordres\r\n\r\n".encode()
    + _orders("north", True),
    b"From: =?utf-8?q?G:=0D=0Anorth@pbem.localhost?= <attacker@evil.test>\r\nSubject: x\r\n\r\n" + _orders("north", True),
    b"From: nor\x00th@pbem.localhost\r\nSubject: a\x00b\x1b[31m\r\nMessage-ID: <same-id@fuzz.test>\r\n\r\nhello\r\n",
    b"From: north@pbem.localhost\r\nMessage-ID: <same-id@fuzz.test>\r\n\r\n" + _orders("north", False),
    b"From: east@pbem.localhost\r\nSubject: big\r\n\r\n" + b"filler\r\n" * (LIMIT // 4),
    b"From: west@pbem.localhost\r\nMIME-Version: 1.0\r\n" + _nested(60, closed=True),
    b"From: south@pbem.localhost\r\nMIME-Version: 1.0\r\n" + _nested(25, closed=False),
    b"From: north@pbem.localhost\r\nContent-Transfer-Encoding: base64\r\nContent-Type: text/plain; charset=x-bogus"
    b"\r\n\r\n!!!not base64!!!\r\n",
    b"\r\n\r\n",
    b"From: " + b"x" * 5000 + b"\r\nSubject: " + "é".encode() * 3000 + b"\r\n\r\nx\r\n",
]


@example(batch=KNOWN[:4])
@example(batch=KNOWN[4:7])
@example(batch=KNOWN[7:])
@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(batch=st.lists(hostile_mails(), min_size=1, max_size=3))
def test_hostile_mail_never_stops_the_loop_nor_gets_lost(running, batch) -> None:
    proc, server, store, log = running
    marks = []
    for raw in batch:
        mark = b"X-Fuzz-Id: %d" % next(_ids)
        marks.append((mark, raw))
        drop(server, mark + b"\r\n" + raw)
    assert wait_until(lambda: folder(server, "INBOX") == [] or proc.poll() is not None, 90)
    assert proc.poll() is None, log.read_bytes()[-3000:]
    assert folder(server, "INBOX") == [], "a mail was left in the INBOX"
    on_server = folder(server, "Processed") + folder(server, "Quarantine")
    assert len(on_server) == store.db.execute("SELECT count(*) FROM inbox").fetchone()[0]
    for mark, sent in marks:
        rows = store.db.execute("SELECT status, raw, size FROM inbox WHERE instr(raw, ?) > 0", [mark]).fetchall()
        assert len(rows) == 1, (mark, [r[0] for r in rows])
        status, kept, kept_size = rows[0]
        served = [m for m in on_server if m.startswith(mark + b"\r\n") or m.startswith(mark + b"\n")]
        assert len(served) == 1, "the mail is kept on the server, out of the INBOX"
        if status == "too_large":
            assert kept_size > LIMIT and served[0].startswith(kept), "its head is kept"
        else:
            assert kept == served[0], "its raw bytes, as the server gave them, are kept whole"
