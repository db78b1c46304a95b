"""Authentication-Results (RFC 8601): only our server's topmost field counts."""

from __future__ import annotations

import email
from email.message import Message

from pbem.mail.authresults import (
    MAX_FIELD_CHARS,
    read_authentication_results,
    sender_authentication,
)
from pbem.mail.headers import INBOUND
from pbem.mail.message import parse_mail

from .clients import ORDERS

OURS = "mx.pbem.example"


def mail(*fields: str, sender: str = "north@players.example") -> bytes:
    lines = [f"Authentication-Results: {f}" for f in fields]
    lines += [f"From: Kleitos <{sender}>", "Subject: orders", "Message-ID: <ar@players.example>",
              "Content-Type: text/plain; charset=utf-8"]
    return ("\r\n".join(lines) + "\r\n\r\n" + ORDERS).encode()


PASS = (f"{OURS}; spf=pass smtp.mailfrom=north@players.example; dkim=pass "
        "header.d=players.example header.s=s1; dmarc=pass header.from=players.example")


def test_results_are_parsed_per_method() -> None:
    parsed = parse_mail(mail(PASS), authserv_id=OURS)
    auth = parsed.authentication
    assert auth is not None and auth.authserv_id == OURS and auth.readable
    assert (auth.result("spf"), auth.result("dkim"), auth.result("dmarc")) == (
        "pass", "pass", "pass")
    assert auth.of("dkim")[0].properties["header.d"] == "players.example"
    assert sender_authentication(auth, parsed.sender) == "pass"


def test_nothing_counts_without_a_configured_authserv_id() -> None:
    assert parse_mail(mail(PASS)).authentication is None


def test_a_field_of_another_server_does_not_count() -> None:
    forged = PASS.replace(OURS, "mx.evil.example")
    parsed = parse_mail(mail(forged), authserv_id=OURS)
    assert parsed.authentication is None
    assert sender_authentication(parsed.authentication, parsed.sender) == "none"


def test_only_the_topmost_field_with_our_id_counts() -> None:
    ours = f"{OURS}; spf=fail smtp.mailfrom=players.example; dmarc=fail header.from=players.example"
    parsed = parse_mail(mail(ours, PASS), authserv_id=OURS)  # the forged pass is below
    assert parsed.authentication is not None
    assert parsed.authentication.result("dmarc") == "fail"
    assert sender_authentication(parsed.authentication, parsed.sender) == "fail"


def test_a_pass_for_another_domain_is_not_a_pass_for_the_sender() -> None:
    other = (f"{OURS}; dkim=pass header.d=evil.example; spf=pass smtp.mailfrom=evil.example;"
             " dmarc=pass header.from=evil.example")
    parsed = parse_mail(mail(other), authserv_id=OURS.upper())
    assert parsed.authentication is not None
    assert sender_authentication(parsed.authentication, parsed.sender) == "none"


def test_unreadable_or_huge_fields_authenticate_nothing() -> None:
    for field in (f"{OURS}; dkim=pass (" + "(" * 5000, f"{OURS}; ;;; ===",
                  f"{OURS}; " + "; ".join(["dkim=pass header.d=players.example"] * 400)):
        parsed = parse_mail(mail(field), authserv_id=OURS)
        assert parsed.action == "accept"
        assert parsed.authentication is not None and not parsed.authentication.readable
        assert sender_authentication(parsed.authentication, parsed.sender) == "none"
    assert len(field) > MAX_FIELD_CHARS


def test_none_result_and_missing_field() -> None:
    assert read_authentication_results(parse_mail_msg(f"{OURS}; none"), OURS).results == ()
    assert read_authentication_results(parse_mail_msg(None), OURS) is None


def parse_mail_msg(field: str | None) -> Message:
    raw = mail(field) if field else mail()
    return email.message_from_bytes(raw, policy=INBOUND)
