"""Deadlines in the game's local time (issue 16; docs/pipeline.md, "Deadlines").

Pure: no I/O, no clock. Every due time the judge sets or moves comes from
:func:`due_time` (a new deadline), :func:`shift` then :func:`adjust` (one moved on by a
length: ``extend``, ``resume``) or :func:`adjust` (one moved out of an absence), so the
rules below hold for each:

1. **Length.** A length of ``d`` whole days and ``r`` seconds (``72h`` is 3 days) adds
   ``d`` calendar days in the game's time zone, keeping the local wall-clock time, then
   ``r`` seconds of elapsed time. Across a daylight-saving change the local time is
   kept and the UTC offset changes: 72 h from Saturday 28 March 2026 18:00 CET in
   Europe/Berlin is Tuesday 31 March 18:00 CEST (71 h of elapsed time).
2. **Allowed days.** When the local date of the due time is a weekday not in the
   game's ``allowed_days``, the due time moves to the next allowed day at the same
   local wall-clock time.
3. **Absences.** When the due time falls inside one of the seat's absences
   (``[start, end)``), it moves to the first instant at the same local wall-clock time
   at or after the end of the absence (for an absence of whole days, the day after its
   last day at the same time); rules 2 and 3 are applied until neither moves it.

A local time that does not exist (the hour skipped in spring) is read with ``fold=0``
and so shifts forward by the gap (02:30 on 29 March 2026 in Europe/Berlin becomes
03:30 CEST); a local time that exists twice (the hour repeated in autumn) is the
first of the two (``fold=0``, the summer-time one). All due times are returned as
aware UTC datetimes.
"""
from __future__ import annotations

import gettext

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pbem import i18n
from pbem.gamesettings import DAYS, GameSettings

Absence = tuple[datetime, datetime]
"""An absence as ``(start, end)``, aware datetimes, the end excluded."""


def local(naive: datetime, zone: ZoneInfo) -> datetime:
    """The aware UTC instant of the local wall-clock time ``naive`` in ``zone``
    (nonexistent times shift forward by the gap, ambiguous ones are the first; see
    the module docstring)."""
    return naive.replace(tzinfo=zone, fold=0).astimezone(UTC)


def _next_allowed(due: datetime, settings: GameSettings) -> datetime:
    zone = settings.zone
    here = due.astimezone(zone)
    allowed = {DAYS.index(d) for d in settings.allowed_days} or set(range(7))
    naive = here.replace(tzinfo=None)
    for _ in range(8):  # a week at most
        if naive.weekday() in allowed:
            break
        naive += timedelta(days=1)
    if naive == here.replace(tzinfo=None):
        return due
    return local(naive, zone)


def _after(due: datetime, end: datetime, zone: ZoneInfo) -> datetime:
    """The first instant at ``due``'s local wall-clock time at or after ``end``."""
    wall = due.astimezone(zone).time()
    day = end.astimezone(zone).date()
    for _ in range(3):
        cand = local(datetime.combine(day, wall), zone)
        if cand >= end:
            return cand
        day += timedelta(days=1)
    return end.astimezone(UTC)  # not reached: a day later is always past the end


def adjust(due: datetime, settings: GameSettings, absences: Sequence[Absence] = ()) -> datetime:
    """``due`` (aware) moved by rules 2 and 3 of the module docstring: off days the
    game does not allow and out of the seat's ``absences``. Returns an aware UTC
    datetime (``due`` itself, in UTC, when nothing applies). Source: issue 16."""
    due = due.astimezone(UTC)
    for _ in range(len(absences) + 8):
        moved = _next_allowed(due, settings)
        for start, end in absences:
            if start <= moved < end:
                moved = _after(moved, end, settings.zone)
        if moved == due:
            break
        due = moved
    return due


def shift(when: datetime, by: timedelta, settings: GameSettings) -> datetime:
    """``when`` (aware) moved on by ``by`` (not negative) as rule 1 of the module
    docstring reads a length: its whole days are calendar days in the game's time zone
    (the local wall-clock time is kept across a daylight-saving change), the rest is
    elapsed time. Returns an aware UTC datetime. Raises ValueError for a naive ``when``,
    OverflowError past the year 9999. Used wherever a deadline starts or moves on by a
    length (a host's ``extend: 24`` means the same local time a day later, not 24 hours
    of elapsed time; issue 25, third break-it pass)."""
    if when.tzinfo is None:
        raise ValueError("when must be an aware datetime")
    zone = settings.zone
    whole, rest = divmod(by.total_seconds(), 86400.0)
    here = when.astimezone(zone).replace(tzinfo=None)
    return local(here + timedelta(days=int(whole)), zone) + timedelta(seconds=rest)


def wall_span(start: datetime, end: datetime, zone: ZoneInfo) -> timedelta:
    """How long from ``start`` to ``end`` (aware) reads on the local wall clock of
    ``zone``: an hour less or more than the elapsed time when a daylight-saving change
    falls between them (Saturday 11:00 CET to Monday 11:00 CEST is two days, 47 hours
    elapsed). Never less than zero: a span inside the hour the clocks go back, which
    would read negative, is its elapsed time."""
    wall = end.astimezone(zone).replace(tzinfo=None) - start.astimezone(zone).replace(tzinfo=None)
    return wall if wall >= timedelta(0) else max(end - start, timedelta(0))


