"""What a bot may see: one seat's view of a game, as a playable :class:`GameState`
(issue 27 item 2; docs/bots.md "What a bot sees").

A person at a seat sees the board, the public log and their own private part (hand,
units in training, standing orders, withheld orders), and knows how many cards each
other hand and the deck hold (R-6.4). They do not see the other seats' private parts,
the deck order, the rest of a move a reaction window suspended, nor the game's dice seed
(the seed is never in the state: the service keeps it, docs/trust.md).

:func:`seat_view` builds the state a bot plays from: the public part and the seat's own
private part as they are; the *unseen cards* (the other hands and the deck together, a
set the seat can work out from the public log) dealt in a fixed canonical way (sorted,
the other hands in seat order, then the deck); the other seats' training, standing and
withheld orders empty; no suspended move. Two games that look the same from the seat
give equal views, whatever the hidden cards, the deck order or the seed
(tests/rules/test_bots_view.py). :func:`redeal` re-samples the hidden cards with the
bot's own random generator (a determinisation, as in OpenSpiel's IS-MCTS).
"""
from __future__ import annotations

import random

from pbem.rules.core.state import SEATS, GameState, all_hands, deck, hand_of

EMPTY_PRIVATE: dict = {"hand": [], "training": [], "standing": []}
"""The private part the view gives another seat before its hand is dealt in."""


def unseen_cards(state: GameState, seat: str) -> list[int]:
    """The cards ``seat`` has not seen (R-6.4): every other hand and the deck together,
    sorted (card numbers). Public knowledge as a set: the cards of the game less the
    discards, the removed and primary cards, those lying before a seat and the seat's
    own hand."""
    s = state.peek()
    cards = [n for other, h in all_hands(s).items() if other != seat for n in h]
    return sorted(cards + list(deck(s)))


def hand_sizes(state: GameState) -> dict[str, int]:
    """``{seat: number of cards in hand}`` (public, R-6.4)."""
    return {x: len(hand_of(state.peek(), x)) for x in SEATS}


def seat_view(state: GameState, seat: str) -> GameState:
    """The state as ``seat`` may know it, in a form the engine plays (see the module
    docstring): hidden cards dealt canonically, the other seats' training, standing and
    withheld orders emptied, the deck in card order, no suspended move. Idempotent:
    ``seat_view(seat_view(st, x), x) == seat_view(st, x)``. The seat's own legal options
    computed for ``state`` are kept (they are the seat's to see). Raises ``ValueError``
    for a ``seat`` that is not one of :data:`SEATS`."""
    if seat not in SEATS:
        raise ValueError(f"{seat!r} is not a seat (R-2)")
    return _dealt(state, seat, unseen_cards(state, seat))


def redeal(view: GameState, seat: str, rng: random.Random) -> GameState:
    """One sample of the hidden cards of ``view`` (a :func:`seat_view` of ``seat``): the
    unseen cards shuffled with ``rng`` (the bot's own generator, never the game's dice)
    and dealt to the other hands (same sizes) and the deck."""
    cards = unseen_cards(view, seat)
    rng.shuffle(cards)
    return _dealt(view, seat, cards)


def _dealt(state: GameState, seat: str, cards: list[int]) -> GameState:
    """``state`` with ``cards`` dealt to the other seats' hands (their sizes kept, in
    seat order) and the rest to the deck; the others' other private parts emptied."""
    s = state.peek()
    sizes = hand_sizes(state)
    private = {}
    for x, part in (s.get("private") or {}).items():
        private[x] = part if x == seat else dict(EMPTY_PRIVATE)
    at = 0
    for x in SEATS:
        if x == seat or x not in private:
            continue
        private[x] = {**EMPTY_PRIVATE, "hand": cards[at:at + sizes[x]]}
        at += sizes[x]
    data = {**s, "private": private, "secret": {"deck": cards[at:]}}
    out = GameState.from_dict(data, state.pack)
    key = ("legal_options", seat)
    if key in state.memo:
        out.memo[key] = state.memo[key]
    return out
