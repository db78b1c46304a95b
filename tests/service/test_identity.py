"""Identity at the service level and Message-ID collisions (issue 17, findings 7, 12,
13): no oracle for a foreign address, wrong keys alert and lock the seat, standing
orders cannot be replayed, Authentication-Results of our server are used when
configured, and a different mail reusing a known Message-ID is handled."""
from __future__ import annotations

import email
import email.policy
import random
from datetime import UTC
from pathlib import Path

import yaml

from pbem import rules
from pbem.config import parse_config
from pbem.service import Judge
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, local_judge
from tests.service.helpers import mail


def _doc(judge, seat: str | None = None, **extra) -> tuple[str, dict]:
    state = judge.state("g1")
    seat = seat or rules.pending(state)[0].seat
    doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
           "orders": rules.bot_orders(state, seat, random.Random(5))}
    doc.update(extra)
    return seat, doc


def _replies(judge, address: str) -> list[str]:
    rows = judge.store.db.execute("SELECT id FROM outbox WHERE to_addr = ? AND kind = 'reply' ORDER BY id",
                                  [address]).fetchall()
    out = []
    for raw in (judge.store.outbox_row(i)["raw"] for (i,) in rows):
        part = email.message_from_bytes(raw, policy=email.policy.default).get_body(("plain",))
        out.append(part.get_content() if part is not None else "")
    return out


def _send(judge, sender: str, doc: dict, message_id: str | None = None, headers: dict | None = None) -> str:
    return judge.handle_message(mail(sender, yaml.safe_dump(doc, sort_keys=False), message_id=message_id,
                                     headers=headers))


