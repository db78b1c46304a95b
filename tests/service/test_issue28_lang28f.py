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


NOT_STARTED = {"es": ("g7 está abierta a inscripción y no ha empezado (asientos ocupados: 0 de 4): "
                      "`command: pause` funciona cuando empiece",
                      "`command: status` muestra quién se ha inscrito"),
               "ru": ("Партия g7 открыта для записи и ещё не началась (занято мест: 0 из 4): "
                      "`command: pause` заработает, когда она начнётся",
                      "`command: status` показывает, кто записался")}
NO_SUCH = {"es": ("No hay ningún comando de anfitrión 'pasue'; los comandos son: status, ",
                  "¿quisiste decir `pause`?", "No hay ningún comando de anfitrión 'frobnicate'",
                  "Escribe uno de los comandos de anfitrión que valen ahora; docs/host-guide.md los enumera"),
           "ru": ("Нет команды ведущего 'pasue'; команды ведущего: status, ",
                  "может быть, вы имели в виду `pause`?", "Нет команды ведущего 'frobnicate'",
                  "Напишите одну из команд ведущего, которые применимы сейчас; их список — в docs/host-guide.md")}


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_host_command_not_open_yet_names_the_command(tmp_path: Path, language: str) -> None:
    from pbem.service.commands.join import open_game
    table = Table(tmp_path, language)
    key = open_game(table.judge, "g7", host_email=OTHER_HOST, settings={"host_language": language})
    table.send(OTHER_HOST, f"game: g7\nhost: {key}\ncommand: pause\n", "host")
    answer = table.last(OTHER_HOST)
    assert "host.refused" in answer, answer
    for words in NOT_STARTED[language]:
        assert words in answer, f"{words!r} not in {answer}"


@pytest.mark.parametrize("language", ["es", "ru"])
def test_no_such_host_command_names_it_and_the_host_commands(tmp_path: Path, language: str) -> None:
    from tests.service.pseudolocale import HOST_KEY
    table = Table(tmp_path, language)
    host = "host@pbem.localhost"
    table.send(host, f"game: g1\nhost: {HOST_KEY}\ncommand: pasue\n", "host")
    first = table.last(host)
    table.send(host, f"game: g1\nhost: {HOST_KEY}\ncommand: frobnicate\n", "host")
    second = table.last(host)
    assert "host.refused" in first and "host.refused" in second, (first, second)
    said, near, other, guide = NO_SUCH[language]
    assert said in first and "pause, resume" in first and near in first, first
    assert other in second and guide in second and "pause, resume" in second, second


MOVED = {"en": ("north moves Craterus's army (with Antipater) Sippar -> Babylon with 3 loyal.",
                "north moves Perdiccas's army (with Craterus, Antipater) Sippar -> Babylon with 3 loyal."),
         "es": ("north mueve el ejército de Crátero (con Antípatro): Sippar -> Babilonia",
                "north mueve el ejército de Pérdicas (con Crátero, Antípatro): Sippar -> Babilonia"),
         "ru": ("north ведёт армию (Кратер; с ним: Антипатр): Сиппар -> Вавилон",
                "north ведёт армию (Пердикка; с ним: Кратер, Антипатр): Сиппар -> Вавилон")}


@pytest.mark.parametrize("language", ["en", "es", "ru"])
def test_an_army_of_several_generals_reads_naturally(language: str) -> None:
    import pbem.rules as R
    from pbem import i18n
    from pbem.pack import names as pack_names
    from pbem.pack.loader import load_pack
    from pbem.report.narrate import narrate
    pack = load_pack()
    local = pack if language == "en" else pack_names.localized(pack, language)
    tr = i18n.translations(language)
    for generals, expected in zip((["craterus", "antipater"], ["antipater", "perdiccas", "craterus"]),
                                  MOVED[language], strict=True):
        said = narrate(local, R.Event("ArmyMoved", {"seat": "north", "generals": generals,
                                                    "path": ["sippar", "babylon"], "cus": {"loyal": 3}}), tr)
        assert said.startswith(expected), said
        assert ") (" not in said and "генералы" not in said, said
