"""Issue 25, identity and command guards, through the real mail path (SMTP into the
embedded server, the IMAP poll, the outbox out): a re-joined player gets the new key
(25.2), forged confirmations (25.3) and same-domain forgeries (25.11) cannot lock a
seat, host keys cannot be guessed without limit (25.5), a host mail reusing a
Message-ID gets its own receipt (25.6), command fields of the wrong type are refused
(25.7), a command re-sent is not applied twice (25.8), and a rollback says what it did
to the standing orders (25.9)."""
from __future__ import annotations

import random
import re
import smtplib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.config import load_config
from pbem.keys import hash_key, verify_key
from pbem.service import make_judge
from pbem.service.commands import host_commands, join
from pbem.service.play import setup as table_mod
from tests.conftest import ACCOUNTS, KEYS, SEATS
from tests.mailservers import start_pymap
from tests.service.cmdmail import EXTRA, Mail, start, text
from tests.service.helpers import mail, write_config

AUTHSERV = "mx.pbem.localhost"
#: what the receiving server's DKIM verifier (OpenDKIM) writes for a mail its own
#: submission service signed for the domain: the domain is proven, not the mailbox
DKIM_PASS = {"Authentication-Results": f"{AUTHSERV}; dkim=pass header.d=pbem.localhost header.i=@pbem.localhost"}


def own_mail(address: str) -> dict[str, str]:
    """What the receiving server writes for mail that came from the domain's own servers
    with ``address`` as its envelope: SPF passed for that envelope, DKIM for the domain."""
    return {"Authentication-Results": f"{AUTHSERV}; spf=pass smtp.mailfrom={address}; "
                                      "dkim=pass header.d=pbem.localhost header.i=@pbem.localhost"}


def _game(m: Mail, game_id: str, settings: dict | None = None) -> tuple[dict[str, str], str]:
    """A game as by ``pbem game new`` at the test accounts: its seat keys and host key."""
    made = table_mod.new_game(m.judge, game_id, [table_mod.NewSeat(s, s.title(), f"{s}@pbem.localhost")
                                                 for s in SEATS],
                              host_email="host@pbem.localhost", settings=settings or {})
    m.cycle()
    return dict(made.keys), made.host_key


def _submit(m: Mail, envelope_from: str, raw: bytes) -> None:
    """Hand ``raw`` to the server's SMTP with ``envelope_from`` as MAIL FROM (the
    envelope sender, which the delivering server writes as ``Return-Path``)."""
    with smtplib.SMTP("127.0.0.1", m.server.smtp_port) as smtp:
        smtp.sendmail(envelope_from, ["judge@pbem.localhost"], raw)


def _flat(msg) -> str:
    return " ".join(text(msg).split())


def _verified(path: Path, *games: str) -> None:
    for game in games:
        v = CliRunner().invoke(main, ["verify", "-c", str(path), game])
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output


def _cycle_all(m: Mail, n: int) -> dict[int, str]:
    """Poll until ``n`` mails are handled (bounded); their statuses by UID."""
    out: dict[int, str] = {}
    for _ in range(10):
        out.update(m.cycle())
        if len(out) >= n:
            break
    return out


