"""Host commands (issue 16, slice 2), by CLI (``pbem host COMMAND GAME``) and by mail
(a document from the host's address carrying the host key)::

    game: g2
    host: <the host key printed by `pbem game new`>
    command: pause          # status | pause | resume | extend | replace | resend
    reason: a holiday       # pause, resume (optional); end, rollback
    winner: east            # end (or `abandon: true`); see pbem.service.play.endgame
    to_step: 3              # rollback
    hours: 24               # extend: how long (optional seat: east)
    player: Ann <a@x.org>   # replace, with seat: east

Each command is recorded as an event in the game's hash chain (the state unchanged, a
snapshot after it, so ``pbem verify`` and the replay hold) and answered with a receipt;
pause and resume tell every seat. While a game is paused no deadline passes (the
deadline tick skips it); resuming moves every open deadline on by the length of the
pause, each move a ``DeadlineMoved`` event. Every move (resume, extend) then keeps to
the game's allowed days and the seat's absences (:func:`pbem.service.base.calendar.adjust`).
"""
from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import yaml

from pbem import rules
from pbem.keys import hash_key, new_key
from pbem.mail.headers import clean_text, fold_address, normalise_address
from pbem.mail.message import ParsedMail
from pbem.mail.suggest import suggest
from pbem.problems import Problem
from pbem.report import build
from pbem.service.base import calendar
from pbem.service.base.context import Service
from pbem.service.base.settings import host_of, settings_of, wrapped
from pbem.service.base.text import re_subject
from pbem.service.commands import replay
from pbem.service.commands.history import history_reply
from pbem.service.identity import envelope, hostkey
from pbem.service.log import trust
from pbem.service.log.trust import log_events
from pbem.service.outgoing import answers, digests, outbox, prefs
from pbem.service.play import deadlines, endgame
from pbem.service.play.reports import prompt_again
from pbem.service.play.table import parse_seat

MAX_EXTEND_HOURS = 24 * 366
"""The longest ``extend``, in hours (a year: more would leave the calendar; break16)."""
COMMANDS = ("status", "pause", "resume", "extend", "replace", "resend", "end", "rollback")
"""The host commands built so far."""
HOST_KEYS = ("game", "host", "command", "seq")
"""The keys every host command mail may carry (a command's own keys come on top)."""
FIELDS: dict[str, dict[str, str]] = {
    "status": {},
    "pause": {"reason": "text"},
    "resume": {"reason": "text"},
    "extend": {"hours": "number", "seat": "seat"},
    "replace": {"seat": "seat", "player": "text"},
    "resend": {"seat": "seat"},
    "end": {"winner": "seat", "abandon": "flag", "reason": "text"},
    "rollback": {"to_step": "whole", "reason": "text"},
}
"""Each host command's own keys and the kind of value each takes (issue 25.7: a value of
another type — ``seat: [east]``, ``reason: [a]``, ``abandon: 'yes'`` — and a key the
command does not take are refused, never read as "every seat" or as the default)."""
_KINDS = {"text": "a text", "seat": "a seat's name, as text", "number": "a number",
          "whole": "a whole number", "flag": "true or false"}
_EXAMPLES = {"reason": "reason: a holiday", "hours": "hours: 24", "seat": "seat: east", "winner": "winner: east",
             "player": "player: Ann <ann@example.org>", "abandon": "abandon: true", "to_step": "to_step: 3"}


@dataclass(frozen=True)
class Done:
    """What a host command did: the receipt's text and the log witness after it."""

    text: str
    witness: str | None


def host_key_hash(judge: Service, game_id: str) -> str | None:
    """The host key hash of a game: the config's ``host_key_hash``, else the table's."""
    game = judge.config.game(game_id)
    if game is not None and game.host_key_hash:
        return game.host_key_hash
    row = judge.store.table_row(game_id)
    return row["host_key_hash"] if row else None


