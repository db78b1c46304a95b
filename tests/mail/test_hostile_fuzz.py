"""Property test: hostile raw mails at the ``parse_mail`` level (issue 17).

Mails are built from hostile pieces: raw 8-bit bytes in headers, control characters,
encoded words hiding CR/LF in every header, huge values, nested and broken MIME, and a
display name that names a victim's address. For each: ``parse_mail`` returns a complete
:class:`ParsedMail` whose sender is a valid address or which is a refusal, and composing
the reply the service would send never raises and writes only our own header fields.
"""

from __future__ import annotations

import base64
import email
import unicodedata
from email import policy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail.compose import compose
from pbem.mail.headers import is_msg_id, normalise_address
from pbem.mail.message import MailLimits, ParsedMail, parse_mail

from .clients import ORDERS

VICTIM = "north@players.example"
HOSTILE = settings(max_examples=int(__import__("os").environ.get("FUZZ_N", "150")), deadline=None, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OUR_FIELDS = {"from", "to", "subject", "date", "message-id", "auto-submitted",
              "x-auto-response-suppress", "x-pbem-loop", "in-reply-to", "references",
              "content-type", "content-transfer-encoding", "mime-version", "x-pbem-game"}

NASTY_TEXT = st.sampled_from([
    "\r\n", "\r", "\n", "\x00", "\x1b[2J", "\u2028", "\x85", "Bcc: victim@example.org",
    "\r\nBcc: victim@example.org", "\u202e", VICTIM, f"<{VICTIM}>", "G:", ";", ",", '"', "(", ")", "<",
    ">", "@", "é", "κλείτος", "\ufeff", "=?", "?=",
])
RAW_BYTES = st.sampled_from([b"\xe9", b"\xc3\xa9", b"\xff\xfe", b"\x00", b"\r", b"\x80",
                             b"\xce\xba\xce\xbb", b"\x1b"])


def encoded_word(text: str, q: bool) -> bytes:
    """An RFC 2047 encoded word carrying ``text`` (CR/LF included, if any)."""
    data = text.encode("utf-8")
    if q:
        return b"=?utf-8?q?" + b"".join(b"=%02X" % byte for byte in data) + b"?="
    return b"=?utf-8?b?" + base64.b64encode(data) + b"?="


@st.composite
def hostile_value(draw: st.DrawFn) -> bytes:
    """A header value: plain text, raw 8-bit bytes, encoded CR/LF, possibly huge."""
    parts: list[bytes] = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["text", "raw", "ew-q", "ew-b", "nasty"]))
        if kind == "text":
            parts.append(draw(st.text(alphabet="abc <>@.,;:\"'()", max_size=12)).encode())
        elif kind == "raw":
            parts.append(draw(RAW_BYTES))
        elif kind == "nasty":
            parts.append(draw(NASTY_TEXT).encode("utf-8"))
        else:
            text = "".join(draw(st.lists(NASTY_TEXT, min_size=1, max_size=3)))
            parts.append(encoded_word(text, kind == "ew-q"))
    value = b" ".join(parts)
    if draw(st.integers(0, 9)) == 0:  # now and then a huge value
        value *= draw(st.sampled_from([1_000, 20_000]))
    return value


@st.composite
def from_field(draw: st.DrawFn) -> tuple[bytes, str | None]:
    """A From: value and the only address it may yield besides a refusal (None: any)."""
    attacker = "attacker@evil.example"
    kind = draw(st.sampled_from(["victim-in-name", "hostile", "plain", "two", "group"]))
    if kind == "victim-in-name":
        name = draw(st.sampled_from([
            encoded_word(f"G:\r\n{VICTIM}", True), VICTIM.encode(), f'"{VICTIM}"'.encode(),
            encoded_word(f"<{VICTIM}>", False), f"{VICTIM})".encode(),
            f"{VICTIM}\x00".encode()]))
        return name + f" <{attacker}>".encode(), attacker
    if kind == "plain":
        return f"K\xe9itos <{attacker}>".encode("latin-1"), attacker
    if kind == "two":
        return f"{attacker}, {VICTIM}".encode(), ""
    if kind == "group":
        return f"G: {VICTIM};".encode(), ""
    return draw(hostile_value()), None


