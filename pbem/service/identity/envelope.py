"""The orders envelope and the sender's identity (docs/pipeline.md, "The orders envelope
and seat security"): game, seat, key, sender address and, for orders, the step and whose
decision it is; and, for a mail with no orders from a registered address, the
sender's own envelope to copy.

Identity rules (issue 17, findings 12 and 13):

- **no oracle**: a mail from an address that is not the seat's gets the same answer
  whatever its key; when the key was right the mail is *held* and the seat and the host
  are alerted, but the sender cannot tell;
- **wrong keys**: from the seat's own address, :data:`ALERT_AFTER` wrong keys (or mails
  from other addresses claiming the seat) within :data:`WINDOW` alert the seat and the
  host (once per window); :data:`LOCK_AFTER` wrong keys from the seat's address within
  the window lock the seat: no key is checked until the window has passed, so the key
  cannot be guessed by mail. With ``authentication`` configured only a mail that
  *proves* the seat's address counts for the lock (:func:`is_proven`: our server
  authenticated the From domain and recorded the From address as the envelope sender;
  issue 25.11), so neither a forged ``From:`` nor another user of the same mail domain
  can lock a seat; the other wrong keys are refused and alert, and on a seat with a
  slow (PBKDF2) key hash their keys stop being checked after
  :data:`FOREIGN_SLOW_CHECKS` failed claims within the window;
- **standing orders carry a sequence number** (``seq: N``, larger than the seat's
  last accepted one), so a captured mail re-sent under a new Message-ID cannot be
  replayed; orders answering a prompt carry the step, which is used once.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

import yaml

from pbem import rules
from pbem.keys import is_slow
from pbem.mail.authresults import proves_address
from pbem.mail.headers import fold_address
from pbem.mail.message import ParsedMail
from pbem.mail.suggest import suggest
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.base.settings import host_of
from pbem.service.log import trust
from pbem.service.outgoing import answers

log = logging.getLogger(__name__)

ENVELOPE_KEYS = ("game", "seat", "key", "step", "orders")
HISTORY_KEYS = ("game", "seat", "key", "history")
OPTIONAL_KEYS = ("seq", "notes", "salt")
WINDOW = timedelta(hours=1)
ALERT_AFTER = 3
LOCK_AFTER = 10
#: the largest number kept for ``step`` and ``seq`` (an SQLite INTEGER is 64-bit signed)
MAX_NUMBER = 2**63 - 1
#: the inbox reason of a wrong key in a mail that does not prove the seat's address
#: (:func:`is_proven`): refused and counted for the alert, never for the lock
UNVERIFIED_KEY = "auth.key.unverified"
#: the inbox reasons of a wrong address-change code (``confirm:``) in a mail that proves
#: its address, and in one that does not (issue 25.3: a wrong code is no wrong key, so
#: it never counts for the seat's lock; the proven ones close the request)
WRONG_CODE = "auth.code.wrong"
UNVERIFIED_CODE = "auth.code.unverified"
#: inbox reasons that count as a failed claim on a seat (the alert, and the slow-check cap)
AUTH_FAILURES = ("auth.key", "auth.sender", UNVERIFIED_KEY, WRONG_CODE, UNVERIFIED_CODE)
#: failed claims on a seat with a PBKDF2 key hash from other addresses within
#: :data:`WINDOW` after which their keys are no longer checked (break-it 2026-12-02: each
#: check costs about 50 ms, and anyone can send such mail; the answer is the same either
#: way, so only the holding of a right key from a foreign address stops)
FOREIGN_SLOW_CHECKS = 20


@dataclass(frozen=True)
class Checked:
    """What :func:`check_envelope` found: ``issues`` to tell the sender (empty: go on),
    ``held`` when another address carried the right key (status ``held``), the game and
    seat when known, the inbox ``reason`` code, and the standing-orders ``seq``."""

    issues: list[Problem] = field(default_factory=list)
    game_id: str | None = None
    seat: str | None = None
    held: bool = False
    reason: str = ""
    seq: int | None = None
    orders_checkable: bool = False
    """True when the orders may be checked by the rules even though ``issues`` is not
    empty: the mail comes from the seat's own address (its answer goes only there, so
    it tells nobody else anything), answers a decision of that seat (the current step,
    or a stale one while the game waits for the seat now: they are checked against the
    decision now, issue 24.7c), and only the key, the ``seq`` line, an unknown top-level
    key or a stale step is wrong."""


STALE_STEP = "envelope.stale_step"
"""The code of a ``step:`` older than the game's: the orders are still checked against
the seat's decision now when they fit it (issue 24.7c, :class:`pbem.service.intake.rules.Orders`)."""