def _tell_seats(judge: Service, game_id: str, subject: str, body: str, id_part: str) -> None:
    text = build.render_notice(wrapped(body), game_id)
    for row in judge.store.seats(game_id):
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["email"], to_name=row["player"],
                     subject=f"[{game_id}] {subject}", text=text, html=build.html_of_text(subject, text),
                     id_parts=(game_id, "host", id_part, row["seat"]))


def _status(judge: Service, game_id: str) -> str:
    """The game's status for the host: each waited-on seat with its deadline in the
    game's local time and since when it is waited on, and each seat's NMR counts
    (missed decisions in all and in a row) and civil disorder (issue 16)."""
    game = judge.store.game(game_id)
    assert game is not None
    lines = [f"Game {game_id} is {game['status']} at step {game['step']}.", ""]
    waiting = judge.store.open_deadlines(game_id)
    for d in waiting:
        since = f", waited on since {deadlines.shown(judge, game_id, d['set_at'])}" if d.get("set_at") else ""
        lines.append(f"  waiting for {d['seat']} ({d['kind']}), due {deadlines.shown(judge, game_id, d['due_at'])}"
                     f"{since}")
    if not waiting:
        lines.append("  no seat is waited on.")
    recs, away = deadlines.table(judge, game_id)
    lines += ["", "NMR (missed decisions: in all, in a row):", ""]
    for row in judge.store.seats(game_id):
        rec = recs.get(row["seat"], deadlines.SeatRecord())
        note = ", in civil disorder" if rec.disorder else ""
        for a in away.get(row["seat"], []):
            note += f", away {deadlines.shown(judge, game_id, a['from'])} to {deadlines.shown(judge, game_id, a['to'])}"
        lines.append(f"  {row['seat']}: {rec.total} in all, {rec.in_a_row} in a row{note}")
    # one line per seat, kept as lines when the mail is wrapped (indented paragraphs are)
    return "\n".join(textwrap.fill(line, 72, subsequent_indent="      ") if line.startswith("  ") else line
                     for line in lines)


def _say(via: str, mail: str, cli: str) -> str:
    """``mail`` for a host command given by mail, ``cli`` for one given by ``pbem host``
    (issue 24, finding 14: the CLI answered with mail commands)."""
    return cli if via == "cli" else mail


