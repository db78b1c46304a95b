"""Issue 28, lang28d: the last English and rough spots of a Spanish or Russian story,
each checked by the sentence a reader gets (the renderer, :func:`pbem.report.narrate`).

- item 1: a battle with the independent armies names them in the reader's words (the
  glossary's "independent army"), not "east атакует independent"; seats keep their
  names (they are what a player writes, docs/glossary.md) as every other sentence
  writes them; a general's or an army's name after a Russian genitive ("боевого
  рейтинга Эвмен") stands in the nominative after a parenthesis or a colon instead.
"""
from __future__ import annotations

import re

import pytest

from pbem import i18n
from pbem.pack.loader import load_pack
from pbem.pack.names import localized
from pbem.report.context import purpose_words
from pbem.report.narrate import narrate
from pbem.rules.core.state import Event


@pytest.fixture(scope="module")
def pack():
    return load_pack()


def _say(pack, language: str, kind: str, **data) -> str:
    return narrate(localized(pack, language), Event(kind, data), i18n.translations(language))


def _side(side: str, dice: list[int], score: int, **more) -> dict:
    return {"side": side, "dice": dice, "strength": 5, "score": score,
            "read": {"chart": "battle", "row": sum(dice), "column": 5, "result": score}, **more}


def _battle(attacker: str, defender: str, winner: str) -> dict:
    indep = _side("independent", [6, 2], 5, armies={"ariarathes": 5}, rating=3)
    seat = _side("east", [2, 3], 3, cus={"mercenary": 3}, commander="eumenes", rating=5)
    sides = [indep, seat] if attacker == "independent" else [seat, indep]
    return {"space": "gangra", "attacker": attacker, "defender": defender, "winner": winner,
            "result": "win", "rule": "R-9.2", "sides": sides}


INDEPENDENT = {"es": "el ejército independiente", "ru": "независимая армия"}


@pytest.mark.parametrize("language", ["es", "ru"])
@pytest.mark.parametrize("attacker,defender", [("independent", "east"), ("east", "independent")])
def test_a_battle_names_the_independent_army_in_the_readers_words(pack, language, attacker, defender) -> None:
    line = _say(pack, language, "BattleFought", **_battle(attacker, defender, "independent"))
    assert "independent" not in line, line
    assert line.count(INDEPENDENT[language]) >= 3, line  # attacker or defender, its side's numbers, the winner
    assert "east" in line  # a seat keeps its name, as in every other sentence
    said = {"independent": INDEPENDENT[language], "east": "east"}
    # both sides in the nominative, each the subject of its own verb (no accusative to decline)
    verbs = {"es": "ataca %s, defiende %s", "ru": "атакует %s, обороняется %s"}[language]
    assert verbs % (said[attacker], said[defender]) in line, line
    english = narrate(pack, Event("BattleFought", _battle(attacker, defender, "independent")))
    assert f"{attacker} attacks {defender}" in english and "independent wins" in english  # English as before


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_rolls_purpose_names_the_independent_army_in_the_readers_words(language) -> None:
    tr = i18n.translations(language)
    said = purpose_words("battle in Gangra: attacker (independent)", tr)
    assert INDEPENDENT[language] in said and "independent" not in said, said
    assert "(east)" in purpose_words("battle in Gangra: defender (east)", tr)


def test_russian_battle_rating_names_the_leader_in_the_nominative(pack) -> None:
    line = _say(pack, "ru", "BattleFought", **_battle("independent", "east", "independent"))
    ru = localized(pack, "ru")
    eumenes, ariarathes = ru.generals["eumenes"].name, ru.independent_armies["ariarathes"].name
    # the leader's name stands whole after a parenthesis, not after "рейтинга" as if declined
    assert re.search(r"рейтинга " + re.escape(eumenes), line) is None, line
    assert re.search(r"рейтинга " + re.escape(ariarathes), line) is None, line
    assert f"({eumenes})" in line and f"({ariarathes})" in line, line


# item 3: the prompt's "how to write the orders" examples name places, generals and royals
# as the seat reads them (the pack's names in its language; docs/reports.md, "Languages"):
# orders take them in any of the pack's languages and the receipt echoes the English name.

EXAMPLE_NAMES = re.compile(r"\b(army|heir|toward|space|into): \[?([^,\]}\[]+?)\]?(?=[,}\]]|\s{2}|$)", re.M)
"""A name written in an example of the guide: ``army: Птолемей``, ``into: [Газа]``."""
SECTION = {"army": "generals", "heir": "royals", "toward": "spaces", "space": "spaces", "into": "spaces"}


def _guide(kind: str, language: str) -> str:
    from pbem.report.render import render
    return render("_guide.txt.j2", {"decision": {"kind": kind}}, i18n.translations(language))


@pytest.mark.parametrize("language", ["es", "ru"])
@pytest.mark.parametrize("kind", ["player_turn", "reinforcements"])
def test_the_guides_examples_name_things_in_the_seats_language(pack, language: str, kind: str) -> None:
    from pbem.pack import names as pack_names
    local = localized(pack, language)
    guide = _guide(kind, language)
    placeholders = {"General", "Espacio", "Генерал", "Зона"}  # the shape's words, in the reader's words
    found = [(key, name.strip()) for key, name in EXAMPLE_NAMES.findall(guide) if name.strip() not in placeholders]
    assert len(found) >= 2, guide
    for key, name in found:
        section = SECTION[key]
        thing = pack_names.lookup(pack, section, name)  # what an order written this way names
        assert thing is not None, f"{key}: {name} names nothing\n{guide}"
        assert getattr(local, section)[thing].name == name, f"{key}: {name} is not the {language} name"
    for english in ("Ptolemy", "Memphis", "Babylon", "Philip III", "Space"):
        assert english not in guide, f"{english} left in the {language} guide"
    assert "army: Ptolemy" in _guide("player_turn", "en")  # English keeps its example
    assert max(len(line) for line in guide.splitlines()) <= 72, guide


@pytest.mark.parametrize("language", ["es", "ru"])
def test_the_guides_standing_example_passes_the_check_as_written(pack, language: str) -> None:
    import yaml

    from pbem import rules
    guide = _guide("player_turn", language)
    start = guide.index("[{when: intercept")
    example = yaml.safe_load(guide[start:guide.index("]}]", start) + 3])
    assert example[0]["army"] == localized(pack, language).generals["ptolemy"].name
    state, _ = rules.new_game(pack, b"lang28d")
    problems = {seat: rules.validate(state, seat, {"standing": example}) for seat in rules.SEATS}
    assert any(p == [] for p in problems.values()), problems  # Ptolemy's seat may send it as written
