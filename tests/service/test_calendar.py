"""Deadlines in the game's local time (issue 16): the pure calendar of
:mod:`pbem.service.base.calendar` — lengths in local days, excluded weekdays, absences,
daylight-saving changes in Europe/Berlin, nonexistent and repeated local times."""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from pbem.gamesettings import DAYS, GameSettings
from pbem.service.base import calendar

BERLIN = GameSettings(time_zone="Europe/Berlin")
WEEKDAYS = GameSettings(time_zone="Europe/Berlin", allowed_days=("mon", "tue", "wed", "thu", "fri"))
H = 3600


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_a_deadline_on_an_excluded_weekday_moves_to_the_next_allowed_day_same_local_time() -> None:
    # Friday 4 December 2026 18:00 CET + 72 h is Monday 7 December (Saturday and Sunday excluded)
    start = utc(2026, 12, 4, 17, 0)
    assert calendar.due_time(start, 72 * H, BERLIN) == utc(2026, 12, 7, 17, 0)  # no weekday rule: Monday too
    start = utc(2026, 12, 3, 17, 0)  # Thursday 18:00 CET + 48 h = Saturday
    assert calendar.due_time(start, 48 * H, BERLIN) == utc(2026, 12, 5, 17, 0)
    due = calendar.due_time(start, 48 * H, WEEKDAYS)
    assert due == utc(2026, 12, 7, 17, 0)
    assert calendar.shown(due, WEEKDAYS) == "2026-12-07 18:00 CET (17:00 UTC)"


def test_a_dst_change_keeps_the_local_time_and_changes_the_utc_offset() -> None:
    # spring: Saturday 28 March 2026 18:00 CET + 72 h = Tuesday 31 March 18:00 CEST (71 h elapsed)
    start = utc(2026, 3, 28, 17, 0)
    due = calendar.due_time(start, 72 * H, BERLIN)
    assert due == utc(2026, 3, 31, 16, 0) and due - start == timedelta(hours=71)
    assert calendar.shown(due, BERLIN) == "2026-03-31 18:00 CEST (16:00 UTC)"
    # autumn: Saturday 24 October 2026 18:00 CEST + 72 h = Tuesday 27 October 18:00 CET (73 h elapsed)
    start = utc(2026, 10, 24, 16, 0)
    due = calendar.due_time(start, 72 * H, BERLIN)
    assert due == utc(2026, 10, 27, 17, 0) and due - start == timedelta(hours=73)
    assert calendar.shown(due, BERLIN) == "2026-10-27 18:00 CET (17:00 UTC)"
    # in UTC nothing moves
    assert calendar.due_time(start, 72 * H, GameSettings()) == start + timedelta(hours=72)
    assert calendar.shown(start, GameSettings()) == "2026-10-24 16:00 UTC"


def test_the_rest_of_a_length_below_a_day_is_elapsed_time() -> None:
    # Saturday 28 March 2026 20:00 CET + 1 d 12 h: Sunday 20:00 CEST, then 12 h later
    start = utc(2026, 3, 28, 19, 0)
    assert calendar.due_time(start, 36 * H, BERLIN) == utc(2026, 3, 29, 18, 0) + timedelta(hours=12)
    assert calendar.due_time(start, 6 * H, BERLIN) == start + timedelta(hours=6)  # across the change: 6 h


def test_a_nonexistent_local_time_shifts_forward_and_a_repeated_one_is_the_first() -> None:
    # Saturday 28 March 02:30 CET + 1 day: 29 March 02:30 does not exist -> 03:30 CEST (01:30 UTC)
    assert calendar.due_time(utc(2026, 3, 28, 1, 30), 24 * H, BERLIN) == utc(2026, 3, 29, 1, 30)
    # Saturday 24 October 02:30 CEST + 1 day: 25 October 02:30 exists twice -> the first, CEST (00:30 UTC)
    assert calendar.due_time(utc(2026, 10, 24, 0, 30), 24 * H, BERLIN) == utc(2026, 10, 25, 0, 30)


