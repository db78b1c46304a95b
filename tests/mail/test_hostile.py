"""Regression tests for issue 17 (mail side): hostile headers, identity, size, control
characters. They use only ``parse_mail`` and ``compose``, so they run (and fail) against
the code before the fix too."""

from __future__ import annotations

import email
from email import policy
from pathlib import Path

import pytest

from pbem.config import ConfigError, parse_config
from pbem.mail.compose import Outgoing, compose
from pbem.mail.message import ParsedMail, parse_mail

from .clients import ORDERS
from .conftest import EXPECTED, raw_mail

CASES = Path(__file__).resolve().parent / "eml"


def head(*lines: bytes, body: bytes = ORDERS.encode()) -> bytes:
    """A text/plain mail with exactly these header lines (bytes, CRLF)."""
    base = [b"To: judge@pbem.example", b"Date: Fri, 20 Nov 2026 09:30:00 +0000",
            b"Content-Type: text/plain; charset=utf-8"]
    return b"\r\n".join([*lines, *base]) + b"\r\n\r\n" + body.replace(b"\n", b"\r\n")


def reply(parsed: ParsedMail) -> Outgoing:
    """Compose the answer the service sends to ``parsed`` (a rejection or receipt)."""
    return compose(sender="judge@pbem.example", sender_name="Judge", to_addr=parsed.sender,
                   to_name=parsed.sender_name or None, subject=f"Re: {parsed.subject}",
                   text=f"About your mail {parsed.subject!s}:\nnothing changed.",
                   message_id="<pbem.reply.1@pbem.example>", kind="reply",
                   in_reply_to=parsed.message_id, references=parsed.references,
                   auto="auto-replied")


def header_block(out: Outgoing) -> list[bytes]:
    """The header lines of a composed message, unfolded."""
    top = out.raw.split(b"\r\n\r\n", 1)[0]
    return [line for line in top.replace(b"\r\n ", b" ").replace(b"\r\n\t", b" ")
            .split(b"\r\n")]


# --- finding 1: raw 8-bit bytes in From: and Message-ID: ---------------------------------

@pytest.mark.parametrize("raw_from", [
    "From: Kléitos <kleitos@example.org>".encode(),           # SMTPUTF8 client, RFC 6532
    b"From: Kl\xe9itos <kleitos@example.org>",                  # Latin-1 bytes
    b"From: \xff\xfe <kleitos@example.org>",                    # bytes valid in no charset
])
def test_8bit_from_is_read_and_answered(raw_from: bytes) -> None:
    parsed = parse_mail(head(raw_from, b"Subject: orders", b"Message-ID: <m1@example.org>"))
    out = reply(parsed)  # raised UnicodeEncodeError inside the error path before the fix
    assert parsed.sender == "kleitos@example.org"
    assert parsed.action == "accept" and parsed.document == EXPECTED
    assert "\udce9" not in parsed.sender_name and parsed.sender_name.isprintable()
    to = next(line for line in header_block(out) if line.startswith(b"To: "))
    assert to.isascii() and to.endswith(b"<kleitos@example.org>")
    if raw_from.startswith(b"From: Kl"):
        assert email.message_from_bytes(out.raw, policy=policy.default)["To"].addresses[
            0].display_name == "Kléitos"


@pytest.mark.parametrize("raw_id", [
    "Message-ID: <kléitos-1@example.org>".encode(),
    b"Message-ID: <kl\xe9itos-1@example.org>",
    b"Message-ID: <a b@example.org>",
    b"Message-ID: <a@b@example.org>",
    b"Message-ID: no-brackets@example.org",
    b"Message-ID: <\x01@example.org>",
    b"Message-ID: =?utf-8?q?=3Cx=0D=0ABcc=3A_victim=40example.org=3E?=",
])
def test_invalid_message_id_is_replaced_and_never_copied(raw_id: bytes) -> None:
    raw = head(b"From: Kleitos <kleitos@example.org>", b"Subject: orders", raw_id)
    parsed = parse_mail(raw)
    assert parsed.message_id.endswith("@pbem.invalid>")
    assert parse_mail(raw).message_id == parsed.message_id  # stable
    out = reply(parsed)
    lines = header_block(out)
    assert not any(line.startswith((b"In-Reply-To:", b"References:")) for line in lines)
    assert all(line.isascii() for line in lines)


