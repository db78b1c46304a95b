"""Events of the Tyche deck and the cards (R-6.4, R-8.2, R-8.5, R-16): shuffles, deals, plays, discards, card events.
"""
from __future__ import annotations

from pbem.plural import count, noun
from pbem.rules.core.events.base import EventKind
from pbem.rules.core.names import (
    card_label,
    general_name,
    province_name,
    royal_name,
    space_name,
    spaces_text,
    use_text,
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


def _drop_standing(s: State, seat: str, card: int) -> None:
    """R-8.5: a surprise card that left the hand takes the standing orders that would
    have played it along."""
    p = seat_private(s, seat)
    if any(o.get("play") == card for o in p.get("standing", [])):
        p["standing"] = [o for o in p["standing"] if o.get("play") != card]


def _discarded(s: State, d: dict) -> None:
    seat_private(s, d["seat"])["hand"].remove(d["card"])
    s["discards"].append(d["card"])
    _drop_standing(s, d["seat"], d["card"])


def _surprise_played(s: State, d: dict) -> None:
    """R-8.5: the surprise card leaves the hand to the discards, face up."""
    _discarded(s, d)


def _prestige_raised(s: State, d: dict) -> None:
    s.setdefault("court", {}).setdefault("prestige", []).append(
        {"general": d["general"], "seat": d["seat"], "amount": d["amount"], "card": d["card"]})


def _prestige_ended(s: State, d: dict) -> None:
    (s.get("court") or {}).pop("prestige", None)


def _markers_removed(s: State, d: dict) -> None:
    s["independent"] = [x for x in s["independent"] if x not in d["spaces"]]


def _woman_moved(s: State, d: dict) -> None:
    s["royals"][d["royal"]]["space"] = d["to"]


def _cleared(s: State, d: dict) -> None:
    for seat, cards in d["cards"].items():
        for n in cards:
            seat_private(s, seat)["hand"].remove(n)
            s["discards"].append(n)
            _drop_standing(s, seat, n)


MOMENT_WORDS = {
    "move": "for the move of its army from {space}",
    "siege": "in its siege of {space}",
    "battle_roll": "after its battle dice at {space}",
    "prestige": "as legitimacy is compared at {space}",
    "naval_landing": "against the naval move landing at {space}",
    "interception_check": "for its interception into {space}",
    "avoid_check": "to avoid battle at {space}",
}
"""The moments of the surprise cards (R-8.5) in the reports' words."""


def _surprise_text(p, d) -> str:
    words = MOMENT_WORDS.get(str(d.get("moment")), "at {space}").format(
        space=space_name(p, d.get("space")))
    how = " by standing order" if d.get("source") == "standing" else ""
    return (f"{d.get('seat')} plays the surprise card {card_label(p, d.get('card'))} "
            f"{words}{how}, and draws a replacement (R-8.5).")


KINDS: tuple[EventKind, ...] = (
    EventKind('DeckShuffled',
              ('deck', 'from_discards', 'rule'),
              reduce=_deck,
              writes=('secret', 'discards'),
              seen_by='judge',
              say=lambda p, d: f"The Tyche deck is shuffled ({count(len(d.get('order', d.get('deck', []))), 'card')})."),
    EventKind('CardsDealt',
              ('cards', 'rule', 'seat'),
              reduce=_dealt,
              writes=('secret', 'private'),
              seen_by='seat',
              say=lambda p, d: (f"{d.get('seat')} is dealt {', '.join(card_label(p, c) for c in d['cards'])}."
                                    if "cards" in d else f"{d.get('seat')} is dealt {count(int(d.get('count') or 0), 'card')}.")),
    EventKind('CardDrawn',
              ('cards', 'rule', 'seat'),
              reduce=_dealt,
              writes=('secret', 'private'),
              seen_by='seat',
              say=lambda p, d: f"{d.get('seat')} draws {', '.join(card_label(p, c) for c in d.get('cards', []))}."),
    EventKind('CardPlayed',
              ('card', 'name', 'ops', 'removed', 'rule', 'seat', 'use'),
              reduce=_played,
              writes=('private', 'removed', 'discards', 'training_cards'),
              say=lambda p, d: f"{d.get('seat')} plays {card_label(p, d.get('card'))}"
                                   + (f" {use_text(d['use'])}" if d.get("use") else "") + "."),
    EventKind('CardDiscarded',
              ('card', 'name', 'rule', 'seat', 'surprise'),
              reduce=_discarded,
              writes=('private', 'discards'),
              say=lambda p, d: f"{d.get('seat')} discards {card_label(p, d.get('card'))}."),
    EventKind('SurprisePlayed',
              ('card', 'moment', 'name', 'rule', 'seat', 'source', 'space'),
              reduce=_surprise_played,
              writes=('private', 'discards'),
              say=_surprise_text),
    EventKind('PrestigeRaised',
              ('amount', 'card', 'general', 'rule', 'seat', 'space'),
              reduce=_prestige_raised,
              say=lambda p, d: f"{general_name(p, d.get('general'))}, commanding {d.get('seat')}'s "
                               f"army at {space_name(p, d.get('space'))}, gains "
                               f"{int(d.get('amount', 0)):+d} prestige until the end of the segment "
                               f"({card_label(p, d.get('card'))}, R-11.2)."),
    EventKind('PrestigeBonusEnded',
              ('generals', 'rule'),
              reduce=_prestige_ended,
              say=lambda p, d: "The segment ends: the prestige that surprise cards gave "
                               + ", ".join(general_name(p, g) for g in d.get("generals", []))
                               + " lapses (R-11.2)."),
    EventKind('HandsCleared',
              ('cards', 'decision', 'rule'),
              reduce=_cleared,
              writes=('private', 'discards'),
              say=lambda p, d: "The hands are cleared."),
    EventKind('TycheDealt',
              ('counts', 'rule'),
              say=lambda p, d: "Tyche cards dealt: " + ", ".join(f"{s} {n}" for s, n in d.get("counts", {}).items())
                                   + "."),
    EventKind('ExtraCardsDrawn',
              ('card', 'count', 'rule', 'seat'),
              say=lambda p, d: f"{d.get('seat')} draws {d.get('count')} more "
                               f"{noun(int(d.get('count') or 0), 'card')} "
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
                               f"{noun(int(d.get('count') or 0), 'card')} "
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
