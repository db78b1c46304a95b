"""Machine mail is recognised, never parsed for orders and never answered."""

from __future__ import annotations

import pytest

from pbem.mail.message import parse_mail

from .clients import ORDERS
from .conftest import raw_mail

OWN = {"own_addresses": ["judge@pbem.example"], "own_domains": ["pbem.example"]}


@pytest.mark.parametrize("headers,subject", [
    ({"Auto-Submitted": "auto-replied"}, "Re: your move"),
    ({"Auto-Submitted": "auto-generated; owner-email=\"x@y.example\""}, "Re: your move"),
    ({"Auto-Submitted": "auto-notified"}, "Re: your move"),
    ({"X-Autoreply": "yes"}, "Re: your move"),
    ({"X-Autorespond": "Away"}, "Re: your move"),
    ({"Return-Path": "<>"}, "Re: your move"),
])
def test_strong_signals_ignore_the_mail_but_keep_its_orders_for_the_seat_check(headers: dict,
                                                                                subject: str) -> None:
    """Only software sets these (RFC 3834): the mail is ignored, its orders are kept in
    ``as_person`` so the service can still act when they carry the seat's own key."""
    result = parse_mail(raw_mail(ORDERS, headers=headers, subject=subject), **OWN)
    assert (result.action, result.ignore_reason) == ("ignore", "auto-reply")
    assert result.machine is not None and result.machine.strength == "strong"
    assert result.document is None and result.problems == () and result.bouncing == ()
    assert result.as_person is not None and result.as_person.action == "accept"
    assert result.as_person.document["game"] == "alexandria-1"


@pytest.mark.parametrize("headers,subject", [
    ({"X-MS-Exchange-Inbox-Rules-Loop": "north@players.example"}, "Re: your move"),
    ({"Precedence": "auto_reply"}, "Re: your move"),
    ({"Precedence": "bulk"}, "Re: your move"),
    ({"Precedence": "junk"}, "Re: your move"),
    ({"Precedence": "list"}, "Re: your move"),
    ({}, "Automatic reply: [alexandria-1] your move"),
    ({}, "Out of Office: [alexandria-1] your move"),
    ({}, "[External] Out of Office: [alexandria-1] your move"),
    ({}, "[alexandria-1] your move - Out of the office"),
    ({}, "Abwesenheitsnotiz: [alexandria-1] your move"),
    ({}, "Automatische Antwort: [alexandria-1] your move"),
    ({}, "Réponse automatique : [alexandria-1] your move"),
    ({}, "Respuesta automática: [alexandria-1] your move"),
    ({}, "Автоматический ответ: [alexandria-1] your move"),
    ({}, "=?utf-8?q?Abwesenheitsnotiz=3A_Re=3A_your_move?="),
])
def test_weak_signals_with_orders_in_the_authors_text_are_a_persons_mail(headers: dict, subject: str) -> None:
    """People's mail carries these too (mailing lists, Exchange rules, subjects typed by
    hand): with orders in the author's own text the mail is read, the signal noted."""
    result = parse_mail(raw_mail(ORDERS, headers=headers, subject=subject), **OWN)
    assert result.action == "accept" and result.document["game"] == "alexandria-1"
    assert result.machine is not None and result.machine.strength == "weak"


@pytest.mark.parametrize("headers,subject", [
    ({"Precedence": "bulk"}, "Re: your move"),
    ({}, "Out of Office: [alexandria-1] your move"),
    ({"X-MS-Exchange-Inbox-Rules-Loop": "north@players.example"}, "Re: your move"),
])
def test_weak_signals_without_orders_are_still_ignored(headers: dict, subject: str) -> None:
    body = "I am out of the office until Monday and will answer your mail then.\n"
    result = parse_mail(raw_mail(body, headers=headers, subject=subject), **OWN)
    assert (result.action, result.ignore_reason) == ("ignore", "auto-reply")


@pytest.mark.parametrize("headers,subject", [
    ({"X-Auto-Response-Suppress": "All"}, "Re: your move"),  # Outlook adds it to ordinary mail
    ({"X-Auto-Response-Suppress": "DR, OOF, AutoReply"}, "Re: your move"),
    ({}, "Out of office next week: my orders for step 3"),  # typed by a person, no colon prefix
    ({}, "Vacation plans and my orders"),
    ({}, "Re: [alexandria-1] your move (out of office tomorrow, orders below)"),
])
def test_what_people_write_is_no_machine_signal(headers: dict, subject: str) -> None:
    result = parse_mail(raw_mail(ORDERS, headers=headers, subject=subject), **OWN)
    assert result.action == "accept" and result.machine is None


