"""Issue 28, lang28e: what the fresh-reader trial left in Spanish and Russian mail,
each checked in the answer the seat or the host gets (``Judge.handle_message`` through
the intake and the checks, read back from the outbox; the table of
tests/service/test_issue28_lang28d.py).

- item 3: a seat key still the prompt's placeholder ``YOUR-SEAT-KEY`` is told so in
  Spanish and Russian too (English had it; es/ru said only "the seat key is wrong");
- item 4: the sign-up game's refusal of a wrong host key is the host's text, not the
  seat key's;
- item 5: a refused host command's fix says "write the command the reply names" only
  when the reply names one, else points to docs/host-guide.md's list.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.service.pseudolocale import HOST_KEY
from tests.service.test_issue28_lang28d import ADDRESS, SEAT, Table

HOST = "host@pbem.localhost"

PLACEHOLDER = {
    "en": ("The `key:` line still holds the placeholder YOUR-SEAT-KEY.",),
    "es": ("La línea `key:` aún tiene el marcador YOUR-SEAT-KEY", "Sustituye YOUR-SEAT-KEY por la clave de tu asiento"),
    "ru": ("В строке `key:` всё ещё стоит заготовка YOUR-SEAT-KEY", "Замените YOUR-SEAT-KEY ключом своего места"),
}
WRONG = {"en": "The key for seat east is wrong.", "es": "La clave del asiento es errónea.",
         "ru": "Ключ места неверен."}


@pytest.mark.parametrize("language", ["en", "es", "ru"])
def test_a_seat_key_left_as_the_placeholder_is_told_so(tmp_path: Path, language: str) -> None:
    table = Table(tmp_path, language)
    table.send(ADDRESS, f"game: g1\nseat: {SEAT}\nkey: YOUR-SEAT-KEY\ncommand: status\n", "command")
    answer = table.last(ADDRESS)
    assert "auth.key" in answer, answer
    for words in PLACEHOLDER[language]:
        assert words in answer, f"{words!r} not in {answer}"
    assert WRONG[language] not in answer, answer
    table.send(ADDRESS, f"game: g1\nseat: {SEAT}\nkey: east-wrong\ncommand: status\n", "command")
    answer = table.last(ADDRESS)  # any other wrong key: the code's own text
    assert WRONG[language] in answer and "YOUR-SEAT-KEY" not in answer, answer


SIGNUP_HOST = {"es": "no es del anfitrión de esa partida con su clave de anfitrión",
               "ru": "не от ведущего этой партии с его ключом ведущего"}


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_wrong_host_key_for_a_sign_up_game_is_the_hosts_refusal(tmp_path: Path, language: str) -> None:
    from pbem.service.commands.join import open_game
    table = Table(tmp_path, language)
    open_game(table.judge, "g7", host_email=HOST, settings={"host_language": language})  # g1's host too:
    table.send(HOST, "game: g7\nhost: not-the-key\ncommand: status\n", "host")  # its language is known
    answer = table.last(HOST)
    assert "auth.key" in answer and SIGNUP_HOST[language] in answer, answer
    assert "`pbem game new`" in answer, answer
    assert WRONG[language] not in answer and "bienvenida" not in answer and "приветствен" not in answer, answer


NAMED = {"es": "Escribe en su lugar el comando que nombra la respuesta.",
         "ru": "Напишите вместо неё команду, названную в ответе."}
GUIDE = {"es": "Escribe uno de los comandos de anfitrión que valen ahora; docs/host-guide.md los enumera",
         "ru": "Напишите одну из команд ведущего, которые применимы сейчас; их список — в docs/host-guide.md"}


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_refused_host_command_points_to_the_guide_when_it_names_no_command(tmp_path: Path,
                                                                              language: str) -> None:
    table = Table(tmp_path, language)
    table.send(HOST, f"game: g1\nhost: {HOST_KEY}\ncommand: resume\n", "host")  # not paused: names nothing
    answer = table.last(HOST)
    assert "host.refused" in answer and GUIDE[language] in answer and NAMED[language] not in answer, answer
    table.send(HOST, f"game: g1\nhost: {HOST_KEY}\ncommand: bogus\n", "host")  # no such command
    answer = table.last(HOST)
    assert "host.refused" in answer and GUIDE[language] in answer and NAMED[language] not in answer, answer
    table.send(HOST, f"game: g1\nhost: {HOST_KEY}\ncommand: pause\n", "host")
    table.send(HOST, f"game: g1\nhost: {HOST_KEY}\ncommand: pause\nseq: 2\n", "host")  # names `command: resume`
    answer = table.last(HOST)
    assert "host.refused" in answer and "`command: resume`" in answer, answer
    assert NAMED[language] in answer and GUIDE[language] not in answer, answer
