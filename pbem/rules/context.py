"""The resolution context: a working dict, the pack, the dice and the events emitted.

Every change goes through :meth:`Ctx.emit` (reduce + record), every roll through
:meth:`Ctx.roll` (which records a ``DiceRolled`` event), so a log replays exactly.
"""
from __future__ import annotations

from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.control import fleet_owner
from pbem.rules.core.events import kind_of, reduce
from pbem.rules.core.state import Event, deck
from pbem.rules.dice import Dice, Roll


class DryDice(Dice):
    """Dice used while validating: every die shows 1 and nothing is recorded upstream."""

    def __init__(self) -> None:
        super().__init__(seed=b"dry", step=-1)

    def roll(self, count: int, purpose: str, rule: str, sides: int = 6) -> Roll:
        """Return ``count`` ones."""
        return Roll(-1, 0, (1,) * count, purpose, rule)


class Ctx:
    """Holds ``pack``, the working dict ``s``, ``dice`` and the ``events`` so far."""

    def __init__(self, pack: Pack, s: dict[str, Any], dice: Dice):
        self.pack = pack
        self.s = s
        self.dice = dice
        self.events: list[Event] = []
        self.rolled = False  # a die was rolled: later checks cannot be known in advance

    def emit(self, kind: str, data: dict[str, Any]) -> Event:
        """Reduce an event into ``s`` and record it; then, when an upgraded fleet has
        changed hands, record ``FleetUpgradeLost`` (R-15).

        ``kind`` must be declared in the event catalogue with exactly the fields of
        ``data`` (:mod:`pbem.rules.core.events`; raises ``UndeclaredEvent`` or
        ``EventShapeError``); who may see the event comes from its kind: everyone, only
        the seat in ``data["seat"]``, or nobody but the judge."""
        k = kind_of(kind)
        k.check(data)
        ev = Event(kind, data, k.seen_by == "all", data["seat"] if k.seen_by == "seat" else None)
        reduce(self.s, ev)
        self.events.append(ev)
        fleets = (self.s.get("war") or {}).get("fleets") or {}
        if kind != "FleetUpgradeLost" and any(f.get("upgrade") for f in fleets.values()):
            drop_lost_upgrades(self)
        return ev

    def roll(self, count: int, purpose: str, rule: str, sides: int = 6) -> tuple[int, ...]:
        """Roll dice, record ``DiceRolled`` {purpose, rule, values, sides}; return values."""
        r = self.dice.roll(count, purpose, rule, sides)
        self.rolled = True
        self.emit("DiceRolled", {"purpose": purpose, "rule": rule,
                                 "values": list(r.values), "sides": sides})
        return r.values

    def shuffle(self, items: list[Any], purpose: str, rule: str) -> list[Any]:
        """Fisher–Yates shuffle with dice of ``n`` sides; returns the new list. The rolls
        are not logged one by one: the caller records the resulting order."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.dice.roll(1, purpose, rule, sides=i + 1).values[0] - 1
            out[i], out[j] = out[j], out[i]
        return out

    def draw(self, seat: str, count: int, rule: str, kind: str = "CardDrawn") -> list[int]:
        """Deal ``count`` cards from the deck to ``seat`` (private event); when the deck
        runs out, the discards are shuffled into a new deck first [D] (R-6.4)."""
        got: list[int] = []
        while len(got) < count:
            if not deck(self.s):
                if not self.s["discards"]:
                    break
                pile = list(self.s["discards"])
                order = self.shuffle(pile, "reshuffle the discards", "R-6.4")
                self.emit("DeckShuffled", {"deck": order, "from_discards": pile,
                                           "rule": "R-6.4"})
                self.emit("Note", {"text": "the Tyche deck ran out: discards reshuffled",
                                   "rule": "R-6.4"})
            take = list(deck(self.s)[:count - len(got)])
            got += take
            self.emit(kind, {"seat": seat, "cards": take, "rule": rule})
        return got


def drop_lost_upgrades(ctx: Ctx) -> None:
    """R-15: a fleet drops to its printed strength when it changes hands: every upgraded
    fleet whose owner is no longer the seat that upgraded it loses its upgrade (called
    after each event by :meth:`pbem.rules.context.Ctx.emit`). Event: FleetUpgradeLost."""
    pack, s = ctx.pack, ctx.s
    for fid, f in sorted(((s.get("war") or {}).get("fleets") or {}).items()):
        if not f.get("upgrade") or fid not in pack.fleets:
            continue
        owner = fleet_owner(pack, s, fid)
        if owner != f.get("owner"):
            ctx.emit("FleetUpgradeLost", {"fleet": fid, "seat": f.get("owner"),
                                          "owner": owner,
                                          "strength": pack.fleets[fid].strength,
                                          "rule": "R-15"})
