"""Surprise cards played at their moment (R-8.5): what the prompt lists, what stays
secret (standing orders, cards named for later moments, a seat's hand behind a window),
that a surprise play is not the Tyche play, and that the bots play them in random games.
The scenarios ``tests/rules/scenarios/r8_5_*.yaml`` show each card's effect."""
from __future__ import annotations

import random

from rules_harness import ScriptedThenReal, position

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.report.context import option_lines
from pbem.rules.dice import Dice
from pbem.rules.resolve.surprises import MOMENTS

PACK = load_pack()


def _battle_position(east_hand: list[int], standing: list[dict] | None = None,
                     ask: bool = False):
    """North's Ptolemy next to east's garrison of Gaza (3 loyal CUs, no general)."""
    spec = {"garrisons": {"gaza": "east"},
            "generals": {"ptolemy": {"seat": "north", "where": "map", "space": "pelusium"}},
            "cus": {"pelusium": {"north": {"loyal": 2}}, "gaza": {"east": {"loyal": 3}}},
            "hands": {"north": [27, 47, 48], "east": east_hand}, "deck": [31, 32, 33]}
    if ask:
        spec["options"] = {"ask_windows": True}
    if standing:
        spec["war"] = {"sieges": {}, "fleets": {}, "pause": None,
                       "standing": {"east": standing}}
    return position(PACK, spec)


def test_the_pack_surprise_cards_all_have_a_moment() -> None:
    """Every surprise card of the pack has an effect the engine plays at a moment (R-8.5),
    with the parameters the pack declares (no number from a printed card in code)."""
    surprises = {n: c for n, c in PACK.cards.items() if c.type == "surprise"}
    assert sorted(surprises) == [16, 47, 48, 49, 50, 51, 52]  # #16 Mutiny: seed 004
    for n, c in surprises.items():
        assert [e.primitive for e in c.effects if e.primitive in MOMENTS], n


def test_the_prompt_lists_the_surprise_cards_and_how_to_play_them() -> None:
    """R-8.5: the player-turn options list each surprise card of the hand with its
    moments and the orders that play it; the prompt says them in words."""
    state = _battle_position([30])
    opts = R.legal_options(state, "north")
    rows = {r["card"]: r for r in opts["surprise_plays"]}
    assert sorted(rows) == [47, 48]
    assert rows[48]["moments"] == ["move"] and "surprise: [48]" in rows[48]["how"][0]
    assert rows[47]["moments"] == ["prestige"]
    assert "{when: prestige, play: 47}" in rows[47]["how"][0]
    lines = option_lines(PACK, opts)
    labels = [line["label"] for line in lines]
    assert any("#48 Forced March" in x and "may be played" in x for x in labels), labels
    # another seat's options never list north's cards
    assert R.legal_options(state, "east")["surprise_plays"] == []


def test_a_window_lists_the_cards_that_fit_it() -> None:
    """R-8.5: a window's private options list the answering seat's cards that fit its
    moments (``surprises``), and the prompt line names them."""
    state = _battle_position([30, 52, 49], ask=True)
    state, _ = R.apply(state, "north", {"tyche": {"card": 27, "use": "discard"},
                                        "movement": [{"army": "Ptolemy", "path": ["Gaza"]}]},
                       Dice(b"w", state.step))
    (d,) = R.pending(state)
    assert (d.seat, d.kind) == ("east", "surprise")
    assert [r["card"] for r in d.options["surprises"]] == [52]  # 49 is no battle card
    assert d.default == {"surprise": "none"}
    text = " ".join(" ".join(line["items"]) for line in option_lines(PACK, d.options))
    assert "#52 Fortune of War" in text


def test_the_surprise_window_opens_whatever_the_hand_holds() -> None:
    """Secrets (R-8.5): the surprise window opens on public facts (a battle in another
    seat's turn, a hand that is not empty), so the public events are the same whether the
    defender holds a surprise card or not."""
    orders = {"tyche": {"card": 27, "use": "discard"},
              "movement": [{"army": "Ptolemy", "path": ["Gaza"]}]}
    seen = []
    for hand in ([30, 52], [30, 28]):  # Fortune of War, or no surprise card
        state = _battle_position(hand, ask=True)
        _, events = R.apply(state, "north", orders, Dice(b"w", state.step))
        seen.append([(e.kind, dict(e.data)) for e in events if e.public])
    assert seen[0] == seen[1]
    assert any(k == "ReactionWindowOpened" and d["kind"] == "surprise" for k, d in seen[0])


def test_standing_surprise_orders_and_pledges_stay_secret() -> None:
    """Secrets (R-8.5): another seat's view and options do not change with east's standing
    surprise orders; a card the mover named for a later moment that did not come is not in
    the public orders (``OrdersApplied``), and a fired standing order shows only as the
    card played."""
    plain = _battle_position([30, 52])
    secret = _battle_position([30, 52], standing=[{"when": "battle_roll", "play": 52}])
    assert R.view(plain, "north") == R.view(secret, "north")
    assert R.view(plain, None) == R.view(secret, None)
    assert R.view(secret, "east")["private"]["standing"] == [{"when": "battle_roll",
                                                              "play": 52}]
    orders = {"tyche": {"card": 27, "use": "discard"},
              "movement": [{"army": "Ptolemy", "path": ["Gaza"], "surprise": [47]}]}
    # no royal CUs: north's Orator's Gift stays in its hand, unseen; east's re-roll fires
    _, events = R.apply(secret, "north", orders, ScriptedThenReal([6, 6, 1, 1, 6, 6]))
    applied = next(e for e in events if e.kind == "OrdersApplied")
    assert applied.public and "surprise" not in str(applied.data["orders"])
    played = [e for e in events if e.kind == "SurprisePlayed"]
    assert [(e.data["seat"], e.data["card"], e.data["source"]) for e in played] == [
        ("east", 52, "standing")]
    assert all(e.public for e in played)
    drawn = [e for e in events if e.kind == "CardDrawn"]
    assert drawn and all(not e.public and e.seat == "east" for e in drawn)


def test_a_surprise_play_is_not_the_tyche_play() -> None:
    """R-8.5: playing a surprise card does not count as the mandatory Tyche play."""
    state = _battle_position([30])
    rej = R.validate(state, "north", {"movement": [{"army": "Ptolemy", "path": ["Gaza"],
                                                    "surprise": [48]}]})
    assert [r.code for r in rej] == ["tyche.missing"]


def test_random_bots_play_surprise_cards() -> None:
    """The random bots play surprise cards (own turn, standing orders, window answers),
    so the random playouts exercise them: over sixteen real-pack games several cards are
    played, each with its replacement drawn."""
    played: dict[int, int] = {}
    for g in range(16):
        seed = f"surprise-bots-{g}".encode()
        state, _ = R.new_game(PACK, seed, {"ask_windows": bool(g % 2), "bot_inside": True})
        rng = random.Random(g)
        while R.pending(state):
            d = R.pending(state)[0]
            state, events = R.apply(state, d.seat, R.bot_orders(state, d.seat, rng),
                                    Dice(seed, state.step))
            for i, e in enumerate(events):
                if e.kind == "SurprisePlayed":
                    played[e.data["card"]] = played.get(e.data["card"], 0) + 1
                    assert events[i + 1].kind in ("CardDrawn", "DeckShuffled")
    assert len(played) >= 3, played
