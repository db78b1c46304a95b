"""Raw mail bytes to a :class:`ParsedMail`: who sent it, and the orders it carries.

:func:`parse_mail` is a pure function (no I/O, no clock, no database). It reads the message
with the stdlib :mod:`email` package (``policy.default``; RFC 5322 and MIME RFC 2045-2047),
recognises machine mail (:mod:`pbem.mail.machine`: RFC 3834 auto-replies, RFC 3464 delivery
reports, our own mail looping back), extracts the author's own text
(:mod:`pbem.mail.extract`: RFC 3676 format=flowed, RFC 4880 inline PGP, quotes, reply
headers, forwarded mail, signatures) and reads the single YAML orders block in it with the
strict loader (:mod:`pbem.mail.strict_yaml`).

It does not check game semantics (game, seat, key, step, the orders themselves): the caller
does, with the returned ``document``.

Work per mail is bounded (:class:`MailLimits`): the size, the header section and a cheap
count of MIME delimiter lines and Content-Type fields are checked on the raw bytes before
any parsing; then the number and depth of MIME parts; header values are cut before the
quadratic header parser sees them (:mod:`pbem.mail.headers`); the orders block has its
own limits and YAML aliases are refused (:mod:`pbem.mail.strict_yaml`).

Identity: ``sender`` is the addr-spec of the one mailbox in ``From:``, read strictly by
:func:`pbem.mail.headers.read_sender`; a mail whose sender cannot be read that way is never
answered (``ignore_reason="unreadable-sender"``).
"""

from __future__ import annotations

import email
import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass, replace
from email.message import Message
from email.parser import BytesHeaderParser
from typing import Literal

from pbem.mail.authresults import (
    AuthResults,
    read_authentication_results,
    read_return_path,
)
from pbem.mail.blocks import StrayLine, YamlBlock, find_yaml_blocks, strip_quote_markers
from pbem.mail.extract import (
    AuthorText,
    Body,
    author_lines,
    extract_body,
    header_text,
)
from pbem.mail.headers import (
    INBOUND,
    SYNTHETIC_DOMAIN,
    clean_text,
    message_id,
    msg_ids,
    read_sender,
)
from pbem.mail.machine import MachineVerdict, classify_machine
from pbem.mail.strict_yaml import OrdersYamlError, load_strict_yaml, normalise_text
from pbem.mail.suggest import suggest
from pbem.problems import Problem

__all__ = [
    "MAX_ORDERS_CHARS",
    "MAX_ORDERS_LINES",
    "ORDERS_SHAPE",
    "MailLimits",
    "ParsedMail",
    "Problem",
    "parse_mail",
]

Action = Literal["accept", "reject", "ignore"]

#: The shape of an orders document, shown to players whose mail has none.
ORDERS_SHAPE = """\
game: alexandria-1
seat: north
key: your-seat-key
step: 7
orders:
  movement:
    - army: Ptolemy
      path: [Memphis, Pelusium]"""

_NO_ORDERS_HINT = (
    "Write your orders in the body of your mail (not quoted with '>', not in an attachment "
    "or a forwarded message) as a YAML block starting with a 'game:' line, like:\n"
    + "\n".join("    " + line for line in ORDERS_SHAPE.split("\n"))
)
#: Limits on one orders block (PyYAML is slow on huge input; real orders are tiny).
MAX_ORDERS_LINES = 2000
MAX_ORDERS_CHARS = 100_000

_FORWARD_SUBJECT_RE = re.compile(
    r"^\s*(?:re:\s*)*(?:fwd?|fw|wg|tr|rv|enc|doorst|vs|vb|rif|пересл)\s*:", re.IGNORECASE)
_EXACT_GAME_RE = re.compile(r"""^(["']?)game\1\s*:""")
_BLANK_LINE_RE = re.compile(rb"\r?\n\r?\n")
_PLAIN_HINT = ("Send your orders as plain text in the body of a new mail, without "
               "attachments or quoted earlier mails.")
_KEYISH_RE = re.compile(r"^\s*[\"']?([\w-]+)[\"']?\s*:(?:\s|$)")