def is_proven(judge: Service, parsed: ParsedMail) -> bool:
    """Whether a failed claim in ``parsed`` may count against its sender's address (the
    wrong-key lock): always without ``authentication`` configured (a forged ``From:``
    cannot be told apart; docs/pipeline.md says so), else only when our receiving
    server's results prove the mailbox — the From domain passed and the envelope sender
    it recorded (``Return-Path``) is the From address
    (:func:`pbem.mail.authresults.proves_address`; RFC 8601, RFC 7489, issue 25.11)."""
    return not judge.config.authserv_id or proves_address(parsed.authentication, parsed.sender,
                                                          parsed.envelope_sender)


def lock_count(times: Sequence[str], now: datetime) -> int:
    """How many failures lock now, or 0: ``times`` (ISO 8601, oldest first) of the
    failures that count, the latest less than :data:`WINDOW` old and at least
    :data:`LOCK_AFTER` of them within the :data:`WINDOW` before it (a window sliding
    from the latest, break-it 9g)."""
    if not times:
        return 0
    latest = datetime.fromisoformat(times[-1])
    if now - latest >= WINDOW:
        return 0
    within = [t for t in times if latest - datetime.fromisoformat(t) < WINDOW]
    return len(within) if len(within) >= LOCK_AFTER else 0


def standing_only(orders: Any) -> bool:
    """True for orders that only set standing orders (R-9.3), which any seat may send at
    any time: they answer no prompt, so neither the step nor the turn is checked."""
    return isinstance(orders, Mapping) and set(orders) <= {"standing", "step"} and "standing" in orders


@dataclass
class Claim:
    """An envelope being checked (:func:`check_envelope`): the mail, its document, the
    keys it may carry, and what the checks found so far — the shape's problems, the
    game, its seats, the seat, the key's refusal, every problem in the answer's order,
    the sequence number, the timing's problems. One value the steps share."""

    parsed: ParsedMail
    doc: Mapping[str, Any]
    keys: Sequence[str]
    shape: list[Problem] = field(default_factory=list)
    game_id: str | None = None
    seats: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    seat: str | None = None
    since: str = ""
    key: Checked | None = None
    """The refusal of a wrong key from the seat's own address (None: the key is right)."""
    issues: list[Problem] = field(default_factory=list)
    """Every problem told so far, in the answer's order."""
    seq: int | None = None
    timing: list[Problem] = field(default_factory=list)

    @property
    def row(self) -> Mapping[str, Any]:
        """The seat's stored row (only once the seat is known)."""
        assert self.seat is not None
        return self.seats[self.seat]


def _shape_step(judge: Service, c: Claim) -> Checked | None:
    """The document's keys and their types (:func:`_shape`); collects."""
    c.shape = _shape(c.doc, c.keys)
    return None


