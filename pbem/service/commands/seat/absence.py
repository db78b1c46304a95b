"""``command: absence``: a player declares days away (issue 16)::

    command: absence
    from: 2026-12-10        # a date, or a date-time, in the game's local time
    to: 2026-12-14          # inclusive days (a date-time: the absence ends then)

    command: absence
    cancel: true            # the absences not over yet: those not begun are dropped,
                            # one under way ends now

Each deadline of the seat that falls inside the absence — open ones now and those
started later — moves to the first instant after the absence at the same local time
(:mod:`pbem.service.base.calendar`), each a ``DeadlineMoved`` event (why ``absence``). The
absence is logged as ``AbsenceDeclared`` (public: the other seats see why the game
waits). The days declared per seat and game (local dates touched, cancelled days not
begun given back unless the absence moved or holds a deadline of the seat) are bounded by the game's ``absence_limit_days``. Refused: an absence
that is over or begins before today, one overlapping an absence already declared
(cancel it first, then declare the whole span: absences are not merged), and one that
needs more days than remain. Deadlines already moved stay where they are when an
absence is cancelled.
"""
from __future__ import annotations

import gettext
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pbem import i18n, rules
from pbem.problems import Problem
from pbem.service.base import calendar
from pbem.service.base.context import Service
from pbem.service.base.settings import settings_of
from pbem.service.commands.registry import Field, Guide, Limit, SeatCommand
from pbem.service.commands.reply import CommandError, Reply
from pbem.service.identity import envelope
from pbem.service.log import trust
from pbem.service.outgoing import seat_preferences
from pbem.service.play import deadlines

HORIZON = timedelta(days=2 * 366)
"""How far ahead an absence may end (break16: a date near 9999-12-31 overflowed)."""
_HOW = "Write the days as `from: 2026-12-10` and `to: 2026-12-14` (in the game's local time, both days included)."


def _when(value: Any, zone: ZoneInfo, end: bool) -> datetime | None:
    """A ``from:``/``to:`` value as an aware instant: a date is local midnight (the
    day after for ``to``), a date-time without offset is local. None when unreadable."""
    try:  # a date at the calendar's ends (0001-01-01, 9999-12-31) overflows in UTC: unreadable (break16)
        if isinstance(value, str):
            text = value.strip()
            value = date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
        if isinstance(value, datetime):
            return value.astimezone(zone) if value.tzinfo else calendar.local(value, zone).astimezone(zone)
        if isinstance(value, date):
            day = value + timedelta(days=1) if end else value
            return calendar.local(datetime.combine(day, time()), zone).astimezone(zone)
    except (ValueError, OverflowError):
        return None
    return None


def _until(end: datetime, settings: Any, tr: gettext.NullTranslations | None = None) -> str:
    """The end of an absence as the player wrote it: ``the end of 2026-12-14`` for a
    whole day (the instant is the next local midnight), else the local time; in the
    language of ``tr`` (None: English)."""
    language = i18n.language_of(tr) if tr is not None else i18n.DEFAULT
    here = end.astimezone(settings.zone)
    if here.time() == time():
        _ = i18n.gettext_of(tr)
        return _("the end of %(day)s (%(when)s)") % {
            "day": (here - timedelta(days=1)).date(), "when": calendar.shown(end, settings, language)}
    return calendar.shown(end, settings, language)


def _problem(code: str, message: str, hint: str, **params: Any) -> CommandError:
    return CommandError([Problem(code=code, message=message, where="command", hint=hint, params=params or None)])