def test_25_2_a_player_who_joins_again_gets_the_new_key_by_mail(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        join.open_game(m.judge, "g5", host_email="host@pbem.localhost")
        m.send("north", "game: g5\njoin: north\nname: Kleitos\n", subject="join")
        assert list(m.cycle().values()) == ["answered"]
        join.free_seat(m.judge, "g5", "north", "freed by mistake")
        m.send("north", "game: g5\njoin: north\nname: Kleitos\n", subject="join")  # the same text again
        assert list(m.cycle().values()) == ["answered"]
        welcomes = m.mails("north", "[g5] your seat north", 2)
        keys = [re.search(r"Your seat key is:\s+(\S+)", text(w)).group(1) for w in welcomes]
        assert len(keys) == 2 and keys[0] != keys[1], "the second welcome, with the new key, was dropped"
        held = m.judge.store.signup_seats("g5")[0]["key_hash"]
        assert [k for k in keys if verify_key(k, held)], "nobody got the seat's key"
    finally:
        m.close()


def test_25_3_forged_confirmations_do_not_lock_the_seat(tmp_path: Path) -> None:
    m = start(tmp_path, authentication={"authserv_id": AUTHSERV})
    try:
        keys, _host = _game(m, "g2")
        for i in range(11):  # a forged From: of the seat, from elsewhere, with wrong codes
            _submit(m, "stranger@pbem.localhost",
                    mail("east@pbem.localhost", f"game: g2\nseat: east\nconfirm: guess-{i}\n", subject=f"c{i}"))
        assert sorted(_cycle_all(m, 11).values()) == ["rejected"] * 11
        assert len(m.mails("east", "[g2] wrong keys for your seat")) == 1, "the seat hears of them"
        m.send("east", f"game: g2\nseat: east\nkey: {keys['east']}\ncommand: help\n", subject="help")
        assert list(m.cycle().values()) == ["answered"], "forged confirmations locked the seat"
        assert "locked" not in _flat(m.mails("east", "Re: help")[0])
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_25_11_a_player_cannot_lock_another_seat_of_the_same_mail_domain(tmp_path: Path) -> None:
    m = start(tmp_path, authentication={"authserv_id": AUTHSERV, "require": True})
    try:
        for i in range(12):  # logged in as east (the envelope), From: west, signed for the domain
            raw = mail("west@pbem.localhost", f"game: g1\nseat: west\nkey: guess-{i}\ncommand: help\n",
                       subject=f"w{i}", headers=DKIM_PASS)
            _submit(m, "east@pbem.localhost", raw)
        assert sorted(_cycle_all(m, 12).values()) == ["rejected"] * 12
        assert len(m.mails("west", "[g1] wrong keys for your seat")) == 1, "west hears of them"
        own = mail("west@pbem.localhost", f"game: g1\nseat: west\nkey: {KEYS['west']}\ncommand: help\n",
                   subject="mine", headers=DKIM_PASS)
        _submit(m, "west@pbem.localhost", own)
        assert list(m.cycle().values()) == ["answered"], "another seat of the domain locked west"

        # a Return-Path the sender wrote himself proves nothing: the server's own is on top
        raw = mail("west@pbem.localhost", "game: g1\nseat: west\nkey: guess\ncommand: help\n", subject="rp",
                   headers={**DKIM_PASS, "Return-Path": "<west@pbem.localhost>"})
        _submit(m, "east@pbem.localhost", raw)
        assert list(m.cycle().values()) == ["rejected"]
        assert m.judge.store.db.execute("SELECT reason FROM inbox ORDER BY id DESC LIMIT 1").fetchone()[0] \
            == "auth.key.unverified"

        # wrong keys in mail that proves west's own address still lock the seat
        for i in range(10):
            _submit(m, "west@pbem.localhost", mail("west@pbem.localhost",
                                                   f"game: g1\nseat: west\nkey: wrong-{i}\ncommand: help\n",
                                                   subject=f"own{i}", headers=own_mail("west@pbem.localhost")))
        assert sorted(_cycle_all(m, 10).values()) == ["rejected"] * 10
        _submit(m, "west@pbem.localhost", mail("west@pbem.localhost", f"game: g1\nseat: west\nkey: {KEYS['west']}"
                                               "\ncommand: help\n", subject="locked",
                                               headers=own_mail("west@pbem.localhost")))
        assert list(m.cycle().values()) == ["rejected"]
        assert "locked" in _flat(m.mails("west", "Re: locked")[0])
    finally:
        m.close()


def test_25_11_a_signed_mail_replayed_under_another_envelope_locks_nobody(tmp_path: Path) -> None:
    """Break-it after 25.11: east has the domain's server sign a mail From: west (to
    himself), then hands the signed bytes to our MX with west as MAIL FROM. The
    Return-Path and the DKIM pass both look like west's own mail; only SPF (not passed:
    east's host is not the domain's) tells them apart. Nothing counts against west or the
    host, whose own mail is then answered."""
    m = start(tmp_path, authentication={"authserv_id": AUTHSERV, "require": True})
    try:
        for i in range(12):
            for who, key in (("west", f"guess-{i}"), ("host", f"guess-{i}")):
                body = (f"game: g1\nseat: west\nkey: {key}\ncommand: help\n" if who == "west"
                        else f"game: g1\nhost: {key}\ncommand: status\n")
                replayed = {"Authentication-Results": f"{AUTHSERV}; spf=none smtp.mailfrom={who}@pbem.localhost; "
                                                      "dkim=pass header.d=pbem.localhost header.i=@pbem.localhost"}
                _submit(m, f"{who}@pbem.localhost", mail(f"{who}@pbem.localhost", body, subject=f"{who}{i}",
                                                         headers=replayed))
        assert sorted(_cycle_all(m, 24).values()) == ["rejected"] * 24
        reasons = {r[0] for r in m.judge.store.db.execute("SELECT reason FROM inbox")}
        assert not any(r and r.endswith("locked") for r in reasons), reasons
        own = mail("west@pbem.localhost", f"game: g1\nseat: west\nkey: {KEYS['west']}\ncommand: help\n",
                   subject="mine", headers=own_mail("west@pbem.localhost"))
        _submit(m, "west@pbem.localhost", own)
        assert list(m.cycle().values()) == ["answered"], "a replayed signature locked west"
        assert "locked" not in _flat(m.mails("west", "Re: mine")[0])
    finally:
        m.close()


def _host_key_game(tmp_path: Path) -> Mail:
    """Config game g1 whose host key is a host-typed one (a PBKDF2 hash)."""
    server = start_pymap(tmp_path / "pymap", {**ACCOUNTS, **EXTRA})
    path, _config = write_config(tmp_path, server)
    raw = yaml.safe_load(path.read_text())
    raw["games"][0]["host_key_hash"] = hash_key("the-host-key", iterations=1000)
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    judge, poller = make_judge(load_config(path))
    m = Mail(server, path, judge, poller)
    judge.clock = lambda: datetime.now(UTC) + m.offset[0]
    judge.ensure_games()
    m.cycle()
    return m


def test_25_5_host_keys_cannot_be_guessed_without_limit(tmp_path: Path) -> None:
    m = _host_key_game(tmp_path)
    try:
        before = m.judge.keys.slow_checks
        for i in range(12):
            m.send("host", f"game: g1\nhost: guess-{i}\ncommand: pause\n", subject=f"guess {i}")
        assert sorted(_cycle_all(m, 12).values()) == ["rejected"] * 12
        assert m.judge.keys.slow_checks - before <= 10, "every guess paid the slow hash"
        assert m.mails("host", "[g1] host notice: wrong host keys"), "the host is told of the guesses"
        m.send("host", "game: g1\nhost: the-host-key\ncommand: pause\n", subject="right")
        assert list(m.cycle().values()) == ["rejected"], "the host key can still be guessed"
        assert "locked" in _flat(m.mails("host", "Re: right")[0])
        assert m.judge.store.game("g1")["status"] == "active"

        m.offset[0] += timedelta(minutes=61)  # an hour after the latest wrong key
        m.send("host", "game: g1\nhost: the-host-key\ncommand: pause\n", subject="later")
        assert list(m.cycle().values()) == ["host"]
        checks = m.judge.keys.slow_checks
        m.send("host", "game: g1\nhost: the-host-key\ncommand: resume\n", subject="again")
        assert list(m.cycle().values()) == ["host"]
        assert m.judge.keys.slow_checks == checks, "a right host key pays the slow hash once per run"
    finally:
        path = m.path
        m.close()
    _verified(path, "g1")


def test_25_6_a_host_mail_reusing_a_message_id_gets_its_own_receipt(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        _keys, host = _game(m, "g2")
        reused = "<reused-host@players.test>"
        _submit(m, "host@pbem.localhost", mail("host", f"game: g2\nhost: {host}\ncommand: status\n",
                                               subject="first", message_id=reused))
        assert list(m.cycle().values()) == ["host"]
        _submit(m, "host@pbem.localhost", mail("host", f"game: g2\nhost: {host}\ncommand: pause\n",
                                               subject="second", message_id=reused))
        assert list(m.cycle().values()) == ["host"]
        assert m.judge.store.game("g2")["status"] == "paused"
        assert "is paused" in _flat(m.mails("host", "Re: second")[0]), "the second receipt was dropped"
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_25_7_command_fields_of_the_wrong_type_are_refused_not_read_as_all(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        keys, host = _game(m, "g2")
        due = {d["seat"]: d["due_at"] for d in m.judge.store.open_deadlines("g2")}
        base = f"game: g2\nhost: {host}\n"
        attacks = {
            "list seat": base + "command: extend\nhours: 5\nseat: [east]\n",
            "typo seat": base + "command: extend\nhours: 5\nseats: east\n",
            "number seat": base + "command: resend\nseat: 5\n",
            "list reason": base + "command: pause\nreason: [a, holiday]\n",
            "text abandon": base + "command: end\nabandon: 'yes'\n",
        }
        for subject, body in attacks.items():
            m.send("host", body, subject=subject)
        m.send("east", f"game: g2\nseat: east\nkey: {keys['east']}\ncommand: absence\ncancel: 1\n",
               subject="cancel")
        assert sorted(_cycle_all(m, len(attacks) + 1).values()) == ["rejected"] * (len(attacks) + 1)
        assert {d["seat"]: d["due_at"] for d in m.judge.store.open_deadlines("g2")} == due
        assert m.judge.store.game("g2")["status"] == "active"
        assert not [e for e in m.judge.store.events("g2") if e.kind in ("DeadlineMoved", "HostActed")]
        replies = {s: _flat(m.mails("host", f"Re: {s}")[0]) for s in attacks}
        assert "`seat`" in replies["list seat"] and "[east]" in replies["list seat"], replies["list seat"]
        assert "`seats`" in replies["typo seat"] and "`seat`" in replies["typo seat"], replies["typo seat"]
        assert "`seat`" in replies["number seat"]
        assert "`reason`" in replies["list reason"]
        assert "`abandon`" in replies["text abandon"] and "true" in replies["text abandon"]
        assert "`cancel`" in _flat(m.mails("east", "Re: cancel")[0])
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_25_8_a_command_sent_again_is_not_applied_again(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        keys, host = _game(m, "g2", {"press": "private"})
        press = f"game: g2\nseat: east\nkey: {keys['east']}\ncommand: press\nto: [north]\ntext: Syria?\n"
        m.send("east", press, subject="press 1")
        assert list(m.cycle().values()) == ["answered"]
        m.send("east", press, subject="press 1")  # re-sent by mistake, or by anyone: a new Message-ID
        assert list(m.cycle().values()) == ["rejected"]
        told = _flat(m.mails("east", "Re: press 1", 2)[-1])
        assert "same command" in told and "seq: 1" in told, told
        m.send("east", press + "seq: 1\n", subject="press 2")  # on purpose: with a seq line
        assert list(m.cycle().values()) == ["answered"]
        m.send("east", press + "seq: 1\n", subject="press 3")
        assert list(m.cycle().values()) == ["rejected"]
        assert len(m.mails("north", "[g2] press from east", 2)) == 2
        assert len(m.judge.store.press_of("g2")) == 2

        extend = f"game: g2\nhost: {host}\ncommand: extend\nhours: 5\n"
        m.send("host", extend, subject="extend")
        assert list(m.cycle().values()) == ["host"]
        m.send("host", extend, subject="extend")
        assert list(m.cycle().values()) == ["rejected"]
        moved = [e for e in m.judge.store.events("g2") if e.kind == "DeadlineMoved"]
        assert len(moved) == len(m.judge.store.open_deadlines("g2")), "the extend was applied twice"

        pause = f"game: g2\nhost: {host}\ncommand: pause\nreason: a holiday\n"
        m.send("host", pause, subject="pause")
        assert list(m.cycle().values()) == ["host"]
        m.send("host", f"game: g2\nhost: {host}\ncommand: resume\n", subject="resume")
        assert list(m.cycle().values()) == ["host"]
        m.send("host", pause, subject="pause")  # the old pause mail again
        assert list(m.cycle().values()) == ["rejected"]
        assert m.judge.store.game("g2")["status"] == "active"

        state = m.judge.state("g2")
        seat = rules.pending(state)[0].seat
        doc = {"game": "g2", "seat": seat, "key": keys[seat], "step": state.step,
               "orders": rules.bot_orders(state, seat, random.Random(3))}
        m.send(seat, doc, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        rollback = f"game: g2\nhost: {host}\ncommand: rollback\nto_step: 0\nreason: a slip\n"
        m.send("host", rollback, subject="rollback")
        assert list(m.cycle().values()) == ["host"]
        step = m.judge.state("g2").step
        m.send("host", rollback, subject="rollback")
        assert list(m.cycle().values()) == ["rejected"]
        assert m.judge.state("g2").step == step
        assert len([e for e in m.judge.store.events("g2") if e.kind == "RollbackAnnounced"]) == 1
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_25_9_a_rollback_tells_each_seat_what_became_of_its_standing_orders(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        keys, host = _game(m, "g2")
        state = m.judge.state("g2")
        seat = rules.pending(state)[0].seat
        other = next(s for s in SEATS if s != seat)
        standing = {"game": "g2", "seat": other, "key": keys[other], "seq": 1,
                    "orders": {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}}
        m.send(other, standing, subject="standing")
        assert list(m.cycle().values()) == ["applied"]
        doc = {"game": "g2", "seat": seat, "key": keys[seat], "step": state.step,
               "orders": rules.bot_orders(state, seat, random.Random(3))}
        m.send(seat, doc, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        m.send("host", f"game: g2\nhost: {host}\ncommand: rollback\nto_step: 0\nreason: a slip\n",
               subject="rollback")
        assert list(m.cycle().values()) == ["host"]
        told = _flat(m.mails(other, "rolled back")[0])
        assert "standing orders" in told and "seq: 2" in told, told
        for s in SEATS:
            if s != other:
                assert "standing orders" not in _flat(m.mails(s, "rolled back")[0]), s
        assert "standing orders" in _flat(m.mails("host", "Re: rollback")[0])
        m.send(other, {**standing, "seq": 2}, subject="standing again")
        assert list(m.cycle().values()) == ["applied"]
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_25_2_class_a_moved_deadline_gets_its_reminder_and_late_notice_again(tmp_path: Path) -> None:
    """The same class as 25.2: the reminder's and the late notice's Message-IDs were made
    from (game, step, seat) only, so after the host moved a deadline (the store clears
    ``reminded_at`` and ``late_at`` so that they go again) the second ones were dropped."""
    m = start(tmp_path, settings={"grace": "12h"})
    try:
        seat = rules.pending(m.judge.state("g1"))[0].seat

        def due() -> datetime:
            return datetime.fromisoformat(next(d["due_at"] for d in m.judge.store.open_deadlines("g1")))

        def at(when: datetime) -> None:
            m.offset[0] += when - m.judge.clock()
            m.cycle()

        at(due() - timedelta(hours=23))
        assert len(m.mails(seat, "reminder: step")) == 1
        host_commands.run(m.judge, "g1", "extend", hours=48)
        at(due() - timedelta(hours=23))
        reminders = m.mails(seat, "reminder: step", 2)
        assert len(reminders) == 2, "the reminder of the moved deadline was dropped"
        at(due() + timedelta(hours=1))
        other = next(s for s in SEATS if s != seat)
        assert len(m.mails(other, f"{seat} late")) == 1
        host_commands.run(m.judge, "g1", "extend", hours=48)
        at(due() + timedelta(hours=1))
        assert len(m.mails(other, f"{seat} late", 2)) == 2, "the late notice of the moved deadline was dropped"
    finally:
        path = m.path
        m.close()
    _verified(path, "g1")


def test_25_2_class_a_seat_given_back_to_a_player_at_the_same_step_gets_its_prompt(tmp_path: Path) -> None:
    """The same class as 25.2: after ``replace`` the prompt went again with a Message-ID
    of (game, step, seat, address), so a seat handed to A, then B, then A again at the
    same step left A without the prompt of the new key's seat (the outbox had the id)."""
    m = start(tmp_path)
    try:
        _keys, host = _game(m, "g2")
        seat = rules.pending(m.judge.state("g2"))[0].seat
        for i, player in enumerate(("Ann <stranger@pbem.localhost>", "Bob <newhome@pbem.localhost>",
                                    "Ann Again <stranger@pbem.localhost>")):
            m.send("host", f"game: g2\nhost: {host}\ncommand: replace\nseat: {seat}\nplayer: {player}\n",
                   subject=f"replace {i}")
            assert list(m.cycle().values()) == ["host"]
        assert len(m.mails("stranger", f"[g2] handover: your seat {seat}", 2)) == 2
        assert len(m.mails("stranger", f"your move, {seat}", 2)) == 2, "the second prompt to Ann was dropped"
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")
