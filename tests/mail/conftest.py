"""Shared helpers for the mail tests: build raw messages byte by byte."""

from __future__ import annotations

from collections.abc import Mapping

import yaml

from .clients import ORDERS

#: The document :data:`ORDERS` must parse to.
EXPECTED = yaml.safe_load(ORDERS)


def raw_mail(body: str | bytes, *, content_type: str = "text/plain; charset=utf-8",
             cte: str = "8bit", headers: Mapping[str, str] | None = None,
             subject: str = "Re: [alexandria-1] your move (step 7)",
             sender: str = "Kleitos <north@players.example>",
             message_id: str | None = "<kind-test@players.example>") -> bytes:
    """A single-part message with exactly the given body bytes (CRLF line ends)."""
    lines = [f"From: {sender}", "To: judge@pbem.example", f"Subject: {subject}",
             "Date: Fri, 20 Nov 2026 09:30:00 +0000"]
    if message_id is not None:
        lines.append(f"Message-ID: {message_id}")
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if content_type:
        lines += ["MIME-Version: 1.0", f"Content-Type: {content_type}",
                  f"Content-Transfer-Encoding: {cte}"]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")  # RFC 6532 raw UTF-8
    if isinstance(body, str):
        body = body.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")
    return head + body
