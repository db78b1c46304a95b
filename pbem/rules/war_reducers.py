"""Event reducers of movement, battle, sieges, fleets and independent armies (R-9 … R-15).

Registered with :func:`pbem.rules.reducers.reducer` on import (``pbem.rules.engine``
imports this module). Like every reducer they read only the event's data.

State used (``s["war"]``, a dict that defaults to empty)::

    sieges:   {space: {"seat": seat | "independent", "points": int}}       (R-10)
    standing: {seat: [standing order, ...]}                               (R-9.3)
    fleets:   {fleet_id: {"upgrade": int, "owner": seat|None, "dispersed_turn": int}}
    specials: {unit_id: "in_play" | "destroyed"}  (once a special unit entered, R-4.1;
              see pbem.rules.units)
    pause:    None | {"kind", "seat", "mover", "space", "options", "cursor"}  (ask window)
"""
from __future__ import annotations

from typing import Any

from pbem.rules.reducers import _REDUCERS, _add_cus, clip_inside, reducer

State = dict[str, Any]


def war(s: State) -> dict[str, Any]:
    """The ``war`` part of a working dict, created on first use."""
    w = s.get("war")
    if w is None:
        w = s["war"] = {}
    for k, v in (("sieges", {}), ("standing", {}), ("fleets", {}), ("pause", None)):
        w.setdefault(k, v)
    return w


def _lift_sieges(s: State, seat: str, space: str) -> None:
    w = war(s)
    sg = w["sieges"].get(space)
    if sg and sg["seat"] == seat and not sum(s["cus"].get(space, {}).get(seat, {}).values()):
        del w["sieges"][space]


@reducer("ArmyMoved")
def _army_moved(s: State, d: dict) -> None:
    seat, a, b = d["seat"], d["from"], d["to"]
    if d.get("cus"):
        _add_cus(s, seat, a, {t: -n for t, n in d["cus"].items()})
        _add_cus(s, seat, b, dict(d["cus"]))
    for g in d.get("generals", []):
        s["generals"][g]["space"] = b
    clip_inside(s, a)
    if d.get("minor"):
        s["minors"][seat].remove(a)
        if b not in s["minors"][seat]:
            s["minors"][seat].append(b)
    for r in d.get("royals", []):
        s["royals"][r]["space"] = b
    _lift_sieges(s, seat, a)


@reducer("SpecialUnitJoined")
def _special_joined(s: State, d: dict) -> None:
    """R-4.1: a special unit leaves its holding box and joins an army (a CU type key)."""
    _add_cus(s, d["seat"], d["space"], {d["unit"]: 1})
    war(s).setdefault("specials", {})[d["unit"]] = "in_play"


@reducer("RoyalCUsDefected")
@reducer("BesiegedRoyalCUsDeserted")  # besieged royal CUs join the besieger
def _defected(s: State, d: dict) -> None:
    _add_cus(s, d["from"], d["space"], {"royal": -d["count"]})
    _add_cus(s, d["to"], d["space"], {"royal": d["count"]})


@reducer("SiegePointsScored")
def _siege_points(s: State, d: dict) -> None:
    war(s)["sieges"][d["space"]] = {"seat": d["seat"], "points": d["total"]}


@reducer("SiegeCompleted")
def _siege_done(s: State, d: dict) -> None:
    war(s)["sieges"].pop(d["space"], None)
    if d.get("marker") == "independent" and d["space"] in s["independent"]:
        s["independent"].remove(d["space"])
    elif d.get("marker"):
        s["garrisons"].pop(d["space"], None)


@reducer("SiegeLifted")
def _siege_lifted(s: State, d: dict) -> None:
    war(s)["sieges"].pop(d["space"], None)


@reducer("IndependentArmyMoved")
def _indep_moved(s: State, d: dict) -> None:
    s["indep_armies"][d["army"]]["space"] = d["to"]


@reducer("IndependentArmyRemoved")
def _indep_removed(s: State, d: dict) -> None:
    a = s["indep_armies"][d["army"]]
    a["space"] = None
    if not d.get("to_box"):
        a["gone"] = True


@reducer("StandingOrdersSet")
def _standing(s: State, d: dict) -> None:
    war(s)["standing"][d["seat"]] = [dict(x) for x in d["orders"]]


@reducer("FleetDispersed")
def _fleet_dispersed(s: State, d: dict) -> None:
    f = war(s)["fleets"].setdefault(d["fleet"], {"upgrade": 0, "owner": None})
    f["dispersed_turn"] = d["turn"]
    f["upgrade"] = 0


@reducer("FleetUpgraded")
def _fleet_upgraded(s: State, d: dict) -> None:
    """R-8.2: the upgrade (total over the printed strength) held by ``seat``."""
    f = war(s)["fleets"].setdefault(d["fleet"], {"upgrade": 0, "owner": None})
    f["owner"] = d["seat"]
    f["upgrade"] = d["upgrade"]


@reducer("FleetUpgradeLost")
def _fleet_upgrade_lost(s: State, d: dict) -> None:
    """R-15: the fleet changed hands and drops to its printed strength."""
    f = war(s)["fleets"].setdefault(d["fleet"], {"upgrade": 0, "owner": None})
    f["upgrade"] = 0
    f["owner"] = None


@reducer("ReactionWindowOpened")
def _window_opened(s: State, d: dict) -> None:
    war(s)["pause"] = {k: v for k, v in d.items() if k != "rule"}


@reducer("MoveSuspended")
def _move_suspended(s: State, d: dict) -> None:
    """The mover's remaining orders while a reaction window is open (judge-only event)."""
    war(s)["pause"]["cursor"] = d["cursor"]


@reducer("OrdersWithheld")
def _orders_withheld(s: State, d: dict) -> None:
    """The paused mover's full orders, private until its player-turn has run (R-9.3)."""
    war(s)["withheld"] = {"seat": d["seat"], "step": d["step"], "orders": d["orders"]}


@reducer("OrdersRevealed")
def _orders_revealed(s: State, d: dict) -> None:
    war(s).pop("withheld", None)


@reducer("ReactionWindowClosed")
def _window_closed(s: State, d: dict) -> None:
    war(s)["pause"] = None


def _noop(s: State, d: dict) -> None:
    return None


for _kind in ("BattleFought", "InterceptionRolled", "AvoidBattleRolled",
              "LeaderLossChecked", "HostileTribesRolled", "OverrunCarriedOut",
              "MoveCancelled", "ArmyReorganised", "FleetsFought", "NavalBattleDeclared",
              "ReactionChosen", "AssaultRolled", "ElephantsRolled", "AttritionRolled",
              "BattleAvoided", "MoveEnded", "IndependentArmyActivated",
              "AssaultCancelled"):
    _REDUCERS[_kind] = _noop
for _kind in ("Sallied", "IndependentSiegeBegan"):  # R-5 sally, R-14 siege: no state
    _REDUCERS[_kind] = _noop
_REDUCERS["InsideUnitsStayedOut"] = _noop  # inside units stay out of a battle
