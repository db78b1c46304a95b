"""What the commands of any address share: the keys they take, the check of unknown
keys, and the answer (rate-limited like every answer to a stranger)."""
from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence
from typing import Any

from pbem import i18n
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import wrapped
from pbem.service.base.text import re_subject
from pbem.service.outgoing import answers, ratelimit

OPEN_KEYS = ("game", "command", "seat", "key", "step", "seq")
"""The keys a command of any address may carry besides its own (``seat``, ``key``,
``step`` and ``seq`` of a block copied from a seat's mail are read as nothing)."""


def unknown_keys(doc: Mapping[str, Any], name: str, own: Sequence[str]) -> list[Problem]:
    """An ``envelope.unknown_key`` problem for each key of ``doc`` that ``command: name``
    does not take (``own``: its own keys)."""
    allowed = [k for k in OPEN_KEYS if k not in ("seat", "key", "step", "seq")] + list(own)
    return [Problem(message=f"Unknown key `{k}` in `command: {name}`; it takes: {', '.join(allowed)}.",
                    where=str(k), code="envelope.unknown_key", hint="Leave the line out (docs/player-guide.md).")
            for k in doc if k not in OPEN_KEYS and k not in own]


def answer(judge: Service, parsed: ParsedMail, iid: int, game_id: str | None, title: str, body: str,
           preformatted: bool = False, tr: gettext.NullTranslations | None = None) -> None:
    """Queue ``body`` (wrapped to 72 columns unless ``preformatted``) to the sender of
    ``parsed``, threaded under it, as the limits on answers allow
    (:func:`pbem.service.outgoing.ratelimit.deliver`); the signature in the language of
    ``tr`` (None: English; issue 28), ``title`` and ``body`` already in it."""
    text = body if preformatted else build.render_notice(wrapped(body), game_id, tr)
    ratelimit.deliver(judge, parsed, iid, game_id=game_id, language=i18n.language_of(tr) if tr else None,
                      subject=re_subject(parsed.subject) if parsed.subject else f"[{game_id or 'judge'}] {title}",
                      text=text, html_title=title, id_parts=(game_id or "judge", "open", *answers.answer_key(parsed)))
