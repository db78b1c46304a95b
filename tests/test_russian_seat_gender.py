"""A seat as the subject of a Russian sentence is masculine (issue 28, lang28e item 2).

A seat's name (north, east, south, west) stands for its player: "north сделал ход",
"south сделал предложение", "он атаковал" — the form most of the catalogue used. About
fifteen messages had the neuter of «место» instead ("south сделало предложение"), so a
Russian mail switched gender from line to line. Where a message writes the noun itself
("Место %(seat)s … просило", "единственное оставшееся место: оно") the noun's neuter is
right and the check leaves it alone. docs/glossary.md records the choice."""
from __future__ import annotations

import re

from babel.messages.pofile import read_po

from pbem import i18n

_SEAT = r"%\(seats?\)s"
_NOT_AFTER_A_NOUN = r"(?<![А-ЯЁа-яё] )"
"""The seat's name not after a word ("Место %(seat)s", "Гарнизон %(seat)s"): its own subject."""
NEUTER_AFTER = re.compile(_NOT_AFTER_A_NOUN + _SEAT + r"(?: в %\(game\)s)?\s+(?:(?:не|уже|ещё|снова|больше)\s+)*"
                          r"[а-яё]+(?:ло|лось)\b")
NEUTER_BEFORE = re.compile(r"(?<![\w])[а-яё]+(?:ло|лось)\s+" + _SEAT + r"(?!\w)")
NEUTER_PRONOUN = re.compile(_NOT_AFTER_A_NOUN + _SEAT + r"\s(?:(?!место)[^.;])*?\bоно\b")


def _russian() -> list[str]:
    with i18n.catalogue_path("ru").open("rb") as po:
        catalog = read_po(po, locale="ru")
    return [text for message in catalog if message.id
            for text in (message.string if isinstance(message.string, tuple) else (message.string,)) if text]


def test_a_seat_as_the_subject_is_never_neuter() -> None:
    bad = [f"{hit.group(0)!r} in {text!r}" for text in _russian()
           for rx in (NEUTER_AFTER, NEUTER_BEFORE, NEUTER_PRONOUN) for hit in rx.finditer(text)]
    assert bad == [], "\n".join(bad)


def test_a_seat_as_the_subject_is_masculine() -> None:
    tr = i18n.translations("ru")
    assert tr.gettext("%(seat)s made proposal %(proposal)s") % {"seat": "south", "proposal": 1} \
        == "south сделал предложение 1"
    assert tr.gettext("%(seat)s played") % {"seat": "south"} == "south сделал ход"
    assert tr.gettext("%(seat)s sent no orders in time") % {"seat": "west"} == "west не прислал приказы вовремя"


def test_the_check_sees_the_neuter_and_spares_the_noun() -> None:
    assert NEUTER_AFTER.search("%(seat)s сделало предложение") and NEUTER_AFTER.search("%(seat)s в %(game)s пропустило")
    assert NEUTER_AFTER.search("%(seat)s не прислало приказы") and NEUTER_BEFORE.search("сыграло %(seat)s (бот)")
    assert NEUTER_PRONOUN.search("%(seat)s сдаётся: оно больше не принимает решений")
    assert not NEUTER_AFTER.search("Место %(seat)s партии %(game)s просило") and not NEUTER_AFTER.search("%(seat)s сделал")
    assert not NEUTER_PRONOUN.search("%(seat)s — единственное оставшееся место: оно побеждает.")
