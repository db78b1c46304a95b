"""Deadlines (docs/pipeline.md, "Deadlines"): how long a seat has for a decision, the
reminder before it, the late notice at it, the grace after it, and the decision's
default applied when the grace ends (R-9.3 for reaction windows); the NMR counts and
civil disorder (issue 16).

Due times are computed in the game's local time by :mod:`pbem.service.calendar`
(lengths by kind, allowed days, the seat's absences). The NMR counts, civil disorder
and absences are folded from the game's own events (``DecisionMissed``,
``CivilDisorderDeclared``, ``SeatReturned``, ``AbsenceDeclared``), so a replay of the
log gives the same table.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from pbem import rules
from pbem.config import Config
from pbem.gamesettings import GameSettings
from pbem.report import build
from pbem.service import adjudicate, calendar, host, intake, outbox, trust
from pbem.service.issue import safe_text

if TYPE_CHECKING:
    from pbem.service.judge import Judge

log = logging.getLogger(__name__)

TABLE_KINDS = ("DecisionMissed", "CivilDisorderDeclared", "SeatReturned", "AbsenceDeclared")
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
    civil disorder (issue 16)."""

    in_a_row: int = 0
    total: int = 0
    disorder: bool = False


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
        elif kind == "SeatReturned":
            r.in_a_row, r.disorder = 0, False
    return recs, away


def table(judge: Judge, game_id: str) -> tuple[dict[str, SeatRecord], dict[str, list[dict[str, Any]]]]:
    """:func:`fold` of the game's logged table events."""
    return fold(judge.store.events_of_kinds(game_id, TABLE_KINDS))


def spans(absences: list[dict[str, Any]]) -> list[calendar.Absence]:
    """The absences of :func:`fold` as ``(start, end)`` datetimes."""
    return [(datetime.fromisoformat(a["from"]), datetime.fromisoformat(a["to"])) for a in absences]


def shown(judge: Judge, game_id: str, when: datetime | str) -> str:
    """A due time in the game's local time with its zone (:func:`calendar.shown`)."""
    from pbem.service.table import settings_of

    return calendar.shown(when, settings_of(judge, game_id))


def start(judge: Judge, game_id: str, step: int, seat: str, kind: str) -> datetime:
    """Start the deadline of ``seat``'s decision ``kind`` at ``step`` now and return its
    due time: the length by kind from now in the game's local time, off the days the
    game does not allow and out of the seat's absences (:mod:`pbem.service.calendar`);
    a seat in civil disorder is due at once. Call inside a transaction."""
    from pbem.service.table import settings_of

    now = judge.clock()
    settings = settings_of(judge, game_id)
    recs, away = table(judge, game_id)
    if recs.get(seat, SeatRecord()).disorder:
        due = now
    else:
        due = calendar.due_time(now, length(judge.config, kind, settings), settings, spans(away.get(seat, [])))
    judge.store.set_deadline(game_id, step, seat, kind, due.isoformat())
    judge.store.deadline_set_at(game_id, step, seat, now.isoformat())
    return due


def log_table(judge: Judge, game_id: str, events: list[rules.Event]) -> None:
    """Append judge ``events`` (no change to the position) with a snapshot after them.
    Call inside a transaction."""
    store = judge.store
    state = judge.state(game_id)
    seq = store.append_events(game_id, [e.to_dict() for e in events], step=state.step)
    store.save_snapshot(game_id, seq, state.step, state.to_dict())


def tell_seats(judge: Judge, game_id: str, subject: str, body: str, id_part: str) -> None:
    """Queue a notice (text and HTML, wrapped to 72 columns) to every seat."""
    from pbem.service.table import wrapped

    text = build.render_notice(wrapped(body), game_id)
    for row in judge.store.seats(game_id):
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["email"], to_name=row["player"],
                     subject=f"[{game_id}] {subject}", text=text, html=build.html_of_text(subject, text),
                     id_parts=(game_id, "table", id_part, row["seat"]))