@dataclass(frozen=True)
class ParsedMail:
    """What one incoming mail means for the adjudicator.

    Attributes:
        message_id: the Message-ID as ``"<...>"``; synthesised from a hash of the raw bytes
            (``"<sha256-...@pbem.invalid>"``) when missing or unparseable.
        sender: the addr-spec of From as written, ASCII letters lowercased
            (:func:`pbem.mail.headers.fold_address`), ``""`` if refused.
        sender_name: display name of From (may be ``""``).
        subject: decoded Subject (RFC 2047), whitespace collapsed.
        in_reply_to: first ``"<...>"`` of In-Reply-To, or ``None``.
        references: the ``"<...>"`` ids of References, in order.
        action: ``"accept"`` (``document`` holds the orders), ``"reject"`` (``problems``
            says why; answer the sender) or ``"ignore"`` (machine or empty mail; never
            answer).
        document: the orders mapping when accepted, else ``None``.
        orders_text: the normalised YAML block that was parsed (for echoing back, line
            numbers in problems refer to it; a wrapped comment's rest that was rejoined
            is shown in its comment only, :attr:`pbem.mail.blocks.YamlBlock.echo`), or
            ``None`` when no single block was found.
        problems: every problem found when rejected; empty otherwise.
        ignore_reason: ``"auto-reply"``, ``"bounce"``, ``"loop"``, ``"empty"`` or
            ``"unreadable-sender"`` (no usable From: address, so nobody to answer) when
            ignored, else ``None``.
        bouncing: addresses a delivery status notification (RFC 3464) reports as failed.
        returned_ids: the Message-IDs of the original message the notification returns
            (:func:`pbem.mail.machine.returned_message_ids`); the service believes a
            bounce only for mail it sent to that address under one of them.
        ignore_detail: what decided an ``ignore``, for logs and the host (e.g.
            ``"Auto-Submitted: auto-replied"``, ``"From: has 2 addresses, not one"``).
        on_behalf: the ``Sender:`` address when it differs from From (informational).
        authentication: our receiving server's Authentication-Results (RFC 8601), when
            an authserv-id was given and such a field is present; else ``None``.
        envelope_sender: the envelope sender our receiving server recorded (the topmost
            ``Return-Path``, :func:`pbem.mail.authresults.read_return_path`), ``""`` for
            the null reverse-path, ``None`` when no authserv-id was given or there is
            none (issue 25.11: compared with ``sender`` to prove the mailbox).
        machine: the machine-mail signal the mail carries
            (:class:`pbem.mail.machine.MachineVerdict`), also when it was read as a
            person's mail (a weak signal with orders in the author's own text), else
            ``None``.
        as_person: for mail ignored on a *strong* auto-reply signal only: what the mail
            would be as a person's (its orders read as usual), so that the service can
            still act on it when it proves to be the seat's own (its registered address
            and the seat's right key; issue 13). ``None`` otherwise.
        content: the content hash of the raw bytes (:func:`pbem.store.content.content_hash`),
            set by the service (``""`` from the parser); our answers' Message-IDs derive
            from it, never from the incoming Message-ID alone (break-it finding 4).

    Invariants: ``accept`` and ``reject`` always have a valid ``sender``; ``subject``
    and ``sender_name`` never contain control characters; ``message_id``,
    ``in_reply_to`` and ``references`` are valid RFC 5322 msg-ids.
    """

    message_id: str
    sender: str
    sender_name: str
    subject: str
    in_reply_to: str | None
    references: tuple[str, ...]
    action: Action
    document: dict | None = None
    orders_text: str | None = None
    problems: tuple[Problem, ...] = ()
    ignore_reason: str | None = None
    bouncing: tuple[str, ...] = ()
    returned_ids: tuple[str, ...] = ()
    ignore_detail: str = ""
    on_behalf: str = ""
    authentication: AuthResults | None = None
    envelope_sender: str | None = None
    machine: MachineVerdict | None = None
    as_person: ParsedMail | None = None
    content: str = ""


@dataclass(frozen=True)
class MailLimits:
    """Bounds on the work spent on one mail; a mail beyond them is refused unparsed.

    Attributes:
        max_message_bytes: the whole raw message, in bytes (config
            ``max_message_bytes``; 10 MB by default).
        max_header_bytes: the header section (up to the first blank line), in bytes.
        max_parts: MIME parts (every node of the tree, the message itself included).
        max_depth: nesting of multiparts and attached messages.
    """

    max_message_bytes: int = 10_000_000
    max_header_bytes: int = 256_000
    max_parts: int = 200
    max_depth: int = 20