def absence(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Declare (or cancel) the seat's absence and move its deadlines out of it (see the
    module docstring). Raises CommandError naming every problem and what to write."""
    settings = settings_of(judge, game_id)
    zone = settings.zone
    now = judge.clock()
    tr = seat_preferences.translations(judge.store, game_id, seat)  # the seat's language (issue 28)
    _, ngettext, language = tr.gettext, tr.ngettext, i18n.language_of(tr)
    _recs, away = deadlines.table(judge, game_id)
    mine = away.get(seat, [])
    limit = settings.absence_limit_days
    cancel = doc.get("cancel", False)
    word = cancel.strip().lower() if isinstance(cancel, str) else None
    if not isinstance(cancel, bool) and word not in ("true", "yes", "false", "no"):  # issue 25.7: `cancel: 1`
        raise _problem("command.value", f"`cancel` must be true or false; found {envelope.shown_value(cancel)}.",
                       "Write `cancel: true` to cancel your absences, or leave the line out to declare one.",
                       why="flag", key="cancel", found=envelope.shown_value(cancel))
    if cancel is True or word in ("true", "yes"):
        return _cancel(judge, game_id, seat, mine, now, limit)
    start, end = _when(doc.get("from"), zone, False), _when(doc.get("to"), zone, True)
    problems = []
    for key, got in (("from", start), ("to", end)):
        if got is None:
            problems.append(Problem(code="command.absence_dates", where=key, hint=_HOW,
                                    message=f"{key}: {doc.get(key)!r} is not a date or date-time."))
    if problems:
        raise CommandError(problems)
    assert start is not None and end is not None
    if end <= start:
        raise _problem("command.absence_dates", f"The absence ends ({end:%Y-%m-%d %H:%M}) before it begins "
                       f"({start:%Y-%m-%d %H:%M}).", _HOW)
    if end - now > HORIZON:
        raise _problem("command.absence_dates", f"The absence ends {end:%Y-%m-%d}, more than "
                       f"{HORIZON.days} days from now.", "Declare an absence when it comes closer.")
    today = now.astimezone(zone).date()
    if end <= now or start.date() < today:
        raise _problem("command.absence_past", f"The absence from {start:%Y-%m-%d} to {end:%Y-%m-%d %H:%M} "
                       f"begins before today ({today}) in {settings.time_zone}.",
                       "Declare absences from today on; for a deadline that is close, ask the host to extend it.")
    for a in mine:
        a_start, a_end = datetime.fromisoformat(a["from"]), datetime.fromisoformat(a["to"])
        if a_start < a_end and a_start < end and start < a_end:  # a cancelled one is empty
            raise _problem("command.absence_overlap",
                           f"The absence overlaps the one you declared from {calendar.shown(a_start, settings)} "
                           f"to {calendar.shown(a_end, settings)}.",
                           "Send `command: absence` with `cancel: true` first, then declare the whole span again.")
    days = calendar.days_touched(start, end, zone)
    left = limit - sum(a["days"] for a in mine)
    if days > left:
        raise _problem("command.absence_limit", f"The absence needs {days} days but {left} of the "
                       f"{limit} days of absence of {game_id} remain for your seat.",
                       f"Declare at most {left} days, or ask the host.")
    declared = {"seat": seat, "from": start.isoformat(), "to": end.isoformat(), "days": days}
    events = [rules.judge_event("AbsenceDeclared", declared)]
    spans = deadlines.spans([*mine, declared])
    lines = []
    for d in judge.store.open_deadlines(game_id):
        if d["seat"] != seat:
            continue
        due = datetime.fromisoformat(d["due_at"])
        new = calendar.adjust(due, settings, spans)
        if new != due:
            judge.store.move_deadline(game_id, d["step"], seat, new.isoformat())
            events.append(rules.judge_event("DeadlineMoved", {"due": new.isoformat(), "seat": seat,
                                                              "step": d["step"], "why": "absence"}))
            lines.append("  " + _("step %(step)s: now due %(new)s (was %(old)s)") % {
                "step": d["step"], "new": calendar.shown(new, settings, language),
                "old": calendar.shown(due, settings, language)})
    trust.log_events(judge, game_id, events)
    moved = (_("Your deadlines inside it moved:") + "\n\n" + "\n".join(lines)) if lines else \
        _("None of your open deadlines falls inside it.")
    recorded = ngettext("Your absence from %(start)s to %(end)s (%(days)d day) is recorded; %(left)d of the "
                        "%(limit)d days of absence of %(game)s remain for your seat.",
                        "Your absence from %(start)s to %(end)s (%(days)d days) is recorded; %(left)d of the "
                        "%(limit)d days of absence of %(game)s remain for your seat.", days) % {
        "start": calendar.shown(start, settings, language), "end": _until(end, settings, tr), "days": days,
        "left": left - days, "limit": limit, "game": game_id}
    return Reply(_("absence"), f"{recorded} {moved}\n\n" + _("Deadlines started during the absence are set "
                                                            "after it. Cancel with `command: absence` and "
                                                            "`cancel: true`."))


def _used(judge: Service, game_id: str, seat: str, absence: Mapping[str, Any]) -> bool:
    """Whether ``absence`` (of ``seat``, from the folded table) has served: a deadline of
    the seat was moved out of it (a ``DeadlineMoved`` with why ``absence`` logged after
    its declaration) or an open one lies at or after its start. A cancelled absence that
    served keeps all its days counted, so that declaring and cancelling cannot push a
    deadline on for ever (break16)."""
    start = datetime.fromisoformat(absence["from"])
    if any(d["seat"] == seat and datetime.fromisoformat(d["due_at"]) >= start
           for d in judge.store.open_deadlines(game_id)):
        return True
    declared = False
    for kind, d in judge.store.events_of_kinds(game_id, ("AbsenceDeclared", "DeadlineMoved")):
        if kind == "AbsenceDeclared" and d.get("seat") == seat and d.get("from") == absence["from"] \
                and not d.get("cancel"):
            declared = True
        elif declared and kind == "DeadlineMoved" and d.get("seat") == seat and d.get("why") == "absence":
            return True
    return False


def _cancel(judge: Service, game_id: str, seat: str, mine: list[dict[str, Any]], now: datetime, limit: int) -> Reply:
    """End the seat's absences not over yet: those not begun are dropped, one under way
    ends now (its days so far stay counted); one that served (:func:`_used`) keeps all
    its days counted."""
    settings = settings_of(judge, game_id)
    events = []
    kept = 0
    for a in mine:
        a_start, a_end = datetime.fromisoformat(a["from"]), datetime.fromisoformat(a["to"])
        if a_end <= now:
            kept += a["days"]
            continue
        to = max(now, a_start)
        days = a["days"] if _used(judge, game_id, seat, a) else calendar.days_touched(a_start, to, settings.zone)
        kept += days
        events.append(rules.judge_event("AbsenceDeclared", {"seat": seat, "from": a["from"], "to": to.isoformat(),
                                                            "days": days, "cancel": True}))
    if not events:
        raise _problem("command.not_now", f"Seat {seat} has no absence in {game_id} that is not over.",
                       "Declare one with `command: absence`, `from:` and `to:`.")
    trust.log_events(judge, game_id, events)
    _ = seat_preferences.translations(judge.store, game_id, seat).gettext
    return Reply(_("absence cancelled"), _(
        "Your absences not over yet are cancelled; %(left)s of the %(limit)s days of absence of %(game)s "
        "remain for your seat. Deadlines already moved stay where they are, and an absence that moved or "
        "holds one of your deadlines keeps its days counted.") % {"left": limit - kept, "limit": limit,
                                                                  "game": game_id})


COMMAND = SeatCommand(
    name="absence",
    fields=(Field("from", "date", "the first day away (the game's local time)"),
            Field("to", "date", "the last day away, included"),
            Field("cancel", "flag", "true: cancel the absences not begun")),
    limit=Limit(10, timedelta(hours=1), counted_by="dispatch"),
    logs=("AbsenceDeclared", "DeadlineMoved"), once=True,
    help="Days you are away: no deadline of yours falls in them (`from:`, `to:`; `cancel: true`).",
    guide=Guide("player-guide.md", "Absence"), process=absence)
