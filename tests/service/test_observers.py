"""Issue 29.3, observers, through the real mail path (pymap SMTP in, the IMAP poll, the
outbox out): an address the host allows follows a whole game by `command: observe`
and every mail it gets is scanned for every private value — the cards only a seat
holds (by their labels, `#12 Name`), the seat keys and the host key, a press message,
the seats' addresses and the dice seed — none is found before the end; and the
settings `off`/`anyone`, `command: leave` and a stranger's `command: help`."""
from __future__ import annotations

import random
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import yaml

from pbem import rules
from pbem.rules.core.names import card_label
from tests.conftest import ACCOUNTS, SEATS
from tests.mailservers import start_pymap
from tests.service.cmdmail import start, text
from tests.service.cmdmail import new_game as cmd_new_game
from tests.service.tablemail import flat, new_table

DECISIONS = 40
"""Decisions played by mail before the host ends the game (a game by the rules takes 54 to 70)."""
OBSERVER = "stranger@pbem.localhost"
PRESS = "Meet me at Babylon, the secret word is QUINCUNX-7741."


def _hands(state: rules.GameState) -> dict[str, set[str]]:
    """Each seat's hand as the labels reports use (`#12 Name (3 OPs)` without the OPs)."""
    return {s: {card_label(state.pack, n).split(" (")[0] for n in state.private.get(s, {}).get("hand", [])}
            for s in SEATS}