def returned(judge: Judge, game_id: str, seat: str, by: str) -> bool:
    """The seat's player acts again (``by``: ``orders`` — valid orders from the seat —
    or ``replace`` — the host gave the seat to a new player): when the seat had missed
    decisions in a row or was in civil disorder, log ``SeatReturned`` (the in-a-row
    count starts again) and, leaving disorder, tell every seat. True when logged. Call
    inside a transaction."""
    recs, _away = table(judge, game_id)
    rec = recs.get(seat, SeatRecord())
    if not rec.in_a_row and not rec.disorder:
        return False
    log_table(judge, game_id, [rules.judge_event("SeatReturned", {"seat": seat, "was_in_disorder": rec.disorder,
                                                                   "by": by})])
    if rec.disorder:
        who = "its player sent valid orders again" if by == "orders" else "the host gave it to a new player"
        tell_seats(judge, game_id, f"{seat} is back",
                   f"{seat} leaves civil disorder in {game_id}: {who}. Its decisions wait for its orders "
                   "again until their deadlines.", f"returned-{seat}-{judge.clock().isoformat()}")
    return True


def tick(judge: Judge) -> int:
    """Send reminders and late notices and apply deadline defaults that are due;
    return how many decisions were decided by default. Each deadline is its own
    transaction and its own guard: one that raises is logged, reported to the hosts
    (once) and left open, and the others go on. Raises RetryLater on a transient
    database failure."""
    done = 0
    for row in judge.store.open_deadlines():
        try:
            done += _one(judge, row)
        except Exception as exc:
            if intake.is_transient(exc):
                raise intake.RetryLater("deadlines", exc) from exc
            log.exception("deadline %s step %s %s failed", row["game_id"], row["step"], row["seat"])
            with judge.store.transaction():
                host.report_fault(judge, f"deadline {row['game_id']} {row['step']} {row['seat']}",
                                  "a deadline could not be applied",
                                  f"The deadline of seat {row['seat']} at step {row['step']} of {row['game_id']} "
                                  f"(due {row['due_at']}) raised {type(exc).__name__}: {safe_text(str(exc), 300)}. "
                                  "It stays open and is tried again every cycle; the game waits.")
    return done


def _one(judge: Judge, row: dict[str, Any]) -> int:
    """Remind, give the late notice of, or decide one open deadline; 1 when its
    default was applied."""
    from pbem.service.table import settings_of

    now = judge.clock()
    store = judge.store
    row = store.deadline(row["game_id"], row["step"], row["seat"]) or row  # a late notice may have marked it
    if row["expired_at"] is not None:
        return 0
    game_id, seat = row["game_id"], row["seat"]
    due = datetime.fromisoformat(row["due_at"])
    game = store.game(game_id)
    if game is None or game["step"] != row["step"] or game["status"] in trust.ENDED:
        store.expire_deadline(game_id, row["step"], seat, now.isoformat())
        return 0
    if game["status"] == "paused":  # no deadline passes in a pause; resuming moves them (hostcmd)
        return 0
    settings = settings_of(judge, game_id)
    if now < due:  # a seat in civil disorder is due when its deadline starts: no reminder
        if row["reminded_at"] is None and now >= due - reminder(judge.config, row["kind"], settings):
            with store.transaction():
                _remind(judge, row)
                store.mark_reminded(game_id, row["step"], seat, now.isoformat())
        return 0
    recs, _away = table(judge, game_id)  # folded only for deadlines that passed
    rec = recs.get(seat, SeatRecord())
    grace = timedelta(0) if rec.disorder else timedelta(seconds=settings.grace)
    if now >= due + grace:
        with store.transaction():
            state = judge.state(game_id)
            decision = next((d for d in rules.pending(state) if d.seat == seat), None)
            store.expire_deadline(game_id, row["step"], seat, now.isoformat())
            if decision is not None and state.step == row["step"]:
                _missed(judge, game_id, seat, state.step, rec, settings)
                adjudicate.apply_orders(judge, game_id, state, seat, decision.default, inbox_id=None,
                                        parsed=None, by_deadline=True)
                return 1
    elif row.get("late_at") is None:
        with store.transaction():
            _late(judge, game_id, row["step"], settings)
    return 0