def test_8bit_and_bad_ids_in_references_are_dropped() -> None:
    raw = head(b"From: k <kleitos@example.org>", b"Subject: orders",
               b"Message-ID: <m2@example.org>",
               b"In-Reply-To: <p\xe9re@example.org>",
               b"References: <r1@example.org> <bad id@x> <\xc3\xa9@x.org> <r2@example.org>")
    parsed = parse_mail(raw)
    assert parsed.in_reply_to is None
    assert parsed.references == ("<r1@example.org>", "<r2@example.org>")
    refs = next(line for line in header_block(reply(parsed)) if line.startswith(b"References"))
    assert refs == b"References: <r1@example.org> <r2@example.org> <m2@example.org>"


# --- finding 4: the sender is the addr-spec of From:, never a display name ----------------

ATTACKS = [
    b"From: =?utf-8?q?G:=0D=0Anorth@example.org?= <attacker@evil.example>",
    b"From: =?utf-8?q?north@example.org=0D=0A?= <attacker@evil.example>",
    b"From: north@example.org <attacker@evil.example>",
    b"From: north@example.org)<attacker@evil.example>",
    b"From: G: north@example.org;",
    b"From: north@example.org, attacker@evil.example",
    b"From: attacker@evil.example, north@example.org",
    b"From: =?utf-8?b?PG5vcnRoQGV4YW1wbGUub3JnPg==?=",
    b"From: 'north@example.org' via G <north@example.org.evil.example>",
]


@pytest.mark.parametrize("raw_from", ATTACKS)
def test_no_address_is_taken_from_a_display_name(raw_from: bytes) -> None:
    parsed = parse_mail(head(raw_from, b"Subject: orders", b"Message-ID: <m3@evil.example>"))
    assert parsed.sender != "north@example.org"
    assert "north@example.org" not in parsed.sender.split(",")
    if parsed.action != "ignore":
        assert parsed.sender in ("attacker@evil.example", "north@example.org.evil.example")


@pytest.mark.parametrize("raw_from", ATTACKS[2:7])
def test_unreadable_sender_is_refused_not_answered(raw_from: bytes) -> None:
    parsed = parse_mail(head(raw_from, b"Subject: orders", b"Message-ID: <m4@evil.example>"))
    assert (parsed.action, parsed.ignore_reason) == ("ignore", "unreadable-sender")
    assert parsed.sender == "" and parsed.document is None


@pytest.mark.parametrize("raw_from", ATTACKS[:2])
def test_a_name_that_decodes_to_a_line_break_leaves_the_address_in_brackets(raw_from: bytes) -> None:
    """Issue 25, third break-it pass: the mail is read (and answered) as from the
    address in brackets, its name without the line break; never as north's."""
    parsed = parse_mail(head(raw_from, b"Subject: orders", b"Message-ID: <m4@evil.example>"))
    assert parsed.sender == "attacker@evil.example"
    assert "\r" not in parsed.sender_name and "\n" not in parsed.sender_name and "=?" not in parsed.sender_name


def test_a_quoted_address_as_display_name_is_only_a_name() -> None:
    parsed = parse_mail(head(b'From: "north@example.org" <attacker@evil.example>',
                             b"Subject: orders", b"Message-ID: <m5@evil.example>"))
    assert parsed.sender == "attacker@evil.example"
    assert parsed.action == "accept"


def test_two_from_fields_are_refused() -> None:
    parsed = parse_mail(head(b"From: attacker@evil.example", b"From: north@example.org",
                             b"Subject: orders", b"Message-ID: <m6@evil.example>"))
    assert (parsed.action, parsed.ignore_reason) == ("ignore", "unreadable-sender")


