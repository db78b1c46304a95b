"""Reading the header fields of incoming mail safely: who sent it, which Message-ID it has.

Everything here is built on the stdlib :mod:`email` package (``policy.default``, the
``headerregistry`` address parser, ``headerregistry.Address`` for addr-spec checks):

* :data:`INBOUND` is ``policy.default`` with two changes. Raw 8-bit bytes in a header
  (SMTPUTF8 clients, RFC 6532; or Latin-1 from old clients) are decoded as UTF-8, else
  windows-1252, when the header is read, instead of being kept as surrogate escapes that
  make any later encoding raise. And a header value longer than
  :data:`MAX_HEADER_VALUE_CHARS` is cut before the header registry parses it (its parser is
  quadratic: a 5 MB Subject cost 372 s of CPU).
* :func:`read_sender` returns the addr-spec of ``From:`` (RFC 5322 section 3.6.2) or a
  refusal; never an address found in a display name or a comment.
* :func:`message_id` / :func:`msg_ids` keep only valid msg-ids (RFC 5322 section 3.6.4).
* :func:`clean_text` removes control characters from text shown in our headers or replies.

Hand-written parts, and why no library replaces them: the msg-id check is a regular
expression transcribed from the RFC 5322 ABNF, because ``headerregistry.MessageIDHeader``
is lenient by design (it accepts obsolete forms, non-ASCII and garbage, recording defects
instead of refusing) and we need a yes/no on the strict grammar before copying an id into
our own headers. The domain check (labels of letters, digits and hyphens) is a few lines
that ``Address`` does not do (it accepts domain literals and single labels).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import errors
from email.header import decode_header, make_header
from email.headerregistry import Address
from email.message import Message
from email.policy import EmailPolicy
from functools import lru_cache

from pbem.addresses import fold_address

__all__ = [
    "INBOUND",
    "MAX_HEADER_VALUE_CHARS",
    "MAX_MSG_ID_CHARS",
    "SYNTHETIC_DOMAIN",
    "InboundPolicy",
    "Sender",
    "clean_text",
    "fold_address",
    "is_msg_id",
    "message_id",
    "msg_ids",
    "normalise_address",
    "read_sender",
]

#: Longest header value parsed (characters); longer values are cut (see the module doc).
MAX_HEADER_VALUE_CHARS = 16_000
#: Longest value of the MIME fields read for every part (RFC 2045/2183; real ones are a
#: few hundred characters, RFC 2231 file names included).
MAX_MIME_VALUE_CHARS = 2_000
_MIME_FIELDS = frozenset({"content-type", "content-disposition", "content-transfer-encoding",
                          "content-id", "mime-version"})
#: Longest msg-id we accept, angle brackets included (a folded header line must stay under
#: RFC 5322's 998 characters; real ids are under 120).
MAX_MSG_ID_CHARS = 250
#: The domain of the Message-IDs we make up for mails without a valid one (``.invalid`` is
#: reserved, RFC 2606, so no real msg-id has it); such ids are never put in our headers.
SYNTHETIC_DOMAIN = "pbem.invalid"
#: Longest address we accept (RFC 5321 section 4.5.3.1: a path is at most 256 octets).
MAX_ADDRESS_CHARS = 254


def _decode_8bit(value: str) -> str:
    """Surrogate-escaped header bytes to text: UTF-8 (RFC 6532), else windows-1252."""
    data = value.encode("ascii", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


class InboundPolicy(EmailPolicy):
    """``policy.default`` for reading mail we receive (never for writing).

    ``header_source_parse`` decodes raw 8-bit header bytes (RFC 6532 UTF-8, else
    windows-1252); ``header_fetch_parse`` cuts values longer than ``max_value_chars``
    characters (:data:`MAX_MIME_VALUE_CHARS` for the MIME fields of each part) before
    parsing them, and remembers recent parses: the ``email`` package re-parses a field on
    every access (``get_content_type``, ``get_param``...), a few dozen times per part.
    """

    max_value_chars: int = MAX_HEADER_VALUE_CHARS

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        """RFC 5322 field name and unfolded value, 8-bit bytes decoded (RFC 6532)."""
        name, value = super().header_source_parse(sourcelines)
        if not value.isascii():
            value = _decode_8bit(value)
        return name, value

    def header_fetch_parse(self, name: str, value: str):  # type: ignore[no-untyped-def]
        """The parsed header object, from at most ``max_value_chars`` of the value."""
        if not isinstance(value, str) or hasattr(value, "name"):
            return super().header_fetch_parse(name, value)
        limit = MAX_MIME_VALUE_CHARS if name.lower() in _MIME_FIELDS else self.max_value_chars
        return _parsed_header(self, name, value[:limit])


@lru_cache(maxsize=2048)
def _parsed_header(policy: InboundPolicy, name: str, value: str):  # type: ignore[no-untyped-def]
    """Header objects are immutable, so one parse serves every access to the same field."""
    return EmailPolicy.header_fetch_parse(policy, name, value)


#: The policy every incoming message is parsed with.
INBOUND = InboundPolicy()


# ---------------------------------------------------------------------------------------
# Text shown back to people

def _control_table() -> dict[int, str]:
    table = {code: " " for code in [*range(0x20), 0x7F, 0x2028, 0x2029, 0x85]}
    for code in range(0x80, 0xA0):  # C1: windows-1252 punctuation mislabelled as Latin-1
        try:
            table[code] = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            table[code] = " "
    table[0x85] = " "
    # Invisible format characters that reorder or hide text (bidi embeddings, overrides and
    # isolates, marks, the BOM, zero-width space, word joiners): dropped. ZWJ/ZWNJ stay
    # (scripts and emoji need them).
    for code in [0x061C, 0x200B, 0x200E, 0x200F, *range(0x202A, 0x202F),
                 *range(0x2060, 0x2065), *range(0x2066, 0x206A), 0xFEFF,
                 *range(0xFFF9, 0xFFFC)]:
        table[code] = ""
    return table


_CONTROLS = _control_table()


def clean_text(value: str, limit: int = 200) -> str:
    """``value`` without control characters, whitespace collapsed, at most ``limit`` chars.

    C0 controls (NUL, CR, LF, tab...), DEL, NEL and the Unicode line and paragraph
    separators become spaces; C1 controls become the windows-1252 characters they stand
    for; bidi controls, the BOM and zero-width spaces are removed. Text longer than ``limit`` is cut and ends with ``"…"``. The result is safe in a
    header (no CR/LF, RFC 5322 section 2.2) and in a reply body. Never raises.
    """
    text = " ".join(str(value).translate(_CONTROLS).split())
    if len(text) > limit:
        text = text[:max(limit - 1, 0)].rstrip() + "…"
    return text


def clean_header_text(value: str, limit: int = 200) -> str:
    """:func:`clean_text` for text we write into a header field (a display name, a
    subject): RFC 2047 encoded-words in it are decoded first (up to three times, for
    words nested in words), then cleaned, and any ``=?`` left becomes ``= ?``.

    The stdlib decodes an encoded-word it finds in a header value it is given as a str,
    and Python before 3.11.10/3.12.5 writes a decoded CR LF out unfolded (CVE-2024-6923):
    a player's name ``=?utf-8?b?...?=`` that decodes to ``\r\nReply-To: ...`` added
    header fields to every mail to that seat (issue 25, second break-it pass). Cleaning
    what the words decode to, and leaving no word to decode, closes it on every Python.
    Never raises."""
    text = str(value)
    for _ in range(3):
        if "=?" not in text:
            break
        try:
            decoded = str(make_header(decode_header(text)))
        except Exception:  # noqa: BLE001 - a malformed word stays as it is, then is broken up
            break
        if decoded == text:
            break
        text = decoded
    return clean_text(text, limit).replace("=?", "= ?")


# ---------------------------------------------------------------------------------------
# Message-IDs (RFC 5322 section 3.6.4)

_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]"
_DOT_ATOM_TEXT = rf"{_ATEXT}+(?:\.{_ATEXT}+)*"
_NO_FOLD_LITERAL = r"\[[\x21-\x5a\x5e-\x7e]*\]"
_MSG_ID = rf"<{_DOT_ATOM_TEXT}@(?:{_DOT_ATOM_TEXT}|{_NO_FOLD_LITERAL})>"
_MSG_ID_RE = re.compile(_MSG_ID)


def is_msg_id(value: str) -> bool:
    """True when ``value`` is exactly one RFC 5322 msg-id, ``<id-left@id-right>``, in the
    non-obsolete ASCII grammar (dot-atom-text or a no-fold-literal on the right), at most
    :data:`MAX_MSG_ID_CHARS` characters."""
    return (isinstance(value, str) and len(value) <= MAX_MSG_ID_CHARS
            and _MSG_ID_RE.fullmatch(value) is not None)


def message_id(msg: Message) -> str | None:
    """The Message-ID of ``msg`` if it is one valid msg-id (surrounding CFWS allowed: the
    value, stripped, must be the msg-id, optionally followed by a comment), else ``None``.
    Never raises."""
    value = _raw_value(msg, "Message-ID")
    if value is None:
        return None
    value = " ".join(value.split())
    candidate = value.split(" ", 1)[0]
    rest = value[len(candidate):].strip()
    if rest and not (rest.startswith("(") and rest.endswith(")")):
        return None
    return candidate if is_msg_id(candidate) else None


def msg_ids(msg: Message, name: str, limit: int = 20) -> tuple[str, ...]:
    """The valid msg-ids in header ``name`` (In-Reply-To, References), in order, without
    duplicates; invalid tokens are skipped. With more than ``limit`` ids, the first and
    the last ``limit - 1`` are kept (how RFC 5537 section 3.4.4 trims References).
    Never raises."""
    value = _raw_value(msg, name) or ""
    found = [m for m in _MSG_ID_RE.findall(value[:MAX_HEADER_VALUE_CHARS])
             if len(m) <= MAX_MSG_ID_CHARS]
    ids = tuple(dict.fromkeys(found))
    if len(ids) > limit:
        ids = (ids[0], *ids[-(limit - 1):]) if limit > 1 else ids[-limit:]
    return ids


def _raw_value(msg: Message, name: str) -> str | None:
    """The first ``name`` header's unfolded value as received (no RFC 2047 decoding: an
    encoded word is not a msg-id)."""
    try:
        for key, value in msg.raw_items():  # type: ignore[attr-defined]
            if key.lower() == name.lower():
                return "".join(str(value).splitlines())
    except Exception:  # noqa: BLE001 - a malformed header is "no value"
        return None
    return None


# ---------------------------------------------------------------------------------------
# Addresses (RFC 5322 section 3.4.1, RFC 6532 section 3.2)

_LABEL_RE = re.compile(r"(?!-)[^\W_](?:[^\W_]|-){0,62}(?<!-)")


def _domain_ok(domain: str) -> bool:
    labels = domain.split(".")
    if domain == "localhost":
        return True
    return len(labels) >= 2 and all(_LABEL_RE.fullmatch(label) for label in labels)


def normalise_address(value: str) -> str | None:
    """``value`` lowercased if it is a plain addr-spec we can write to, else ``None``.

    Accepted: ``local@domain`` per RFC 5322 section 3.4.1 in the non-obsolete grammar,
    checked by the stdlib parser (``headerregistry.Address(addr_spec=...)``); UTF-8 is
    allowed where RFC 6532 allows it (internationalised addresses); the domain is a
    host name of two or more labels (letters, digits, hyphens) or ``localhost``. Refused:
    whitespace or control characters anywhere (so no quoted local part with spaces),
    domain literals (``[192.0.2.1]``), more than :data:`MAX_ADDRESS_CHARS` characters.
    Never raises.
    """
    if not isinstance(value, str) or not value or len(value) > MAX_ADDRESS_CHARS:
        return None
    if not value.isprintable() or any(ch.isspace() for ch in value):
        return None
    # RFC 6532 adds UTF8-non-ascii to atext, qtext and dtext: check the ASCII skeleton.
    skeleton = "".join(ch if ch.isascii() else "a" for ch in value)
    try:
        address = Address(addr_spec=skeleton)
    except (errors.MessageError, ValueError, TypeError, IndexError):
        return None
    if not address.username or not address.domain or "@" not in value:
        return None
    domain = value.rsplit("@", 1)[1]
    return fold_address(value) if _domain_ok(domain) else None


@dataclass(frozen=True)
class Sender:
    """Who a mail is from, per its ``From:`` field (RFC 5322 section 3.6.2).

    Attributes:
        address: the lowercased addr-spec, or ``""`` when refused.
        name: the display name, control characters removed (may be ``""``); for
            greeting people only, never for identity.
        problem: why the sender was refused (for logs), ``None`` when ``address`` is set.
        on_behalf: the ``Sender:`` addr-spec when it names another mailbox than ``From:``
            (a list or a delegate sent the mail); informational only.
    """

    address: str
    name: str = ""
    problem: str | None = None
    on_behalf: str = ""


# Defects that do not make the address ambiguous: an unquoted period in a display name
# ("John Q. Public <jqp@example.org>", common), non-printable or non-ASCII characters
# (the address itself is checked by normalise_address, the name is cleaned).
_HARMLESS_DEFECTS = ("period in 'phrase'",)
_HARMLESS_DEFECT_TYPES = (errors.NonPrintableDefect, errors.NonASCIILocalPartDefect)


def _field_count(msg: Message, name: str) -> int:
    try:
        return sum(1 for key in msg.keys() if key.lower() == name.lower())
    except Exception:  # noqa: BLE001
        return 0


def _fatal_defect(header: object) -> str | None:
    for defect in getattr(header, "defects", ()):
        if isinstance(defect, _HARMLESS_DEFECT_TYPES) or str(defect) in _HARMLESS_DEFECTS:
            continue
        return str(defect) or type(defect).__name__
    return None


def _one_mailbox(msg: Message, name: str) -> tuple[str, str] | str:
    """``(addr_spec, display name)`` of the single mailbox in field ``name``, or why not."""
    try:
        header = msg[name]
        if header is None:
            return f"no {name}: field"
        groups = header.groups
        defect = _fatal_defect(header)
    except Exception as exc:  # noqa: BLE001 - e.g. CR/LF inside an encoded display name
        return f"{name}: cannot be parsed ({type(exc).__name__}: {exc})"
    if defect:
        return f"{name}: is not valid RFC 5322 ({defect})"
    if any(group.display_name is not None for group in groups):
        return f"{name}: uses group syntax"
    mailboxes = [address for group in groups for address in group.addresses]
    if len(mailboxes) != 1:
        return f"{name}: has {len(mailboxes)} addresses, not one"
    return mailboxes[0].addr_spec or "", mailboxes[0].display_name or ""


_TRAILING_COMMENT = re.compile(r"\s*\([^()]*\)\s*$")


def _literal_addr_spec(raw: str, addr_spec: str) -> bool:
    """True when ``addr_spec`` (what the stdlib parser made of the field) is written
    literally as the field's address (RFC 5322 3.4: the ``<...>`` of a name-addr, or the
    whole field for a bare addr-spec, a trailing comment allowed). The parser decodes
    encoded-words and drops comments and quotes *inside* an addr-spec
    (``=?utf-8?q?north?=@x``, ``north(c)@x``, ``"north"@x`` all give ``north@x``), which
    made such a field match a seat's address (break-it finding 3); RFC 2047 section 5
    forbids encoded-words in an addr-spec, and we take the address as written or not at
    all."""
    value = _TRAILING_COMMENT.sub("", raw.strip()).strip()
    if value.endswith(">") and "<" in value:
        return value[value.rindex("<") + 1:-1] == addr_spec
    return value == addr_spec


_ENCODED_NAME_MAILBOX = re.compile(r"\s*(?P<name>(?:=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=\s*)+)<(?P<addr>[^<>\s]+)>\s*")


def _encoded_name_mailbox(raw: str) -> tuple[str, str] | None:
    """``(addr_spec, display name)`` of a From: field the stdlib cannot parse only
    because its display name is RFC 2047 encoded-words that decode to CR or LF (which it
    refuses): a field of nothing but encoded-words and one ``<addr-spec>``. The name is
    decoded and cleaned (:func:`clean_header_text`: no line break, no encoded-word left);
    the address is the one written between the brackets. None for any other field. A
    seat's mail with such a name was ignored unanswered (issue 25, third break-it pass);
    the address is as plain as in any other mail, and only the name was odd."""
    match = _ENCODED_NAME_MAILBOX.fullmatch(raw)
    if match is None or "=?" in match["addr"] or normalise_address(match["addr"]) is None:
        return None
    return match["addr"], clean_header_text(match["name"], 100)


def read_sender(msg: Message) -> Sender:
    """The sender of ``msg``: the one mailbox of its one ``From:`` field, or a refusal.

    Refused (``address == ""``, ``problem`` says why): no ``From:`` or several; a field
    the stdlib parser reads only with defects (anything beyond an unquoted period in the
    display name: text outside the angle brackets, a missing domain, obsolete routes,
    CR/LF inside an encoded display name); group syntax; several mailboxes (RFC 5322
    allows them only with a ``Sender:``, and one mail acts for one seat); an addr-spec
    :func:`normalise_address` refuses. The address is never taken from a display name, a
    comment or a decoded encoded-word. A ``Sender:`` naming another mailbox is reported in
    :attr:`Sender.on_behalf` and does not change the identity. Never raises.
    """
    count = _field_count(msg, "From")
    if count != 1:
        return Sender("", problem="no From: field" if count == 0 else f"{count} From: fields")
    found = _one_mailbox(msg, "From")
    if isinstance(found, str):
        found = _encoded_name_mailbox(_raw_value(msg, "From") or "") or found
    if isinstance(found, str):
        return Sender("", problem=found)
    addr_spec, display_name = found
    if not _literal_addr_spec(_raw_value(msg, "From") or "", addr_spec):
        return Sender("", clean_text(display_name, 100),
                      problem=f"From: address {clean_text(addr_spec, 80)!r} is not written as a plain addr-spec "
                      "(an encoded-word, a comment or quoting inside it)")
    address = normalise_address(addr_spec)
    name = clean_text(display_name, 100)
    if address is None:
        return Sender("", name, problem=f"From: address {clean_text(addr_spec, 80)!r} is "
                      "not a plain addr-spec")
    on_behalf = ""
    if _field_count(msg, "Sender") == 1:
        other = _one_mailbox(msg, "Sender")
        if not isinstance(other, str):
            other_address = normalise_address(other[0]) or ""
            on_behalf = other_address if other_address != address else ""
    return Sender(address, name, None, on_behalf)
