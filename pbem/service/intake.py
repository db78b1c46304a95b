"""Intake: one raw message from the mailbox to its inbox row and its outcome, in one
transaction (ARCHITECTURE.md, "Exactly once").

The message is parsed (:func:`pbem.mail.message.parse_mail`), triaged (machine mail is
stored and never answered; unreadable mail is answered with every problem), its
envelope and sender checked (:mod:`pbem.service.envelope`), its orders validated by the
rules core and applied (:mod:`pbem.service.adjudicate`).
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pbem import rules
from pbem.mail.message import ParsedMail, parse_mail
from pbem.service import adjudicate, answers, envelope, history, host, ratelimit
from pbem.service.issue import Issue, mask_key

if TYPE_CHECKING:
    from pbem.service.judge import Judge

log = logging.getLogger(__name__)


def handle_message(judge: Judge, raw: bytes, uidvalidity: int | None = None, uid: int | None = None,
                   folder: str = "INBOX") -> str:
    """Process one raw message; return its status (applied, rejected, ignored, held,
    answered, duplicate, error). Commits before returning; never raises for bad input."""
    # Loops are recognised by our From address and our X-Pbem-Loop header; not by the
    # Message-ID domain, which players on the same domain as the judge share.
    parsed = parse_mail(raw, own_addresses=[judge.config.judge_address])
    store = judge.store
    if store.inbox_by_message_id(parsed.message_id) is not None:
        return "duplicate"
    try:
        with store.transaction():
            return _triage(judge, parsed, raw, uidvalidity, uid, folder)
    except Exception as exc:
        log.exception("internal error on %s", parsed.message_id)
        with store.transaction():
            store.record_inbox(message_id=parsed.message_id, raw=raw, uidvalidity=uidvalidity,
                               uid=uid, folder=folder, sender=parsed.sender,
                               subject=parsed.subject, status="error",
                               reason=f"{type(exc).__name__}: {exc}")
            answers.reply(judge, parsed, [Issue("The judge hit an internal error reading this mail. It is "
                                                "kept and the host has been told; nothing in the game changed.",
                                                code="internal")], None)
        return "error"


def _triage(judge: Judge, parsed: ParsedMail, raw: bytes, uidvalidity: int | None, uid: int | None,
            folder: str) -> str:
    def rec(status: str, reason: str = "", **kw: Any) -> int:
        return judge.store.record_inbox(message_id=parsed.message_id, raw=raw, uidvalidity=uidvalidity, uid=uid,
                                        folder=folder, sender=parsed.sender, subject=parsed.subject,
                                        status=status, reason=reason, **kw)

    if parsed.action == "ignore":
        rec("ignored", parsed.ignore_reason or "")
        for address in parsed.bouncing:
            for game_id, seat in judge.store.mark_bouncing(address):
                host.notify_host(judge, game_id, f"Mail to seat {seat} ({address}) bounced: the address is "
                                 "marked as bouncing. Ask the player for a working address and "
                                 "update the config.", kind="bounce")
        return "ignored"
    if parsed.action == "reject":
        issues = [Issue(p.message, line=p.line, hint=p.hint, code=p.code) for p in parsed.problems]
        mine = envelope.your_block(judge, parsed.sender)
        if mine:  # the sender's own envelope instead of the generic example
            issues = [replace(i, hint=mine) if i.code == "mail.no_orders" else i for i in issues]
        iid = rec("rejected", issues[0].code if issues else "", result=[i.as_dict() for i in issues])
        if not answers.reply(judge, parsed, issues, None):
            ratelimit.suppressed(judge, iid, parsed.sender)
        return "rejected"
    return _orders(judge, parsed, rec)


def _orders(judge: Judge, parsed: ParsedMail, rec: answers.Recorder) -> str:
    """A mail with an orders document: history request, or orders to check and apply."""
    doc = parsed.document or {}
    shown = mask_key(doc)
    if "history" in doc:
        return history.handle_request(judge, parsed, doc, rec, shown)
    issues, game_id, seat = envelope.check_envelope(judge, parsed, doc)
    if issues == "held":
        rec("held", "sender not registered for the seat", game_id=game_id, seat=seat, result={"document": shown})
        return "held"
    if issues:
        return answers.reject(judge, parsed, rec, issues, game_id, seat, {"document": shown})
    assert game_id is not None and seat is not None
    state = judge.state(game_id)
    orders = doc["orders"]
    rejections = rules.validate(state, seat, orders)
    if rejections:
        issues = [Issue(r.message, where=r.where, rule=r.rule, hint=r.hint, code=r.code) for r in rejections]
        return answers.reject(judge, parsed, rec, issues, game_id, seat, {"document": shown, "orders": orders},
                              step=state.step)
    previous = adjudicate.previous_orders(judge, game_id, seat, state.step)
    inbox_id = rec("applied", "", game_id=game_id, seat=seat, step=state.step,
                   result={"document": shown, "orders": orders})
    adjudicate.apply_orders(judge, game_id, state, seat, orders, inbox_id=inbox_id, parsed=parsed, previous=previous)
    return "applied"
