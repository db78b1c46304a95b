"""Issue 28, lang28d: the last English and rough spots of Spanish and Russian mail,
each checked in the mail a seat or the host gets (``Judge.handle_message``: the
intake, the checks and the rendering of the answer, read back from the outbox).

- item 2: a mail with no orders block is told, in Spanish and Russian too, what the
  English answer says: that an orders block starts with a ``game:`` line (and a block
  with ``Game:`` that keys are lowercase).
"""
from __future__ import annotations

import email
import email.policy
import hashlib
import re
from pathlib import Path

import pytest

from pbem.config import parse_config
from pbem.service import Judge
from pbem.store import Store
from tests.conftest import HASHES, PLAYERS, SEATS
from tests.service.pseudolocale import HOST_HASH, Clock

SEAT = "east"
ADDRESS = f"{SEAT}@pbem.localhost"


class Table:
    """A config game ``g1`` with every seat and the host in one language, and the mail
    they get."""

    def __init__(self, tmp: Path, language: str) -> None:
        config = parse_config({
            "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / "g.sqlite"),
            "imap": {"processed_folder": "Processed"},
            "map_attachment": False,
            "games": [{"id": "g1", "host_email": "host@pbem.localhost", "host_key_hash": HOST_HASH,
                       "settings": {"host_language": language},
                       "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                  "key_hash": HASHES[s], "language": language} for s in SEATS]}]}, base=tmp)
        self.judge = Judge(config, Store(config.database), clock=Clock(),
                           new_seed=lambda: hashlib.sha256(b"lang28d").digest())
        self.judge.ensure_games()
        self.n = 0

    def send(self, sender: str, body: str, subject: str = "orders") -> None:
        self.n += 1
        self.judge.handle_message(
            (f"From: {sender}\r\nTo: judge@pbem.localhost\r\nSubject: {subject} {self.n}\r\n"
             f"Message-ID: <lang28d-{self.n}@players.test>\r\nDate: Mon, 01 Jan 2029 00:00:00 +0000\r\n\r\n"
             f"{body}").encode())

    def last(self, to: str) -> str:
        """The subject and text of the last mail to ``to``, each run of white space one space."""
        row = self.judge.store.db.execute("SELECT id FROM outbox WHERE to_addr = ? ORDER BY id DESC LIMIT 1",
                                          (to,)).fetchone()
        msg = email.message_from_bytes(self.judge.store.outbox_row(row[0])["raw"], policy=email.policy.default)
        return " ".join(f"{msg['Subject']}\n{msg.get_body(('plain',)).get_content()}".split())


NO_BLOCK = {"es": "No encontramos órdenes en tu correo: las órdenes son un bloque YAML que empieza con una "
                  "línea 'game: <nombre de la partida>'.",
            "ru": "В вашем письме не найдено приказов: приказы — это блок YAML, который начинается строкой "
                  "'game: <название партии>'."}
NO_GAME = {"es": "Tus órdenes no tienen línea 'game:' (se encontró 'Game:'; las claves van en minúsculas): el "
                 "bloque debe empezar con 'game:' y el nombre de la partida.",
           "ru": "В ваших приказах нет строки 'game:' (найдено 'Game:'; ключи пишутся строчными буквами): блок "
                 "должен начинаться с 'game:' и названия партии."}


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_mail_without_orders_is_told_the_block_starts_with_game(tmp_path: Path, language: str) -> None:
    table = Table(tmp_path, language)
    table.send(ADDRESS, "Hello, here are my orders: I move Ptolemy to Memphis.\n")
    answer = table.last(ADDRESS)
    assert "mail.no_orders" in answer and NO_BLOCK[language] in answer, answer
    table.send(ADDRESS, "Game: g1\nseat: east\n")
    answer = table.last(ADDRESS)
    assert "mail.no_orders" in answer and NO_GAME[language] in answer, answer
    table.send(ADDRESS, "gmae: g1\nseat: east\n")
    assert "'gmae:'" in table.last(ADDRESS) and "'game:'" in table.last(ADDRESS)


# item 4: the notice to the host after a restore (mail applied again, pbem.service.recover)

class _Kept:
    """A mailbox whose processed folder holds a mail without a Message-ID and whose
    quarantine folder holds one the judge kept (the poller's two calls the recovery makes)."""

    def __init__(self, raw: bytes) -> None:
        from datetime import UTC, datetime

        from pbem.mail.imap import KeptMail
        at = datetime(2029, 1, 1, 0, 5, tzinfo=UTC)
        self.raw = raw
        self.mails = [KeptMail("Processed", 7, 1, at, None, len(raw)),
                      KeptMail("Quarantine", 7, 2, at, "<kept@players.test>", 100)]

    def kept_since(self, since: object) -> list:
        return self.mails

    def fetch_kept(self, folder: str, uids: list[int]) -> dict[int, bytes]:
        return {1: self.raw} if folder == "Processed" and 1 in uids else {}


@pytest.mark.parametrize("language", ["es", "ru"])
def test_the_restore_notice_is_in_the_hosts_language(tmp_path: Path, language: str) -> None:
    from pbem.service.recover import recover_kept_mail
    table = Table(tmp_path, language)
    raw = (b"From: stranger@else.test\r\nTo: judge@pbem.localhost\r\nSubject: hello\r\n"
           b"Date: Mon, 01 Jan 2029 00:00:00 +0000\r\n\r\nHello there.\r\n")
    done = recover_kept_mail(table.judge, _Kept(raw))  # type: ignore[arg-type]
    assert len(done.applied) == 2 and done.applied[1][1] == "quarantined"
    notice = table.last("host@pbem.localhost")
    for english in ("(no Message-ID)", " from Processed", " from Quarantine", ": quarantined", ": answered",
                    ": ignored", ": rejected"):
        assert english not in notice, f"{english!r} in {notice}"
    words = {"es": ("(sin Message-ID)", "de la carpeta Processed", "en cuarentena"),
             "ru": ("(без Message-ID)", "из папки Processed", "в карантине")}[language]
    for word in words:
        assert word in notice, f"{word!r} not in {notice}"


# item 5: a value of the wrong kind in a host command or a sign-up, said in the reader's
# language with the field and the value it takes

HOST_WORDS = {
    "es": ("`command: extend` necesita `hours` como número, p. ej. `hours: 24`; se encontró 'many'.",
           "`command: end` necesita `abandon` como true o false, p. ej. `abandon: true`; se encontró 'si'.",
           "`command: rollback` necesita `to_step` como número entero, p. ej. `to_step: 3`; se encontró 2.5."),
    "ru": ("`command: extend` требует `hours` в виде числа, например `hours: 24`; найдено 'many'.",
           "`command: end` требует `abandon` в виде true или false, например `abandon: true`; найдено 'si'.",
           "`command: rollback` требует `to_step` в виде целого числа, например `to_step: 3`; найдено 2.5."),
}
SIGNUP_WORDS = {
    "es": ("join: 'captain' no es un asiento de la partida: un asiento es north, east, south o west.",
           "Escribe `join: any` o uno de los asientos libres: north, east, south, west.",
           "name: debe ser un texto de 1 a 60 caracteres, el nombre que ven los demás jugadores; se encontró 12.",
           "language: 'fr' no es un idioma de este juez: escribe en inglés (en), español (es) y ruso (ru).",
           "Escribe uno de en, es, ru, p. ej. `language: es`."),
    "ru": ("join: 'captain' — не место этой партии: место — это north, east, south или west.",
           "Напишите `join: any` или одно из свободных мест: north, east, south, west.",
           "name: должно быть текстом от 1 до 60 символов — это имя, которое видят другие игроки; найдено 12.",
           "language: 'fr' — не язык этого судьи: он пишет по-английски (en), по-испански (es) и по-русски (ru).",
           "Напишите одно из en, es, ru, например `language: es`."),
}


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_host_commands_value_of_the_wrong_kind_is_said_in_the_hosts_language(tmp_path: Path,
                                                                                language: str) -> None:
    from tests.service.pseudolocale import HOST_KEY
    table = Table(tmp_path, language)
    for line in ("command: extend\nhours: many", "command: end\nabandon: 'si'",
                 "command: rollback\nto_step: 2.5\nreason: a test"):
        table.send("host@pbem.localhost", f"game: g1\nhost: {HOST_KEY}\n{line}\n", "host")
        answer = table.last("host@pbem.localhost")
        assert "host.refused" in answer
        assert any(words in answer for words in HOST_WORDS[language]), answer
        assert " as a number" not in answer and "true or false" not in answer, answer


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_sign_ups_value_of_the_wrong_kind_is_said_in_the_senders_language(tmp_path: Path, language: str) -> None:
    from pbem.service.commands.join import NAME_MAX, open_game
    assert NAME_MAX == 60
    table = Table(tmp_path, language)
    open_game(table.judge, "g7", host_email="host7@pbem.localhost")
    table.send(ADDRESS, "game: g7\njoin: captain\nname: 12\nlanguage: fr\n", "join")
    answer = table.last(ADDRESS)
    for words in SIGNUP_WORDS[language]:
        assert words in answer, f"{words!r} not in {answer}"
    assert "is not a language" not in answer and "must be a text" not in answer, answer


SEAT_WORDS = {
    "es": ("`map:` admite uno de on, off; se encontró 'maybe'.", "Escribe `map: on`, u otro de on, off.",
           "`cancel:` debe ser true o false; se encontró 1.", "`standby:` debe ser true o false; se encontró 'maybe'.",
           "No se indica ninguna preferencia."),
    "ru": ("`map:` принимает одно из: on, off; найдено 'maybe'.", "Напишите `map: on` или другое из on, off.",
           "`cancel:` должно быть true или false; найдено 1.", "`standby:` должно быть true или false; найдено 'maybe'.",
           "Не указано ни одной настройки."),
}


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_seat_commands_value_of_the_wrong_kind_is_said_in_the_seats_language(tmp_path: Path, language: str) -> None:
    from tests.conftest import KEYS
    table = Table(tmp_path, language)
    head = f"game: g1\nseat: {SEAT}\nkey: {KEYS[SEAT]}\n"
    said = []
    for body in ("command: preferences\nmap: maybe\n", "command: absence\ncancel: 1\n", "command: preferences\n"):
        table.send(ADDRESS, head + body, "command")
        said.append(table.last(ADDRESS))
    table.send(ADDRESS, "game: any\ncommand: standby\nstandby: maybe\n", "command")
    said.append(table.last(ADDRESS))
    answers = "\n".join(said)
    for words in SEAT_WORDS[language]:
        assert words in answers, f"{words!r} not in {answers}"
    assert "takes on or off" not in answers and "must be true or false" not in answers


# item 6: a host's mail without its key is told where the host key is, in the host's
# language, not to "start from the latest prompt" (a host gets no prompt)

HOST_KEY_WORDS = {
    "en": ("needs the line `host: <your host key>`", "`pbem game new`"),
    "es": ("necesita la línea `host: <tu clave de anfitrión>`", "la que imprimió `pbem game new`"),
    "ru": ("нужна строка `host: <ваш ключ ведущего>`", "напечатала команда `pbem game new`"),
}


@pytest.mark.parametrize("language", ["en", "es", "ru"])
def test_a_host_mail_without_its_key_is_told_where_the_host_key_is(tmp_path: Path, language: str) -> None:
    table = Table(tmp_path, language)
    table.send("host@pbem.localhost", "game: g1\ncommand: status\n", "host")
    answer = table.last("host@pbem.localhost")
    assert "envelope.missing" in answer
    for words in HOST_KEY_WORDS[language]:
        assert words in answer, f"{words!r} not in {answer}"
    assert "prompt" not in answer and "aviso de turno" not in answer and "запрос" not in answer, answer
    table.send("host@pbem.localhost", "game: g1\ncommand: status\nhost: wrong\n", "host")
    answer = table.last("host@pbem.localhost")
    assert "auth.key" in answer and "pbem game new" in answer, answer
    assert "seat key" not in answer and "clave del asiento" not in answer and "ключ места" not in answer, answer
    table.send(ADDRESS, "game: g1\ncommand: status\n", "command")  # a seat's address: the seat's answer
    assert "host:" not in table.last(ADDRESS)


# item 7: the help's examples keep every comment whole on its line, within 72 columns, in
# the three languages, so each example block is the YAML it shows

def _example_blocks(text: str) -> list[list[str]]:
    """The indented example blocks of a help mail (runs of lines indented four spaces
    that start with a ``key:`` line)."""
    blocks: list[list[str]] = []
    run: list[str] = []
    for line in [*text.split("\n"), ""]:
        if line.startswith("    ") and (run or re.match(r"^    [a-z_]+:", line)):
            run.append(line)
            continue
        if run:
            blocks.append(run)
        run = []
    return blocks


@pytest.mark.parametrize("language", ["en", "es", "ru"])
def test_the_helps_examples_are_whole_yaml(tmp_path: Path, language: str) -> None:
    import textwrap

    import yaml

    from tests.conftest import KEYS
    table = Table(tmp_path, language)
    texts = []
    for body in ("game: g1\ncommand: help\n", f"game: g1\nseat: {SEAT}\nkey: {KEYS[SEAT]}\ncommand: help\n"):
        table.send(ADDRESS, body, "help")
        row = table.judge.store.db.execute("SELECT id FROM outbox WHERE to_addr = ? ORDER BY id DESC LIMIT 1",
                                           (ADDRESS,)).fetchone()
        msg = email.message_from_bytes(table.judge.store.outbox_row(row[0])["raw"], policy=email.policy.default)
        texts.append(msg.get_body(("plain",)).get_content().replace("\r\n", "\n"))
    blocks = [b for t in texts for b in _example_blocks(t)]
    assert len(blocks) >= 6, texts[0]
    for block in blocks:
        shown = "\n".join(block)
        assert isinstance(yaml.safe_load(textwrap.dedent(shown)), dict), shown
        assert all(len(line) <= 72 for line in block), shown
        # every comment whole on the line it explains: no line that is only a comment's rest
        assert not any(line.strip().startswith("#") for line in block), shown


def test_a_yaml_lines_comment_wraps_within_the_width() -> None:
    """The mail's wrapping of a ``key: value  # comment`` line (issue 24 N15) kept a
    first line one column too long (73): the help's Spanish example showed it."""
    from pbem.mail.body import wrap_line
    line = "    language: es  # opcional: en, es o ru: el idioma de la respuesta, del traspaso y del correo"
    lines = wrap_line(line, 72)
    assert all(len(x) <= 72 for x in lines), lines
    assert lines[0].startswith("    language: es  # ") and all(x.startswith("    # ") for x in lines[1:]), lines
