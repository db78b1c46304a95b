"""Russian names after a preposition (issue 28, text28 item 5): a place, general or
royal name is put into a Russian sentence as the pack writes it (the nominative:
Вавилон, Пердикка), so a preposition that governs another case must not stand right
before it ("в Вавилон" for "в Вавилоне", "с Пердикка"). The catalogue words those
sentences as translators do with names they cannot decline: "в зоне %(space)s", a colon
or parentheses ("генералы: %(generals)s")."""
from __future__ import annotations

import re

from babel.messages.pofile import read_po

from pbem import i18n

PREPOSITIONS = ("в", "во", "из", "на", "до", "к", "ко", "у", "от", "с", "со", "для", "о", "об", "по", "за", "при",
                "через", "над", "под", "между", "без", "около", "возле", "после")
NAMES = ("space", "spaces", "place", "places", "where", "province", "provinces", "spread", "city", "home", "general",
         "generals", "royal", "commander", "others", "army", "fleet")
"""Placeholders that hold a name of the pack (seats, numbers and dates are not declined)."""
CASE = re.compile(r"(?<![\w-])(?:" + "|".join(PREPOSITIONS) + r")\s+%\((?:" + "|".join(NAMES) + r")\)s",
                  re.IGNORECASE)


def _russian_texts() -> list[str]:
    """Every Russian msgstr of the catalogue (each plural form apart)."""
    with i18n.catalogue_path("ru").open("rb") as po:
        catalog = read_po(po, locale="ru")
    return [text or "" for message in catalog if message.id
            for text in (message.string if isinstance(message.string, tuple) else (message.string,))]


def test_no_declining_preposition_right_before_a_name() -> None:
    bad = [f"{hit.group(0)!r} in {text!r}" for text in _russian_texts() if (hit := CASE.search(text))]
    assert bad == [], "\n".join(bad)


def test_the_check_sees_a_declined_name() -> None:
    assert CASE.search("похороны в %(space)s") and CASE.search("с %(royal)s")
    assert not CASE.search("похороны в зоне %(space)s") and not CASE.search("у %(seat)s")


PERSONS = re.compile(r"([А-Яа-яЁё]+)\s+%\((?:general|royal|commander|name|label|asia)\)s")
"""A word right before the name of a general, a royal, a commander, a leader, a term of
the legitimacy account (``label``) or the provinces of Asia (issue 28
lang28d: "боевого рейтинга Эвмен", "армию Эвмен", "Осуждение Антигон" put a name that
Russian declines after a genitive or an accusative as if it were one)."""
NOMINATIVE_BEFORE = {"наследник", "полководец", "находится", "зоны", "виду", "ведущего", "не"}
"""The words a name may follow as it is: a head in the nominative the name stands beside
("наследник Геракл"), a verb whose subject it is ("где находится Олимпиада"), a space's
name beside its noun as everywhere ("Нет зоны Вавилон"), a suggestion quoted as written
("вы имели в виду Вавилон?"), a host command's name ("команда ведущего status") and a
status a seat no longer has ("больше не Сторонник")."""


def test_no_declining_word_right_before_a_persons_name() -> None:
    bad = [f"{hit.group(0)!r} in {text!r}" for text in _russian_texts() for hit in PERSONS.finditer(text)
           if hit.group(1).lower() not in NOMINATIVE_BEFORE]
    assert bad == [], "\n".join(bad)


def test_the_check_sees_a_name_after_a_genitive() -> None:
    assert PERSONS.search("выше боевого рейтинга %(name)s") and PERSONS.search("Осуждение %(general)s")
    assert not PERSONS.search("боевого рейтинга (%(name)s)") and not PERSONS.search("Осуждение: %(general)s")