def run(judge: Service, game_id: str, command: str, *, reason: str = "", hours: float | None = None,
        seat: str | None = None, player: str | None = None, winner: str | None = None,
        abandon: bool = False, to_step: int | None = None, via: str = "mail") -> Done:
    """Carry out host ``command`` on ``game_id`` in one transaction (see the module
    docstring). ``via`` is ``mail`` or ``cli`` (``pbem host``): the receipt and the
    refusals name what to do next in the host's own terms. Raises KeyError for an
    unknown game and ValueError, saying what to do instead, for a command that does not
    apply (resume a running game, …)."""
    store = judge.store
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    if command not in COMMANDS:
        raise ValueError(f"no host command {command!r}; the commands are {', '.join(COMMANDS)}")
    if game["status"] in trust.ENDED and command != "status":
        raise ValueError(f"game {game_id} is {game['status']}; only status works on it")
    now = judge.clock()
    reason = clean_text(reason, 500)  # it is logged and mailed to every seat: no control characters (break16)
    with store.transaction():
        if command == "status":  # an ended game's log takes no more events (break16)
            head = (trust.witness(store, game_id) if game["status"] in trust.ENDED else
                    log_events(judge, game_id, [rules.judge_event("HostActed", {"command": "status"})]))
            return Done(_status(judge, game_id), head)
        if command == "pause":
            if game["status"] == "paused":
                raise ValueError(f"game {game_id} is paused already; " + _say(
                    via, "send `command: resume` to go on", f"`pbem host resume {game_id}` goes on"))
            head = log_events(judge, game_id, [rules.judge_event("GamePaused", {"at": now.isoformat(), "reason": reason})])
            store.set_game_status(game_id, "paused")
            _tell_seats(judge, game_id, "the game is paused",
                        f"The host paused {game_id}: {reason or 'no reason given'}. No deadline passes "
                        "until the game resumes; every deadline then moves on by the length of the pause.",
                        f"pause-{now.isoformat()}")
            return Done(f"Game {game_id} is paused. " + _say(via, "Send `command: resume` to go on.",
                                                                f"`pbem host resume {game_id}` goes on."), head)
        if command == "resume":
            if game["status"] != "paused":
                raise ValueError(f"game {game_id} is not paused; nothing to resume")
            since = _paused_at(judge, game_id)
            pause = timedelta(seconds=max(0, int((now - since).total_seconds())))  # as logged
            events = [rules.judge_event("GameResumed", {"at": now.isoformat(), "reason": reason,
                                                        "paused_seconds": int(pause.total_seconds())})]
            moved: list[Moved] = []
            events += _moves(judge, game_id, pause, "pause", None, paused_at=since, moved=moved)
            head = log_events(judge, game_id, events)
            store.set_game_status(game_id, "active")
            _tell_seats(judge, game_id, "the game resumes",
                        f"The host resumed {game_id}{': ' + reason if reason else ''} after a pause of "
                        f"{_span(pause)}. Every open deadline moved on by the pause (one that started during "
                        "it by the part it was open), and past any day the game does not allow or any "
                        f"absence of its seat.{_moved_lines(judge, game_id, moved)}\n\n{_status(judge, game_id)}",
                        f"resume-{now.isoformat()}")
            return Done(f"Game {game_id} resumes after a pause of {_span(pause)}; open deadlines moved on by it."
                        f"{_moved_lines(judge, game_id, moved)}\n\n{_status(judge, game_id)}", head)
        if command == "replace":
            return _replace(judge, game_id, seat, player or "", via)
        if command == "resend":
            return _resend(judge, game_id, seat, via)
        if command in ("end", "rollback"):  # they change the position (pbem.service.play.endgame)
            text, head = (endgame.end_game(judge, game_id, winner, abandon, reason) if command == "end"
                          else endgame.rollback(judge, game_id, to_step, reason))
            return Done(text, head)
        # extend
        if isinstance(hours, bool) or not isinstance(hours, (int, float)) or not 0 < hours <= MAX_EXTEND_HOURS:
            raise ValueError(f"extend needs how long, in hours from 1 to {MAX_EXTEND_HOURS}: " + _say(
                via, "`hours: 24` (and optionally `seat: east`)", "--hours 24 (and optionally --seat east)")
                + f"; got {hours!r}")
        moved = []
        try:
            moves = _moves(judge, game_id, timedelta(hours=hours), "extend", seat, moved=moved)
        except OverflowError:
            raise ValueError(f"extending by {hours} hours would put a deadline past the year 9999; "
                             "extend by fewer hours") from None
        if not moves:
            raise ValueError(f"no open deadline{' of ' + seat if seat else ''} in {game_id} to extend")
        head = log_events(judge, game_id, moves)
        span = _span(timedelta(hours=hours))
        _tell_moved(judge, game_id, moved, f"The host extended your deadline in {game_id} by {span}", head)
        return Done(f"Extended by {span}; the seats whose deadline moved are told the new time."
                    f"{_moved_lines(judge, game_id, moved)}\n\n{_status(judge, game_id)}", head)