def test_an_absence_moves_a_deadline_to_after_it_same_local_time_then_to_an_allowed_day() -> None:
    absence = calendar.day_span(date(2026, 12, 10), date(2026, 12, 14), ZoneInfo("Europe/Berlin"))
    assert absence == (utc(2026, 12, 9, 23, 0), utc(2026, 12, 14, 23, 0))
    due = utc(2026, 12, 12, 17, 0)  # Saturday 18:00 CET, inside
    assert calendar.adjust(due, BERLIN, [absence]) == utc(2026, 12, 15, 17, 0)
    assert calendar.adjust(utc(2026, 12, 9, 17, 0), BERLIN, [absence]) == utc(2026, 12, 9, 17, 0)  # before
    # an absence ending on Friday 18 December: the day after is a Saturday -> Monday 21 December
    friday = calendar.day_span(date(2026, 12, 16), date(2026, 12, 18), ZoneInfo("Europe/Berlin"))
    assert calendar.adjust(utc(2026, 12, 17, 17, 0), WEEKDAYS, [friday]) == utc(2026, 12, 21, 17, 0)
    # a date-time end: the same local time on or after it
    until = (utc(2026, 12, 10, 7, 0), utc(2026, 12, 14, 19, 0))  # ends 20:00 CET
    assert calendar.adjust(utc(2026, 12, 12, 17, 0), BERLIN, [until]) == utc(2026, 12, 15, 17, 0)
    assert calendar.adjust(utc(2026, 12, 12, 20, 0), BERLIN, [until]) == utc(2026, 12, 14, 20, 0)
    assert calendar.days_touched(*absence, ZoneInfo("Europe/Berlin")) == 5
    assert calendar.days_touched(*until, ZoneInfo("Europe/Berlin")) == 5


def test_a_naive_start_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        calendar.due_time(datetime(2026, 12, 1, 12, 0), 60, BERLIN)


ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata")


@hsettings(max_examples=300, deadline=None)
@given(start=st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2028, 12, 31), timezones=st.just(UTC)),
       seconds=st.integers(min_value=0, max_value=10 * 86400),
       zone=st.sampled_from(ZONES),
       allowed=st.sets(st.sampled_from(DAYS), min_size=1),
       away=st.lists(st.tuples(st.integers(0, 20), st.integers(1, 6)), max_size=3))
def test_every_due_time_is_on_an_allowed_day_outside_the_absences_and_not_before_the_start(
        start: datetime, seconds: int, zone: str, allowed: set[str], away: list[tuple[int, int]]) -> None:
    s = GameSettings(time_zone=zone, allowed_days=tuple(d for d in DAYS if d in allowed))
    first = start.astimezone(s.zone).date()
    absences = [calendar.day_span(first + timedelta(days=a), first + timedelta(days=a + n - 1), s.zone)
                for a, n in away]
    due = calendar.due_time(start, seconds, s, absences)
    assert due.tzinfo is UTC
    assert DAYS[due.astimezone(s.zone).weekday()] in allowed
    assert not any(a <= due < b for a, b in absences)
    # local days may be an hour (Lord Howe: half an hour) shorter across a DST change
    assert due >= start + timedelta(seconds=seconds) - timedelta(hours=1)
    assert due >= start
    assert calendar.adjust(due, s, absences) == due  # a due time already adjusted stays


@hsettings(max_examples=200, deadline=None)
@given(start=st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2028, 12, 31), timezones=st.just(UTC)),
       days=st.integers(min_value=1, max_value=6), zone=st.sampled_from(ZONES))
def test_whole_days_keep_the_local_wall_clock_time(start: datetime, days: int, zone: str) -> None:
    s = GameSettings(time_zone=zone)
    here = start.astimezone(s.zone)
    due = calendar.due_time(start, days * 86400, s).astimezone(s.zone)
    assert due.date() == here.date() + timedelta(days=days)
    # the same wall-clock time unless it does not exist that day (then later, by the gap)
    if calendar.local(datetime.combine(due.date(), here.time()), s.zone).astimezone(s.zone).time() == here.time():
        assert due.time() == here.time()
    else:
        assert due.time() > here.time()


def test_a_deadline_moved_by_seconds_is_shown_to_the_second() -> None:
    """A 10-second pause moved a deadline from 20:33:05 to 20:33:15: the notice read "now
    due 20:33 (was 20:33)" (issue 24's second hand-played game). Times a minute or more
    apart keep the minutes."""
    was = utc(2026, 12, 3, 20, 33, 5)
    assert calendar.shown_apart(was + timedelta(seconds=10), was, BERLIN) == (
        "2026-12-03 21:33:15 CET (20:33:15 UTC)", "2026-12-03 21:33:05 CET (20:33:05 UTC)")
    assert calendar.shown_apart(was + timedelta(seconds=60), was, GameSettings()) == (
        "2026-12-03 20:34 UTC", "2026-12-03 20:33 UTC")
