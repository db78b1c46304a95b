"""Deadlines (docs/pipeline.md, "Deadlines"): how long a seat has for a decision, the
reminder before it, the late notice at it, the grace after it, and the decision's
default applied when the grace ends (R-9.3 for reaction windows); the NMR counts and
civil disorder (issue 16).

Due times are computed in the game's local time by :mod:`pbem.service.base.calendar`
(lengths by kind, allowed days, the seat's absences). The NMR counts, civil disorder
and absences are folded from the game's own events (``DecisionMissed``,
``CivilDisorderDeclared``, ``SeatReturned``, ``AbsenceDeclared``), so a replay of the
log gives the same table.
"""
from __future__ import annotations

import gettext
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pbem import i18n, rules
from pbem.config import Config
from pbem.gamesettings import GameSettings
from pbem.report import build
from pbem.service.base import calendar
from pbem.service.base.context import Service
from pbem.service.base.settings import bot_seats, settings_of, wrapped
from pbem.service.outgoing import outbox, seat_preferences

log = logging.getLogger(__name__)

TABLE_KINDS = ("DecisionMissed", "CivilDisorderDeclared", "SeatReturned", "AbsenceDeclared", "SeatConceded")
"""The events the deadlines fold."""


def length(config: Config, kind: str, settings: GameSettings | None = None) -> float:
    """Seconds a seat has for a decision of ``kind``: the game's ``settings.deadlines``
    over the config's ``deadlines``; by the kind's own key when given, else
    ``player_turn`` for player-turns, reinforcements and the turn order (R-6.1), and
    ``reaction`` for reaction windows (R-9.3: intercept, avoid_battle, naval_battle,
    inside_join). Defaults 72 h and 24 h."""
    dl = {**config.deadlines, **(dict(settings.deadlines) if settings else {})}
    if kind in dl:
        return dl[kind]
    if kind in ("player_turn", "reinforcements", "turn_order"):
        return dl.get("player_turn", 72 * 3600)
    return dl.get("reaction", 24 * 3600)


def reminder(config: Config, kind: str, settings: GameSettings | None = None) -> timedelta:
    """How long before a deadline its reminder goes: ``deadlines.reminder`` (game over
    config, default 24 h), at most half the deadline's length."""
    dl = {**config.deadlines, **(dict(settings.deadlines) if settings else {})}
    return timedelta(seconds=min(dl.get("reminder", 24 * 3600), length(config, kind, settings) / 2))


@dataclass
class SeatRecord:
    """A seat's NMR record: decisions missed in a row and in all, and whether it is in
    civil disorder (issue 16), and whether it conceded (issue 29: then it stays in civil
    disorder for good, [D] docs/rules.md "Votes and concession")."""

    in_a_row: int = 0
    total: int = 0
    disorder: bool = False
    conceded: bool = False


def fold(events: list[tuple[str, dict[str, Any]]]) -> tuple[dict[str, SeatRecord], dict[str, list[dict[str, Any]]]]:
    """The NMR records and the absences by seat from the table events ``(kind, data)``
    in log order. An absence is ``{"from", "to", "days"}`` (ISO 8601 instants, the end
    excluded); a cancelling ``AbsenceDeclared`` (``cancel: true``) replaces the absence
    of the same ``from`` (dropped when its ``days`` is 0). Pure."""
    recs: dict[str, SeatRecord] = {}
    away: dict[str, list[dict[str, Any]]] = {}
    for kind, d in events:
        seat = d.get("seat")
        if kind == "AbsenceDeclared":
            mine = [a for a in away.get(seat, []) if not (d.get("cancel") and a["from"] == d["from"])]
            if not d.get("cancel") or d["days"] > 0:
                mine.append({"from": d["from"], "to": d["to"], "days": d["days"]})
            away[seat] = mine
            continue
        r = recs.setdefault(seat, SeatRecord())
        if kind == "DecisionMissed":
            r.in_a_row, r.total = d["missed"], d["total"]
        elif kind == "CivilDisorderDeclared":
            r.disorder = True
        elif kind == "SeatConceded":
            r.disorder = r.conceded = True
        elif kind == "SeatReturned":
            r.in_a_row, r.disorder = 0, r.conceded
    return recs, away


def table(judge: Service, game_id: str) -> tuple[dict[str, SeatRecord], dict[str, list[dict[str, Any]]]]:
    """:func:`fold` of the game's logged table events."""
    return fold(judge.store.events_of_kinds(game_id, TABLE_KINDS))


def spans(absences: list[dict[str, Any]]) -> list[calendar.Absence]:
    """The absences of :func:`fold` as ``(start, end)`` datetimes."""
    return [(datetime.fromisoformat(a["from"]), datetime.fromisoformat(a["to"])) for a in absences]


def shown(judge: Service, game_id: str, when: datetime | str, tr: gettext.NullTranslations | None = None) -> str:
    """A due time in the game's local time with its zone (:func:`calendar.shown`), as
    readers of the language of ``tr`` write dates (None: English)."""
    return calendar.shown(when, settings_of(judge, game_id), i18n.language_of(tr) if tr else i18n.DEFAULT)


def prompt_deadline(judge: Service, game_id: str, when: datetime | str,
                    tr: gettext.NullTranslations | None = None) -> str:
    """A prompt's deadline (:func:`shown`), saying so when the game is paused: no
    deadline passes in a pause, and resuming moves it on by the whole pause (a prompt
    sent during a pause showed a time that would not hold; issue 24.10); in the
    language of ``tr`` (None: English)."""
    text = shown(judge, game_id, when, tr)
    if (judge.store.game(game_id) or {}).get("status") == "paused":
        text += (tr or i18n.translations()).gettext(
            " (the game is paused: this moves on by the whole pause when the host resumes it)")
    return text


