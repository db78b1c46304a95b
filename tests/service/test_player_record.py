"""Issue 29.4, a player's record, through the real mail path: two games played by mail
(`pbem game new`), in which north answers some decisions, misses others (the deadline
passes) and falls into civil disorder; both ended by the host. Then `command: record`
answers north's record (games, finished, answered, missed, civil disorders, answer
time), also once both games moved to the archive database; a sign-up with
`min_finished_games` / `max_missed_share` refuses the players below them, and the host's sign-up notice shows a joining player's record."""
from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from pbem import rules
from pbem.service.play import setup
from pbem.service.retention import run as run_retention
from tests.conftest import ACCOUNTS, PLAYERS, SEATS
from tests.mailservers import start_pymap
from tests.service.tablemail import Table, flat, new_table

NORTH = "north@pbem.localhost"


def _second_game(table: Table, game_id: str, settings: dict) -> None:
    """``game_id`` made as by ``pbem game new`` on the table's judge, in the judge's time
    (its clock runs ahead); its keys kept in :attr:`Table.keys` as ``game/seat``."""
    with table.judge.store.transaction():
        made = setup.new_game(table.judge, game_id, [setup.NewSeat(s, PLAYERS[s], f"{s}@pbem.localhost")
                                                     for s in SEATS],
                              host_email="host@pbem.localhost", settings=settings)
    table.host_keys[game_id] = made.host_key
    table.keys.update({f"{game_id}/{s}": k for s, k in made.keys.items()})
    table.flush()


def _play(table: Table, game_id: str, rng: random.Random, *, north_answers: int, north_misses: int) -> int:
    """Play ``game_id`` by mail until north answered ``north_answers`` decisions and let
    ``north_misses`` of its deadlines pass (the judge's clock a month on); the number
    of north's decisions answered."""
    answered = missed = 0
    for _ in range(200):
        if answered >= north_answers and missed >= north_misses:
            return answered
        state = table.judge.state(game_id)
        waiting = [d.seat for d in rules.pending(state)]
        seat = waiting[0]
        if waiting == ["north"] and missed < north_misses and answered >= 1:
            logged = _count(table, "DecisionMissed", (game_id,))
            table.offset[0] += timedelta(days=30)  # north sends nothing: the deadline passes
            table.cycle()
            missed += _count(table, "DecisionMissed", (game_id,)) > logged
            continue
        doc_keys = {s: table.keys.get(f"{game_id}/{s}", table.keys[s]) for s in SEATS}
        saved, table.keys = table.keys, doc_keys
        try:
            assert table.play(game_id, rng) == "applied"
        finally:
            table.keys = saved
        answered += seat == "north"
    raise AssertionError("the game did not reach the decisions wanted")


def _end(table: Table, game_id: str, key: str) -> None:
    table.send("host@pbem.localhost", f"game: {game_id}\nhost: {key}\ncommand: end\nwinner: east\n", f"end {game_id}")
    assert table.cycle() == ["host"]
    assert table.judge.store.game(game_id)["status"] == "over"


def _count(table: Table, kind: str, games: tuple[str, ...] = ("g2", "g3")) -> int:
    """North's events of ``kind`` in the live database (a finished game moves to the archive
    database once the judge's clock is 30 days past its end: the month-long waits do that)."""
    return sum(1 for g in games for e in table.judge.store.events(g)
               if e.kind == kind and e.data.get("seat") == "north")


def test_a_record_after_two_games(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        table, host_key = new_table(tmp_path, server)
        table.host_keys = {"g2": host_key}
        rng = random.Random(4)
        answered = _play(table, "g2", rng, north_answers=2, north_misses=1)
        _end(table, "g2", host_key)
        in_g2 = {k: _count(table, k, ("g2",)) for k in ("DecisionMissed", "CivilDisorderDeclared")}
        _second_game(table, "g3", {"nmr_limit": 1})
        answered += _play(table, "g3", rng, north_answers=1, north_misses=1)
        _end(table, "g3", table.host_keys["g3"])
        assert in_g2["DecisionMissed"] >= 1 and _count(table, "CivilDisorderDeclared", ("g3",)) >= 1
        assert not any(e.kind == "DecisionMissed" and e.data.get("seat") == "east" for g in ("g2", "g3")
                       for e in table.judge.store.events(g))  # (east's whole record: its join below)

        table.send(NORTH, "game: g2\ncommand: record\n", "my record")
        table.send("stranger@pbem.localhost", "game: g2\ncommand: record\n", "my record too")
        assert table.cycle() == ["answered", "answered"]
        table.flush()
        record = flat(table.mails("north", "Re: my record")[0])
        # what the log holds for north now (a seat in civil disorder may miss more decisions by itself)
        missed, disorders = (in_g2[k] + _count(table, k, ("g3",)) for k in ("DecisionMissed",
                                                                          "CivilDisorderDeclared"))
        assert "Games played: 2 (finished: 2, running: 0)" in record, record
        assert f"Decisions answered: {answered}" in record, record
        assert f"Decisions missed: {missed} ({missed / (missed + answered):.0%} of decisions)" in record, record
        assert f"Civil disorders: {disorders}" in record
        assert "Average answer time: " in record and "Average answer time: none yet" not in record
        stranger = flat(table.mails("stranger", "Re: my record too")[0])
        assert "Games played: 0 (finished: 0, running: 0)" in stranger and "none yet" in stranger

        # the finished games move to the archive database (issue 30.7): the records stay
        before = {a: table.judge.store.player_record(a) for a in (NORTH, "east@pbem.localhost")}
        table.flush()
        moved = run_retention(table.judge.store, table.judge.config, table.judge.clock() + timedelta(days=400))
        assert "g3" in moved.moved and table.judge.store.game("g2") is None and table.judge.store.game("g3") is None
        assert {a: table.judge.store.player_record(a) for a in before} == before

        # a game that asks for a record: north missed too many, the stranger finished none
        opened = table.cli("game", "open", "-c", str(table.path), "--host", "host@pbem.localhost",
                           "--setting", "min_finished_games=1", "--setting", "max_missed_share=0.1", "g5")
        assert opened.exit_code == 0, opened.output
        table.send(NORTH, "game: g5\njoin: any\n", "join g5")
        table.send("stranger@pbem.localhost", "game: g5\njoin: any\n", "join g5 too")
        table.send("east@pbem.localhost", "game: g5\njoin: east\n", "join g5 east")
        joined = table.cycle()
        table.flush()
        assert joined == ["answered", "rejected", "rejected"], [flat(m) for m in table.inbox("east")[-1:]]
        assert "command.signup_missed" in flat(table.mails("north", "Re: join g5")[0])
        assert "command.signup_finished" in flat(table.mails("stranger", "Re: join g5 too")[0])
        assert table.mails("east", "[g5] your seat east")
        notice = flat(table.mails("host", "[g5] sign-up:")[0])
        assert "east@pbem.localhost" in notice and "Games played: 2 (finished: 2, running: 0)" in notice
    finally:
        if table is not None:
            table.close()
        server.stop()
