"""Nothing accepted is lost with the disk (issue 30, item 3): a database restored from a
copy that lags misses the last mails; the mailbox's Processed folder still holds them, and
the judge applies them again — in order, each at the time it arrived, before any deadline
pass — so the log is the same log (the same events, dice and hashes: every witness a
player holds matches) and no seat gets a second, different mail. Real pymap + aiosmtpd on
loopback; the judge's clock is fixed, and each mail's arrival (its maildir file's mtime,
pymap's INTERNALDATE) is the time the judge first handled it."""
from __future__ import annotations

import email
import email.policy
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from pbem import rules
from pbem.config import Config
from pbem.mail.imap import ImapPoller
from pbem.service import Judge
from pbem.service.hosting import restore
from pbem.service.loop import run_once
from pbem.store import Store
from pbem.store.backup import copy_database
from tests.conftest import KEYS
from tests.mailservers import MailServer, own_maildirs
from tests.service.helpers import judge_and_poller, drop, folder, mail, text_of, write_config

T0 = datetime(2026, 11, 2, 9, 0, 0, tzinfo=UTC)
SEED = bytes(range(32))


def _judge(config: Config, now: list[datetime]) -> tuple[Judge, ImapPoller]:
    return judge_and_poller(config, now, SEED)


def _orders(judge: Judge, n: int) -> tuple[str, bytes, str]:
    """(seat, raw mail, Message-ID) of legal orders of the seat the game waits for."""
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
           "orders": rules.bot_orders(state, seat, random.Random(n))}
    mid = f"<recover-{n}@players.test>"
    return seat, mail(seat, yaml.safe_dump(doc, sort_keys=False), message_id=mid), mid


def _drop(server: MailServer, raw: bytes, at: datetime) -> None:
    """Deliver ``raw`` as arrived at ``at`` (the maildir file's mtime: pymap's and
    Dovecot's INTERNALDATE)."""
    drop(server, raw, at=at.timestamp())
    if server.kind == "dovecot":
        own_maildirs(server)


def _play(judge: Judge, poller: ImapPoller, server: MailServer, now: list[datetime], n: int) -> str:
    """One order mail arriving at ``now[0]`` and handled then; returns its Message-ID."""
    _seat, raw, mid = _orders(judge, n)
    _drop(server, raw, now[0])
    handled = run_once(judge, poller)
    assert list(handled.values()) == ["applied"], handled
    poller.close()
    return mid


def _chain(store: Store) -> list[tuple[int, str, str, int | None]]:
    return [(r[0], r[1], r[2], r[3]) for r in store.db.execute(
        "SELECT seq, kind, hash, inbox_id FROM events WHERE game_id = 'g1' ORDER BY seq")]


def _received(server: MailServer, accounts: list[str]) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(account, Message-ID) -> every copy received, as (Subject, plain text)."""
    out: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for account in accounts:
        for raw in server.messages(account):
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            out.setdefault((account, str(msg["Message-ID"])), []).append((str(msg["Subject"]), text_of(raw)))
    return out


def test_a_restored_copy_that_lags_gets_the_processed_mail_again_with_the_same_log(tmp_path: Path,
                                                                                   mail_server: MailServer) -> None:
    pymap_server = mail_server  # pymap and Dovecot: both keep INTERNALDATE through MOVE
    _path, config = write_config(tmp_path, pymap_server, max_message_bytes="40KB")
    now = [T0]
    judge, poller = _judge(config, now)
    judge.ensure_games()
    run_once(judge, poller)
    poller.close()
    now[0] = T0 + timedelta(hours=1)
    first = _play(judge, poller, pymap_server, now, 1)
    lagging = copy_database(config.database, tmp_path / "lagging.sqlite")  # the replica, a step behind
    lost, arrived = [], []
    for n in (2, 3, 4):
        now[0] += timedelta(hours=5, minutes=n, seconds=17 * n)
        arrived.append(now[0].isoformat())
        lost.append(_play(judge, poller, pymap_server, now, n))
        if n == 2:  # a mail the judge only kept (too large: quarantined); the rows after it keep their ids
            now[0] += timedelta(minutes=1)
            _drop(pymap_server, mail("stranger@else.test", "x" * 50_000, message_id="<big@else.test>"), now[0])
            assert list(run_once(judge, poller).values()) == ["too_large"]
            poller.close()
    original = _chain(judge.store)
    witnesses = {f"{h}@{seq}" for seq, _k, h, _i in original}
    judge.store.close()

    # the disk dies; the copy comes back; the judge restarts five days later, after the
    # deadlines the lost mails had started (a deadline pass first would refuse them as late)
    restore(lagging, config.database)
    assert {r["message_id"] for r in Store(config.database).all_inbox()} >= {first}
    assert not {r["message_id"] for r in Store(config.database).all_inbox()} & set(lost)
    now[0] = T0 + timedelta(days=5)
    judge, poller = _judge(config, now)
    run_once(judge, poller)

    rows = {r["message_id"]: r for r in judge.store.all_inbox()}
    assert [rows[m]["status"] for m in lost] == ["applied"] * 3
    assert rows["<big@else.test>"]["status"] == "quarantined" and len(folder(pymap_server, "Quarantine")) == 1
    assert [rows[m]["fetched_at"] for m in lost] == arrived  # each judged at the time it arrived
    again = _chain(judge.store)
    assert again[:len(original)] == original  # the same events, dice, inbox rows and hashes
    assert judge.store.verify_chain("g1") == []
    # the deadline pass of the restart came after the replay: it decided what was due then
    assert any(kind == "DecisionMissed" for _s, kind, _h, _i in again[len(original):])
    # every mail a seat got twice is the same mail (same Message-ID, same subject and text)
    copies = _received(pymap_server, ["north", "east", "south", "west", "host"])
    different = {k: v for k, v in copies.items() if len(set(v)) > 1}
    assert not different, different
    assert any(len(v) > 1 for v in copies.values())  # some were sent again: the check has teeth
    seen = {w for v in copies.values() for _s, text in v for w in re.findall(r"\b[0-9a-f]{64}@\d+\b", text)}
    assert seen and seen <= witnesses | {f"{h}@{s}" for s, _k, h, _i in again}
    assert folder(pymap_server, "INBOX") == []


def test_nothing_is_applied_again_when_the_log_has_every_processed_mail(tmp_path: Path, pymap_server) -> None:
    _path, config = write_config(tmp_path, pymap_server)
    now = [T0]
    judge, poller = _judge(config, now)
    judge.ensure_games()
    run_once(judge, poller)
    poller.close()
    for n in (1, 2):
        now[0] += timedelta(hours=1)
        _play(judge, poller, pymap_server, now, n)
    before = _chain(judge.store), len(judge.store.all_inbox())
    judge.store.close()
    judge, poller = _judge(config, now)
    run_once(judge, poller)
    assert (_chain(judge.store), len(judge.store.all_inbox())) == before