@dataclass(frozen=True)
class _Envelope:
    message_id: str
    sender: str
    sender_name: str
    subject: str
    in_reply_to: str | None
    references: tuple[str, ...]
    sender_problem: str | None = None
    on_behalf: str = ""
    authentication: AuthResults | None = None
    envelope_sender: str | None = None


def _synthetic_id(raw: bytes) -> str:
    return f"<sha256-{hashlib.sha256(raw).hexdigest()[:40]}@{SYNTHETIC_DOMAIN}>"


def _envelope(msg: Message | None, raw: bytes, authserv_id: str | None = None) -> _Envelope:
    """The header facts of ``msg``; never raises (each part falls back on its own)."""
    if msg is None:
        return _Envelope(_synthetic_id(raw), "", "", "", None, (), "no header section")
    sender = read_sender(msg)
    try:
        subject = clean_text(header_text(msg, "Subject"), 200)
    except Exception:  # noqa: BLE001
        subject = ""
    replies_to = msg_ids(msg, "In-Reply-To")
    return _Envelope(
        message_id=message_id(msg) or _synthetic_id(raw),
        sender=sender.address,
        sender_name=sender.name,
        subject=subject,
        in_reply_to=replies_to[0] if replies_to else None,
        references=msg_ids(msg, "References"),
        sender_problem=sender.problem,
        on_behalf=sender.on_behalf,
        authentication=read_authentication_results(msg, authserv_id),
        envelope_sender=read_return_path(msg, authserv_id),
    )


def _result(envelope: _Envelope, action: Action, **fields: object) -> ParsedMail:
    """The answer; an ``accept`` or ``reject`` without a usable sender becomes an
    ``ignore`` (``"unreadable-sender"``): there is nobody we may answer."""
    if action != "ignore" and not envelope.sender:
        action = "ignore"
        fields = {"ignore_reason": "unreadable-sender",
                  "ignore_detail": envelope.sender_problem or "no sender"}
    return ParsedMail(
        message_id=envelope.message_id,
        sender=envelope.sender,
        sender_name=envelope.sender_name,
        subject=envelope.subject,
        in_reply_to=envelope.in_reply_to,
        references=envelope.references,
        action=action,
        on_behalf=envelope.on_behalf,
        authentication=envelope.authentication,
        envelope_sender=envelope.envelope_sender,
        **fields,  # type: ignore[arg-type]
    )


def _has_attachments(msg: Message) -> bool:
    for part in msg.walk():
        if part.is_multipart():
            continue
        if part.get_content_disposition() == "attachment" or part.get_content_maintype() not in (
                "text", "message"):
            return True
    return False


def _near_miss_game_at(author: AuthorText) -> tuple[int, str] | None:
    """``(line number, key)`` of the first line of the author's text whose key is close to
    ``game`` (``gmae:``), or None."""
    for number, line in enumerate(author.lines, start=1):
        if line is None:
            continue
        match = _KEYISH_RE.match(line)
        if match and match.group(1).lower() != "game" and suggest(
                match.group(1), ["game"], cutoff=0.74):
            return number, match.group(1)
    return None


def _near_miss_game(author: AuthorText) -> str | None:
    near = _near_miss_game_at(author)
    if near is None:
        return None
    return f"Line {near[0]} of your mail starts with '{near[1]}:'; did you mean 'game:'? "