def _replace(judge: Service, game_id: str, seat: str | None, player: str, via: str = "mail") -> Done:
    """A new player takes ``seat`` (``player`` is ``Name <address>``): a new key, the
    ``SeatChanged`` event, the seat's preferences back to the defaults (``PreferencesSet``,
    when the old player had changed them; break16), a handover mail with the key and the
    seat's own history to the new player, a notice to the old one."""
    store = judge.store
    if judge.config.game(game_id) is not None:
        raise ValueError(f"game {game_id} comes from the config: change the seat there (`pbem run` logs the "
                         "change); replace works on games made by `pbem game new`")
    rows = {r["seat"]: r for r in store.seats(game_id)}
    if seat not in rows:
        raise ValueError(f"replace needs the seat: {_say(via, '`seat: east`', '--seat east')} (seats: "
                         f"{', '.join(rows)})")
    try:
        new = parse_seat(f"{seat}={player}")
    except ValueError:
        raise ValueError("replace needs the new player as " + _say(via, "`player: Name <address>`",
                                                                   "--player 'Name <address>'")
                         + f"; got {player!r}") from None
    address = normalise_address(new.email)
    if not address:
        raise ValueError(f"not an address: {new.email!r}; write "
                         + _say(via, "`player: Name <address>`", "--player 'Name <address>'"))
    if address == normalise_address(judge.config.judge_address or ""):
        raise ValueError(f"{address} is the judge's own address; write "
                         f"{_say(via, '`player: Name <address>`', '--player NAME <ADDRESS>')} with the "
                         "new player's address")
    taken = [s for s, r in rows.items() if s != seat and fold_address(r["email"]) == fold_address(address)]
    if taken:
        raise ValueError(f"{address} is the address of another seat of {game_id} ({taken[0]}): one seat per "
                         "address; write the new player's own address")
    old = rows[seat]
    store.close_address_changes(game_id, seat, "replaced", judge.clock().isoformat())  # the old player's
    key = new_key()
    event = rules.judge_event("SeatChanged", {"seat": seat, "changed": ["player", "address", "key"],
                                              "player": new.player})
    head = log_events(judge, game_id, [event])
    store.update_seat(game_id, seat, player=new.player, email=address, key_hash=hash_key(key))
    if prefs.of(store, game_id, seat) != dict(prefs.DEFAULTS):  # the old player's choices are not the new one's
        log_events(judge, game_id, [rules.judge_event("PreferencesSet", {"seat": seat, "prefs": dict(prefs.DEFAULTS)})])
        digests.flush_digest(judge, game_id, seat)  # what the digest held goes to the new player now
        head = trust.witness(store, game_id)
    if deadlines.returned(judge, game_id, seat, "replace"):  # a new player: out of civil disorder, NMR row ends
        head = trust.witness(store, game_id)
    _subject, history_text, _html = history_reply(store, game_id, seat, None)
    body = (f"Welcome to {game_id}, {new.player}: you take over the seat {seat} from {old['player']}.\n\n"
            f"Your seat key is:\n\n  {key}\n\nThe seat's own history so far follows; ask for any past "
            f"report with `history: N` (docs/player-guide.md). The latest prompt comes in its own mail."
            + _standing_note(judge, game_id, seat)
            + (f"\n\nLog witness: {head}" if head else ""))
    text = build.render_notice(wrapped(body) + "\n\n" + history_text, game_id)
    subject = f"[{game_id}] handover: your seat {seat}"
    outbox.queue(judge, game_id=game_id, kind="welcome", to_addr=address, to_name=new.player, subject=subject,
                 text=text, html=build.html_of_text(subject, text), id_parts=(game_id, "handover", seat, head))
    note = build.render_notice(wrapped(f"The host gave your seat {seat} in {game_id} to another player. "
                                       "Thank you for playing; your key no longer works."), game_id)
    outbox.queue(judge, game_id=game_id, kind="notice", to_addr=old["email"], to_name=old["player"],
                 subject=f"[{game_id}] your seat {seat} has a new player", text=note,
                 html=build.html_of_text("seat replaced", note), id_parts=(game_id, "replaced", seat, head))
    prompt_again(judge, game_id, seat, again=head)  # a second replace at this step mails the prompt again
    return Done(f"Seat {seat} of {game_id} is now played by {new.player}; the handover mail with the new key "
                "is queued.", head)


def _standing_note(judge: Service, game_id: str, seat: str) -> str:
    """For the handover: the seat's standing orders in force (R-9.3; the previous
    player's, which the new player inherits with the seat) and the ``seq:`` the next
    ones need, or that there are none (break16: the new player was not told)."""
    standing = list(judge.state(game_id).private.get(seat, {}).get("standing", []))
    nxt = judge.store.standing_seq(game_id, seat) + 1
    if not standing:
        return (f"\n\nThe seat has no standing orders. Yours need `seq: {nxt}` (or higher) the first time.")
    shown = yaml.safe_dump({"standing": standing}, sort_keys=False, allow_unicode=True).rstrip()
    return ("\n\nThe seat's standing orders stay in force until you send new ones (they need `seq: "
            f"{nxt}` or higher):\n\n" + "\n".join("    " + line for line in shown.splitlines()))


