"""Hostile hosts and players against the issue-16 features, through the real mail path
(pymap SMTP in, the IMAP poll, the outbox out): every attack is answered, changes
nothing it must not, crashes nothing and leaks nothing; ``pbem verify`` passes after."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.service.play import setup as table_mod
from tests.conftest import SEATS
from tests.service.cmdmail import Mail, start, text


def _game(m: Mail, game_id: str, settings: dict | None = None) -> tuple[dict[str, str], str]:
    """A game as by ``pbem game new`` at the test accounts: its seat keys and host key."""
    made = table_mod.new_game(m.judge, game_id, [table_mod.NewSeat(s, s.title(), f"{s}@pbem.localhost")
                                                 for s in SEATS],
                              host_email="host@pbem.localhost", settings=settings or {})
    m.cycle()
    return dict(made.keys), made.host_key


def _verified(path: Path, *games: str) -> None:
    for game in games:
        v = CliRunner().invoke(main, ["verify", "-c", str(path), game])
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output


def _replies(m: Mail, account: str, n: int) -> list[str]:
    return [" ".join(text(x).split()) for x in m.mails(account, "Re: ", n)]


def test_hostile_host_commands_by_mail_are_answered_and_change_nothing_wrong(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        _keys, host = _game(m, "g2")
        _keys3, host3 = _game(m, "g3")
        base = {"game": "g2", "host": host}
        due = [d["due_at"] for d in m.judge.store.open_deadlines("g2")]
        attacks = [
            {**base, "command": "extend", "hours": 1e9},            # past year 9999
            {**base, "command": "extend", "hours": float("inf")},
            {**base, "command": "extend", "hours": -5},
            {**base, "command": "replace", "seat": "east", "player": "Thief <north@pbem.localhost>"},
            {**base, "command": "replace", "seat": "east", "player": "Loop <judge@pbem.localhost>"},
            {**base, "command": "rollback", "to_step": 10**30, "reason": "x"},
            {**base, "command": "rollback", "to_step": -1, "reason": "x"},
            {**base, "command": "rollback", "to_step": "0", "reason": "x"},
            {"game": "g2", "host": host3, "command": "pause"},       # the key of another game
            {"game": "g2", "command": "pause", "host": ""},
            {**base, "command": "extend", "hours": "24"},            # a text: told so, not "no hours"
        ]
        for i, doc in enumerate(attacks):
            m.send("host", doc, subject=f"attack {i}")
        statuses = m.cycle()
        assert sorted(statuses.values()) == ["rejected"] * len(attacks), statuses
        assert [d["due_at"] for d in m.judge.store.open_deadlines("g2")] == due
        emails = [r["email"] for r in m.judge.store.seats("g2")]
        assert len(set(emails)) == 4 and "judge@pbem.localhost" not in emails
        replies = {str(x["Subject"]): " ".join(text(x).split()) for x in m.mails("host", "Re: attack", len(attacks))}
        assert "another seat" in replies["Re: attack 3"] and "judge" in replies["Re: attack 4"]
        assert "hours" in replies["Re: attack 0"] and "hours" in replies["Re: attack 1"]
        assert "'24'" in replies["Re: attack 10"]
        assert "-1" not in replies["Re: attack 6"].split("where:")[0] and "first step" in replies["Re: attack 6"]

        # a deadline near the calendar's end: a further extend is refused, not a crash
        d = m.judge.store.open_deadlines("g2")[0]
        m.judge.store.move_deadline("g2", d["step"], d["seat"], "9999-06-01T00:00:00+00:00")
        m.send("host", {**base, "command": "extend", "hours": 8000}, subject="far")
        assert list(m.cycle().values()) == ["rejected"]
        assert "9999" in " ".join(text(m.mails("host", "Re: far")[0]).split())
        m.judge.store.move_deadline("g2", d["step"], d["seat"], d["due_at"])

        # pause and resume: every seat is told the new deadlines (no template text left in)
        m.send("host", {**base, "command": "pause", "reason": "a holiday"}, subject="pause")
        m.cycle()
        m.send("host", {**base, "command": "resume"}, subject="resume")
        assert list(m.cycle().values()) == ["host"]
        told = " ".join(text(m.mails("east", "[g2] the game resumes")[0]).split())
        assert "{" not in told and "waiting for" in told, told
    finally:
        path = m.path
        m.close()
    _verified(path, "g2", "g3")


def _code(mail) -> str:
    import re

    return re.search(r"confirm: (\S+)", text(mail)).group(1)


def test_address_change_cannot_hijack_a_seat_or_share_an_address(tmp_path: Path) -> None:
    from pbem.service.commands import host_commands

    m = start(tmp_path)
    try:
        keys, _host = _game(m, "g2")
        ask = lambda seat, to: {"game": "g2", "seat": seat, "key": keys[seat], "command": "address", "to": to}
        m.send("east", ask("east", "stranger@pbem.localhost"))
        m.send("south", ask("south", "stranger@pbem.localhost"))
        m.send("west", ask("west", "Loop <judge@pbem.localhost>"))
        assert sorted(m.cycle().values()) == ["answered", "answered", "rejected"]
        assert "judge" in _replies(m, "west", 1)[0]
        east_code = _code(m.mails("stranger", "confirm your address for seat east")[0])
        south_code = _code(m.mails("stranger", "confirm your address for seat south")[0])
        m.send("stranger", {"game": "g2", "seat": "east", "confirm": east_code})
        assert list(m.cycle().values()) == ["answered"]
        m.send("stranger", {"game": "g2", "seat": "south", "confirm": south_code})
        assert list(m.cycle().values()) == ["rejected"]
        emails = {r["seat"]: r["email"] for r in m.judge.store.seats("g2")}
        assert emails["south"] == "south@pbem.localhost" and emails["east"] == "stranger@pbem.localhost"
        refusal = _replies(m, "stranger", 2)[-1]
        assert "another seat" in refusal or "seat east of g2" in refusal, refusal

        # the player of north asks for a new address, then the host gives the seat to another player:
        # the old player's pending code must not take the seat's mail away from the new player
        m.send("north", ask("north", "newhome@pbem.localhost"))
        m.cycle()
        north_code = _code(m.mails("newhome", "confirm your address for seat north")[0])
        host_commands.run(m.judge, "g2", "replace", seat="north", player="Eumenes <host@pbem.localhost>")
        m.send("newhome", {"game": "g2", "seat": "north", "confirm": north_code})
        assert list(m.cycle().values()) == ["rejected"]
        assert {r["seat"]: r["email"] for r in m.judge.store.seats("g2")}["north"] == "host@pbem.localhost"
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_absence_with_odd_dates_is_answered_never_quarantined(tmp_path: Path) -> None:
    from tests.conftest import KEYS

    m = start(tmp_path, settings={"time_zone": "America/New_York"})
    try:
        head = f"game: g1\nseat: east\nkey: {KEYS['east']}\ncommand: absence\n"
        odd = ["from: 9999-12-30\nto: 9999-12-31\n",            # the last day the calendar has
               "from: 0001-01-01\nto: 0001-01-02\n",            # the first one, west of UTC
               "from: 0001-01-01 00:00:00+14:00\nto: 0001-01-02\n",
               "from: [a]\nto: {x: 1}\n",
               "from: 20261210\nto: 10000-01-01\n",
               "from: 2026-12-10T00:00+25:00\nto: 2026-12-11\n",
               "cancel: [true]\n",
               "from: .nan\nto: .inf\n"]
        for i, body in enumerate(odd):
            m.send("east", head + body, subject=f"odd {i}")
        statuses = m.cycle()
        assert sorted(statuses.values()) == ["rejected"] * len(odd), statuses
        replies = {str(x["Subject"]): " ".join(text(x).split()) for x in m.mails("east", "Re: odd", len(odd))}
        assert all("fix:" in r for r in replies.values()), replies
    finally:
        path = m.path
        m.close()
    _verified(path, "g1")


def test_declaring_and_cancelling_absences_cannot_push_a_deadline_for_ever(tmp_path: Path) -> None:
    from datetime import datetime

    from pbem import rules
    from tests.conftest import KEYS

    m = start(tmp_path, settings={"absence_limit_days": 2})
    try:
        state = m.judge.state("g1")
        seat = rules.pending(state)[0].seat
        head = f"game: g1\nseat: {seat}\nkey: {KEYS[seat]}\ncommand: absence\n"
        statuses = []
        for i in range(3):  # each round: an absence of the deadline's day, then cancel it
            due = datetime.fromisoformat(m.judge.store.deadline("g1", state.step, seat)["due_at"])
            day = due.date()
            m.send(seat, head + f"from: {day}\nto: {day}\n", subject=f"away {i}")
            statuses += list(m.cycle().values())
            m.send(seat, head + f"cancel: true\nseq: {i + 1}\n", subject=f"cancel {i}")  # a new command each time
            statuses += list(m.cycle().values())
        assert statuses[:4] == ["answered"] * 4
        assert statuses[4] == "rejected", statuses  # the limit of 2 days is used up
        first = " ".join(text(m.mails(seat, "Re: away 0")[0]).split())
        assert "to the end of" in first, first  # the day the player wrote, not the next midnight
        refusal = " ".join(text(m.mails(seat, "Re: away 2")[0]).split())
        assert "command.absence_limit" in refusal, refusal
    finally:
        path = m.path
        m.close()
    _verified(path, "g1")


def test_press_with_hostile_text_and_odd_yaml_is_relayed_escaped_or_refused(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        keys, _host = _game(m, "g2", {"press": "private", "grey_press": True})
        head = f"game: g2\nseat: east\nkey: {keys['east']}\ncommand: press\n"
        hostile = '"<script>alert(1)</script> &amp; \\0 \\e[31m \\u202e evil \\x07 \\r\\nBcc: x@y.org\\n"'
        m.send("east", head + f"to: [north]\ntext: {hostile}\n", subject="hostile")
        odd = ["to: 5\ntext: hi\n", "to: [north]\ntext: [a]\n", "to: {north: 1}\ntext: hi\n",
               "to: [north]\ntext: {a: b}\n", "to: [east]\ntext: to myself\n", "to: [north]\ntext: hi\ngrey: yes\n",
               "to: []\ntext: hi\n", "to: [north]\ntext: \"\\u3000\\u00a0\"\n"]
        for i, body in enumerate(odd):
            m.send("east", head + body, subject=f"odd {i}")
        statuses = m.cycle()
        assert sorted(statuses.values()) == ["answered"] + ["rejected"] * len(odd), statuses
        relayed = m.mails("north", "[g2] press from east")[0]
        html = relayed.get_body(("html",)).get_content()
        assert "<script>" not in html and "&lt;script&gt;" in html
        plain = text(relayed)
        assert "\x00" not in plain and "\x1b" not in plain and "\x07" not in plain
        assert relayed["Bcc"] is None and "x@y.org" not in str(relayed["To"])
        replies = m.mails("east", "Re: odd", len(odd))
        assert all("fix:" in " ".join(text(x).split()) for x in replies), [text(x) for x in replies if "fix:" not in text(x)]
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_sign_up_names_cannot_inject_control_characters_or_headers(tmp_path: Path) -> None:
    from pbem.service.commands import join

    m = start(tmp_path)
    try:
        join.open_game(m.judge, "g5", host_email="host@pbem.localhost")
        import pytest

        with pytest.raises(ValueError, match="open for sign-up"):  # the fourth join would then fail
            table_mod.new_game(m.judge, "g5", [table_mod.NewSeat(s, s, f"{s}@pbem.localhost") for s in SEATS],
                               host_email="host@pbem.localhost")
        names = {"north": '"Kleitos\\0\\e[2J"', "east": '"Peu\\u202ekestas\\x07"',
                 "south": '"Near\\r\\nBcc: x@y.org"', "west": '"Judge <judge@pbem.localhost>"'}
        for s in SEATS:  # the seat in capitals is the seat
            m.send(s, f"game: g5\njoin: {s.title()}\nname: {names[s]}\n", subject=f"join {s}")
            assert list(m.cycle().values()) == ["answered"], s
        m.send("stranger", "game: g5\njoin: any\n", subject="join 5")
        m.send("north", "game: g5\njoin: any\n", subject="join again")
        assert sorted(m.cycle().values()) == ["rejected", "rejected"]
        players = {r["seat"]: r["player"] for r in m.judge.store.seats("g5")}
        assert all(ch.isprintable() for p in players.values() for ch in p), players
        assert all(x["Bcc"] is None and [a.addr_spec for a in x["To"].addresses] == ["south@pbem.localhost"]
                   for x in m.inbox("south"))
        table_set = next(e for e in m.judge.store.events("g5") if e.kind == "TableSet")
        assert all(ch.isprintable() for ch in str(table_set.data))
        # `pbem game new` gives no two seats one address either (replace and sign-up refuse it too)

        with pytest.raises(ValueError, match="the address of seat north too"):
            table_mod.new_game(m.judge, "g6", [table_mod.NewSeat(s, s, ("North" if s == "east" else s) + "@pbem.localhost")
                                               for s in SEATS], host_email="host@pbem.localhost")
        assert m.judge.store.game("g6") is None
    finally:
        path = m.path
        m.close()
    _verified(path, "g5")


def test_player_commands_after_the_host_ended_the_game_log_nothing(tmp_path: Path) -> None:
    from datetime import timedelta

    m = start(tmp_path)
    try:
        keys, host = _game(m, "g2")
        m.send("host", {"game": "g2", "host": host, "command": "end", "abandon": True, "reason": "test"},
               subject="end")
        assert list(m.cycle().values()) == ["host"]
        ended = m.judge.store.events("g2")[-1].seq
        m.send("host", {"game": "g2", "host": host, "command": "end", "winner": "east"}, subject="end again")
        m.send("host", {"game": "g2", "host": host, "command": "rollback", "to_step": 0}, subject="rollback")
        assert list(m.cycle().values()) == ["rejected", "rejected"]
        m.send("host", {"game": "g2", "host": host, "command": "status"}, subject="status")
        assert list(m.cycle().values()) == ["host"]
        last = m.judge.store.events("g2")[-1].seq
        day = (m.judge.clock() + timedelta(days=3)).date()
        base = {"game": "g2", "seat": "east", "key": keys["east"]}
        later = [{"command": "absence", "from": str(day), "to": str(day)}, {"command": "preferences", "map": "off"},
                 {"command": "resend"}, {"command": "press", "to": "all", "text": "hi"},
                 {"command": "address", "to": "stranger@pbem.localhost"}]
        for i, doc in enumerate(later):
            m.send("east", {**base, **doc}, subject=f"late {i}")
        m.send("east", {**base, "command": "help"}, subject="help")
        statuses = m.cycle()
        assert sorted(statuses.values()) == ["answered"] + ["rejected"] * len(later), statuses
        assert [e.seq for e in m.judge.store.events("g2")][-1] == last == ended  # nothing logged after the end
        replies = " ".join(" ".join(text(x).split()) for x in m.mails("east", "Re: late", len(later)))
        assert replies.count("abandoned") >= len(later)
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_host_mail_refusals_hide_the_host_key_and_the_status_keeps_its_lines(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        _keys, host = _game(m, "g2")
        m.send("host", f"game: g2\nhost: {host}\ncommand: frobnicate\n", subject="bad")
        m.send("host", "game: g2\ncommand: pause\n", subject="no key")
        m.send("host", f"game: g2\nhost: {host}\ncommand: status\n", subject="status")
        assert sorted(m.cycle().values()) == ["host", "rejected", "rejected"]
        bad, nokey = (text(m.mails("host", f"Re: {s}")[0]) for s in ("bad", "no key"))
        assert host not in bad and "host: (hidden)" in bad
        assert "host key" in " ".join(nokey.split()) and "seat:" not in nokey
        status = text(m.mails("host", "Re: status")[0])
        lines = status.splitlines()
        assert any(line.startswith("  waiting for") for line in lines), status
        assert sum(line.startswith(("  north:", "  east:", "  south:", "  west:")) for line in lines) == 4, status
        assert max(len(line) for line in lines) <= 72
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_settings_refuse_durations_that_would_leave_the_calendar() -> None:
    from pbem.gamesettings import parse_settings

    for value in (1e20, float("inf"), float("nan"), "400d", "99999999d"):
        for raw in ({"grace": value}, {"deadlines": {"player_turn": value}}):
            _settings, problems = parse_settings(raw)
            assert problems and all("grace" in p or "deadlines" in p for p in problems), (raw, problems)
    assert parse_settings({"grace": "366d", "deadlines": {"reaction": "12h"}})[1] == []


ODD = ["null", "5", "-1", "[1, [2]]", "{a: {b: 1}}", '""', "true", ".inf", ".nan", "2026-12-10", "9999-12-31",
       "0001-01-01 00:00:00", '"\\0\\e\\u202e"', "!!binary aGk=", "1e400", "&a [*a]"]
PLAYER_KEYS = {"help": [], "resend": [], "absence": ["from", "to", "cancel"], "address": ["to"],
               "preferences": ["map", "format", "digest"], "press": ["to", "text", "grey"]}
HOST_KEYS = {"status": [], "extend": ["hours", "seat"], "replace": ["seat", "player"], "resend": ["seat"],
             "rollback": ["to_step", "reason"], "pause": ["reason"], "resume": ["reason"],
             "end": ["winner", "abandon", "reason"]}  # end last: the rest would be refused after it


def test_odd_values_in_every_command_key_are_answered_never_quarantined(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        keys, host = _game(m, "g2", {"press": "private", "grey_press": True})
        head = f"game: g2\nseat: east\nkey: {keys['east']}\n"
        sent = 0
        for command, own in PLAYER_KEYS.items():
            for key in own or ["extra"]:
                for value in ODD:
                    m.send("east", head + f"command: {command}\n{key}: {value}\n", subject=f"{command} {key}")
                    sent += 1
        for command, own in HOST_KEYS.items():
            for key in own or ["extra"]:
                for value in ODD:
                    m.send("host", f"game: g2\nhost: {host}\ncommand: {command}\n{key}: {value}\n",
                           subject=f"host {command} {key}")
                    sent += 1
        from pbem.service.commands import join

        join.open_game(m.judge, "g5", host_email="host@pbem.localhost")
        for key in ("join", "name", "game"):
            for value in ODD:
                body = {"join": "join: north\n", "name": "name: Ann\n", "game": "game: g5\n"}
                body[key] = f"{key}: {value}\n"
                m.send("stranger", body["game"] + body["join"] + body["name"], subject=f"join {key}")
                sent += 1
        for key in ("seat", "confirm", "game"):
            for value in ODD:
                body = {"game": "game: g2\n", "seat": "seat: east\n", "confirm": "confirm: abc\n"}
                body[key] = f"{key}: {value}\n"
                m.send("newhome", body["game"] + body["seat"] + body["confirm"], subject=f"confirm {key}")
                sent += 1
        m.send("newhome", f"game: g2\nseat: east\nconfirm: {ODD[3]}\n", subject="confirm")
        statuses = {}
        for _ in range(20):  # bounded: the poll takes a batch at a time
            statuses.update(m.cycle())
            if len(statuses) >= sent + 1:
                break
        assert len(statuses) == sent + 1
        assert "quarantined" not in statuses.values(), sorted({
            (r[0][:150], r[1]) for r in m.judge.store.db.execute(
                "SELECT error, subject FROM inbox WHERE status = 'quarantined'")})
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_a_command_mail_names_its_own_keys_and_takes_a_copied_step_line(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        keys, _host = _game(m, "g2")
        head = f"game: g2\nseat: east\nkey: {keys['east']}\n"
        m.send("east", head + "step: 0\ncommand: help\n", subject="help with step")
        m.send("east", head + "command: press\nto: all\ntxt: hello\n", subject="typo")
        assert sorted(m.cycle().values()) == ["answered", "rejected"]
        typo = " ".join(text(m.mails("east", "Re: typo")[0]).split())
        assert "Unknown key `txt` in `command: press`" in typo and "`text`" in typo, typo
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_wrong_address_codes_alert_the_seat_and_the_host(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        _keys, _host = _game(m, "g2")
        for i in range(3):
            m.send("stranger", {"game": "g2", "seat": "east", "confirm": f"guess-{i}"}, subject=f"guess {i}")
        assert sorted(m.cycle().values()) == ["rejected"] * 3
        assert len(m.mails("east", "[g2] wrong keys for your seat")) == 1
        assert m.judge.store.seats("g2")[1]["email"] == "east@pbem.localhost"
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_a_new_player_does_not_inherit_the_old_players_preferences(tmp_path: Path) -> None:
    from pbem.service.commands import host_commands
    from pbem.service.outgoing import seat_preferences

    m = start(tmp_path)
    try:
        keys, _host = _game(m, "g2")
        m.send("east", {"game": "g2", "seat": "east", "key": keys["east"], "command": "preferences",
                        "format": "plain", "digest": "daily", "map": "off"})
        assert list(m.cycle().values()) == ["answered"]
        host_commands.run(m.judge, "g2", "replace", seat="east", player="Eumenes <newhome@pbem.localhost>")
        m.cycle()
        assert seat_preferences.of(m.judge.store, "g2", "east") == dict(seat_preferences.DEFAULTS)
        handover = m.mails("newhome", "[g2] handover: your seat east")[0]
        assert handover.get_body(("html",)) is not None  # format: html again
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_the_host_of_an_open_game_gets_its_sign_up_status_by_mail(tmp_path: Path) -> None:
    from pbem.service.commands import join

    m = start(tmp_path)
    try:
        host = join.open_game(m.judge, "g5", host_email="host@pbem.localhost")
        m.send("north", "game: g5\njoin: any\nname: Ann\n", subject="join")
        m.cycle()
        m.send("host", f"game: g5\nhost: {host}\ncommand: status\n", subject="status")
        m.send("host", f"game: g5\nhost: {host}\ncommand: pause\n", subject="pause")
        m.send("stranger", f"game: g5\nhost: {host}\ncommand: status\n", subject="forged")
        assert sorted(m.cycle().values()) == ["host", "rejected", "rejected"]
        status = " ".join(text(m.mails("host", "Re: status")[0]).split())
        assert "north: Ann" in status and "east, south, west" in status, status
        assert "has not started" in " ".join(text(m.mails("host", "Re: pause")[0]).split())
        assert "north" not in text(m.mails("stranger", "Re: forged")[0]).split("The orders block")[0]
        cli = CliRunner().invoke(main, ["host", "-c", str(m.path), "status", "g5"])
        assert cli.exit_code == 0 and "north: Ann" in cli.output, cli.output
        cli = CliRunner().invoke(main, ["host", "-c", str(m.path), "pause", "g5"])
        assert cli.exit_code == 1 and "has not started" in cli.output, cli.output
    finally:
        m.close()


def test_a_config_host_address_in_capitals_still_commands_its_game(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    import yaml

    from pbem.config import load_config
    from pbem.keys import hash_key
    from pbem.service import make_judge
    from tests.conftest import ACCOUNTS
    from tests.mailservers import start_pymap
    from tests.service.helpers import write_config

    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    path, _config = write_config(tmp_path, server)
    raw = yaml.safe_load(path.read_text())
    raw["games"][0]["host_email"] = "Host@PBEM.localhost"  # as a host may type it
    raw["games"][0]["host_key_hash"] = hash_key("the-host-key", iterations=1000)
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    judge, poller = make_judge(load_config(path))
    m = Mail(server, path, judge, poller)
    judge.clock = lambda: datetime.now(UTC) + m.offset[0]
    try:
        judge.ensure_games()
        m.cycle()
        m.send("host", "game: g1\nhost: the-host-key\ncommand: status\n", subject="status")
        assert list(m.cycle().values()) == ["host"]
        assert "Game g1 is active" in text(m.mails("host", "Re: status")[0])
    finally:
        m.close()
    _verified(path, "g1")


def test_a_deadline_started_during_a_pause_moves_on_only_by_its_part_of_the_pause(tmp_path: Path) -> None:
    from datetime import datetime, timedelta

    from pbem import rules
    from pbem.service.commands import host_commands
    from tests.conftest import KEYS

    m = start(tmp_path)
    try:
        host_commands.run(m.judge, "g1", "pause", reason="a holiday")
        m.offset[0] += timedelta(hours=5)
        state = m.judge.state("g1")
        seat = rules.pending(state)[0].seat
        m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
                      "orders": {"first_player": seat}}, subject="orders in the pause")
        assert list(m.cycle().values()) == ["applied"]
        new = m.judge.state("g1")
        nxt = rules.pending(new)[0].seat
        before = datetime.fromisoformat(m.judge.store.deadline("g1", new.step, nxt)["due_at"])
        m.offset[0] += timedelta(hours=5)
        host_commands.run(m.judge, "g1", "resume")
        after = datetime.fromisoformat(m.judge.store.deadline("g1", new.step, nxt)["due_at"])
        assert timedelta(hours=4, minutes=59) <= after - before <= timedelta(hours=5, minutes=1), after - before
    finally:
        path = m.path
        m.close()
    _verified(path, "g1")


def test_resend_is_limited_so_that_no_loop_floods_a_seat_with_prompts(tmp_path: Path) -> None:
    from pbem import rules
    from pbem.service.commands.seat.resend import PER_HOUR

    m = start(tmp_path)
    try:
        keys, _host = _game(m, "g2")
        seat = rules.pending(m.judge.state("g2"))[0].seat
        for i in range(PER_HOUR + 2):
            m.send(seat, {"game": "g2", "seat": seat, "key": keys[seat], "command": "resend"}, subject=f"again {i}")
        statuses = m.cycle()
        assert sorted(statuses.values()) == ["answered"] * PER_HOUR + ["rejected"] * 2
        assert len([e for e in m.judge.store.events("g2") if e.kind == "PlayerActed"]) == PER_HOUR
        assert len(m.mails(seat, f"[g2] step 0: your move, {seat}", PER_HOUR + 1)) == PER_HOUR + 1
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_help_in_a_paused_game_says_so(tmp_path: Path) -> None:
    from pbem.service.commands import host_commands

    m = start(tmp_path)
    try:
        keys, _host = _game(m, "g2")
        host_commands.run(m.judge, "g2", "pause", reason="a holiday")
        m.send("east", {"game": "g2", "seat": "east", "key": keys["east"], "command": "help"}, subject="help")
        assert list(m.cycle().values()) == ["answered"]
        assert "paused" in " ".join(text(m.mails("east", "Re: help")[0]).split()[:80])
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_preferences_are_limited_so_that_no_loop_fills_the_log(tmp_path: Path) -> None:
    from pbem.service.commands.seat_commands import LOGGED_PER_HOUR

    limit = LOGGED_PER_HOUR["preferences"]
    m = start(tmp_path)
    try:
        keys, _host = _game(m, "g2")
        for i in range(limit + 2):
            m.send("east", {"game": "g2", "seat": "east", "key": keys["east"], "command": "preferences",
                            "map": "off" if i % 2 else "on"}, subject=f"prefs {i}")
        statuses = m.cycle()
        assert sorted(statuses.values()) == ["answered"] * limit + ["rejected"] * 2
        assert len([e for e in m.judge.store.events("g2") if e.kind == "PreferencesSet"]) == limit
        refusals = [t for t in (text(x) for x in m.mails("east", "Re: prefs", limit + 2)) if "times an hour" in t]
        assert len(refusals) == 2 and all("Wait an hour" in t for t in refusals)
    finally:
        path = m.path
        m.close()
    _verified(path, "g2")


def test_a_prompt_sent_during_a_pause_says_its_deadline_waits_for_the_resume(tmp_path: Path) -> None:
    """Second hand-played game (issue 24.10): a prompt sent while the game was paused
    showed a deadline that would not hold, with no word of the pause."""
    from pbem import rules
    from pbem.service.commands import host_commands
    from tests.conftest import KEYS

    m = start(tmp_path)
    try:
        host_commands.run(m.judge, "g1", "pause", reason="a holiday")
        state = m.judge.state("g1")
        seat = rules.pending(state)[0].seat
        m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
                      "orders": {"first_player": seat}}, subject="orders in the pause")
        assert list(m.cycle().values()) == ["applied"]
        new = m.judge.state("g1")
        nxt = rules.pending(new)[0].seat
        prompt = " ".join(text(m.mails(nxt, f"[g1] step {new.step}: your move, {nxt}")[0]).split())
        assert "the game is paused: this moves on by the whole pause when the host resumes it" in prompt
        host_commands.run(m.judge, "g1", "resume")
        m.send(nxt, {"game": "g1", "seat": nxt, "key": KEYS[nxt], "command": "resend"}, subject="again")
        m.cycle()
        again = " ".join(text(m.mails(nxt, f"[g1] step {new.step}: your move, {nxt}", 2)[-1]).split())
        assert "the game is paused" not in again
    finally:
        path = m.path
        m.close()
    _verified(path, "g1")