def due_time(start: datetime, seconds: float, settings: GameSettings,
             absences: Sequence[Absence] = ()) -> datetime:
    """The due time of a deadline started at ``start`` (aware) with a length of
    ``seconds`` (rule 1 of the module docstring, :func:`shift`), then
    :func:`adjust`-ed. Returns an aware UTC datetime. Raises ValueError for a naive
    ``start``. Source: issue 16."""
    if start.tzinfo is None:
        raise ValueError("start must be an aware datetime")
    return adjust(shift(start, timedelta(seconds=float(seconds)), settings), settings, absences)


def shown(when: datetime | str, settings: GameSettings, language: str = i18n.DEFAULT) -> str:
    """A due time as players read it: local time with the zone's abbreviation, and UTC
    when the zone is not UTC — ``2026-12-07 18:00 CET (17:00 UTC)``; ``when`` is aware
    or ISO 8601 text. In ``es`` or ``ru`` (issue 28) the date and time are CLDR's for
    that language (:func:`pbem.i18n.format_when`, Babel): ``lun, 7 dic 2026 18:00 CET
    (lun, 7 dic 2026 17:00 UTC)``."""
    if language not in (i18n.DEFAULT, i18n.PSEUDO):
        utc = (datetime.fromisoformat(when) if isinstance(when, str) else when).astimezone(UTC)
        text = i18n.format_when(utc, settings.time_zone, language)
        if utc.astimezone(settings.zone).utcoffset() != timedelta(0) or settings.time_zone not in ("UTC", "Etc/UTC"):
            text += f" ({i18n.format_when(utc, 'UTC', language)})"
        return text
    return _shown(when, settings, "%H:%M")


def _shown(when: datetime | str, settings: GameSettings, clock: str) -> str:
    """:func:`shown` with the time of day as ``clock`` (a strftime format)."""
    if isinstance(when, str):
        when = datetime.fromisoformat(when)
    utc = when.astimezone(UTC)
    here = utc.astimezone(settings.zone)
    text = f"{here:%Y-%m-%d} {here.strftime(clock)} {here.tzname()}"
    if here.utcoffset() != timedelta(0) or settings.time_zone not in ("UTC", "Etc/UTC"):
        text += (f" ({utc.strftime(clock)} UTC)" if here.date() == utc.date()
                 else f" ({utc:%Y-%m-%d} {utc.strftime(clock)} UTC)")
    return text


def shown_apart(now_due: datetime | str, was: datetime | str, settings: GameSettings,
                language: str = i18n.DEFAULT) -> tuple[str, str]:
    """A moved due time and the one before it, as :func:`shown` (in ``language``), to
    the second when they would read the same to the minute (a pause of seconds moved it:
    "now due 20:33 (was 20:33)" told a player nothing; issue 24's second hand-played
    game)."""
    new, old = shown(now_due, settings, language), shown(was, settings, language)
    if new != old:
        return new, old
    return _shown(now_due, settings, "%H:%M:%S"), _shown(was, settings, "%H:%M:%S")


def duration_text(seconds: float, tr: gettext.NullTranslations | None = None) -> str:
    """A duration as players read it, exact to the second it is logged in (issue 24,
    finding 10: a pause of 40 s read "0 h 00 min"): ``40 s``, ``12 h``, ``1 h 05 min``,
    ``3 d 2 h 00 min 30 s``; parts that are zero are left out but for the minutes
    between hours and seconds. Whole seconds (the fraction is dropped); ``0 s`` for
    nothing. The units in the language of ``tr`` (None: English; a Russian notice said
    "на 1 d", issue 28, try28d)."""
    _ = i18n.gettext_of(tr)
    left = max(0, int(seconds))
    days, left = divmod(left, 86400)
    hours, left = divmod(left, 3600)
    minutes, secs = divmod(left, 60)
    parts = [_("%(d)s d") % {"d": days}] if days else []
    if hours:
        parts.append(_("%(h)s h") % {"h": hours})
    if minutes or (hours and secs):
        parts.append(_("%(min)s min") % {"min": f"{minutes:02d}" if hours else minutes})
    if secs or not parts:
        parts.append(_("%(s)s s") % {"s": secs})
    return " ".join(parts)


def day_span(first: date, last: date, zone: ZoneInfo) -> Absence:
    """The absence of the whole local days ``first`` to ``last`` (inclusive) in
    ``zone``: from ``first`` 00:00 to the day after ``last`` 00:00, aware UTC."""
    return (local(datetime.combine(first, time()), zone),
            local(datetime.combine(last + timedelta(days=1), time()), zone))


def days_touched(start: datetime, end: datetime, zone: ZoneInfo) -> int:
    """How many local dates in ``zone`` the span ``[start, end)`` touches (at least 1
    when ``end > start``; 0 otherwise)."""
    if end <= start:
        return 0
    first = start.astimezone(zone).date()
    last = (end - timedelta(microseconds=1)).astimezone(zone).date()
    return (last - first).days + 1
