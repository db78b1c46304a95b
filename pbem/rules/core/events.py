"""Event reducers: the only code that changes a working dict (see :mod:`pbem.rules.core.state`).

``reduce(s, event)`` applies one event in place. Reducers read only the event's data
(never the pack or dice), so ``fold(initial, events)`` rebuilds any state exactly.

State used by the war reducers (``s["war"]``, a dict that defaults to empty)::

    sieges:   {space: {"seat": seat | "independent", "points": int}}       (R-10)
    standing: {seat: [standing order, ...]}                               (R-9.3)
    fleets:   {fleet_id: {"upgrade": int, "owner": seat|None, "dispersed_turn": int}}
    specials: {unit_id: "in_play" | "destroyed"}  (once a special unit entered, R-4.1;
              see pbem.rules.core.units)
    pause:    None | {"kind", "seat", "mover", "space", "options", "cursor"}  (ask window)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.rules.core.state import Event, State

_REDUCERS: dict[str, Callable[[State, dict], None]] = {}


def reducer(kind: str):
    """Register the reducer of event ``kind``."""
    def wrap(fn):
        _REDUCERS[kind] = fn
        return fn
    return wrap


def reduce(s: State, event: Event) -> None:
    """Apply ``event`` to the working dict ``s`` in place. Unknown kinds raise KeyError;
    kinds with no effect on the position (``DiceRolled`` …) are registered as no-ops."""
    _REDUCERS[event.kind](s, dict(event.data))


def known_kinds() -> list[str]:
    """All event kinds with a reducer."""
    return sorted(_REDUCERS)


def _noop(s: State, d: dict) -> None:
    return None


for _kind in ("DiceRolled", "TycheDealt", "VictoryPointsScored", "Note",
              "DecisionDefaulted", "CardEventSkipped", "TrainingStarted"):
    _REDUCERS[_kind] = _noop


def _add_cus(s: State, seat: str, space: str, cus: dict[str, int]) -> None:
    at = s["cus"].setdefault(space, {}).setdefault(seat, {})
    for t, n in cus.items():
        at[t] = at.get(t, 0) + n
        if at[t] == 0:
            del at[t]
        elif at[t] < 0:
            raise ValueError(f"negative CUs of {t} for {seat} in {space}")
    if not at:
        del s["cus"][space][seat]
    if not s["cus"][space]:
        del s["cus"][space]
    clip_inside(s, space)


def clip_inside(s: State, space: str) -> None:
    """Keep the inside record of ``space`` (R-5, :mod:`pbem.rules.inside`) a subset of
    what is there: CUs that left or died come from outside first, then from inside;
    generals no longer in the space are no longer inside; an empty record goes."""
    rec = (s.get("inside") or {}).get(space)
    if not rec:
        return
    have = s["cus"].get(space, {}).get(rec["seat"], {})
    rec["cus"] = {t: min(n, have.get(t, 0)) for t, n in rec["cus"].items()
                  if have.get(t, 0) > 0}
    rec["generals"] = [g for g in rec["generals"]
                       if s["generals"].get(g, {}).get("where") == "map"
                       and s["generals"][g].get("space") == space]
    if not rec["cus"] and not rec["generals"]:
        del s["inside"][space]


@reducer("UnitsWentInside")
def _went_inside(s: State, d: dict) -> None:
    rec = s.setdefault("inside", {}).setdefault(
        d["space"], {"seat": d["seat"], "cus": {}, "generals": []})
    for t, n in d["cus"].items():
        rec["cus"][t] = rec["cus"].get(t, 0) + n
    rec["generals"] = sorted(set(rec["generals"]) | set(d.get("generals", [])))


@reducer("UnitsCameOut")
def _came_out(s: State, d: dict) -> None:
    rec = (s.get("inside") or {}).get(d["space"])
    if not rec:
        return
    for t, n in d["cus"].items():
        rec["cus"][t] = rec["cus"].get(t, 0) - n
    rec["cus"] = {t: n for t, n in rec["cus"].items() if n > 0}
    rec["generals"] = [g for g in rec["generals"] if g not in d.get("generals", [])]
    clip_inside(s, d["space"])


@reducer("GameStarted")
def _game_started(s: State, d: dict) -> None:
    s["pack_name"] = d["pack"]
    for key in ("hands", "dispersed", "training", "training_cards", "lp_adjust",
                "minors", "primary"):
        s[key] = {seat: ([] if key in ("hands", "minors", "training", "primary") else
                         ({} if key == "dispersed" else 0)) for seat in d["seats"]}
    s["turn"] = d["turn"]
    s["options"] = dict(d.get("options", {}))


@reducer("PrimaryGeneralsDealt")
def _primary(s: State, d: dict) -> None:
    s["primary"] = {k: list(v) for k, v in d["cards"].items()}


@reducer("GeneralPlaced")
def _general_placed(s: State, d: dict) -> None:
    old = s["generals"].get(d["general"], {}).get("space")
    s["generals"][d["general"]] = {"seat": d.get("seat"), "where": d["where"],
                                   "space": d.get("space")}
    if old:
        clip_inside(s, old)


@reducer("CUsPlaced")
def _cus_placed(s: State, d: dict) -> None:
    _add_cus(s, d["seat"], d["space"], d["cus"])
    if d.get("from_dispersed"):
        box = s["dispersed"][d["seat"]]
        for t, n in d["cus"].items():
            box[t] -= n
            if box[t] <= 0:
                del box[t]


@reducer("CUsRemoved")
def _cus_removed(s: State, d: dict) -> None:
    _add_cus(s, d["seat"], d["space"], {t: -n for t, n in d["cus"].items()})
    specials = (s.get("war") or {}).get("specials")
    for t in d["cus"]:  # a special unit removed is destroyed, never returns
        if specials and t in specials:
            specials[t] = "destroyed"


@reducer("CUsDispersed")
def _cus_dispersed(s: State, d: dict) -> None:
    _add_cus(s, d["seat"], d["space"], {t: -n for t, n in d["cus"].items()})
    box = s["dispersed"].setdefault(d["seat"], {})
    for t, n in d["cus"].items():
        box[t] = box.get(t, 0) + n


@reducer("GarrisonPlaced")
def _garrison_placed(s: State, d: dict) -> None:
    s["garrisons"][d["space"]] = d["seat"]
    if d["space"] in s["independent"]:
        s["independent"].remove(d["space"])


@reducer("GarrisonRemoved")
def _garrison_removed(s: State, d: dict) -> None:
    s["garrisons"].pop(d["space"], None)


@reducer("IndependentMarkersPlaced")
def _indep(s: State, d: dict) -> None:
    s["independent"] = sorted(set(s["independent"]) | set(d["spaces"]))
    for x in d["spaces"]:
        s["garrisons"].pop(x, None)


@reducer("RoyalPlaced")
def _royal(s: State, d: dict) -> None:
    s["royals"][d["royal"]] = {"space": d.get("space"), "active": d["active"]}


@reducer("IndependentArmyPlaced")
def _indep_army(s: State, d: dict) -> None:
    s["indep_armies"][d["army"]] = {"space": d.get("space"), "strength": d["strength"]}


@reducer("DeckShuffled")
def _deck(s: State, d: dict) -> None:
    s["deck"] = list(d["deck"])
    for n in d.get("from_discards", []):
        s["discards"].remove(n)


@reducer("CardsDealt")
def _dealt(s: State, d: dict) -> None:
    for n in d["cards"]:
        s["deck"].remove(n)
        s["hands"][d["seat"]].append(n)


_REDUCERS["CardDrawn"] = _dealt


@reducer("CardPlayed")
def _played(s: State, d: dict) -> None:
    s["hands"][d["seat"]].remove(d["card"])
    (s["removed"] if d.get("removed") else s["discards"]).append(d["card"])
    if d.get("use") == "train":
        s["training_cards"][d["seat"]] = s["training_cards"].get(d["seat"], 0) + 1


@reducer("CardDiscarded")
def _discarded(s: State, d: dict) -> None:
    s["hands"][d["seat"]].remove(d["card"])
    s["discards"].append(d["card"])


@reducer("HandsCleared")
def _cleared(s: State, d: dict) -> None:
    for seat, cards in d["cards"].items():
        for n in cards:
            s["hands"][seat].remove(n)
            s["discards"].append(n)


@reducer("TurnOrderSet")
def _order(s: State, d: dict) -> None:
    s["turn_order"] = list(d["order"])


@reducer("UsurpersLabelled")
def _usurpers(s: State, d: dict) -> None:
    s["usurpers"] = list(d["seats"])


@reducer("ChampionsSet")
def _champions(s: State, d: dict) -> None:
    s["champions"] = list(d["seats"])


@reducer("ChampionLost")
def _champion_lost(s: State, d: dict) -> None:
    if d["seat"] in s["champions"]:
        s["champions"].remove(d["seat"])


@reducer("RoundStarted")
def _round(s: State, d: dict) -> None:
    s["round"] = d["round"]
    s["played"] = []


@reducer("PlayerTurnStarted")
def _pt_started(s: State, d: dict) -> None:
    s["active"] = d["seat"]


@reducer("TurnPassed")
def _passed(s: State, d: dict) -> None:
    s["played"].append(d["seat"])
    s["active"] = None


@reducer("OrdersApplied")
def _orders(s: State, d: dict) -> None:
    s["step"] = d["step"] + 1


@reducer("MinorGeneralPlaced")
def _minor(s: State, d: dict) -> None:
    s["minors"][d["seat"]].append(d["space"])


@reducer("MinorGeneralRemoved")
def _minor_removed(s: State, d: dict) -> None:
    s["minors"][d["seat"]].remove(d["space"])


@reducer("TrainingPaid")
def _training(s: State, d: dict) -> None:
    s["training"][d["seat"]] = [dict(u) for u in d["units"]]


@reducer("LegitimacyAdjusted")
def _lp(s: State, d: dict) -> None:
    s["lp_adjust"][d["seat"]] = s["lp_adjust"].get(d["seat"], 0) + d["amount"]


@reducer("PhaseStarted")
def _phase(s: State, d: dict) -> None:
    s["phase"] = d["phase"]
    if "turn" in d:
        s["turn"] = d["turn"]
    if d["phase"] == "strategy":
        s["training_cards"] = {k: 0 for k in s["training_cards"]}


@reducer("VictoryClaimed")
def _claim(s: State, d: dict) -> None:
    s["claim"] = {"seat": d["seat"], "kind": d["kind"], "waiting": list(d["waiting"])}


@reducer("VictoryClaimUpdated")
def _claim_upd(s: State, d: dict) -> None:
    s["claim"] = None if d.get("cleared") else {**s["claim"], "waiting": list(d["waiting"])}


@reducer("GameWon")
def _won(s: State, d: dict) -> None:
    s["result"] = dict(d)
    s["phase"] = "over"
    s["active"] = None


@reducer("RoyalMoved")
def _royal_moved(s: State, d: dict) -> None:
    s["royals"][d["royal"]]["space"] = d.get("space")
    if "active" in d:
        s["royals"][d["royal"]]["active"] = d["active"]


for _kind in ("MercenaryRaised", "SurrenderDeclined",
              "UnitTrained", "GarrisonsIsolated", "ForageChecked", "UnrestStruck"):
    _REDUCERS[_kind] = _noop


@reducer("DispersedAdded")
def _dispersed_added(s: State, d: dict) -> None:
    box = s["dispersed"].setdefault(d["seat"], {})
    for t, n in d["cus"].items():
        box[t] = box.get(t, 0) + n


@reducer("CommanderChosen")
def _commander(s: State, d: dict) -> None:
    s["commanders"][d["space"]] = d["general"]


@reducer("RoyalRemoved")
def _royal_removed(s: State, d: dict) -> None:
    s["royals"][d["royal"]] = {"space": None, "active": False, "gone": True}


@reducer("TurnEnded")
def _turn_ended(s: State, d: dict) -> None:
    s["turn"] = d["next"]


@reducer("ReinforcementsGranted")
def _granted(s: State, d: dict) -> None:
    s["reinforce"] = {"queue": list(d["queue"]),
                      "grant": {k: dict(v) for k, v in d["cus"].items()}}


@reducer("ReinforcementsPlaced")
def _reinf_placed(s: State, d: dict) -> None:
    r = s["reinforce"]
    r["queue"].remove(d["seat"])
    r["grant"].pop(d["seat"], None)
    if not r["queue"]:
        s["reinforce"] = None


# --- movement, battle, sieges, fleets and independent armies (R-9 … R-15) ---


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
