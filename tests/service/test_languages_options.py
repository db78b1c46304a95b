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


@pytest.mark.parametrize("language", ["es", "ru"])
def test_the_guide_quotes_the_mails_as_the_seat_gets_them(language: str) -> None:
    """The Spanish and Russian guides (what `command: help` mails) quote the handover's
    subject and the seed mail's winner as a seat in that language reads them, not in
    English (try28: "`[GAME] handover: your seat SEAT`", "`south (Selene) wins by
    regency (R-1.3)`" in both)."""
    from pathlib import Path

    tr = i18n.translations(language)
    guide = " ".join((Path(__file__).resolve().parents[2] / "docs" / f"player-guide.{language}.md")
                     .read_text(encoding="utf-8").split())
    assert "[GAME] " + tr.gettext("handover: your seat %(seat)s") % {"seat": "SEAT"} in guide
    won = tr.gettext("The game is over: %(winner)s wins %(by)s") % {
        "winner": "south (Selene)", "by": tr.gettext("by %(how)s") % {"how": tr.gettext("regency")}}
    assert won.split(": ", 1)[1] in guide, won
    assert "handover: your seat" not in guide and "wins by" not in guide
