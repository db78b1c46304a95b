"""Events of the Tyche deck and the cards (R-6.4, R-8.2, R-8.5, R-16): shuffles, deals, plays, discards, card events.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.rules.core.events.base import EventKind, of_seat, said, seat_of
from pbem.rules.core.names import (
    N_,
    Words,
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
    "move": N_("for the move of its army from %(space)s"),
    "siege": N_("in its siege of %(space)s"),
    "battle_roll": N_("after its battle dice at %(space)s"),
    "prestige": N_("as legitimacy is compared at %(space)s"),
    "naval_landing": N_("against the naval move landing at %(space)s"),
    "interception_check": N_("for its interception into %(space)s"),
    "avoid_check": N_("to avoid battle at %(space)s"),
}
"""The moments of the surprise cards (R-8.5) in the reports' words."""


def _surprise_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    words = t.gettext(MOMENT_WORDS.get(str(d.get("moment")), N_("at %(space)s"))) % {
        "space": space_name(p, d.get("space"), t)}
    v = {"seat": d.get('seat'), "card": card_label(p, d.get('card'), t), "when": words}
    if d.get("source") == "standing":
        return t.gettext("%(seat)s plays the surprise card %(card)s %(when)s by standing order, and draws a "
                         "replacement (R-8.5).") % v
    return t.gettext("%(seat)s plays the surprise card %(card)s %(when)s, and draws a replacement (R-8.5).") % v


def _card(p: Any, d: Mapping[str, Any], t: Words) -> str:
    return card_label(p, d.get("card"), t)


def _cards_n(n: Any, t: Words) -> str:
    return t.ngettext("%(num)d card", "%(num)d cards", int(n or 0)) % {"num": int(n or 0)}


def _more_cards(p: Any, d: Mapping[str, Any], t: Words) -> str:
    n = int(d.get('count') or 0)
    return t.ngettext("%(seat)s draws %(num)d more card (%(card)s, R-16.3).",
                      "%(seat)s draws %(num)d more cards (%(card)s, R-16.3).", n) % {
        "seat": d.get('seat'), "num": n, "card": card_label(p, d.get('card'), t)}


def _extra_segment(p: Any, d: Mapping[str, Any], t: Words) -> str:
    n = int(d.get('count') or 0)
    return t.ngettext("%(seat)s draws %(num)d more card (%(card)s): an extra Tyche-only segment after the strategy "
                      "rounds (R-6).",
                      "%(seat)s draws %(num)d more cards (%(card)s): an extra Tyche-only segment after the strategy "
                      "rounds (R-6).", n) % {"seat": d.get('seat'), "num": n, "card": card_label(p, d.get('card'), t)}


def _unrest_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"card": card_label(p, d.get('card'), t), "seat": d.get('seat'),
         "roll": '+'.join(map(str, d['roll'])) if isinstance(d.get("roll"), list) else "",
         "province": province_name(p, d.get('province')), "spread": province_name(p, d.get('spread_to')),
         "spaces": spaces_text(p, d.get('spaces'), t)}
    head = (t.gettext("Unrest (%(card)s, played by %(seat)s; roll %(roll)s) strikes %(province)s")
            if isinstance(d.get("roll"), list) else t.gettext("Unrest (%(card)s, played by %(seat)s) strikes %(province)s")) % v
    if d.get("spread_to"):
        head += t.gettext(", spreading to %(spread)s") % v
    return head + (t.gettext(": independent markers in %(spaces)s.") % v if d.get("spaces")
                   else t.gettext(": no space can revolt."))


def _markers_removed_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"card": card_label(p, d.get('card'), t), "seat": d.get('seat'), "spaces": spaces_text(p, d.get('spaces'), t)}
    if d.get("spaces"):
        return t.gettext("%(card)s, played by %(seat)s, removes the independent markers of %(spaces)s (R-16).") % v
    return t.gettext("%(card)s, played by %(seat)s, removes no independent marker: none qualifies (R-16).") % v


def _played_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"seat": d.get('seat'), "card": card_label(p, d.get('card'), t), "use": use_text(d.get('use'), t)}
    if d.get("use"):
        return t.gettext("%(seat)s plays %(card)s %(use)s.") % v
    return t.gettext("%(seat)s plays %(card)s.") % v


