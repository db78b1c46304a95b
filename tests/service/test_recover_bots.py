"""A restore with replay where a bot plays a seat (issue 25, attempt 5, item 1): the
bot's decisions are not mails, so the replay of the Processed folder (issue 30 item 3,
:mod:`pbem.service.recover`) must make them again between the mails, where the first
judge made them, with the same orders and dice; every order a player got a receipt for
is in the log again and ``pbem verify`` passes. Real pymap + aiosmtpd on loopback."""
from __future__ import annotations

import inspect
import logging
import random
import time
import types
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.config import Config, load_config, parse_config
from pbem.mail.imap import ImapPoller
from pbem.rules.bots import search
from pbem.rules.bots.table import BOTS
from pbem.service import Judge
from pbem.service.hosting import restore
from pbem.service.loop import run_once
from pbem.service.play import bots as table_play
from pbem.store import Store
from pbem.store.backup import copy_database
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS
from tests.mailservers import MailServer
from tests.service.helpers import judge_and_poller, drop, mail, write_config

T0 = datetime(2026, 11, 2, 9, 0, 0, tzinfo=UTC)
SEED = bytes(range(32))
BOT_SEATS = ("west", "south")


def _config(tmp_path: Path, server: MailServer) -> tuple[Path, Config]:
    """g1 with west played by the game's bot (a small budget that its rounds end)."""
    path, _config = write_config(tmp_path, server)
    raw = yaml.safe_load(path.read_text())
    game = raw["games"][0]
    game["seats"] = [s if s["seat"] not in BOT_SEATS else {"seat": s["seat"], "bot": True} for s in game["seats"]]
    game["settings"] = {"bot_seconds": 10, "bot_playouts": 2}
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return path, load_config(path)


def _judge(config: Config, now: list[datetime]) -> tuple[Judge, ImapPoller]:
    return judge_and_poller(config, now, SEED)


def _chain(store: Store) -> list[tuple[int, str, str, int | None]]:
    return [(r[0], r[1], r[2], r[3]) for r in store.db.execute(
        "SELECT seq, kind, hash, inbox_id FROM events WHERE game_id = 'g1' ORDER BY seq")]


def _step(judge: Judge, poller: ImapPoller, server: MailServer, now: list[datetime], n: int,
          bots: tuple[str, ...] = BOT_SEATS) -> str | None:
    """One cycle at ``now[0]``: the orders of the person the game waits for (returns the
    mail's Message-ID), or — when it waits for the bot — a cycle without mail."""
    state = judge.state("g1")
    waiting = rules.pending(state)
    assert waiting
    seat = waiting[0].seat
    if seat in bots:
        run_once(judge, poller)
        poller.close()
        return None
    doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
           "orders": rules.bot_orders(state, seat, random.Random(n))}
    mid = f"<recover-bot-{n}@players.test>"
    drop(server, mail(seat, yaml.safe_dump(doc, sort_keys=False), message_id=mid), at=now[0].timestamp())
    handled = run_once(judge, poller)
    assert list(handled.values()) == ["applied"], handled
    poller.close()
    return mid


def _bot_decisions(store: Store, since: int = 0) -> int:
    return sum(1 for e in store.events("g1") if e.seq > since and e.kind == "OrdersAccepted"
               and str(e.data["by"]).startswith("bot"))


def test_a_restore_replays_the_mail_around_the_bots_decisions(tmp_path: Path, pymap_server: MailServer) -> None:
    path, config = _config(tmp_path, pymap_server)
    now = [T0]
    judge, poller = _judge(config, now)
    judge.ensure_games()
    run_once(judge, poller)
    poller.close()
    for n in range(1, 4):
        now[0] += timedelta(minutes=7)
        _step(judge, poller, pymap_server, now, n)
    lagging = copy_database(config.database, tmp_path / "lagging.sqlite")
    lagged = judge.store.events("g1")[-1].seq
    lost: list[str] = []
    n = 10
    while _bot_decisions(judge.store, lagged) < 3 or len(lost) < 4:  # mails and bot decisions, interleaved
        n += 1
        assert n < 80
        now[0] += timedelta(minutes=5, seconds=13 * n)
        mid = _step(judge, poller, pymap_server, now, n)
        if mid:
            lost.append(mid)
    original = _chain(judge.store)
    judge.store.close()

    restore(lagging, config.database)
    now[0] += timedelta(days=5)
    judge, poller = _judge(config, now)
    run_once(judge, poller)

    rows = {r["message_id"]: r for r in judge.store.all_inbox()}
    assert [rows[m]["status"] for m in lost] == ["applied"] * len(lost)  # every receipted order again
    again = _chain(judge.store)
    assert again[:len(original)] == original  # the same events (the bot's too), dice and hashes
    assert judge.store.verify_chain("g1") == []
    judge.store.close()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert v.exit_code == 0, v.output


