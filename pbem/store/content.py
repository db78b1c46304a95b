"""The content hash of a message: what makes two fetched messages "the same mail" for
the inbox's unique key (Message-ID, content hash), issue 17 finding 7.

The hash is SHA-256 over the message with the trace header fields that receiving
servers add or rewrite removed (``Received``, ``Return-Path``, ``Delivered-To``,
``Authentication-Results``, ARC and spam-filter fields; RFC 5321 4.4, RFC 8601, RFC
8617) and line ends normalised to LF, so the same mail fetched twice (after a crash, a
UIDVALIDITY change, from a copy on another server) keeps its hash, while a different
mail that reuses a known Message-ID gets another one and is handled as a new message.

Hand-written rather than the stdlib ``email`` parser: it must be byte-exact, never
raise, and cost one pass over the bytes even for a hostile or huge header block; the
header grammar needed here is small (a field is a line not starting with white space,
plus its continuation lines, up to the first empty line; RFC 5322 2.2).
"""
from __future__ import annotations

import hashlib
import re

TRACE_FIELDS = frozenset({
    b"received", b"return-path", b"delivered-to", b"x-original-to", b"authentication-results",
    b"arc-seal", b"arc-message-signature", b"arc-authentication-results", b"received-spf",
    b"x-received", b"x-envelope-from", b"x-envelope-to",
})
_FIELD_NAME = re.compile(rb"^([!-9;-~]+)[ \t]*:")


def content_hash(raw: bytes) -> str:
    """SHA-256 hex of ``raw`` without its trace header fields, line ends as LF."""
    text = raw.replace(b"\r\n", b"\n")
    head, sep, body = text.partition(b"\n\n")
    kept: list[bytes] = []
    dropping = False
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t"):
            if not dropping:
                kept.append(line)
            continue
        m = _FIELD_NAME.match(line)
        name = m.group(1).lower() if m else b""
        dropping = name in TRACE_FIELDS or name.startswith(b"x-spam-")
        if not dropping:
            kept.append(line)
    return hashlib.sha256(b"\n".join(kept) + sep + body).hexdigest()
