"""A game's table settings (issue 16): how the judge runs the game around the rules —
its time zone and the days deadlines may fall on, the grace after a deadline, the
civil-disorder limit, the absence allowance, press, and per-game deadline lengths.

Pure: no I/O. The config (``games[].settings``), ``pbem game new`` and the host's
``set`` command all read their values through :func:`parse_settings`, so one place
says what is allowed. Rule options (``games[].options``) are another thing: they change
the rules and go to the rules core.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem import i18n

DAYS: tuple[str, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
"""Weekday names as written in ``allowed_days``, Monday first (``datetime.weekday()``)."""
PRESS_MODES = ("none", "public", "private")
SUBSTITUTE_MODES = ("auto", "approve", "off")
"""Who gives a seat offered to the standby list (issue 29, item 2): the first substitute
who accepts (``auto``), the host approving the one who accepted (``approve``), or
nobody: no offer is made (``off``)."""
CIVIL_DISORDER_MODES = ("default", "bot")
"""What plays a seat in civil disorder: its decisions' defaults, or the game's bot."""
OBSERVER_MODES = ("off", "host", "anyone")
"""Who may follow a game's public reports by mail (issue 29.3): nobody, the addresses
the host allows, or anyone."""
TABLE_BOTS = ("search", "greedy", "random")
"""The bots that may play a seat (:mod:`pbem.rules.bots.table`; docs/bots.md)."""
MAX_BOT_SECONDS = 10.0
"""The largest ``bot_seconds``: how long one bot decision may take before the judge's
log warns, in seconds (no limit: the bot's search is bounded by its rounds only, issue
25; the judge plays bot decisions in its loop, between two looks at the mailbox:
docs/bots.md)."""
BOT_PLAYOUTS = 24
"""The default ``bot_playouts``: the strong bot's rounds per decision. Chosen by
measure (issue 25; benchmarks/bot_decision_time.py, figures in benchmarks/README.md):
median decision 1.5 to 1.9 s of one core, the slowest under 3 s."""
MAX_BOT_PLAYOUTS = 64
"""The most playout rounds the strong bot may take for one decision: the safety bound
that replaced the clock (issue 25). A decision's time grows with its rounds (0.07 to
0.12 s of one core a round, measured, the more the busier the machine), so at this
bound the slowest decision stays under 10 s of one core (96 rounds measured 10.9 s on
a busy machine); it never changes the orders of a game within it, and it is the default
of the games made before issue 25, so theirs stay within it."""
_DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([smhd])\s*")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DEADLINE_KEYS = ("player_turn", "reaction", "reminder", "turn_order", "reinforcements",
                 "intercept", "avoid_battle", "naval_battle", "inside_join")


@dataclass(frozen=True)
class GameSettings:
    """The table settings of one game (defaults: UTC, every day, no grace, no civil
    disorder, 14 days of absence per player, private press without grey press, press
    never published).

    ``time_zone``: an IANA zone (``Europe/Berlin``) deadlines are computed and shown in;
    ``allowed_days``: weekdays a deadline may fall on (others move it to the next allowed
    day, same local time); ``grace``: seconds after a deadline during which late orders
    are still taken; ``nmr_limit``: missed decisions in a row that put a seat into civil
    disorder (0: never); ``absence_limit_days``: days of absence each player may declare
    in the game; ``press``: ``none`` | ``public`` (to all only) | ``private`` (to any
    seats); ``grey_press``: a sender may hide its seat; ``publish_press``: the archive
    shows the press once the game is over; ``deadlines``: seconds by decision kind or
    ``reminder``, over the config's ``deadlines``; ``civil_disorder``: ``default`` (a
    seat in civil disorder plays its decisions' defaults at once) | ``bot`` (the game's
    bot plays it from the decision that put it there); ``bot``: the bot that plays bot
    seats (``search``, the strong bot; ``greedy``; ``random``); ``bot_seconds``: how long
    a bot decision may take before the judge's log warns, seconds (0.01 to
    :data:`MAX_BOT_SECONDS`; no limit: the bot never reads a clock, issue 25);
    ``bot_playouts``: the playout rounds of each decision of the strong bot (1 to
    :data:`MAX_BOT_PLAYOUTS`): they alone end its search, so the bot's orders depend only
    on the game, on any machine and when a restore replays them (docs/bots.md); ``host_language``: the
    language of the host's mail (``en``, ``es``, ``ru``; :mod:`pbem.i18n`; issue 28);
    ``vote_hours``: how long a seats' proposal (``command: propose``, issue 29) stays open
    unless decided first, in hours, whatever decisions the game takes meanwhile (0: no
    time limit, open until decided);
    ``substitutes``: a seat in civil disorder or handed to the bot is offered to the
    standby list and goes to the first who accepts (``auto``, the default), to the one
    the host approves (``approve``), or is not offered (``off``; issue 29);
    ``observers``: who may follow the game's public reports by mail (``off``, the
    default; ``host``: the addresses the host allows; ``anyone``; issue 29.3);
    ``min_finished_games``: a join is refused from an address with fewer games played
    to the end on this judge (0: no minimum); ``max_missed_share``: a join is refused
    from an address that missed more than this share of its decisions (0.0 to 1.0;
    1.0: no limit; issue 29.4)."""

    time_zone: str = "UTC"
    allowed_days: tuple[str, ...] = DAYS
    grace: float = 0.0
    nmr_limit: int = 0
    absence_limit_days: int = 14
    press: str = "private"
    grey_press: bool = False
    publish_press: bool = False
    deadlines: Mapping[str, float] = field(default_factory=dict)
    civil_disorder: str = "default"
    bot: str = "search"
    bot_seconds: float = MAX_BOT_SECONDS
    bot_playouts: int = BOT_PLAYOUTS
    host_language: str = "en"
    vote_hours: float = 48.0
    substitutes: str = "auto"
    observers: str = "off"
    min_finished_games: int = 0
    max_missed_share: float = 1.0

    @property
    def zone(self) -> ZoneInfo:
        """The time zone as a :class:`zoneinfo.ZoneInfo`."""
        return ZoneInfo(self.time_zone)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON): what the database and the game's log store."""
        out = asdict(self)
        out["allowed_days"] = list(self.allowed_days)
        out["deadlines"] = dict(self.deadlines)
        if self.host_language == i18n.DEFAULT:  # English games' tables and logs as before issue 28
            del out["host_language"]
        if self.vote_hours == VOTE_HOURS:  # the logs of games made before issue 29 stay as they were
            del out["vote_hours"]
        for key, default in NEW_DEFAULTS.items():  # games without them keep their tables and logs as before
            if out[key] == default:
                del out[key]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> GameSettings:
        """The settings stored by :meth:`to_dict` (unknown keys ignored; None: defaults)."""
        if not data:
            return cls()
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        if "allowed_days" in known:
            known["allowed_days"] = tuple(known["allowed_days"])
        if "deadlines" in known:
            known["deadlines"] = dict(known["deadlines"] or {})
        return cls(**known)