def test_a_restore_replays_a_seat_the_bot_took_in_civil_disorder(tmp_path: Path, pymap_server: MailServer) -> None:
    """The bot takes a silent seat at its deadline (``civil_disorder: bot``) after the
    replica's copy; the mails after it are applied again around the bot's decisions."""
    path, _config = write_config(tmp_path, pymap_server)
    raw = yaml.safe_load(path.read_text())
    raw["games"][0]["settings"] = {"nmr_limit": 1, "civil_disorder": "bot", "bot_seconds": 10, "bot_playouts": 2}
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    config = load_config(path)
    now = [T0]
    judge, poller = _judge(config, now)
    judge.ensure_games()
    run_once(judge, poller)
    poller.close()
    for n in range(1, 4):
        now[0] += timedelta(minutes=7)
        _step(judge, poller, pymap_server, now, n, ())
    lagging = copy_database(config.database, tmp_path / "lagging.sqlite")
    lagged = judge.store.events("g1")[-1].seq
    silent = rules.pending(judge.state("g1"))[0].seat
    now[0] += timedelta(days=4)  # the seat misses its deadline: civil disorder, the bot plays it
    run_once(judge, poller)
    poller.close()
    assert any(e.kind == "BotSeated" and e.data["seat"] == silent for e in judge.store.events("g1", lagged))
    lost: list[str] = []
    n = 10
    while _bot_decisions(judge.store, lagged) < 3 or len(lost) < 4:
        n += 1
        assert n < 80
        now[0] += timedelta(minutes=5, seconds=13 * n)
        mid = _step(judge, poller, pymap_server, now, n, (silent,))
        if mid:
            lost.append(mid)
    original = _chain(judge.store)
    judge.store.close()

    restore(lagging, config.database)
    now[0] += timedelta(days=5)
    judge, poller = _judge(config, now)
    run_once(judge, poller)
    rows = {r["message_id"]: r for r in judge.store.all_inbox()}
    assert [rows[m]["status"] for m in lost] == ["applied"] * len(lost)
    assert _chain(judge.store)[:len(original)] == original
    judge.store.close()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert v.exit_code == 0, v.output


class _Machine:
    """The speed of the machine the bot thinks on, as the bot's clock shows it: every
    read of the clock moves it on by ``step`` seconds (0: a machine so fast that no time
    passes; 100: one so slow that the first round outlasts any time budget). Patched
    wherever the strong bot may read a clock: the ``time`` module its search imports
    and a ``clock`` default of :func:`pbem.rules.bots.search.search_orders`."""

    def __init__(self, monkeypatch) -> None:
        self.step = 0.0
        self.now = 0.0
        fake = types.SimpleNamespace(**{name: getattr(time, name) for name in dir(time) if not name.startswith("_")})
        fake.perf_counter = fake.monotonic = fake.time = fake.process_time = self.read
        monkeypatch.setattr(search, "time", fake)
        params = inspect.signature(search.search_orders).parameters
        if "clock" in params:
            monkeypatch.setattr(search.search_orders, "__defaults__", tuple(
                self.read if p.default is time.perf_counter else p.default
                for p in params.values() if p.default is not inspect.Parameter.empty))

    def read(self) -> float:
        self.now += self.step
        return self.now