def _game_step(judge: Service, c: Claim) -> Checked | None:
    """The game exists; else stop, naming the sender's own games."""
    game_id = c.doc.get("game")
    if isinstance(game_id, str) and judge.store.game(game_id) is not None:
        c.game_id = game_id
        c.seats = {s["seat"]: s for s in judge.store.seats(game_id)}
        c.shape = _host_shape(judge, c)
        return None
    issues = list(c.shape)
    moved = judge.store.moved_game(game_id) if isinstance(game_id, str) else None
    if moved is not None:  # a finished game moved to the archive database (issue 30 item 7)
        issues.append(Problem(message=f"Game {game_id} is over ({moved['status']}) and has moved to the judge's "
                                      f"archive: it takes no more mail.", where="game", code="game.over",
                              hint="The archive mailed to every seat when the game ended holds its seed and "
                                   "whole log; the host can make it again (`pbem archive`)."))
        return Checked(issues, reason="game.over")
    mine = sorted({r["game_id"] for r in judge.store.seats_at(c.parsed.sender)}) if c.parsed.sender else []
    hint = f"Your games here: {', '.join(mine)}." if mine else "Check the game id in your prompt mail."
    if "game" in c.doc:
        shown = game_id if isinstance(game_id, str) else yaml.safe_dump(game_id, default_flow_style=True).strip()
        issues.append(Problem(message=f"There is no game {shown!r} on this judge.", where="game",
                              code="envelope.unknown_game", hint=hint, params={"game": shown}))
    return Checked(issues, reason=issues[0].code if issues else "")


def _host_shape(judge: Service, c: Claim) -> list[Problem]:
    """The shape's problems, a host's way: a mail from the host's address of the game
    (and no seat's) that lacks ``seat:`` and ``key:`` is a host command without its
    ``host:`` line, told so with where the host key is, instead of twice "start from your
    latest prompt", which a host never gets (issue 28 lang28d item 6)."""
    assert c.game_id is not None
    host = host_of(judge, c.game_id)
    sender = fold_address(c.parsed.sender or "")
    missing = [p for p in c.shape if p.code == "envelope.missing" and p.where in ("seat", "key")]
    if (not host or not sender or fold_address(host) != sender or len(missing) != 2
            or any(fold_address(str(row["email"] or "")) == sender for row in c.seats.values())):
        return c.shape
    told = Problem(message="A host command by mail needs the line `host: <your host key>` (a seat's mail has "
                           "`seat:` and `key:` instead); this mail has neither.", where="host",
                   code="envelope.missing",
                   hint="Your host key is the one `pbem game new` (or `pbem game open`) printed when the game was "
                        "made; for a game of the judge's config, the key whose hash is its `host_key_hash` "
                        "(docs/host-guide.md, \"Host commands\").", params={"why": "host"})
    return [told if p is missing[0] else p for p in c.shape if p is not missing[1]]


def _seat_step(judge: Service, c: Claim) -> Checked | None:
    """The seat is a seat of the game, named as text; else stop."""
    seat, issues = c.doc.get("seat"), list(c.shape)
    if "seat" in c.doc and not isinstance(seat, str):  # `seat: [north]` was unhashable: quarantined (break-it 9c)
        shown = yaml.safe_dump(seat, default_flow_style=True).strip()
        issues.append(Problem(message=f"`seat` must be the seat's name as text; found {shown}.", where="seat",
                              code="envelope.seat_type", hint=f"One of: {', '.join(c.seats)}."))
        return Checked(issues, c.game_id, reason=issues[0].code)
    if seat not in c.seats:
        if "seat" in c.doc:
            near = suggest(seat, c.seats, cutoff=0.6)
            issues.append(Problem(message=f"Game {c.game_id} has no seat {seat!r}; seats are {', '.join(c.seats)}.",
                                  where="seat", code="envelope.unknown_seat",
                                  hint=f"did you mean `{near}`?" if near else None))
        return Checked(issues, c.game_id, reason=issues[0].code if issues else "")
    c.seat = seat
    c.since = (judge.clock() - WINDOW).isoformat()
    return None


