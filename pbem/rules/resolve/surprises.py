"""Surprise cards played at their moment (R-8.5), in the player's own turn or in another
seat's: the moments each surprise primitive of the pack is played at, where a seat's
plays come from, and playing a card (it leaves the hand face up, a replacement is drawn
at once, R-8.5). The effects themselves are carried out where their moment happens:
:mod:`.combat` (``reroll``, ``prestige_bonus``), :mod:`.reactions` (``interception_bonus``),
:mod:`.naval` (``cancel``), :mod:`.movement` (``movement_bonus``), :mod:`.siege`
(``siege_points``, ``prestige_bonus``), :mod:`.inside` and :mod:`.royals`
(``prestige_bonus``).

A seat's plays at a moment come, in this order, from the cards it named for the moment
(*pledges*: a move's ``surprise`` list, a reaction window's ``play``) and from its
standing orders ``{when: <moment>, play: N}`` (secret until they fire). A pledged or
standing card is played only when its moment's condition holds (e.g. Fortune of War when
the seat's battle score is the lower); otherwise it stays in the hand.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pbem.pack import names as pack_names
from pbem.pack.model import Effect, Pack
from pbem.rules.context import Ctx
from pbem.rules.core.armies import commander, side_legitimacy
from pbem.rules.core.board import name_hint, resolve_general, resolve_space
from pbem.rules.core.names import N_
from pbem.rules.core.problems import reject
from pbem.rules.core.state import SEATS, State, hand_of, standing_orders

MOMENTS: dict[str, tuple[str, ...]] = {
    "movement_bonus": ("move",),
    "siege_points": ("siege",),
    "reroll": ("battle_roll",),
    "prestige_bonus": ("prestige",),
    "cancel": ("naval_landing",),
    "interception_bonus": ("interception_check", "avoid_check"),
    "mutiny": ("tyche", "battle_start"),
}
"""The pack's surprise primitives (``cards.yaml``) and the moments they are played at:
``move`` (the start of one of the seat's own moves, R-9.1), ``siege`` (after the
assaults of a move, or in the surrender segment, in a siege the seat conducts, R-10),
``battle_roll`` (after the battle dice, when its score is the lower, R-9.2),
``prestige`` (when legitimacy is compared: royal CUs before a battle R-4.3, besieged royal
CUs when a siege point is scored, a Mutiny R-11.2), ``naval_landing`` (another seat's
naval move about to land near the seat's garrisons, R-15), ``interception_check`` and
``avoid_check`` (the seat's own check, R-9.3); ``tyche`` (the seat's own Tyche segment,
before its Tyche play: ``tyche.surprise_plays``) and ``battle_start`` (before a land battle
the seat's army fights, own turn or another's, before legitimacy is compared for the
royal CUs: a Mutiny against the other army, R-11.2, R-16.3)."""

STANDING_MOMENTS: tuple[str, ...] = ("battle_roll", "prestige", "naval_landing",
                                     "interception_check", "avoid_check", "battle_start")
"""The moments a standing order ``{when: <moment>, play: N}`` may name."""

MOVE_MOMENTS: tuple[str, ...] = ("move", "siege", "battle_roll", "prestige", "battle_start")
"""The moments of the cards a move's ``surprise`` list may name (own turn)."""

WINDOW_MOMENTS: dict[str, tuple[str, ...]] = {
    "intercept": ("interception_check", "battle_roll", "prestige", "battle_start"),
    "avoid_battle": ("avoid_check", "battle_roll", "prestige", "battle_start"),
    "naval_battle": ("naval_landing",),
    "battle": ("battle_roll", "prestige", "battle_start"),
    "naval_landing": ("naval_landing",),
}
"""The moments of the cards an answer may ``play``, by window kind (``battle`` and
``naval_landing``: the ``surprise`` window's moment)."""


def surprise_effect(pack: Pack, card: int) -> Effect | None:
    """The effect of surprise card ``card`` that the engine plays at a moment (R-8.5),
    or None (no such card, not a surprise card, or a primitive with no moment)."""
    c = pack.cards.get(card) if isinstance(card, int) else None
    if c is None or c.type != "surprise":
        return None
    return next((e for e in c.effects if e.primitive in MOMENTS), None)


def moments_of(pack: Pack, card: int) -> tuple[str, ...]:
    """The moments surprise card ``card`` may be played at (empty for other cards)."""
    eff = surprise_effect(pack, card)
    return MOMENTS[eff.primitive] if eff else ()


def fits(pack: Pack, card: int, moments: tuple[str, ...]) -> bool:
    """True when ``card`` is a surprise card played at one of ``moments``."""
    return any(m in moments for m in moments_of(pack, card))


def playable(pack: Pack, s: State, seat: str, moments: tuple[str, ...]) -> list[int]:
    """The surprise cards in ``seat``'s hand played at one of ``moments`` (R-8.5)."""
    return [n for n in hand_of(s, seat) if fits(pack, n, moments)]


def in_turn_order(s: State, seats: Any) -> list[str]:
    """``seats`` in turn order from the seat whose player-turn it is (R-6.5): the order
    in which two seats' surprise cards at one moment are played [D]."""
    order = list(s.get("turn_order") or SEATS)
    if s.get("active") in order:
        i = order.index(s["active"])
        order = order[i:] + order[:i]
    return [x for x in order if x in seats]


def _order_matches(pack: Pack, s: State, seat: str, o: dict[str, Any], space: str | None,
                   enemy: str | None) -> bool:
    """A standing surprise order's filters: ``army`` (a general of the seat, or a space)
    is the army at ``space``; ``against`` lists ``enemy``."""
    army = o.get("army")
    if army:
        gid = resolve_general(pack, army)
        where = (s["generals"].get(gid) or {}).get("space") if gid else resolve_space(pack, army)[0]
        if where != space:
            return False
    against = o.get("against")
    return not against or enemy in against


def candidates(ctx: Ctx, seat: str, moment: str, pledged: list[int] | None,
               space: str | None = None, enemy: str | None = None
               ) -> Iterator[tuple[int, str]]:
    """``(card, source)`` of ``seat``'s plays at ``moment``, in order: the cards it
    pledged (source ``orders``), then its standing orders for the moment whose filters
    match (source ``standing``); only cards still in its hand that fit the moment."""
    pack, s = ctx.pack, ctx.s
    seen: set[int] = set()
    for n in pledged or []:
        if n in hand_of(s, seat) and fits(pack, n, (moment,)) and n not in seen:
            seen.add(n)
            yield n, "orders"
    for o in list(standing_orders(s, seat)):
        n = o.get("play")
        if o.get("when") == moment and n in hand_of(s, seat) and n not in seen \
                and fits(pack, n, (moment,)) and _order_matches(pack, s, seat, o, space, enemy):
            seen.add(n)
            yield n, "standing"


def find_play(ctx: Ctx, seat: str, moment: str, pledged: list[int] | None,
              space: str | None = None, enemy: str | None = None) -> tuple[int, str] | None:
    """The first of :func:`candidates`, or None."""
    return next(candidates(ctx, seat, moment, pledged, space, enemy), None)


def play(ctx: Ctx, seat: str, card: int, moment: str, space: str | None,
         source: str) -> Effect:
    """R-8.5: ``seat`` plays surprise card ``card`` at ``moment`` in ``space``: it leaves
    the hand to the discard pile, face up (``SurprisePlayed``, public; the standing orders
    that would have played it go with it), and a replacement is drawn at once
    (``CardDrawn``, private). Returns the card's effect, for the caller to carry out.
    In a check (dry dice) a card another seat plays counts like a die: what follows is
    checked leniently, so no refusal tells the mover about another seat's hand."""
    c = ctx.pack.cards[card]
    ctx.emit("SurprisePlayed", {"seat": seat, "card": card, "name": c.name, "moment": moment,
                                "space": space, "source": source, "rule": "R-8.5"})
    ctx.draw(seat, 1, "R-8.5")
    if ctx.dry and seat != ctx.s.get("active"):
        ctx.hidden_choice()
    eff = surprise_effect(ctx.pack, card)
    assert eff is not None, card
    return eff


def end_segment(ctx: Ctx) -> None:
    """R-11.2: the segment is over: the prestige surprise cards gave commanders until
    its end lapses (``PrestigeBonusEnded``; nothing when none was given)."""
    given = (ctx.s.get("court") or {}).get("prestige") or []
    if given:
        ctx.emit("PrestigeBonusEnded", {"generals": sorted({b["general"] for b in given}),
                                        "rule": "R-11.2"})


Outcome = Callable[[dict[str, int]], Any]
"""What a comparison of legitimacy decides, from each side's legitimacy."""


def prestige_moment(ctx: Ctx, space: str, sides: dict[str, bool], outcome: Outcome,
                    pledges: dict[str, list[int]] | None = None,
                    enemy: dict[str, str] | None = None) -> None:
    """R-11.2, R-8.5: legitimacy is about to be compared in ``space`` between ``sides``
    (``{seat: defending}``; :func:`pbem.rules.core.armies.side_legitimacy`). Each side
    commanded by a major general may play a ``prestige_bonus`` card (pledged or by
    standing order) when the card's amount would change ``outcome``; the seats in turn
    order, a second round for an answer, each seat once [D]. Events: ``SurprisePlayed``,
    ``PrestigeRaised`` (the bonus lasts until the end of the segment, :func:`end_segment`).
    ``enemy``: the other party of each side, for the orders' ``against`` filter."""
    pack, s = ctx.pack, ctx.s
    done: set[str] = set()
    for _ in range(2):
        fired = False
        for seat in in_turn_order(s, sides):
            cmd = commander(pack, s, seat, space)
            if seat in done or not cmd or cmd == "minor":
                continue
            now = {x: side_legitimacy(pack, s, x, space, d) for x, d in sides.items()}
            other = (enemy or {}).get(seat) or next((x for x in sides if x != seat), None)
            for n, source in candidates(ctx, seat, "prestige", (pledges or {}).get(seat),
                                        space, other):
                amount = int(surprise_effect(pack, n).params.get("amount", 0))
                if outcome({**now, seat: now[seat] + amount}) == outcome(now):
                    continue
                play(ctx, seat, n, "prestige", space, source)
                ctx.emit("PrestigeRaised", {"seat": seat, "card": n, "general": cmd,
                                            "amount": amount, "space": space,
                                            "rule": "R-11.2"})
                done.add(seat)
                fired = True
                break
        if not fired:
            return


MOMENT_NAMES = {
    "move": N_("at the start of one of your moves (+MPs)"),
    "siege": N_("in a siege you conduct (siege points)"),
    "battle_roll": N_("after your battle dice (a re-roll)"),
    "prestige": N_("when legitimacy is compared (prestige)"),
    "naval_landing": N_("against another seat's naval move (cancel it)"),
    "interception_check": N_("on your interception check"),
    "avoid_check": N_("on your avoid-battle check"),
    "tyche": N_("in your own Tyche segment, before your Tyche play (a Mutiny)"),
    "battle_start": N_("before a battle your army fights (a Mutiny against the other army)"),
}
"""What each moment is, for hints and the prompt (R-8.5)."""


def card_number(pack: Pack, value: Any) -> int | None:
    """A card given by number (``52``, ``"52"``, ``"#52"``) or by its printed name
    (case ignored), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        v = value.strip().lstrip("#")
        if v.isdecimal() and len(v) < 6:
            return int(v)
        key = value.strip().lower()
        return next((n for n, c in pack.cards.items() if c.name.lower() == key), None) \
            or pack_names.lookup(pack, "cards", value)  # a name in another language (issue 28)
    return None


def read_cards(pack: Pack, s: State, seat: str, raw: Any, moments: tuple[str, ...],
               where: str, rej: list[Any], *, in_hand: bool = True) -> list[int]:
    """R-8.5: surprise cards named in orders (one card or a list, by number or name),
    each a surprise card of ``seat``'s hand (``in_hand``) played at one of ``moments``,
    at most one per moment, each once. Problems go to ``rej``:
    ``surprise.not_a_card``, ``surprise.not_in_hand``, ``surprise.not_a_surprise``,
    ``surprise.wrong_moment``, ``surprise.duplicate``. Messages and hints name only the
    seat's own hand."""
    from_hand = playable(pack, s, seat, moments)
    fit = ("yours that fit here: " + ", ".join(f"#{n} {pack.cards[n].name}" for n in from_hand)
           if from_hand else "none of your surprise cards fits here")
    items = raw if isinstance(raw, list) else [raw]
    out: list[int] = []
    used: set[str] = set()
    for i, v in enumerate(items):
        w = f"{where}[{i}]" if isinstance(raw, list) else where
        n = card_number(pack, v)
        if n is None or n not in pack.cards:
            near = name_hint(v, pack.cards, pack=pack) if isinstance(v, str) else None
            reject(rej, "surprise.not_a_card", f"{v!r} is no card", w,
                   (f"{near} " if near else "") + "give a surprise card by its number, "
                   "e.g. 52; " + fit)
            continue
        if in_hand and n not in hand_of(s, seat):
            reject(rej, "surprise.not_in_hand", f"card {n} is not in your hand", w, fit)
            continue
        if pack.cards[n].type != "surprise":
            reject(rej, "surprise.not_a_surprise",
                   f"#{n} {pack.cards[n].name} is not a surprise card", w,
                   "play it in your Tyche segment (tyche: {card: N, ...}); " + fit)
            continue
        got = [m for m in moments_of(pack, n) if m in moments]
        if not got:
            can = "; ".join(MOMENT_NAMES[m] for m in moments_of(pack, n)) or "never"
            reject(rej, "surprise.wrong_moment",
                   f"#{n} {pack.cards[n].name} is not played here: it is played {can}", w,
                   fit)
            continue
        if n in out or any(m in used for m in got):
            reject(rej, "surprise.duplicate", f"#{n} {pack.cards[n].name} is named twice, or "
                   "with another card for the same moment", w, "name each card once, "
                   "one card per moment")
            continue
        used.update(got)
        out.append(n)
    return out
