"""Break-it, attempt 5 (issue 25), the bots at the table and the host's tools, through
the real mail path (pymap + aiosmtpd on loopback) and the real ``pbem`` commands: a seat
the bot took in civil disorder that the host's config gives to a new player is the
player's again (the bot no longer plays it)."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from pbem import rules
from pbem.config import Config, load_config
from pbem.keys import hash_key
from pbem.mail.imap import ImapPoller
from pbem.service import Judge
from pbem.service.loop import run_once
from pbem.store import Store
from tests.conftest import KEYS
from tests.mailservers import MailServer
from tests.service.helpers import drop, mail, write_config

T0 = datetime(2026, 11, 2, 9, 0, 0, tzinfo=UTC)
SEED = bytes(range(32))
NEW_KEY = "eumenes-new-key-of-the-seat"


def _judge(config: Config, now: list[datetime]) -> tuple[Judge, ImapPoller]:
    store = Store(config.database)
    judge = Judge(config, store, clock=lambda: now[0], new_seed=lambda: SEED)
    poller = ImapPoller(config.imap, store, judge.handle_message, max_bytes=config.max_message_bytes,
                        on_unfetchable=judge.handle_unfetchable)
    return judge, poller


def _cycle(judge: Judge, poller: ImapPoller) -> dict[int, str]:
    handled = run_once(judge, poller)
    poller.close()
    return handled


def _bot_played(store: Store, seat: str, since: int = 0) -> list[int]:
    return [e.seq for e in store.events("g1") if e.seq > since and e.kind == "OrdersAccepted"
            and e.data["seat"] == seat and str(e.data["by"]).startswith("bot")]


def _orders(judge: Judge, server: MailServer, now: list[datetime], n: int, keys: dict[str, str],
            senders: dict[str, str]) -> str:
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    doc = {"game": "g1", "seat": seat, "key": keys[seat], "step": state.step,
           "orders": rules.bot_orders(state, seat, random.Random(n))}
    drop(server, mail(senders.get(seat, seat), yaml.safe_dump(doc, sort_keys=False),
                      message_id=f"<b25-{n}@players.test>"), at=now[0].timestamp())
    return seat


def test_a_config_handover_of_a_seat_the_bot_took_in_civil_disorder_ends_the_bots_play(
        tmp_path: Path, pymap_server: MailServer) -> None:
    path, _config = write_config(tmp_path, pymap_server)
    raw = yaml.safe_load(path.read_text())
    raw["games"][0]["settings"] = {"nmr_limit": 1, "civil_disorder": "bot", "bot_seconds": 10, "bot_playouts": 2}
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    config = load_config(path)
    now = [T0]
    judge, poller = _judge(config, now)
    judge.ensure_games()
    _cycle(judge, poller)
    keys = dict(KEYS)
    for n in range(1, 4):
        now[0] += timedelta(minutes=5)
        _orders(judge, pymap_server, now, n, keys, {})
        assert list(_cycle(judge, poller).values()) == ["applied"]
    silent = rules.pending(judge.state("g1"))[0].seat
    now[0] += timedelta(days=5)  # past its deadline: civil disorder, the bot takes the seat
    for _ in range(3):
        _cycle(judge, poller)
    assert _bot_played(judge.store, silent)
    judge.store.close()

    # the host gives the seat to a new player in the config and restarts the judge
    raw["games"][0]["seats"] = [s if s["seat"] != silent else
                                {"seat": silent, "player": "Eumenes", "email": "stranger@pbem.localhost",
                                 "key_hash": hash_key(NEW_KEY)} for s in raw["games"][0]["seats"]]
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    config = load_config(path)
    now[0] += timedelta(minutes=5)
    judge, poller = _judge(config, now)
    judge.ensure_games()
    _cycle(judge, poller)
    store = judge.store
    left = [e for e in store.events("g1") if e.kind == "BotLeft" and e.data["seat"] == silent]
    assert [e.data["why"] for e in left] == ["config"]
    handed = left[0].seq
    assert any(b"handover: your seat" in m for m in pymap_server.messages("stranger"))
    keys[silent] = NEW_KEY
    senders = {silent: "stranger@pbem.localhost"}
    mine = 0
    for n in range(10, 40):  # the seat's decisions wait for its new player, who plays them by mail
        now[0] += timedelta(minutes=5)
        seat = _orders(judge, pymap_server, now, n, keys, senders)
        assert list(_cycle(judge, poller).values()) == ["applied"], seat
        mine += seat == silent
        if mine >= 2:
            break
    assert mine >= 2
    assert _bot_played(store, silent, handed) == []  # the bot no longer plays the seat
