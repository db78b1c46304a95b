"""The small text helpers every answer uses (the key masked, ``Re:`` subjects, safe
text); the problems themselves are :class:`pbem.problems.Problem`."""
from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from pbem.mail.headers import SYNTHETIC_DOMAIN, clean_text

_KEY_LINE = re.compile(r"(?m)^(\s*(?:key|host|confirm)\s*:\s*).*$")
"""A line holding a secret: the seat key, the host key (break16: it was echoed back in a
refused host command) or an address-change code."""


def now_utc() -> datetime:
    """The current time, UTC, whole seconds."""
    return datetime.now(UTC).replace(microsecond=0)


def mask_key(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document with the seat key hidden (what we store and echo)."""
    return {k: ("(hidden)" if k == "key" else v) for k, v in doc.items()}


def mask_key_lines(text: str) -> str:
    """``text`` (an orders block as written) with every ``key:``, ``host:`` and
    ``confirm:`` line's value hidden."""
    return _KEY_LINE.sub(r"\1(hidden)", text)


def re_subject(subject: str) -> str:
    """The subject of an answer: ``Re: <subject>`` unless it starts with ``Re:``."""
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def safe_text(text: str, limit: int = 500) -> str:
    """``text`` fit for a log line, a stored field or a host notice: lone surrogates
    (undecodable bytes) shown as ``\\udcNN``, then control characters out and white
    space collapsed (:func:`pbem.mail.headers.clean_text`), at most ``limit`` characters."""
    return clean_text(str(text).encode("utf-8", "backslashreplace").decode("utf-8"), limit)


def synthetic_message_id(raw: bytes) -> str:
    """A Message-ID for a mail whose own cannot be read: ``<sha256-…@pbem.invalid>``, as
    :func:`pbem.mail.message.parse_mail` makes it."""
    return f"<sha256-{hashlib.sha256(raw).hexdigest()[:40]}@{SYNTHETIC_DOMAIN}>"