@st.composite
def body(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """(Content-Type header lines, body): plain, nested, many parts or broken MIME."""
    orders = ORDERS.replace("\n", "\r\n").encode()
    kind = draw(st.sampled_from(["plain", "nested", "many", "broken", "base64", "8bit"]))
    if kind == "nested":
        depth = draw(st.integers(1, 40))
        opening = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n"
                           % (i, i) for i in range(depth))
        closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
        return b"MIME-Version: 1.0\r\n", opening + b"Content-Type: text/plain\r\n\r\n" \
            + orders + closing
    if kind == "many":
        count = draw(st.sampled_from([3, 150, 600]))
        parts = b"".join(b"--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(count))
        return (b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n",
                b"\r\n--b\r\nContent-Type: text/plain\r\n\r\n" + orders + parts + b"--b--\r\n")
    if kind == "broken":
        return (b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"\r\n",
                b"--\r\nContent-Type: message/rfc822\r\n\r\nFrom: \xff\r\n" + orders)
    if kind == "base64":
        return (b"Content-Type: text/plain; charset=\xff\r\nContent-Transfer-Encoding: base64\r\n",
                base64.encodebytes(orders)[:draw(st.integers(0, 400))])
    if kind == "8bit":
        return b"Content-Type: text/plain; charset=utf-8\r\n", orders + draw(st.binary(max_size=200))
    return b"Content-Type: text/plain; charset=utf-8\r\n", orders


@st.composite
def hostile_mail(draw: st.DrawFn) -> tuple[bytes, str | None, MailLimits]:
    sender, allowed = draw(from_field())
    fields = [b"From: " + sender]
    for name in draw(st.lists(st.sampled_from([
            b"Subject", b"Message-ID", b"In-Reply-To", b"References", b"Sender", b"Reply-To",
            b"Authentication-Results", b"To", b"Content-Disposition", b"X-Other", b"From"]),
            max_size=7)):
        fields.append(name + b": " + draw(hostile_value()))
    content_type, text = draw(body())
    raw = b"\r\n".join(fields) + b"\r\n" + content_type + b"\r\n" + text
    limits = draw(st.sampled_from([MailLimits(), MailLimits(max_message_bytes=2_000)]))
    return raw, allowed, limits


def shown_safely(text: str) -> bool:
    """No control character (Cc), no bidi override, no BOM."""
    return not any(unicodedata.category(ch) == "Cc" or ch in "\u202e\u2066\ufeff\u2028"
                   for ch in text)


def reply_to(parsed: ParsedMail) -> bytes:
    return compose(sender="judge@pbem.example", sender_name="Judge", to_addr=parsed.sender,
                   to_name=parsed.sender_name or None, subject=f"Re: {parsed.subject}",
                   text=f"Your mail {parsed.subject}: nothing changed.",
                   message_id="<pbem.fuzz.1@pbem.example>", kind="reply",
                   in_reply_to=parsed.message_id, references=parsed.references,
                   auto="auto-replied").raw


def check_headers(raw: bytes) -> None:
    """Only our fields, each line CRLF-terminated, continuation lines folded."""
    top = raw.split(b"\r\n\r\n", 1)[0]
    names = []
    for line in top.split(b"\r\n"):
        assert b"\r" not in line and b"\n" not in line and b"\x00" not in line
        if line[:1] in (b" ", b"\t"):
            continue
        names.append(line.split(b":", 1)[0].decode("ascii").lower())
    assert set(names) <= OUR_FIELDS, names
    assert len(names) == len(set(names)), names
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert parsed["Bcc"] is None and parsed["Cc"] is None


@HOSTILE
@given(hostile_mail())
def test_hostile_mail_never_breaks_parse_or_reply(case: tuple[bytes, str | None, MailLimits]
                                                 ) -> None:
    raw, allowed, limits = case
    parsed = parse_mail(raw, own_addresses=["judge@pbem.example"], limits=limits)
    assert isinstance(parsed, ParsedMail)
    assert is_msg_id(parsed.message_id)
    assert parsed.in_reply_to is None or is_msg_id(parsed.in_reply_to)
    assert all(is_msg_id(r) for r in parsed.references)
    assert shown_safely(parsed.subject) and shown_safely(parsed.sender_name)
    if allowed is not None:  # a From: built around the victim's address never yields it
        assert parsed.sender in (allowed, "")
    if parsed.action == "ignore":
        assert parsed.ignore_reason and parsed.document is None
        if not parsed.sender:
            return
    else:
        assert normalise_address(parsed.sender) == parsed.sender
        assert parsed.action in ("accept", "reject")
        assert (parsed.action == "reject") == bool(parsed.problems)
    check_headers(reply_to(parsed))
