"""Every order kind (pbem/rules/orders/) has the same four functions, read, options, check
and execute; over real bot games, reading and checking each part of the accepted orders
gives a plan, and each kind's options are plain data."""
from __future__ import annotations

import importlib
import inspect
import json
import random
from pathlib import Path

from rules_harness import started_game

import pbem.rules as R
from pbem.pack.loader import load_pack
from pbem.rules.dice import Dice
from pbem.rules.orders.common import plan_of

ORDERS = Path(__file__).resolve().parents[2] / "pbem" / "rules" / "orders"
KINDS = sorted(p.stem for p in ORDERS.glob("*.py") if p.stem not in ("__init__", "common")
               and not p.stem.startswith("tyche_"))  # helpers of the Tyche kind
SEGMENTS = ("commanders", "standing", "outside", "inside", "heir", "surrender", "tyche",
            "burial")


def _kind(name: str):
    return importlib.import_module(f"pbem.rules.orders.{name}")


def test_every_kind_has_the_four_functions() -> None:
    assert set(SEGMENTS) | {"movement", "reactions", "reinforcements", "turn_order"} == set(KINDS)
    for name in KINDS:
        mod = _kind(name)
        for fn in ("read", "options", "check", "execute"):
            f = getattr(mod, fn, None)
            assert callable(f), f"{name}.{fn}"
            assert inspect.getdoc(f), f"{name}.{fn} has no docstring"
        params = list(inspect.signature(mod.check).parameters)
        assert params[:6] == ["pack", "s", "seat", params[3], "where", "rej"], (name, params)
        assert "soft" in params, name


def test_accepted_orders_read_and_check_to_a_plan() -> None:
    pack = load_pack()
    seen: set[str] = set()
    for g in range(3):
        seed = f"kinds-{g}".encode()
        state, _ = R.new_game(pack, seed, {"bot_inside": True})
        rng = random.Random(g)
        while R.pending(state):
            d = R.pending(state)[0]
            orders = R.bot_orders(state, d.seat, rng)
            s = state.peek()
            for name in (*SEGMENTS, "movement"):
                json.dumps(_kind(name).options(pack, s, d.seat))
            if d.kind == "player_turn":
                for name in SEGMENTS:  # the first segments see the position as it is
                    if name in orders and name in ("commanders", "standing", "outside",
                                                   "heir"):
                        rej: list = []
                        plan = plan_of(_kind(name), pack, s, d.seat, orders[name],
                                       f"orders.{name}", rej)
                        assert rej == [] and plan is not None, (name, orders[name], rej)
                        seen.add(name)
            state, _ = R.apply(state, d.seat, orders, Dice(seed, state.step))
    assert "standing" in seen


def test_a_kind_reports_what_it_cannot_read() -> None:
    pack = load_pack()
    state, _ = started_game(pack, b"kinds-read")
    s, seat = state.peek(), state.active
    for name, bad, code in (("commanders", [1], "commanders.not_a_mapping"),
                            ("surrender", "Tarsus", "surrender.not_a_mapping"),
                            ("tyche", 12, "tyche.not_a_mapping"),
                            ("standing", "ambush", "standing.not_a_list"),
                            ("inside", ["Babylon"], "inside.not_a_mapping"),
                            ("movement", 7, "movement.unknown")):
        rej: list = []
        assert plan_of(_kind(name), pack, s, seat, bad, f"orders.{name}", rej) is None
        assert [p.code for p in rej] == [code], (name, rej)