def _sender_step(judge: Service, c: Claim) -> Checked | None:
    """The mail comes from the seat's address; another address is told only "not
    yours" whatever its key (no oracle): the right key from it is held and the seat
    told, until :data:`FOREIGN_SLOW_CHECKS` failed claims within the window on a seat
    whose key hash is slow (then the key is not checked). Stops for another address."""
    row = c.row
    if c.parsed.sender == row["email"]:
        return None
    game_id, seat = c.game_id, c.seat
    assert game_id is not None and seat is not None
    refusal = [Problem(message=f"This address ({c.parsed.sender}) is not registered for seat {seat} of {game_id}; "
                       "a mail can only act for the seat registered at its sender address.",
                       where="seat", code="auth.sender")]
    if any(f["game_id"] == game_id and f["seat"] == seat for f in judge.store.former_seats(c.parsed.sender or "")):
        refusal = [Problem(message=f"This address ({c.parsed.sender}) no longer plays seat {seat} in {game_id}: the "
                           "seat is registered at another address now, and its old key no longer works.",
                           where="seat", code="auth.sender",
                           hint="If you still play this seat, ask the host of the game.")]
    failures = judge.store.auth_failures(game_id, seat, c.since, AUTH_FAILURES)
    checked = not (is_slow(row["key_hash"]) and failures >= FOREIGN_SLOW_CHECKS)
    if checked and _key_ok(judge, c.doc, row):
        answers.alert_seat(judge, game_id, row, c.parsed)
        return Checked(refusal, game_id, seat, held=True, reason="auth.sender")
    _maybe_alert(judge, game_id, row, failures + 1)
    return Checked(refusal, game_id, seat, reason="auth.sender")


def _lock_step(judge: Service, c: Claim) -> Checked | None:
    """The seat is not locked by wrong keys (:func:`locked_by`); a locked seat checks
    nothing (stops)."""
    assert c.game_id is not None and c.seat is not None
    wrong = locked_by(judge, c.game_id, c.row)
    if not wrong:
        return None
    return Checked([*c.shape, Problem(message=f"{wrong} mails with a wrong key for seat {c.seat} came within an "
                                      "hour, so the seat is locked: no key is checked until an hour has passed "
                                      "since the latest. The host has been told.", where="key",
                                      code="auth.locked")],
                   c.game_id, c.seat, reason="auth.locked")


def _key_step(judge: Service, c: Claim) -> Checked | None:
    """The seat key. A wrong key from the seat's own address is told with every other
    problem (issue 13) and counts for the lock only when the mail proves the address
    (:func:`is_proven`; otherwise it stops, answered like a lock); past
    :data:`FOREIGN_SLOW_CHECKS` failed claims on a slow seat, the key of a mail that does
    not prove the address is not checked (stops)."""
    game_id, seat, row = c.game_id, c.seat, c.row
    assert game_id is not None and seat is not None
    proven = is_proven(judge, c.parsed)
    if not proven and is_slow(row["key_hash"]):
        failures = judge.store.auth_failures(game_id, seat, c.since, AUTH_FAILURES)
        if failures >= FOREIGN_SLOW_CHECKS:  # anyone can send these: no more slow checks for them this hour
            return Checked([*c.shape, Problem(
                message=f"{failures} mails claimed seat {seat} within the hour that our receiving mail server did not "
                        "prove to come from the seat's address, so the key of such a mail is not checked until an "
                        "hour has passed. Mail the server proves to be the seat's own is checked as usual. The seat "
                        "and the host have been told.", where="key", code="auth.locked",
                hint="Send from your own mail account (its provider's server), not through a forwarder or list.")],
                game_id, seat, reason=UNVERIFIED_KEY)
    if _key_ok(judge, c.doc, row):
        if judge.store.clear_bouncing(game_id, seat):  # the player reads mail there again
            log.info("[%s] seat %s wrote with its key from %s: no longer marked bouncing", game_id, seat,
                     c.parsed.sender)
        c.issues = list(c.shape)
        return None
    wrong_key = _wrong_key(judge, game_id, row, c.doc, c.since)
    # a mail that does not prove the seat's address (a forged From:, another user of the same
    # mail domain) is refused and alerts, but never locks the seat (break-it 9g, issue 25.11)
    c.key = wrong_key if proven else replace(wrong_key, reason=UNVERIFIED_KEY)
    if c.key.reason != "auth.key":  # not proven: nothing else is checked
        return replace(c.key, issues=c.shape + c.key.issues)
    c.issues = c.key.issues + c.shape  # from the seat's own address every problem is told (issue 13)
    return None