def _resend(judge: Service, game_id: str, seat: str | None, via: str = "mail") -> Done:
    """The pending prompt of ``seat`` (every waited-on seat when None) again."""
    state = judge.state(game_id)
    waited = [d.seat for d in rules.pending(state) if seat is None or d.seat == seat]
    if not waited:
        raise ValueError(f"{seat or 'no seat'} has no pending decision in {game_id}; "
                         + _say(via, "`command: status`", f"`pbem host status {game_id}`") + " shows who is waited on")
    data = {"command": "resend", **({"seat": seat} if seat else {})}
    head = log_events(judge, game_id, [rules.judge_event("HostActed", data)])
    for s in waited:
        prompt_again(judge, game_id, s, again=head)
    return Done(f"The prompt of {', '.join(waited)} is sent again.", head)


def _span(d: timedelta) -> str:
    return calendar.duration_text(d.total_seconds())


def _paused_at(judge: Service, game_id: str) -> datetime:
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


def _moved_lines(judge: Service, game_id: str, moved: list[Moved]) -> str:
    """The moved deadlines as lines for a notice or receipt (empty for none)."""
    if not moved:
        return ""
    return "\n\n" + "\n".join(f"  {m.seat}, step {m.step}: now due {deadlines.shown(judge, game_id, m.due)}\n"
                               f"    (was {deadlines.shown(judge, game_id, m.was)})" for m in moved)


def _tell_moved(judge: Service, game_id: str, moved: list[Moved], why: str, head: str | None) -> None:
    """Mail each seat whose deadline moved its new due time (issue 24, finding 10: the
    prompt it has shows the old one). ``why`` opens the notice."""
    rows = {r["seat"]: r for r in judge.store.seats(game_id)}
    for m in moved:
        row = rows[m.seat]
        when = deadlines.shown(judge, game_id, m.due)
        body = (f"{why}. Your orders for step {m.step} are now due {when} (was "
                f"{deadlines.shown(judge, game_id, m.was)}). The prompt you have shows the old time; this "
                "one holds, and the reminder comes again before it.")
        text = build.render_notice(wrapped(body), game_id)
        subject = f"[{game_id}] step {m.step}: your deadline moved to {when}"
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["email"], to_name=row["player"],
                     subject=subject, text=text, html=build.html_of_text(subject, text),
                     id_parts=(game_id, "deadline-moved", m.seat, m.step, m.due.isoformat(), head))


def _moves(judge: Service, game_id: str, by: timedelta, why: str, seat: str | None,
           paused_at: datetime | None = None, moved: list[Moved] | None = None) -> list[rules.Event]:
    """Move the open deadlines of the game (of ``seat`` only when given) on by ``by``,
    then off the days the game does not allow and out of the seat's absences
    (:func:`pbem.service.base.calendar.adjust`): the store updated and one ``DeadlineMoved``
    event each, and each move added to ``moved`` when given. With ``paused_at`` (a
    resume), a deadline started during the pause moves on only by the part of the pause
    it was open (break16: it got the whole pause on top)."""
    settings = settings_of(judge, game_id)
    _recs, away = deadlines.table(judge, game_id)
    out = []
    for d in judge.store.open_deadlines(game_id):
        if seat is not None and d["seat"] != seat:
            continue
        step = by
        if paused_at is not None and d.get("set_at") and datetime.fromisoformat(d["set_at"]) > paused_at:
            step = max(timedelta(0), by - (datetime.fromisoformat(d["set_at"]) - paused_at))
            step = timedelta(seconds=int(step.total_seconds()))
        was = datetime.fromisoformat(d["due_at"])
        new = calendar.adjust(was + step, settings, deadlines.spans(away.get(d["seat"], [])))
        due = new.isoformat()
        judge.store.move_deadline(game_id, d["step"], d["seat"], due)
        out.append(rules.judge_event("DeadlineMoved", {"due": due, "seat": d["seat"], "step": d["step"], "why": why}))
        if moved is not None:
            moved.append(Moved(d["seat"], d["step"], was, new))
    return out