def test_finding7_a_different_mail_with_a_known_message_id_is_handled(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    seat, doc = _doc(judge)
    step = judge.state("g1").step
    taken = "<shared-id@players.test>"
    assert _send(judge, "stranger@else.test", {"game": "g1"}, message_id=taken) == "rejected"
    assert _send(judge, seat, doc, message_id=taken) == "applied", "the seat's orders were dropped as a duplicate"
    assert judge.state("g1").step == step + 1
    # the very same bytes again are a duplicate: nothing applied twice
    seat2, doc2 = _doc(judge)
    raw = mail(seat2, yaml.safe_dump(doc2), message_id="<same@players.test>")
    assert judge.handle_message(raw) == "applied"
    steps = judge.state("g1").step
    assert judge.handle_message(raw) == "duplicate" and judge.state("g1").step == steps
    assert judge.store.db.execute("SELECT count(*) FROM inbox WHERE message_id = ?", [taken]).fetchone()[0] == 2


def test_breakit4_a_different_mail_reusing_a_message_id_gets_its_own_answer(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    seat, doc = _doc(judge)
    address = f"{seat}@pbem.localhost"
    taken = "<reused@players.test>"
    assert _send(judge, address, {**doc, "step": 999}, message_id=taken) == "rejected"
    assert _send(judge, address, {**doc, "step": 998}, message_id=taken) == "rejected"
    answers = _replies(judge, address)
    assert len(answers) == 2, "the second mail got no answer: its answer's Message-ID collided"
    ids = [r[0] for r in judge.store.db.execute(
        "SELECT message_id FROM outbox WHERE to_addr = ? AND kind = 'reply'", [address])]
    assert len(set(ids)) == 2
    assert _send(judge, address, doc, message_id=taken) == "applied"
    assert len(_replies(judge, address)) == 3, "the receipt of the third mail was not queued"


def test_finding12_standing_orders_cannot_be_replayed(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {"ask_windows": True})
    state = judge.state("g1")
    other = next(s for s in SEATS if s != rules.pending(state)[0].seat)
    first = {"game": "g1", "seat": other, "key": KEYS[other], "seq": 1,
             "orders": {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}}
    second = {**first, "seq": 2, "orders": {"standing": [{"when": "losses", "order": ["loyal", "mercenary"]}]}}
    assert _send(judge, other, first) == "applied"
    assert _send(judge, other, second) == "applied"
    # a captured copy of the first mail, re-sent under a new Message-ID
    assert _send(judge, other, first, message_id="<replayed@attacker.test>") == "rejected"
    standing = rules.view(judge.state("g1"), other)["private"].get("standing")
    assert standing == second["orders"]["standing"], "the replay changed the seat's standing orders"
    assert any("seq" in t and "used already" in t for t in _replies(judge, f"{other}@pbem.localhost"))


def test_finding13_a_foreign_address_gets_the_same_answer_whatever_the_key(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    seat, doc = _doc(judge)
    right = _send(judge, "strangerx@else.test", doc, message_id="<k1@else.test>")
    # from a second stranger: one address gets an identical answer once an hour (issue 24, finding 3)
    wrong = _send(judge, "strangery@else.test", {**doc, "key": "guess"}, message_id="<k2@else.test>")
    assert (right, wrong) == ("held", "rejected")
    (a,), (b,) = _replies(judge, "strangerx@else.test"), _replies(judge, "strangery@else.test")
    assert a.replace("strangerx", "stranger") == b.replace("strangery", "stranger"), \
        "the answer tells the sender whether the key was right"
    for i in range(3):  # someone who has the key cannot flood the seat and the host
        assert _send(judge, f"other{i}@else.test", doc) == "held"
    alerts = judge.store.db.execute("SELECT count(*) FROM outbox WHERE kind = 'alert' AND to_addr = ?",
                                    [f"{seat}@pbem.localhost"]).fetchone()[0]
    assert alerts == 1, "the seat hears about its right key from another address, once an hour"


def test_finding13_repeated_wrong_keys_alert_the_seat_and_lock_it(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    seat, doc = _doc(judge)
    for i in range(3):
        assert _send(judge, seat, {**doc, "key": f"guess-{i}"}) == "rejected"
    alert = judge.store.db.execute("SELECT count(*) FROM outbox WHERE kind = 'alert' AND subject LIKE '%wrong keys%'"
                                   ).fetchone()[0]
    assert alert == 1, "the seat is alerted after three wrong keys"
    for i in range(3, 10):
        _send(judge, seat, {**doc, "key": f"guess-{i}"})
    assert judge.store.db.execute("SELECT count(*) FROM outbox WHERE kind = 'alert' AND subject LIKE "
                                  "'%wrong keys%'").fetchone()[0] == 1, "once an hour, not a flood"
    step = judge.state("g1").step
    assert _send(judge, seat, doc) == "rejected", "the seat is locked: even the right key is not checked"
    assert judge.state("g1").step == step
    assert "locked" in _replies(judge, f"{seat}@pbem.localhost")[-1]


def _auth_judge(tmp_path: Path, require: bool) -> Judge:
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "pbem.sqlite"),
        "map_attachment": False, "authentication": {"authserv_id": "mx.pbem.localhost", "require": require},
        "games": [{"id": "g1", "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                          "key_hash": HASHES[s]} for s in SEATS]}]}, base=tmp_path)
    judge = Judge(config, Store(config.database))
    judge.ensure_games()
    return judge


def test_finding13_authentication_results_of_our_server_are_used(tmp_path: Path) -> None:
    judge = _auth_judge(tmp_path / "trust", require=False)
    seat, doc = _doc(judge)
    failed = {"Authentication-Results": "mx.pbem.localhost; dmarc=fail header.from=pbem.localhost; spf=fail "
                                        "smtp.mailfrom=attacker@else.test"}
    assert _send(judge, seat, doc, headers=failed) == "rejected"
    assert "SPF/DKIM/DMARC" in _replies(judge, f"{seat}@pbem.localhost")[-1]
    # a field the sender wrote himself, with another server's id, counts for nothing
    forged = {"Authentication-Results": "mx.elsewhere.test; dmarc=fail header.from=pbem.localhost"}
    assert _send(judge, seat, doc, headers=forged) == "applied"

    judge = _auth_judge(tmp_path / "require", require=True)
    seat, doc = _doc(judge)
    assert _send(judge, seat, doc) == "rejected", "require: no result from our server, no orders"
    passed = {"Authentication-Results": "mx.pbem.localhost; dkim=pass header.d=pbem.localhost; spf=none"}
    assert _send(judge, seat, doc, headers=passed) == "applied"


def test_breakit9c_wrong_types_and_huge_numbers_are_answered_with_problems_not_quarantined(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {"ask_windows": True})
    state = judge.state("g1")
    seat, doc = _doc(judge)
    other = next(s for s in SEATS if s != rules.pending(state)[0].seat)
    standing = {"game": "g1", "seat": other, "key": KEYS[other],
                "orders": {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}}
    cases = [
        (seat, {**doc, "seat": [seat]}, "envelope.seat_type"),
        (seat, {**doc, "seat": {"name": seat}}, "envelope.seat_type"),
        (other, {**standing, "seq": 2**63}, "envelope.out_of_range"),
        (other, {**standing, "seq": 10**30}, "envelope.out_of_range"),
        (seat, {**doc, "step": 2**64}, "envelope.out_of_range"),
    ]
    for n, (who, sent, code) in enumerate(cases):
        address = f"{who}@pbem.localhost"
        before = len(_replies(judge, address))
        assert _send(judge, address, sent, message_id=f"<case-{n}@players.test>") == "rejected", (sent, code)
        answer = _replies(judge, address)[before:]
        assert len(answer) == 1 and code in answer[0], (code, answer)
    assert judge.store.db.execute("SELECT count(*) FROM inbox WHERE status = 'quarantined'").fetchone()[0] == 0
    assert judge.state("g1").step == state.step


def _judge_with_emails(tmp_path: Path, emails: dict[str, str]) -> Judge:
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "pbem.sqlite"),
        "map_attachment": False,
        "games": [{"id": "g1", "options": {}, "seats": [
            {"seat": s, "player": PLAYERS[s], "email": emails[s], "key_hash": HASHES[s]} for s in SEATS]}],
    }, base=tmp_path)
    judge = Judge(config, Store(config.database))
    judge.ensure_games()
    return judge


def test_breakit3_only_the_literal_addr_spec_of_from_is_the_sender(tmp_path: Path) -> None:
    emails = {s: f"{s}.keep@pbem.localhost" for s in SEATS}  # a "k" for the Kelvin sign
    judge = _judge_with_emails(tmp_path, emails)
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    local = emails[seat].split("@")[0]
    doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
           "orders": rules.bot_orders(state, seat, random.Random(5))}
    body = yaml.safe_dump(doc, sort_keys=False)
    forged = [
        f"=?utf-8?q?{local}?= @pbem.localhost",  # an encoded-word as the local part
        f"Someone <=?utf-8?q?{local}?= @pbem.localhost>",
        f"{local}(a comment)@pbem.localhost",  # a comment inside the addr-spec
        f"{local}@(a comment)pbem.localhost",
        f'"{local}"@pbem.localhost',  # a quoted local part the parser unquotes
    ]
    # the Kelvin sign U+212A lowercases to "k" with str.lower (and NFKC makes it "K")
    forged.append(local.replace("k", "\u212a", 1) + "@pbem.localhost")
    forged.append(local.upper().replace("K", "\u212a", 1) + "@pbem.localhost")
    for n, sender in enumerate(forged):
        raw = (f"From: {sender}\r\nTo: judge@pbem.localhost\r\nSubject: orders\r\nMessage-ID: <f{n}@attacker.test>\r\n"
               "Content-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")).encode()
        assert judge.handle_message(raw) != "applied", sender
        assert judge.state("g1").step == state.step, f"orders applied with From: {sender}"
    # the seat's own address as written (any ASCII case, a display name, a trailing comment) still works
    assert _send(judge, f"=?utf-8?q?K=C3=A9?= <{emails[seat].upper()}> (home)", doc) == "applied"
    assert judge.state("g1").step == state.step + 1


