"""Deadlines that come due (docs/pipeline.md, "Deadlines"): the reminder before a
deadline, the late notice at it, and the decision's default applied when the grace
ends (R-9.3 for reaction windows), with the NMR count and civil disorder (issue 16).
The due times themselves are :mod:`pbem.service.play.deadlines`'."""
from __future__ import annotations

import gettext
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from pbem import i18n, rules
from pbem.gamesettings import GameSettings
from pbem.report import build
from pbem.service.base import calendar
from pbem.service.base.context import RetryLater, Service, is_transient
from pbem.service.base.settings import bot_seats, settings_of, wrapped
from pbem.service.base.text import safe_text
from pbem.service.log import trust
from pbem.service.outgoing import host_notices, outbox, seat_preferences, webhooks
from pbem.service.play import adjudicate, bots, substitutes
from pbem.service.play.deadlines import (
    SeatRecord,
    log_table,
    reminder,
    shown,
    table,
    tell_seats,
)

log = logging.getLogger(__name__)


def tick(judge: Service) -> int:
    """Send reminders and late notices and apply deadline defaults that are due;
    return how many decisions were decided by default. Each deadline is its own
    transaction and its own guard: one that raises is logged, reported to the hosts
    (once) and left open, and the others go on. Raises RetryLater on a transient
    database failure."""
    done = 0
    for row in judge.store.due_deadlines(_utc(judge.clock())):
        try:
            done += _one(judge, row)
        except Exception as exc:
            if is_transient(exc):
                raise RetryLater("deadlines", exc) from exc
            log.exception("deadline %s step %s %s failed", row["game_id"], row["step"], row["seat"])
            with judge.store.transaction():
                values = {"seat": row["seat"], "step": row["step"], "game": row["game_id"], "due": row["due_at"],
                          "error": f"{type(exc).__name__}: {safe_text(str(exc), 300)}"}
                host_notices.report_fault(judge, f"deadline {row['game_id']} {row['step']} {row['seat']}",
                                          lambda tr: tr.gettext("a deadline could not be applied"),
                                          lambda tr, v=values: tr.gettext(
                                              "The deadline of seat %(seat)s at step %(step)s of %(game)s (due "
                                              "%(due)s) raised %(error)s. It stays open and is tried again every "
                                              "cycle; the game waits.") % v)
    return done


def _one(judge: Service, row: dict[str, Any]) -> int:
    """Remind, give the late notice of, or decide one open deadline; 1 when its
    default was applied."""
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
    if game["status"] == "paused":  # no deadline passes in a pause; resuming moves them (commands/host/resume.py)
        return 0
    settings = settings_of(judge, game_id)
    if seat in bot_seats(judge, game_id):  # the bot plays it (pbem.service.play.bots.play_due): no reminder, no default
        return 0
    if now < due:  # a seat in civil disorder is due when its deadline starts: no reminder
        remind_at = due - reminder(judge.config, row["kind"], settings)
        with store.transaction():
            if row["reminded_at"] is None and now >= remind_at:
                _remind(judge, row)
                store.mark_reminded(game_id, row["step"], seat, now.isoformat())
            # nothing more to do before the reminder, or (reminded) before the deadline
            store.sleep_deadline(game_id, row["step"], seat,
                                 _utc(remind_at if row["reminded_at"] is None and now < remind_at else due))
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
                if _missed(judge, game_id, seat, state.step, rec, settings) and settings.civil_disorder == "bot":
                    bots.seat_bot(judge, game_id, seat, "civil_disorder")  # the bot plays this decision, not its default
                    return 0
                adjudicate.apply_orders(judge, game_id, state, seat, decision.default, inbox_id=None,
                                        parsed=None, by_deadline=True)
                return 1
    elif row.get("late_at") is None:
        with store.transaction():
            _late(judge, game_id, row["step"], settings)
    return 0


