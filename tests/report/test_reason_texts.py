"""Issue 28 (why28): the reasons the rules write into an event at execution time (a
cancelled move's ``why``, a cancelled assault's ``why``, a failed reorganisation's
``error``, a lapsed claim's ``why``) told in the reader's language, the log unchanged."""
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
from tests.report.test_note_texts import ENGLISH, told_in_every_language
from tests.service import pseudolocale

FIELDS = {"MoveCancelled": "why", "AssaultCancelled": "why", "ArmyReorganised": "error",
          "VictoryClaimUpdated": "why", "GameWon": "how"}
"""Each event kind whose sentence shows a reason the rules wrote, and its field."""


def _event(kind: str, text: str) -> Event:
    data = {"seat": "east", "rule": "R-9.1", FIELDS[kind]: text}
    if kind == "MoveCancelled":
        data["army"] = "babylon"
    elif kind == "AssaultCancelled":
        data["space"] = "babylon"
    elif kind == "ArmyReorganised":
        data["space"] = "babylon"
    elif kind == "GameWon":
        data["winner"] = "east"
    else:
        data["cleared"] = True
    return Event(kind, data, True, None)


def _examples(pack) -> list[str]:
    """One text of each reason the rules write (as the emit sites in pbem/rules write
    them, names from the pack), so every pattern is tried even when the random games
    below do not reach it."""
    a, b = pack.spaces["babylon"].name, pack.spaces["susa"].name
    royal, general = next(iter(pack.royals.values())).name, next(iter(pack.generals.values())).name
    fleet, card = next(iter(pack.fleets.values())).name, pack.cards[64].name
    return [
        f"you have no general in {a}: CUs without a general cannot move (R-5)",
        f"{royal} already moved with another army in this segment: a member of the royal family moves with only "
        "one army per segment",
        "the army would move without a general (R-5)",
        "a minor general never moves without CUs (R-5)",
        "this army has already moved in this segment (R-9.1)",
        "the path is empty",
        f"{a} is not next to {b}",
        f"{a} is no port",
        f"a naval move starts in a port; {a} is none",
        "a move goes along land and mountain paths, or port to port along sea paths (ending on landing), or one "
        "trans-Mediterranean path",
        f"{a} is 3 MPs from {b} on that path, the army has 2",
        f"assaulting {a} needs 3 CUs, the army can have at most 2 there",
        "at most 2 assaults per space in a movement segment",
        "at most 1 assaults per space in a tyche segment",
        "at most 2 assaults per space in a surrender segment",
        f"the {fleet} is not yours: a fleet belongs to whoever controls its home (nobody now)",
        f"the {fleet} is not yours: a fleet belongs to whoever controls its home (west now)",
        f"the {fleet} was dispersed this turn and cannot fight again before the next turn",
        f"{a} is 1 MP from {b} on that path, the army has 0 (R-9.1)",
        f"{a} is at least 5 MPs from {b} by any land path, the army has 2 (R-9.1)",
        f"{a} is at least 4 MPs from {b} along the path as written, each gap filled by the shortest land path, "
        "the army has 3 (R-9.1)",
        f"{a} holds an enemy army: entering it ends the move (R-9.1)",
        "the army has 1 loyal CUs, not 2",
        f"the army has 0 {next(iter(pack.special_units.values())).name} CUs, not 1",
        f"there are not 2 mercenary CUs of yours to pick up in {a}",
        f"{royal} is not yours to carry: an army moves only the members its faction controls (women once active; "
        "the funeral cart not on turn 1)",
        f"{general} is not with the army",
        f"{royal} is not there to pick up",
        f"{a} is not on the army's way from {b}: the drop there is not done",
        f"{a} is not on the army's way from {b}: the pick-up there is not done",
        f"{a} is not on this move's path: drop leaves units only where the army passes (its start or a space of "
        "its path) (R-9.1)",
        f"{a} is not on this move's path: pick_up takes units along only where the army passes (its start or a "
        "space of its path) (R-9.1)",
        f"there is nothing to besiege in {a} (an independent marker or another player's major city)",
        f"there is nothing to besiege in {a} (an independent marker or another player's major city), where the "
        "move ends (R-10)",
        f"assaulting {a} needs 4 CUs, you have 3 there",
        f"no more assaults on {a} in this segment",
        f"both assaults on {a} in a segment are by the same general",
        f"#64 {card} needs a siege you conduct, and the move ends in {a}, where there is nothing to besiege (R-8.5)",
        "not possible now",
        "give the path as a list of spaces (R-9.1)",
        "assault is a number of rolls (0-2) (R-10)",
        "escort lists fleet ids (R-15)",
        "each move is {army: General, path: [Space, ...]} (R-9.1)",
        "there is no space 'Babylonia' (R-9.1)",
        "a move has no field 'pth' (R-9.1)",
        f"{general} is not one of your generals on the map (R-9.1)",
        "you have no general on the map: an army needs a general (R-5)",
        f"the {fleet} was dispersed this turn and cannot fight again before the next turn (R-15)",
        f"{a} is not next to {b} (R-9.1); {a} is 3 MPs from {b} on that path, the army has 2 (R-9.1)",
        "no longer holds",
    ]


REASON_NAMES = ("spaces", "generals", "royals", "fleets", "special_units", "cards")
"""The pack's tables whose names a reason may show untranslated."""

WON = ["automatic (vp)", "automatic (lp)", "end of game (most VP)", "regency"]
"""Every ``how`` of ``GameWon`` (pbem.rules.phases.victory)."""