def _sequence_step(judge: Service, c: Claim) -> Checked | None:
    """The standing-orders sequence number (:func:`_sequence`); collects."""
    assert c.game_id is not None and c.seat is not None
    c.seq, problems = _sequence(judge, c.doc, c.game_id, c.seat)
    c.issues += problems
    return None


def _salt_step(judge: Service, c: Claim) -> Checked | None:
    """The orders' salt (:func:`pbem.service.log.trust.salt_problem`); collects."""
    salt = trust.salt_problem(c.doc)
    if salt is not None:
        c.issues.append(salt)
    return None


def _ended_step(judge: Service, c: Claim) -> Checked | None:
    """Orders to an ended game, or from a seat that conceded (issue 29): stops."""
    status = (judge.store.game(c.game_id) or {}).get("status") if c.game_id else None
    if "step" in c.keys and c.game_id and status not in trust.ENDED and any(
            d.get("seat") == c.seat for _k, d in judge.store.events_of_kinds(c.game_id, ("SeatConceded",))):
        return Checked([*c.issues, Problem(message=f"Seat {c.seat} conceded in {c.game_id}: it takes no more "
                                                   "decisions, so it takes no more orders.",
                                           where="seat", code="vote.conceded",
                                           hint="Its decisions play their defaults (docs/rules.md, \"Votes and "
                                                "concession\"); `command: status` still answers.")],
                       c.game_id, c.seat, reason="vote.conceded", seq=c.seq)
    if "step" not in c.keys or status not in trust.ENDED:
        return None
    return Checked([*c.issues, Problem(message=f"Game {c.game_id} is {status}: it takes no more orders.",
                                       where="game", code="game.over",
                                       hint="`command: archive` mails the game's archive: the seed and the whole "
                                            "log.")],
                   c.game_id, c.seat, reason="game.over", seq=c.seq)


def _step_step(judge: Service, c: Claim) -> Checked | None:
    """Orders answering a prompt: the step and whose decision it is
    (:func:`_step_and_turn`; standing orders alone answer no prompt); collects."""
    assert c.game_id is not None and c.seat is not None
    if "step" in c.keys and not standing_only(c.doc.get("orders")):
        c.timing = _step_and_turn(judge, c.game_id, c.seat, c.doc)
    c.issues += c.timing
    return None


def finish(c: Claim) -> Checked:
    """What the steps found when none stopped: every problem, the reason (the first
    problem's code), the sequence number (when the key was right) and whether the
    orders may still be checked: also with a stale ``step:`` alone (issue 24.7c: the
    seat's decision now is the one they are checked against, and the answer says so)."""
    stale = bool(c.timing) and all(i.code == STALE_STEP for i in c.timing)
    checkable = (not c.timing or stale) and isinstance(c.doc.get("orders"), Mapping) and not any(
        i.code == "envelope.missing" and i.where in ("orders", "step") for i in c.issues)
    return Checked(c.issues, c.game_id, c.seat, reason=c.issues[0].code if c.issues else "",
                   seq=c.seq if c.key is None else None, orders_checkable=checkable)


Step = Callable[[Service, Claim], "Checked | None"]
STEPS: tuple[tuple[str, Step], ...] = (
    ("keys", _shape_step), ("game", _game_step), ("seat", _seat_step), ("sender", _sender_step),
    ("lock", _lock_step), ("key", _key_step), ("sequence", _sequence_step), ("salt", _salt_step),
    ("ended", _ended_step), ("step", _step_step),
)
"""The envelope's checks, in order, each deciding one thing: a :class:`Checked` stops
(the answer), None goes on (problems may have been collected in the :class:`Claim`).
The order carries the no-oracle rules: another address is refused before its key is
looked at, a locked seat checks no key. The intake chain runs them as its rules
(:mod:`pbem.service.intake.rules`); :func:`check_envelope` runs them for commands and
history requests."""


