"""Surprise cards in one's own Tyche segment (R-8.5): cards named by number or name,
the surprise discards checked, and carried out with a replacement draw each; the
surprise cards played in the segment (``tyche.surprise_plays``: a Mutiny, R-16.3); and
what the prompt says about playing the surprise cards of a hand (:func:`surprise_plays`;
the plays at other moments: :mod:`pbem.rules.resolve.surprises`).

``tyche: {surprise_plays: [{card: 16, target: Eumenes}], ...}``: surprise cards of the
moment ``tyche`` (the Mutiny, seed 004: a surprise card), played after the surprise
discards and before the Tyche play, each with the fields its effect reads (a Mutiny's
``target``: the enemy army, by its general or its space; left out when only one army
qualifies); each play draws a replacement at once and is no Tyche play.

``tyche: {surprise_discards: [49, 50], discard_drawn_surprises: true, ...}``: the listed
surprise cards are discarded before the mandatory play, each replaced at once by a draw
from the deck; with ``discard_drawn_surprises`` every surprise card drawn as such a
replacement is discarded too (and replaced), as in the rulebook's example (12.10: "if you
wanted to, you could immediately discard those too"). The player cannot know his draws
when he writes his orders, so this is the one way to discard them in the same segment.
"""
from __future__ import annotations

from typing import Any

from pbem.pack import names as pack_names
from pbem.pack.model import Pack
from pbem.problems import Problem
from pbem.rules.cards.legitimacy import mutiny_target, mutiny_targets
from pbem.rules.cards.royals import names as listed
from pbem.rules.context import Ctx
from pbem.rules.core import names
from pbem.rules.core.board import name_hint
from pbem.rules.core.names import N_
from pbem.rules.core.problems import reject
from pbem.rules.core.state import State, hand_of
from pbem.rules.resolve.royals import mutiny, mutiny_types
from pbem.rules.resolve.siege import conducts_siege
from pbem.rules.resolve.surprises import (
    MOMENT_NAMES,
    moments_of,
    play,
    read_cards,
    surprise_effect,
)


def card_label(pack: Pack, n: int) -> str:
    """``"#12 Greek Mercenaries (3 OPs)"``: the card as players read it, from the one
    place names come from (:func:`pbem.rules.core.names.card_label`)."""
    return names.card_label(pack, n)


def parse_card(pack: Pack, hand: list[int], value: Any) -> tuple[int | None, str | None]:
    """Resolve a card given by number (int or digits) or name against a hand.
    Returns ``(number, None)`` or ``(None, hint)``."""
    if isinstance(value, bool):
        return None, None
    if isinstance(value, int):
        return value, None
    if isinstance(value, str) and value.strip().lstrip("#").isdecimal():
        try:
            return int(value.strip().lstrip("#")), None
        except ValueError:  # too many digits
            return None, "give the card's number from your hand"
    if isinstance(value, str):
        key = pack_names.fold(value)
        for n in hand:  # by its name in any of the pack's languages (issue 28)
            if key in pack_names.names_of(pack, "cards", n):
                return n, None
        near = name_hint(value, {n: pack.cards[n] for n in hand}, pack=pack)
        if near:  # a card of the hand by a name misspelled
            return None, f"{near} give the card's number from your hand"
    return None, "give the card's number from your hand"