KINDS: tuple[EventKind, ...] = (
    EventKind('DeckShuffled',
              ('deck', 'from_discards', 'rule'),
              reduce=_deck,
              writes=('secret', 'discards'),
              seen_by='judge',
              say=lambda p, d, t: t.gettext("The Tyche deck is shuffled (%(cards)s).") % {
                  "cards": _cards_n(len(d.get('order', d.get('deck', []))), t)}),
    EventKind('CardsDealt',
              ('cards', 'rule', 'seat'),
              reduce=_dealt,
              writes=('secret', 'private'),
              cells=of_seat,
              seen_by='seat',
              say=lambda p, d, t: (t.gettext("%(seat)s is dealt %(cards)s.") % {
                  "seat": d.get('seat'), "cards": ', '.join(card_label(p, c, t) for c in d['cards'])} if "cards" in d
                  else t.gettext("%(seat)s is dealt %(cards)s.") % {"seat": d.get('seat'),
                                                                     "cards": _cards_n(d.get('count'), t)})),
    EventKind('CardDrawn',
              ('cards', 'rule', 'seat'),
              reduce=_dealt,
              writes=('secret', 'private'),
              cells=of_seat,
              seen_by='seat',
              say=said(N_("%(seat)s draws %(cards)s."), seat=seat_of,
                       cards=lambda p, d, t: ', '.join(card_label(p, c, t) for c in d.get('cards', [])))),
    EventKind('CardPlayed',
              ('card', 'name', 'ops', 'removed', 'rule', 'seat', 'use'),
              reduce=_played,
              writes=('private', 'removed', 'discards', 'training_cards'),
              cells=of_seat,
              say=_played_text),
    EventKind('CardDiscarded',
              ('card', 'name', 'rule', 'seat', 'surprise'),
              reduce=_discarded,
              writes=('private', 'discards'),
              cells=of_seat,
              say=said(N_("%(seat)s discards %(card)s."), seat=seat_of, card=_card)),
    EventKind('SurprisePlayed',
              ('card', 'moment', 'name', 'rule', 'seat', 'source', 'space'),
              reduce=_surprise_played,
              writes=('private', 'discards'),
              cells=of_seat,
              say=_surprise_text),
    EventKind('PrestigeRaised',
              ('amount', 'card', 'general', 'rule', 'seat', 'space'),
              reduce=_prestige_raised,
              say=lambda p, d, t: t.gettext("%(general)s, commanding %(seat)s's army at %(space)s, gains %(amount)s "
                                        "prestige until the end of the segment (%(card)s, R-11.2).") % {
                  "general": general_name(p, d.get('general')), "seat": d.get('seat'),
                  "space": space_name(p, d.get('space'), t), "amount": f"{int(d.get('amount', 0)):+d}",
                  "card": card_label(p, d.get('card'), t)}),
    EventKind('PrestigeBonusEnded',
              ('generals', 'rule'),
              reduce=_prestige_ended,
              say=said(N_("The segment ends: the prestige that surprise cards gave %(generals)s lapses (R-11.2)."),
                       generals=lambda p, d, t: ", ".join(general_name(p, g) for g in d.get("generals", [])))),
    EventKind('HandsCleared',
              ('cards', 'decision', 'rule'),
              reduce=_cleared,
              writes=('private', 'discards'),
              say=said(N_("The hands are cleared."))),
    EventKind('TycheDealt',
              ('counts', 'rule'),
              say=said(N_("Tyche cards dealt: %(counts)s."),
                       counts=lambda p, d, t: ", ".join(f"{s} {n}" for s, n in d.get("counts", {}).items()))),
    EventKind('ExtraCardsDrawn',
              ('card', 'count', 'rule', 'seat'),
              say=_more_cards),
    EventKind('CardEventSkipped',
              ('card', 'effects', 'name', 'rule', 'seat', 'why'),
              say=said(N_("The event of %(card)s is not resolved by the judge yet."), card=_card)),
    EventKind('UnrestStruck',
              ('card', 'province', 'provinces', 'roll', 'rule', 'seat', 'spaces', 'spread_to'),
              say=_unrest_text),
    EventKind('IndependentMarkersRemoved',
              ('card', 'rule', 'seat', 'spaces'),
              reduce=_markers_removed,
              say=_markers_removed_text),
    EventKind('ExtraTycheSegmentGranted',
              ('card', 'count', 'rule', 'seat'),
              say=_extra_segment),
    EventKind('WomanMoved',
              ('card', 'from', 'rule', 'royal', 'seat', 'to'),
              reduce=_woman_moved,
              say=said(N_("%(royal)s follows plans of her own (%(card)s, played by %(seat)s): from %(from)s to %(to)s "
                          "(R-12.5)."), royal=lambda p, d, t: royal_name(p, d.get('royal')), card=_card, seat=seat_of,
                       **{"from": lambda p, d, t: space_name(p, d.get('from'), t),
                          "to": lambda p, d, t: space_name(p, d.get('to'), t)})),
)