def test_a_mail_without_from_is_never_answered() -> None:
    parsed = parse_mail(head(b"Subject: orders", b"Message-ID: <m7@example.org>",
                             body=b"nothing here\n"))
    assert parsed.action == "ignore" and parsed.sender == ""


# --- finding 10: bounded work ---------------------------------------------------------------

def test_a_mail_over_the_size_limit_is_refused_unread() -> None:
    filler = b"Lorem ipsum dolor sit amet, consectetur adipiscing elit.\r\n" * 200_000
    parsed = parse_mail(head(b"From: k <kleitos@example.org>", b"Subject: orders",
                             b"Message-ID: <m8@example.org>",
                             body=ORDERS.encode() + filler))
    assert parsed.action == "reject" and parsed.document is None
    assert [p.code for p in parsed.problems] == ["mail.too_large"]
    assert "MB" in parsed.problems[0].message
    assert parsed.sender == "kleitos@example.org"  # the sender is told


def test_a_huge_subject_is_cut() -> None:
    subject = b"Subject: " + b"orders " * 30_000  # 210 KB, within the header limit
    parsed = parse_mail(head(b"From: k <kleitos@example.org>", subject,
                             b"Message-ID: <m9@example.org>"))
    assert parsed.action == "accept"
    assert len(parsed.subject) <= 200


def test_deeply_nested_multiparts_are_refused_not_dropped() -> None:
    depth = 60
    opening = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i)
                       for i in range(depth))
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    raw = (b"From: k <kleitos@example.org>\r\nSubject: orders\r\nMessage-ID: <m10@x.org>\r\n"
           b"MIME-Version: 1.0\r\n" + opening + b"Content-Type: text/plain\r\n\r\n"
           + ORDERS.encode() + closing)
    parsed = parse_mail(raw)
    assert parsed.action == "reject"
    assert [p.code for p in parsed.problems] == ["mail.too_large"]
    assert "nested" in parsed.problems[0].message


# --- finding 13: control characters ---------------------------------------------------------

@pytest.mark.parametrize("subject", [
    b"Subject: orders\x00 step 7",
    b"Subject: =?utf-8?q?orders=00_step_7?=",
    b"Subject: =?utf-8?q?orders=0D=0ABcc:_victim@example.org?=",
    b"Subject: orders\x1b[31m step 7",
])
def test_control_characters_in_the_subject_are_not_echoed(subject: bytes) -> None:
    parsed = parse_mail(head(b"From: k <kleitos@example.org>", subject,
                             b"Message-ID: <m11@example.org>"))
    assert parsed.subject.isprintable()
    out = reply(parsed)
    lines = header_block(out)
    assert not any(line.lower().startswith(b"bcc") for line in lines)
    assert b"\x00" not in out.raw and b"\x1b" not in out.raw
    assert email.message_from_bytes(out.raw, policy=policy.default)["Subject"].startswith(
        "Re: orders")


def _config(player: str = "Kleitos", email_addr: str = "north@example.org",
            judge_name: str = "pbem judge") -> dict:
    seats = [{"seat": s, "player": player if s == "north" else s.title(),
              "email": email_addr if s == "north" else f"{s}@example.org",
              "key_hash": "pbkdf2_sha256$1$x$y"} for s in ("north", "east", "south", "west")]
    return {"judge": {"address": "judge@pbem.example", "name": judge_name},
            "games": [{"id": "g1", "seats": seats}]}


@pytest.mark.parametrize(("field", "kwargs"), [
    ("games[0].seats[0].player", {"player": "Kleitos\r\nBcc: victim@example.org"}),
    ("games[0].seats[0].player", {"player": "Klei\x00tos"}),
    ("games[0].seats[0].email", {"email_addr": "north@example.org\r\nBcc: x@y.org"}),
    ("judge.name", {"judge_name": "pbem\njudge"}),
])
def test_config_refuses_header_bound_values_with_line_breaks(
        tmp_path: Path, field: str, kwargs: dict) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(_config(**kwargs), base=tmp_path)
    assert any(p.startswith(field + ":") for p in caught.value.problems), caught.value.problems


