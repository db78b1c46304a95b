"""The prompt lines the rules core writes, in the seat's language (issue 28): a reaction
window's question, the moments and the way a surprise card is played, the hand's card
labels, types and the frame of a card's text. In the pseudo-language every word is
inside a translated string (names, numbers and order words excepted); in Spanish and
Russian the line differs from the English, and the English is the rules core's own."""
from __future__ import annotations

from pbem import i18n
from pbem.pack.loader import load_pack
from pbem.report import context
from pbem.rules.core.pack import const
from pbem.rules.core.placement import LIMIT_TEXT
from pbem.rules.orders.reactions import QUESTION
from pbem.rules.orders.tyche_surprises import HOW
from pbem.rules.resolve.surprises import MOMENT_NAMES
from tests.service import pseudolocale

ORDER_WORDS = {"surprise", "surrender", "play", "when", "tyche", "surprise_plays", "card", "target", "intercept",
               "army", "avoid_battle", "toward", "naval_landing", "battle_roll", "prestige", "battle_start",
               "interception_check", "avoid_check", "space", "general", "enemy", "or"}
"""The YAML of the orders quoted in a line: keys and order words stay English."""


def _languages() -> list:
    return [i18n.translations(x) for x in ("es", "ru")]


def test_window_questions() -> None:
    pack = load_pack()
    names = pseudolocale.names_of(pack)
    options = {"mover": "north", "space": "gaza"}
    for message in QUESTION.values():
        english = message % {"mover": "north", "space": pack.spaces["gaza"].name}
        assert context.question_text(pack, options, english) == english
        marked, unmarked = pseudolocale.unmarked_prose(
            context.question_text(pack, options, english, i18n.translations(i18n.PSEUDO)), names)
        assert marked == 1 and unmarked == []
        for tr in _languages():
            said = context.question_text(pack, options, english, tr)
            assert said != english and "north" in said and "Gaza" in said
    assert context.question_text(pack, options, "an older question", _languages()[0]) == "an older question"


def test_surprise_moments_and_how() -> None:
    pack = load_pack()
    names = pseudolocale.names_of(pack) | ORDER_WORDS
    row = {"card": 52, "moments": list(MOMENT_NAMES), "how": ["as the rules core says"]}
    english = context.surprise_how(row)
    assert english == [f"{MOMENT_NAMES[m]}: {HOW[m] % {'n': 52}}" for m in MOMENT_NAMES]
    for line in context.surprise_how(row, i18n.translations(i18n.PSEUDO)):
        assert pseudolocale.unmarked_prose(line, names)[1] == [], line
    for tr in _languages():
        said = context.surprise_how(row, tr)
        assert all(a != b and "52" in a for a, b in zip(said, english, strict=True))
    assert context.moments_text("; ".join(MOMENT_NAMES.values()), _languages()[1]).count("; ") == len(MOMENT_NAMES) - 1
    assert context.surprise_how({"how": ["kept"]}, _languages()[0]) == ["kept"]


def test_placement_limit() -> None:
    pack = load_pack()
    n = {"n": const(pack, "reinforcement_per_province")}
    for message in LIMIT_TEXT.values():
        english = message % n
        assert context.limit_words(pack, english) == english
        for tr in _languages():
            assert context.limit_words(pack, english, tr) not in (english, "")


def test_hand_rows() -> None:
    pack = load_pack()
    hand = sorted(pack.cards)[:12]
    english = context.hand_rows(pack, {}, hand)
    for tr in _languages():
        rows = context.hand_rows(pack, {}, hand, tr)
        for e, r in zip(english, rows, strict=True):
            assert r["name"] == e["name"] and r["number"] == e["number"]
            if e["ops"]:
                assert r["label"] != e["label"] and "OP" not in r["label"].split(e["name"], 1)[1]
            assert r["type"] != e["type"] or e["type"] == "general"  # "general" is the same word in es
            assert r["text"].split(" ", 1)[0] not in ("Event:", "No", "A")