def check_envelope(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any],
                   keys: Sequence[str] = ENVELOPE_KEYS) -> Checked:
    """Check game, seat, sender, key, the standing-orders sequence and (for orders) the
    step and the turn: :data:`STEPS` in order, the first that stops, else
    :func:`finish`. See the module docstring for the identity rules."""
    claim = Claim(parsed, doc, keys)
    for _name, step in STEPS:
        stopped = step(judge, claim)
        if stopped is not None:
            return stopped
    return finish(claim)


def locked_by(judge: Service, game_id: str, row: Mapping[str, Any]) -> int:
    """How many wrong keys lock the seat now, or 0 (:func:`lock_count` over the wrong
    keys from the seat's own address). Only the seat's own address counts: mails from
    other addresses never lock it, nor, when ``authentication`` is configured, wrong
    keys in mail that does not prove the address (:func:`is_proven`)."""
    now = judge.clock()
    return lock_count(judge.store.auth_failure_times(game_id, row["seat"], (now - 2 * WINDOW).isoformat(),
                                                     ("auth.key",), row["email"]), now)


def _wrong_key(judge: Service, game_id: str, row: Mapping[str, Any], doc: Mapping[str, Any], since: str) -> Checked:
    """The refusal of a wrong key from the seat's own address (alerting the seat and the
    host at :data:`ALERT_AFTER` failed claims within the window)."""
    seat = row["seat"]
    _maybe_alert(judge, game_id, row, judge.store.auth_failures(game_id, seat, since, AUTH_FAILURES) + 1)
    placeholder = str(doc.get("key", "")).strip().upper() == "YOUR-SEAT-KEY"
    return Checked([Problem(message="The `key:` line still holds the placeholder YOUR-SEAT-KEY." if placeholder
                          else f"The key for seat {seat} is wrong.", where="key", code="auth.key",
                          hint="Replace it with your seat key, from the host or your welcome mail (it is case-sensitive).",
                          params={"why": "placeholder"} if placeholder else None)],
                   game_id, seat, reason="auth.key")


def is_seat_mail(judge: Service, parsed: ParsedMail) -> bool:
    """True when ``parsed`` proves to be a seat's own mail: an orders document naming a
    game and seat of this judge, sent from that seat's registered address with the
    seat's right key. Such a mail is never dropped as machine mail (issue 13): an
    auto-reply cannot carry a key the judge never sends."""
    doc = parsed.document
    if not isinstance(doc, Mapping) or not isinstance(doc.get("game"), str) or not parsed.sender:
        return False
    if judge.store.game(doc["game"]) is None:
        return False
    row = next((r for r in judge.store.seats(doc["game"]) if r["seat"] == doc.get("seat")), None)
    return row is not None and row["email"] == parsed.sender and _key_ok(judge, doc, row)


def _key_ok(judge: Service, doc: Mapping[str, Any], row: Mapping[str, Any]) -> bool:
    """The key of ``doc`` matches the seat's hash (through the judge's verified-key
    cache, :class:`pbem.keys.KeyCache`)."""
    key = doc.get("key")
    return judge.keys.verify(key, row["key_hash"]) if isinstance(key, str) else False


def _maybe_alert(judge: Service, game_id: str, row: Mapping[str, Any], failures: int) -> None:
    """At :data:`ALERT_AFTER` failed claims on the seat within the window, alert the
    seat and the host (once per window: the alert's Message-ID names the hour)."""
    if failures != ALERT_AFTER:
        return
    answers.alert_wrong_keys(judge, game_id, row, failures, bucket=judge.clock().strftime("%Y%m%d%H"))


