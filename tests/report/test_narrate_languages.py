"""The report sentence of every event, in every language (issue 28): in the
pseudo-language every word of a sentence is inside a translated string (names and
numbers excepted), and in Spanish and Russian no sentence is left in English; the
English sentence is the same whether the English translations object is passed or not."""
from __future__ import annotations

import re

from pbem import i18n
from pbem.pack.loader import load_pack
from pbem.pack.names import localized
from pbem.report.narrate import narrate
from tests.report.gamestore import war_games
from tests.service import pseudolocale

FREE_TEXT = {"MoveCancelled", "AssaultCancelled"}
"""Kinds whose sentence quotes a text the rules core wrote into the event (a problem's
message as ``why``): the event stays language-free, so that text is English until
problems are said by code in every language (docs/reports.md "Languages"); a ``Note``'s
text is told by its pattern (:mod:`pbem.rules.core.notes`, tests/report/test_note_texts.py)."""
ENGLISH_WORDS = re.compile(r"\b(?:places|moves|garrison|begins|ends|attacks|wins|plays|the|of|in)\b")


def test_every_sentence_is_translated() -> None:
    pack = load_pack()
    names = pseudolocale.names_of(pack)
    qps, es, ru = (i18n.translations(x) for x in (i18n.PSEUDO, "es", "ru"))
    told: dict[str, int] = {}
    for _state, events in war_games(pack, "narrate", 6):
        for e in events:
            english = narrate(pack, e)
            assert narrate(pack, e, i18n.translations("en")) == english
            if not english or e.kind == "OrdersApplied":
                continue
            told[e.kind] = told.get(e.kind, 0) + 1
            # each reader's sentences name things from the pack in its language, as mail does (the
            # pseudo-language's pack marks the cards: a card named from another pack shows)
            marked, unmarked = pseudolocale.unmarked_prose(narrate(localized(pack, i18n.PSEUDO), e, qps), names)
            assert unmarked == [], f"{e.kind}: English outside a translated string: {unmarked}"
            for language, tr in (("es", es), ("ru", ru)):
                text = narrate(localized(pack, language), e, tr)
                assert text != english, f"{e.kind} left in English: {text}"
                if e.kind in FREE_TEXT:
                    continue
                # what may stay English are names: the words a sentence adds are translated
                assert not ENGLISH_WORDS.search(pseudolocale_free(text, names)), f"{e.kind}: {text}"
    assert {"ArmyMoved", "BattleFought", "GarrisonPlaced", "CardPlayed"} <= set(told), told


def pseudolocale_free(text: str, names: set[str]) -> str:
    """``text`` without the words of names (a place, a general, a card: the pack's own
    names stay English until slice B gives them per language)."""
    return " ".join(w for w in re.findall(r"[\w'’-]+", text) if w.lower() not in names)


def test_every_roll_purpose_is_translated() -> None:
    """The dice lines of the story: the frame and the purpose the rules core gives each
    roll (language-free English in the event) in the seat's language; English unchanged."""
    from pbem.report import context
    pack = load_pack()
    rolls = 0
    for _state, events in war_games(pack, "narrate", 6):
        for e in events:
            if e.kind != "DiceRolled":
                continue
            rolls += 1
            info = context.roll_info(e, pack)
            english = context.roll_text(info)
            assert context.roll_text(info, i18n.translations("en")) == english
            for language in ("es", "ru"):
                tr = i18n.translations(language)
                said = context.purpose_words(str(info["purpose"]), tr)
                assert said != info["purpose"], f"{language}: {info['purpose']}"
                assert context.roll_text(info, tr).endswith(said + (f" ({info['rule']})" if info["rule"] else "")
                                                          + ("; " + "; ".join(f"{k}: {v}" for k, v in info["extra"])
                                                             if info["extra"] else ""))
    assert rolls > 20
