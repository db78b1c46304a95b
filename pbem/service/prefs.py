"""A seat's mail preferences (issue 16): ``command: preferences`` sets them, the mail
path honours them.

- ``map: on | off`` — the map picture in turn reports (also off when the config's
  ``map_attachment`` is off);
- ``format: html | plain`` — every mail to the seat in that game with an HTML part, or
  text only (the map, if on, then comes as an ordinary attachment);
- ``digest: daily | off`` — turn reports are held and sent once a day as one mail, at
  :data:`DIGEST_HOUR`:00 in the game's time zone (``settings.time_zone``, UTC by
  default). Prompts, reminders, receipts, press and notices are never held: only turn
  reports wait.

The preferences live in the game's log only: each change is a ``PreferencesSet``
event seen by the seat alone, carrying the seat's whole preferences; the latest one
is what holds (:func:`of`), so the replay and the live behaviour cannot differ.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from pbem.mail.headers import fold_address
from pbem.plural import count
from pbem.report import build
from pbem.store import Store

if TYPE_CHECKING:
    from pbem.service.judge import Judge

log = logging.getLogger(__name__)

DEFAULTS: Mapping[str, str] = {"map": "on", "format": "html", "digest": "off"}
"""Each preference's value when the seat never set it."""
CHOICES: Mapping[str, tuple[str, ...]] = {"map": ("on", "off"), "format": ("html", "plain"),
                                          "digest": ("daily", "off")}
"""The values each preference takes."""
DIGEST_HOUR = 8
"""The local hour (game time zone) at which a day's digest goes."""


def of(store: Store, game_id: str, seat: str) -> dict[str, str]:
    """The seat's preferences ``{"map", "format", "digest"}``: the latest
    ``PreferencesSet`` of the seat over :data:`DEFAULTS`."""
    data = store.latest_seat_event(game_id, "PreferencesSet", seat)
    return {**DEFAULTS, **(data["prefs"] if data else {})}


def of_address(store: Store, game_id: str | None, address: str) -> dict[str, str]:
    """The preferences of the seat of ``game_id`` registered at ``address`` (the
    defaults for an address that is no seat's, or no game)."""
    if not game_id:
        return dict(DEFAULTS)
    seat = store.seat_at(game_id, fold_address(address))
    return of(store, game_id, seat) if seat else dict(DEFAULTS)


def _cutoff(judge: Judge, game_id: str, now: datetime) -> datetime:
    """The latest digest time (:data:`DIGEST_HOUR` in the game's zone) at or before ``now``."""
    from pbem.service.table import settings_of

    zone = settings_of(judge, game_id).zone
    local = now.astimezone(zone)
    at = datetime.combine(local.date(), time(DIGEST_HOUR), tzinfo=zone)
    return at if at <= local else at - timedelta(days=1)


def send_digests(judge: Judge) -> int:
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
            from pbem.service import intake

            if intake.is_transient(exc):
                raise intake.RetryLater("digests", exc) from exc
            log.exception("the digest of %s %s failed; it is tried again next cycle", game_id, seat)
    return sent


def flush_digest(judge: Judge, game_id: str, seat: str) -> int:
    """Send every report held for the seat now, in one mail (the seat turned its
    digest off); 1 when a mail was queued, else 0."""
    due = [r for r in judge.store.held_digests() if r["game_id"] == game_id and r["seat"] == seat]
    return _digest(judge, game_id, seat, due, judge.clock()) if due else 0


def _digest(judge: Judge, game_id: str, seat: str, due: list[dict[str, Any]], cutoff: datetime) -> int:
    """Queue one seat's digest of ``due`` and mark them sent; 1 when a mail was queued."""
    from pbem.service import outbox
    from pbem.service.table import wrapped

    store = judge.store
    row = next((r for r in store.seats(game_id) if r["seat"] == seat), None)
    with store.transaction():
        store.mark_digest_sent([r["id"] for r in due], judge.clock().isoformat())
        if row is None:
            return 0
        day = cutoff.date().isoformat()
        parts = [f"{r['subject']}\n{'=' * min(72, len(r['subject']))}\n\n{r['text']}" for r in due]
        text = build.render_notice(wrapped(
            f"Your daily digest for seat {seat} of {game_id} ({day}): {count(len(due), 'report')}, oldest first. "
            "Prompts come at once, in their own mails; `command: preferences` with `digest: off` ends "
            "the digest.") + "\n\n" + "\n\n".join(parts), game_id)
        subject = f"[{game_id}] daily digest {day}: {count(len(due), 'report')}"
        outbox.queue(judge, game_id=game_id, kind="report", to_addr=row["email"], to_name=row["player"],
                     subject=subject, text=text, html=build.html_of_text(subject, text),
                     id_parts=(game_id, "digest", seat, due[0]["id"]))
    return 1
