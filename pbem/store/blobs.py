"""Content-addressed attachments of outgoing mail (``blobs``, ``outbox_blobs``), issue 14.

Every report of a decision carries the same map picture; kept in each outbox row it was
98.8 % of the database (132 MB a game). An outbox row now keeps its message with each
attachment body (the base64 text of a non-text MIME part, 1 KB or more) replaced by a
token naming the body's SHA-256; the body is stored once in ``blobs``, and the row's
bodies are listed in ``outbox_blobs``. Reading a row puts the bodies back, byte for
byte (:func:`join`), so what is sent is exactly what was composed.

Once every outbox row that uses a body is sent, the body's bytes are dropped (its hash
and size stay, and the token stays in the sent rows): a picture is derived data, drawn
again from the log by ``pbem archive`` at any time, and keeping ~100 distinct pictures
of ~230 KB would still be 23 MB a game. A later row that needs the same body stores it
again.

What stays of a message (headers, text and HTML bodies, ~15 KB a report) is stored
zlib-compressed (:func:`pack`; 5.1 MB of a 67-decision game's outbox became 0.9 MB).

The MIME parts are found with the stdlib ``email`` parser and compression is
:mod:`zlib`'s; only locating each part's encoded text in the raw bytes (one
``bytes.find``) is our own.
"""
from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from email import policy
from email.parser import BytesParser

from pbem.store.base import Connection, utcnow

#: smallest attachment body worth storing apart (bytes of encoded text)
MIN_BLOB = 1024
TOKEN = re.compile(rb"\x00pbem-blob:([0-9a-f]{64})\x00")
#: starts a stored message that is compressed (no RFC 5322 message starts with NUL)
ZLIB = b"\x00pbem-zlib\x00"


def pack(skeleton: bytes) -> bytes:
    """``skeleton`` as stored: zlib-compressed (RFC 1950) behind :data:`ZLIB`."""
    return ZLIB + zlib.compress(skeleton, 6)


def unpack(stored: bytes) -> bytes:
    """What :func:`pack` stored (a row stored before, uncompressed, as it is).
    Raises zlib.error for a damaged row."""
    return zlib.decompress(stored[len(ZLIB):]) if stored.startswith(ZLIB) else stored


def token(digest: str) -> bytes:
    """The token that stands for the body of SHA-256 ``digest`` in a stored message."""
    return b"\x00pbem-blob:" + digest.encode() + b"\x00"


def split(raw: bytes, bodies: Sequence[bytes] | None = None) -> tuple[bytes, dict[str, bytes]]:
    """``raw`` with each attachment body (at least :data:`MIN_BLOB` bytes) replaced by
    its :func:`token`, and the bodies by SHA-256 hex. ``bodies``: the encoded bodies as
    they appear in ``raw`` (:attr:`pbem.mail.compose.Outgoing.bodies`); without them
    the base64 bodies of the non-text parts are found by parsing ``raw`` (5 ms for a
    report). A message the parser cannot read, or a body not found verbatim, stays
    whole (nothing is lost, only not shared). Never raises."""
    if bodies is None:
        try:
            msg = BytesParser(policy=policy.compat32).parsebytes(raw)
            parts = [p for p in msg.walk() if not p.is_multipart() and p.get_content_maintype() != "text"
                     and str(p.get("Content-Transfer-Encoding", "")).lower() == "base64"]
            bodies = [p.get_payload().encode("ascii") for p in parts]
        except Exception:  # noqa: BLE001 - our own mail; never worth failing the queue for
            return raw, {}
    skeleton, found = raw, {}
    for body in bodies:
        body = body.rstrip(b"\r\n")
        if len(body) < MIN_BLOB or b"\x00" in body:
            continue
        at = skeleton.find(body)
        if at < 0:
            continue
        digest = hashlib.sha256(body).hexdigest()
        found[digest] = body
        skeleton = skeleton[:at] + token(digest) + skeleton[at + len(body):]
    return skeleton, found


def join(skeleton: bytes, bodies: Mapping[str, bytes | None]) -> bytes:
    """Put the ``bodies`` (SHA-256 hex -> bytes) back in place of their tokens; a token
    whose body is unknown or dropped (None) stays as it is."""
    def back(m: re.Match[bytes]) -> bytes:
        body = bodies.get(m.group(1).decode())
        return body if body is not None else m.group(0)
    return TOKEN.sub(back, skeleton)


class BlobsTable(Connection):
    """Attachment bodies shared by outbox rows (mixed into :class:`pbem.store.Store`)."""

    def store_blobs(self, outbox_id: int, bodies: Mapping[str, bytes], at: str | None = None) -> None:
        """Record that outbox row ``outbox_id`` uses ``bodies`` (SHA-256 hex -> bytes),
        storing each body unless it is stored already (again when it was dropped)."""
        for digest, body in bodies.items():
            self.db.execute(
                "INSERT INTO blobs (sha256, data, size, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(sha256) DO UPDATE SET data = excluded.data WHERE blobs.data IS NULL",
                [digest, body, len(body), at or utcnow()])
            self.db.execute("INSERT OR IGNORE INTO outbox_blobs (outbox_id, sha256) VALUES (?, ?)",
                            [outbox_id, digest])

    def blob_bodies(self, skeleton: bytes) -> dict[str, bytes | None]:
        """The stored bodies of the tokens in ``skeleton`` (None for a dropped one)."""
        digests = sorted({m.decode() for m in TOKEN.findall(skeleton)})
        if not digests:
            return {}
        marks = ",".join("?" * len(digests))
        return dict(self.db.execute(f"SELECT sha256, data FROM blobs WHERE sha256 IN ({marks})", digests).fetchall())

    def with_bodies(self, rows: Iterable[dict]) -> list[dict]:
        """Outbox ``rows`` with their ``raw`` whole again (:func:`unpack`, :func:`join`)."""
        out = []
        for row in rows:
            raw = row.get("raw")
            if isinstance(raw, bytes):
                raw = unpack(raw)
                if b"\x00pbem-blob:" in raw:
                    raw = join(raw, self.blob_bodies(raw))
                row = {**row, "raw": raw}
            out.append(row)
        return out

    def drop_sent_blobs(self, outbox_id: int) -> int:
        """Drop the bytes of the bodies row ``outbox_id`` uses that no unsent row uses
        any more; returns how many were dropped."""
        rows = self.db.execute(
            "SELECT ob.sha256 FROM outbox_blobs ob WHERE ob.outbox_id = ? AND NOT EXISTS ("
            " SELECT 1 FROM outbox_blobs other JOIN outbox o ON o.id = other.outbox_id"
            " WHERE other.sha256 = ob.sha256 AND o.status != 'sent')", [outbox_id]).fetchall()
        for (digest,) in rows:
            self.db.execute("UPDATE blobs SET data = NULL, dropped_at = ? WHERE sha256 = ? AND data IS NOT NULL",
                            [utcnow(), digest])
        return len(rows)