def _no_orders(body: Body, author: AuthorText) -> Problem:
    """Explain why no orders block was found in the author's text."""
    forwarded_lines: list[str | None] = list(strip_quote_markers(author.forwarded))
    forwarded_texts = [normalise_text(text) for text in body.forwarded]
    in_forward = bool(find_yaml_blocks(forwarded_lines)) or any(
        find_yaml_blocks(strip_quote_markers(text.split("\n"))) for text in forwarded_texts)
    if in_forward:
        return Problem(
            code="mail.forwarded",
            message=("Your orders are inside a forwarded message; we only read orders you "
                     "write yourself in the body of your mail, never forwarded ones."),
            hint=("Send the orders directly: copy them into the body of a new mail or a "
                  "reply instead of forwarding. " + _NO_ORDERS_HINT),
        )
    if body.encrypted or author.encrypted:
        return Problem(
            code="mail.encrypted",
            message=("Your mail is encrypted and we cannot read it; send your orders "
                     "unencrypted (a PGP signature is fine)."),
            hint=_NO_ORDERS_HINT,
        )
    if author.judge_at is not None and find_yaml_blocks(list(author.quoted)):
        where = (f" (from line {author.earlier_at + 1} of your mail on)" if author.earlier_at is not None
                 else "")
        return Problem(
            code="mail.no_orders",
            message=("We found no orders written by you: the only 'game:' block is inside the "
                     f"judge's own mail{where}, which your mail program included below your "
                     "reply without '>' marks; the judge never reads its own mail as orders, "
                     "edited or not."),
            hint=("Copy the block to the top of your reply, above the earlier mail and the "
                  "header lines your mail program put before it, edit it there and send "
                  "again. " + _NO_ORDERS_HINT),
            params={"why": "judge_mail"},
        )
    if find_yaml_blocks(list(author.quoted)):
        return Problem(
            code="mail.no_orders",
            message=("We found no orders written by you: the only 'game:' block is in the "
                     "earlier mail you quoted (lines starting with '>' or below "
                     "'On ... wrote:'), and quoted text is never read as orders."),
            hint=("Write your orders above the quote, without '>' in front. "
                  + _NO_ORDERS_HINT),
            params={"why": "quoted"},
        )
    near = _near_miss_game(author) or ""
    at = _near_miss_game_at(author)
    return Problem(
        code="mail.no_orders",
        message=("We found no orders in your mail: orders are a YAML block that starts "
                 "with a line 'game: <game name>'."),
        hint=near + _NO_ORDERS_HINT,
        params={"why": "no_block", **({"near_line": at[0], "near": at[1]} if at else {})},
    )


def _lowercase_command(document: object) -> object:
    """The document with its command read in any case (issue 24 N6: people capitalise
    the one line they write above ``game:``): a top-level ``Command:`` key in another
    case (``Command``, ``COMMAND``) read as ``command:`` unless the document also has a
    ``command:`` (then both stay, and the other is refused as an unknown key), and a
    command name given as text read in lowercase (``Status`` as ``status``; every
    command's name is). Other keys keep their case (a capitalised ``Game:`` is told
    that keys are lowercase)."""
    if not isinstance(document, dict):
        return document
    named = [k for k in document if isinstance(k, str) and k.lower() == "command"]
    if "command" not in document and len(named) == 1:
        document = {("command" if k == named[0] else k): v for k, v in document.items()}
    if isinstance(document.get("command"), str):
        document = {**document, "command": document["command"].strip().lower()}
    return document


def _check_document(document: object) -> Problem | None:
    if not isinstance(document, dict):
        kind = "a list" if isinstance(document, list) else "a single value"
        return Problem(
            code="mail.no_orders",
            message=(f"Your orders are {kind}, but they must be a mapping of 'key: value' "
                     "lines starting with 'game:'."),
            hint=_NO_ORDERS_HINT,
            params={"why": "not_a_mapping"},
        )
    if "game" not in document:
        keys = [str(k) for k in document]
        near = suggest("game", keys)
        found = f" (found '{near}:'; keys are lowercase)" if near else ""
        return Problem(
            code="mail.no_orders",
            message=f"Your orders have no 'game:' line{found}.",
            line=1,
            hint=_NO_ORDERS_HINT,
            params={"why": "no_game", **({"found": near} if near else {})},
        )
    return None


def _header_end(raw: bytes, limit: int) -> int | None:
    """Offset of the blank line ending the header section (RFC 5322 section 2.1), searched
    in the first ``limit`` bytes; ``len(raw)`` for a mail that is all header; ``None``
    when the section is longer than ``limit``."""
    match = _BLANK_LINE_RE.search(raw, 0, limit + 4)
    if match:
        return match.start()
    return len(raw) if len(raw) <= limit else None


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def _oversize(raw: bytes, limits: MailLimits) -> Problem | None:
    """The limit a raw mail exceeds, checked in linear time before any parsing."""
    too_large = None
    if len(raw) > limits.max_message_bytes:
        too_large = (f"Your mail is {_megabytes(len(raw))}; the judge reads mails of at "
                     f"most {_megabytes(limits.max_message_bytes)}.")
    elif _header_end(raw, limits.max_header_bytes) is None:
        too_large = (f"The header section of your mail is longer than "
                     f"{limits.max_header_bytes} bytes.")
    if too_large:
        return Problem(code="mail.too_large", message=too_large + " It was not read.",
                       hint=_PLAIN_HINT)
    # Every MIME part starts after a "--boundary" line and nests only through a
    # Content-Type field: twice the part limit of either is far beyond any real mail.
    lowered = raw.lower()
    if (raw.count(b"\n--") > 2 * limits.max_parts
            or lowered.count(b"\ncontent-type:") > 2 * limits.max_parts):
        return _too_complex(limits)
    return None


