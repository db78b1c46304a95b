"""Events of the Tyche deck and the cards (R-6.4, R-8.2, R-8.5, R-16): shuffles, deals, plays, discards, card events.
"""
from __future__ import annotations

from pbem.rules.core.events.base import EventKind
from pbem.rules.core.names import (
    card_label,
    province_name,
    royal_name,
    space_name,
    spaces_text,
)
from pbem.rules.core.state import State, seat_private


def _deck(s: State, d: dict) -> None:
    s.setdefault("secret", {})["deck"] = list(d["deck"])
    for n in d.get("from_discards", []):
        s["discards"].remove(n)


def _dealt(s: State, d: dict) -> None:
    for n in d["cards"]:
        s["secret"]["deck"].remove(n)
        seat_private(s, d["seat"])["hand"].append(n)


def _played(s: State, d: dict) -> None:
    seat_private(s, d["seat"])["hand"].remove(d["card"])
    (s["removed"] if d.get("removed") else s["discards"]).append(d["card"])
    if d.get("use") == "train":
        s["training_cards"][d["seat"]] = s["training_cards"].get(d["seat"], 0) + 1


def _discarded(s: State, d: dict) -> None:
    seat_private(s, d["seat"])["hand"].remove(d["card"])
    s["discards"].append(d["card"])


def _markers_removed(s: State, d: dict) -> None:
    s["independent"] = [x for x in s["independent"] if x not in d["spaces"]]


def _woman_moved(s: State, d: dict) -> None:
    s["royals"][d["royal"]]["space"] = d["to"]


def _cleared(s: State, d: dict) -> None:
    for seat, cards in d["cards"].items():
        for n in cards:
            seat_private(s, seat)["hand"].remove(n)
            s["discards"].append(n)


KINDS: tuple[EventKind, ...] = (
    EventKind('DeckShuffled',
              ('deck', 'from_discards', 'rule'),
              reduce=_deck,
              seen_by='judge',
              say=lambda p, d: f"The Tyche deck is shuffled ({len(d.get('order', d.get('deck', [])))} cards)."),
    EventKind('CardsDealt',
              ('cards', 'rule', 'seat'),
              reduce=_dealt,
              seen_by='seat',
              say=lambda p, d: (f"{d.get('seat')} is dealt {', '.join(card_label(p, c) for c in d['cards'])}."
                                    if "cards" in d else f"{d.get('seat')} is dealt {d.get('count', '?')} cards.")),
    EventKind('CardDrawn',
              ('cards', 'rule', 'seat'),
              reduce=_dealt,
              seen_by='seat',
              say=lambda p, d: f"{d.get('seat')} draws {', '.join(card_label(p, c) for c in d.get('cards', []))}."),
    EventKind('CardPlayed',
              ('card', 'name', 'ops', 'removed', 'rule', 'seat', 'use'),
              reduce=_played,
              say=lambda p, d: f"{d.get('seat')} plays {card_label(p, d.get('card'))}"
                                   + (f" for {d['use']}" if d.get("use") else "") + "."),
    EventKind('CardDiscarded',
              ('card', 'name', 'rule', 'seat', 'surprise'),
              reduce=_discarded,
              say=lambda p, d: f"{d.get('seat')} discards {card_label(p, d.get('card'))}."),
    EventKind('HandsCleared',
              ('cards', 'decision', 'rule'),
              reduce=_cleared,
              say=lambda p, d: "The hands are cleared."),
    EventKind('TycheDealt',
              ('counts', 'rule'),
              say=lambda p, d: "Tyche cards dealt: " + ", ".join(f"{s} {n}" for s, n in d.get("counts", {}).items())
                                   + "."),
    EventKind('ExtraCardsDrawn',
              ('card', 'count', 'rule', 'seat'),
              say=lambda p, d: f"{d.get('seat')} draws {d.get('count')} more "
                               f"card{'' if d.get('count') == 1 else 's'} "
                               f"({card_label(p, d.get('card'))}, R-16.3)."),
    EventKind('CardEventSkipped',
              ('card', 'effects', 'name', 'rule', 'seat', 'why'),
              say=lambda p, d: f"The event of {card_label(p, d.get('card'))} is not resolved by the judge yet."),
    EventKind('UnrestStruck',
              ('card', 'province', 'provinces', 'roll', 'rule', 'seat', 'spaces', 'spread_to'),
              say=lambda p, d: f"Unrest ({card_label(p, d.get('card'))}, played by {d.get('seat')}"
                                     + (f"; roll {'+'.join(map(str, d['roll']))}" if isinstance(d.get("roll"), list)
                                        else "") + ") strikes "
                                     f"{province_name(p, d.get('province'))}"
                                     + (f", spreading to {province_name(p, d['spread_to'])}" if d.get("spread_to") else "")
                                     + (f": independent markers in {spaces_text(p, d.get('spaces'))}" if d.get("spaces")
                                        else ": no space can revolt") + "."),
    EventKind('IndependentMarkersRemoved',
              ('card', 'rule', 'seat', 'spaces'),
              reduce=_markers_removed,
              say=lambda p, d: f"{card_label(p, d.get('card'))}, played by {d.get('seat')}, removes "
                               + (f"the independent markers of {spaces_text(p, d.get('spaces'))}"
                                  if d.get("spaces") else "no independent marker: none qualifies")
                               + " (R-16)."),
    EventKind('ExtraTycheSegmentGranted',
              ('card', 'count', 'rule', 'seat'),
              say=lambda p, d: f"{d.get('seat')} draws {d.get('count')} more "
                               f"card{'' if d.get('count') == 1 else 's'} "
                               f"({card_label(p, d.get('card'))}): an extra Tyche-only segment "
                               "after the strategy rounds (R-6)."),
    EventKind('WomanMoved',
              ('card', 'from', 'rule', 'royal', 'seat', 'to'),
              reduce=_woman_moved,
              say=lambda p, d: f"{royal_name(p, d.get('royal'))} follows plans of her own "
                               f"({card_label(p, d.get('card'))}, played by {d.get('seat')}): "
                               f"from {space_name(p, d.get('from'))} to "
                               f"{space_name(p, d.get('to'))} (R-12.5)."),
)