def start(judge: Service, game_id: str, step: int, seat: str, kind: str) -> datetime:
    """Start the deadline of ``seat``'s decision ``kind`` at ``step`` now and return its
    due time: the length by kind from now in the game's local time, off the days the
    game does not allow and out of the seat's absences (:mod:`pbem.service.base.calendar`);
    a seat in civil disorder, or one a bot plays (:mod:`pbem.service.play.bots`), is due
    at once. Call inside a transaction."""
    now = judge.clock()
    settings = settings_of(judge, game_id)
    recs, away = table(judge, game_id)
    if recs.get(seat, SeatRecord()).disorder or seat in bot_seats(judge, game_id):
        due = now
    else:
        due = calendar.due_time(now, length(judge.config, kind, settings), settings, spans(away.get(seat, [])))
    judge.store.set_deadline(game_id, step, seat, kind, due.isoformat())
    judge.store.deadline_set_at(game_id, step, seat, now.isoformat())
    return due


def expire(judge: Service, game_id: str, step: int, seat: str) -> None:
    """Close the deadline of ``seat``'s decision at ``step`` now (decided)."""
    judge.store.expire_deadline(game_id, step, seat, judge.clock().isoformat())


def log_table(judge: Service, game_id: str, events: list[rules.Event]) -> None:
    """Append judge ``events`` (no change to the position) with a snapshot after them.
    Call inside a transaction."""
    store = judge.store
    state = judge.state(game_id)
    seq = store.append_events(game_id, [e.to_dict() for e in events], step=state.step)
    store.save_snapshot(game_id, seq, state.step, state.to_dict())


def tell_seats(judge: Service, game_id: str, subject: i18n.Localizable, body: i18n.Localizable, id_part: str,
               head: str = "", body_of: Callable[[str], i18n.Localizable] | None = None) -> None:
    """Queue a table notice (text and HTML, wrapped to 72 columns) to every seat, each in
    its seat's language (issue 28): ``subject`` and ``body`` are texts or functions of a
    translations object (:data:`pbem.i18n.Localizable`), written once per seat;
    ``head`` goes before the subject untranslated (``step 5: ``, the part mail filters
    match). ``body_of`` (a seat -> its body), when given, writes each seat's body
    instead of ``body`` (a proposal tells only the seats that vote how to vote)."""
    for row in judge.store.seats(game_id):
        tr = seat_preferences.translations(judge.store, game_id, row["seat"])
        said = body_of(row["seat"]) if body_of is not None else body
        text = build.render_notice(wrapped(i18n.localize(said, tr)), game_id, tr)
        title = head + i18n.localize(subject, tr)
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["email"], to_name=row["player"],
                     subject=f"[{game_id}] {title}", text=text,
                     html=build.html_of_text(title, text, i18n.language_of(tr)),
                     id_parts=(game_id, "table", id_part, row["seat"]))


def returned(judge: Service, game_id: str, seat: str, by: str) -> bool:
    """The seat's player acts again (``by``: ``orders`` — valid orders from the seat —,
    ``replace`` — the host gave the seat to a new player — or ``standby`` — a substitute
    from the standby list took it, issue 29): when the seat had missed decisions in a
    row or was in civil disorder, log ``SeatReturned`` (the in-a-row count starts again)
    and, leaving disorder, tell every seat. True when logged. Call inside a transaction.
    A seat the bot took in civil disorder (``civil_disorder: bot``) is the player's again
    when they send valid orders: ``BotLeft`` too. A new player (``replace``,
    ``standby``) gets the seat's pending decision at its full length from now: in civil
    disorder it was due at once, and the new player's first decision was missed again
    before they could answer (issue 29)."""
    recs, _away = table(judge, game_id)
    rec = recs.get(seat, SeatRecord())
    if rec.conceded or (not rec.in_a_row and not rec.disorder):  # a concession is for good (issue 29)
        return False
    events = [rules.judge_event("SeatReturned", {"seat": seat, "was_in_disorder": rec.disorder, "by": by})]
    played = bot_seats(judge, game_id).get(seat)
    if by == "orders" and played is not None and played.why == "civil_disorder":  # the player is back: the bot leaves
        events.append(rules.judge_event("BotLeft", {"seat": seat, "bot": played.bot, "why": "orders"}))
    log_table(judge, game_id, events)
    if by != "orders":  # a new player: the pending decision waits its full length for them
        state = judge.state(game_id)
        decision = next((d for d in rules.pending(state) if d.seat == seat), None)
        if decision is not None and seat not in bot_seats(judge, game_id):
            start(judge, game_id, state.step, seat, decision.kind)
    if rec.disorder:
        judge.store.close_offer(game_id, seat, "closed", judge.clock().isoformat())  # no longer on offer (issue 29)
        values = {"seat": seat, "game": game_id}
        tell_seats(judge, game_id, lambda tr: tr.gettext("%(seat)s is back") % values,
                   lambda tr: (tr.gettext("%(seat)s leaves civil disorder in %(game)s: its player sent valid orders "
                                          "again. Its decisions wait for its orders again until their deadlines.")
                               if by == "orders" else
                               tr.gettext("%(seat)s leaves civil disorder in %(game)s: a substitute from the standby "
                                          "list took it. Its decisions wait for its orders again until their "
                                          "deadlines.")
                               if by == "standby" else
                               tr.gettext("%(seat)s leaves civil disorder in %(game)s: the host gave it to a new "
                                          "player. Its decisions wait for its orders again until their "
                                          "deadlines.")) % values,
                   f"returned-{seat}-{judge.clock().isoformat()}")
    return True


