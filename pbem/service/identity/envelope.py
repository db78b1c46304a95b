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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

import yaml

from pbem import rules
from pbem.keys import is_slow
from pbem.mail.authresults import proves_address
from pbem.mail.message import ParsedMail
from pbem.mail.suggest import suggest
from pbem.problems import Problem
from pbem.service.base.context import Service
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
    it tells nobody else anything), answers the current step of a decision of that seat,
    and only the key, the ``seq`` line or an unknown top-level key is wrong."""


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


def check_envelope(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any],
                   keys: Sequence[str] = ENVELOPE_KEYS) -> Checked:
    """Check game, seat, sender, key, the standing-orders sequence and (for orders) the
    step and the turn. See the module docstring for the identity rules."""
    issues = _shape(doc, keys)
    game_id = doc.get("game")
    if not isinstance(game_id, str) or judge.store.game(game_id) is None:
        mine = sorted({r["game_id"] for r in judge.store.seats_at(parsed.sender)}) if parsed.sender else []
        hint = f"Your games here: {', '.join(mine)}." if mine else "Check the game id in your prompt mail."
        if "game" in doc:
            shown = game_id if isinstance(game_id, str) else yaml.safe_dump(game_id, default_flow_style=True).strip()
            issues.append(Problem(message=f"There is no game {shown!r} on this judge.", where="game",
                                code="envelope.unknown_game", hint=hint))
        return Checked(issues, reason=issues[0].code if issues else "")
    seats = {s["seat"]: s for s in judge.store.seats(game_id)}
    seat = doc.get("seat")
    if "seat" in doc and not isinstance(seat, str):  # `seat: [north]` was unhashable: quarantined (break-it 9c)
        shown = yaml.safe_dump(seat, default_flow_style=True).strip()
        issues.append(Problem(message=f"`seat` must be the seat's name as text; found {shown}.", where="seat",
                              code="envelope.seat_type", hint=f"One of: {', '.join(seats)}."))
        return Checked(issues, game_id, reason=issues[0].code)
    if seat not in seats:
        if "seat" in doc:
            near = suggest(seat, seats, cutoff=0.6)
            issues.append(Problem(message=f"Game {game_id} has no seat {seat!r}; seats are {', '.join(seats)}.",
                                where="seat", code="envelope.unknown_seat",
                                hint=f"did you mean `{near}`?" if near else None))
        return Checked(issues, game_id, reason=issues[0].code if issues else "")
    identity = _identity(judge, parsed, doc, game_id, seats[seat])
    if identity is not None and identity.reason != "auth.key":
        # another address is told only "not yours" (no oracle); a locked seat checks nothing
        return identity if identity.reason == "auth.sender" else \
            replace(identity, issues=issues + identity.issues)
    if identity is None and judge.store.clear_bouncing(game_id, seat):  # the player reads mail there again
        log.info("[%s] seat %s wrote with its key from %s: no longer marked bouncing", game_id, seat, parsed.sender)
    # from the seat's own address every problem is told, a wrong key among them (issue 13)
    issues = (identity.issues if identity else []) + issues
    seq, seq_issues = _sequence(judge, doc, game_id, seat)
    issues += seq_issues
    timing: list[Problem] = []
    salt = trust.salt_problem(doc)
    if salt is not None:
        issues.append(salt)
    status = (judge.store.game(game_id) or {}).get("status")
    if "step" in keys and status in trust.ENDED:
        issues.append(Problem(message=f"Game {game_id} is {status}: it takes no more orders.", where="game",
                              code="game.over",
                              hint="`command: archive` mails the game's archive: the seed and the whole log."))
        return Checked(issues, game_id, seat, reason="game.over", seq=seq)
    if "step" in keys and not standing_only(doc.get("orders")):
        timing = _step_and_turn(judge, game_id, seat, doc)
    issues += timing
    checkable = not timing and isinstance(doc.get("orders"), Mapping) and not any(
        i.code == "envelope.missing" and i.where in ("orders", "step") for i in issues)
    return Checked(issues, game_id, seat, reason=issues[0].code if issues else "",
                   seq=seq if identity is None else None, orders_checkable=checkable)


def _identity(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], game_id: str,
              row: Mapping[str, Any]) -> Checked | None:
    """Sender and key; None when both are right. The answer to a foreign address does
    not depend on the key (no oracle); a right key from one is held and the seat told,
    until :data:`FOREIGN_SLOW_CHECKS` failed claims within the window on a seat whose
    key hash is slow (then the key is not checked). From the seat's own address, a
    wrong key counts for the lock only when the mail proves the address
    (:func:`is_proven`); past :data:`FOREIGN_SLOW_CHECKS` failed claims on a slow
    seat, the key of a mail that does not prove it is not checked either."""
    seat = row["seat"]
    since = (judge.clock() - WINDOW).isoformat()
    if parsed.sender != row["email"]:
        refusal = [Problem(message=f"This address ({parsed.sender}) is not registered for seat {seat} of {game_id}; "
                         "a mail can only act for the seat registered at its sender address.",
                         where="seat", code="auth.sender")]
        failures = judge.store.auth_failures(game_id, seat, since, AUTH_FAILURES)
        checked = not (is_slow(row["key_hash"]) and failures >= FOREIGN_SLOW_CHECKS)
        if checked and _key_ok(judge, doc, row):
            answers.alert_seat(judge, game_id, row, parsed)
            return Checked(refusal, game_id, seat, held=True, reason="auth.sender")
        _maybe_alert(judge, game_id, row, failures + 1)
        return Checked(refusal, game_id, seat, reason="auth.sender")
    wrong = locked_by(judge, game_id, row)
    if wrong:
        return Checked([Problem(message=f"{wrong} mails with a wrong key for seat {seat} came within an hour, so the "
                              "seat is locked: no key is checked until an hour has passed since the latest. "
                              "The host has been told.", where="key", code="auth.locked")],
                       game_id, seat, reason="auth.locked")
    proven = is_proven(judge, parsed)
    if not proven and is_slow(row["key_hash"]):
        failures = judge.store.auth_failures(game_id, seat, since, AUTH_FAILURES)
        if failures >= FOREIGN_SLOW_CHECKS:  # anyone can send these: no more slow checks for them this hour
            return Checked([Problem(
                message=f"{failures} mails claimed seat {seat} within the hour that our receiving mail server did not "
                        "prove to come from the seat's address, so the key of such a mail is not checked until an "
                        "hour has passed. Mail the server proves to be the seat's own is checked as usual. The seat "
                        "and the host have been told.", where="key", code="auth.locked",
                hint="Send from your own mail account (its provider's server), not through a forwarder or list.")],
                game_id, seat, reason=UNVERIFIED_KEY)
    if _key_ok(judge, doc, row):
        return None
    wrong_key = _wrong_key(judge, game_id, row, doc, since)
    # a mail that does not prove the seat's address (a forged From:, another user of the same
    # mail domain) is refused and alerts, but never locks the seat (break-it 9g, issue 25.11)
    return wrong_key if proven else replace(wrong_key, reason=UNVERIFIED_KEY)


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
                          hint="Replace it with your seat key, from the host or your welcome mail (it is case-sensitive).")],
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
            issues.append(Problem(message=f"Unknown top-level key `{k}`; allowed: {', '.join(allowed)}.",
                                where=str(k), code="envelope.unknown_key",
                                hint=f"did you mean `{near}`?" if near else None))
    return issues


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
                            "the latest prompt only.", where="step", code="envelope.stale_step",
                            hint=f"Check your latest prompt; if it is yours, use step: {state.step}."))
    elif step > state.step:
        issues.append(Problem(message=f"Step {step} has not happened yet: the game is at step {state.step}.",
                            where="step", code="envelope.future_step",
                            hint="Copy the step number from your latest prompt."))
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
