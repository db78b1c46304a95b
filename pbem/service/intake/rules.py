"""The intake rules (issue 26.3; docs/pipeline.md, "The intake chain"): small components
that each decide one thing about a mail and return a :class:`Verdict`, or nothing —
Mailman 3's rules (``src/mailman/rules/``: a name, a description, a check), typed.

A rule reads and may add to the one typed per-message state, :class:`Mail` (never an
untyped dict). A rule that only collects problems (the envelope's that leave the orders
checkable, the orders' own) adds them to :attr:`Mail.problems` and returns None, so the
chain goes on and the sender gets every problem in one answer; the chain's end decides
on them (:mod:`pbem.service.intake.chain`). No rule raises to steer the chain: a rule
that raises is a bug in it, and the intake's guard quarantines the mail.

Which rule decided is written in the inbox row (``inbox.decided_by``).
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from pbem import i18n
from pbem import rules as game_rules
from pbem.i18n import N_
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.report import build
from pbem.service.base.settings import wrapped
from pbem.service.base.text import mask_key, re_subject
from pbem.service.commands import host_commands, seat_commands, standby
from pbem.service.commands.catalogue import REGISTRY
from pbem.service.identity import authres, envelope
from pbem.service.identity.envelope import Checked, Claim, Step
from pbem.service.log import trust
from pbem.service.outgoing import answers, ratelimit, seat_preferences

log = logging.getLogger(__name__)


class Outcome(StrEnum):
    """What a verdict leads to (the chain's handler lists, :data:`pbem.service.intake.chain.HANDLERS`)."""

    APPLY = "apply"
    """Orders applied: the inbox row ``applied``, the events, the reports."""
    REJECT = "reject"
    """Not applied: the inbox row ``rejected`` and every problem answered."""
    HOLD = "hold"
    """The right key from another address: ``held``, answered as a wrong key (no oracle)."""
    IGNORE = "ignore"
    """Machine mail (loops, bounces, auto-replies, empty): stored, never answered."""
    DISPATCH = "dispatch"
    """A command or a request (:mod:`pbem.service.commands.registry`): its own
    dispatch answers it and returns the status."""


Dispatch = Callable[[Service, ParsedMail, Mapping[str, Any], Callable[..., int], Mapping[str, Any]], str]


@dataclass(frozen=True)
class Verdict:
    """A rule's decision: the outcome, and for :attr:`Outcome.DISPATCH` the dispatch."""

    outcome: Outcome
    dispatch: Dispatch | None = None


@dataclass
class Mail:
    """One mail on its way through the chain: the parsed message (a rule may read it
    as a person's, :class:`Person`), the raw bytes and where they came from, and what
    the rules found so far."""

    parsed: ParsedMail
    raw: bytes
    uidvalidity: int | None
    uid: int | None
    folder: str
    problems: list[Problem] = field(default_factory=list)
    """Problems collected by rules that do not stop the chain, in the order found."""
    found_by: list[str] = field(default_factory=list)
    """The names of the rules that collected problems, in order."""
    claim: Claim | None = None
    """The envelope as its checks go (:class:`EnvelopeStep`)."""
    checked: Checked | None = None
    """The envelope's findings (:class:`EnvelopeStep`, :class:`Envelope`)."""
    state: game_rules.GameState | None = None
    orders: Any = None
    """The orders as the log will hold them (JSON form), once the envelope passed."""
    decided_by: str = ""
    """The rule whose verdict the chain followed; written in the inbox row."""
    result: Any = None
    """The inbox row's ``result`` when the deciding rule sets it (rules before the
    envelope: the problems alone)."""
    note: answers.Note | None = None
    """A line after the problems in the answer (a text, or a message and its values,
    translated for the sender, :data:`pbem.service.outgoing.answers.Note`)."""
    previous: Mapping[str, Any] | None = None
    """The seat's orders applied before at this step (the receipt's "what changed"; never a
    refused mail's, issue 24 E)."""
    inbox_id: int | None = None
    """The inbox row, once recorded."""
    partly: list[str] = field(default_factory=list)
    """What the check of legal orders left to the dice before a part (the receipt's
    "checked up to what the Unrest roll decides" lines, issue 24.1)."""

    @property
    def document(self) -> Mapping[str, Any]:
        """The mail's orders document (empty when it has none)."""
        return self.parsed.document or {}

    @property
    def shown(self) -> dict[str, Any]:
        """The document as stored and echoed: the seat key hidden."""
        return mask_key(self.document)

    def record(self, service: Service, status: str, reason: str = "", **fields: Any) -> int:
        """Insert the mail's inbox row (``status``, ``reason``, and ``game_id``, ``seat``,
        ``step``, ``result`` in ``fields``) with :attr:`decided_by`; return its id."""
        return service.store.record_inbox(
            message_id=self.parsed.message_id, raw=self.raw, uidvalidity=self.uidvalidity, uid=self.uid,
            folder=self.folder, sender=self.parsed.sender, subject=self.parsed.subject, status=status, reason=reason,
            at=service.clock().isoformat(), decided_by=self.decided_by, **fields)

    def recorder(self, service: Service) -> Callable[..., int]:
        """:meth:`record` bound to ``service`` (the shape the answers and the commands take)."""
        return lambda status, reason="", **fields: self.record(service, status, reason, **fields)


class Rule(Protocol):
    """One intake rule: its name (written in the inbox row when it decides), what it
    checks, and the check."""

    name: str
    description: str

    def check(self, service: Service, mail: Mail) -> Verdict | None:
        """The verdict on ``mail``, or None: no decision (problems may have been added)."""


@dataclass(frozen=True)
class Person:
    """A mail with strong machine signals (an auto-reply header) that carries the seat's
    orders and key from the seat's own address is a person's: read it as one. Decides
    nothing."""

    name: str = "person"
    description: str = "a seat's own orders despite an auto-reply header are read as the player's"

    def check(self, service: Service, mail: Mail) -> Verdict | None:
        parsed = mail.parsed
        if parsed.action == "ignore" and parsed.as_person is not None and envelope.is_seat_mail(service,
                                                                                                  parsed.as_person):
            log.warning("a mail from %s with %s holds the seat's orders and key: read as the player's",
                        parsed.sender, parsed.ignore_detail)
            mail.parsed = parsed.as_person
        elif parsed.machine is not None and parsed.action != "ignore":
            log.info("a mail from %s with %s holds orders: read as a person's", parsed.sender, parsed.machine.detail)
        return None


@dataclass(frozen=True)
class Machine:
    """Machine mail of one kind (``reason``: ``loop`` — our own mail back; ``bounce`` —
    a delivery report; ``auto-reply``; ``empty`` or ``unreadable-sender``): ignored."""

    name: str
    reasons: tuple[str, ...]
    description: str

    def check(self, service: Service, mail: Mail) -> Verdict | None:
        if mail.parsed.action == "ignore" and (mail.parsed.ignore_reason or "") in self.reasons:
            return Verdict(Outcome.IGNORE)
        return None


@dataclass(frozen=True)
class Shape:
    """A person's mail whose orders block cannot be read (none, two, bad YAML, quoted
    only, …; :func:`pbem.mail.message.parse_mail`): rejected with every problem."""

    name: str = "shape"
    description: str = "the mail holds one readable orders document"

    def check(self, service: Service, mail: Mail) -> Verdict | None:
        if mail.parsed.action == "ignore":  # a kind no Machine rule names: still never answered
            return Verdict(Outcome.IGNORE)
        if mail.parsed.action == "reject":
            issues = list(mail.parsed.problems)
            mine = envelope.your_block(service, mail.parsed.sender)
            if mine:  # the sender's own envelope instead of the generic example
                issues = [replace(i, hint=mine) if i.code == "mail.no_orders" else i for i in issues]
            mail.problems.extend(issues)
            mail.result = [i.to_dict() for i in issues]
            return Verdict(Outcome.REJECT)
        return None


@dataclass(frozen=True)
class Authentication:
    """Our receiving server's Authentication-Results refuse the sender
    (:func:`pbem.service.identity.authres.refusal`; RFC 8601)."""

    name: str = "authentication"
    description: str = "the receiving server's Authentication-Results do not refuse the sender"

    def check(self, service: Service, mail: Mail) -> Verdict | None:
        refused = authres.refusal(service.config, mail.parsed)
        if refused is None:
            return None
        mail.problems.append(refused)
        mail.result = {"problems": [refused.to_dict()]}
        return Verdict(Outcome.REJECT)


def _is_host_command(doc: Mapping[str, Any]) -> bool:
    """Whether ``doc`` names a host command (a host who left out the ``host:`` line is
    told about the host key, not about a missing seat; break16)."""
    name = doc.get("command")
    return REGISTRY.host(name) is not None and REGISTRY.seat(name) is None  # resend is both


@dataclass(frozen=True)
class Request:
    """A document that is no orders: a history request, a command any address may send
    (``observe``, ``leave``, ``record``; ``help`` without a seat or key), a host
    command, a join, a seat command or an address confirmation, each dispatched through
    the command registry (:mod:`pbem.service.commands.catalogue`)."""

    name: str = "request"
    description: str = "a history request, a command or a join goes to the command registry"

    def check(self, service: Service, mail: Mail) -> Verdict | None:
        doc = mail.document
        if "history" in doc:
            return Verdict(Outcome.DISPATCH, REGISTRY.request("history").process)
        opened = REGISTRY.open_command(doc.get("command")) if "orders" not in doc and "host" not in doc else None
        if opened is not None and (opened.name != "help" or ("seat" not in doc and "key" not in doc)):
            return Verdict(Outcome.DISPATCH, opened.process)  # any address, no seat key (issue 29)
        if "command" in doc and ("host" in doc or (_is_host_command(doc) and "seat" not in doc
                                                   and "key" not in doc)):
            return Verdict(Outcome.DISPATCH, host_commands.handle_mail)
        if doc.get("command") in standby.NAMES and "orders" not in doc:  # substitutes (issue 29)
            return Verdict(Outcome.DISPATCH, REGISTRY.request(doc["command"]).process)
        if "join" in doc and "orders" not in doc:  # sign-up to an open game (issue 16)
            return Verdict(Outcome.DISPATCH, REGISTRY.request("join").process)
        if ("command" in doc or "confirm" in doc) and "orders" not in doc:  # confirm: an address change
            return Verdict(Outcome.DISPATCH, seat_commands.handle_mail)
        return None


@dataclass(frozen=True)
class EnvelopeStep:
    """One check of the envelope and identity (:data:`pbem.service.identity.envelope.STEPS`:
    the document's keys, game, seat, sender, wrong-key lock, key, standing-orders
    sequence, salt, an ended game, step and turn — in that order, which carries the
    no-oracle rules). A check that stops holds the mail (the right key from another
    address) or rejects it; the others collect into the envelope's findings."""

    name: str
    step: Step
    description: str

    def check(self, service: Service, mail: Mail) -> Verdict | None:
        if mail.claim is None:
            mail.claim = Claim(mail.parsed, mail.document, envelope.ENVELOPE_KEYS)
        stopped = self.step(service, mail.claim)
        if stopped is None:
            return None
        mail.checked = stopped
        mail.problems.extend(stopped.issues)
        return Verdict(Outcome.HOLD if stopped.held else Outcome.REJECT)


_STEP_DESCRIPTIONS: Mapping[str, str] = {
    "keys": "the document carries the envelope's keys, of the right types (collects)",
    "game": "the game exists",
    "seat": "the seat is a seat of the game",
    "sender": "the mail comes from the seat's address (the right key elsewhere is held)",
    "lock": "the seat is not locked by wrong keys",
    "key": "the seat key is right (a wrong one from the seat's own address is collected)",
    "sequence": "a standing-orders sequence number above the last (collects)",
    "salt": "the orders' salt is a short text (collects)",
    "ended": "the game takes orders (it is not over)",
    "step": "the orders answer the seat's decision at this step (collects)",
}
ENVELOPE_STEPS: tuple[EnvelopeStep, ...] = tuple(
    EnvelopeStep(name, step, _STEP_DESCRIPTIONS[name]) for name, step in envelope.STEPS)
"""The envelope's checks as intake rules."""


@dataclass(frozen=True)
class Envelope:
    """What the envelope's checks collected, when none stopped
    (:func:`pbem.service.identity.envelope.finish`): problems that leave the orders
    uncheckable (a step that is not the decision's, no orders) reject; the others are
    collected and the chain goes on."""

    name: str = "envelope"
    description: str = "the envelope leaves the orders checkable"

    def check(self, service: Service, mail: Mail) -> Verdict | None:
        assert mail.claim is not None
        checked = envelope.finish(mail.claim)
        mail.checked = checked
        codes = {i.code for i in checked.issues}
        if envelope.STALE_STEP in codes and codes <= {envelope.STALE_STEP, "envelope.not_your_turn"} \
                and _accepted_before(service, mail, checked):
            return Verdict(Outcome.DISPATCH, dispatch=_already_accepted)
        if checked.issues and not checked.orders_checkable:
            mail.problems.extend(checked.issues)
            return Verdict(Outcome.REJECT)
        if checked.issues:
            mail.problems.extend(checked.issues)
            mail.found_by.append(self.name)
        return None


def _accepted_before(service: Service, mail: Mail, checked: Checked) -> bool:
    """Whether the orders of ``mail``, with a stale ``step:`` alone wrong (and the turn
    that moved on since), are the ones
    accepted from the seat at that step (issue 24 N5: a mail sent again, by hand or by
    a client, is no mistake to correct)."""
    step = mail.document.get("step")
    if not checked.game_id or not checked.seat or not isinstance(step, int) or isinstance(step, bool):
        return False
    result = service.store.latest_result(checked.game_id, checked.seat, step)
    return isinstance(result, dict) and "orders" in mail.document \
        and result.get("orders") == trust.json_form(mail.document["orders"])


def _already_accepted(service: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: Callable[..., int],
                      shown: Mapping[str, Any]) -> str:
    """Answer orders sent again after they were accepted (issue 24 N5): no problem, the
    step they were accepted at and the step now; the inbox row ``answered``."""
    game_id, seat, step = str(doc["game"]), str(doc["seat"]), int(doc["step"])
    now = service.state(game_id).step
    iid = rec("answered", "already accepted", game_id=game_id, seat=seat, result={"document": shown})
    tr = seat_preferences.translations_at(service.store, game_id, parsed.sender or "")
    text = tr.gettext("These orders were already accepted at step %(step)d: the receipt went to you then, and "
                      "nothing changes. The game is at step %(now)d now; your latest prompt says what it waits "
                      "for.") % {"step": step, "now": now}
    ratelimit.deliver(service, parsed, iid, game_id=game_id, subject=re_subject(parsed.subject),
                      text=build.render_notice(wrapped(text), game_id, tr), language=i18n.language_of(tr),
                      html_title=tr.gettext("Orders already accepted"),
                      id_parts=(game_id, "already-accepted", *answers.answer_key(parsed)))
    return "answered"


DOES_NOT_FIT = frozenset({"orders.unknown_key", "orders.not_a_mapping", "tyche.missing"})
"""Problem codes that say a document was written for another decision than the one it is
checked against (a key of another decision, a player-turn without its card)."""


def _against_now(mail: Mail, rejections: list[Problem]) -> list[Problem]:
    """Orders sent with a stale ``step:`` (issue 24.7c), checked against the seat's
    decision now: their problems when the document fits that decision, with a note
    saying what they were checked against; none, and a note saying they were not
    checked and why, when it does not (:data:`DOES_NOT_FIT`)."""
    assert mail.state is not None and mail.checked is not None
    step = mail.state.step
    decision = next((d for d in game_rules.pending(mail.state) if d.seat == mail.checked.seat), None)
    kind = decision.kind if decision is not None else "none"
    if any(p.code in DOES_NOT_FIT for p in rejections):
        mail.note = (N_("Your orders were not checked against step %(step)s: they do not fit its decision "
                        "(%(kind)s). Write them from your latest prompt."), {"step": step, "kind": kind})
        return []
    mail.note = ((N_("Your orders were checked against step %(step)s, the decision the game waits for from you, "
                     "and the problems other than the step are theirs."), {"step": step}) if rejections else
                 (N_("Your orders were checked against step %(step)s, the decision the game waits for from you, "
                     "and have no other problem: send them again with step: %(step)s."), {"step": step}))
    return rejections


@dataclass(frozen=True)
class Orders:
    """The orders against the rules (``rules.validate``: every problem in one pass);
    collects them and never stops the chain."""

    name: str = "orders"
    description: str = "the orders are legal for the seat's decision (docs/orders.md)"

    def check(self, service: Service, mail: Mail) -> Verdict | None:
        checked = mail.checked
        assert checked is not None and checked.game_id is not None and checked.seat is not None
        mail.state = service.state(checked.game_id)
        mail.orders = trust.json_form(mail.document["orders"])  # as the log will hold them (docs/trust.md)
        # worded from the board as the seat may know it: another seat's standing orders stay secret
        rejections, mail.partly = game_rules.validate_told(mail.state, checked.seat, mail.orders)
        if any(i.code == envelope.STALE_STEP for i in checked.issues):
            rejections = _against_now(mail, rejections)
        if rejections:
            mail.problems.extend(rejections)
            mail.found_by.append(self.name)
        return None