def _told(pack, event: Event) -> None:
    """``event`` in every language (:func:`told_in_every_language`), the MPs and the
    siege's words translated too; English is the log's text."""
    text = event.data[FIELDS[event.kind]]
    assert text in narrate(pack, event), narrate(pack, event)
    bare = told_in_every_language(pack, event, REASON_NAMES)
    for language, said in bare.items():
        assert not any(w in said for w in ("MP", "besiege", "nothing")), f"{language}: {said}"


def test_every_reason_the_rules_write_is_told_in_the_readers_language() -> None:
    pack = load_pack()
    for text in _examples(pack):
        assert notes.reason_matched(text), text
        _told(pack, _event("MoveCancelled", text))
    for text in WON:
        assert notes.reason_matched(text), text
        _told(pack, _event("GameWon", text))
    seen: dict[str, set[str]] = {kind: set() for kind in FIELDS}
    for _state, events in war_games(pack, "why28", 40, decisions=400):
        for e in events:
            if e.kind in FIELDS and isinstance(e.data.get(FIELDS[e.kind]), str):
                seen[e.kind].add(e.data[FIELDS[e.kind]])
    assert len(seen["MoveCancelled"]) >= 5 and len(seen["AssaultCancelled"]) >= 5, seen
    for kind, texts in seen.items():
        for text in sorted(texts):
            assert notes.reason_matched(text), f"a {kind} reason no pattern of REASONS matches: {text}"
            _told(pack, _event(kind, text))


def test_a_move_too_far_and_an_assault_on_nothing_are_told_in_spanish_and_russian() -> None:
    pack = load_pack()
    far = f"{pack.spaces['cilician_gates'].name} is 3 MPs from {pack.spaces['iconium'].name} on that path, the army has 2"
    nothing = (f"there is nothing to besiege in {pack.spaces['heraclea'].name} (an independent marker or another "
               "player's major city), where the move ends (R-10)")
    es, ru = localized(pack, "es"), localized(pack, "ru")
    for text in (far, nothing):
        e = _event("MoveCancelled", text)
        assert narrate(pack, e) == f"east's move stops: {text}."
        _told(pack, e)
    said_es = narrate(es, _event("MoveCancelled", far), i18n.translations("es"))
    said_ru = narrate(ru, _event("MoveCancelled", far), i18n.translations("ru"))
    assert "3 PM" in said_es and es.spaces["iconium"].name in said_es, said_es
    assert "3 ОД" in said_ru and ru.spaces["cilician_gates"].name in said_ru, said_ru
    assert "(R-10)" in narrate(ru, _event("MoveCancelled", nothing), i18n.translations("ru"))


def test_a_victory_is_told_by_the_glossarys_abbreviations() -> None:
    pack = load_pack()
    claimed = Event("VictoryClaimed", {"seat": "east", "kind": "lp", "waiting": ["west"], "rule": "R-1.1"}, True, None)
    won = _event("GameWon", "automatic (vp)")
    assert narrate(pack, won) == "east wins the game (automatic (vp))."
    assert narrate(pack, claimed) == "east declares an automatic victory (LP)."
    ru = localized(pack, "ru"), i18n.translations("ru")
    assert "ОЛ" in narrate(ru[0], claimed, ru[1]) and "ПО" in narrate(ru[0], won, ru[1]), narrate(ru[0], won, ru[1])
    assert "PV" in narrate(localized(pack, "es"), won, i18n.translations("es"))


ORDER_WORDS = {"drop", "pick_up", "assault", "escort"}
"""The orders' YAML keys a reason quotes: the same in every language (docs/reports.md)."""


def test_no_event_sentence_of_random_games_keeps_english_in_russian_or_spanish() -> None:
    """Every event of random games told in Russian has no Latin word but names and order
    keys, and in Spanish no English word (why28: besides the reasons, "north отказывается:
    intercept.", "таблица «elephant strength»", "independent сминает ...")."""
    pack = load_pack()
    local = {x: (localized(pack, x), i18n.translations(x)) for x in ("es", "ru")}
    names = pseudolocale.names_of(pack) | {
        x.name for p in (pack, local["es"][0], local["ru"][0])
        for table in ("spaces", "provinces", "generals", "royals", "fleets", "special_units", "cards",
                      "independent_armies")
        for x in getattr(p, table).values()}
    kinds: set[str] = set()
    for _state, events in war_games(pack, "why28-all", 30, decisions=400):
        for e in events:
            if not narrate(pack, e):
                continue
            kinds.add(e.kind)
            ru = pseudolocale_free(narrate(local["ru"][0], e, local["ru"][1]), names)
            latin = set(re.findall(r"[A-Za-z][A-Za-z_']{3,}", ru)) - ORDER_WORDS
            assert not latin, f"ru {e.kind}: {narrate(local['ru'][0], e, local['ru'][1])}"
            es = pseudolocale_free(narrate(local["es"][0], e, local["es"][1]), names)
            assert not ENGLISH.search(es), f"es {e.kind}: {narrate(local['es'][0], e, local['es'][1])}"
    assert {"ReactionChosen", "ElephantsRolled", "OverrunCarriedOut", "MoveCancelled"} <= kinds, sorted(kinds)


def test_a_decided_proposal_is_told_in_the_readers_language() -> None:
    pack = load_pack()
    for outcome, why in (("rejected", "a seat voted no"), ("passed", "every seat still in the game voted yes"),
                         ("expired", "its time ran out")):
        e = Event("VoteDecided", {"proposal": 1, "outcome": outcome, "why": why, "votes": {"east": "no"}}, True, None)
        assert narrate(pack, e) == f"Proposal 1 is {outcome} ({why}): east no."
        for language in ("es", "ru"):
            said = narrate(localized(pack, language), e, i18n.translations(language))
            assert outcome not in said and why not in said and not ENGLISH.search(said), said
