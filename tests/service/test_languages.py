"""A language per seat through the real mail path (issue 28): the host sets it in the
config (``games[].seats[].language``) and for the host (``settings.host_language``);
each seat's welcome, reports, prompts, receipts and rejections come in its language,
with the ``[game] step N`` of the subject kept; a player switches with ``command:
preferences`` and ``language:``, from the next mail on; the log stays language-free."""
from __future__ import annotations

from pathlib import Path

import yaml

from pbem import rules
from pbem.config import load_config
from pbem.service import make_judge
from pbem.service.outgoing import seat_preferences
from tests.conftest import ACCOUNTS, KEYS, SEATS
from tests.mailservers import start_pymap
from tests.service.cmdmail import EXTRA, Mail, text
from tests.service.helpers import orders_body, write_config
from tests.service.tablemail import Table, flat

LANGUAGES = {"north": "en", "east": "ru", "south": "en", "west": "es"}


def _start(tmp_path: Path) -> Mail:
    server = start_pymap(tmp_path / "pymap", {**ACCOUNTS, **EXTRA})
    path, _config = write_config(tmp_path, server)
    raw = yaml.safe_load(path.read_text())
    for seat in raw["games"][0]["seats"]:
        seat["language"] = LANGUAGES[seat["seat"]]
    raw["games"][0]["settings"] = {"host_language": "es", "time_zone": "Europe/Madrid"}
    path.write_text(yaml.safe_dump(raw, sort_keys=False, allow_unicode=True))
    judge, poller = make_judge(load_config(path))
    m = Mail(server, path, judge, poller)
    judge.ensure_games()
    m.cycle()
    return m


def test_each_seat_reads_its_own_language(tmp_path: Path) -> None:
    m = _start(tmp_path)
    try:
        welcome = {s: m.mails(s, "]")[0] for s in SEATS}  # the first mail of each seat is its welcome
        assert str(welcome["west"]["Subject"]) == "[g1] bienvenida: tu asiento west"
        assert text(welcome["west"]).startswith("Bienvenido a g1")
        assert str(welcome["east"]["Subject"]) == "[g1] добро пожаловать: ваше место east"
        assert "Добро пожаловать в g1" in text(welcome["east"])
        assert str(welcome["north"]["Subject"]) == "[g1] welcome: your seat north"
        report = {s: m.mails(s, "step 0 ")[0] for s in SEATS}
        assert str(report["west"]["Subject"]).startswith("[g1] step 0 informe: ")
        assert str(report["east"]["Subject"]).startswith("[g1] step 0 отчёт: ")
        assert str(report["north"]["Subject"]).startswith("[g1] step 0 report: ")
        assert "QUÉ PASÓ" in text(report["west"]) and "ЧТО ПРОИЗОШЛО" in text(report["east"])
        assert "WHAT HAPPENED" in text(report["north"]) and "QUÉ PASÓ" not in text(report["north"])
        assert '<html lang="es">' in report["west"].get_body(("html",)).get_content()
        assert '<html lang="en">' in report["north"].get_body(("html",)).get_content()

        seat, body = orders_body(m.judge)
        prompt = m.mails(seat, ": ")[-1]
        deadline = "PLAZO: " if LANGUAGES[seat] == "es" else "СРОК: " if LANGUAGES[seat] == "ru" else "DEADLINE: "
        assert deadline in text(prompt)
        bad = yaml.safe_load(body) | {"step": 999}
        m.send(seat, yaml.safe_dump(bad), subject="orders")
        m.send(seat, body, subject="orders")
        assert sorted(m.cycle().values()) == ["applied", "rejected"]
        answers = [text(x) for x in m.mails(seat, "Re: orders", 2)]
        words = {"en": ("was not applied", "accepted."), "es": ("no se aplicó", "aceptadas."),
                 "ru": ("не применено", "приняты.")}[LANGUAGES[seat]]
        assert any(words[0] in a for a in answers) and any(words[1] in a.split("\n", 1)[0] for a in answers)
        assert m.judge.store.verify_chain("g1") == []
    finally:
        m.close()