def _sequence(judge: Service, doc: Mapping[str, Any], game_id: str, seat: str) -> tuple[int | None, list[Problem]]:
    """The seat's sequence number: required for standing orders alone, checked whenever
    given (a command may carry one too, issue 25.8); it must exceed the seat's last
    accepted one (finding 12)."""
    last = judge.store.standing_seq(game_id, seat)
    seq = doc.get("seq")
    if seq is None:
        if standing_only(doc.get("orders")):
            return None, [Problem(message="Standing orders need a `seq:` line: a number larger than the one of your "
                                "previous standing orders, so that an old mail cannot be sent again in your name.",
                                where="seq", code="envelope.missing",
                                hint=f"Use `seq: {last + 1}` (one more than your last) and send again.")]
        return None, []
    problem = sequence_problem(seq, last)
    return (None, [problem]) if problem else (seq, [])


def sequence_problem(seq: Any, last: int) -> Problem | None:
    """The problem with a ``seq:`` value when ``last`` is the largest one accepted so
    far (of a seat: standing orders and commands; of a game's host: its commands), or
    None when ``seq`` is a whole number above ``last`` that SQLite can keep."""
    hint = f"Use `seq: {last + 1}` (one more than your last) and send again."
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        return Problem(message=f"`seq` must be a whole number from 1; found {shown_value(seq)}.", where="seq",
                       code="envelope.seq_type", hint=hint)
    if seq > MAX_NUMBER:  # SQLite keeps 64-bit integers; a larger one raised OverflowError (break-it 9c)
        return Problem(message=f"`seq: {shown_value(seq)}` is too large: at most {MAX_NUMBER}.", where="seq",
                       code="envelope.out_of_range", hint=hint)
    if seq <= last:
        return Problem(message=f"`seq: {seq}` was used already: the last mail taken with a `seq:` line had seq "
                       f"{last}. A mail is taken once; an old mail sent again is refused.", where="seq",
                       code="envelope.stale_seq", hint=hint)
    return None


def shown_value(value: Any, limit: int = 60) -> str:
    """A value from the mail as the reply shows it: its repr, cut at ``limit`` characters
    (a 10,000-digit number is not echoed whole)."""
    try:
        text = repr(value)
    except ValueError:  # an int of more digits than Python converts (sys.int_info)
        return "a number of very many digits"
    return text if len(text) <= limit else text[:limit] + "…"


def _shape(doc: Mapping[str, Any], keys: Sequence[str]) -> list[Problem]:
    """Missing and unknown top-level keys."""
    issues: list[Problem] = []
    for key in keys:
        if key == "step" and standing_only(doc.get("orders")):
            continue  # standing orders may come at any time, with or without a step
        if key not in doc:
            issues.append(Problem(message=f"The orders block has no `{key}:` line.", where=key, code="envelope.missing",
                                hint="Start from the YAML template in your last prompt mail."))
    allowed = [*keys, *OPTIONAL_KEYS]
    for k in doc:
        if k not in allowed:
            near = suggest(str(k), allowed)
            hint = f"did you mean `{near}`?" if near else None
            if k == "command" and "orders" in doc:  # issue 24 N6: a command and orders in one mail
                issues.append(_command_and_orders(doc))
                continue
            if k == "command":  # issue 24 N6: a command written into an orders block
                hint = (f"a command goes in a mail of its own, without `orders:` and `step:`: game, seat, key and "
                        f"`command: {shown_value(doc[k])}`, in any order (`command: help` lists the commands)")
            issues.append(Problem(message=f"Unknown top-level key `{k}`; allowed: {', '.join(allowed)}.",
                                where=str(k), code="envelope.unknown_key", hint=hint))
    return issues


