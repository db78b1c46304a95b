"""The ``Authentication-Results`` of our receiving server (RFC 8601): SPF, DKIM, DMARC.

The receiving mail server checks SPF (RFC 7208), DKIM (RFC 6376) and DMARC (RFC 7489) and
records the results in an ``Authentication-Results`` header field it prepends. Anyone can
write such a field into a mail, so only one counts (the trust rule, also in
``docs/pipeline.md``):

* the topmost ``Authentication-Results`` field whose authserv-id is **ours** (the
  configured ``authentication.authserv_id``, compared case-insensitively); fields of other
  servers and every lower field with our id are ignored. Our server prepends its field
  above everything that came with the mail, and RFC 8601 section 5 requires it to delete
  incoming fields that claim its authserv-id; the topmost rule also holds if it does not.
* with no authserv-id configured, nothing counts (:func:`read_authentication_results`
  returns ``None``).

The envelope sender (``MAIL FROM``, RFC 5321) is what the receiving server recorded in
the topmost ``Return-Path`` field: the server that makes the final delivery inserts it at
the top of the message (RFC 5321 section 4.4), above any the sender wrote. It is read
under the same condition (an authserv-id configured) and by the same rule (topmost
only): :func:`read_return_path`.

What each result proves, and what :func:`proves_address` makes of them (issue 25.11):

* SPF ``pass`` (RFC 7208): the connecting host may send for the *domain* of the envelope
  sender (``smtp.mailfrom``). Nothing about the local part, nothing about ``From:``.
* DKIM ``pass`` (RFC 6376): the signing *domain* ``header.d`` signed the message (its
  body and the signed header fields, usually ``From:``). A domain's submission server
  signs every user's mail with the same key, so a DKIM pass for ``example.org`` is no
  proof of *which* mailbox of ``example.org`` wrote it.
* DMARC ``pass`` (RFC 7489 section 3.1): the ``From:`` *domain* is aligned with a domain
  that passed SPF or DKIM. Domain alignment again: any user of the domain passes.

So no result proves a mailbox. What does is the domain's submission server refusing an
envelope sender that is not the logged-in user's (Postfix ``reject_sender_login_mismatch``
and every large provider do; they check the *envelope*, not ``From:``) — but only for
mail that came *through* that server. The envelope our MX records is whatever the
connecting client said, and a DKIM signature survives being replayed under any envelope
(issue 25, break-it: a same-domain user had his own server sign a mail ``From:`` another
user, then handed the signed bytes to our MX with that user as ``MAIL FROM``). What ties
the envelope to the domain's servers is SPF: ``spf=pass`` for ``smtp.mailfrom`` means the
mail came from a host the domain lets send its mail, and those hosts check the login. So
a mail proves its ``From:`` mailbox when its envelope sender is its ``From:`` address and
our server's SPF check passed *for that envelope* (or our server recorded an SMTP AUTH
result, ``auth=pass smtp.auth=``, for that address: the sender logged in to our own
server). DKIM and DMARC alone prove the domain only, and so does a mail whose ``From:``
names another mailbox than its envelope (a same-domain user writing another user's
``From:``, a forwarder, a list). What this still trusts is the domain's SPF record: a
domain that lets hosts send for it which do not check the login cannot prove a mailbox.

Parsing uses the ``authres`` library (the RFC 7601/8601 parser of dkimpy). Its parser is
quadratic in the field length and recursive in comments, so a field longer than
:data:`MAX_FIELD_CHARS` counts as unreadable, and any exception from it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from email.message import Message
from typing import Literal

import authres

from pbem.mail.headers import fold_address

__all__ = [
    "MAX_FIELD_CHARS",
    "AuthResults",
    "MethodResult",
    "proves_address",
    "read_authentication_results",
    "read_return_path",
    "sender_authentication",
]

#: Longest Authentication-Results field parsed (real ones are under 2,000 characters).
MAX_FIELD_CHARS = 8_000
#: How many Authentication-Results fields are looked at, from the top.
MAX_FIELDS = 50

Verdict = Literal["pass", "fail", "none"]


@dataclass(frozen=True)
class MethodResult:
    """One ``method=result`` of an Authentication-Results field (RFC 8601 section 2.2).

    Attributes:
        method: lowercased method name: ``"spf"``, ``"dkim"``, ``"dmarc"``, ``"arc"``...
        result: lowercased result: ``"pass"``, ``"fail"``, ``"softfail"``, ``"none"``...
        properties: ``"ptype.property"`` (lowercased) to value, e.g.
            ``{"header.d": "example.org"}``, ``{"smtp.mailfrom": "a@example.org"}``.
    """

    method: str
    result: str
    properties: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AuthResults:
    """The Authentication-Results field that counts (see the module docstring).

    Attributes:
        authserv_id: the authserv-id of the field (ours), lowercased.
        results: every method result in the field, in order (empty for ``none``).
        readable: False when the field with our id could not be parsed (then
            ``results`` is empty and nothing is authenticated).
    """

    authserv_id: str
    results: tuple[MethodResult, ...] = ()
    readable: bool = True

    def of(self, method: str) -> tuple[MethodResult, ...]:
        """The results of ``method`` (``"spf"``, ``"dkim"``, ``"dmarc"``), in order."""
        return tuple(r for r in self.results if r.method == method.lower())

    def result(self, method: str) -> str | None:
        """The first result of ``method`` (e.g. ``"pass"``), or ``None`` if absent."""
        found = self.of(method)
        return found[0].result if found else None


def _authserv_id(value: str) -> str:
    """The first token of a field value, the authserv-id (RFC 8601 section 2.2)."""
    head = value.lstrip().split(";", 1)[0].strip()
    return head.split()[0].lower() if head else ""


def _parse(value: str, authserv_id: str) -> AuthResults:
    if len(value) > MAX_FIELD_CHARS:
        return AuthResults(authserv_id, readable=False)
    try:
        header = authres.AuthenticationResultsHeader.parse_value(value)
        results = tuple(
            MethodResult(
                method=str(r.method).lower(),
                result=str(r.result).lower(),
                properties={f"{p.type}.{p.name}".lower(): str(p.value)
                            for p in (r.properties or [])},
            )
            for r in header.results)
    except Exception:  # noqa: BLE001 - authres raises many things on hostile input
        return AuthResults(authserv_id, readable=False)
    return AuthResults(authserv_id, results)


def read_authentication_results(msg: Message, authserv_id: str | None
                                ) -> AuthResults | None:
    """The results of the topmost Authentication-Results field with ``authserv_id``.

    Args:
        msg: the parsed message (its header fields in received order, topmost first).
        authserv_id: our receiving server's authserv-id (RFC 8601 section 2.5), or
            ``None`` when none is configured.

    Returns:
        An :class:`AuthResults` (``readable=False`` when that field is unparseable or
        longer than :data:`MAX_FIELD_CHARS`), or ``None`` when no id is configured or no
        field among the first :data:`MAX_FIELDS` has it. Never raises.
    """
    wanted = (authserv_id or "").strip().lower()
    if not wanted:
        return None
    seen = 0
    try:
        items = msg.raw_items()  # type: ignore[attr-defined]
        for name, raw in items:
            if name.lower() != "authentication-results":
                continue
            seen += 1
            if seen > MAX_FIELDS:
                return None
            value = " ".join(str(raw).split())
            if _authserv_id(value[:1000]) == wanted:
                return _parse(value, wanted)
    except Exception:  # noqa: BLE001
        return None
    return None


def _domain(value: str) -> str:
    return value.rsplit("@", 1)[-1].strip().strip("<>").lower()


def sender_authentication(auth: AuthResults | None, sender: str) -> Verdict:
    """Whether our server authenticated the domain of ``sender`` (the From: address).

    * ``"pass"``: DMARC passed for the From domain (``dmarc=pass`` with ``header.from``
      equal to it, RFC 7489 section 3.1 alignment done by the server), or DKIM passed with
      a signing domain ``header.d`` equal to it, or SPF passed with ``smtp.mailfrom`` in
      it (strict alignment: we do not guess organisational domains);
    * ``"fail"``: no pass, and DMARC failed for the From domain;
    * ``"none"``: nothing conclusive (no field, unreadable, other domains, temperror...).

    Args:
        auth: from :func:`read_authentication_results`.
        sender: the lowercased addr-spec of From:.
    """
    if auth is None or not auth.readable or "@" not in sender:
        return "none"
    domain = _domain(sender)
    passed = any(
        (r.method == "dmarc" and r.result == "pass"
         and _domain(r.properties.get("header.from", "")) == domain)
        or (r.method == "dkim" and r.result == "pass"
            and _domain(r.properties.get("header.d", "")) == domain)
        or (r.method == "spf" and r.result == "pass"
            and _domain(r.properties.get("smtp.mailfrom", "")) == domain)
        for r in auth.results)
    if passed:
        return "pass"
    failed = any(r.method == "dmarc" and r.result == "fail"
                 and _domain(r.properties.get("header.from", domain)) == domain
                 for r in auth.results)
    return "fail" if failed else "none"


def read_return_path(msg: Message, authserv_id: str | None) -> str | None:
    """The envelope sender our receiving server recorded: the address of the topmost
    ``Return-Path`` field (RFC 5321 section 4.4; RFC 5322 section 3.6.7), ASCII letters
    lowercased (:func:`pbem.mail.headers.fold_address`), ``""`` for the null
    reverse-path ``<>``.

    Args:
        msg: the parsed message (its header fields in received order, topmost first).
        authserv_id: our receiving server's authserv-id; ``None`` means authentication
            is not configured, and then nothing is read (as for Authentication-Results).

    Returns:
        The address, ``""`` for ``<>``, or ``None`` when no id is configured or the
        topmost field is missing or not one ``<addr-spec>`` (a source route before a
        colon is dropped, RFC 5321 section 4.1.2). Never raises.
    """
    if not (authserv_id or "").strip():
        return None
    try:
        for name, raw in msg.raw_items():  # type: ignore[attr-defined]
            if name.lower() != "return-path":
                continue
            value = " ".join(str(raw).split())[:1000]
            if not (value.startswith("<") and value.endswith(">")) or value.count("<") != 1:
                return None
            path = value[1:-1].strip().rsplit(":", 1)[-1].strip()
            return fold_address(path) if path == "" or ("@" in path and " " not in path) else None
    except Exception:  # noqa: BLE001
        return None
    return None


def proves_address(auth: AuthResults | None, sender: str, envelope_sender: str | None) -> bool:
    """Whether our server's results prove the *mailbox* ``sender`` (the From: address),
    not only its domain (module docstring): the From domain passed
    (:func:`sender_authentication` is ``"pass"``), the envelope sender our server
    recorded (``envelope_sender``, :func:`read_return_path`) is that very address, no
    ``smtp.mailfrom`` in our results names another mailbox (RFC 8601 section 2.7.2), and
    our server's SPF check passed for that envelope (RFC 7208) or it recorded an SMTP
    AUTH login as that address: a DKIM or DMARC pass alone proves the domain, since a
    signed mail can be replayed under any envelope (issue 25, break-it).

    Args:
        auth: from :func:`read_authentication_results`.
        sender: the From: addr-spec (folded).
        envelope_sender: from :func:`read_return_path` (None: not known).
    """
    if envelope_sender is None or sender_authentication(auth, sender) != "pass" or auth is None:
        return False
    mine = fold_address(sender)
    if fold_address(envelope_sender) != mine:
        return False
    if not all(fold_address(r.properties["smtp.mailfrom"].strip().strip("<>")) == mine
               for r in auth.results
               if "@" in r.properties.get("smtp.mailfrom", "")):
        return False
    return any(_envelope_passed(r, mine) for r in auth.results)


def _envelope_passed(r: MethodResult, mine: str) -> bool:
    """Whether ``r`` ties the envelope ``mine`` to a host that may send for its domain
    (SPF ``pass`` for ``smtp.mailfrom``, RFC 7208 section 2.4) or to a login at our own
    server (``auth`` ``pass`` for ``smtp.auth``, RFC 8601 section 2.7.4)."""
    if r.result != "pass":
        return False
    if r.method == "spf":
        value = fold_address(r.properties.get("smtp.mailfrom", "").strip().strip("<>"))
        return value == mine or ("@" not in value and value == _domain(mine))
    if r.method == "auth":
        return fold_address(r.properties.get("smtp.auth", "").strip()) == mine
    return False
