"""A special unit's card that names no army, an army the seat does not have or one
the unit may not join (R-4.1; issue 28, text28c item 2): a Spanish or Russian answer
lists the armies that qualify, in the reader's language, with the "did you mean" the
English answer gives (the generic "Name the army by its general" named none)."""
from __future__ import annotations

import pytest
from rules_harness import position

import pbem.rules as R
from pbem import i18n, problem_texts
from pbem.pack.loader import load_pack
from pbem.pack.names import localized, shown_name


@pytest.fixture(scope="module")
def pack():
    return load_pack()


@pytest.fixture
def state(pack):
    return position(pack, {
        "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"},
                     "lysimachus": {"seat": "north", "where": "map", "space": "cardia"},
                     "antigonus": {"seat": "east", "where": "map", "space": "gaza"}},
        "cus": {"pelusium": {"north": {"loyal": 2}}, "cardia": {"north": {"loyal": 1}},
                "gaza": {"east": {"loyal": 6}}},
        "hands": {"north": [44, 27], "east": [30]}})


def _problem(state, army: object | None, code: str):
    tyche = {"card": 44, "use": "event", **({} if army is None else {"army": army})}
    got = [p for p in R.validate(state, "north", {"tyche": tyche}) if p.code == code]
    assert got, R.validate(state, "north", {"tyche": tyche})
    return got[0]


@pytest.mark.parametrize("language", ["es", "ru"])
@pytest.mark.parametrize(("army", "code"), [("Ptolmy", "tyche.unknown_army"),
                                            (None, "tyche.special_unit_army_missing")])
def test_the_fix_lists_the_qualifying_armies_in_the_readers_language(pack, state, language, army, code) -> None:
    p = _problem(state, army, code)
    tr = i18n.translations(language)
    said = problem_texts.localized(p, tr, lambda name: shown_name(pack, language, name))
    local = localized(pack, language)
    for general, space in (("ptolemy", "pelusium"), ("lysimachus", "cardia")):
        assert local.generals[general].name in said.hint, said.hint
        assert local.spaces[space].name in said.hint, said.hint
    assert tr.gettext(problem_texts.TEXTS[code].fix) not in said.hint  # not the generic fix
    assert " in " not in said.hint  # no English "Lysimachus in Cardia" left
    if army is not None:  # the did-you-mean of the English answer, in the reader's names
        assert (tr.gettext("did you mean %(name)s?") % {"name": shown_name(pack, language, "Ptolemy")}) in said.hint


def test_english_keeps_the_checks_own_words(pack, state) -> None:
    p = _problem(state, "Ptolmy", "tyche.unknown_army")
    assert problem_texts.localized(p, i18n.translations("en")) == p
    assert "did you mean Ptolemy?" in p.message and "armies that qualify: " in p.hint