def test_a_restore_on_a_faster_or_slower_machine_replays_the_bots_same_orders(
        tmp_path: Path, pymap_server: MailServer, monkeypatch) -> None:
    """Issue 25 (bot25 item 1): the bot's search is bounded by its rounds
    (``bot_playouts``), never by the clock, so a decision replayed after a restore writes
    the orders the first judge wrote and the players were told, however fast the machine.
    The first judge runs on a machine so slow that each read of the clock takes 100 s
    (with a clock in the search: one round a decision), the replay on one where no time
    passes (all the rounds), and a second replay of the same copy on a machine of 1 s a
    read: the same events, bot orders, dice and hashes each time."""
    machine = _Machine(monkeypatch)
    path, _config = write_config(tmp_path, pymap_server)
    raw = yaml.safe_load(path.read_text())
    game = raw["games"][0]
    game["seats"] = [s if s["seat"] not in BOT_SEATS else {"seat": s["seat"], "bot": True} for s in game["seats"]]
    game["settings"] = {"bot_seconds": 1, "bot_playouts": 4}
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    config = load_config(path)
    machine.step = 100.0
    now = [T0]
    judge, poller = _judge(config, now)
    judge.ensure_games()
    run_once(judge, poller)
    poller.close()
    for n in range(1, 4):
        now[0] += timedelta(minutes=7)
        _step(judge, poller, pymap_server, now, n)
    lagging = copy_database(config.database, tmp_path / "lagging.sqlite")
    lagged = judge.store.events("g1")[-1].seq
    lost: list[str] = []
    n = 10
    while _bot_decisions(judge.store, lagged) < 6 or len(lost) < 4:
        n += 1
        assert n < 80
        now[0] += timedelta(minutes=5, seconds=13 * n)
        mid = _step(judge, poller, pymap_server, now, n)
        if mid:
            lost.append(mid)
    original = _chain(judge.store)
    told = [e.data for e in judge.store.events("g1", lagged) if e.kind == "OrdersAccepted"
            and str(e.data["by"]).startswith("bot")]
    judge.store.close()

    for speed in (0.0, 1.0):
        machine.step = speed
        restore(lagging, config.database)
        judge, poller = _judge(config, [now[0] + timedelta(days=5)])
        run_once(judge, poller)
        poller.close()
        rows = {r["message_id"]: r for r in judge.store.all_inbox()}
        assert [rows[m]["status"] for m in lost] == ["applied"] * len(lost), speed
        replayed = [e.data for e in judge.store.events("g1", lagged) if e.kind == "OrdersAccepted"
                    and str(e.data["by"]).startswith("bot")]
        assert replayed[:len(told)] == told, speed  # the bot's orders, as the players were told them
        assert _chain(judge.store)[:len(original)] == original, speed  # and every event, die and hash after them
        judge.store.close()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert v.exit_code == 0, v.output


def test_a_slow_decision_only_warns_and_the_orders_stay_the_same(tmp_path: Path, monkeypatch, caplog) -> None:
    """The same bot decision taken on a machine where no time passes and on one where it
    takes 100 s a read of the clock (past ``bot_seconds``): the same orders; the slow one
    makes the judge's log warn and name ``bot_playouts`` (issue 25: the clock measures,
    it never limits)."""
    machine = _Machine(monkeypatch)
    monkeypatch.setattr(table_play, "time", types.SimpleNamespace(perf_counter=machine.read))
    seats = [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
             for s in SEATS if s != "west"] + [{"seat": "west", "bot": True}]
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "a.sqlite"), "map_attachment": False,
           "games": [{"id": "g1", "host_email": "host@pbem.localhost", "seats": seats,
                      "settings": {"bot_seconds": 3, "bot_playouts": 4}}]}
    clock = [T0]
    judge = Judge(parse_config(raw, tmp_path), Store(tmp_path / "a.sqlite"), clock=lambda: clock[0],
                  new_seed=lambda: SEED)
    judge.ensure_games()
    rng, n = random.Random(7), 0
    while (d := rules.pending(judge.state("g1"))[0]).seat != "west" or d.kind != "player_turn":
        if d.seat == "west":
            judge.tick()
            continue
        n += 1
        state = judge.state("g1")
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": rules.bot_orders(state, d.seat, rng)}
        body = yaml.safe_dump(doc)
        assert judge.handle_message(mail(d.seat, body, message_id=f"<slow-{n}@players.test>")) == "applied"
    judge.store.close()
    copy_database(tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    orders = {}
    for db, speed in (("a", 0.0), ("b", 100.0)):
        machine.step = speed
        caplog.clear()
        raw["database"] = str(tmp_path / f"{db}.sqlite")
        j = Judge(parse_config(raw, tmp_path), Store(tmp_path / f"{db}.sqlite"), clock=lambda: clock[0],
                  new_seed=lambda: SEED)
        with caplog.at_level(logging.WARNING, logger="pbem.service.play.bots"):
            j.tick()
        orders[db] = [e.data for e in j.store.events("g1") if e.kind == "OrdersAccepted"][-1]
        warned = [r.getMessage() for r in caplog.records if r.name == "pbem.service.play.bots"]
        assert bool(warned) == (speed > 0) and all("bot_playouts (now 4)" in w for w in warned), warned
        j.store.close()
    assert orders["a"]["by"] == f"bot {BOTS['search'].label}" and orders["a"] == orders["b"]
