"""Issue 28 through the real mail path: the host's table notices (pause, resume) and
command replies (resend, absence) come in each recipient's language, the ``[game]``
prefix kept; an English seat reads the same notice in English; the host's reply to a
host command comes in the host's language (``host_language``)."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbem import rules
from pbem.service.commands import host_commands
from pbem.service.play import setup
from tests.conftest import KEYS, SEATS
from tests.service.cmdmail import start, text
from tests.service.test_languages import _start


def test_table_notices_and_command_replies_in_each_seats_language(tmp_path: Path) -> None:
    m = _start(tmp_path)  # north and south English, east Russian, west Spanish
    try:
        host_commands.run(m.judge, "g1", "pause", reason="vacaciones")
        m.cycle()
        west = " ".join(text(m.mails("west", "[g1] la partida está en pausa")[0]).split())
        assert "El anfitrión pausó g1: vacaciones. No vence ningún plazo" in west
        east = " ".join(text(m.mails("east", "[g1] партия на паузе")[0]).split())
        assert "Ведущий поставил g1 на паузу: vacaciones." in east
        north = " ".join(text(m.mails("north", "[g1] the game is paused")[0]).split())
        assert "The host paused g1: vacaciones. No deadline passes" in north
        host_commands.run(m.judge, "g1", "resume")
        m.cycle()
        west = " ".join(text(m.mails("west", "[g1] la partida se reanuda")[0]).split())
        assert "El anfitrión reanudó g1 tras una pausa de" in west and "Sin órdenes (decisiones perdidas" in west
        assert "The host" not in west and "in a row" not in west and "NMR" not in west  # lang28e item 6
        east = " ".join(text(m.mails("east", "[g1] партия возобновлена")[0]).split())
        assert "Без приказов (пропущенные решения" in east and "NMR" not in east, east

        seat = rules.pending(m.judge.state("g1"))[0].seat
        if seat != "east":  # the waited-on seat switches to Spanish (east stays Russian for the absence)
            m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "preferences", "language": "es"})
            m.cycle()
        m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "resend"}, subject="again")
        day = (m.judge.clock() + timedelta(days=3)).date()
        m.send("east", {"game": "g1", "seat": "east", "key": KEYS["east"], "command": "absence",
                        "from": str(day), "to": str(day + timedelta(days=2))}, subject="away")
        m.cycle()
        again = " ".join(text(m.mails(seat, "Re: again")[0]).split())
        step = m.judge.state("g1").step
        assert (f"Ваш запрос приказов на шаг {step} отправлен снова" if seat == "east" else
                f"Tu aviso de turno del paso {step} se envía de nuevo") in again, again
        away = " ".join(text(m.mails("east", "Re: away")[0]).split())
        assert "Ваше отсутствие с " in away and "(3 дня) записано" in away, away
        assert "Your absence" not in away
    finally:
        m.close()


def test_the_hosts_reply_to_a_host_command_is_in_the_host_language(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        made = setup.new_game(m.judge, "g2", [setup.NewSeat(s, s.title(), f"{s}@pbem.localhost", "ru")
                                              for s in SEATS],
                              host_email="host@pbem.localhost", settings={"host_language": "es"})
        m.cycle()
        m.send("host", {"game": "g2", "host": made.host_key, "command": "pause", "reason": "fiesta"}, subject="pause")
        assert list(m.cycle().values()) == ["host"]
        reply = " ".join(text(m.mails("host", "Re: pause")[0]).split())
        assert "La partida g2 está en pausa. Envía `command: resume` para continuar." in reply, reply
        assert "Testigo del registro: " in reply and "Log witness" not in reply and "is paused" not in reply
        notice = " ".join(text(m.mails("north", "[g2] партия на паузе")[0]).split())
        assert "Ведущий поставил g2 на паузу: fiesta." in notice
    finally:
        m.close()


def test_a_russian_notice_of_a_span_in_days_ends_with_one_stop(tmp_path: Path) -> None:
    """try28e: a Russian seat whose deadline the host extended by a day read "Ведущий
    продлил ваш срок в g1 на 1 дн.. Ваши приказы ..." (the abbreviation's stop and the
    sentence's); so did a resume after a pause of days. One stop, as Russian writes it."""
    m = _start(tmp_path)
    m.judge.clock = lambda: datetime.now(UTC) + m.offset[0]
    try:
        seat = rules.pending(m.judge.state("g1"))[0].seat
        if seat != "east":
            m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "preferences", "language": "ru"})
            m.cycle()
        host_commands.run(m.judge, "g1", "extend", hours=24)
        m.cycle()
        moved = " ".join(text(m.mails(seat, "[g1] step")[-1]).split())
        assert "Ведущий продлил ваш срок в g1 на 1 дн. Ваши приказы на шаг" in moved, moved
        host_commands.run(m.judge, "g1", "pause", reason="праздник")
        m.offset[0] += timedelta(days=2)
        host_commands.run(m.judge, "g1", "resume")
        m.cycle()
        resumed = " ".join(text(m.mails(seat, "[g1] партия возобновлена")[0]).split())
        assert re.search(r"после паузы длиной 2 дн\.(?: \d+ с\.)? Каждый открытый срок", resumed), resumed
        assert ".." not in moved + resumed
    finally:
        m.close()


def test_an_answers_html_part_says_its_language(tmp_path: Path) -> None:
    """try28e: every HTML part made from a text body (refusals, command replies,
    receipts, table notices) said ``<html lang="en">`` in a Russian or Spanish mail, so
    a reader's mail client, screen reader and spell checker took it for English; the
    reports said their language already. Now each says the language it is written in."""
    m = _start(tmp_path)  # north and south English, east Russian, west Spanish
    try:
        for seat in ("east", "west", "north"):
            m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "status"}, subject="status")
            m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat] + "x", "command": "status"}, subject="bad")
        m.cycle()
        for n in (2, 3):  # three wrong keys: the seat is alerted
            m.send("east", {"game": "g1", "seat": "east", "key": KEYS["east"] + "x", "command": "status"},
                   subject=f"bad {n}")
        m.cycle()
        host_commands.run(m.judge, "g1", "pause", reason="vacaciones")
        m.cycle()

        def lang(seat: str, subject: str) -> str:
            html = m.mails(seat, subject)[0].get_body(("html",)).get_content()
            return html.split('<html lang="', 1)[1].split('"', 1)[0]
        assert [lang("east", s) for s in ("Re: status", "Re: bad", "[g1] партия на паузе")] == ["ru"] * 3
        assert [lang("west", s) for s in ("Re: status", "Re: bad", "[g1] la partida está en pausa")] == ["es"] * 3
        assert [lang("north", s) for s in ("Re: status", "Re: bad", "[g1] the game is paused")] == ["en"] * 3
        assert lang("east", "[g1] неверные ключи для вашего места") == "ru"
        # the welcome, a press relay and the seed mail too
        m.send("north", {"game": "g1", "seat": "north", "key": KEYS["north"], "command": "press", "to": "all",
                         "text": "Hello all."}, subject="press")
        m.cycle()
        host_commands.run(m.judge, "g1", "end", winner="north", reason="test")
        m.cycle()
        assert [lang("east", s) for s in ("[g1] добро пожаловать", "[g1] послание от north",
                                          "[g1] зерно кубиков")] == ["ru"] * 3
        assert [lang("west", s) for s in ("[g1] bienvenida", "[g1] mensaje de north",
                                          "[g1] la semilla de los dados")] == ["es"] * 3
    finally:
        m.close()