def test_auto_submitted_no_is_a_person() -> None:
    result = parse_mail(raw_mail(ORDERS, headers={"Auto-Submitted": "no"}), **OWN)
    assert result.action == "accept"


def _dsn(recipients: list[tuple[str, str, str]], *, sender: str = "MAILER-DAEMON@mx.example",
         report_type: str = "delivery-status") -> bytes:
    blocks = "".join(
        f"Final-Recipient: rfc822; {addr}\r\nAction: {action}\r\nStatus: {status}\r\n\r\n"
        for addr, action, status in recipients)
    body = (
        "--b\r\nContent-Type: text/plain\r\n\r\nDelivery failed.\r\n\r\n"
        "--b\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.example\r\nArrival-Date: Fri, 20 Nov 2026 09:30:00 +0000\r\n"
        f"\r\n{blocks}"
        "--b\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: judge@pbem.example\r\n"
        "X-Pbem-Loop: 1\r\nSubject: " + ORDERS.split("\n")[0] + "\r\n\r\n--b--\r\n")
    return raw_mail(body, sender=sender, subject="Delivery Status Notification (Failure)",
                    content_type=f'multipart/report; report-type={report_type}; boundary="b"',
                    cte="7bit")


def test_dsn_with_several_recipients_marks_only_the_failed_ones() -> None:
    raw = _dsn([("West@Players.example", "failed", "5.1.1"),
                ("east@players.example", "delayed", "4.4.1"),
                ("south@players.example", "delivered", "2.0.0"),
                ("<north@players.example>", "failed", "5.2.2")])
    result = parse_mail(raw, **OWN)
    assert (result.action, result.ignore_reason) == ("ignore", "bounce")
    assert result.bouncing == ("west@players.example", "north@players.example")


def test_delayed_dsn_is_a_bounce_with_nobody_bouncing() -> None:
    result = parse_mail(_dsn([("east@players.example", "delayed", "4.4.1")],
                             sender="postmaster@mx.example"), **OWN)
    assert (result.ignore_reason, result.bouncing) == ("bounce", ())


def test_dsn_from_an_ordinary_sender_is_still_a_bounce() -> None:
    result = parse_mail(_dsn([("west@players.example", "failed", "5.1.1")],
                             sender="mail@relay.example"), **OWN)
    assert result.bouncing == ("west@players.example",)


def test_non_standard_bounce_from_mailer_daemon() -> None:
    raw = raw_mail("Hi. This is the qmail-send program.\n\n<west@players.example>:\nNo mailbox.\n",
                   sender="MAILER-DAEMON@mx.example", subject="failure notice",
                   headers={"X-Failed-Recipients": "west@players.example"})
    result = parse_mail(raw, **OWN)
    assert (result.ignore_reason, result.bouncing) == ("bounce", ("west@players.example",))


def test_bounce_subject_with_null_return_path() -> None:
    raw = raw_mail("Your message could not be delivered.\n", sender="mail@mx.example",
                   subject="Undeliverable: your move", headers={"Return-Path": "<>"})
    assert parse_mail(raw, **OWN).ignore_reason == "bounce"


@pytest.mark.parametrize("kwargs", [
    {"sender": "pbem judge <Judge@PBEM.example>"},
    {"message_id": "<report-7-north@pbem.example>"},
    {"headers": {"X-Pbem-Loop": "alexandria-1"}},
    {"sender": "judge@pbem.example", "headers": {"Auto-Submitted": "auto-generated"}},
])
def test_our_own_mail_coming_back_is_a_loop(kwargs: dict) -> None:
    result = parse_mail(raw_mail(ORDERS, **kwargs), **OWN)
    assert (result.action, result.ignore_reason) == ("ignore", "loop")


def test_without_own_addresses_nothing_is_a_loop() -> None:
    result = parse_mail(raw_mail(ORDERS, sender="judge@pbem.example"))
    assert result.action == "accept"


def test_message_id_in_a_subdomain_of_ours_is_not_a_loop() -> None:
    result = parse_mail(raw_mail(ORDERS, message_id="<abc@mail.pbem.example>"), **OWN)
    assert result.action == "accept"


def test_player_replying_to_our_message_id_is_not_a_loop() -> None:
    raw = raw_mail(ORDERS, headers={"In-Reply-To": "<report-7@pbem.example>",
                                    "References": "<report-7@pbem.example>"})
    assert parse_mail(raw, **OWN).action == "accept"
