"""Issue 28, lang28f: three Spanish/Russian gaps left by lang28e, each checked in the
mail the host gets (``Judge.handle_message`` through the intake and the checks, read
back from the outbox; the table of tests/service/test_issue28_lang28d.py) or in the
rendered sentence.

- item 1: the host of a sign-up game whose address hosts no other game gets its
  refusals in the sign-up's ``host_language`` (they were looked up from the games the
  address hosts, so came in English);
- item 2: the host refusals "not open yet" (a sign-up game) and "no such host command"
  name the command (and the host commands) in Spanish and Russian too;
- item 3: an army with more than one general reads naturally in es/ru (one pair of
  parentheses in Russian).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.service.test_issue28_lang28d import Table

OTHER_HOST = "signup-host@pbem.localhost"
"""A host address that hosts no other game (g1's host is host@pbem.localhost)."""

NOT_APPLIED = {"es": "no se aplicó: nada ha cambiado en la partida",
               "ru": "не применено: в партии ничего не изменилось"}
NOT_HOST = {"es": "no es del anfitrión de esa partida con su clave de anfitrión",
            "ru": "не от ведущего этой партии с его ключом ведущего"}


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_sign_up_games_host_is_refused_in_its_host_language(tmp_path: Path, language: str) -> None:
    from pbem.service.commands.join import open_game
    table = Table(tmp_path, "en")  # the judge's other game is English, and not this host's
    key = open_game(table.judge, "g7", host_email=OTHER_HOST, settings={"host_language": language})
    table.send(OTHER_HOST, f"game: g7\nhost: {key}\ncommand: pause\n", "host")
    answer = table.last(OTHER_HOST)
    assert "host.refused" in answer and NOT_APPLIED[language] in answer, answer
    assert "was not applied" not in answer and "is open for sign-up" not in answer, answer
    table.send(OTHER_HOST, "game: g7\nhost: not-the-key\ncommand: status\n", "host")
    answer = table.last(OTHER_HOST)
    assert "auth.key" in answer and NOT_HOST[language] in answer and NOT_APPLIED[language] in answer, answer
    table.send("stranger@else.test", "game: g7\nhost: not-the-key\ncommand: status\n", "host")
    answer = table.last("stranger@else.test")  # another address: not the host's language
    assert "auth.key" in answer and NOT_HOST[language] not in answer, answer
