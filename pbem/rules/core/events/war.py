"""Events of movement and combat (R-9 … R-15): moves, battles, reactions, sieges, independent armies, fleets, reaction windows.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.rules.core.events.base import (
    EventKind,
    Sentence,
    said,
    seat_of,
    space_of,
    add_cus,
    clip_inside,
    lift_sieges,
    war,
)
from pbem.rules.core.names import (
    N_,
    Words,
    battle_text,
    card_label,
    chart_text,
    cus_text,
    fleet_name,
    general_name,
    indep_name,
    indep_say,
    modifier_text,
    mover_text,
    naval_text,
    path_text,
    reaction_text,
    royal_name,
    side_name,
    space_name,
    window_text,
)
from pbem.pack.model import _match_label
from pbem.rules.core.notes import one_name, reason_text
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
        if not d.get("minor_stays"):  # another minor general of the seat stays in a
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


def _checked(success: Any, t: Words) -> str:
    return t.gettext("success") if success else t.gettext("failed")


def _moved_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    """An ``ArmyMoved`` (R-9.1): who moves which army along which path with which CUs,
    and the royal family members it carries (issue 24, fix24d: "Alexander IV goes with
    the army"; what a drop at the start leaves behind is not in the army, so not here)."""
    royals = [royal_name(p, r) for r in d.get("royals") or [] if isinstance(r, str)]
    line = _moved_line(p, d, t)
    if not royals:
        return line
    return line + " " + t.ngettext("%(royals)s goes with the army.", "%(royals)s go with the army.",
                                   len(royals)) % {"royals": ", ".join(royals)}


def _moved_line(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"mover": mover_text(p, d, t), "path": path_text(p, d, t), "cus": cus_text(d.get("cus"), p, t)}
    if d.get("why") == TIE_RETURN:  # issue 24, trial24c: it read as a move of its own
        if d.get("cus"):
            return t.gettext("%(mover)s %(path)s with %(cus)s: after a tied battle the attacker goes "
                             "back where it came from (R-9.2).") % v
        return t.gettext("%(mover)s %(path)s: after a tied battle the attacker goes back where it "
                         "came from (R-9.2).") % v
    if d.get("cus"):
        return t.gettext("%(mover)s %(path)s with %(cus)s.") % v
    return t.gettext("%(mover)s %(path)s.") % v


TIE_RETURN = "tie: attacker returns"
"""The ``why`` of the ``ArmyMoved`` that sends a tied battle's attacker back (R-9.2)."""


def _reorganised_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    """An ``ArmyReorganised`` (R-9.1): what the moving army took along or left where it
    passed (``"north's army picks up Alexander's Body in Babylon."``; issue 24, trial24c:
    it said only "north reorganises the army in Babylon."); a pick-up or drop that failed
    (``error``) says why it was not done (issue 24.1: a drop off the army's way)."""
    part = d.get("picked_up") or d.get("dropped") or {}
    part = part if isinstance(part, Mapping) else {}
    what = [cus_text(part["cus"], p, t)] if part.get("cus") else []
    what += [general_name(p, g) for g in part.get("generals") or []]
    what += [royal_name(p, r) for r in part.get("royals") or []]
    v = {"seat": d.get("seat"), "space": space_name(p, d.get("space"), t), "what": ", ".join(what)}
    if d.get("error"):
        return t.gettext("%(seat)s's army does not reorganise in %(space)s: %(error)s.") % {
            **v, "error": reason_text(p, d.get("error"), t)}
    if not what:
        return t.gettext("%(seat)s reorganises the army in %(space)s.") % v
    if d.get("picked_up"):
        return t.gettext("%(seat)s's army picks up %(what)s in %(space)s.") % v
    return t.gettext("%(seat)s's army leaves %(what)s in %(space)s.") % v


def _check_roll_text(message: str) -> Sentence:
    """An interception or avoid-battle check (R-9.3): the die against the initiative."""
    def say(p: Any, d: Mapping[str, Any], t: Words) -> str:
        return t.gettext(message) % {
            "seat": d.get('seat'), "from": space_name(p, d.get('from'), t), "into": space_name(p, d.get('into'), t),
            "space": space_name(p, d.get('space'), t), "toward": space_name(p, d.get('toward'), t),
            "die": d.get('die'), "initiative": d.get('initiative'), "modifier": modifier_text(p, d, t),
            "result": _checked(d.get("success"), t)}
    return say


def _rerolled_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    dice = sum(int(v) for v in d.get('dice', []))
    v = {"seat": d.get('seat'), "space": space_name(p, d.get('space'), t), "card": card_label(p, d.get('card'), t),
         "before": '+'.join(str(v) for v in d.get('before', [])), "dice": '+'.join(str(v) for v in d.get('dice', [])),
         "total": dice, "row": d.get('roll'), "score": d.get('score')}
    if int(d.get('roll') or 0) > dice:
        return t.gettext("%(seat)s re-rolls its battle dice at %(space)s with %(card)s (R-8.5): the first roll "
                         "%(before)s is replaced by %(dice)s = %(total)s, below its battle rating, which counts "
                         "instead: row %(row)s; score %(score)s (R-9.2).") % v
    return t.gettext("%(seat)s re-rolls its battle dice at %(space)s with %(card)s (R-8.5): the first roll "
                     "%(before)s is replaced by %(dice)s = %(total)s; score %(score)s (R-9.2).") % v


def _mp(n: Any, t: Words) -> str:
    return t.ngettext("%(num)d MP", "%(num)d MPs", int(n or 0)) % {"num": int(n or 0)}


def _cu(n: Any, t: Words) -> str:
    return t.ngettext("%(num)d CU", "%(num)d CUs", int(n or 0)) % {"num": int(n or 0)}


def _siege_points_n(n: Any, t: Words) -> str:
    return t.ngettext("%(num)d siege point", "%(num)d siege points", int(n or 0)) % {"num": int(n or 0)}


def _column_label(p: Any, chart: str, value: Any) -> str:
    """The column label of ``chart`` that ``value`` falls in (``4`` -> ``"3-5"``), as
    printed on the chart; ``value`` itself when the pack cannot say."""
    ch = getattr(p, "charts", {}).get(chart)
    if ch is None:
        return str(value)
    try:
        return str(_match_label(ch.columns, value, clamp=False))
    except (KeyError, ValueError, TypeError):
        return str(value)


def _assault_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    """An assault roll in words a player can check on the assault chart (R-10; issue 24
    N9: it read "assault chart row 4, column 4: 0/1"): the dice and modifiers make the
    row, the besieging CUs the column, and the cell X/Y is siege points gained / CUs
    lost by the assaulting army."""
    dice = [int(v) for v in d.get('dice', [])]
    roll = '+'.join(str(v) for v in dice)
    if d.get("modifier"):
        roll += f" {d['modifier']:+d}"
        if d.get("modifiers"):
            roll += " (" + ", ".join(one_name(p, str(m.get("why")), t) for m in d["modifiers"]) + ")"
    read = d.get("read") if isinstance(d.get("read"), Mapping) else {}
    total = sum(dice) + int(d.get("modifier") or 0)
    if len(dice) > 1 or d.get("modifier"):
        roll += f" = {total}"
    if not read:
        return t.gettext("%(seat)s assaults %(space)s: %(roll)s: %(points)s, %(lost)s lost (R-10).") % {
            "seat": d.get('seat'), "space": space_name(p, d.get('space'), t), "roll": roll,
            "points": _siege_points_n(d.get('points'), t), "lost": _cu(d.get('lost'), t)}
    return t.gettext("%(seat)s assaults %(space)s: dice %(roll)s, row %(row)s of the assault chart; %(cus)s "
                     "assaulting, column %(column)s; the cell %(result)s is siege points gained / CUs lost: "
                     "%(seat)s gains %(points)s and loses %(lost)s (R-10).") % {
        "seat": d.get('seat'), "space": space_name(p, d.get('space'), t), "roll": roll,
        "row": read.get("row", total), "cus": _cu(read.get("column"), t),
        "column": _column_label(p, str(read.get("chart", "assault")), read.get("column")),
        "result": read.get("result"), "points": _siege_points_n(d.get('points'), t), "lost": _cu(d.get('lost'), t)}


def _leader_loss_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    """A leader loss check in words (R-9.2; issue 24 N9): why it is rolled (the side's
    battle roll), the die, the result, and which dice kill (the leader loss chart)."""
    ch = getattr(p, "charts", {}).get("leader_loss")
    killing = [str(r) for r in ch.rows if ch.cells[r].get("result") == "killed"] if ch is not None else []
    v = {"general": general_name(p, d.get('general')), "die": d.get('die'), "seat": d.get('seat'),
         "killing": ", ".join(killing) or "?",
         "trigger": (getattr(p, "constants", None) or {}).get("leader_loss_roll", "?")}
    if d.get("killed"):
        return t.gettext("Leader loss check for %(general)s, %(seat)s's commander (a battle roll of %(trigger)s calls "
                         "for it, R-9.2): one die, %(die)s: he is killed (a die of %(killing)s kills).") % v
    return t.gettext("Leader loss check for %(general)s, %(seat)s's commander (a battle roll of %(trigger)s calls "
                     "for it, R-9.2): one die, %(die)s: he is safe (only a die of %(killing)s kills).") % v


def _siege_points_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"space": space_name(p, d.get('space'), t), "seat": d.get('seat'), "total": d.get('total'),
         "needed": d.get('needed'), "points": _siege_points_n(d.get('points'), t),
         "card": card_label(p, d.get('card'), t), "total_points": _siege_points_n(d.get('total'), t)}
    head = t.gettext("Siege of %(space)s: ") % v
    if d.get("card"):
        head += t.gettext("%(card)s gives %(seat)s %(points)s, ") % v
    if int(d.get('total') or 0) < int(d.get('needed') or 0):
        return head + t.gettext("%(seat)s has %(total)s of the %(needed)s siege points it needs (R-10).") % v
    return head + t.gettext("%(seat)s has %(total_points)s, the %(needed)s it needs (R-10).") % v


