"""Webhooks: "your move" and deadline notices where players already are (issue 29,
item 5).

A seat sets ``webhook: https://…`` (or ``off``) by ``command: preferences``
(:mod:`pbem.service.outgoing.seat_preferences`). Whenever a prompt or a deadline
reminder is queued for that seat, :func:`queue_notice` queues a webhook as an outbox
row of kind ``webhook``: ``to_addr`` is the URL, the stored body the JSON document::

    {"game": "g1", "step": 3, "seat": "east", "waiting": "player_turn",
     "deadline": "2026-12-04T12:00:00+00:00", "content": "...", "text": "..."}

``content`` (Discord-style) and ``text`` (Slack-style) carry the same one line. Nothing
secret is in it: no hand, no key, no standing order.

A host sets one too, by the host command ``webhook`` (``url:``; kept by the host's
address, :meth:`pbem.store.Store.set_host_webhook`): every host notice mailed to that
address — a person must act, a fault, civil disorder, a sign-up — is posted there as
well (:func:`queue_host_notice`, :func:`host_body`: its subject line, never its body).

The outbox's thread sends mail first, then the due webhook rows (:func:`send_due`): a
POST with :mod:`urllib.request` (timeout :data:`TIMEOUT` s); a 2xx answer is sent, any
other answer or a connection failure a failed attempt, retried with the mail's backoff
(:func:`pbem.mail.smtp.backoff_delay`) up to :data:`pbem.mail.smtp.MAX_ATTEMPTS`; a 4xx
but 408/429 gives up at once (retrying cannot help). A row that gives up is reported
to the host as undelivered mail is. Webhooks never hold mail up: they wait for the mail
of the pass, and a webhook that fails has no effect on any mail row.
"""
from __future__ import annotations

import gettext
import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from pbem import i18n
from pbem.mail.smtp import MAX_ATTEMPTS, backoff_delay
from pbem.service.base.context import Service
from pbem.service.outgoing import outbox, seat_preferences
from pbem.store import Store

log = logging.getLogger(__name__)

KIND = "webhook"
"""The outbox kind of a webhook row."""
TIMEOUT = 10.0
"""Seconds one POST may take."""
PASS_BUDGET = 20.0
"""Seconds the webhooks of one outbox pass may take in all (after its mail): a chat
server that stalls delays the next pass by at most this much; the rest wait."""
MAX_URL = 2000
"""The longest webhook URL taken, in characters."""


def url_problem(url: str, tr: gettext.NullTranslations | None = None) -> str | None:
    """Why ``url`` cannot be a webhook (a sentence in the language of ``tr``, English
    by default; the host's or the seat's language where it is answered, issue 28), or
    None: it must be an absolute ``http``/``https`` URL (RFC 3986) with a host, no user
    info, no spaces or control characters, at most :data:`MAX_URL` characters."""
    _ = (tr or i18n.translations()).gettext
    if len(url) > MAX_URL:
        return _("the URL is longer than %(most)s characters") % {"most": MAX_URL}
    if any(ord(c) <= 32 or ord(c) == 127 for c in url):
        return _("the URL holds spaces or control characters")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises for a port that is no number
    except ValueError as exc:
        return _("the URL cannot be read (%(error)s)") % {"error": exc}
    if parts.scheme.lower() not in ("http", "https"):
        return _("only http:// and https:// URLs are taken")
    if not parts.hostname:
        return _("the URL names no host")
    if parts.username or parts.password:
        return _("the URL may not hold a user name or password")
    return None


def body(game_id: str, step: int, seat: str, waiting: str, deadline: str | None,
         tr: gettext.NullTranslations | None = None) -> dict[str, Any]:
    """The JSON document of a notice (see the module docstring). ``deadline``: ISO 8601
    UTC, or None when the decision has no deadline; ``tr``: the seat's language for the
    one line (English by default); the keys and values stay as they are."""
    _ = (tr or i18n.translations()).gettext
    names = {"game": game_id, "step": step, "seat": seat, "waiting": waiting, "deadline": deadline}
    line = (_("[%(game)s] step %(step)s: seat %(seat)s, your move (%(waiting)s), due %(deadline)s.") if deadline
            else _("[%(game)s] step %(step)s: seat %(seat)s, your move (%(waiting)s).")) % names
    return {"game": game_id, "step": step, "seat": seat, "waiting": waiting, "deadline": deadline,
            "content": line, "text": line}


def _utc(deadline: datetime | str | None) -> str | None:
    """``deadline`` as ISO 8601 UTC to the second (None stays None)."""
    if not deadline:
        return None
    try:
        when = deadline if isinstance(deadline, datetime) else datetime.fromisoformat(deadline)
    except ValueError:
        return str(deadline)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def queue_notice(judge: Service, game_id: str, step: int, seat: str, waiting: str,
                 deadline: datetime | str | None, why: str) -> bool:
    """Queue a webhook row for the seat's notice (a prompt or reminder: ``why``) when the
    seat set a webhook; once per (game, step, seat, why, deadline). True when queued.
    Call inside the transaction that queues the mail."""
    url = seat_preferences.webhook(judge.store, game_id, seat)
    if not url:
        return False
    due = _utc(deadline)
    doc = body(game_id, step, seat, waiting, due, seat_preferences.translations(judge.store, game_id, seat))
    message_id = outbox.stable_message_id(judge.domain, game_id, step, KIND, why, seat, url, due)
    if judge.store.has_mail(message_id):
        return False
    raw = json.dumps(doc, ensure_ascii=False, sort_keys=True).encode("utf-8")
    judge.store.queue_mail(message_id=message_id, game_id=game_id, kind=KIND, to_addr=url, subject=doc["text"],
                           raw=raw, at=judge.clock().isoformat(), bodies=[])
    return True


