"""Issue 28, the last English in es/ru reports (note28): the units in training named in
the reader's language, and ``Note`` events (free English in the log) told in it."""
from __future__ import annotations

import re

from pbem import i18n
from pbem.pack.loader import load_pack
from pbem.pack.names import localized
from pbem.report.narrate import narrate
from pbem.rules.core import notes
from pbem.rules.core.state import Event
from tests.report.gamestore import war_games
from tests.report.test_narrate_languages import pseudolocale_free
from tests.service import pseudolocale

TRAINED = ("phalangite", "auxiliary")


def test_units_in_training_are_named_in_the_readers_language() -> None:
    pack = load_pack()
    paid = Event("TrainingPaid", {"seat": "east", "rule": "R-8.4", "units": [],
                                  "paid": [{"unit": "phalangite", "ops": 2}, {"unit": "auxiliary", "ops": 1}]},
                 True, None)
    done = Event("UnitTrained", {"seat": "east", "rule": "R-8.4", "unit": "phalangite"}, True, None)
    assert "phalangite" in narrate(pack, paid) and "auxiliary" in narrate(pack, paid)
    for language in ("es", "ru"):
        tr = i18n.translations(language)
        for e in (paid, done):
            text = narrate(localized(pack, language), e, tr)
            assert not any(u in text for u in TRAINED), f"{language}: {text}"
    es = narrate(localized(pack, "es"), paid, i18n.translations("es"))
    assert "falangita" in es, es


def _examples(pack) -> list[str]:
    """One text of each kind the rules write into a ``Note`` (as the emit sites in
    pbem/rules write them, names from the pack), so every pattern is tried even when the
    random games below do not reach it."""
    sp, card, royal = pack.spaces["babylon"].name, pack.cards[64].name, next(iter(pack.royals.values())).name
    army = next(iter(pack.independent_armies.values())).name
    unit = next(iter(pack.special_units.values())).name
    return [
        f"the mutiny in {sp} fails: east's army there has 3 legitimacy, west 2",
        f"the mutiny in {sp} fails: east's army there has no loyal or royal CUs",
        f"{army} was destroyed and does not return",
        f"{army} has no step of its scripted path left to walk and stays where it is",
        f"{royal} already moved with another army this segment and stay in {sp}",
        f"{army} tied a battle as attacker this turn and removes no control markers: the north garrison "
        f"in {sp} stays",
        "the body is not buried: the body is no longer in play",
        "the body is not buried: the body may be buried from turn 3 on",
        "the body is not buried: you do not control the body",
        f"the body is not buried: the body is in {sp}, no major city",
        f"the body is not buried: the body is in {sp}, not in {sp}",
        f"the body is not buried: no general of yours stands with the body in {sp}",
        f"{sp} can no longer take the mercenary after this turn's dice; it goes to the default space",
        f"no army of east is left that the {unit} could join; the unit stays in its holding box",
        f"{card}: east has no fleet left to upgrade",
        f"{card}: nobody the card could kill is left; the event has no effect",
        f"{card}: {royal} has already left his holding box; the event has no effect",
        f"{card}: {royal} is not in play; the event has no effect",
        f"{card}: {royal} is already active; the event has no effect",
        f"{card}: you have no general or garrison in {sp}, where {royal} is; the event has no effect",
        f"{card}: nobody controls {royal}; the event has no effect",
        f"{card}: no capital can be founded there now; the event has no effect",
        f"{card}: the army named is no longer there; the event has no effect",
        f"{card}: no general of east is left where the CUs could join him; none are gained",
        f"{card}: no army of another player is left in the map; nobody loses CUs",
        f"{card}: no army of another player is left in {pack.provinces['egypt'].name}; nobody loses CUs",
        f"{card}: west's dispersed box is empty",
        f"{card}: the woman named cannot go there now",
        "after the rollback the unseen Tyche deck was shuffled again (the hands and the discards stay as they were)",
        "the Tyche deck ran out: discards reshuffled",
    ]


ENGLISH = re.compile(r"\b(?:the|of|in|is|has|left|body|army|card|event|effect|fails|stays?|units?|"
                     r"garrison|mutiny|deck|CUs|loyal|royal|map)\b")


NOTE_NAMES = ("spaces", "provinces", "royals", "independent_armies", "special_units", "cards")
"""The pack's tables whose names a Note may show untranslated."""


def told_in_every_language(pack, event: Event, tables: tuple[str, ...]) -> dict[str, str]:
    """``event`` told in every language: the pseudo-language marks all of it but names,
    and Spanish and Russian keep no English word but the names (of ``tables`` of the
    reader's pack); returns each of ``es`` and ``ru``'s text without those names."""
    names = pseudolocale.names_of(pack)
    _marked, unmarked = pseudolocale.unmarked_prose(
        narrate(localized(pack, i18n.PSEUDO), event, i18n.translations(i18n.PSEUDO)), names)
    assert unmarked == [], f"English outside a translated string: {unmarked} ({event.data})"
    bare = {}
    for language in ("es", "ru"):
        local = localized(pack, language)
        said = narrate(local, event, i18n.translations(language))
        bare[language] = pseudolocale_free(said, names | pseudolocale.names_of(local) | {
            x.name for table in tables for x in getattr(local, table).values()})
        assert not ENGLISH.search(bare[language]), f"{language}: {said}"
    return bare


def _told(pack, text: str) -> None:
    """``text`` as a Note in every language (:func:`told_in_every_language`)."""
    told_in_every_language(pack, Event("Note", {"rule": "R-0", "text": text}, True, None), NOTE_NAMES)


def test_every_note_the_rules_write_is_told_in_the_readers_language() -> None:
    pack = load_pack()
    texts = _examples(pack)
    for text in texts:
        assert notes.matched(text), text
        _told(pack, text)
    seen: set[str] = set()
    for _state, events in war_games(pack, "note28", 40, decisions=400):
        seen |= {e.data["text"] for e in events if e.kind == "Note"}
    assert len(seen) >= 10, seen
    for text in sorted(seen):
        assert notes.matched(text), f"a Note no pattern of pbem.rules.core.notes matches: {text}"
        _told(pack, text)


def test_a_note_names_places_in_the_readers_language() -> None:
    pack = load_pack()
    e = Event("Note", {"rule": "R-7.2", "text": f"{pack.spaces['babylon'].name} can no longer take the "
                       "mercenary after this turn's dice; it goes to the default space"}, True, None)
    ru = narrate(localized(pack, "ru"), e, i18n.translations("ru"))
    assert localized(pack, "ru").spaces["babylon"].name in ru and "Babylon" not in ru, ru
    assert narrate(pack, e) == f"Note: {e.data['text']}."
    odd = Event("Note", {"rule": "R-0", "text": "something no pattern knows"}, True, None)
    assert "something no pattern knows" in narrate(localized(pack, "es"), odd, i18n.translations("es"))
