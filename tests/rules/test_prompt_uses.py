"""The prompt offers only what the check accepts (issue 24.6): every use the prompt lists
for a card (``legal_options`` -> ``hand[].uses``, shown as "Uses now" by pbem/report)
can be written so that the check accepts it, in random positions of real-pack games;
a surprise card is offered no use (R-8.5: it is discarded under ``surprise_discards``
or played at its moment, never the Tyche play)."""
from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.report.context import hand_rows
from pbem.rules.bots.cards import add_event_fields
from pbem.rules.cards.legitimacy import LEGITIMACY_FIELDS
from pbem.rules.cards.royals import ROYAL_FIELDS
from pbem.rules.core.board import info
from pbem.rules.dice import Dice

GAMES = int(os.environ.get("PBEM_PROMPT_GAMES", "6"))


def steps(pack: Any, opts: dict) -> Iterator[dict]:
    """One-step moves of the seat's armies (a space id as the army)."""
    for a in opts["armies"]:
        for y, _kind in info(pack).adjacent.get(a["space"], ()):
            yield {"army": a["space"], "path": [y]}


def ways(pack: Any, opts: dict, card: int, use: str, rng: random.Random) -> Iterator[dict]:
    """Tyche orders that play ``card`` for ``use``, filled from the legal options."""
    base = {"card": card, "use": use}
    c = pack.cards[card]
    if use in ("discard", "activate", "event"):
        yield dict(base)
    if use == "garrisons":
        yield {**base, "places": opts["garrison_spaces"][:1]}
    elif use == "train":
        for unit in ("phalangite", "auxiliary"):
            for ops in range(c.ops or 0, 0, -1):
                yield {**base, "train": [{"unit": unit, "ops": ops}]}
    elif use == "upgrade_fleet":
        yield {**base, "fleet": opts["fleet_upgrades"][0]}
    elif use == "activate":
        for mv in steps(pack, opts):
            yield {**base, **mv}
    elif use == "event" and any(e.primitive == "move_armies" for e in c.effects):
        for mv in steps(pack, opts):
            yield {**base, "moves": [mv]}
    elif use == "event":
        for _ in range(12):
            ty = dict(base)
            add_event_fields(opts, card, ty, rng)
            for key, fld in {**ROYAL_FIELDS, **LEGITIMACY_FIELDS}.items():
                choices = (opts.get(key) or {}).get(str(card))
                if choices and fld not in ty:
                    ty[fld] = rng.choice(choices)
            yield ty


@pytest.mark.parametrize("game", range(GAMES))
def test_every_use_the_prompt_offers_is_accepted(game: int) -> None:
    pack = load_pack()
    seed = f"prompt-uses-{game}".encode()
    state, _ = R.new_game(pack, seed, {"ask_windows": True, "bot_inside": True}
                          if game % 2 else None)
    rng, frng = random.Random(game), random.Random(100 + game)
    refused, offered, surprises = [], 0, 0
    while R.pending(state):
        d = R.pending(state)[0]
        if d.kind == "player_turn":
            opts = R.legal_options(state, d.seat)
            rows = {r["number"]: r for r in hand_rows(pack, opts, state.private[d.seat]["hand"])}
            for h in opts["hand"]:
                if h["type"] == "surprise":
                    surprises += 1
                    assert h["uses"] == [] and rows[h["card"]]["uses"] == [], h
                    assert "surprise_discards" in rows[h["card"]]["text"]
                for use in h["uses"]:
                    offered += 1
                    tried = []
                    for ty in ways(pack, opts, h["card"], use, frng):
                        orders = {"tyche": ty} if opts["tyche_only"] else {
                            "tyche": ty, "movement": "none"}
                        tried = R.validate(state, d.seat, orders)
                        if not tried:
                            break
                    if tried:
                        refused.append(f"step {state.step} #{h['card']} {use}: "
                                       f"{[p.code for p in tried]} {tried[0].message}")
        state, _ = R.apply(state, d.seat, R.bot_orders(state, d.seat, rng),
                           Dice(seed, state.step))
    assert offered > 200 and surprises > 0, (offered, surprises)
    assert not refused, f"{len(refused)} of {offered} offered uses refused:\n" + "\n".join(refused[:10])
