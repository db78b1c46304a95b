"""The rule options in a Spanish or Russian welcome (issue 28, try28): what each option
does is said in the seat's language, not in the rules core's English."""
from __future__ import annotations

import re

import pytest

from pbem import i18n, rules
from pbem.service.play.setup import OPTION_TEXTS, options_text


def test_every_rule_option_has_its_text_as_the_rules_core_says_it() -> None:
    assert set(OPTION_TEXTS) == set(rules.RULE_OPTIONS)
    for name, (_accepts, _takes, what) in rules.RULE_OPTIONS.items():
        assert OPTION_TEXTS[name] == re.sub(r" \([a-z_/]+\.py\)$", "", what), name


@pytest.mark.parametrize("language", ["es", "ru"])
@pytest.mark.parametrize("value", [True, False])
def test_a_rule_option_is_explained_in_the_seats_language(language: str, value: bool) -> None:
    tr = i18n.translations(language)
    for name in rules.RULE_OPTIONS:
        text = options_text({name: value if name != "assault_min_cus" else 5}, tr)
        english = OPTION_TEXTS[name].split(": ", 1)[-1]
        assert english not in text, text
        assert tr.gettext(OPTION_TEXTS[name]) in text, text
    # the English welcome keeps its words
    assert "(off; when true: R-9.3: every move that can be answered opens a reaction window)" \
        in options_text({"ask_windows": False})


@pytest.mark.parametrize(("language", "said"), [("es", "por regencia"), ("ru", "регентство"),
                                                ("en", "wins by regency (R-1.3)")])
def test_the_seed_mail_says_how_the_game_was_won_in_the_seats_language(language: str, said: str) -> None:
    """The result sentence of the seed mail and the host's game-over notice (try28: a
    Spanish seat read "south (Selene) gana por regency")."""
    from types import SimpleNamespace

    from pbem.service.log.trust import result_sentence

    state = SimpleNamespace(result={"winner": "south", "how": "regency", "rule": "R-1.3"})
    judge = SimpleNamespace(state=lambda game_id: state,
                            store=SimpleNamespace(seats=lambda game_id: [{"seat": "south", "player": "Selene"}]))
    text = result_sentence(judge, "g1", i18n.translations(language))  # type: ignore[arg-type]
    assert said in text and (language == "en" or "regency" not in text), text
