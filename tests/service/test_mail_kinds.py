"""Every kind of mail the judge sends goes through the one formatter (issue 13): each has
a text part no wider than 72 columns (a single long word such as a hash aside) and an
HTML part. The kinds are enumerated from the code (every ``outbox.queue(kind=...)``), so
a new kind fails here until this test makes one; a held mail is listed by ``pbem
status`` and its sender is answered."""
from __future__ import annotations

import ast
import email
import email.policy
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from pbem import rules
from pbem.config import parse_config
from pbem.mail.body import too_wide, wrap_text
from pbem.mail.compose import compose
from pbem.service import Judge
from pbem.service.commands.anyone import observe
from pbem.service.log import trust
from pbem.service.outgoing import host_notices
from pbem.service.play import setup
from pbem.service.status import status
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS
from tests.service.helpers import mail

PBEM = Path(__file__).resolve().parents[2] / "pbem"


def _declared_kinds() -> set[str]:
    """The ``kind=`` of every ``queue(...)`` call under pbem/service."""
    kinds = set()
    for f in (PBEM / "service").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "queue":
                for kw in node.keywords:
                    if kw.arg == "kind" and isinstance(kw.value, ast.Constant):
                        kinds.add(kw.value.value)
    return kinds


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2029, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _judge(tmp_path: Path, clock: Clock) -> Judge:
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "pbem.sqlite"),
        "map_attachment": False,
        "games": [{"id": "g1", "host_email": "host@pbem.localhost", "seats": [
            {"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
            for s in SEATS], "settings": {"observers": "anyone"}}]}, base=tmp_path)
    judge = Judge(config, Store(config.database), clock=clock)
    judge.ensure_games()
    return judge


def _dsn(failed: str) -> bytes:
    return (f"From: MAILER-DAEMON@mx.example\r\nTo: judge@pbem.localhost\r\nSubject: Undelivered Mail\r\n"
            f"Message-ID: <dsn-1@mx.example>\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n'
            "--b\r\nContent-Type: text/plain\r\n\r\nfailed\r\n"
            "--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example\r\n\r\n"
            f"Final-Recipient: rfc822; {failed}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n--b--\r\n").encode()


def test_every_mail_kind_has_a_wrapped_text_part_and_an_html_part(tmp_path: Path) -> None:
    clock = Clock()
    judge = _judge(tmp_path, clock)
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    address = f"{seat}@pbem.localhost"
    doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step, "orders": {"first_player": seat}}
    assert judge.handle_message(mail("observer@else.test", "game: g1\ncommand: observe\n")) == "answered"
    code = observe.code(judge, "g1", "observer@else.test")  # the code mailed to the address (issue 29's trial)
    assert judge.handle_message(mail("observer@else.test", f"game: g1\ncommand: observe\nconfirm: {code}\n")) \
        == "answered"
    assert judge.handle_message(mail(address, yaml.safe_dump(doc))) == "applied"  # receipt, reports (an observer's), prompt
    assert judge.handle_message(mail(address, "game: g1\nseat: nobody\n")) == "rejected"
    history = {"game": "g1", "seat": seat, "key": KEYS[seat], "history": "all"}
    assert judge.handle_message(mail(address, yaml.safe_dump(history))) == "answered"
    press = {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "press", "to": "all",
             "text": "A word to every seat, in one long line that no template wraps, to see the formatter do it."}
    assert judge.handle_message(mail(address, yaml.safe_dump(press))) == "answered"  # the press relayed
    state = judge.state("g1")
    other = rules.pending(state)[0].seat
    wrong = {"game": "g1", "seat": other, "key": "wrong", "step": state.step, "orders": {}}
    for _ in range(3):  # the third wrong key alerts the seat and the host
        judge.handle_message(mail(f"{other}@pbem.localhost", yaml.safe_dump(wrong)))
    held = {**wrong, "key": KEYS[other]}
    assert judge.handle_message(mail("stranger@else.test", yaml.safe_dump(held), subject="my orders")) == "held"
    judge.handle_message(_dsn(f"{SEATS[(SEATS.index(other) + 1) % 4]}@pbem.localhost"))
    with judge.store.transaction():
        host_notices.report_fault(judge, "test", "a test fault", "A fault of the judge as a whole, told to every host "
                          "in one long line that no template wraps, to see the formatter do it for them.")
    due = min(datetime.fromisoformat(r["due_at"]) for r in judge.store.open_deadlines())
    clock.now = due - timedelta(minutes=30)  # the reminder is due before the deadline
    judge.tick()
    trust.abandon(judge, "g1", "a test of every mail kind")  # the seed reveal: a notice to every seat
    setup.new_game(judge, "g2", [setup.NewSeat(s, s.title(), f"{s}2@pbem.localhost") for s in SEATS],
                   host_email="host2@pbem.localhost")  # the welcomes of `pbem game new`

    rows = [(k, s, judge.store.outbox_row(i)["raw"]) for k, s, i in
            judge.store.db.execute("SELECT kind, subject, id FROM outbox ORDER BY id").fetchall()]
    seen = set()
    for kind, subject, raw in rows:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        text = msg.get_body(("plain",)).get_content()
        html = msg.get_body(("html",))
        assert html is not None and "<html" in html.get_content(), (kind, subject)
        assert too_wide(text) == [], (kind, subject, too_wide(text))
        seen.add(kind)
    assert _declared_kinds() <= seen, _declared_kinds() - seen
    # the held mail: its sender is answered like any foreign address, status lists it
    replies = [r for k, s, r in rows if k == "reply" and b"stranger@else.test" in r.split(b"\r\n\r\n")[0]]
    assert len(replies) == 1
    lines = status(judge.store).lines()
    assert any(line.startswith("held: ") and "stranger@else.test" in line for line in lines), lines


def test_the_formatter_wraps_a_long_line_and_keeps_yaml_readable() -> None:
    line = "  places: [" + ", ".join(["Pelusium", "Gaza", "Jerusalem", "Damascus", "Tyre", "Sidon"] * 2) + "]"
    wrapped = wrap_text(line)
    assert all(len(x) <= 72 for x in wrapped.split("\n")) and wrapped.count("\n") >= 1
    assert yaml.safe_load(wrapped) == yaml.safe_load(line)
    item = "3. " + "word " * 30
    assert all(x.startswith("   ") for x in wrap_text(item).split("\n")[1:])
    long_word = "  " + "ab" * 50
    assert wrap_text(long_word) == long_word


def test_compose_wraps_every_text_and_always_adds_html() -> None:
    out = compose(sender="judge@pbem.localhost", sender_name="pbem judge", to_addr="host@pbem.localhost",
                  to_name=None, subject="[g1] host notice: held", text="A notice of " + "many words " * 40, kind="host",
                  message_id="<pbem.test.1@pbem.localhost>")
    msg = email.message_from_bytes(out.raw, policy=email.policy.default)
    assert too_wide(msg.get_body(("plain",)).get_content()) == []
    assert "<p>" in msg.get_body(("html",)).get_content()