def host_body(game_id: str | None, notice: str, line: str) -> dict[str, Any]:
    """The JSON document of a host notice posted to the host's webhook (issue 29's
    trial, finding 4): the seat's keys (``game``, ``step`` and ``seat`` None,
    ``waiting`` ``host``, ``deadline`` None) plus ``notice`` (what the notice is about:
    ``bounce``, ``civil disorder``, ``substitute asks``, ``sign-up``, a judge fault's
    title) and ``content``/``text``, the one line of the mail's subject. Never the
    notice's body: it may name players' addresses, and a chat channel is not a mailbox."""
    return {"game": game_id, "step": None, "seat": None, "waiting": "host", "deadline": None, "notice": notice,
            "content": line, "text": line}


def queue_host_notice(judge: Service, address: str | None, game_id: str | None, notice: str, line: str,
                      id_parts: Sequence[object]) -> bool:
    """Queue a webhook row for a host notice mailed to ``address`` when that host set a
    webhook (the host command ``webhook``; :func:`host_body`); once per ``id_parts``
    (those of the mail). True when queued. Call inside the transaction that queues the
    mail."""
    url = judge.store.host_webhook(address)
    if not url:
        return False
    message_id = outbox.stable_message_id(judge.domain, "host-webhook", *id_parts, url)
    if judge.store.has_mail(message_id):
        return False
    raw = json.dumps(host_body(game_id, notice, line), ensure_ascii=False, sort_keys=True).encode("utf-8")
    judge.store.queue_mail(message_id=message_id, game_id=game_id, kind=KIND, to_addr=url, subject=line, raw=raw,
                           at=judge.clock().isoformat(), bodies=[])
    return True


def post(url: str, raw: bytes, timeout: float = TIMEOUT) -> None:
    """POST ``raw`` (JSON) to ``url``; returns on a 2xx answer. Raises
    urllib.error.HTTPError for another answer, OSError (URLError) when the server cannot
    be reached."""
    req = urllib.request.Request(url, data=raw, method="POST", headers={
        "Content-Type": "application/json; charset=utf-8", "User-Agent": "pbem-judge"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - http(s) only (url_problem)
        if not 200 <= resp.status < 300:
            raise urllib.error.HTTPError(url, resp.status, resp.reason, resp.headers, None)


def _permanent(exc: BaseException) -> bool:
    return isinstance(exc, urllib.error.HTTPError) and 400 <= exc.code < 500 and exc.code not in (408, 429)


def send_due(store: Store, now: datetime, budget: float = PASS_BUDGET, timeout: float = TIMEOUT) -> tuple[int, list[int]]:
    """POST the due webhook rows (oldest first) within ``budget`` seconds; returns (sent,
    ids of the rows that gave up). Never raises for a delivery problem (it is recorded
    on the row); raises what the store raises."""
    end = time.monotonic() + budget
    sent, gave_up = 0, []
    for row in store.due_webhooks(now.replace(microsecond=0).isoformat()):
        left = end - time.monotonic()
        if left <= 0:
            break
        try:
            problem = url_problem(row["to_addr"])
            if problem:
                raise ValueError(problem)
            post(row["to_addr"], row["raw"], min(timeout, max(left, 1.0)))
        except Exception as exc:  # noqa: BLE001 - one row never stops the others
            attempts = row["attempts"] + 1
            nxt = None if attempts >= MAX_ATTEMPTS or _permanent(exc) or isinstance(exc, ValueError) else (
                now + timedelta(seconds=backoff_delay(attempts))).replace(microsecond=0).isoformat()
            store.mark_attempt_failed(row["id"], f"{type(exc).__name__}: {exc}"[:500], nxt)
            if nxt is None:
                gave_up.append(row["id"])
            log.warning("webhook outbox %d failed (attempt %d%s): %s: %s", row["id"], attempts,
                        ", giving up" if nxt is None else "", type(exc).__name__, exc)
        else:
            store.mark_sent(row["id"])
            sent += 1
    return sent, gave_up


def shown(url: str) -> str:
    """The URL as a host notice shows it: scheme and host only (a chat webhook's path is
    its secret token)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}/…"


def recipient(store: Store, row: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> str:
    """``the webhook of seat east of g1 (https://host/…)`` for a host notice (``the
    webhook https://host/…`` for the host's own), in the language of ``tr`` (English by
    default; the host's in a notice, issue 28)."""
    seat = None
    if row.get("game_id"):
        for s in store.seats(row["game_id"]):
            if seat_preferences.webhook(store, row["game_id"], s["seat"]) == row["to_addr"]:
                seat = s["seat"]
                break
    where = shown(row["to_addr"])
    _ = (tr or i18n.translations()).gettext
    return (_("the webhook of seat %(seat)s of %(game)s (%(url)s)") % {"seat": seat, "game": row["game_id"],
                                                                        "url": where}
            if seat else _("the webhook %(url)s") % {"url": where})