def test_a_player_switches_language_from_the_next_mail_on(tmp_path: Path) -> None:
    m = _start(tmp_path)
    try:
        m.send("north", {"game": "g1", "seat": "north", "key": KEYS["north"], "command": "preferences",
                         "language": "fr"})
        m.send("south", {"game": "g1", "seat": "south", "key": KEYS["south"], "command": "preferences",
                         "language": "ru"})
        assert sorted(m.cycle().values()) == ["answered", "rejected"]
        refused = text(m.mails("north", "Re: command")[0])
        assert "`language:` takes en or es or ru" in refused and refused.rstrip().endswith("pbem judge for g1.")
        switched = text(m.mails("south", "Re: command")[0])
        assert switched.startswith("Ваши настройки для места south в g1 теперь такие:")  # the first mail in it
        assert "language: ru" in switched and switched.rstrip().endswith("судья pbem партии g1.")
        assert seat_preferences.of(m.judge.store, "g1", "south")["language"] == "ru"
        assert seat_preferences.of(m.judge.store, "g1", "north")["language"] == "en"
        logged = [e for e in m.judge.store.events("g1") if e.kind == "PreferencesSet"]
        assert {(e.seat, e.data["prefs"]["language"]) for e in logged} == {("east", "ru"), ("west", "es"),
                                                                         ("south", "ru")}
        assert not any(e.public for e in logged)  # each seat's choice is seen by that seat alone

        english = [x for x in m.inbox("south") if " report: " in str(x["Subject"])]
        assert english  # the setup report came before the switch, in English
        seat, body = orders_body(m.judge)
        m.send(seat, body, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        russian = m.mails("south", " отчёт: ")
        assert "ЧТО ПРОИЗОШЛО" in text(russian[-1]) and "WHAT HAPPENED" not in text(russian[-1])
        assert len([x for x in m.inbox("south") if " report: " in str(x["Subject"])]) == len(english)
        assert rules.pending(m.judge.state("g1"))  # the game goes on
    finally:
        m.close()


def test_a_player_chooses_the_language_at_sign_up(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        path, config = write_config(tmp_path, server)
        table = Table(server, path, config)
        out = table.cli("game", "open", "-c", str(path), "--host", "host@pbem.localhost", "g7")
        assert out.exit_code == 0, out.output
        table.open()
        table.send("north@pbem.localhost", "game: g7\njoin: any\nlanguage: fr\n", "join 0")
        assert table.cycle() == ["rejected"]
        languages = {"north": "ru", "east": "es", "south": "en", "west": "es"}
        for n, seat in enumerate(SEATS, 1):
            table.send(f"{seat}@pbem.localhost", f"game: g7\njoin: {seat}\nlanguage: {languages[seat]}\n", f"join {n}")
            assert table.cycle() == ["answered"]
        table.flush()
        assert "language: 'fr' is not a language of this judge" in flat(table.mails("north", "Re: join 0")[0])
        answers = {s: table.mails(s, "[g7] ")[0] for s in SEATS}  # the first: the answer with the key
        assert str(answers["north"]["Subject"]) == "[g7] ваше место north"
        assert text(answers["north"]).startswith("Добро пожаловать в g7")
        assert text(answers["east"]).startswith("Bienvenido a g7")
        assert text(answers["south"]).startswith("Welcome to g7")
        assert {s: seat_preferences.of(table.judge.store, "g7", s)["language"] for s in SEATS} == languages
        report = {s: next(m for m in table.mails(s, "step 0 ") if "step 0 " in str(m["Subject"])) for s in SEATS}
        assert "ЧТО ПРОИЗОШЛО" in text(report["north"]) and "QUÉ PASÓ" in text(report["west"])
        assert "WHAT HAPPENED" in text(report["south"])
        started = {s: flat(table.mails(s, subject)[0]) for s, subject in
                   (("north", "[g7] партия начинается"), ("east", "[g7] la partida empieza"),
                    ("south", "[g7] the game starts"))}  # each in the language chosen at sign-up
        assert "Партия g7 начинается: все четыре места заняты" in started["north"]
        assert "La partida g7 empieza: sus cuatro asientos están tomados" in started["east"]
        assert "Game g7 starts: its four seats are taken" in started["south"]
    finally:
        if table is not None:
            table.close()
        server.stop()


def test_the_standings_table_lines_up_in_every_language(tmp_path: Path) -> None:
    """Issue 28 trial (trial2829): the Spanish header's "Asiento" is wider than the seat
    column (6), so "Jugador", "PV", "PL" ... stood one column right of their values."""
    m = _start(tmp_path)
    try:
        for seat, header in (("west", "Asiento"), ("east", "Место"), ("north", "Seat")):
            lines = text(m.mails(seat, "step 0 ")[0]).splitlines()
            at = next(i for i, line in enumerate(lines) if line.startswith(header + " "))
            head, row = lines[at], lines[at + 1]
            player = row.split()[1]
            assert head.split()[1] and head.index(head.split()[1]) == row.index(player), (head, row)
            assert head.rindex(head.split()[-1]) == row.index(row.split()[-1]), (head, row)  # Status
    finally:
        m.close()
