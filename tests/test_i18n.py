"""The catalogues and the translations objects (issue 28, :mod:`pbem.i18n`): the es and
ru catalogues are complete (nothing untranslated, nothing fuzzy), their placeholders
match the English ones (Babel's checkers), their Plural-Forms are Babel's CLDR rules
and choose the right form for 0, 1, 2, 5, 11, 21, 22; the template of every
translatable string is up to date with the code; a translations object is made per
language and never shared state between two mails."""
from __future__ import annotations

import gettext
from datetime import UTC, datetime

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from pbem import i18n
from pbem.report.render import render
from tools import catalogues

TRANSLATED = [c for c in i18n.LANGUAGES if c != i18n.DEFAULT]


def _catalogue(language: str):
    with i18n.catalogue_path(language).open("rb") as po:
        return read_po(po, locale=language, domain=i18n.DOMAIN)


def test_the_template_of_every_string_is_up_to_date() -> None:
    assert catalogues.main(["--check"]) == 0, "run python tools/catalogues.py and translate what is new"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_is_complete_without_fuzzy_entries(language: str) -> None:
    catalog = _catalogue(language)
    with catalogues.POT.open("rb") as f:
        template = read_po(f)
    wanted = {m.id if isinstance(m.id, str) else tuple(m.id) for m in template if m.id}
    have = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in catalog if m.id}
    assert wanted <= set(have), sorted(map(str, wanted - set(have)))[:5]
    untranslated = [m.id for m in have.values() if not (m.string if isinstance(m.string, str) else all(m.string))]
    fuzzy = [m.id for m in have.values() if m.fuzzy]
    assert untranslated == [] and fuzzy == []


ENGLISH_ONLY = {"es": "en inglés", "ru": "на английском"}
"""How a Spanish or Russian text says that the document it points to is in English."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_pointer_to_an_english_only_guide_says_so(language: str) -> None:
    """The host guide exists in English only: a Spanish or Russian text that sends the
    reader to its section "Host commands" says the guide is in English (try28e: es/ru
    host refusals named an English section as if it were theirs)."""
    said = [m.string for m in _catalogue(language) if m.id and isinstance(m.string, str)
            and "Host commands" in m.string]
    assert said and all(ENGLISH_ONLY[language] in " ".join(s.split()) for s in said), said


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_match_by_babels_checkers(language: str) -> None:
    problems = [(m.id, [str(e) for e in errors]) for m, errors in _catalogue(language).check()]
    assert problems == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_forms_come_from_babels_cldr_data(language: str) -> None:
    plural = get_plural(language)
    catalog = _catalogue(language)
    assert catalog.num_plurals == plural.num_plurals
    assert catalog.plural_expr == plural.plural_expr


@pytest.mark.parametrize(("language", "forms"), [
    ("ru", {0: "карт", 1: "карта", 2: "карты", 5: "карт", 11: "карт", 21: "карта", 22: "карты"}),
    ("es", {0: "cartas", 1: "carta", 2: "cartas", 5: "cartas", 11: "cartas", 21: "cartas", 22: "cartas"}),
    ("en", {0: "cards", 1: "card", 2: "cards", 5: "cards", 11: "cards", 21: "cards", 22: "cards"}),
])
def test_plural_forms_are_right_for_every_count(language: str, forms: dict[int, str]) -> None:
    tr = i18n.translations(language)
    for n, word in forms.items():
        text = tr.ngettext("Tyche deck: %(num)d card.", "Tyche deck: %(num)d cards.", n) % {"num": n}
        assert text.endswith(f" {n} {word}."), (n, text)


def test_a_translations_object_per_language_made_once() -> None:
    assert isinstance(i18n.translations("en"), gettext.NullTranslations)
    assert i18n.translations("es") is i18n.translations("es")
    assert i18n.translations("es").gettext("Seat") == "Asiento"
    assert i18n.translations("ru").gettext("Seat") == "Место"
    assert i18n.language_of(i18n.translations("ru")) == "ru"
    assert i18n.translations(i18n.PSEUDO).gettext("Seat") == "⟦Seat⟧"
    with pytest.raises(ValueError, match="not a language"):
        i18n.translations("fr")


def test_two_mails_in_two_languages_share_no_state() -> None:
    notice = lambda tr: render("notice.txt.j2", {"body": "x", "game_id": "g1"}, tr)
    assert notice(i18n.translations("es")).endswith("juez pbem de g1.\n")
    assert notice(None).endswith("pbem judge for g1.\n")
    assert notice(i18n.translations("ru")).endswith("судья pbem партии g1.\n")
    assert notice(i18n.translations("en")).endswith("pbem judge for g1.\n")


def test_dates_per_locale_in_the_games_time_zone() -> None:
    when = datetime(2026, 12, 3, 1, 26, tzinfo=UTC)
    assert i18n.format_when(when, "Europe/Madrid", "en") == "2026-12-03 02:26 CET"
    assert i18n.format_when(when, "Europe/Madrid", "es") == "jue, 3 dic 2026 2:26 CET"
    assert i18n.format_when(when, "UTC", "ru").startswith("чт, 3 дек. 2026")
    assert i18n.format_when(when, "UTC", "ru").endswith("01:26 UTC")
