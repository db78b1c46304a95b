"""Bots at the table (issue 27 Part A item 3; docs/bots.md "At the table"), through the
real mail path: a seat the bot plays from the start (``pbem game new --bot``), a seat the
host hands to the bot and back to a person (``replace`` with ``bot: true`` by mail,
``pbem host replace --bot`` and ``--player``), a silent seat the bot takes in civil
disorder (``civil_disorder: bot``); the bot's orders logged as the seat's
(``OrdersAccepted``, ``by: bot search/2``), checked, replayed by ``pbem verify``, and
independent of what the seat cannot see (the hands, the deck). Bot budget: a few playout rounds (test time)."""
from __future__ import annotations

import hashlib
import json
import random
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from pbem import rules
from pbem.config import parse_config
from pbem.rules.bots import table as table_bots
from pbem.rules.bots.seat_view import seat_view
from pbem.rules.core.state import GameState
from pbem.service import Judge
from pbem.service.base.context import game_pack
from pbem.service.log import trust
from pbem.store import Store
from pbem.store.blobs import unpack
from pbem.store.events import StoredEvent
from tests.conftest import ACCOUNTS, HASHES, KEYS, PLAYERS, SEATS, mail_orders
from tests.mailservers import start_pymap
from tests.service.helpers import write_config
from tests.service.tablemail import Table, flat, key_in, new_table

BOT = "bot search/2"
QUICK = ["--setting", "bot_seconds=5", "--setting", "bot_playouts=2"]
"""A small budget whose rounds, not the clock, end the search (test time, and the same
orders on every machine)."""


def _bot_orders(store: Store, game_id: str) -> list[dict]:
    """The data of every ``OrdersAccepted`` a bot wrote, in log order."""
    return [e.data for e in store.events(game_id) if e.kind == "OrdersAccepted" and str(e.data["by"]).startswith("bot")]


def _bot_table(tmp_path: Path, server: object, bots: list[str], *settings: str) -> tuple[Table, str]:
    """Game g2 by ``pbem game new`` with the seats ``bots`` played by the bot, the others by
    people (their keys read from their welcomes); the table open, the host key."""
    path, config = write_config(tmp_path, server)
    table = Table(server, path, config)
    args = ["game", "new", "-c", str(path), "--host", "host@pbem.localhost", *QUICK, *settings]
    for s in SEATS:
        args += ["--bot", s] if s in bots else ["--seat", f"{s}={PLAYERS[s]} <{s}@pbem.localhost>"]
    out = table.cli(*args, "g2")
    assert out.exit_code == 0, out.output
    host_key = re.search(r"host key .*: (\S+)", out.output).group(1)
    table.open()
    table.cycle()
    table.flush()
    for s in SEATS:
        if s not in bots:
            table.keys[s] = key_in(table.mails(s, f"[g2] welcome: your seat {s}")[0])
    return table, host_key


def _play_until(table: Table, decisions: int, rng: random.Random, addresses: dict[str, str] | None = None
                ) -> list[StoredEvent]:
    """Play ``decisions`` decisions: the people's orders by mail, the bot's by the judge's
    own cycle (the cycle that handles a person's orders plays a bot decision they make
    due). Returns the ``OrdersAccepted`` events the bot wrote meanwhile."""
    store = table.judge.store
    first = store.events("g2")[-1].seq
    for _ in range(decisions):
        waiting = rules.pending(table.judge.state("g2"))
        if not waiting:
            break
        if waiting[0].seat in fold_seats(store):
            table.cycle()  # the judge's cycle plays the bot's decision
        else:
            assert table.play("g2", rng, addresses) == "applied"
    return [e for e in store.events("g2", first) if e.kind == "OrdersAccepted" and str(e.data["by"]).startswith("bot")]


def _before(store: Store, event: StoredEvent) -> GameState:
    """The position a logged decision was taken at (the snapshot before its event)."""
    return GameState.from_dict(store.snapshot("g2", event.seq - 1)[1], game_pack(store, "g2"))


