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
from tests.conftest import KEYS, mail_orders
from tests.mailservers import MailServer
from tests.service.helpers import judge_and_poller, drop, mail, write_config

T0 = datetime(2026, 11, 2, 9, 0, 0, tzinfo=UTC)
SEED = bytes(range(32))
NEW_KEY = "eumenes-new-key-of-the-seat"


def _judge(config: Config, now: list[datetime]) -> tuple[Judge, ImapPoller]:
    return judge_and_poller(config, now, SEED)


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
           "orders": mail_orders(state, seat, random.Random(n))}
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


def test_a_rival_cannot_rerun_the_bot_from_public_data_but_anyone_can_once_the_seed_is_out(tmp_path: Path) -> None:
    """Item 3: the bot's choices were a function of its seat's view and a public seed, so
    a rival could re-run it with guessed hands and keep the hands that give the orders it
    played. Now its seed needs the game's secret bot key (an HMAC of the dice seed): the
    public scheme does not give the logged orders, the key does — and the key is known
    only once the game ends and the seed is revealed (the running game's archive does not
    hold it; ``pbem verify`` passes). The random bot: its orders are its generator's."""
    import hashlib as _hashlib

    from pbem.rules.bots import table as table_bots
    from pbem.rules.core.state import GameState
    from pbem.rules.bots.search import Budget
    from pbem.service.base.context import game_pack
    from tests.conftest import ACCOUNTS
    from tests.mailservers import start_pymap
    from tests.service.test_bot_seats import _bot_table, _play_until

    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, _host_key = _bot_table(tmp_path, server, ["west"], "--setting", "bot=random")
        store = table.judge.store
        rng = random.Random(5)
        for _ in range(12):
            played = [e for e in store.events("g2") if e.kind == "OrdersAccepted" and e.data["by"] == "bot random/1"]
            if len(played) >= 4:
                break
            _play_until(table, 4, rng)
        assert len(played) >= 4
        seed = bytes.fromhex(store.game("g2")["seed"])
        bot = table_bots.BOTS["random"]
        public, keyed = 0, 0
        for e in played:
            before = GameState.from_dict(store.snapshot("g2", e.seq - 1)[1], game_pack(store, "g2"))
            step = e.data["step"]
            guess = bot.orders(before, "west", random.Random(table_bots.bot_seed("g2", "west", step)), Budget())
            public += guess == e.data["orders"]
            again = bot.orders(before, "west", random.Random(
                table_bots.bot_seed("g2", "west", step, table_bots.bot_key(seed, "g2"))), Budget())
            keyed += again == e.data["orders"]
        assert keyed == len(played)  # the seed revealed: anyone re-runs the bot
        assert public < len(played)  # from public data alone the bot's orders do not come out
        key = table_bots.bot_key(seed, "g2").hex()
        assert _hashlib.sha256(seed).hexdigest() != key
        table.close()
        out = table.cli("archive", "g2", str(tmp_path / "arch"))
        assert out.exit_code == 0, out.output
        texts = "".join(p.read_text(errors="replace") for p in (tmp_path / "arch").rglob("*") if p.is_file())
        assert key not in texts and seed.hex() not in texts  # a running game's archive holds neither
        v = table.cli("verify", "g2")
        assert v.exit_code == 0, v.output
    finally:
        server.stop()
