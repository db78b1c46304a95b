""""Did you mean" in every language (issue 28, text28 item 4): a name misspelt in any
of the pack's languages finds its entry (``Византия`` for Византий), and a Spanish or
Russian reader is shown the name in their language with the canonical one the orders'
template uses (``Bizancio (Byzantium)``); English readers get the check's own words."""
from __future__ import annotations

from pbem import i18n, problem_texts
from pbem.pack import names
from pbem.pack.loader import load_pack
from pbem.problems import Problem
from pbem.rules.core.board import name_hint, resolve_space


def test_a_misspelling_in_any_language_finds_its_entry() -> None:
    pack = load_pack()
    assert names.localized(pack, "ru").spaces["byzantium"].name == "Византий"
    assert resolve_space(pack, "Византия") == (None, "did you mean Byzantium?")
    assert resolve_space(pack, "Bizancios") == (None, "did you mean Byzantium?")
    assert resolve_space(pack, "Byzantiun") == (None, "did you mean Byzantium?")  # as before
    ru_general = names.localized(pack, "ru").generals["lysimachus"].name
    assert name_hint(ru_general[:-1] + "y", pack.generals, pack=pack) == "did you mean Lysimachus?"
    assert name_hint("Lisímacco", pack.generals, pack=pack) == "did you mean Lysimachus?"


def test_the_suggestion_in_the_readers_language_with_the_canonical_name() -> None:
    pack = load_pack()
    issue = Problem(code="orders.unknown_space", message="there is no space 'Bizancios'", where="orders.movement",
                    hint="did you mean Byzantium?")
    for language, shown in (("es", "Bizancio (Byzantium)"), ("ru", "Византий (Byzantium)")):
        tr = i18n.translations(language)
        hint = problem_texts.localized(issue, tr, lambda n, lang=language: names.shown_name(pack, lang, n)).hint
        assert shown in hint and hint != issue.hint, hint
    english = problem_texts.localized(issue, i18n.translations("en"), lambda n: names.shown_name(pack, "en", n))
    assert english.hint == "did you mean Byzantium?"
    assert names.shown_name(pack, "es", "#64 Foundation of the Capital") == \
        "#64 Fundación de la capital (Foundation of the Capital)"
    assert names.shown_name(pack, "es", "vote") == "vote"  # not a name of the pack


def test_the_cards_a_problem_names_in_the_readers_language() -> None:
    from pbem.service.outgoing.answers import _cards_in_language  # the rejection's own step

    pack = load_pack()
    issue = Problem(code="tyche.card_not_in_hand", message="card 99 is not in your hand", where="orders.tyche.card",
                    params={"card": 99, "hand": "#18 Drink the Hemlock (3 OPs), #55 Oath of the Satraps (1 OP)"})
    es = i18n.translations("es")
    fix = problem_texts.localized(_cards_in_language(issue, pack, es), es).hint
    assert "#18 Cicuta (3 PO)" in fix and "Hemlock" not in fix and "OP)" not in fix, fix
