"""Issue 28, done when: "A whole game is played by mail through the real pipeline with
seats in en, es and ru (and one seat switching language mid-game); each seat's mails are
in its language." A game of the config (seats in ``en``, ``ru``, ``es``; the host in
``es``) played by mail for a bounded number of decisions (every order mailed over SMTP to
the judge's mailbox, read by the IMAP poll, every answer sent back by SMTP); south
switches from English to Spanish with ``command: preferences`` part-way. Every report a
seat gets tells what happened (each numbered line of its story) in its language: no
English event sentence in a Spanish or Russian report, Cyrillic on every line of a
Russian one, and the switching seat's reports English before the switch and Spanish
after it. The log stays language-free: its hash chain verifies."""
from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path

import yaml

from pbem import rules
from pbem.config import load_config
from pbem.service import make_judge
from tests.conftest import ACCOUNTS, KEYS, SEATS
from tests.mailservers import start_pymap
from tests.service.cmdmail import EXTRA, Mail, text
from tests.service.helpers import orders_body, write_config

LANGUAGES = {"north": "en", "east": "ru", "south": "en", "west": "es"}
SWITCH_AT = 5
"""The decision before which south switches to Spanish."""
DECISIONS = 14
"""How many decisions are played by mail (the setup and more than a round)."""
REPORT = {"en": " report: ", "es": " informe: ", "ru": " отчёт: "}
"""What a report's subject says after ``[g1] step N``, by language."""
HAPPENED = {"en": "WHAT HAPPENED", "es": "QUÉ PASÓ", "ru": "ЧТО ПРОИЗОШЛО"}
ENGLISH_EVENTS = re.compile(r"player-turn|Round \d+ begins|places a garrison|'s army|Battle at|\bplays #|"
                            r"discards #|Dice \d+d\d|Tyche cards dealt|The game begins|Phase: ")
"""Words of the English event sentences (the rules core's event catalogue)."""
SPANISH_EVENTS = re.compile(r"turno de jugador|Empieza|coloca|mueve|juega|Dados|descarta|Fase|Batalla|"
                            r"guarnici|Cartas|ronda|partida|ejército|recluta|paga|PO\)")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _start(tmp_path: Path) -> Mail:
    server = start_pymap(tmp_path / "pymap", {**ACCOUNTS, **EXTRA})
    path, _config = write_config(tmp_path, server)
    raw = yaml.safe_load(path.read_text())
    for seat in raw["games"][0]["seats"]:
        seat["language"] = LANGUAGES[seat["seat"]]
    raw["games"][0]["settings"] = {"host_language": "es"}
    path.write_text(yaml.safe_dump(raw, sort_keys=False, allow_unicode=True))
    judge, poller = make_judge(load_config(path))
    m = Mail(server, path, judge, poller)
    judge.ensure_games()
    m.cycle()
    return m


def story(mail: EmailMessage) -> list[str]:
    """The numbered lines of a report's "what happened" (each event's first line)."""
    body = text(mail)
    return [line for line in body.splitlines() if re.match(r"^\s*\d+\. \S", line)]


def reports(m: Mail, seat: str) -> list[tuple[str, EmailMessage]]:
    """``(language of its subject, mail)`` of every report ``seat`` got, in order."""
    out = []
    for mail in m.inbox(seat):
        subject = str(mail["Subject"])
        lang = next((k for k, v in REPORT.items() if re.match(r"^\[g1\] step \d+" + re.escape(v), subject)), None)
        if lang:
            out.append((lang, mail))
    return out


def check_language(lang: str, mail: EmailMessage) -> None:
    """Every numbered line of the report's story is in ``lang``."""
    lines = story(mail)
    assert lines, text(mail)
    body = text(mail)
    assert HAPPENED[lang] in body
    for other, heading in HAPPENED.items():
        if other != lang:
            assert heading not in body
    for line in lines:
        if lang == "en":
            assert not CYRILLIC.search(line) and not SPANISH_EVENTS.search(line), line
            continue
        assert not ENGLISH_EVENTS.search(line), f"English in a {lang} report: {line}"
        if lang == "ru":
            assert CYRILLIC.search(line), f"no Russian in: {line}"
    if lang == "es":
        assert any(SPANISH_EVENTS.search(line) for line in lines), lines


def test_a_game_by_mail_in_three_languages(tmp_path: Path) -> None:
    m = _start(tmp_path)
    try:
        switched_after = None
        for i in range(DECISIONS):
            if not rules.pending(m.judge.state("g1")):
                break
            if i == SWITCH_AT:
                switched_after = len(reports(m, "south"))
                m.send("south", {"game": "g1", "seat": "south", "key": KEYS["south"], "command": "preferences",
                                 "language": "es"})
                assert list(m.cycle().values()) == ["answered"]
            seat, body = orders_body(m.judge, seed=i)
            m.send(seat, body, subject=f"orders {i}")
            assert list(m.cycle().values()) == ["applied"], i
        assert switched_after is not None, "the game ended before the switch"
        m.judge.flush_outbox()
        step = m.judge.state("g1").step
        for seat in SEATS:
            m.mails(seat, f"[g1] step {step - 1}")  # every report of the last decision has arrived
        told = {}
        for seat in SEATS:
            got = reports(m, seat)
            told[seat] = got
            assert len(got) >= DECISIONS // 2, (seat, len(got))
            for n, (lang, mail) in enumerate(got):
                want = "es" if seat == "south" and n >= switched_after else LANGUAGES[seat]
                assert lang == want, (seat, n, str(mail["Subject"]))
                check_language(want, mail)
        south = [lang for lang, _mail in told["south"]]
        assert "en" in south and "es" in south and south == sorted(south)  # English, then Spanish
        switched = text(m.mails("south", "Re: command")[0])
        assert "language: es" in switched
        # the prompts carry the frame in the seat's language too
        for seat, word in (("east", "СРОК: "), ("west", "PLAZO: "), ("north", "DEADLINE: ")):
            prompts = [x for x in m.inbox(seat) if re.match(r"^\[g1\] step \d+: ", str(x["Subject"]))]
            assert prompts and all(word in text(p) for p in prompts), seat
        # and so do the receipts of their orders
        for seat, word in (("east", "приняты."), ("west", "aceptadas."), ("north", "accepted.")):
            receipts = [x for x in m.inbox(seat) if str(x["Subject"]).startswith("Re: orders")]
            assert receipts and all(word in text(r).split("\n", 1)[0] for r in receipts), seat
        assert m.judge.store.verify_chain("g1") == []
        assert not any(CYRILLIC.search(str(e.data)) or "turno" in str(e.data) for e in m.judge.store.events("g1"))
    finally:
        m.close()