def _missed(judge: Judge, game_id: str, seat: str, step: int, rec: SeatRecord, settings: GameSettings) -> None:
    """Log ``DecisionMissed`` and, at ``nmr_limit`` in a row, ``CivilDisorderDeclared``
    with the notices to every seat and to the host."""
    row, total = rec.in_a_row + 1, rec.total + 1
    events = [rules.judge_event("DecisionMissed", {"seat": seat, "step": step, "missed": row, "total": total})]
    falls = bool(settings.nmr_limit) and row >= settings.nmr_limit and not rec.disorder
    if falls:
        events.append(rules.judge_event("CivilDisorderDeclared", {"seat": seat, "missed": row}))
    log_table(judge, game_id, events)
    if not falls:
        return
    tell_seats(judge, game_id, f"{seat} falls into civil disorder",
               f"{seat} sent no orders for {row} decisions in a row, the limit of {game_id}, and falls into civil "
               "disorder: from now on its decisions are decided by their default at once. It leaves civil "
               "disorder when its player sends valid orders again or the host gives the seat to a new player.",
               f"disorder-{seat}-{step}")
    how = (f"  pbem host replace {game_id} --seat {seat} --player 'Name <address>'\n\n"
           "or by mail `command: replace` with `seat:` and `player:` (docs/host-guide.md)."
           if judge.config.game(game_id) is None else  # break16: replace refuses config games
           f"in the judge's config: change games[].seats[] of {game_id} (player, email, key_hash from "
           "`pbem key new`); the next `pbem run` logs the change (docs/host-guide.md).")
    host.notify_host(judge, game_id,
                     f"{seat} of {game_id} missed {row} decisions in a row and is in civil disorder: the judge "
                     "plays its defaults at once. Please find a new player and give them the seat:\n\n" + how,
                     "civil disorder", once=f"{seat}-{step}")


def _late(judge: Judge, game_id: str, step: int, settings: GameSettings) -> None:
    """The late notice of ``step``: to every seat, once, naming the seats whose deadline
    passed and until when their orders are still taken (the end of the grace)."""
    now = judge.clock()
    rows = [d for d in judge.store.open_deadlines(game_id)
            if d["step"] == step and d.get("late_at") is None and datetime.fromisoformat(d["due_at"]) <= now]
    if not rows:
        return
    grace = timedelta(seconds=settings.grace)
    lines = [f"  {d['seat']}: due {calendar.shown(d['due_at'], settings)},\n    orders taken until "
             f"{calendar.shown(datetime.fromisoformat(d['due_at']) + grace, settings)}" for d in rows]
    late = ", ".join(d["seat"] for d in rows)
    tell_seats(judge, game_id, f"step {step}: {late} late",
               f"The deadline of step {step} passed and the judge has no orders yet from {late}. Their orders "
               "are still taken until the end of the grace; then the default shown in the prompt is played.\n\n"
               + "\n".join(lines), f"late-{step}-{late}-{max(d['due_at'] for d in rows)}")  # moved: told again
    for d in rows:
        judge.store.mark_late(game_id, step, d["seat"], now.isoformat())


def _remind(judge: Judge, row: dict[str, Any]) -> None:
    from pbem.service.table import wrapped

    seat = next(s for s in judge.store.seats(row["game_id"]) if s["seat"] == row["seat"])
    when = shown(judge, row["game_id"], row["due_at"])
    text = build.render_notice(wrapped(
        f"Your orders for step {row['step']} are due at {when}. "
        "Without them the judge applies the default shown in your prompt."), row["game_id"])
    subject = f"[{row['game_id']}] reminder: step {row['step']} is due {when}"
    outbox.queue(judge, game_id=row["game_id"], kind="reminder", to_addr=seat["email"], to_name=seat["player"],
                 subject=subject, text=text, html=build.html_of_text(subject, text),
                 # the due time too: a moved deadline gets its reminder again (issue 25.2's class)
                 id_parts=(row["game_id"], row["step"], "reminder", row["seat"], row["due_at"]))
