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