def _indep_removed_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"space": space_name(p, d.get('space'), t)}
    if d.get("to_box"):
        return indep_say(p, d.get("army"), N_("%(army)s is beaten at %(space)s and returns to its box."),
                         N_("%(army)s are beaten at %(space)s and return to their box."), t, **v)
    return indep_say(p, d.get("army"), N_("%(army)s is beaten at %(space)s and leaves play."),
                     N_("%(army)s are beaten at %(space)s and leave play."), t, **v)


def _indep_siege_text(p: Any, d: Mapping[str, Any], t: Words) -> str:
    v = {"space": space_name(p, d.get('space'), t), "seat": d.get("seat")}
    if d.get("seat"):
        return indep_say(p, d.get("army"), N_("%(army)s besieges %(space)s, held by %(seat)s (R-14)."),
                         N_("%(army)s besiege %(space)s, held by %(seat)s (R-14)."), t, **v)
    return indep_say(p, d.get("army"), N_("%(army)s besieges %(space)s (R-14)."),
                     N_("%(army)s besiege %(space)s (R-14)."), t, **v)


KINDS: tuple[EventKind, ...] = (
    EventKind('ArmyMoved',
              ('cus', 'from', 'generals', 'minor', 'path', 'royals', 'rule', 'seat', 'to'),
              optional=('minor_stays', 'mp_left', 'naval', 'why'),
              reduce=_army_moved,
              writes=('cus', 'generals', 'inside', 'minors', 'royals', 'war'),
              where=lambda d: (d["from"], d["to"]),
              cells=lambda d: {"cus": (d["from"], d["to"]), "generals": tuple(d["generals"]),
                               "royals": tuple(d["royals"]), "minors": (d["seat"],)},
              say=_moved_text),
    EventKind('MoveEnded',
              ('army', 'rule', 'seat', 'space'),
              say=lambda p, d, t: (t.gettext("%(seat)s's move ends in %(space)s, where its army was wiped out.")
                                   if d.get("wiped_out") else
                                   t.gettext("%(seat)s's army ends its move in %(space)s.")) % {
                  "seat": d.get('seat'), "space": space_name(p, d.get('space'), t)}),
    EventKind('MoveCancelled',
              ('army', 'rule', 'seat', 'why'),
              optional=('code', 'hint', 'path', 'where'),
              say=said(N_("%(seat)s's move stops: %(why)s."), seat=seat_of,
                       why=lambda p, d, t: reason_text(p, d.get('why'), t))),
    EventKind('ArmyReorganised',
              ('rule', 'seat', 'space', 'error'),
              optional=('army', 'code', 'dropped', 'picked_up'),
              say=_reorganised_text),
    EventKind('BattleFought',
              ('attacker', 'defender', 'result', 'rule', 'space', 'winner'),
              optional=('came_from', 'rolls', 'scores', 'sides', 'strengths', 'why'),
              say=battle_text),
    EventKind('BattleAvoided',
              ('mover', 'rule', 'seat', 'space', 'to'),
              say=lambda p, d, t: (t.gettext("%(seat)s avoids battle, stepping to %(to)s.") if d.get("to")
                                   else t.gettext("%(seat)s avoids battle.")) % {
                  "seat": d.get('seat'), "to": space_name(p, d.get('to'), t)}),
    EventKind('InterceptionRolled',
              ('die', 'from', 'initiative', 'into', 'mover', 'read', 'rule', 'seat', 'success'),
              optional=('card', 'modifier'),
              say=_check_roll_text(N_("%(seat)s tries to intercept from %(from)s into %(into)s: die %(die)s against "
                                      "initiative %(initiative)s%(modifier)s, %(result)s."))),
    EventKind('AvoidBattleRolled',
              ('die', 'initiative', 'read', 'rule', 'seat', 'space', 'success', 'toward'),
              optional=('card', 'modifier'),
              say=_check_roll_text(N_("%(seat)s tries to avoid battle at %(space)s toward %(toward)s: die %(die)s "
                                      "against initiative %(initiative)s%(modifier)s, %(result)s."))),
    EventKind('BattleDiceRerolled',
              ('before', 'card', 'dice', 'roll', 'rule', 'score', 'seat', 'space'),
              say=_rerolled_text),
    EventKind('NavalMoveCancelled',
              ('card', 'mover', 'port', 'rule', 'seat', 'space'),
              say=said(N_("%(card)s, played by %(seat)s, cancels %(mover)s's naval move before it lands at "
                          "%(space)s: the army stays in port at %(port)s (R-8.5)."),
                       card=lambda p, d, t: card_label(p, d.get('card'), t), seat=seat_of,
                       mover=lambda p, d, t: d.get('mover'), space=space_of,
                       port=lambda p, d, t: space_name(p, d.get('port'), t))),
    EventKind('MovementBonusGained',
              ('allowance', 'card', 'mp', 'rule', 'seat', 'space'),
              say=said(N_("%(seat)s's army in %(space)s gains %(mp)s with %(card)s: %(allowance)s for this move "
                          "(R-9.1)."), seat=seat_of, space=space_of, mp=lambda p, d, t: _mp(d.get('mp'), t),
                       card=lambda p, d, t: card_label(p, d.get('card'), t),
                       allowance=lambda p, d, t: _mp(d.get('allowance'), t))),
    EventKind('LeaderLossChecked',
              ('die', 'general', 'killed', 'read', 'rule', 'seat'),
              say=_leader_loss_text),
    EventKind('HostileTribesRolled',
              ('die', 'lost', 'read', 'rule', 'seat', 'space'),
              say=said(N_("Hostile tribes at %(space)s attack %(seat)s: die %(die)s, %(lost)s lost (R-9.5)."),
                       space=space_of, seat=seat_of, die=lambda p, d, t: d.get('die'),
                       lost=lambda p, d, t: _cu(d.get('lost'), t))),
    EventKind('OverrunCarriedOut',
              ('enemy', 'rule', 'seat', 'space'),
              say=said(N_("%(seat)s overruns %(enemy)s's units in %(space)s."),
                       seat=lambda p, d, t: side_name(d.get('seat'), t),
                       enemy=lambda p, d, t: side_name(d.get('enemy'), t), space=space_of)),
    EventKind('AttritionRolled',
              ('eliminated', 'reads', 'rule', 'seat', 'space'),
              say=said(N_("Attrition of %(seat)s's Macedonians in %(space)s: %(cus)s eliminated."),
                       seat=seat_of, space=space_of,
                       cus=lambda p, d, t: (cus_text(d.get('eliminated'), p, t) if d.get('eliminated')
                                            else t.gettext('none')))),
    EventKind('ElephantsRolled',
              ('reads', 'rule', 'side', 'space'),
              say=said(N_("%(side)s's elephants at %(space)s add %(strength)s strength (%(reads)s)."),
                       side=lambda p, d, t: side_name(d.get('side'), t), space=space_of,
                       strength=lambda p, d, t: sum(int(r.get('result') or 0) for r in d.get('reads', [])),
                       reads=lambda p, d, t: "; ".join(chart_text(r, t) for r in d.get("reads", [])))),
    EventKind('InsideUnitsStayedOut',
              ('cus', 'generals', 'rule', 'seat', 'space'),
              say=said(N_("%(seat)s's units inside %(space)s (%(cus)s) stay out of the battle (R-9.2)."),
                       seat=seat_of, space=space_of, cus=lambda p, d, t: cus_text(d.get('cus') or {}, p, t))),
    EventKind('Sallied',
              ('cus', 'enemy', 'generals', 'rule', 'seat', 'space'),
              say=said(N_("%(seat)s sallies out of %(space)s against %(enemy)s (R-5)."), seat=seat_of,
                       space=space_of, enemy=lambda p, d, t: side_name(d.get('enemy'), t))),
    EventKind('AssaultRolled',
              ('dice', 'lost', 'modifier', 'modifiers', 'points', 'read', 'rule', 'seat', 'segment', 'space'),
              say=_assault_text),
    EventKind('AssaultCancelled',
              ('rule', 'seat', 'space', 'why'),
              say=said(N_("%(seat)s's assault on %(space)s does not happen: %(why)s."), seat=seat_of,
                       space=space_of, why=lambda p, d, t: reason_text(p, d.get('why'), t))),
    EventKind('SiegePointsScored',
              ('needed', 'points', 'rule', 'seat', 'space', 'total'),
              optional=('card',),
              reduce=_siege_points,
              writes=('war',),
              say=_siege_points_text),
    EventKind('SiegeCompleted',
              ('marker', 'rule', 'seat', 'segment', 'space'),
              reduce=_siege_done,
              say=said(N_("%(seat)s completes the siege of %(space)s."), seat=seat_of, space=space_of)),
    EventKind('SiegeLifted',
              ('rule', 'seat', 'space'),
              reduce=_siege_lifted,
              say=said(N_("The siege of %(space)s is lifted."), space=space_of)),
    EventKind('IndependentArmyActivated',
              ('army', 'card', 'path', 'rule', 'seat'),
              say=said(N_("%(seat)s activates %(army)s (%(card)s)."), seat=seat_of,
                       army=lambda p, d, t: indep_name(p, d.get('army'), t=t),
                       card=lambda p, d, t: card_label(p, d.get('card'), t))),
    EventKind('IndependentArmyMoved',
              ('army', 'from', 'rule', 'to'),
              optional=('why', 'no_markers_turn'),
              reduce=_indep_moved,
              writes=('indep_armies',),
              say=lambda p, d, t: indep_say(p, d.get("army"), N_("%(army)s moves from %(from)s to %(to)s."),
                                            N_("%(army)s move from %(from)s to %(to)s."), t,
                                            **{"from": space_name(p, d.get('from'), t),
                                               "to": space_name(p, d.get('to'), t)})),
    EventKind('IndependentArmyRemoved',
              ('army', 'rule', 'space', 'to_box'),
              optional=('why',),
              reduce=_indep_removed,
              writes=('indep_armies',),
              say=_indep_removed_text),
    EventKind('IndependentSiegeBegan',
              ('army', 'rule', 'seat', 'space'),
              say=_indep_siege_text),
    EventKind('NavalBattleDeclared',
              ('escort', 'fleets', 'mover', 'rule', 'seat', 'space'),
              say=lambda p, d, t: (t.gettext("%(seat)s declares a naval battle at %(space)s.") if d.get("space")
                                   else t.gettext("%(seat)s declares a naval battle.")) % {
                  "seat": d.get('seat'), "space": space_name(p, d.get('space'), t)}),
    EventKind('FleetsFought',
              ('declarer', 'mover', 'result', 'rule', 'sides', 'space'),
              say=naval_text),
    EventKind('FleetDispersed',
              ('fleet', 'rule', 'turn'),
              reduce=_fleet_dispersed,
              say=said(N_("The %(fleet)s is dispersed."), fleet=lambda p, d, t: fleet_name(p, d.get('fleet', '')))),
    EventKind('FleetUpgraded',
              ('card', 'fleet', 'rule', 'seat', 'strength', 'upgrade'),
              reduce=_fleet_upgraded,
              writes=('war',),
              say=lambda p, d, t: (t.gettext("%(seat)s upgrades the %(fleet)s to strength %(strength)s with %(card)s "
                                             "(R-8.2).") if d.get("card") else
                                   t.gettext("%(seat)s upgrades the %(fleet)s to strength %(strength)s (R-8.2).")) % {
                  "seat": d.get('seat'), "fleet": fleet_name(p, d.get('fleet')), "strength": d.get('strength', '?'),
                  "card": card_label(p, d.get('card'), t)}),
    EventKind('CapitalFounded',
              ('card', 'rule', 'seat', 'space'),
              reduce=_capital_founded,
              say=said(N_("%(seat)s founds its capital in %(space)s (R-1.4)."), seat=seat_of, space=space_of)),
    EventKind('CapitalDestroyed',
              ('by', 'rule', 'seat', 'space'),
              reduce=_capital_destroyed,
              say=lambda p, d, t: (t.gettext("The capital of %(seat)s in %(space)s is destroyed by %(by)s (R-1.4).")
                                   if d.get("by") else
                                   t.gettext("The capital of %(seat)s in %(space)s is lost (R-1.4).")) % {
                  "seat": d.get('seat'), "space": space_name(p, d.get('space'), t), "by": d.get('by')}),
    EventKind('FleetUpgradeLost',
              ('fleet', 'owner', 'rule', 'seat', 'strength'),
              reduce=_fleet_upgrade_lost,
              say=lambda p, d, t: (t.gettext("The %(fleet)s changes hands (now %(owner)s's) and drops to its printed "
                                             "strength %(strength)s (R-15).") if d.get("owner") else
                                   t.gettext("The %(fleet)s changes hands and drops to its printed strength "
                                             "%(strength)s (R-15).")) % {
                  "fleet": fleet_name(p, d.get('fleet')), "owner": d.get('owner'),
                  "strength": d.get('strength', '?')}),
    EventKind('ReactionWindowOpened',
              ('kind', 'mover', 'options', 'rule', 'seat', 'segment', 'space'),
              optional=('moment',),
              reduce=_window_opened,
              say=window_text),
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
              say=reaction_text),
)
