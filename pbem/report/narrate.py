"""Events in words, for the reports ("what happened, in order").

Each event kind of the rules core has a sentence here; an unknown kind falls back to
its name and data, so a new event never breaks a report.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem import rules
from pbem.pack.model import Pack


def _sp(pack: Pack, space: Any) -> str:
    if isinstance(space, str) and space in pack.spaces:
        return pack.spaces[space].name
    return str(space)


def _gen(pack: Pack, gid: Any) -> str:
    if isinstance(gid, str) and gid in pack.generals:
        return pack.generals[gid].name
    return str(gid)


def _card(pack: Pack, number: Any) -> str:
    try:
        c = pack.cards[int(number)]
    except (KeyError, TypeError, ValueError):
        return f"card {number}"
    return f"#{c.number} {c.name}" + (f" ({c.ops} OPs)" if c.ops else "")


def _cus(cus: Any) -> str:
    if isinstance(cus, Mapping):
        return ", ".join(f"{n} {t}" for t, n in cus.items() if n) or "no CUs"
    return str(cus)


Sentence = Callable[[Pack, Mapping[str, Any]], str]

SENTENCES: dict[str, Sentence] = {
    "GameStarted": lambda p, d: f"The game begins: {d.get('year', '323')} BC, seats "
                                f"{', '.join(d.get('seats', rules.SEATS))}.",
    "PrimaryGeneralsDealt": lambda p, d: f"{d.get('seat')} receives {', '.join(_gen(p, g) for g in d.get('generals', []))}.",
    "GeneralPlaced": lambda p, d: f"{_gen(p, d.get('general'))} ({d.get('seat') or 'nobody'}) is placed in "
                                  f"{_sp(p, d.get('space'))}." if d.get("space") else
                                  f"{_gen(p, d.get('general'))} goes to the {d.get('where', 'box')}.",
    "CUsPlaced": lambda p, d: f"{d.get('seat')} places {_cus(d.get('cus'))} in {_sp(p, d.get('space'))}.",
    "CUsRemoved": lambda p, d: f"{d.get('seat')} loses {_cus(d.get('cus'))} in {_sp(p, d.get('space'))}.",
    "CUsDispersed": lambda p, d: f"{d.get('seat')}'s {_cus(d.get('cus'))} in {_sp(p, d.get('space'))} go to the "
                                 "dispersed box.",
    "GarrisonPlaced": lambda p, d: f"{d.get('seat')} places a garrison in {_sp(p, d.get('space'))}.",
    "GarrisonRemoved": lambda p, d: f"The {d.get('seat')} garrison in {_sp(p, d.get('space'))} is removed.",
    "IndependentMarkersPlaced": lambda p, d: f"Independent markers are placed on {len(d.get('spaces', []))} spaces.",
    "RoyalPlaced": lambda p, d: f"{d.get('royal')} is in {_sp(p, d.get('space'))}.",
    "IndependentArmyPlaced": lambda p, d: f"The independent army {d.get('army')} is in {_sp(p, d.get('space'))}.",
    "DeckShuffled": lambda p, d: f"The Tyche deck is shuffled ({len(d.get('order', d.get('deck', [])))} cards).",
    "CardsDealt": lambda p, d: (f"{d.get('seat')} is dealt {', '.join(_card(p, c) for c in d['cards'])}."
                                if "cards" in d else f"{d.get('seat')} is dealt {d.get('count', '?')} cards."),
    "CardPlayed": lambda p, d: f"{d.get('seat')} plays {_card(p, d.get('card'))}"
                               + (f" for {d['use']}" if d.get("use") else "") + ".",
    "CardDiscarded": lambda p, d: f"{d.get('seat')} discards {_card(p, d.get('card'))}.",
    "HandsCleared": lambda p, d: "The hands are cleared.",
    "TurnOrderSet": lambda p, d: f"Turn order: {', '.join(d.get('order', []))}.",
    "UsurpersLabelled": lambda p, d: (f"Usurper: {', '.join(d['seats'])}." if d.get("seats") else "No usurper."),
    "ChampionsSet": lambda p, d: f"Champions: {', '.join(d.get('seats', []))}.",
    "ChampionLost": lambda p, d: f"{d.get('seat')} loses Champion status.",
    "RoundStarted": lambda p, d: f"Round {d.get('round')} begins.",
    "PlayerTurnStarted": lambda p, d: f"{d.get('seat')}'s player-turn begins.",
    "TurnPassed": lambda p, d: f"{d.get('seat', d.get('from'))} ends the player-turn.",
    "MercenaryRaised": lambda p, d: f"{d.get('seat')} raises a mercenary CU in {_sp(p, d.get('space'))}.",
    "MinorGeneralPlaced": lambda p, d: f"{d.get('seat')} places a minor general in {_sp(p, d.get('space'))}.",
    "MinorGeneralRemoved": lambda p, d: f"{d.get('seat')}'s minor general leaves {_sp(p, d.get('space'))}.",
    "TrainingPaid": lambda p, d: f"{d.get('seat')} pays {d.get('ops')} OPs to train a {d.get('unit')}.",
    "LegitimacyAdjusted": lambda p, d: f"{d.get('seat')} LP {d.get('delta', 0):+d}.",
    "PhaseStarted": lambda p, d: f"Phase: {str(d.get('phase', '')).replace('_', ' ')}.",
    "VictoryClaimed": lambda p, d: f"{d.get('seat')} declares an automatic victory ({d.get('kind', '').upper()}).",
    "GameWon": lambda p, d: f"{d.get('seat', d.get('winner'))} wins the game ({d.get('how', '')}).",
    "RoyalMoved": lambda p, d: f"{d.get('royal')} moves to {_sp(p, d.get('space'))}.",
}


def narrate(pack: Pack, event: rules.Event) -> str:
    """One sentence for ``event`` (empty for bookkeeping events not worth telling)."""
    if event.kind in ("OrdersApplied",):
        return ""
    fn = SENTENCES.get(event.kind)
    data = dict(event.data)
    if fn is None:
        return f"{event.kind}: " + ", ".join(f"{k}={v}" for k, v in data.items())
    try:
        return fn(pack, data)
    except Exception:  # noqa: BLE001 - an odd event must not break a report
        return f"{event.kind}: {data}"