VOTE_HOURS = 48.0
"""The default of ``vote_hours``: a proposal stays open at most two days."""
MAX_VOTE_HOURS = 24 * 366
"""The longest ``vote_hours``."""
NEW_DEFAULTS: Mapping[str, Any] = {"substitutes": "auto", "observers": "off", "min_finished_games": 0,
                                   "max_missed_share": 1.0}
"""Settings of issue 29 that :meth:`GameSettings.to_dict` leaves out at their defaults."""


def duration(value: Any) -> float:
    """``"72h"``, ``"30m"``, ``"2d"``, ``"45s"`` or a number of seconds, in seconds.
    At most :data:`MAX_DURATION` (a longer one, or ``.inf``, would move a deadline off
    the calendar and fail every later deadline; break16). Raises ValueError with a
    readable message for anything else."""
    seconds = None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        seconds = float(value)
    elif isinstance(value, str):
        m = _DURATION.fullmatch(value)
        if m:
            seconds = float(m.group(1)) * _UNITS[m.group(2)]
    if seconds is None:
        raise ValueError(f"not a duration: {value!r} (write e.g. 72h, 30m, 2d)")
    if not seconds <= MAX_DURATION:  # also NaN
        raise ValueError(f"too long: {value!r} (at most {int(MAX_DURATION // 86400)}d)")
    return seconds


MAX_DURATION = 366 * 86400.0
"""The longest duration a setting takes (grace, deadline lengths), in seconds."""


def days(value: Any) -> tuple[str, ...]:
    """Allowed weekdays from ``[mon, tue, ...]``, ``"mon-fri"`` or ``"mon,wed,fri"``, in
    week order. Raises ValueError naming the bad entry."""
    if isinstance(value, str):
        parts: list[str] = []
        for chunk in value.replace(" ", "").lower().split(","):
            if "-" in chunk:
                a, b = chunk.split("-", 1)
                if a not in DAYS or b not in DAYS:
                    raise ValueError(f"not a range of weekdays: {chunk!r} (write e.g. mon-fri)")
                i, j = DAYS.index(a), DAYS.index(b)
                parts += [DAYS[(i + k) % 7] for k in range((j - i) % 7 + 1)]
            elif chunk:
                parts.append(chunk)
        value = parts
    if not isinstance(value, (list, tuple)) or not value:
        raise ValueError(f"not a list of weekdays: {value!r} (write e.g. [mon, tue, wed, thu, fri] or mon-fri)")
    out = set()
    for d in value:
        name = str(d).lower()
        name = next((k for k, full in _FULL.items() if name in (k, full)), name)
        if name not in DAYS:
            raise ValueError(f"not a weekday: {d!r} (use {', '.join(DAYS)})")
        out.add(name)
    return tuple(d for d in DAYS if d in out)