def _utc(when: datetime) -> str:
    """``when`` as ISO 8601 UTC to the second, rounded down (the form ``wake_at`` is
    compared in: waking a moment early is harmless, late is not)."""
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def _missed(judge: Service, game_id: str, seat: str, step: int, rec: SeatRecord, settings: GameSettings) -> bool:
    """Log ``DecisionMissed`` and, at ``nmr_limit`` in a row, ``CivilDisorderDeclared``
    with the notices to every seat and to the host. True when the seat fell into civil
    disorder now."""
    row, total = rec.in_a_row + 1, rec.total + 1
    events = [rules.judge_event("DecisionMissed", {"seat": seat, "step": step, "missed": row, "total": total})]
    falls = bool(settings.nmr_limit) and row >= settings.nmr_limit and not rec.disorder
    if falls:
        events.append(rules.judge_event("CivilDisorderDeclared", {"seat": seat, "missed": row}))
    log_table(judge, game_id, events)
    if not falls:
        return False
    by_bot = settings.civil_disorder == "bot"
    values = {"seat": seat, "row": row, "game": game_id, "bot": bots.player_name(settings)}
    tell_seats(judge, game_id, lambda tr: tr.gettext("%(seat)s falls into civil disorder") % values,
               lambda tr: (tr.ngettext(
                   "%(seat)s sent no orders for %(row)d decision in a row, the limit of %(game)s, and falls into "
                   "civil disorder: from now on the game's bot (%(bot)s) plays its decisions, this one first.",
                   "%(seat)s sent no orders for %(row)d decisions in a row, the limit of %(game)s, and falls into "
                   "civil disorder: from now on the game's bot (%(bot)s) plays its decisions, this one first.", row)
                   if by_bot else tr.ngettext(
                   "%(seat)s sent no orders for %(row)d decision in a row, the limit of %(game)s, and falls into "
                   "civil disorder: from now on its decisions are decided by their default at once.",
                   "%(seat)s sent no orders for %(row)d decisions in a row, the limit of %(game)s, and falls into "
                   "civil disorder: from now on its decisions are decided by their default at once.", row)) % values
               + " " + tr.gettext("It leaves civil disorder when its player sends valid orders again or the host "
                                  "gives the seat to a new player."),
               f"disorder-{seat}-{step}")
    configured = judge.config.game(game_id) is not None  # break16: replace refuses config games
    offered = substitutes.offer(judge, game_id, seat, "civil_disorder")  # issue 29: the standby list first
    auto = settings.substitutes == "auto"

    def to_host(tr: gettext.NullTranslations) -> str:
        head = (tr.ngettext("%(seat)s of %(game)s missed %(row)d decision in a row and is in civil disorder: the "
                            "game's bot plays it.", "%(seat)s of %(game)s missed %(row)d decisions in a row and is "
                            "in civil disorder: the game's bot plays it.", row) if by_bot else
                tr.ngettext("%(seat)s of %(game)s missed %(row)d decision in a row and is in civil disorder: the "
                            "judge plays its defaults at once.", "%(seat)s of %(game)s missed %(row)d decisions in "
                            "a row and is in civil disorder: the judge plays its defaults at once.", row)) % values
        how = (tr.gettext("in the judge's config: change games[].seats[] of %(game)s (player, email, key_hash from "
                          "`pbem key new`); the next `pbem run` logs the change (docs/host-guide.md).") % values
               if configured else
               f"  pbem host replace {game_id} --seat {seat} --player 'Name <address>'\n\n" + tr.gettext(
                   "or by mail `command: replace` with `seat:` and `player:` (docs/host-guide.md)."))
        if offered:
            ask = (tr.ngettext("The seat is offered to the %(n)d address on the standby list (docs/host-guide.md, "
                               "Substitutes);", "The seat is offered to the %(n)d addresses on the standby list "
                               "(docs/host-guide.md, Substitutes);", offered) % {"n": offered} + " "
                   + (tr.gettext("the first to accept takes it and you are told.") if auto else
                      tr.gettext("you approve the first who accepts."))
                   + " " + tr.gettext("Or find a new player yourself and give them the seat:"))
        else:
            ask = tr.gettext("Please find a new player and give them the seat:")
        return head + " " + ask + "\n\n" + how

    host_notices.notify_host(judge, game_id, to_host, "civil disorder", once=f"{seat}-{step}")
    return True


def _late(judge: Service, game_id: str, step: int, settings: GameSettings) -> None:
    """The late notice of ``step``: to every seat, once, naming the seats whose deadline
    passed and until when their orders are still taken (the end of the grace)."""
    now = judge.clock()
    played = bot_seats(judge, game_id)  # the bot plays those at once: never late
    rows = [d for d in judge.store.open_deadlines(game_id)
            if d["step"] == step and d.get("late_at") is None and datetime.fromisoformat(d["due_at"]) <= now
            and d["seat"] not in played]
    if not rows:
        return
    grace = timedelta(seconds=settings.grace)
    late = ", ".join(d["seat"] for d in rows)

    def body(tr: gettext.NullTranslations) -> str:
        language = i18n.language_of(tr)
        lines = ["  " + tr.gettext("%(seat)s: due %(due)s,") % {
            "seat": d["seat"], "due": calendar.shown(d["due_at"], settings, language)} + "\n    " + tr.gettext(
            "orders taken until %(until)s") % {
            "until": calendar.shown(datetime.fromisoformat(d["due_at"]) + grace, settings, language)} for d in rows]
        return tr.gettext("The deadline of step %(step)s passed and the judge has no orders yet from %(late)s. "
                          "Their orders are still taken until the end of the grace; then the default shown in "
                          "the prompt is played.") % {"step": step, "late": late} + "\n\n" + "\n".join(lines)

    tell_seats(judge, game_id, lambda tr: tr.gettext("%(late)s late") % {"late": late}, body,
               f"late-{step}-{late}-{max(d['due_at'] for d in rows)}", head=f"step {step}: ")  # moved: told again
    for d in rows:
        judge.store.mark_late(game_id, step, d["seat"], now.isoformat())


def _remind(judge: Service, row: dict[str, Any]) -> None:
    seat = next(s for s in judge.store.seats(row["game_id"]) if s["seat"] == row["seat"])
    tr = seat_preferences.translations(judge.store, row["game_id"], row["seat"])  # the seat's language (issue 28)
    when = shown(judge, row["game_id"], row["due_at"], tr)
    names = {"step": row["step"], "when": when}
    text = build.render_notice(wrapped(tr.gettext(
        "Your orders for step %(step)s are due at %(when)s. "
        "Without them the judge applies the default shown in your prompt.") % names), row["game_id"], tr)
    subject = f"[{row['game_id']}] " + tr.gettext("reminder: step %(step)s is due %(when)s") % names
    outbox.queue(judge, game_id=row["game_id"], kind="reminder", to_addr=seat["email"], to_name=seat["player"],
                 subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                 # the due time too: a moved deadline gets its reminder again (issue 25.2's class)
                 id_parts=(row["game_id"], row["step"], "reminder", row["seat"], row["due_at"]))
    if seat["email"]:  # a seat the bot plays is told nothing (pbem.service.outgoing.outbox.queue)
        webhooks.queue_notice(judge, row["game_id"], row["step"], row["seat"], row["kind"], row["due_at"], "reminder")