def _signup_mail(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                 shown: Mapping[str, Any], game_id: str) -> str:
    """A host command for a game still open for sign-up (it has no log yet): the host
    with its key gets who joined so far; anything else, or anyone else, a refusal."""
    row = judge.store.signup(game_id)
    key = doc.get("host")
    if fold_address(parsed.sender or "") != fold_address(row["host_email"]) or not row["host_key_hash"] \
            or not isinstance(key, str) \
            or not judge.keys.verify(key, row["host_key_hash"]):
        issue = Problem(message="This mail is not from the host of that game with its host key, so no host "
                        "command was carried out.", where="host", code="auth.key",
                        hint="Send host commands from the host's address with the host key that "
                             "`pbem game open` printed (docs/host-guide.md).")
        return answers.reject(judge, parsed, rec, [issue], None, None, {"document": shown})
    taken = {r["seat"]: r["player"] for r in judge.store.signup_seats(game_id)}
    free = [s for s in rules.SEATS if s not in taken]
    joined = ", ".join(f"{s}: {p}" for s, p in taken.items()) or "nobody yet"
    if doc.get("command") != "status":
        issue = Problem(message=f"{game_id} is open for sign-up and has not started ({len(taken)} of "
                        f"{len(rules.SEATS)} seats taken): `command: {doc.get('command')}` works once it starts.",
                        where="command", code="host.refused",
                        hint="`command: status` shows who joined; the game starts when the last seat is taken.")
        return answers.reject(judge, parsed, rec, [issue], None, None, {"document": shown})
    rec("host", "", result={"document": shown})
    text = build.render_notice(wrapped(f"{game_id} is open for sign-up. Joined: {joined}. Free: "
                                       f"{', '.join(free)}. It starts when the last seat is taken."), game_id)
    outbox.queue(judge, game_id=None, kind="reply", to_addr=parsed.sender, to_name=parsed.sender_name or None,
                 subject=re_subject(parsed.subject), text=text, html=build.html_of_text("sign-up status", text),
                 id_parts=(game_id, "host-reply", *answers.answer_key(parsed)), in_reply_to=parsed.message_id,
                 references=parsed.references, auto="auto-replied")
    return "host"


def read_fields(doc: Mapping[str, Any]) -> tuple[str, dict[str, Any], list[Problem]]:
    """The command of a host command mail and its own values as :func:`run` takes them
    (``seat``/``winner`` stripped and lowercased), and every problem: no such command,
    a key the command does not take (with "did you mean"), a value of the wrong kind
    (:data:`FIELDS`). Reads only."""
    name = doc.get("command")
    if not isinstance(name, str) or name not in COMMANDS:
        near = suggest(str(name), COMMANDS) if isinstance(name, str) else None
        return "", {}, [Problem(message=f"There is no host command {envelope.shown_value(name)}; the commands are "
                                f"{', '.join(COMMANDS)}.", where="command", code="host.refused",
                                hint=f"did you mean `{near}`?" if near else "docs/host-guide.md lists the host commands.")]
    own = FIELDS[name]
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    allowed = [*HOST_KEYS, *own]
    for key in doc:
        if key in HOST_KEYS:
            continue
        if key not in own:
            near = suggest(str(key), list(own)) if own else None
            problems.append(Problem(message=f"Unknown key `{key}` in `command: {name}`; it takes: {', '.join(allowed)}.",
                                    where=str(key), code="envelope.unknown_key",
                                    hint=f"did you mean `{near}`?" if near else "Leave the line out "
                                                                               "(docs/host-guide.md)."))
            continue
        value, kind = doc[key], own[key]
        ok = (isinstance(value, str) if kind in ("text", "seat") else isinstance(value, bool) if kind == "flag"
              else not isinstance(value, bool) and isinstance(value, int | float) if kind == "number"
              else not isinstance(value, bool) and isinstance(value, int))
        if not ok:
            problems.append(Problem(message=f"`command: {name}` needs `{key}` as {_KINDS[kind]}, e.g. "
                                    f"`{_EXAMPLES[key]}`; found {envelope.shown_value(value)}.",
                                    where=str(key), code="host.refused",
                                    hint="A value of another kind is never read as a default or as every seat "
                                         "(docs/host-guide.md, \"Host commands\")."))
        else:
            values[key] = value.strip().lower() if kind == "seat" else value
    return name, values, problems