def check_surprise_discards(pack: Pack, s: State, seat: str, part: dict[str, Any],
                            where: str, rej: list[Problem]) -> tuple[list[int], bool]:
    """R-8.5: ``tyche.surprise_discards`` (a card or a list: surprise cards in ``seat``'s
    hand, each once) and ``tyche.discard_drawn_surprises`` (true or false). Returns
    ``(cards, again)``; problems go to ``rej`` (``tyche.card_not_in_hand``,
    ``tyche.not_a_surprise``, ``tyche.duplicate_card``, ``tyche.discard_drawn_not_bool``)."""
    hand = list(hand_of(s, seat))
    surprise: list[int] = []
    sd = part.get("surprise_discards", [])
    if not isinstance(sd, list):
        sd = [sd]
    for i, v in enumerate(sd):
        n, hint = parse_card(pack, hand, v)
        w = f"{where}.surprise_discards[{i}]"
        if n is None or n not in hand:
            reject(rej, "tyche.card_not_in_hand", f"card {v!r} is not in your hand",
                   w, hint or "your hand: " + ", ".join(card_label(pack, c) for c in hand), rule="R-8.5",
                   params={"card": v, "hand": ", ".join(card_label(pack, c) for c in hand)})
        elif pack.cards[n].type != "surprise":
            reject(rej, "tyche.not_a_surprise",
                   f"{card_label(pack, n)} is not a surprise card", w,
                   "put it under card: instead")
        elif n in surprise:
            reject(rej, "tyche.duplicate_card", f"card {n} is listed twice", w,
                   "list each surprise card once")
        else:
            surprise.append(n)
    again = part.get("discard_drawn_surprises", False)
    if not isinstance(again, bool):
        reject(rej, "tyche.discard_drawn_not_bool",
               f"discard_drawn_surprises must be true or false, not {again!r}",
               f"{where}.discard_drawn_surprises", "discard_drawn_surprises: true")
        again = False
    return surprise, again


def discard_surprises(ctx: Ctx, seat: str, cards: list[int], again: bool) -> None:
    """R-8.5: discard ``cards`` (surprise cards of ``seat``), each replaced at once by a
    draw (``CardDiscarded`` public, ``CardDrawn`` private); with ``again`` the surprise
    cards drawn as replacements are discarded and replaced in turn, until a draw brings
    none, the deck and discards are empty, or a card comes back that was discarded in
    this segment already [D] (a reshuffled deck could otherwise return it for ever)."""
    pack = ctx.pack
    todo, done = list(cards), set()
    while todo:
        n = todo.pop(0)
        done.add(n)
        ctx.emit("CardDiscarded", {"seat": seat, "card": n, "name": pack.cards[n].name,
                                   "surprise": True, "rule": "R-8.5"})
        got = ctx.draw(seat, 1, "R-8.5")
        if again:
            todo += [m for m in got if pack.cards[m].type == "surprise" and m not in done]


def check_surprise_plays(pack: Pack, s: State, seat: str, part: dict[str, Any], where: str,
                         rej: list[Problem], discards: list[int]) -> list[dict[str, Any]]:
    """R-8.5, R-16.3: ``tyche.surprise_plays`` (an entry or a list; an entry is a card,
    by number or name, or ``{card, target}``): surprise cards of ``seat``'s hand played
    at the moment ``tyche`` (a Mutiny, with the enemy army it strikes: ``target``,
    :func:`pbem.rules.cards.legitimacy.mutiny_targets`). Returns ``[{"card", "target":
    [space, seat]}]``; problems go to ``rej`` (the ``surprise.*`` codes of
    :func:`pbem.rules.resolve.surprises.read_cards`, ``tyche.duplicate_card`` for a card
    also discarded, ``royals.army_missing``, ``royals.no_target``,
    ``royals.army_not_allowed``)."""
    raw = part.get("surprise_plays", [])
    items = raw if isinstance(raw, list) else [raw]
    out: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        w = f"{where}.surprise_plays[{i}]" if isinstance(raw, list) else f"{where}.surprise_plays"
        entry = item if isinstance(item, dict) else {"card": item}
        got = read_cards(pack, s, seat, entry.get("card"), ("tyche",), f"{w}.card", rej)
        if not got:
            continue
        n = got[0]
        if n in discards or any(p["card"] == n for p in out):
            reject(rej, "tyche.duplicate_card", f"{card_label(pack, n)} is named twice "
                   "(a surprise discard or play)", f"{w}.card", "name each card once",
                   rule="R-8.5")
            continue
        eff = surprise_effect(pack, n)
        legal = mutiny_targets(pack, s, seat, eff) if eff is not None else []
        hint = "armies a mutiny would strike: " + listed(pack, [x for x, _o in legal], "spaces")
        if "target" not in entry:
            if len(legal) == 1:
                out.append({"card": n, "target": list(legal[0])})
            else:
                reject(rej, "royals.army_missing" if legal else "royals.no_target",
                       "name the enemy army (its general or its space) that mutinies"
                       if legal else "no enemy army has less legitimacy than you now",
                       f"{w}.target", hint, rule="R-11.2")
            continue
        army = mutiny_target(pack, s, seat, entry["target"], legal)
        if army not in legal:
            reject(rej, "royals.army_not_allowed", f"{entry['target']!r} names no enemy "
                   "army with less legitimacy than yours (faction LP + its commander's "
                   "prestige)", f"{w}.target", hint, rule="R-11.2")
            continue
        out.append({"card": n, "target": list(army)})
    return out