def _too_complex(limits: MailLimits) -> Problem:
    return Problem(
        code="mail.too_large",
        message=(f"Your mail has more than {limits.max_parts} MIME parts or parts nested "
                 f"more than {limits.max_depth} deep; it was not read."),
        hint=_PLAIN_HINT)


def _structure_ok(msg: Message, limits: MailLimits) -> bool:
    """At most ``max_parts`` parts, nested at most ``max_depth`` deep (iteratively)."""
    stack: list[tuple[Message, int]] = [(msg, 0)]
    parts = 0
    while stack:
        part, depth = stack.pop()
        parts += 1
        if parts > limits.max_parts or depth > limits.max_depth:
            return False
        # message/rfc822 parts are multipart here too: their payload is [the message]
        children = part.get_payload() if part.is_multipart() else []
        stack.extend((child, depth + 1) for child in children if isinstance(child, Message))
    return True


def _headers_only(raw: bytes, limits: MailLimits) -> Message:
    end = _header_end(raw, limits.max_header_bytes)
    return BytesHeaderParser(policy=INBOUND).parsebytes(
        raw[:limits.max_header_bytes if end is None else end])


def _parse(raw: bytes, own_addresses: Collection[str], own_domains: Collection[str],
           limits: MailLimits, authserv_id: str | None) -> ParsedMail:
    refused = _oversize(raw, limits)
    msg = (_headers_only(raw, limits) if refused
           else email.message_from_bytes(raw, policy=INBOUND))
    envelope = _envelope(msg, raw, authserv_id)

    verdict = classify_machine(msg, own_addresses=own_addresses, own_domains=own_domains)
    if verdict is None:
        return _as_person(envelope, msg, refused, limits)
    ignored = _result(envelope, "ignore", ignore_reason=verdict.reason, bouncing=verdict.bouncing,
                      ignore_detail=verdict.detail, machine=verdict,
                      returned_ids=verdict.returned_ids)
    if verdict.reason == "loop" or (verdict.reason == "bounce" and verdict.strength == "strong") \
            or refused is not None:
        return ignored  # our own mail, a delivery report, an oversized mail: never read
    person = _as_person(envelope, msg, refused, limits)
    if verdict.strength == "weak" and person.action != "ignore" and person.orders_text is not None:
        return replace(person, machine=verdict)  # orders in the author's own text: a person
    if verdict.strength == "strong" and person.action == "accept":
        return replace(ignored, as_person=replace(person, machine=verdict))
    return ignored


def _as_person(envelope: _Envelope, msg: Message, refused: Problem | None, limits: MailLimits) -> ParsedMail:
    """The mail read as a person's: limits, the author's own text, its orders block."""
    if refused is None and not _structure_ok(msg, limits):
        refused = _too_complex(limits)
    if refused is not None:
        return _result(envelope, "reject", problems=(refused,))

    body = extract_body(msg)
    text = normalise_text(body.text)
    if (not text.strip() and not body.forwarded and not body.encrypted
            and not _has_attachments(msg)):
        return _result(envelope, "ignore", ignore_reason="empty",
                       ignore_detail="no text and no attachment")

    author = author_lines(text, forwarded_subject=bool(
        _FORWARD_SUBJECT_RE.match(envelope.subject)))
    blocks = find_yaml_blocks(author.lines, max_lines=MAX_ORDERS_LINES)
    exact = [b for b in blocks if _EXACT_GAME_RE.match(b.lines[0])]
    if exact:  # "Game: what a battle!" in the chat is prose, not a second document
        blocks = exact
    if not blocks:
        return _result(envelope, "reject", problems=(_no_orders(body, author),))
    if len(blocks) > 1:
        where = ", ".join(str(b.start + 1) for b in blocks)
        return _result(envelope, "reject", problems=(Problem(
            code="mail.two_documents",
            message=(f"Your mail contains {len(blocks)} orders blocks (starting with 'game:' "
                     f"on lines {where} of your mail); send exactly one set of orders per "
                     "mail."),
            hint="Delete all but one of the blocks and send again.",
        ),))
    return _read_block(envelope, blocks[0], from_html=body.from_html)