def test_an_observer_follows_a_whole_game_and_sees_no_secret(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        table, host_key = new_table(tmp_path, server, extra=("--setting", "observers=host"))
        store = table.judge.store
        observe = "game: g2\ncommand: observe\n"
        table.send(OBSERVER, observe, "observe")  # not allowed yet
        assert table.cycle() == ["rejected"]
        table.flush()
        assert "observe.not_allowed" in flat(table.mails("stranger", "Re: observe")[0])
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: observers\nadd: {OBSERVER}\n",
                   "allow")
        assert table.cycle() == ["host"]
        listed = table.cli("game", "observers", "-c", str(table.path), "g2")
        assert listed.exit_code == 0 and f"{OBSERVER}: allowed (allowed by the host)" in listed.output, listed.output
        store = table.judge.store  # the CLI reopened the judge
        table.send(OBSERVER, observe, "observe now")
        assert table.cycle() == ["answered"]
        table.flush()
        assert "You observe g2" in flat(table.mails("stranger", "Re: observe now")[0])
        start_id = store.db.execute("SELECT MAX(id) FROM outbox").fetchone()[0]
        press = {"game": "g2", "seat": "north", "key": table.keys["north"], "command": "press", "to": ["east"],
                 "text": PRESS}
        table.send("north@pbem.localhost", yaml.safe_dump(press, sort_keys=False), "press")
        assert table.cycle() == ["answered"]

        # the whole game, 40 decisions then ended by the host (bounded: a whole game by the rules takes longer
        # than a test may); after each decision, which observer mails were queued and each seat's hand then
        hands_at: dict[str, dict[str, set[str]]] = {}
        rng = random.Random(29)

        def note() -> set[str]:
            fresh = {r[0] for r in store.db.execute("SELECT message_id FROM outbox WHERE kind = 'observer'")
                     if r[0] not in hands_at}
            hands_at.update(dict.fromkeys(fresh, _hands(table.judge.state("g2"))))
            return fresh

        for _ in range(DECISIONS):
            if not rules.pending(table.judge.state("g2")):
                break
            assert table.play("g2", rng) == "applied"
            ended_with = note()
        if rules.pending(table.judge.state("g2")):
            table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: end\nwinner: east\n", "end")
            assert table.cycle() == ["host"]
            ended_with = note()  # the end: its report may name the seed
        state = table.judge.state("g2")
        assert not rules.pending(state) and state.result and store.game("g2")["status"] == "over"
        assert ended_with
        table.flush()

        reports = store.db.execute("SELECT subject FROM outbox WHERE kind = 'report' AND to_addr = ? AND id > ?",
                                   ["north@pbem.localhost", start_id]).fetchall()
        watched = table.mails("stranger", "[g2] step", len(reports))
        assert sorted(str(m["Subject"]) for m in watched) == sorted(r[0] for r in reports)  # every report, once
        assert len(watched) == len(hands_at) > 20
        seat_reports = {s: [m for m in table.inbox(s) if " report: " in str(m["Subject"])] for s in SEATS}
        seed = store.game("g2")["seed"]
        secrets = [*table.keys.values(), host_key, PRESS, "QUINCUNX", *(f"{s}@pbem.localhost" for s in SEATS),
                   "YOUR HAND"]
        hidden_cards = 0
        for mail in watched:
            body = text(mail) + "\n" + mail.get_body(("html",)).get_content()
            assert not [s for s in secrets if s in body], mail["Subject"]
            if mail["Message-ID"] not in ended_with:
                assert seed not in body, mail["Subject"]  # the seed is public only at the end
            # a card in a seat's hand that another seat's report of this step does not show is hidden
            # from that seat; the observer, who sees what every seat sees, must not see it either
            same = {s: "\n".join(text(m) for m in seat_reports[s] if m["Subject"] == mail["Subject"])
                    for s in SEATS}
            for holder, labels in hands_at[mail["Message-ID"]].items():
                for label in labels:
                    if any(label not in same[other] for other in SEATS if other != holder):
                        hidden_cards += 1
                        assert label not in body, (mail["Subject"], holder, label)
        assert hidden_cards > 100  # the scan met the hands' cards

        v = table.cli("verify", "g2")
        assert v.exit_code == 0 and "re-adjudication equals the log" in v.output, v.output
        out = tmp_path / "archive"
        assert table.cli("archive", "g2", str(out)).exit_code == 0
        run = subprocess.run([sys.executable, "-I", str(out / "pbem_verify.py"), str(out)], check=False,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
    finally:
        if table is not None:
            table.close()
        server.stop()


def _answers(m, account: str, subject: str) -> str:
    found = m.mails(account, subject)
    return " ".join(text(found[-1]).split())


def test_who_may_observe_leave_and_help_for_any_address(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        cmd_new_game(m, "g7")  # observers: off, the default
        m.send("stranger", {"game": "g7", "command": "observe"}, "observe off")
        assert list(m.cycle().values()) == ["rejected"]
        assert "observe.off" in _answers(m, "stranger", "Re: observe off")
        g8_keys = cmd_new_game(m, "g8", {"observers": "anyone"})
        m.send("north", {"game": "g8", "command": "observe"}, "observe own")  # a seat of the game
        m.send("stranger", {"game": "g9", "command": "observe"}, "observe none")
        assert sorted(m.cycle().values()) == ["rejected", "rejected"]
        assert "observe.seat" in _answers(m, "north", "Re: observe own")
        assert "observe.no_game" in _answers(m, "stranger", "Re: observe none")
        m.send("stranger", {"game": "g8", "command": "observe", "language": "es"}, "observe g8")
        assert list(m.cycle().values()) == ["answered"]
        assert m.judge.store.observer("g8", "stranger@pbem.localhost")["status"] == "pending"  # a code first
        m.send("stranger", {"game": "g8", "command": "observe", "confirm": _code(m, "g8", "Re: observe g8")},
               "confirm g8")
        assert list(m.cycle().values()) == ["answered"]
        assert m.judge.store.observer("g8", "stranger@pbem.localhost")["status"] == "active"
        _decide(m, "g8", g8_keys, 1)
        watched = m.mails("stranger", "[g8] step")[0]
        assert " informe: " in str(watched["Subject"])  # the observer's language, and how to stop
        assert "Observa g8" in " ".join(text(watched).split()) and "`command: leave`" in text(watched)
        m.send("stranger", {"game": "g8", "command": "leave"}, "leave g8")
        assert list(m.cycle().values()) == ["answered"]
        assert "Ya no observas g8" in _answers(m, "stranger", "Re: leave g8")  # the language it observed in
        before = len(m.judge.store.db.execute("SELECT id FROM outbox WHERE kind = 'observer'").fetchall())
        _decide(m, "g8", g8_keys, 2)
        assert len(m.judge.store.db.execute("SELECT id FROM outbox WHERE kind = 'observer'").fetchall()) == before
        m.offset[0] += timedelta(hours=1, minutes=1)  # the code's answer counts under the hourly limit on answers
        m.send("stranger", {"game": "g8", "command": "leave"}, "leave again")
        assert list(m.cycle().values()) == ["rejected"]
        assert "observe.not_following" in _answers(m, "stranger", "Re: leave again")
        m.offset[0] += timedelta(hours=2)  # past the hourly limit on answers to addresses that hold no seat
        m.send("stranger", {"game": "g8", "command": "help"}, "help please")  # a stranger's help: the general guide
        assert list(m.cycle().values()) == ["answered"]
        helped = _answers(m, "stranger", "Re: help please")
        # in the language it observed in, as the leave (try28: the general help was English to everyone)
        assert "OBSERVAR UNA PARTIDA" in helped and "TU HISTORIAL" in helped and "UNIRSE A UNA PARTIDA ABIERTA" in helped
        assert "YOUR HAND" not in helped and "OBSERVING A GAME" not in helped
    finally:
        m.close()


def _code(m, game_id: str, subject: str, account: str = "stranger") -> str:  # noqa: ANN001
    """The confirmation code the judge mailed to ``account`` in the answer ``subject``."""
    found = re.search(r"confirm: (\w+)", text(m.mails(account, subject)[0]))
    assert found, text(m.mails(account, subject)[0])
    return found.group(1)


def _decide(m, game_id: str, keys: dict[str, str], seed: int) -> None:
    """The waited-on seat's random legal orders by mail, applied."""
    state = m.judge.state(game_id)
    seat = rules.pending(state)[0].seat
    m.send(seat, {"game": game_id, "seat": seat, "key": keys[seat], "step": state.step,
                  "orders": rules.bot_orders(state, seat, random.Random(seed))}, "orders")
    assert list(m.cycle().values()) == ["applied"]


def test_a_forged_subscription_gets_no_report_and_a_bouncing_observer_is_dropped(tmp_path: Path) -> None:
    """Issue 29's trial, finding 6: anyone may write a mail with another's address in its
    From:. With `observers: anyone` the address gets a confirmation code and no report
    until the code comes back from it; a wrong code is refused (`observe.confirm`). An
    observer whose mail bounces (the server refuses it for good) is dropped and the host
    told, as a seat's bouncing address is marked."""
    m = start(tmp_path)
    try:
        keys = cmd_new_game(m, "g8", {"observers": "anyone"})
        # "mallory" subscribes stranger's address: the judge mails stranger a code, and no report
        m.send("stranger", {"game": "g8", "command": "observe"}, "forged")
        assert list(m.cycle().values()) == ["answered"]
        asked = _answers(m, "stranger", "Re: forged")
        assert "send this code back from this address" in asked and "If you did not ask" in asked
        assert m.judge.store.observer("g8", "stranger@pbem.localhost")["status"] == "pending"
        _decide(m, "g8", keys, 1)
        m.cycle()
        assert not [x for x in m.inbox("stranger") if "[g8] step" in str(x["Subject"])]
        assert not m.judge.store.db.execute("SELECT id FROM outbox WHERE kind = 'observer'").fetchall()
        # a guessed code is refused; the code from the mailbox starts the reports
        m.send("stranger", {"game": "g8", "command": "observe", "confirm": "AAAAAAAAAA"}, "guess")
        assert list(m.cycle().values()) == ["rejected"]
        assert "observe.confirm" in _answers(m, "stranger", "Re: guess")
        assert m.judge.store.observer("g8", "stranger@pbem.localhost")["status"] == "pending"
        m.send("stranger", {"game": "g8", "command": "observe", "confirm": _code(m, "g8", "Re: forged")}, "confirm")
        assert list(m.cycle().values()) == ["answered"]
        assert "You observe g8" in _answers(m, "stranger", "Re: confirm")
        _decide(m, "g8", keys, 2)
        m.cycle()
        assert m.mails("stranger", "[g8] step")
        # the host allows an address whose mail bounces (no such account): the host's allowance needs no code;
        # the first mail to it (the answer) is refused for good, so it is dropped and the host told
        m.judge.store.set_observer("g8", "ghost@pbem.localhost", "allowed", m.judge.clock().isoformat(),
                                   allowed_by="host")
        m.send("ghost", {"game": "g8", "command": "observe"}, "ghost")  # ghost@ has no mailbox on the server
        assert list(m.cycle().values()) == ["answered"]  # active, then its answer bounces
        m.cycle()
        assert m.judge.store.observer("g8", "ghost@pbem.localhost")["status"] == "left"
        _decide(m, "g8", keys, 3)
        m.cycle()
        assert not m.judge.store.db.execute("SELECT id FROM outbox WHERE kind = 'observer' AND to_addr = ? AND "
                                            "status = 'pending'", ["ghost@pbem.localhost"]).fetchall()
        told = " ".join(text(m.mails("host", "host notice: observer bounce")[0]).split())
        assert "ghost@pbem.localhost, an observer of g8, bounced" in told and "no longer observes" in told
        assert m.judge.store.observer("g8", "stranger@pbem.localhost")["status"] == "active"
    finally:
        m.close()