def test_config_accepts_printable_names(tmp_path: Path) -> None:
    config = parse_config(_config(player="Kléitos «the Old»"), base=tmp_path)
    assert config.games[0].seats[0].player == "Kléitos «the Old»"


def test_a_game_id_with_a_trailing_newline_is_refused(tmp_path: Path) -> None:
    raw = _config()
    raw["games"][0]["id"] = "g1\n"
    with pytest.raises(ConfigError):
        parse_config(raw, base=tmp_path)


def test_raw_mail_helper_sends_raw_utf8() -> None:
    """The helper the other tests use puts RFC 6532 raw UTF-8 into the headers."""
    assert "Kléitos".encode() in raw_mail(ORDERS, sender="Kléitos <k@example.org>")


# --- the .eml cases -----------------------------------------------------------------------

EML_CASES = {
    "8bit-from-utf8.eml": {"action": "accept", "sender": "kleitos@example.org",
                           "name": "Kléitos", "subject": "Re: ordres pour l'étape 7"},
    "8bit-from-latin1.eml": {"action": "accept", "sender": "kleitos@example.org",
                             "name": "Kléitos", "subject": "Re: étape 7"},
    "8bit-message-id.eml": {"action": "accept", "sender": "kleitos@example.org",
                            "synthetic_id": True, "references": ("<r1@pbem.example>",)},
    "crlf-in-encoded-display-name.eml": {"action": "accept", "sender": "attacker@evil.example",
                                         "name": "G: north@example.org"},
    "nul-in-subject.eml": {"action": "accept", "sender": "kleitos@example.org",
                           "subject": "orders for step 7 Bcc: x@evil.example"},
    "forged-authentication-results.eml": {"action": "accept", "sender": "kleitos@example.org",
                                          "dmarc": "fail"},
}


@pytest.mark.parametrize("name", sorted(EML_CASES))
def test_eml_case(name: str) -> None:
    expect = EML_CASES[name]
    parsed = parse_mail((CASES / name).read_bytes(), authserv_id="mx.pbem.example")
    assert parsed.action == expect["action"]
    assert parsed.sender == expect["sender"]
    for key, attribute in (("name", "sender_name"), ("subject", "subject"),
                           ("reason", "ignore_reason"), ("references", "references")):
        if key in expect:
            assert getattr(parsed, attribute) == expect[key], key
    if expect.get("synthetic_id"):
        assert parsed.message_id.endswith("@pbem.invalid>") and parsed.in_reply_to is None
    if "dmarc" in expect:
        assert parsed.authentication is not None
        assert parsed.authentication.result("dmarc") == expect["dmarc"]
    if parsed.sender:
        check = reply(parsed)
        assert all(line.isascii() for line in header_block(check))


def test_every_eml_case_has_an_expectation() -> None:
    assert sorted(p.name for p in CASES.glob("*.eml")) == sorted(EML_CASES)


def test_config_mail_limits_and_authentication(tmp_path: Path) -> None:
    raw = _config()
    raw["max_message_bytes"] = "2MB"
    raw["authentication"] = {"authserv_id": "MX.Pbem.Example", "require": True}
    config = parse_config(raw, base=tmp_path)
    assert (config.max_message_bytes, config.authserv_id, config.require_authentication) == (
        2_000_000, "mx.pbem.example", True)
    assert parse_config(_config(), base=tmp_path).max_message_bytes == 10_000_000
    raw = _config()
    raw["max_message_bytes"] = "lots"
    raw["authentication"] = {"require": True}
    with pytest.raises(ConfigError) as caught:
        parse_config(raw, base=tmp_path)
    assert {p.split(":")[0] for p in caught.value.problems} == {
        "max_message_bytes", "authentication.require"}