def _read_block(envelope: _Envelope, block: YamlBlock, *, from_html: bool) -> ParsedMail:
    orders_text = normalise_text(block.text)
    echo = normalise_text(block.echo)  # a rejoined comment shown once (issue 24 N15)
    if len(block.lines) > MAX_ORDERS_LINES or len(orders_text) > MAX_ORDERS_CHARS:
        size = (f"more than {MAX_ORDERS_LINES} lines" if len(block.lines) > MAX_ORDERS_LINES  # read no further
                else f"{len(block.lines)} lines and {len(orders_text)} characters")
        return _result(envelope, "reject", problems=(Problem(
            code="mail.too_large",
            message=(f"Your orders block is {size} long; orders may be at most {MAX_ORDERS_LINES} "
                     f"lines and {MAX_ORDERS_CHARS} characters."),
            hint="Send only your orders for this step, in the shape of the template.",
        ),))
    offset = None if from_html else block.start
    stray = _stray_problems(block, offset)
    try:
        document = load_strict_yaml(orders_text, mail_line_offset=offset)
    except OrdersYamlError as exc:
        if not block.spilled:
            return _result(envelope, "reject", orders_text=orders_text,
                           problems=(*stray, *exc.problems))
        return _read_spilled(envelope, block, offset, stray)
    if stray:
        return _result(envelope, "reject", orders_text=echo, problems=stray)
    document = _lowercase_command(document)
    problem = _check_document(document)
    if problem is not None:
        return _result(envelope, "reject", orders_text=echo, problems=(problem,))
    return _result(envelope, "accept", document=document, orders_text=echo)


def _read_spilled(envelope: _Envelope, block: YamlBlock, offset: int | None,
                  stray: tuple[Problem, ...]) -> ParsedMail:
    """A block that is no YAML as sent, with lines that may be a comment's wrapped rest
    (:attr:`YamlBlock.spilled`, issue 24 item 2: ``movement: none because …`` spilled
    to column 0 by a 76-column client was refused naming the next, correct line): read
    with those lines joined to their comments when that is YAML; otherwise refused
    naming each spilled line as a wrapped one, with the problems of the joined block."""
    joined = block.rejoin_spilled()
    orders_text = normalise_text(joined.text)
    try:
        document = load_strict_yaml(orders_text, mail_line_offset=offset)
    except OrdersYamlError as exc:
        spilled = [StrayLine(i, (block.lines[i - block.start]).strip(), wrapped=True)
                   for i in block.spilled]
        named = _stray_problems(replace(block, stray=tuple(spilled)), offset)
        return _result(envelope, "reject", orders_text=normalise_text(block.text),
                       problems=(*named, *stray, *exc.problems))
    echo = normalise_text(joined.echo)  # a rejoined comment shown once (issue 24 N15)
    if stray:
        return _result(envelope, "reject", orders_text=echo, problems=stray)
    document = _lowercase_command(document)
    problem = _check_document(document)
    if problem is not None:
        return _result(envelope, "reject", orders_text=echo, problems=(problem,))
    return _result(envelope, "accept", document=document, orders_text=echo)


def _stray_problems(block: YamlBlock, offset: int | None) -> tuple[Problem, ...]:
    """One ``mail.stray_line`` problem per stray line of ``block`` (issue 24 item 2): the
    line is named (its number in the block and in the mail, and its text), never cut."""
    problems = []
    for stray in block.stray:
        line = stray.index - block.start + 1
        where = f"line {line} (line {stray.index + 1} of your mail)" if offset else f"line {line}"
        shown = stray.text if len(stray.text) <= 60 else stray.text[:57] + "..."
        if stray.wrapped:
            what = ("looks like the end of the line above it, wrapped by your mail program; "
                    "the judge will not guess whether it belongs to that value")
        else:
            what = ("is not a 'key: value' line, a list item or a '#' comment; the orders go "
                    "on below it, so the judge can neither read it nor end the orders there")
        problems.append(Problem(
            code="mail.stray_line",
            message=f"{where}: '{shown}' sits inside your orders block and {what}.",
            line=line,
            hint=("If your mail program wrapped a long line, join this line to the end of the "
                  "line above it (or shorten that line); if it is a note, start it with '#' or "
                  "move it below the orders."),
        ))
    return tuple(problems)


