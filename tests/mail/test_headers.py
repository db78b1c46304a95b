"""pbem.mail.headers: the strict sender, msg-ids, clean text, the inbound policy."""

from __future__ import annotations

import email

import pytest

from pbem.mail.headers import (
    INBOUND,
    MAX_HEADER_VALUE_CHARS,
    clean_text,
    is_msg_id,
    message_id,
    msg_ids,
    normalise_address,
    read_sender,
)


def msg(*lines: bytes) -> email.message.Message:
    return email.message_from_bytes(b"\r\n".join(lines) + b"\r\n\r\nbody\r\n", policy=INBOUND)


@pytest.mark.parametrize(("value", "address", "name"), [
    (b"From: Kleitos <North@Players.Example>", "north@players.example", "Kleitos"),
    (b"From: north@players.example", "north@players.example", ""),
    (b"From: north@players.example (Kleitos)", "north@players.example", ""),
    (b"From: John Q. Public <jqp@example.org>", "jqp@example.org", "John Q. Public"),
    (b'From: "Smith, John" <js@example.org>', "js@example.org", "Smith, John"),
    (b"From: =?iso-8859-1?q?Kl=E9itos?= <k@example.org>", "k@example.org", "Kléitos"),
    (b"From: =?utf-8?q?Kl=00eitos?= <k@example.org>", "k@example.org", "Kl eitos"),
    ("From: Κλείτος <κλείτος@παράδειγμα.ελ>".encode(), "κλείτος@παράδειγμα.ελ", "Κλείτος"),
    (b"From: k@localhost", "k@localhost", ""),
    # a name of encoded-words that decode to CR LF, which the stdlib refuses: the address is the one in
    # brackets, the name decoded and cleaned (issue 25, third break-it pass: such a mail went unanswered)
    (b"From: =?utf-8?q?G:=0D=0Anorth@example.org?= <attacker@evil.example>", "attacker@evil.example",
     "G: north@example.org"),
])
def test_readable_senders(value: bytes, address: str, name: str) -> None:
    sender = read_sender(msg(value))
    assert (sender.address, sender.name, sender.problem) == (address, name, None)


@pytest.mark.parametrize("value", [
    b"From: north@example.org <attacker@evil.example>",
    b"From: Smith, John <js@example.org>",
    b"From: G: north@example.org;",
    b"From: Undisclosed recipients:;",
    b"From: a@example.org, b@example.org",
    b"From: x <@route.example:a@example.org>",
    b"From: <>",
    b"From: nobody",
    b"From: x <a@[192.0.2.1]>",
    b"From: x <a@example>",
    b'From: x <"a b"@example.org>',
    b"From: x <a@exa_mple.org>",
    b"From:",
])
def test_refused_senders(value: bytes) -> None:
    sender = read_sender(msg(value))
    assert sender.address == "" and sender.problem


def test_a_sender_field_of_another_mailbox_is_reported_not_used() -> None:
    sender = read_sender(msg(b"From: k <k@example.org>", b"Sender: list@lists.example"))
    assert (sender.address, sender.on_behalf) == ("k@example.org", "list@lists.example")
    same = read_sender(msg(b"From: k <k@example.org>", b"Sender: K@example.org"))
    assert same.on_behalf == ""


@pytest.mark.parametrize(("value", "ok"), [
    ("<a@b>", True), ("<a.b-c+d@example.org>", True), ("<x@[127.0.0.1]>", True),
    ("<CAF=1_+x@mail.gmail.com>", True),
    ("a@b", False), ("<a@b", False), ("<a b@c>", False), ("<a@b@c>", False),
    ("<.a@b>", False), ("<a..b@c>", False), ("<é@b>", False), ("<a@b>\r\nBcc: x", False),
    ("<\x00@b>", False), ("<" + "a" * 300 + "@b>", False), ("", False),
])
def test_is_msg_id(value: str, ok: bool) -> None:
    assert is_msg_id(value) is ok


def test_message_id_allows_a_trailing_comment_only() -> None:
    assert message_id(msg(b"Message-ID: <a@b.org> (sent by x)")) == "<a@b.org>"
    assert message_id(msg(b"Message-ID:   <a@b.org>  ")) == "<a@b.org>"
    assert message_id(msg(b"Message-ID: <a@b.org> trailing")) is None
    assert message_id(msg(b"Subject: none")) is None


def test_references_are_trimmed_keeping_the_first_and_latest() -> None:
    refs = b" ".join(b"<r%d@x.org>" % i for i in range(50))
    ids = msg_ids(msg(b"References: " + refs), "References", limit=20)
    assert len(ids) == 20 and ids[0] == "<r0@x.org>" and ids[-1] == "<r49@x.org>"


@pytest.mark.parametrize(("value", "expected"), [
    ("north@example.org", "north@example.org"), ("North@Example.ORG", "north@example.org"),
    ("n.o+rth@sub.example.org", "n.o+rth@sub.example.org"),
    ("north@example.org\r\nBcc: x@y.org", None), ("north@example.org\x00", None),
    ("north @example.org", None), ("north@", None), ("@example.org", None),
    ("a@b@example.org", None), ("north@-example.org", None), ("north@[1.2.3.4]", None),
    ("a" * 250 + "@example.org", None), ("", None),
])
def test_normalise_address(value: str, expected: str | None) -> None:
    assert normalise_address(value) == expected


def test_clean_text() -> None:
    assert clean_text("Re:\x00 orders\r\n\tstep\u20287") == "Re: orders step 7"
    assert clean_text("caf\x92s") == "caf’s"  # a C1 byte is the windows-1252 character
    assert clean_text("x" * 500, 10) == "x" * 9 + "…"


def test_the_inbound_policy_decodes_8bit_and_cuts_huge_values() -> None:
    message = msg("Subject: café".encode(), b"X-Latin: caf\xe9",
                  b"X-Long: " + b"a" * (MAX_HEADER_VALUE_CHARS * 2))
    assert str(message["Subject"]) == "café"
    assert str(message["X-Latin"]) == "café"
    assert len(str(message["X-Long"])) == MAX_HEADER_VALUE_CHARS