def test_breakit5_a_rejection_echoes_little_and_strangers_get_few_answers_an_hour(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    seat, doc = _doc(judge)
    spam = "BUY NOW http://spam.example/ " * 4000  # ~120 KB the attacker wants relayed
    doc = {**doc, "notes": spam, **{f"k{n}": spam[:500] for n in range(200)}}
    assert _send(judge, "victim@else.test", doc, message_id="<spam-0@else.test>") == "rejected"
    (answer,) = _replies(judge, "victim@else.test")
    assert len(answer) < 12_000, len(answer)
    assert answer.count("BUY NOW") < 200
    limit = judge.config.stranger_replies_per_hour
    for n in range(limit + 10):  # one forged From: per mail: the per-address limit does not help
        _send(judge, f"victim{n}@else.test", {"game": "g1"}, message_id=f"<spam-{n + 1}@else.test>")
    strangers = judge.store.db.execute(
        "SELECT count(*) FROM outbox WHERE kind = 'reply' AND to_addr LIKE 'victim%'").fetchone()[0]
    assert strangers == limit, strangers
    assert len(_replies(judge, f"{seat}@pbem.localhost")) == 0
    assert _send(judge, seat, {**doc, "step": 999}) == "rejected"
    assert len(_replies(judge, f"{seat}@pbem.localhost")) == 1, "a seat is still answered"


def _clocked_judge(tmp_path: Path, authentication: dict | None = None):
    from datetime import datetime
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "pbem.sqlite"),
        "map_attachment": False, **({"authentication": authentication} if authentication else {}),
        "games": [{"id": "g1", "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                          "key_hash": HASHES[s]} for s in SEATS]}]}, base=tmp_path)
    now = [datetime(2027, 1, 1, tzinfo=UTC)]
    judge = Judge(config, Store(config.database), clock=lambda: now[0])
    judge.ensure_games()
    return judge, now


def test_breakit9g_the_lock_lasts_an_hour_after_the_latest_wrong_key(tmp_path: Path) -> None:
    from datetime import timedelta
    judge, now = _clocked_judge(tmp_path)
    seat, doc = _doc(judge)
    start = now[0]
    for i in range(10):  # the lockt session: a wrong key a minute from 00:00 to 00:09
        now[0] = start + timedelta(minutes=i)
        assert _send(judge, seat, {**doc, "key": f"guess-{i}"}) == "rejected"
    now[0] = start + timedelta(minutes=61)  # the first wrong key is over an hour old, the latest is not
    assert _send(judge, seat, doc) == "rejected", "unlocked an hour after the first wrong key"
    assert "locked" in _replies(judge, f"{seat}@pbem.localhost")[-1]
    now[0] = start + timedelta(minutes=70)  # an hour after the latest
    step = judge.state("g1").step
    assert _send(judge, seat, doc) == "applied"
    assert judge.state("g1").step == step + 1


def test_breakit9g_unauthenticated_wrong_keys_do_not_lock_the_seat(tmp_path: Path) -> None:
    judge, _now = _clocked_judge(tmp_path, {"authserv_id": "mx.pbem.localhost"})
    seat, doc = _doc(judge)
    for i in range(15):  # a forger writes the seat's From: from elsewhere; our server vouches for nothing
        assert _send(judge, seat, {**doc, "key": f"guess-{i}"}) == "rejected"
    alerts = judge.store.db.execute("SELECT count(*) FROM outbox WHERE kind = 'alert'").fetchone()[0]
    assert alerts == 1, "the seat and the host still hear of the wrong keys"
    passed = {"Authentication-Results": "mx.pbem.localhost; dmarc=pass header.from=pbem.localhost"}
    step = judge.state("g1").step
    assert _send(judge, seat, doc, headers=passed) == "applied", "a forger locked the seat out"
    assert judge.state("g1").step == step + 1


def _dsn(failed: str, returned_id: str | None) -> bytes:
    returned = ("--b\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: judge@pbem.localhost\r\n"
                f"To: {failed}\r\nSubject: [g1] report\r\nMessage-ID: {returned_id}\r\n\r\n") if returned_id else ""
    return ("From: Mail Delivery System <MAILER-DAEMON@mx.else.test>\r\nTo: judge@pbem.localhost\r\n"
            "Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <dsn-" + (returned_id or "none").strip("<>")
            + "@mx.else.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; "
            "boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nCould not deliver.\r\n\r\n--b\r\n"
            "Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.else.test\r\n\r\n"
            f"Final-Recipient: rfc822; {failed}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n" + returned
            + "--b--\r\n").encode()


def test_breakit9h_a_forged_bounce_does_not_mark_a_seat_bouncing(tmp_path: Path) -> None:
    judge = local_judge(tmp_path, {})
    west = "west@pbem.localhost"

    def bouncing() -> bool:
        return any(s["bouncing"] for s in judge.store.seats("g1") if s["email"] == west)

    assert judge.handle_message(_dsn(west, None)) == "ignored"
    assert judge.handle_message(_dsn(west, "<made-up@pbem.localhost>")) == "ignored"
    to_north = judge.store.db.execute("SELECT message_id FROM outbox WHERE to_addr = 'north@pbem.localhost' "
                                      "LIMIT 1").fetchone()[0]
    assert judge.handle_message(_dsn(west, to_north)) == "ignored"  # ours, but not to west
    assert not bouncing(), "a forged delivery report marked the seat bouncing"
    to_west = judge.store.db.execute("SELECT message_id FROM outbox WHERE to_addr = ? LIMIT 1", [west]).fetchone()[0]
    assert judge.handle_message(_dsn(west, to_west)) == "ignored"
    assert bouncing(), "a real bounce of our mail to west is believed"


def test_breakit9e_equal_private_documents_never_share_a_published_commitment(tmp_path: Path) -> None:
    from pbem.service.log import trust
    judge = local_judge(tmp_path, {"ask_windows": True})
    state = judge.state("g1")
    other = next(s for s in SEATS if s != rules.pending(state)[0].seat)
    same = {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}
    for seq in (1, 2, 3):  # the same standing orders, set three times
        assert _send(judge, other, {"game": "g1", "seat": other, "key": KEYS[other], "seq": seq,
                                    "orders": same}) == "applied"
    lines = trust.log_lines(judge.store, "g1", reveal=False)  # what the archive publishes during the game
    standing = [ln for ln in lines if ln["kind"] == "StandingOrdersSet"]
    assert len(standing) == 3 and all(ln["data"] is None for ln in standing)
    private = [ln["secret"] for ln in lines if not ln["public"]]
    assert len(set(private)) == len(private), "two private events share a published commitment"
    assert judge.store.verify_chain("g1") == []
