"""The intake chain (issue 26.3; docs/pipeline.md, "The intake chain"): one table of the
rules a mail meets, in order (:data:`CHAIN`), and one table of what each outcome does
(:data:`HANDLERS`) — Mailman 3's ``chains/builtin.py`` and its pipelines of handlers,
in one process and in the transaction that records the mail (a separate queue would
break "applied in the transaction that records it").

The chain stops at the first rule that returns a verdict; rules that only collect
problems let it go on, and at its end the mail is rejected with every problem found, or
accepted (``decided_by`` ``accept``) and its orders applied.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from pbem.i18n import N_
from pbem.service.base.context import Service
from pbem.service.base.text import safe_text
from pbem.service.intake.rules import (
    ENVELOPE_STEPS,
    Authentication,
    Envelope,
    Machine,
    Mail,
    Orders,
    Outcome,
    Person,
    Request,
    Rule,
    Shape,
    Verdict,
)
from pbem.service.log import trust
from pbem.service.outgoing import answers, host_notices
from pbem.service.play import adjudicate

log = logging.getLogger(__name__)

CHAIN: tuple[Rule, ...] = (
    Person(),
    Machine("loop", ("loop",), "our own mail come back is ignored"),
    Machine("bounce", ("bounce",), "a delivery report is ignored (and believed only about a mail we sent)"),
    Machine("auto_reply", ("auto-reply",), "an auto-reply is ignored"),
    Machine("unreadable", ("empty", "unreadable-sender"), "an empty mail, or one whose sender cannot be read, "
                                                           "is ignored"),
    Shape(),
    Authentication(),
    Request(),
    *ENVELOPE_STEPS,
    Envelope(),
    Orders(),
)
"""Every rule, in the order a mail meets them."""
ACCEPT = "accept"
"""``decided_by`` of a mail no rule stopped and no rule found a problem in."""

Handler = Callable[[Service, Mail, Verdict], "str | None"]


def _record_ignored(service: Service, mail: Mail, verdict: Verdict) -> None:
    mail.inbox_id = mail.record(service, "ignored", mail.parsed.ignore_reason or "")


def _believe_bounces(service: Service, mail: Mail, verdict: Verdict) -> None:
    """Mark an address bouncing when a delivery report names a mail we sent there."""
    parsed = mail.parsed
    for address in parsed.bouncing:
        if not service.store.sent_to(address, parsed.returned_ids):
            # anyone can write a DSN: believe it only about a mail we sent to that
            # address, named by its returned Message-ID (break-it 9h)
            log.warning("a delivery report about %s names no mail we sent there (%s); not believed",
                        safe_text(address, 100), safe_text(" ".join(parsed.returned_ids), 300) or "no Message-ID")
            continue
        host_notices.bounced(service, address, lambda tr: tr.gettext("a delivery report came back for it"))


def _record_refusal(service: Service, mail: Mail, verdict: Verdict) -> None:
    """The inbox row of a mail not applied: ``rejected`` or ``held``, every problem, the
    game and seat when the envelope named them."""
    status = "held" if verdict.outcome is Outcome.HOLD else "rejected"
    checked, problems = mail.checked, mail.problems
    if checked is None:
        mail.inbox_id = mail.record(service, status, problems[0].code if problems else "", result=mail.result)
        return
    result = {"document": mail.shown, **({"orders": mail.orders} if mail.orders is not None else {}),
              "problems": [i.to_dict() for i in problems]}
    step = {"step": mail.state.step} if mail.state is not None else {}
    mail.inbox_id = mail.record(service, status, checked.reason or problems[0].code, game_id=checked.game_id,
                                seat=checked.seat, result=result, **step)


def _answer_problems(service: Service, mail: Mail, verdict: Verdict) -> None:
    """Every problem in one answer (rate-limited, :func:`pbem.service.outgoing.answers.reply`;
    urgent when it is a real refusal to a seat, :func:`concerns_a_decision`)."""
    checked = mail.checked
    answers.reply(service, mail.parsed, mail.problems, checked.game_id if checked else None,
                  orders_text=mail.parsed.orders_text if checked else None, note=mail.note, inbox_id=mail.inbox_id,
                  urgent=concerns_a_decision(service, mail, verdict))


def concerns_a_decision(service: Service, mail: Mail, verdict: Verdict) -> bool:
    """Whether the refusal of ``mail`` is a real one to a seat (issue 24 B/N2): orders
    refused (a wrong key included, not held) that name a seat of a game and come from
    that seat's registered address (:func:`pbem.service.outgoing.answers.from_the_seat`).
    Its answer goes at once past the hourly limit on answers, one in 5 minutes
    (docs/pipeline.md "Machine mail and loops"); a mail from anyone else keeps the limit."""
    checked = mail.checked
    if verdict.outcome is not Outcome.REJECT or checked is None or checked.held:
        return False
    return answers.from_the_seat(service, checked.game_id, checked.seat, mail.parsed.sender)


def _previous_orders(service: Service, mail: Mail, verdict: Verdict) -> None:
    checked, state = mail.checked, mail.state
    assert checked is not None and checked.game_id and checked.seat and state is not None
    mail.previous = adjudicate.previous_orders(service, checked.game_id, checked.seat, state.step)


def _record_applied(service: Service, mail: Mail, verdict: Verdict) -> None:
    checked, state = mail.checked, mail.state
    assert checked is not None and state is not None
    mail.inbox_id = mail.record(service, "applied", "", game_id=checked.game_id, seat=checked.seat, step=state.step,
                                result={"document": mail.shown, "orders": mail.orders,
                                        **({"seq": checked.seq} if checked.seq else {})})


def _standing_sequence(service: Service, mail: Mail, verdict: Verdict) -> None:
    checked = mail.checked
    assert checked is not None and checked.game_id and checked.seat
    if checked.seq:
        service.store.set_standing_seq(checked.game_id, checked.seat, checked.seq)


def _apply_orders(service: Service, mail: Mail, verdict: Verdict) -> None:
    checked, state = mail.checked, mail.state
    assert checked is not None and checked.game_id and checked.seat and state is not None
    adjudicate.apply_orders(service, checked.game_id, state, checked.seat, mail.orders, inbox_id=mail.inbox_id,
                            parsed=mail.parsed, previous=mail.previous, salt=trust.salt_text(mail.document),
                            partly=mail.partly)


def _dispatch(service: Service, mail: Mail, verdict: Verdict) -> str:
    assert verdict.dispatch is not None
    return verdict.dispatch(service, mail.parsed, mail.document, mail.recorder(service), mail.shown)


HANDLERS: Mapping[Outcome, tuple[Handler, ...]] = {
    Outcome.APPLY: (_previous_orders, _record_applied, _standing_sequence, _apply_orders),
    Outcome.REJECT: (_record_refusal, _answer_problems),
    Outcome.HOLD: (_record_refusal, _answer_problems),
    Outcome.IGNORE: (_record_ignored, _believe_bounces),
    Outcome.DISPATCH: (_dispatch,),
}
"""What each outcome does, in order."""
STATUS: Mapping[Outcome, str] = {Outcome.APPLY: "applied", Outcome.REJECT: "rejected", Outcome.HOLD: "held",
                                 Outcome.IGNORE: "ignored"}
"""The inbox status of each outcome (a dispatch returns its own)."""


def decide(service: Service, mail: Mail) -> Verdict:
    """Run ``mail`` through :data:`CHAIN`: the first verdict, else reject with the
    problems collected or accept. Sets :attr:`Mail.decided_by`."""
    for rule in CHAIN:
        verdict = rule.check(service, mail)
        if verdict is not None:
            mail.decided_by = rule.name
            return verdict
    if mail.problems:  # the envelope's and the orders', in one answer
        mail.decided_by = mail.found_by[0]
        if "orders" not in mail.found_by and mail.note is None:
            mail.note = (N_("The orders themselves were checked and have no other problem."), {})
        return Verdict(Outcome.REJECT)
    mail.decided_by = ACCEPT
    return Verdict(Outcome.APPLY)


def process(service: Service, mail: Mail) -> str:
    """Decide ``mail`` and run its outcome's handlers; return the inbox status. Call
    inside the transaction that records the mail."""
    verdict = decide(service, mail)
    status = STATUS.get(verdict.outcome, "")
    for handler in HANDLERS[verdict.outcome]:
        status = handler(service, mail, verdict) or status
    return status
