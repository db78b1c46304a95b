"""A person's mail is never dropped as machine mail (issue 13): a mail from a seat's
registered address holding that seat's orders and key is applied whatever auto-reply
signal it carries; a weak signal never hides orders; real auto-replies stay unanswered;
and a seat's bounce mark goes when its address changes or its player writes from it."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbem import rules
from pbem.service.status import status
from tests.conftest import KEYS, local_judge
from tests.service.helpers import mail


def _doc(judge, key: str | None = None) -> tuple[str, dict]:
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    return seat, {"game": "g1", "seat": seat, "key": key or KEYS[seat], "step": state.step,
                  "orders": {"first_player": seat}}


def _answers(judge) -> int:
    return judge.store.db.execute("SELECT count(*) FROM outbox WHERE kind = 'reply'").fetchone()[0]


@pytest.mark.parametrize("headers", [
    {"Auto-Submitted": "auto-generated"},  # a player's own script
    {"X-Autoreply": "yes"},
    {"Precedence": "bulk", "X-Auto-Response-Suppress": "All"},
    {"X-MS-Exchange-Inbox-Rules-Loop": "x@pbem.localhost"},
])
def test_the_seats_own_orders_and_key_are_applied_whatever_the_signal(tmp_path: Path, headers: dict) -> None:
    judge = local_judge(tmp_path, {})
    seat, doc = _doc(judge)
    step = judge.state("g1").step
    status_ = judge.handle_message(mail(seat, yaml.safe_dump(doc), headers=headers))
    assert status_ == "applied" and judge.state("g1").step == step + 1


def test_a_strong_auto_reply_without_the_key_is_ignored_and_never_answered(tmp_path: Path) -> None:
    """An out-of-office reply that quotes the prompt's template (key placeholder)."""
    judge = local_judge(tmp_path, {})
    seat, doc = _doc(judge, key="YOUR-SEAT-KEY")
    before = _answers(judge)
    raw = mail(seat, yaml.safe_dump(doc), subject="Automatic reply: [g1] your move",
               headers={"Auto-Submitted": "auto-replied"})
    assert judge.handle_message(raw) == "ignored"
    assert _answers(judge) == before


def test_a_weak_signal_with_a_wrong_key_is_answered_like_any_mail(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    seat, doc = _doc(judge, key="wrong")
    before = _answers(judge)
    assert judge.handle_message(mail(seat, yaml.safe_dump(doc), headers={"Precedence": "list"})) == "rejected"
    assert _answers(judge) == before + 1


def _bounce(judge, address: str) -> None:
    """A DSN for ``address`` returning the headers of a mail we sent there (break-it 9h:
    only such a bounce is believed)."""
    (sent,) = judge.store.db.execute("SELECT message_id FROM outbox WHERE to_addr = ? ORDER BY id LIMIT 1",
                                     [address]).fetchone()
    raw = (f"From: MAILER-DAEMON@mx.example\r\nTo: judge@pbem.localhost\r\nSubject: Undelivered\r\n"
           f"Message-ID: <dsn-{address}@mx.example>\r\nMIME-Version: 1.0\r\n"
           'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
           "--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example\r\n\r\n"
           f"Final-Recipient: rfc822; {address}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n"
           f"--b\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: {sent}\r\nTo: {address}\r\n\r\n"
           "--b--\r\n").encode()
    assert judge.handle_message(raw) == "ignored"


def test_a_bounce_mark_goes_when_the_address_changes(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    _bounce(judge, "west@pbem.localhost")
    assert [r["seat"] for r in judge.store.bouncing_seats()] == ["west"]
    row = next(r for r in judge.store.seats("g1") if r["seat"] == "west")
    with judge.store.transaction():  # the host puts the player's new address in the config
        judge.store.update_seat("g1", "west", player=row["player"], email="west.new@pbem.localhost",
                                key_hash=row["key_hash"])
    assert judge.store.bouncing_seats() == []
    assert not any("bouncing" in line for line in status(judge.store).lines())


def test_a_bounce_mark_goes_when_the_player_writes_with_the_key(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    seat, doc = _doc(judge)
    _bounce(judge, f"{seat}@pbem.localhost")
    assert judge.store.bouncing_seats()
    assert judge.handle_message(mail(seat, yaml.safe_dump(doc))) == "applied"
    assert judge.store.bouncing_seats() == []