_FULL = {"mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday", "fri": "friday",
         "sat": "saturday", "sun": "sunday"}

_KEYS = ("time_zone", "allowed_days", "grace", "nmr_limit", "absence_limit_days", "press", "grey_press",
         "publish_press", "deadlines", "civil_disorder", "bot", "bot_seconds", "bot_playouts", "host_language",
         "vote_hours", "substitutes", "observers", "min_finished_games", "max_missed_share")


def _one(key: str, value: Any) -> Any:
    """One setting's value, checked. Raises ValueError."""
    if key == "time_zone":
        try:
            ZoneInfo(str(value))
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"not a time zone: {value!r} (an IANA name such as Europe/Berlin or UTC)") from None
        return str(value)
    if key == "allowed_days":
        return days(value)
    if key == "grace":
        return duration(value)
    if key == "civil_disorder":
        if value not in CIVIL_DISORDER_MODES:
            raise ValueError(f"must be one of {', '.join(CIVIL_DISORDER_MODES)}, got {value!r}")
        return value
    if key == "substitutes":
        if value not in SUBSTITUTE_MODES:
            raise ValueError(f"must be one of {', '.join(SUBSTITUTE_MODES)}, got {value!r}")
        return value
    if key == "bot":
        if value not in TABLE_BOTS:
            raise ValueError(f"must be one of {', '.join(TABLE_BOTS)}, got {value!r}")
        return value
    if key == "bot_seconds":
        seconds = duration(value)
        if not 0.01 <= seconds <= MAX_BOT_SECONDS:
            raise ValueError(f"from 0.01 to {MAX_BOT_SECONDS:g} seconds, got {value!r}")
        return seconds
    if key == "observers":
        if value not in OBSERVER_MODES:
            raise ValueError(f"must be one of {', '.join(OBSERVER_MODES)}, got {value!r}")
        return value
    if key == "max_missed_share":
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise ValueError(f"expected a share from 0 to 1 (e.g. 0.2), got {value!r}") from None
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
            raise ValueError(f"expected a share from 0 to 1 (e.g. 0.2), got {value!r}")
        return float(value)
    if key in ("nmr_limit", "absence_limit_days", "bot_playouts", "min_finished_games"):
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"expected a whole number from 0, got {value!r}")
        if key == "bot_playouts" and not 1 <= value <= MAX_BOT_PLAYOUTS:
            raise ValueError(f"from 1 to {MAX_BOT_PLAYOUTS}, got {value!r}")
        return value
    if key == "press":
        if value not in PRESS_MODES:
            raise ValueError(f"must be one of {', '.join(PRESS_MODES)}, got {value!r}")
        return value
    if key in ("grey_press", "publish_press"):
        if isinstance(value, str) and value.lower() in ("true", "false"):
            value = value.lower() == "true"
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        return value
    if key == "host_language":
        if not i18n.is_language(value, pseudo=True):
            raise ValueError(f"must be one of {', '.join(i18n.LANGUAGES)}, got {value!r}")
        return value
    if key == "vote_hours":
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise ValueError(f"expected a number of hours, got {value!r}") from None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_VOTE_HOURS:
            raise ValueError(f"expected a number of hours from 0 to {MAX_VOTE_HOURS}, got {value!r}")
        return float(value)
    if key == "deadlines":
        if not isinstance(value, Mapping):
            raise ValueError(f"expected a mapping of decision kinds to durations, got {value!r}")
        out = {}
        for k, v in value.items():
            if k not in DEADLINE_KEYS:
                raise ValueError(f"unknown deadline {k!r} (allowed: {', '.join(DEADLINE_KEYS)})")
            out[str(k)] = duration(v)
        return out
    raise KeyError(key)


def parse_settings(raw: Any, base: GameSettings | None = None) -> tuple[GameSettings, list[str]]:
    """Check a settings mapping (``games[].settings`` of the config, the options of
    ``pbem game new``, the host's ``set``) over ``base`` (default: the defaults).
    Returns the settings and a list of problems ``key: what`` (empty when all is
    well; the bad keys keep ``base``'s value)."""
    settings = base or GameSettings()
    if raw is None:
        return settings, []
    if not isinstance(raw, Mapping):
        return settings, [f"expected a mapping, got {type(raw).__name__}"]
    problems: list[str] = []
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _KEYS:
            problems.append(f"{key}: unknown setting (allowed: {', '.join(_KEYS)})")
            continue
        try:
            values[key] = _one(key, value)
        except ValueError as exc:
            problems.append(f"{key}: {exc}")
    return replace(settings, **values), problems


def settable() -> tuple[str, ...]:
    """The names of every setting."""
    return _KEYS
