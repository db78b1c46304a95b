"""Issue 16: sign-up by mail. The host opens a game (`pbem game open`, the CLI), players
join it by mail (`game: g5`, `join: SEAT|any`, `name:`) through real SMTP and the IMAP
poll, each gets its seat key by mail, the game starts when four seats are taken, the
host is told, and the refusals name what to do instead."""
from __future__ import annotations

import random
import re
from pathlib import Path

from pbem import rules
from tests.conftest import ACCOUNTS, SEATS
from tests.mailservers import start_pymap
from tests.service.helpers import write_config
from tests.service.tablemail import Table, flat, text


def test_players_join_an_open_game_by_mail_and_it_starts_when_full(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        path, config = write_config(tmp_path, server)
        table = Table(server, path, config)
        out = table.cli("game", "open", "-c", str(path), "--host", "host@pbem.localhost", "--time-zone",
                        "Europe/Berlin", "g5")
        assert out.exit_code == 0 and "open for sign-up" in out.output, out.output
        host_key = re.search(r"host key .*: (\S+)", out.output).group(1)
        again = table.cli("game", "open", "-c", str(path), "--host", "host@pbem.localhost", "g5")
        assert again.exit_code == 1 and "exists already" in again.output
        table.open()

        def mail(account: str) -> str:
            return f"{account}@pbem.localhost"
        table.send(mail("north"), "game: g5\njoin: north\nname: Kleitos\n", "join 1")
        assert table.cycle() == ["answered"]
        table.send(mail("east"), "game: g5\njoin: north\nname: Peukestas\n", "join 2")  # taken
        table.send(mail("north"), "game: g5\njoin: any\n", "join 3")  # the same address again
        table.send(mail("stranger"), "game: g9\njoin: any\n", "join 4")  # no such open game
        table.send(mail("stranger"), "game: g5\njoin: centre\ncolour: red\n", "join 5")  # no seat, a bad key
        assert table.cycle() == ["rejected"] * 4
        assert [r["seat"] for r in table.judge.store.signup_seats("g5")] == ["north"]
        assert table.judge.store.game("g5") is None  # not started
        table.send(mail("east"), "game: g5\njoin: any\nname: Peukestas\n", "join 6")  # the first free seat
        assert table.cycle() == ["answered"]
        table.send(mail("south"), "game: g5\njoin: any\n", "join 7")
        assert table.cycle() == ["answered"]
        table.send(mail("west"), "game: g5\njoin: west\nname: Aristonous\n", "join 8")
        assert table.cycle() == ["answered"]
        table.send(mail("stranger"), "game: g5\njoin: any\n", "join 9")  # full now
        assert table.cycle() == ["rejected"]
        table.flush()

        refused = {n: flat(table.mails(acc, f"Re: join {n}")[0]) for n, acc in
                   ((2, "east"), (3, "north"), (4, "stranger"), (5, "stranger"), (9, "stranger"))}
        assert "The seat north of g5 is taken" in refused[2] and "free seats: east, south, west" in refused[2]
        assert "holds the seat north of g5 already" in refused[3]
        assert "'g9' is not open for sign-up" in refused[4]
        assert "'centre' is no seat" in refused[5] and "no key 'colour'" in refused[5]
        assert "'g5' is full" in refused[9]
        keys = {}
        for s in SEATS:
            got = table.mails(s, f"[g5] your seat {s}")
            assert len(got) == 1, s
            keys[s] = re.search(r"Your seat key is:\s+(\S+)", text(got[0])).group(1)
            assert max(len(line) for line in text(got[0]).splitlines()) <= 72
            assert got[0].get_body(("html",)) is not None
            assert "the game starts" in str(table.mails(s, "[g5] the game starts")[0]["Subject"])
        assert len(set(keys.values())) == 4
        for m in table.inbox("stranger"):
            assert not any(k in text(m) for k in keys.values())  # no key to anyone else
        # the host's notice of each join counts the free seats, the verb agreeing (issue 24 N10)
        assert "3 seats are still free." in flat(table.mails("host", "[g5] sign-up: Kleitos took north")[0])
        assert "1 seat is still free." in flat(table.mails("host", "took south")[0])
        started = flat(table.mails("host", "[g5] the game starts")[0])
        assert "g5 is full and has started" in started and "north: Kleitos" in started
        assert "east: Peukestas" in started and "west: Aristonous" in started

        store = table.judge.store
        assert store.game("g5")["status"] == "active" and store.signup("g5")["status"] == "started"
        assert store.table_row("g5")["origin"] == "signup"
        assert store.table_row("g5")["settings"]["time_zone"] == "Europe/Berlin"
        table_set = next(e for e in store.events("g5") if e.kind == "TableSet")
        assert table_set.data["seats"] == {"north": "Kleitos", "east": "Peukestas", "south": "south",
                                           "west": "Aristonous"}
        assert "pbem.localhost" not in str([e.data for e in store.events("g5")])  # no address in the log

        # the first prompt came; its seat plays with the key of its sign-up answer
        table.keys = keys
        seat = rules.pending(table.judge.state("g5"))[0].seat
        assert table.mails(seat, f"[g5] step 0: your move, {seat}")
        assert table.play("g5", random.Random(2)) == "applied"
        # the host key printed by `pbem game open` works for host commands
        table.send("host@pbem.localhost", f"game: g5\nhost: {host_key}\ncommand: status\n", "status")
        assert table.cycle() == ["host"]
        v = table.cli("verify", "g5")
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
    finally:
        if table is not None:
            table.close()
        server.stop()


def test_the_host_frees_a_seat_and_closes_a_sign_up(tmp_path: Path) -> None:
    """A join the host does not want (e.g. forged without `authentication`) is undone by
    `pbem game close --seat`, and `pbem game close` ends a sign-up that will not fill;
    the players who joined are told, and later joins are refused saying why."""
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        path, config = write_config(tmp_path, server)
        table = Table(server, path, config)
        out = table.cli("game", "open", "-c", str(path), "--host", "host@pbem.localhost", "g5")
        assert out.exit_code == 0, out.output
        table.open()
        table.send("north@pbem.localhost", "game: g5\njoin: north\n", "join 1")
        table.send("stranger@pbem.localhost", "game: g5\njoin: east\n", "join 2")
        assert table.cycle() == ["answered", "answered"]

        freed = table.cli("game", "close", "-c", str(path), "--seat", "east", "--reason", "not a player I invited", "g5")
        assert freed.exit_code == 0 and "seat east is free again" in freed.output, freed.output
        bad = table.cli("game", "close", "-c", str(path), "--seat", "south", "g5")
        assert bad.exit_code == 1 and "not taken" in bad.output and "north" in bad.output
        assert [r["seat"] for r in table.judge.store.signup_seats("g5")] == ["north"]
        table.flush()
        told = table.mails("stranger", "[g5] your seat was freed")
        assert "not a player I invited" in flat(told[0])
        table.send("east@pbem.localhost", "game: g5\njoin: east\n", "join 3")  # the seat is free again
        assert table.cycle() == ["answered"]

        closed = table.cli("game", "close", "-c", str(path), "--reason", "too few players", "g5")
        assert closed.exit_code == 0 and "2 player(s)" in closed.output, closed.output
        table.flush()
        for account in ("north", "east"):
            assert "too few players" in flat(table.mails(account, "[g5] the sign-up is closed")[0])
        table.send("south@pbem.localhost", "game: g5\njoin: any\n", "join 4")
        assert table.cycle() == ["rejected"]
        table.flush()
        assert "closed: its host closed the sign-up" in flat(table.mails("south", "Re: join 4")[0])
        again = table.cli("game", "close", "-c", str(path), "g5")
        assert again.exit_code == 1 and "not open for sign-up" in again.output
        assert table.judge.store.game("g5") is None
    finally:
        if table is not None:
            table.close()
        server.stop()