def test_a_bot_seat_from_the_start_plays_through_the_players_path(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, _host_key = _bot_table(tmp_path, server, ["west"])
        store = table.judge.store
        assert {r["seat"]: r["player"] for r in store.seats("g2")}["west"] == "bot search"
        rng = random.Random(3)
        for _ in range(12):  # until the bot has played three decisions (the game's seed varies)
            played = [e for e in store.events("g2") if e.kind == "OrdersAccepted" and e.data["seat"] == "west"]
            if len(played) >= 3:
                break
            _play_until(table, 4, rng)
        assert len(played) >= 3  # the first may have come in the cycle that sent the welcomes (turn order)
        assert all(e.data["by"] == BOT for e in played)
        for e in played:  # the logged orders are a document the player's own check accepts at that position
            state = _before(store, e)
            assert e.data["step"] == state.step and rules.validate(state, "west", e.data["orders"]) == []
        table.flush()
        receipts = table.mails("host", "[g2] bot receipt: west", len(played))
        assert len(receipts) == len(played) and "search/2" in flat(receipts[0])
        assert not table.inbox("west")  # nothing is mailed to a bot: no welcome, prompt or report
        for s in ("north", "east", "south"):  # every report names the seats the bot plays
            reports = table.mails(s, "report: west played (bot search/2)")
            assert "The bot plays: west (search/2)." in flat(reports[-1])
            assert not any("your move, west" in str(m["Subject"]) for m in table.inbox(s))
        # a past report asked for again (history) names the bot seats as the live one did
        step = played[-1].data["step"]
        table.send("north@pbem.localhost", yaml.safe_dump({"game": "g2", "seat": "north", "key": table.keys["north"],
                                                           "history": step}), "history please")
        table.cycle()
        table.flush()
        again = flat(table.mails("north", f"history: step {step}")[0])
        assert "west played (bot search/2)" in again and "The bot plays: west (search/2)." in again
        table.close()
        v = table.cli("verify", "g2")
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
    finally:
        server.stop()


def test_the_host_hands_a_seat_to_the_bot_and_back_to_a_person(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, host_key = new_table(tmp_path, server)
        store = table.judge.store
        rng = random.Random(8)
        _play_until(table, 2, rng)
        seat = rules.pending(table.judge.state("g2"))[0].seat
        old_key = table.keys[seat]
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: replace\nseat: {seat}\nbot: true\n",
                   "to the bot")
        assert table.cycle() == ["host"]
        assert [e.data for e in store.events("g2") if e.kind == "BotSeated"] == [
            {"seat": seat, "bot": "search/2", "why": "host"}]
        assert _bot_orders(store, "g2") and _bot_orders(store, "g2")[-1]["seat"] == seat  # played in that cycle
        table.flush()
        assert "played by the game's bot" in flat(table.mails("host", "Re: to the bot")[0])
        told = table.mails(seat, f"[g2] your seat {seat} is played by the bot")
        assert told and "key no longer works" in flat(told[0])
        # the old key no longer sends orders for the seat
        state = table.judge.state("g2")
        table.send(f"{seat}@pbem.localhost", yaml.safe_dump({"game": "g2", "seat": seat, "key": old_key,
                                                             "step": state.step, "orders": {}}), "late orders")
        assert table.cycle() == ["rejected"]
        played = _play_until(table, 12, rng)
        assert played and all(e.data["seat"] == seat for e in played)

        # back to a person (the CLI): BotLeft, the handover with a new key, the seat's prompt
        while rules.pending(table.judge.state("g2"))[0].seat == seat:
            _play_until(table, 1, rng)
        out = table.cli("host", "replace", "g2", "--seat", seat, "--player", "Eumenes <stranger@pbem.localhost>")
        assert out.exit_code == 0, out.output
        store = table.judge.store  # the judge was closed for the CLI and opened again
        assert [e.data["why"] for e in store.events("g2") if e.kind == "BotLeft"] == ["host"]
        table.cycle()
        table.flush()
        table.keys[seat] = key_in(table.mails("stranger", f"[g2] handover: your seat {seat}")[0])
        before = len(_bot_orders(store, "g2"))
        _play_until(table, 8, rng, {seat: "stranger@pbem.localhost"})
        assert len(_bot_orders(store, "g2")) == before  # the person plays the seat now
        assert any(e.kind == "OrdersAccepted" and e.data["seat"] == seat and e.data["by"] == "mail"
                   and e.seq > max(x.seq for x in store.events("g2") if x.kind == "BotLeft")
                   for e in store.events("g2"))

        # and the CLI hands a seat to the bot too
        other = next(s for s in SEATS if s != seat)
        out = table.cli("host", "replace", "g2", "--seat", other, "--bot")
        assert out.exit_code == 0 and "played by the game's bot" in out.output, out.output
        again = table.cli("host", "replace", "g2", "--seat", other, "--bot")
        assert again.exit_code != 0 and "already" in again.output
        table.close()
        v = table.cli("verify", "g2")
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
    finally:
        server.stop()


def test_civil_disorder_bot_takes_a_silent_seat_at_its_deadline(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, host_key = _bot_table(tmp_path, server, [], "--setting", "nmr_limit=1",
                                     "--setting", "civil_disorder=bot")
        store = table.judge.store
        rng = random.Random(4)
        _play_until(table, 3, rng)
        state = table.judge.state("g2")
        silent = rules.pending(state)[0].seat
        table.offset[0] += timedelta(hours=80)  # past the 72 h deadline: the seat missed it
        table.cycle()
        kinds = [(e.kind, e.data.get("seat")) for e in store.events("g2") if e.seq > 0]
        assert ("CivilDisorderDeclared", silent) in kinds and ("BotSeated", silent) in kinds
        decided = [e.data for e in store.events("g2") if e.kind == "OrdersAccepted" and e.data["step"] == state.step]
        assert decided == [{**decided[0], "by": BOT, "seat": silent}]  # the bot's orders, not the default
        table.flush()
        notice = table.mails("north", f"[g2] {silent} falls into civil disorder")
        assert "the game's bot (bot search) plays its decisions" in flat(notice[0])
        assert "the game's bot plays it" in flat(table.mails("host", "host notice: civil disorder")[0])
        played = _play_until(table, 10, rng)
        assert played and all(e.data["seat"] == silent for e in played)
        assert "The bot plays: " + silent in flat(table.mails("north", "report:")[-1])

        # the host gives the seat to a person again by mail
        while rules.pending(table.judge.state("g2"))[0].seat == silent:
            _play_until(table, 1, rng)
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: replace\nseat: {silent}\n"
                   "player: Eumenes <stranger@pbem.localhost>\n", "back")
        assert table.cycle() == ["host"]
        assert fold_seats(store) == {}
        table.close()
        v = table.cli("verify", "g2")
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
    finally:
        server.stop()


def fold_seats(store: Store) -> dict[str, str]:
    """``{seat: why}`` of the seats a bot plays now in g2."""
    out: dict[str, str] = {}
    for e in store.events("g2"):
        if e.kind == "BotSeated":
            out[e.data["seat"]] = e.data["why"]
        elif e.kind == "BotLeft":
            out.pop(e.data["seat"], None)
    return out


def _mail(sender: str, body: str, n: int) -> bytes:
    return (f"From: {sender}\r\nTo: judge@pbem.localhost\r\nSubject: orders {n}\r\n"
            f"Message-ID: <bot-{n}@players.test>\r\n\r\n{body}").encode()


def _redealt(state: GameState, seat: str, rng: random.Random) -> dict:
    """``state`` with every secret ``seat`` cannot see changed: the other hands re-dealt
    from the same unseen cards, the deck in another order."""
    data = state.to_dict()
    others = [s for s in SEATS if s != seat]
    cards = [c for s in others for c in data["private"][s]["hand"]] + list(data["secret"]["deck"])
    rng.shuffle(cards)
    at = 0
    for s in others:
        n = len(data["private"][s]["hand"])
        data["private"][s]["hand"] = cards[at:at + n]
        at += n
    data["secret"]["deck"] = cards[at:]
    return data


def test_the_bots_orders_never_depend_on_the_other_hands_or_the_deck(tmp_path: Path) -> None:
    """A config game with ``bot: true`` for west, played by mail (the judge's intake) up
    to west's player turn; a copy of its database gets other hands for the other seats and
    another deck order. The bot plays west's decision in both: the same orders (its view
    and its own seed are the same). Its seed takes the game's secret bot key, an HMAC of
    the dice seed (issue 25, attempt 5, item 3), so the copy keeps the seed."""
    seats = [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
             for s in SEATS if s != "west"] + [{"seat": "west", "bot": True}]
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "a.sqlite"),
           "map_attachment": False,
           "games": [{"id": "g1", "host_email": "host@pbem.localhost", "seats": seats,
                      "settings": {"bot_seconds": 5, "bot_playouts": 2}}]}
    clock = [datetime(2029, 1, 1, tzinfo=UTC)]
    judge = Judge(parse_config(raw, tmp_path), Store(tmp_path / "a.sqlite"), clock=lambda: clock[0],
                  new_seed=lambda: hashlib.sha256(b"seed a").digest())
    judge.ensure_games()
    rng, n = random.Random(2), 0
    for _ in range(40):
        state = judge.state("g1")
        d = rules.pending(state)[0]
        if d.seat == "west" and d.kind == "player_turn" and state.step > 4:
            break
        if d.seat == "west":
            judge.tick()  # the bot plays
        else:
            n += 1
            doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
                   "orders": mail_orders(state, d.seat, rng)}
            assert judge.handle_message(_mail(f"{d.seat}@pbem.localhost", yaml.safe_dump(doc), n)) == "applied"
    assert d.seat == "west" and d.kind == "player_turn"
    judge.store.close()
    copy = sqlite3.connect(tmp_path / "b.sqlite")
    with sqlite3.connect(tmp_path / "a.sqlite") as src:
        src.backup(copy)
    other = _redealt(state, "west", random.Random(9))
    assert other["private"]["north"]["hand"] != state.to_dict()["private"]["north"]["hand"] or \
        other["secret"]["deck"] != state.to_dict()["secret"]["deck"]
    seq = copy.execute("SELECT max(seq) FROM snapshots WHERE game_id = 'g1'").fetchone()[0]
    copy.execute("UPDATE snapshots SET state = ? WHERE game_id = 'g1' AND seq = ?",
                 [json.dumps(other), seq])
    copy.commit()
    copy.close()
    orders = {}
    for db in ("a", "b"):
        raw["database"] = str(tmp_path / f"{db}.sqlite")
        j = Judge(parse_config(raw, tmp_path), Store(tmp_path / f"{db}.sqlite"), clock=lambda: clock[0],
                  new_seed=lambda: b"x" * 32)
        assert seat_view(j.state("g1"), "west") == seat_view(state, "west")
        j.tick()
        orders[db] = _bot_orders(j.store, "g1")[-1]
        assert orders[db]["step"] == state.step
        j.store.close()
    assert orders["a"]["orders"] == orders["b"]["orders"]