def _command_and_orders(doc: Mapping[str, Any]) -> Problem:
    """Issue 24 N6: a document with both ``command:`` and ``orders:`` is refused naming
    both, neither carried out (the judge does one of them per mail, and guessing which
    the player meant would silently drop the other): ``envelope.command_and_orders``,
    with how to send each."""
    name = doc["command"] if isinstance(doc["command"], str) else shown_value(doc["command"])
    return Problem(message=f"This mail holds both `command: {name}` and `orders:`; the judge does one "
                           "of them per mail, so it did neither.",
                   where="command", code="envelope.command_and_orders",
                   hint=f"For the orders, delete the `command:` line and send again. For the command, "
                        f"send a mail of its own with game, seat, key and `command: {name}`, "
                        "without `orders:` and `step:`.",
                   params={"command": name})


def _step_and_turn(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> list[Problem]:
    """The step answers the latest prompt, it is the seat's decision, orders a mapping."""
    issues: list[Problem] = []
    state = judge.state(game_id)
    step = doc.get("step")
    if not isinstance(step, int) or isinstance(step, bool):
        issues.append(Problem(message=f"`step` must be a whole number; found {shown_value(step)}.", where="step",
                            code="envelope.step_type"))
    elif not -MAX_NUMBER <= step <= MAX_NUMBER:
        issues.append(Problem(message=f"`step: {shown_value(step)}` is out of range: the game is at step {state.step}.",
                            where="step", code="envelope.out_of_range",
                            hint="Copy the step number from your latest prompt."))
    elif step < state.step:
        issues.append(Problem(message=f"Step {step} is stale: the game is at step {state.step}. Orders answer "
                            "the latest prompt only.", where="step", code=STALE_STEP,
                            hint=f"Check your latest prompt; if it is yours, use step: {state.step}.",
                            params={"step": step, "now": state.step}))
    elif step > state.step:
        issues.append(Problem(message=f"Step {step} has not happened yet: the game is at step {state.step}.",
                            where="step", code="envelope.future_step",
                            hint="Copy the step number from your latest prompt.", params={"step": step, "now": state.step}))
    waiting = {d.seat for d in rules.pending(state)}
    if seat not in waiting:
        who = ", ".join(sorted(waiting)) or "nobody (the game is over)"
        issues.append(Problem(message=f"It is not your decision now: the game waits for {who}.", where="seat",
                            code="envelope.not_your_turn",
                            hint="Wait for your prompt mail. Until then you may send standing orders "
                                 "(orders: {standing: [...]} and a `seq:` line, as the end of your prompt explains), "
                                 "which need no step."))
    if not isinstance(doc.get("orders"), Mapping):
        issues.append(Problem(message="`orders:` must be a block of keys (tyche:, movement:, …).", where="orders",
                            code="envelope.orders_type"))
    return issues


def your_block(judge: Service, sender: str | None) -> str | None:
    """For a mail with no orders from a registered address: the envelope to copy for
    each game the address plays (game, seat, the step now, a key placeholder) and
    whose decision the game waits for; None for unknown senders."""
    if not sender:
        return None
    parts: list[str] = []
    for row in judge.store.seats_at(sender):
        game = judge.store.game(row["game_id"])
        if game is None or game.get("status") in trust.ENDED:
            continue
        state = judge.state(row["game_id"])
        waiting = sorted({d.seat for d in rules.pending(state)})
        mine = row["seat"] in waiting
        head = (f"You play seat {row['seat']} in game {row['game_id']}, now at step {state.step}: "
                + ("it is your decision now. Start your orders with these lines (the pre-filled "
                   "orders are in your latest prompt mail):" if mine else
                   f"the game waits for {', '.join(waiting)}. Until your prompt comes you may "
                   "send standing orders (the end of your prompt explains them), like this:"))
        seq = f"    seq: {judge.store.standing_seq(row['game_id'], row['seat']) + 1}\n"
        body = ("    orders:\n      ..." if mine else
                seq + "    orders:\n      standing:\n        - {when: losses, order: [mercenary, loyal]}")
        parts.append(head + f"\n    game: {row['game_id']}\n    seat: {row['seat']}\n"
                     f"    key: YOUR-SEAT-KEY\n" + (f"    step: {state.step}\n" if mine else "") + body)
    return "\n".join(parts) or None