def parse_mail(raw: bytes, *, own_addresses: Collection[str] = (),
               own_domains: Collection[str] = (), limits: MailLimits | None = None,
               authserv_id: str | None = None) -> ParsedMail:
    """Read one raw mail (RFC 5322 bytes, as fetched over IMAP) into a :class:`ParsedMail`.

    Never raises: any unexpected failure becomes ``action="reject"`` with one problem of
    code ``"mail.unreadable"`` (or an ``ignore`` when the sender cannot be read either).

    Decisions, in order:

    1. larger than ``limits`` (size, header section, a cheap count of parts) -> the header
       section alone is read, and the mail is ``reject``-ed with ``"mail.too_large"``
       (the message names the limit) unless step 2 applies; the body is never parsed;
    2. machine mail -> ``ignore`` with ``ignore_reason`` ``"bounce"`` (``bouncing`` filled
       from the RFC 3464 report), ``"loop"`` (From in ``own_addresses``, Message-ID domain
       in ``own_domains``, or an ``X-Pbem-Loop`` header) or ``"auto-reply"`` (RFC 3834 and
       vendor signals), ``machine`` set. Our own mail and delivery reports are never
       read further. A mail with only a *weak* signal (:mod:`pbem.mail.machine`) that
       holds an orders block in the author's own text is a person's: it goes on to the
       steps below with ``machine`` set. A mail ignored on a *strong* auto-reply signal
       whose orders read cleanly carries them in ``as_person``, for the service to act on
       only when they prove to be the seat's own (issue 13);
    3. no usable sender (see :func:`pbem.mail.headers.read_sender`) -> ``ignore`` with
       ``"unreadable-sender"``: never answered, ``ignore_detail`` says why;
    4. more MIME parts or deeper nesting than ``limits`` -> ``reject``
       ``"mail.too_large"``;
    5. no text and no attachments at all -> ``ignore`` with ``"empty"``;
    6. no orders block in the author's own text -> ``reject`` (``"mail.forwarded"`` when
       the orders are in a forwarded message, ``"mail.encrypted"``, or ``"mail.no_orders"``
       with the expected shape in the hint, saying so when the only block is in a quote
       or in the judge's own mail included below the reply);
    7. more than one block -> ``reject`` ``"mail.two_documents"``;
    8. the block is not strict YAML, or holds a stray line (a line that is not YAML with
       more of the block below it, :mod:`pbem.mail.blocks`) -> ``reject`` with every
       problem (``"yaml.*"``, ``"mail.stray_line"``), line numbers counted in
       ``orders_text`` (and in the mail text when it differs);
    9. not a mapping with a ``game`` key -> ``reject`` ``"mail.no_orders"``;
    10. otherwise ``accept`` with ``document``.

    Args:
        raw: the message bytes (``str`` is accepted and encoded as UTF-8).
        own_addresses: our sending addresses, to recognise our own mail coming back.
        own_domains: our Message-ID domains, idem.
        limits: the work bounds (:class:`MailLimits`; the defaults when ``None``).
        authserv_id: our receiving server's authserv-id; when given, the topmost
            Authentication-Results field with it is parsed into ``authentication``.
    """
    try:
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        raw = bytes(raw)
    except Exception:  # noqa: BLE001
        raw = b""
    limits = limits or MailLimits()
    try:
        return _parse(raw, own_addresses, own_domains, limits, authserv_id)
    except Exception as exc:  # noqa: BLE001 - the contract is: never raise
        return _unreadable(raw, exc, limits)


def _unreadable(raw: bytes, exc: BaseException, limits: MailLimits) -> ParsedMail:
    try:
        envelope = _envelope(_headers_only(raw, limits), raw)
    except Exception:  # noqa: BLE001
        envelope = _envelope(None, raw)
    return _result(envelope, "reject", problems=(Problem(
        code="mail.unreadable",
        message=("We could not read your mail; please send your orders again as plain "
                 "text in the body of a new mail."),
        hint=f"Internal error: {type(exc).__name__}",
    ),))
