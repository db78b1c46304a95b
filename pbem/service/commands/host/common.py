"""What the host commands share (docs/host-guide.md, "Host commands"): the notice to
every seat, the status text, the moves of open deadlines and the notices about them."""
from __future__ import annotations

import gettext
import re
import textwrap
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem import i18n, rules
from pbem.i18n import Localizable, localize
from pbem.report import build
from pbem.service.base import calendar
from pbem.service.base.context import Service
from pbem.service.base.settings import bot_seats, settings_of, wrapped
from pbem.service.outgoing import outbox, seat_preferences
from pbem.service.play import deadlines, votes


def say(via: str, mail: str, cli: str) -> str:
    """``mail`` for a host command given by mail, ``cli`` for one given by ``pbem host``
    (issue 24, finding 14: the CLI answered with mail commands)."""
    return cli if via == "cli" else mail


def tell_seats(judge: Service, game_id: str, subject: Localizable, body: Localizable, id_part: str,
               head: str = "") -> None:
    """Queue a table notice (wrapped, text and HTML) to every seat of ``game_id``, each
    in its seat's language (issue 28): ``subject`` and ``body`` are texts or functions
    of a translations object (:data:`pbem.i18n.Localizable`), written once per seat;
    ``head`` goes before the subject untranslated (``step 5: ``, the part mail filters
    match)."""
    for row in judge.store.seats(game_id):
        tr = seat_preferences.translations(judge.store, game_id, row["seat"])
        text = build.render_notice(wrapped(localize(body, tr)), game_id, tr)
        title = head + localize(subject, tr)
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["email"], to_name=row["player"],
                     subject=f"[{game_id}] {title}", text=text,
                     html=build.html_of_text(title, text, i18n.language_of(tr)),
                     id_parts=(game_id, "host", id_part, row["seat"]))


STATUS_WORDS = {"active": i18n.N_("active"), "paused": i18n.N_("paused"), "over": i18n.N_("over"),
                "abandoned": i18n.N_("abandoned"), "signup": i18n.N_("open for sign-up")}
"""A game's status in words (the translations' source); another reads as it is."""


def status_text(judge: Service, game_id: str, tr: gettext.NullTranslations | None = None) -> str:
    """The game's status for the host: each waited-on seat with its deadline in the
    game's local time and since when it is waited on, and each seat's NMR counts
    (missed decisions in all and in a row), civil disorder (issue 16) and whether a bot
    plays it (docs/bots.md), and the seats' open proposals with how many votes are in
    (issue 29) and the seats offered to the standby list; in the language of ``tr``
    (None: English)."""
    _ = i18n.gettext_of(tr)
    game = judge.store.game(game_id)
    assert game is not None
    when = lambda at: deadlines.shown(judge, game_id, at, tr)  # noqa: E731
    status = game["status"]
    lines = [_("Game %(game)s is %(status)s at step %(step)s.") % {
        "game": game_id, "status": _(STATUS_WORDS[status]) if status in STATUS_WORDS else status,
        "step": game["step"]}, ""]
    waiting = judge.store.open_deadlines(game_id)
    for d in waiting:
        values = {"seat": d["seat"], "kind": build.decision_text(d["kind"], tr), "due": when(d["due_at"]),
                  "since": when(d["set_at"]) if d.get("set_at") else ""}
        lines.append("  " + (_("waiting for %(seat)s (%(kind)s), due %(due)s, waited on since %(since)s")
                             if d.get("set_at") else _("waiting for %(seat)s (%(kind)s), due %(due)s")) % values)
    if not waiting:
        lines.append("  " + _("no seat is waited on."))
    recs, away = deadlines.table(judge, game_id)
    played = bot_seats(judge, game_id)
    lines += ["", _("NMR (missed decisions: in all, in a row):"), ""]
    for row in judge.store.seats(game_id):
        rec = recs.get(row["seat"], deadlines.SeatRecord())
        note = ", " + _("in civil disorder") if rec.disorder else ""
        if row["seat"] in played:
            note += ", " + _("played by the bot %(bot)s") % {"bot": played[row["seat"]].bot}
        for a in away.get(row["seat"], []):
            note += ", " + _("away %(start)s to %(end)s") % {"start": when(a["from"]), "end": when(a["to"])}
        lines.append("  " + _("%(seat)s: %(total)s in all, %(row)s in a row") % {
            "seat": row["seat"], "total": rec.total, "row": rec.in_a_row} + note)
    opened = votes.open_proposals(judge, game_id) if game["status"] in ("active", "paused") else []
    if opened:  # the seats' proposals (issue 29): how many votes are in, never whose
        voters = votes.voters(judge, game_id)
        lines += ["", _("Open proposals of the seats:"), ""]
        lines += ["  " + _("%(number)s: %(seat)s proposes %(what)s: %(count)s") % {
            "number": p.number, "seat": p.seat, "what": p.words(tr), "count": votes.count_text(p, voters, tr)}
            for p in opened]
    offers = [o for o in judge.store.seat_offers(game_id) if o["status"] in ("open", "asked")]
    if offers:  # issue 29: the seats offered to the standby list
        lines += ["", _("Offered to the standby list (docs/host-guide.md, Substitutes):"), ""]
        lines += [f"  {o['seat']}: " + (_("%(name)s <%(address)s> asks for it: approve with `command: approve`, "
                                          "`seat: %(seat)s`") % {"name": o["asker_name"], "address": o["asker_email"],
                                                                 "seat": o["seat"]}
                                        if o["status"] == "asked"
                                        else _("open since %(when)s") % {"when": when(o["offered_at"])})
                  for o in offers]
    # one line per seat, kept as lines when the mail is wrapped (indented paragraphs are)
    return "\n".join(textwrap.fill(line, 72, subsequent_indent="      ") if line.startswith("  ") else line
                     for line in lines)


