"""Legal options computed only as far as they are read (issue 27 item 5, fourth pass):
:class:`pbem.rules.core.lazy.LazyOptions` gives every reader the plain dict of before,
and computes nothing nobody reads."""
from __future__ import annotations

import json
import random

import pytest

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.rules.bots.random import candidate_orders
from pbem.rules.core.lazy import LazyOptions
from pbem.rules.engine import pack_of
from pbem.rules.orders import movement, reinforcements, surrender, tyche
from pbem.rules.phases import player_turn
from rules_harness import bot_steps

PACK = load_pack(None)


def _player_turns(seed: bytes, decisions: int) -> list[rules.GameState]:
    """The states of a random real-pack game where a player-turn is due."""
    return [state for state, d, _new, _events in bot_steps(PACK, seed, seed, decisions)
            if d.kind == "player_turn"]


STATES = _player_turns(b"lazy-options", 120)


def test_the_options_read_in_any_order_are_the_same_plain_dict() -> None:
    """R-8: every key of a player-turn's options, read first to last or last to first
    (each key's value computed on its first read), gives the same JSON, keys in the
    prompt's order; ``==`` and ``dict`` see it as that dict."""
    assert len(STATES) > 20
    for state in STATES[::3]:
        for seat in rules.SEATS:
            s = state.peek()
            forward = player_turn.player_turn_options(PACK, s, seat)
            backward = player_turn.player_turn_options(PACK, s, seat)
            for key in reversed(list(backward)):
                backward[key]  # noqa: B018 - the read computes it
            assert isinstance(forward, LazyOptions)
            assert json.dumps(dict(forward)) == json.dumps(dict(backward))
            assert list(forward)[:6] == ["seat", "step", "round", "active", "tyche_only", "hand"]
            assert forward == dict(backward) and dict(backward) == forward


def test_one_cards_part_is_its_hand_entry_and_event_choices() -> None:
    """R-8.2 … R-8.6, R-16: the parts the random bot reads (``playable``, ``card(n)``,
    ``event_choices(n)``) are what ``hand`` and the event keys list for that card."""
    seen = 0
    for state in STATES:
        seat = state.active
        lazy = rules.legal_options(state, seat)
        plain = dict(player_turn.player_turn_options(PACK, state.peek(), seat))
        assert lazy.part("playable") == [h["card"] for h in plain["hand"]
                                         if h["type"] != "surprise"]
        for n in reversed([h["card"] for h in plain["hand"]]):
            entry = next(h for h in plain["hand"] if h["card"] == n)
            assert lazy.part("card", n) == entry
            choices = {k: v[str(n)] for k, v in plain.items()
                       if isinstance(v, dict) and str(n) in v}
            assert lazy.part("event_choices", n) == choices
            seen += len(choices)
    assert seen > 0


def test_nothing_is_computed_before_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27 item 5: the decision of :func:`rules.pending` and the seat's options
    compute no garrison space, pick-up, mercenary space, surrender or fleet until a
    reader asks for that key, and one card's entry computes no other card's."""
    calls: list[str] = []

    def counted(name: str, real):  # noqa: ANN001, ANN202
        def wrapper(*a, **k):  # noqa: ANN002, ANN003, ANN202
            calls.append(name)
            return real(*a, **k)
        return wrapper

    for mod, name in ((tyche, "legal_garrison_spaces"), (tyche, "upgradable_fleets"),
                      (tyche, "event_choices"), (movement, "pick_up_options"),
                      (movement, "placement_targets"), (surrender, "options")):
        monkeypatch.setattr(mod, name, counted(name, getattr(mod, name)))
    for state in STATES:
        fresh = rules.GameState.adopt(state.to_dict(), pack_of(state))
        decision = rules.pending(fresh)[0]
        assert calls == []
        opts = decision.options
        assert opts["tyche_only"] in (True, False) and calls == []
        opts["mercenary_spaces"]  # noqa: B018 - the read computes it
        assert calls == (["placement_targets"] if opts["active"] and not opts["tyche_only"]
                         else [])
        calls.clear()
        if opts.part("playable"):
            opts.part("card", opts.part("playable")[0])
        assert "pick_up_options" not in calls and calls.count("event_choices") <= 1
        calls.clear()


def test_the_random_bot_draws_the_same_from_lazy_and_plain_options() -> None:
    """R-8: a random candidate from the lazy options (one card's parts) is the one the
    plain dict of the same options gives, draw for draw."""
    for state in STATES:
        seat, pack = state.active, pack_of(state)
        for k in range(4):
            lazy = player_turn.player_turn_options(pack, state.peek(), seat)
            plain = dict(player_turn.player_turn_options(pack, state.peek(), seat))
            a, b = random.Random(k), random.Random(k)
            assert candidate_orders(pack, state, lazy, a) == candidate_orders(pack, state, plain, b)
            assert a.random() == b.random()


def test_a_broken_value_is_not_a_missing_key() -> None:
    """A value whose computation fails with ``KeyError`` raises ``RuntimeError`` (so
    ``.get`` does not answer the default for a key that is there); a key that is not
    there is a ``KeyError`` (``.get`` gives the default); ``json.dumps`` wants ``dict``."""
    opts = LazyOptions({"a": lambda: 1, "b": lambda: {}["x"]})
    assert opts.get("zzz", 7) == 7 and "zzz" not in opts and "b" in opts
    with pytest.raises(RuntimeError, match="'b'"):
        opts.get("b")
    assert opts["a"] == 1 and len(opts) == 2 and list(opts) == ["a", "b"]
    with pytest.raises(TypeError):
        json.dumps(LazyOptions({"a": lambda: 1}))
    assert json.dumps(dict(LazyOptions({"a": lambda: 1}))) == '{"a": 1}'


def _reinforcement_states() -> list[rules.GameState]:
    """States of random real-pack games where a reinforcement decision is due (R-7.2)."""
    out = []
    for seed in (b"late-default", b"late-default-2"):
        for state, d, _new, _events in bot_steps(PACK, seed, seed, 200):
            if len(out) >= 6:
                break
            if d.kind == "reinforcements":
                out.append(rules.GameState.adopt(state.to_dict(), pack_of(state)))
    return out


def test_the_reinforcement_default_is_placed_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-7.2, issue 27 item 5: :func:`rules.pending` for a reinforcement decision runs
    the deadline placement only when ``default`` is read, then once; the value is the
    engine's placement, in ``to_dict`` too; the options are the seat's legal options."""
    states = _reinforcement_states()
    assert states
    calls = []
    real = reinforcements.auto_placement

    def counted(*a, **k):  # noqa: ANN002, ANN003, ANN202
        calls.append(a[2])
        return real(*a, **k)

    monkeypatch.setattr(reinforcements, "auto_placement", counted)
    for state in states:
        calls.clear()
        d = rules.pending(state)[0]
        assert d.kind == "reinforcements" and calls == []
        assert d.options is rules.legal_options(state, d.seat)
        want = reinforcements.default(PACK, state.peek(), d.seat)
        calls.clear()
        assert d.default == want and d.default is d.default and calls == [d.seat]
        assert d.to_dict()["default"] == want and d.to_dict()["options"] == dict(d.options)