def play_surprises(ctx: Ctx, seat: str, plays: list[dict[str, Any]]) -> None:
    """R-8.5, R-16.3: carry out the checked ``tyche.surprise_plays`` in order: each card
    leaves the hand face up (``SurprisePlayed``, moment ``tyche``), a replacement is
    drawn at once, then its effect (a Mutiny on the army named: ``MutinyStruck``, or a
    ``Note`` when it no longer strikes, e.g. after Orator's Gift)."""
    for p in plays:
        n, (space, target) = p["card"], p["target"]
        eff = play(ctx, seat, n, "tyche", space, "orders")
        mutiny(ctx, seat, n, target, space, mutiny_types(eff))


HOW = {
    "move": N_("in one of your moves: surprise: [%(n)s]"),
    "siege": N_("in a move ending at a siege you conduct: surprise: [%(n)s], or surrender: "
             "{surprise: {<space>: %(n)s}}"),
    "battle_roll": N_("in one of your moves: surprise: [%(n)s]; by standing order {when: "
                   "battle_roll, play: %(n)s}; or play: [%(n)s] in a window answer"),
    "prestige": N_("in one of your moves: surprise: [%(n)s]; by standing order {when: prestige, "
                "play: %(n)s}; or play: [%(n)s] in a window answer"),
    "naval_landing": N_("by standing order {when: naval_landing, play: %(n)s}, or play: [%(n)s] "
                     "in a window answer"),
    "interception_check": N_("by standing order {when: interception_check, play: %(n)s}, or "
                          "{intercept: {army: <general>, play: [%(n)s]}} in a window"),
    "avoid_check": N_("by standing order {when: avoid_check, play: %(n)s}, or "
                   "{avoid_battle: {toward: <space>, play: [%(n)s]}} in a window"),
    "tyche": N_("tyche: {surprise_plays: [{card: %(n)s, target: <enemy general or space>}], "
             "...} in your player-turn"),
    "battle_start": N_("in one of your moves: surprise: [%(n)s]; by standing order {when: "
                    "battle_start, play: %(n)s}; or play: [%(n)s] in a window answer"),
}
"""How each moment's surprise cards are played (R-8.5), for the prompt."""


def surprise_plays(pack: Pack, s: State, seat: str, active: bool) -> list[dict[str, Any]]:
    """R-8.5: the surprise cards of ``seat``'s hand with the moments they are played at
    and how to play them (``[{"card", "label", "moments", "how": [str], "sieges",
    "targets"}]``; ``sieges``: where the seat conducts a siege now, for a ``siege`` card
    of the seat on turn; ``targets``: the spaces of the armies a Mutiny would strike
    now, for a ``tyche`` card of the seat on turn). Only the seat's own hand is read."""
    out = []
    for n in hand_of(s, seat):
        moments = moments_of(pack, n)
        if not moments:
            continue
        row: dict[str, Any] = {
            "card": n, "label": card_label(pack, n), "moments": list(moments),
            "how": [f"{MOMENT_NAMES[m]}: {HOW[m] % {'n': n}}" for m in moments]}
        if "siege" in moments:
            row["sieges"] = sorted(x for x in s["cus"] if active
                                   and conducts_siege(pack, s, seat, x))
        if "tyche" in moments:  # the armies a Mutiny would strike now
            row["targets"] = [x for x, _o in mutiny_targets(pack, s, seat,
                                                             surprise_effect(pack, n))] \
                if active else []
        out.append(row)
    return out