def one_stop(text: str) -> str:
    """``text`` with a sentence's full stop that follows an abbreviation's merged into
    it, as Russian writes it: a span of days is ``1 дн.``, so "на 1 дн.." read with two
    stops (issue 28, try28e); an ellipsis ``...`` is left alone."""
    return re.sub(r"(?<=\w)\.\.(?!\.)", ".", text)


def span(d: timedelta, tr: gettext.NullTranslations | None = None) -> str:
    """A duration as the notices show it (``1 h 05 min``), in the language of ``tr``
    (None: English)."""
    return calendar.duration_text(d.total_seconds(), tr)


def paused_at(judge: Service, game_id: str) -> datetime:
    """When the game was paused last (its latest ``GamePaused``)."""
    last = [e for e in judge.store.events(game_id) if e.kind == "GamePaused"][-1]
    return datetime.fromisoformat(last.data["at"])


@dataclass(frozen=True)
class Moved:
    """One open deadline a host command moved: the seat, the step, the due times before
    and after (aware UTC)."""

    seat: str
    step: int
    was: datetime
    due: datetime


def moved_lines(judge: Service, game_id: str, moved: list[Moved], tr: gettext.NullTranslations | None = None
                ) -> str:
    """The moved deadlines as lines for a notice or receipt (empty for none), in the
    language of ``tr`` (None: English)."""
    if not moved:
        return ""
    _ = i18n.gettext_of(tr)
    settings = settings_of(judge, game_id)
    language = i18n.language_of(tr) if tr is not None else i18n.DEFAULT
    pairs = [(m, calendar.shown_apart(m.due, m.was, settings, language)) for m in moved]
    return "\n\n" + "\n".join("  " + _("%(seat)s, step %(step)s: now due %(due)s") % {
        "seat": m.seat, "step": m.step, "due": due} + "\n    " + _("(was %(was)s)") % {"was": was}
        for m, (due, was) in pairs)


def tell_moved(judge: Service, game_id: str, moved: list[Moved], why: Localizable, head: str | None) -> None:
    """Mail each seat whose deadline moved its new due time (issue 24, finding 10: the
    prompt it has shows the old one), in its language (issue 28). ``why`` opens the
    notice (a sentence without its full stop, :data:`pbem.i18n.Localizable`)."""
    rows = {r["seat"]: r for r in judge.store.seats(game_id)}
    for m in moved:
        row = rows[m.seat]
        tr = seat_preferences.translations(judge.store, game_id, m.seat)
        _ = tr.gettext
        when = deadlines.shown(judge, game_id, m.due, tr)
        due, was = calendar.shown_apart(m.due, m.was, settings_of(judge, game_id), i18n.language_of(tr))
        body = one_stop(f"{localize(why, tr)}. ") + _(
            "Your orders for step %(step)s are now due %(due)s (was %(was)s). The prompt you have shows the old "
            "time; this one holds, and the reminder comes again before it.") % {"step": m.step, "due": due,
                                                                                 "was": was}
        text = build.render_notice(wrapped(body), game_id, tr)
        subject = f"[{game_id}] step {m.step}: " + _("your deadline moved to %(when)s") % {"when": when}
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["email"], to_name=row["player"],
                     subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                     id_parts=(game_id, "deadline-moved", m.seat, m.step, m.due.isoformat(), head))


def moves(judge: Service, game_id: str, by: timedelta, why: str, seat: str | None,
           paused_at: datetime | None = None, moved: list[Moved] | None = None) -> list[rules.Event]:
    """Move the open deadlines of the game (of ``seat`` only when given) on by ``by``
    as a length is read (:func:`pbem.service.base.calendar.shift`: whole days keep the
    local time across a daylight-saving change, issue 25), then off the days the game
    does not allow and out of the seat's absences (:func:`pbem.service.base.calendar.adjust`):
    the store updated and one ``DeadlineMoved`` event each, and each move added to
    ``moved`` when given. With ``paused_at`` (a resume, ``by`` the pause on the local
    clock), a deadline started during the pause moves on only by the part of the pause
    it was open (break16: it got the whole pause on top). Raises OverflowError past the
    year 9999."""
    settings = settings_of(judge, game_id)
    _recs, away = deadlines.table(judge, game_id)
    out = []
    for d in judge.store.open_deadlines(game_id):
        if seat is not None and d["seat"] != seat:
            continue
        step = by
        if paused_at is not None and d.get("set_at") and datetime.fromisoformat(d["set_at"]) > paused_at:
            opened = calendar.wall_span(paused_at, datetime.fromisoformat(d["set_at"]), settings.zone)
            step = max(timedelta(0), by - opened)
            step = timedelta(seconds=int(step.total_seconds()))
        was = datetime.fromisoformat(d["due_at"])
        new = calendar.adjust(calendar.shift(was, step, settings), settings, deadlines.spans(away.get(d["seat"], [])))
        due = new.isoformat()
        judge.store.move_deadline(game_id, d["step"], d["seat"], due)
        out.append(rules.judge_event("DeadlineMoved", {"due": due, "seat": d["seat"], "step": d["step"], "why": why}))
        if moved is not None:
            moved.append(Moved(d["seat"], d["step"], was, new))
    return out
