"""Events of movement and combat (R-9 … R-15): moves, battles, reactions, sieges, independent armies, fleets, reaction windows.
"""
from __future__ import annotations

from pbem.plural import count
from pbem.rules.core.events.base import (
    EventKind,
    add_cus,
    clip_inside,
    lift_sieges,
    war,
)
from pbem.rules.core.names import (
    battle_text,
    card_label,
    chart_text,
    cus_text,
    fleet_name,
    general_name,
    indep_name,
    indep_verb,
    modifier_text,
    mover_text,
    naval_text,
    path_text,
    reaction_text,
    space_name,
    window_text,
)
from pbem.rules.core.state import State


def _army_moved(s: State, d: dict) -> None:
    seat, a, b = d["seat"], d["from"], d["to"]
    if d.get("cus"):
        add_cus(s, seat, a, {t: -n for t, n in d["cus"].items()})
        add_cus(s, seat, b, dict(d["cus"]))
    for g in d.get("generals", []):
        s["generals"][g]["space"] = b
    clip_inside(s, a)
    if d.get("minor"):
        s["minors"][seat].remove(a)
        if b not in s["minors"][seat]:
            s["minors"][seat].append(b)
    for r in d.get("royals", []):
        s["royals"][r]["space"] = b
    lift_sieges(s, seat, a)


def _siege_points(s: State, d: dict) -> None:
    war(s)["sieges"][d["space"]] = {"seat": d["seat"], "points": d["total"]}


def _siege_done(s: State, d: dict) -> None:
    war(s)["sieges"].pop(d["space"], None)
    if d.get("marker") == "independent" and d["space"] in s["independent"]:
        s["independent"].remove(d["space"])
    elif d.get("marker"):
        s["garrisons"].pop(d["space"], None)


def _capital_founded(s: State, d: dict) -> None:
    war(s).setdefault("capitals", {})[d["space"]] = d["seat"]


def _capital_destroyed(s: State, d: dict) -> None:
    w = war(s)
    w.setdefault("capitals", {}).pop(d["space"], None)
    if d.get("by"):
        done = w.setdefault("capitals_destroyed", {})
        done[d["by"]] = done.get(d["by"], 0) + 1


def _siege_lifted(s: State, d: dict) -> None:
    war(s)["sieges"].pop(d["space"], None)


def _indep_moved(s: State, d: dict) -> None:
    a = s["indep_armies"][d["army"]]
    a["space"] = d["to"]
    if d.get("no_markers_turn") is not None:  # it tied as attacker
        a["no_markers_turn"] = d["no_markers_turn"]


def _indep_removed(s: State, d: dict) -> None:
    a = s["indep_armies"][d["army"]]
    a["space"] = None
    if not d.get("to_box"):
        a["gone"] = True


def _fleet_dispersed(s: State, d: dict) -> None:
    f = war(s)["fleets"].setdefault(d["fleet"], {"upgrade": 0, "owner": None})
    f["dispersed_turn"] = d["turn"]
    f["upgrade"] = 0


def _fleet_upgraded(s: State, d: dict) -> None:
    """R-8.2: the upgrade (total over the printed strength) held by ``seat``."""
    f = war(s)["fleets"].setdefault(d["fleet"], {"upgrade": 0, "owner": None})
    f["owner"] = d["seat"]
    f["upgrade"] = d["upgrade"]


def _fleet_upgrade_lost(s: State, d: dict) -> None:
    """R-15: the fleet changed hands and drops to its printed strength."""
    f = war(s)["fleets"].setdefault(d["fleet"], {"upgrade": 0, "owner": None})
    f["upgrade"] = 0
    f["owner"] = None


def _window_opened(s: State, d: dict) -> None:
    war(s)["pause"] = {k: v for k, v in d.items() if k != "rule"}


def _window_closed(s: State, d: dict) -> None:
    war(s)["pause"] = None
    s.setdefault("secret", {}).pop("suspended", None)


def _move_suspended(s: State, d: dict) -> None:
    """The mover's remaining orders while a reaction window is open (judge-only event)."""
    s.setdefault("secret", {})["suspended"] = d["cursor"]