def test_a_config_seat_becomes_the_bots_and_a_persons_again(tmp_path: Path) -> None:
    """``bot: true`` added to a config game's seat: the next start logs ``BotSeated``
    (why ``config``) and the bot plays the seat's waiting decision; the seat a person's
    again: ``BotLeft`` and the person gets the pending prompt."""
    def config(west_bot: bool) -> dict:
        seats = [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
                 for s in SEATS]
        if west_bot:
            seats[3] = {"seat": "west", "bot": True}
        return {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "c.sqlite"),
                "map_attachment": False, "games": [{"id": "g1", "host_email": "host@pbem.localhost", "seats": seats,
                                                    "settings": {"bot_seconds": 5, "bot_playouts": 2}}]}

    clock = [datetime(2029, 1, 1, tzinfo=UTC)]

    def judge_of(west_bot: bool) -> Judge:
        j = Judge(parse_config(config(west_bot), tmp_path), Store(tmp_path / "c.sqlite"), clock=lambda: clock[0],
                  new_seed=lambda: hashlib.sha256(b"seed c").digest())
        j.ensure_games()
        return j

    judge, rng, n = judge_of(False), random.Random(5), 0
    while (d := rules.pending(judge.state("g1"))[0]).seat != "west" or judge.state("g1").step < 3:
        n += 1
        state = judge.state("g1")
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": mail_orders(state, d.seat, rng)}
        assert judge.handle_message(_mail(f"{d.seat}@pbem.localhost", yaml.safe_dump(doc), n)) == "applied"
    waited = judge.state("g1").step
    judge.store.close()
    judge = judge_of(True)  # the host put `bot: true` on west in the config
    assert [e.data["why"] for e in judge.store.events("g1") if e.kind == "BotSeated"] == ["config"]
    judge.tick()
    assert [(e.data["by"], e.data["step"]) for e in judge.store.events("g1")
            if e.kind == "OrdersAccepted" and e.data["seat"] == "west"][-1] == (BOT, waited)
    while rules.pending(judge.state("g1"))[0].seat != "west":
        state = judge.state("g1")
        d = rules.pending(state)[0]
        n += 1
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": mail_orders(state, d.seat, rng)}
        assert judge.handle_message(_mail(f"{d.seat}@pbem.localhost", yaml.safe_dump(doc), n)) == "applied"
    # west is waited on again: the host gives it back to its player before the bot plays
    judge.store.close()
    judge = judge_of(False)
    assert [e.data["why"] for e in judge.store.events("g1") if e.kind == "BotLeft"] == ["config"]
    step = judge.state("g1").step
    prompts = judge.store.db.execute("SELECT subject FROM outbox WHERE to_addr = 'west@pbem.localhost' AND kind = "
                                     "'prompt'").fetchall()
    assert (f"[g1] step {step}: your move, west",) in prompts
    due = {d["seat"]: d["due_at"] for d in judge.store.open_deadlines("g1")}
    assert datetime.fromisoformat(due["west"]) > clock[0]  # a person's deadline again, not due at once
    judge.tick()
    assert rules.pending(judge.state("g1"))[0].seat == "west"  # nobody played it for the person
    judge.store.close()