def handle_mail(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                shown: Mapping[str, Any]) -> str:
    """A host command by mail: the sender must be the game's host address and the
    ``host:`` value its key (the same refusal either way: no oracle; a wrong key counts
    for the host's lockout, :mod:`pbem.service.identity.hostkey`), every key of the right kind
    (:func:`read_fields`), and the mail no copy of a command applied before
    (:mod:`pbem.service.commands.replay`). Answered with the receipt or with what to do instead."""
    shown = {**shown, "host": "(hidden)"}
    game_id = doc.get("game")
    if isinstance(game_id, str) and judge.store.game(game_id) is None and judge.store.signup(game_id):
        return _signup_mail(judge, parsed, doc, rec, shown, game_id)
    known = isinstance(game_id, str) and judge.store.game(game_id) is not None
    who = hostkey.check_host(judge, parsed, doc, game_id if known else None, host_of(judge, game_id) if known else None,
                             host_key_hash(judge, game_id) if known else None,
                             hint="Send host commands from the host's address with the host key that "
                                  "`pbem game new` printed; a game of the judge's config takes them once its "
                                  "config has `host_key_hash` (docs/host-guide.md).")
    if who.problem is not None:
        return answers.reject(judge, parsed, rec, [who.problem], game_id if known else None, None,
                              {"document": shown}, reason=who.reason)
    assert isinstance(game_id, str)
    name, values, problems = read_fields(doc)
    last = judge.store.command_seq(game_id, replay.HOST)
    seq = doc.get("seq")
    if not problems and "seq" in doc:
        problems = [p for p in [envelope.sequence_problem(seq, last)] if p]
    elif not problems and name in replay.HOST_GUARDED:
        problems = [p for p in [replay.repeated(judge, game_id, replay.HOST, doc, last + 1)] if p]
    if problems:
        return answers.reject(judge, parsed, rec, problems, game_id, None, {"document": shown})
    try:
        done = run(judge, game_id, name, reason=values.get("reason", ""), hours=values.get("hours"),
                   seat=values.get("seat"), player=values.get("player"), winner=values.get("winner"),
                   abandon=values.get("abandon") is True, to_step=values.get("to_step"))
    except (ValueError, OverflowError) as exc:  # OverflowError: a deadline moved past the year 9999
        issue = Problem(message=str(exc), where="command", code="host.refused",
                        hint="docs/host-guide.md lists the host commands.")
        return answers.reject(judge, parsed, rec, [issue], game_id, None, {"document": shown})
    iid = rec("host", "", game_id=game_id, result={"document": shown})
    if name in replay.HOST_GUARDED or "seq" in doc:
        replay.record(judge, game_id, replay.HOST, doc, seq if "seq" in doc else None, iid)
    body = done.text + (f"\n\nLog witness: {done.witness}" if done.witness else "")
    text = build.render_notice(wrapped(body), game_id)
    outbox.queue(judge, game_id=game_id, kind="reply", to_addr=parsed.sender, to_name=parsed.sender_name or None,
                 subject=re_subject(parsed.subject), text=text,
                 html=build.html_of_text(f"host command {name}", text),
                 id_parts=(game_id, "host-reply", *answers.answer_key(parsed)), in_reply_to=parsed.message_id,
                 references=parsed.references, auto="auto-replied")
    return "host"