KINDS: tuple[EventKind, ...] = (
    EventKind('ArmyMoved',
              ('cus', 'from', 'generals', 'minor', 'path', 'royals', 'rule', 'seat', 'to'),
              optional=('mp_left', 'naval', 'why'),
              reduce=_army_moved,
              where=lambda d: (d["from"], d["to"]),
              say=lambda p, d: f"{mover_text(p, d)} {path_text(p, d)}"
                                  + (f" with {cus_text(d['cus'], p)}" if d.get("cus") else "") + "."),
    EventKind('MoveEnded',
              ('army', 'rule', 'seat', 'space'),
              say=lambda p, d: (f"{d.get('seat')}'s move ends in {space_name(p, d.get('space'))}, where its army was "
                                   "wiped out." if d.get("wiped_out") else
                                   f"{d.get('seat')}'s army ends its move in {space_name(p, d.get('space'))}.")),
    EventKind('MoveCancelled',
              ('army', 'rule', 'seat', 'why'),
              optional=('code', 'hint', 'path', 'where'),
              say=lambda p, d: f"{d.get('seat')}'s move stops: {d.get('why', '')}."),
    EventKind('ArmyReorganised',
              ('rule', 'seat', 'space', 'error'),
              optional=('army', 'code', 'dropped', 'picked_up'),
              say=lambda p, d: f"{d.get('seat')} reorganises the army in {space_name(p, d.get('space'))}."),
    EventKind('BattleFought',
              ('attacker', 'defender', 'result', 'rule', 'space', 'winner'),
              optional=('came_from', 'rolls', 'scores', 'sides', 'strengths', 'why'),
              say=lambda p, d: battle_text(p, d)),
    EventKind('BattleAvoided',
              ('mover', 'rule', 'seat', 'space', 'to'),
              say=lambda p, d: f"{d.get('seat')} avoids battle" + (f", stepping to {space_name(p, d['to'])}"
                                                                           if d.get("to") else "") + "."),
    EventKind('InterceptionRolled',
              ('die', 'from', 'initiative', 'into', 'mover', 'read', 'rule', 'seat', 'success'),
              optional=('card', 'modifier'),
              say=lambda p, d: f"{d.get('seat')} tries to intercept from {space_name(p, d.get('from'))} into "
                                           f"{space_name(p, d.get('into'))}: die {d.get('die')} against initiative "
                                           f"{d.get('initiative')}{modifier_text(p, d)}, "
                                           + ("success" if d.get("success") else "failed") + "."),
    EventKind('AvoidBattleRolled',
              ('die', 'initiative', 'read', 'rule', 'seat', 'space', 'success', 'toward'),
              optional=('card', 'modifier'),
              say=lambda p, d: f"{d.get('seat')} tries to avoid battle at {space_name(p, d.get('space'))} toward "
                                          f"{space_name(p, d.get('toward'))}: die {d.get('die')} against initiative "
                                          f"{d.get('initiative')}{modifier_text(p, d)}, "
                                          + ("success" if d.get("success") else "failed") + "."),
    EventKind('BattleDiceRerolled',
              ('before', 'card', 'dice', 'roll', 'rule', 'score', 'seat', 'space'),
              say=lambda p, d: f"{d.get('seat')} re-rolls its battle dice at {space_name(p, d.get('space'))} "
                               f"with {card_label(p, d.get('card'))} (R-8.5): the first roll "
                               f"{'+'.join(str(v) for v in d.get('before', []))} is replaced by "
                               f"{'+'.join(str(v) for v in d.get('dice', []))}"
                               f" = {sum(int(v) for v in d.get('dice', []))}"
                               + (f", below its battle rating, which counts instead: row {d.get('roll')}"
                                  if int(d.get('roll') or 0) > sum(int(v) for v in d.get('dice', [])) else "")
                               + f"; score {d.get('score')} (R-9.2)."),
    EventKind('NavalMoveCancelled',
              ('card', 'mover', 'port', 'rule', 'seat', 'space'),
              say=lambda p, d: f"{card_label(p, d.get('card'))}, played by {d.get('seat')}, cancels "
                               f"{d.get('mover')}'s naval move before it lands at "
                               f"{space_name(p, d.get('space'))}: the army stays in port at "
                               f"{space_name(p, d.get('port'))} (R-8.5)."),
    EventKind('MovementBonusGained',
              ('allowance', 'card', 'mp', 'rule', 'seat', 'space'),
              say=lambda p, d: f"{d.get('seat')}'s army in {space_name(p, d.get('space'))} gains "
                               f"{count(int(d.get('mp') or 0), 'MP')} with {card_label(p, d.get('card'))}: "
                               f"{count(int(d.get('allowance') or 0), 'MP')} for this move (R-9.1)."),
    EventKind('LeaderLossChecked',
              ('die', 'general', 'killed', 'read', 'rule', 'seat'),
              say=lambda p, d: f"Leader loss check for {general_name(p, d.get('general'))}: die {d.get('die')}, "
                                          + ("killed." if d.get("killed") else "safe.")),
    EventKind('HostileTribesRolled',
              ('die', 'lost', 'read', 'rule', 'seat', 'space'),
              say=lambda p, d: f"Hostile tribes at {space_name(p, d.get('space'))} attack {d.get('seat')}: "
                                            f"die {d.get('die')}, {count(int(d.get('lost') or 0), 'CU')} lost (R-9.5)."),
    EventKind('OverrunCarriedOut',
              ('enemy', 'rule', 'seat', 'space'),
              say=lambda p, d: f"{d.get('seat')} overruns {d.get('enemy')}'s units in "
                                          f"{space_name(p, d.get('space'))}."),
    EventKind('AttritionRolled',
              ('eliminated', 'reads', 'rule', 'seat', 'space'),
              say=lambda p, d: f"Attrition of {d.get('seat')}'s Macedonians in {space_name(p, d.get('space'))}: "
                                        f"{cus_text(d.get('eliminated'), p) if d.get('eliminated') else 'none'} eliminated."),
    EventKind('ElephantsRolled',
              ('reads', 'rule', 'side', 'space'),
              say=lambda p, d: f"{d.get('side')}'s elephants at {space_name(p, d.get('space'))} add "
                                        f"{sum(int(r.get('result') or 0) for r in d.get('reads', []))} strength ("
                                        + "; ".join(chart_text(r) for r in d.get("reads", [])) + ")."),
    EventKind('InsideUnitsStayedOut',
              ('cus', 'generals', 'rule', 'seat', 'space'),
              say=lambda p, d: f"{d.get('seat')}'s units inside {space_name(p, d.get('space'))} "
                                             f"({cus_text(d.get('cus') or {}, p)}) stay out of the battle (R-9.2)."),
    EventKind('Sallied',
              ('cus', 'enemy', 'generals', 'rule', 'seat', 'space'),
              say=lambda p, d: f"{d.get('seat')} sallies out of {space_name(p, d.get('space'))} against "
                                f"{d.get('enemy')} (R-5)."),
    EventKind('AssaultRolled',
              ('dice', 'lost', 'modifier', 'modifiers', 'points', 'read', 'rule', 'seat', 'segment', 'space'),
              say=lambda p, d: f"{d.get('seat')} assaults {space_name(p, d.get('space'))}: "
                                      f"{'+'.join(str(v) for v in d.get('dice', []))}"
                                      + (f" {d['modifier']:+d}" if d.get("modifier") else "")
                                      + (" (" + ", ".join(str(m.get("why")) for m in d["modifiers"]) + ")"
                                         if d.get("modifiers") else "")
                                      + (f"; {chart_text(d['read'])}" if d.get("read") else "")
                                      + f": {count(int(d.get('points') or 0), 'siege point')}, "
                                        f"{count(int(d.get('lost') or 0), 'CU')} lost (R-10)."),
    EventKind('AssaultCancelled',
              ('rule', 'seat', 'space', 'why'),
              say=lambda p, d: f"{d.get('seat')}'s assault on {space_name(p, d.get('space'))} does not happen: "
                                         f"{d.get('why', '')}."),
    EventKind('SiegePointsScored',
              ('needed', 'points', 'rule', 'seat', 'space', 'total'),
              optional=('card',),
              reduce=_siege_points,
              say=lambda p, d: f"Siege of {space_name(p, d.get('space'))}: "
                               + (f"{card_label(p, d['card'])} gives {d.get('seat')} "
                                  f"{count(int(d.get('points') or 0), 'siege point')}, "
                                  if d.get("card") else "")
                               + (f"{d.get('seat')} has {d.get('total')} of the {d.get('needed')} siege points "
                                  "it needs (R-10)." if int(d.get('total') or 0) < int(d.get('needed') or 0) else
                                  f"{d.get('seat')} has {count(int(d.get('total') or 0), 'siege point')}, "
                                  f"the {d.get('needed')} it needs (R-10).")),
    EventKind('SiegeCompleted',
              ('marker', 'rule', 'seat', 'segment', 'space'),
              reduce=_siege_done,
              say=lambda p, d: f"{d.get('seat')} completes the siege of {space_name(p, d.get('space'))}."),
    EventKind('SiegeLifted',
              ('rule', 'seat', 'space'),
              reduce=_siege_lifted,
              say=lambda p, d: f"The siege of {space_name(p, d.get('space'))} is lifted."),
    EventKind('IndependentArmyActivated',
              ('army', 'card', 'path', 'rule', 'seat'),
              say=lambda p, d: f"{d.get('seat')} activates {indep_name(p, d.get('army'))} "
                                                 f"({card_label(p, d.get('card'))})."),
    EventKind('IndependentArmyMoved',
              ('army', 'from', 'rule', 'to'),
              optional=('why', 'no_markers_turn'),
              reduce=_indep_moved,
              say=lambda p, d: f"{indep_name(p, d.get('army'), True)} "
                                             f"{indep_verb(p, d.get('army'), 'moves', 'move')} from {space_name(p, d.get('from'))} to "
                                             f"{space_name(p, d.get('to'))}."),
    EventKind('IndependentArmyRemoved',
              ('army', 'rule', 'space', 'to_box'),
              optional=('why',),
              reduce=_indep_removed,
              say=lambda p, d: f"{indep_name(p, d.get('army'), True)} "
                                               f"{indep_verb(p, d.get('army'), 'is', 'are')} beaten at {space_name(p, d.get('space'))}"
                                               + ((" and " + indep_verb(p, d.get('army'), "returns to its", "return to their")
                                                   + " box") if d.get("to_box") else
                                                  " and " + indep_verb(p, d.get('army'), "leaves", "leave") + " play") + "."),
    EventKind('IndependentSiegeBegan',
              ('army', 'rule', 'seat', 'space'),
              say=lambda p, d: f"{indep_name(p, d.get('army'), True)} "
                                              f"{indep_verb(p, d.get('army'), 'besieges', 'besiege')} {space_name(p, d.get('space'))}"
                                              + (f", held by {d['seat']}" if d.get("seat") else "")
                                              + " (R-14)."),
    EventKind('NavalBattleDeclared',
              ('escort', 'fleets', 'mover', 'rule', 'seat', 'space'),
              say=lambda p, d: f"{d.get('seat')} declares a naval battle"
                                            + (f" at {space_name(p, d['space'])}" if d.get("space") else "") + "."),
    EventKind('FleetsFought',
              ('declarer', 'mover', 'result', 'rule', 'sides', 'space'),
              say=lambda p, d: naval_text(p, d)),
    EventKind('FleetDispersed',
              ('fleet', 'rule', 'turn'),
              reduce=_fleet_dispersed,
              say=lambda p, d: f"The {fleet_name(p, d.get('fleet', ''))} is dispersed."),
    EventKind('FleetUpgraded',
              ('card', 'fleet', 'rule', 'seat', 'strength', 'upgrade'),
              reduce=_fleet_upgraded,
              say=lambda p, d: f"{d.get('seat')} upgrades the {fleet_name(p, d.get('fleet'))} to strength "
                                      f"{d.get('strength', '?')}" + (f" with {card_label(p, d['card'])}"
                                                                     if d.get("card") else "") + " (R-8.2)."),
    EventKind('CapitalFounded',
              ('card', 'rule', 'seat', 'space'),
              reduce=_capital_founded,
              say=lambda p, d: f"{d.get('seat')} founds its capital in "
                                       f"{space_name(p, d.get('space'))} (R-1.4)."),
    EventKind('CapitalDestroyed',
              ('by', 'rule', 'seat', 'space'),
              reduce=_capital_destroyed,
              say=lambda p, d: f"The capital of {d.get('seat')} in "
                                         f"{space_name(p, d.get('space'))} is "
                                         + (f"destroyed by {d['by']} (R-1.4)." if d.get("by")
                                            else "lost (R-1.4).")),
    EventKind('FleetUpgradeLost',
              ('fleet', 'owner', 'rule', 'seat', 'strength'),
              reduce=_fleet_upgrade_lost,
              say=lambda p, d: f"The {fleet_name(p, d.get('fleet'))} changes hands"
                                         + (f" (now {d['owner']}'s)" if d.get("owner") else "")
                                         + f" and drops to its printed strength {d.get('strength', '?')} (R-15)."),
    EventKind('ReactionWindowOpened',
              ('kind', 'mover', 'options', 'rule', 'seat', 'segment', 'space'),
              optional=('moment',),
              reduce=_window_opened,
              say=lambda p, d: window_text(p, d)),
    EventKind('ReactionWindowClosed',
              ('kind', 'rule', 'seat'),
              reduce=_window_closed),
    EventKind('MoveSuspended',
              ('cursor', 'rule', 'seat'),
              reduce=_move_suspended,
              seen_by='judge'),
    EventKind('ReactionChosen',
              ('choice', 'kind', 'rule', 'seat', 'source', 'space'),
              optional=('order',),
              say=lambda p, d: reaction_text(p, d)),
)