def _until_the_bots_turn(tmp_path: Path, settings: dict) -> Judge:
    """Config game g1 (game ``settings``) with west played by the bot and the others by
    people whose random orders are mailed until west's decision is due; the judge."""
    seats = [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
             for s in SEATS if s != "west"] + [{"seat": "west", "bot": True}]
    game = {"id": "g1", "host_email": "host@pbem.localhost", "seats": seats, **({"settings": settings} if settings
                                                                                 else {})}
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "f.sqlite"),
           "map_attachment": False, "games": [game]}
    judge = Judge(parse_config(raw, tmp_path), Store(tmp_path / "f.sqlite"),
                  clock=lambda: datetime(2029, 1, 1, tzinfo=UTC), new_seed=lambda: hashlib.sha256(b"f").digest())
    judge.ensure_games()
    rng, n = random.Random(6), 0
    while (d := rules.pending(judge.state("g1"))[0]).seat != "west":
        n += 1
        state = judge.state("g1")
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": mail_orders(state, d.seat, rng)}
        assert judge.handle_message(_mail(f"{d.seat}@pbem.localhost", yaml.safe_dump(doc), n)) == "applied"
    return judge


def test_a_bot_that_writes_refused_orders_gets_the_default_and_the_host_is_told(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    """A bot whose orders the check refuses (a broken bot: fault injected by replacing the
    table's bot) never stalls the game: the decision's default is played, logged ``by:
    deadline``, and the hosts get one notice."""
    monkeypatch.setitem(table_bots.BOTS, "search", table_bots.TableBot(
        "search", 1, lambda view, seat, rng, budget: {"no_such_order": True}))
    judge = _until_the_bots_turn(tmp_path, {})
    state = judge.state("g1")
    judge.tick()
    west = [e.data for e in judge.store.events("g1") if e.kind == "OrdersAccepted" and e.data["seat"] == "west"]
    assert west[-1]["by"] == "deadline" and west[-1]["step"] == state.step
    assert west[-1]["orders"] == trust.json_form(rules.pending(state)[0].default)
    notices = [r for r in judge.store.db.execute("SELECT subject, raw FROM outbox WHERE to_addr = "
                                                 "'host@pbem.localhost'").fetchall() if "bot could not" in r[0]]
    assert [r[0] for r in notices] == ["[pbem] judge notice: a bot could not play"]
    told = " ".join(unpack(notices[0][1]).decode().split())
    # the refusal's codes, never its words (they may name the bot's cards: a host may play another seat)
    assert "the check refuses (orders.unknown_key)" in told and "no_such_order" not in told, told
    judge.store.close()


@pytest.mark.parametrize("broken", ["refused", "raises"])
def test_a_bot_that_failed_is_told_to_the_host_in_the_host_language(tmp_path: Path, monkeypatch,
                                                                     broken: str) -> None:
    """Issue 28 (lang28): the notice of a bot that failed said why in English (the check's
    refusal, or "RuntimeError; the judge's log has the details") inside a notice in the
    host's language."""
    import email
    import email.policy

    from pbem import i18n

    def play(view, seat, rng, budget):  # noqa: ANN001, ANN202
        if broken == "raises":
            raise RuntimeError("a broken bot")
        return {"no_such_order": True}
    monkeypatch.setitem(table_bots.BOTS, "search", table_bots.TableBot("search", 1, play))
    judge = _until_the_bots_turn(tmp_path, {"host_language": "ru"})
    judge.tick()
    ru = i18n.translations("ru")
    notices = [r for r in judge.store.db.execute("SELECT subject, raw FROM outbox WHERE to_addr = "
                                                 "'host@pbem.localhost'").fetchall()
               if ru.gettext("a bot could not play") in r[0]]
    assert len(notices) == 1, notices
    msg = email.message_from_bytes(unpack(notices[0][1]), policy=email.policy.default)
    told = " ".join(msg.get_body(("plain",)).get_content().split())
    if broken == "refused":
        said = ru.gettext("the bot %(bot)s wrote orders the check refuses (%(codes)s)") % {
            "bot": "search/1", "codes": "orders.unknown_key"}
        assert said in told and "wrote orders" not in told and "no_such_order" not in told, told
    else:
        said = ru.gettext("%(error)s; the judge's log has the details") % {"error": "RuntimeError"}
        assert said in told and "the judge's log" not in told and "a broken bot" not in told, told
    judge.store.close()
