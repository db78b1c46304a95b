"""No report or prompt ever shows another seat's hand (ARCHITECTURE.md "Reports").

Plays ``GAMES`` random games with the real data pack (every seat ``rules.bot_orders``)
for up to ``STEPS`` steps each; after every step it renders the report for every seat,
the prompt for every pending decision and the public report (text and HTML), and checks
that no card held by another seat, and not public (discarded, played or named in a
public event), appears as ``#N`` or by its name. The map snapshot SVG is checked the same
way every few steps. Tune with ``PBEM_LEAK_GAMES`` / ``PBEM_LEAK_STEPS``.
"""
from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterable

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.report import build, snapshot
from pbem.rules.dice import Dice

GAMES = int(os.environ.get("PBEM_LEAK_GAMES", "100"))
STEPS = int(os.environ.get("PBEM_LEAK_STEPS", "12"))
SEATS_ROWS = [{"seat": s, "player": f"Player {s.title()}"} for s in rules.SEATS]
STATS: dict[str, float] = {}


def _cards_named(events: Iterable[rules.Event]) -> set[int]:
    """Card numbers mentioned by public events (played, discarded, shown)."""
    out: set[int] = set()
    for e in events:
        if not e.public:
            continue
        for key in ("card", "cards"):
            v = e.data.get(key)
            if isinstance(v, int):
                out.add(v)
            elif isinstance(v, list):
                out.update(x for x in v if isinstance(x, int))
    return out


def _card_names(pack) -> dict[int, str]:
    """Card number -> name, with an empty name (checked by number only) for cards named
    like a general, royal, space, province or independent army, or like another card
    (the three Unrest cards)."""
    other = [x.name for group in (pack.generals, pack.royals, pack.spaces, pack.provinces,
                                  pack.independent_armies) for x in group.values()]
    counts: dict[str, int] = {}
    for c in pack.cards.values():
        counts[c.name] = counts.get(c.name, 0) + 1
    return {n: "" if counts[c.name] > 1 or any(c.name in o or o in c.name for o in other) else c.name
            for n, c in pack.cards.items()}


_NUMBER = re.compile(r"(?<!&)#(\d+)\b")  # "&#39;" is an HTML escape, not a card


def _check(text: str, forbidden: set[int], names: dict[int, str], public_text: str, where: str) -> None:
    shown = {int(m) for m in _NUMBER.findall(text)} & forbidden
    assert not shown, f"{where}: card(s) {sorted(shown)} of another seat's hand are shown"
    for n in forbidden:
        name = names[n]
        if name and name not in public_text:
            assert name not in text, f"{where}: card {name!r} (#{n}) of another seat's hand is shown"


def test_no_report_or_prompt_shows_another_seats_hand() -> None:
    pack = load_pack()
    names = _card_names(pack)
    started = time.perf_counter()
    renders = steps = 0
    for game in range(GAMES):
        seed = f"leak-{game}".encode()
        rng = random.Random(game)
        state, events = rules.new_game(pack, seed, {})
        public: set[int] = set(state.peek()["discards"]) | set(state.peek()["removed"])
        before = {s: set(h) for s, h in {x: p["hand"] for x, p in state.private.items()}.items()}
        for step in range(STEPS + 1):
            public |= _cards_named(events) | set(state.peek()["discards"]) | set(state.peek()["removed"])
            hands = {s: set(h) | before.get(s, set()) for s, h in {x: p["hand"] for x, p in state.private.items()}.items()}
            common = {"game_id": f"leak-{game}", "step": step, "seats": SEATS_ROWS, "headline": "test",
                          "seed_commitment": "0" * 64}
            pub = build.render_report(pack, state, events, seat=None, **common)
            every = {n for h in hands.values() for n in h} - public
            _check(pub.text + pub.html, every, names, "", f"game {game} step {step} public report")
            public_text = pub.text + pub.html
            if step % 6 == 0:
                svg = snapshot.svg(pack, state, events, "t")
                _check(svg, every, names, public_text, f"game {game} step {step} map")
            for seat in rules.SEATS:
                others = {n for s, h in hands.items() if s != seat for n in h} - public
                rep = build.render_report(pack, state, events, seat=seat, **common)
                _check(rep.text + rep.html, others, names, public_text, f"game {game} step {step} report {seat}")
                renders += 1
            for decision in rules.pending(state):
                others = {n for s, h in hands.items() if s != decision.seat for n in h} - public
                text, html = build.render_prompt(pack, state, decision, game_id=f"leak-{game}", seat_row=SEATS_ROWS[0],
                                                 deadline="2030-01-01 00:00 UTC", seats=SEATS_ROWS)
                _check(text + html, others, names, public_text, f"game {game} step {step} prompt {decision.seat}")
                raw = [m for m in ("{'", "['", "{&#39;", "[&#39;") if m in text + html]
                assert not raw, f"game {game} step {step} prompt {decision.seat}: raw data {raw} in the prompt"
                renders += 1
            renders += 1
            pending = rules.pending(state)
            if not pending or step == STEPS:
                break
            before = {s: set(h) for s, h in {x: p["hand"] for x, p in state.private.items()}.items()}
            d = pending[0]
            state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, state.step))
            steps += 1
    STATS.update(games=GAMES, steps=steps, renders=renders, seconds=time.perf_counter() - started)
    print(f"\nleak test: {GAMES} games, {steps} steps, {renders} renders, {STATS['seconds']:.1f} s")
    assert renders > GAMES * 4


def test_the_check_catches_a_leak() -> None:
    """The checker itself: a hand card of another seat in a text is reported."""
    pack = load_pack()
    state, _events = rules.new_game(pack, b"leak-self-test", {})
    d = rules.pending(state)[0]  # the turn order is named before the deal
    state, _events = rules.apply(state, d.seat, d.default, Dice(b"leak-self-test", state.step))
    hands = {x: p["hand"] for x, p in state.private.items()}
    card = hands["east"][0]
    text = build.render_prompt(pack, state, rules.pending(state)[0], game_id="g", seat_row=SEATS_ROWS[0],
                               deadline="d", seats=SEATS_ROWS)[0]
    leaked = text + f"\nby the way east holds #{card}\n"
    names = {n: c.name for n, c in pack.cards.items()}
    try:
        _check(leaked, {card}, names, "", "self-test")
    except AssertionError:
        return
    raise AssertionError("the leak check missed a leaked card")
