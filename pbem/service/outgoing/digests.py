"""The daily digest a seat can choose instead of one mail per report (issue 16,
``preferences: digest: daily``; :mod:`pbem.service.outgoing.seat_preferences`)."""
from __future__ import annotations

import logging
from datetime import datetime, time, timedelta
from typing import Any

from pbem import i18n
from pbem.report import build
from pbem.service.base.context import RetryLater, Service, is_transient
from pbem.service.base.settings import settings_of, wrapped
from pbem.service.outgoing import outbox, seat_preferences
from pbem.service.outgoing.seat_preferences import DIGEST_HOUR

log = logging.getLogger(__name__)


def _cutoff(judge: Service, game_id: str, now: datetime) -> datetime:
    """The latest digest time (:data:`DIGEST_HOUR` in the game's zone) at or before ``now``."""
    zone = settings_of(judge, game_id).zone
    local = now.astimezone(zone)
    at = datetime.combine(local.date(), time(DIGEST_HOUR), tzinfo=zone)
    return at if at <= local else at - timedelta(days=1)


def send_digests(judge: Service) -> int:
    """Send each seat's held reports that were held before the latest digest time as
    one mail (one a day: reports held after it wait for the next). Returns how many
    digests were queued. Call from the loop (``Judge.tick``)."""
    store = judge.store
    now = judge.clock()
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in store.held_digests():
        groups.setdefault((row["game_id"], row["seat"]), []).append(row)
    sent = 0
    for (game_id, seat), rows in groups.items():
        cutoff = _cutoff(judge, game_id, now)
        due = [r for r in rows if datetime.fromisoformat(r["created_at"]) < cutoff]
        if not due:
            continue
        try:
            sent += _digest(judge, game_id, seat, due, cutoff)
        except Exception as exc:
            if is_transient(exc):
                raise RetryLater("digests", exc) from exc
            log.exception("the digest of %s %s failed; it is tried again next cycle", game_id, seat)
    return sent


def flush_digest(judge: Service, game_id: str, seat: str) -> int:
    """Send every report held for the seat now, in one mail (the seat turned its
    digest off); 1 when a mail was queued, else 0."""
    due = [r for r in judge.store.held_digests() if r["game_id"] == game_id and r["seat"] == seat]
    return _digest(judge, game_id, seat, due, judge.clock()) if due else 0


def _digest(judge: Service, game_id: str, seat: str, due: list[dict[str, Any]], cutoff: datetime) -> int:
    """Queue one seat's digest of ``due`` and mark them sent; 1 when a mail was queued."""
    store = judge.store
    row = next((r for r in store.seats(game_id) if r["seat"] == seat), None)
    with store.transaction():
        store.mark_digest_sent([r["id"] for r in due], judge.clock().isoformat())
        if row is None:
            return 0
        day = cutoff.date().isoformat()
        tr = seat_preferences.translations(store, game_id, seat)  # the seat's language (issue 28)
        reports = tr.ngettext("%(num)d report", "%(num)d reports", len(due)) % {"num": len(due)}
        parts = [f"{r['subject']}\n{'=' * min(72, len(r['subject']))}\n\n{r['text']}" for r in due]
        text = build.render_notice(wrapped(tr.gettext(
            "Your daily digest for seat %(seat)s of %(game)s (%(day)s): %(reports)s, oldest first. Prompts come at "
            "once, in their own mails; `command: preferences` with `digest: off` ends the digest.") % {
            "seat": seat, "game": game_id, "day": day, "reports": reports}) + "\n\n" + "\n\n".join(parts),
            game_id, tr)
        subject = f"[{game_id}] " + tr.gettext("daily digest %(day)s: %(reports)s") % {"day": day, "reports": reports}
        outbox.queue(judge, game_id=game_id, kind="report", to_addr=row["email"], to_name=row["player"],
                     subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                     id_parts=(game_id, "digest", seat, due[0]["id"]))
    return 1
