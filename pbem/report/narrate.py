"""Events in words, for the reports ("what happened, in order").

Each event kind of the rules core has a sentence here; an unknown kind falls back to
its name and data, so a new event never breaks a report.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from pbem import rules
from pbem.pack.model import Pack


def space_name(pack: Pack, space: Any) -> str:
    """The printed name of a space id (``"pelusium"`` -> ``"Pelusium"``); ``"off map"`` for
    None; unknown ids are returned as they are."""
    if space is None:
        return "off map"
    if isinstance(space, str) and space in pack.spaces:
        return pack.spaces[space].name
    return str(space)


_sp = space_name


def _named(table: str):
    """A name lookup for one table of the pack (generals, royals, ...): the printed
    name of an id, or the value itself as text when the pack does not know it."""
    def name(pack: Pack, x: Any) -> str:
        entries = getattr(pack, table)
        return entries[x].name if isinstance(x, str) and x in entries else str(x)
    return name


_gen = _named("generals")
_royal = _named("royals")
_indep = _named("independent_armies")
_fleet = _named("fleets")
_special = _named("special_units")

_PURPOSE_TABLES = ("spaces", "generals", "royals", "independent_armies", "fleets", "special_units",
                   "provinces")
_TOKEN = re.compile(r"(?<![A-Za-z0-9_])[a-z0-9_]+(?![A-Za-z0-9_])")


def _id_names(pack: Pack) -> dict[str, str]:
    """Every pack id that a rules text may carry (spaces first, so ``cyrene`` the city
    wins over the province of the same name and name) mapped to its printed name."""
    names: dict[str, str] = {}
    for table in reversed(_PURPOSE_TABLES):
        names.update({k: v.name for k, v in getattr(pack, table).items()})
    return names


def purpose_text(pack: Pack, purpose: Any) -> str:
    """The purpose of a die roll as players read it: pack ids (whole lower-case words
    such as ``isaura``, ``leonnatus``, ``greek_army``) become printed names, so
    ``"battle in isaura: attacker (east)"`` reads ``"battle in Isaura: attacker (east)"``.
    No id of the pack is an English word the rules core writes in a purpose (checked by
    tests/report/test_wording.py), so nothing else changes; old logs read the same way."""
    names = _id_names(pack)
    return _TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), str(purpose))


def ops_text(n: Any) -> str:
    """``"1 OP"``, ``"3 OPs"``."""
    return f"{n} OP" if str(n) == "1" else f"{n} OPs"


_INDEP_RULER = re.compile(r"^\S+ of ")


def indep_name(pack: Pack, army: Any, start: bool = False) -> str:
    """An independent army as a noun phrase: ``"the Greek Army"``, ``"the Scythians"``,
    but ``"Ariarathes of Cappadocia"`` — a pack name of the form "<Name> of <Place>" is a
    ruler's name and takes no article (R-14). ``start`` capitalises the article."""
    name = _indep(pack, army)
    if _INDEP_RULER.match(name):
        return name
    return ("The " if start else "the ") + name


def _indep_plural(pack: Pack, army: Any) -> bool:
    """Whether the army's name is plural ("the Scythians move", "the Greek Army moves")."""
    name = _indep(pack, army)
    if _INDEP_RULER.match(name):
        return False
    head = re.split(r" of | \(", name)[0].split()
    return bool(head) and head[-1].endswith("s")


def _iv(pack: Pack, army: Any, singular: str, plural: str) -> str:
    return plural if _indep_plural(pack, army) else singular


def card_label(pack: Pack, number: Any) -> str:
    """A card as players read it: ``"#12 Name (3 OPs)"``, ``"#5 Name (1 OP)"`` (no OPs
    part for cards without OPs); ``"card N"`` for a number the pack does not know."""
    try:
        c = pack.cards[int(number)]
    except (KeyError, TypeError, ValueError):
        return f"card {number}"
    return f"#{c.number} {c.name}" + (f" ({ops_text(c.ops)})" if c.ops else "")


_card = card_label


def _cus(cus: Any) -> str:
    if isinstance(cus, Mapping):
        return ", ".join(f"{n} {str(t).replace('_', ' ')}" for t, n in cus.items() if n) or "no CUs"
    return str(cus)


def _path(pack: Pack, d: Mapping[str, Any]) -> str:
    path = d.get("path")
    if isinstance(path, (list, tuple)) and len(path) > 1:
        return " -> ".join(_sp(pack, x) for x in path)
    return f"{_sp(pack, d.get('from'))} -> {_sp(pack, d.get('to', d.get('space')))}"


def _who(pack: Pack, d: Mapping[str, Any]) -> str:
    g = d.get("general") or d.get("commander")
    seat = d.get("seat")
    if g:
        return f"{_gen(pack, g)} ({seat})" if seat else _gen(pack, g)
    if d.get("army"):
        return _indep(pack, d["army"])
    return str(seat or "someone")


_OFF_MAP = {"dispersed": "goes to the dispersed box", "dead": "is dead",
            "track": "waits on the turn track", "deck": "waits in the Tyche deck (his card)",
            "box": "waits off the map", "map": "is placed on the map"}


def _off_map(where: Any) -> str:
    """Where a general not on a map space is, as a verb phrase (``GeneralPlaced``)."""
    return _OFF_MAP.get(str(where), f"goes to the {str(where).replace('_', ' ')} box" if where
                        else "waits off the map")


def _mover(pack: Pack, d: Mapping[str, Any]) -> str:
    """The subject of an ``ArmyMoved`` sentence naming the army by its general, the
    commander (highest rank, then seniority, R-5) first: ``"south moves Ptolemy's army"``,
    ``"north moves Craterus's army (with Antipater)"``; a minor general's army, or the
    general/army the event names (older logs)."""
    gens = [g for g in d.get("generals") or [] if isinstance(g, str)]
    seat = d.get("seat")
    if not seat or d.get("general") or d.get("commander"):
        return f"{_who(pack, d)} moves"
    if gens:
        def key(g: str) -> tuple:
            gen = pack.generals.get(g)
            return (-gen.rank, gen.seniority, g) if gen else (1, 99, g)
        first, *rest = sorted(gens, key=key)
        army = f"{_gen(pack, first)}'s army" + (f" (with {', '.join(_gen(pack, g) for g in rest)})" if rest else "")
    elif d.get("minor"):
        army = "the army of a minor general"
    else:
        army = "an army"
    return f"{seat} moves {army}"


def _primary(pack: Pack, d: Mapping[str, Any]) -> str:
    cards = d.get("cards")
    if isinstance(cards, Mapping):
        return "Primary generals: " + "; ".join(
            f"{seat} {', '.join(_gen(pack, pack.cards[c].general) if int(c) in pack.cards and pack.cards[int(c)].general else str(c) for c in cs)}"
            for seat, cs in cards.items()) + "."
    return f"{d.get('seat')} receives {', '.join(_gen(pack, g) for g in d.get('generals', []))}."


Sentence = Callable[[Pack, Mapping[str, Any]], str]

SENTENCES: dict[str, Sentence] = {
    "GameStarted": lambda p, d: f"The game begins: {d.get('year', '323')} BC, seats "
                                f"{', '.join(d.get('seats', rules.SEATS))}.",
    "PrimaryGeneralsDealt": _primary,
    "GeneralPlaced": lambda p, d: f"{_gen(p, d.get('general'))} ({d.get('seat') or 'nobody'}) is placed in "
                                  f"{_sp(p, d.get('space'))}." if d.get("space") else
                                  f"{_gen(p, d.get('general'))} {_off_map(d.get('where'))}.",
    "CUsPlaced": lambda p, d: f"{d.get('seat')} places {_cus(d.get('cus'))} in {_sp(p, d.get('space'))}.",
    "CUsRemoved": lambda p, d: f"{d.get('seat')} loses {_cus(d.get('cus'))} in {_sp(p, d.get('space'))}"
                               + (" (as its standing order on losses says)" if d.get("chosen") else "") + ".",
    "CUsDispersed": lambda p, d: f"{d.get('seat')}'s {_cus(d.get('cus'))} in {_sp(p, d.get('space'))} go to the "
                                 "dispersed box.",
    "GarrisonPlaced": lambda p, d: f"{d.get('seat')} places a garrison in {_sp(p, d.get('space'))}.",
    "GarrisonRemoved": lambda p, d: f"The {d.get('seat')} garrison in {_sp(p, d.get('space'))} is removed.",
    "IndependentMarkersPlaced": lambda p, d: f"Independent markers are placed on {len(d.get('spaces', []))} spaces.",
    "RoyalPlaced": lambda p, d: (f"{_royal(p, d.get('royal'))} is in {_sp(p, d.get('space'))}"
                                 + ("" if d.get("active", True) else " (inactive)") + "."
                                 if d.get("space") else f"{_royal(p, d.get('royal'))} waits off the map."),
    "IndependentArmyPlaced": lambda p, d: (f"{indep_name(p, d.get('army'), True)} (strength "
                                           f"{d.get('strength', '?')}) {_iv(p, d.get('army'), 'is', 'are')} in "
                                           f"{_sp(p, d.get('space'))}." if d.get("space") else
                                           f"{_indep(p, d.get('army'))}: not on the map yet."),
    "DeckShuffled": lambda p, d: f"The Tyche deck is shuffled ({len(d.get('order', d.get('deck', [])))} cards).",
    "CardsDealt": lambda p, d: (f"{d.get('seat')} is dealt {', '.join(_card(p, c) for c in d['cards'])}."
                                if "cards" in d else f"{d.get('seat')} is dealt {d.get('count', '?')} cards."),
    "CardPlayed": lambda p, d: f"{d.get('seat')} plays {_card(p, d.get('card'))}"
                               + (f" for {d['use']}" if d.get("use") else "") + ".",
    "CardDiscarded": lambda p, d: f"{d.get('seat')} discards {_card(p, d.get('card'))}.",
    "HandsCleared": lambda p, d: "The hands are cleared.",
    "TurnOrderSet": lambda p, d: f"Turn order: {', '.join(d.get('order', []))}.",
    "UsurpersLabelled": lambda p, d: (f"Usurper: {', '.join(d['seats'])}." if d.get("seats") else "No usurper."),
    "ChampionsSet": lambda p, d: f"Champions: {', '.join(d.get('seats', []))}.",
    "ChampionLost": lambda p, d: f"{d.get('seat')} loses Champion status.",
    "RoundStarted": lambda p, d: f"Round {d.get('round')} begins.",
    "PlayerTurnStarted": lambda p, d: f"{d.get('seat')}'s player-turn begins.",
    "TurnPassed": lambda p, d: f"{d.get('seat', d.get('from'))} ends the player-turn.",
    "MercenaryRaised": lambda p, d: f"{d.get('seat')} raises a mercenary CU in {_sp(p, d.get('space'))}.",
    "MinorGeneralPlaced": lambda p, d: f"{d.get('seat')} places a minor general in {_sp(p, d.get('space'))}.",
    "MinorGeneralRemoved": lambda p, d: f"{d.get('seat')}'s minor general leaves {_sp(p, d.get('space'))}.",
    "TrainingPaid": lambda p, d: f"{d.get('seat')} pays {ops_text(d.get('ops'))} to train a {d.get('unit')}.",
    "LegitimacyAdjusted": lambda p, d: f"{d.get('seat')} LP {d.get('delta', 0):+d}.",
    "PhaseStarted": lambda p, d: f"Phase: {str(d.get('phase', '')).replace('_', ' ')}.",
    "VictoryClaimed": lambda p, d: f"{d.get('seat')} declares an automatic victory ({d.get('kind', '').upper()}).",
    "GameWon": lambda p, d: f"{d.get('seat', d.get('winner'))} wins the game ({d.get('how', '')}).",
    "RoyalMoved": lambda p, d: f"{_royal(p, d.get('royal'))} moves to {_sp(p, d.get('space'))}.",
    "RoyalRemoved": lambda p, d: f"{_royal(p, d.get('royal'))} leaves play"
                                 + (f" ({d['reason']})" if d.get("reason") else "") + ".",
    "TycheDealt": lambda p, d: "Tyche cards dealt: " + ", ".join(f"{s} {n}" for s, n in d.get("counts", {}).items())
                               + ".",
    "CardDrawn": lambda p, d: f"{d.get('seat')} draws {', '.join(_card(p, c) for c in d.get('cards', []))}.",
    "SurrenderDeclined": lambda p, d: f"{d.get('seat')} declines surrender in {_sp(p, d.get('space'))}.",
    "UnitTrained": lambda p, d: f"{d.get('seat')} completes a {d.get('unit', 'unit')}"
                                + (f" in {_sp(p, d['space'])}" if d.get("space") else "") + ".",
    "ReinforcementsGranted": lambda p, d: "Reinforcements (R-7.1): " + "; ".join(
        f"{seat} {_cus(cus)}" for seat, cus in (d.get("cus") or {}).items()) + ".",
    "DispersedAdded": lambda p, d: f"{d.get('seat')}'s {_cus(d.get('cus'))} go to the dispersed box.",
    "CommanderChosen": lambda p, d: f"{_gen(p, d.get('general'))} commands in {_sp(p, d.get('space'))}.",
    "SpecialUnitJoined": lambda p, d: f"{d.get('seat')}'s army in {_sp(p, d.get('space'))} is joined by the "
                                      f"{_special(p, d.get('unit'))} ({_card(p, d.get('card'))}, R-4.1).",
    "CardEventSkipped": lambda p, d: f"The event of {_card(p, d.get('card'))} is not resolved by the judge yet.",
    "TurnEnded": lambda p, d: f"Turn {d.get('turn', '')} ends.",
    "Note": lambda p, d: f"Note: {d.get('text', '')}.",
    "VictoryClaimUpdated": lambda p, d: f"Victory claim: {d.get('seat', '')} {d.get('status', d.get('kind', ''))}.",
    "ArmyMoved": lambda p, d: f"{_mover(p, d)} {_path(p, d)}"
                              + (f" with {_cus(d['cus'])}" if d.get("cus") else "") + ".",
    "BattleFought": lambda p, d: _battle(p, d),
    "SiegeAssaulted": lambda p, d: f"{_who(p, d)} assaults {_sp(p, d.get('space'))}"
                                   + (f": {d['result']}" if d.get("result") else "") + ".",
    "SiegePointScored": lambda p, d: f"Siege point at {_sp(p, d.get('space'))}.",
    # -- war (R-9 … R-16): the dice of each check are shown with its DiceRolled line --
    "UnrestStruck": lambda p, d: f"Unrest ({_card(p, d.get('card'))}, played by {d.get('seat')}) strikes "
                                 f"{_prov(p, d.get('province'))}"
                                 + (f", spreading to {_prov(p, d['spread_to'])}" if d.get("spread_to") else "")
                                 + (f": independent markers in {_names(p, d.get('spaces'))}" if d.get("spaces")
                                    else ": no space can revolt") + ".",
    "InterceptionRolled": lambda p, d: f"{d.get('seat')} tries to intercept from {_sp(p, d.get('from'))} into "
                                       f"{_sp(p, d.get('into'))}: die {d.get('die')} against initiative "
                                       f"{d.get('initiative')}, " + ("success" if d.get("success") else "failed") + ".",
    "AvoidBattleRolled": lambda p, d: f"{d.get('seat')} tries to avoid battle at {_sp(p, d.get('space'))} toward "
                                      f"{_sp(p, d.get('toward'))}: die {d.get('die')} against initiative "
                                      f"{d.get('initiative')}, " + ("success" if d.get("success") else "failed") + ".",
    "BattleAvoided": lambda p, d: f"{d.get('seat')} avoids battle" + (f", stepping to {_sp(p, d['to'])}"
                                                                       if d.get("to") else "") + ".",
    "AssaultRolled": lambda p, d: f"{d.get('seat')} assaults {_sp(p, d.get('space'))}: "
                                  f"{'+'.join(str(v) for v in d.get('dice', []))}"
                                  + (f" {d['modifier']:+d}" if d.get("modifier") else "")
                                  + (" (" + ", ".join(str(m.get("why")) for m in d["modifiers"]) + ")"
                                     if d.get("modifiers") else "")
                                  + f", {d.get('points', 0)} siege point(s), {d.get('lost', 0)} CU(s) lost.",
    "AssaultCancelled": lambda p, d: f"{d.get('seat')}'s assault on {_sp(p, d.get('space'))} does not happen: "
                                     f"{d.get('why', '')}.",
    "SiegePointsScored": lambda p, d: f"Siege of {_sp(p, d.get('space'))}: {d.get('total')} of {d.get('needed')} "
                                      "siege points.",
    "SiegeCompleted": lambda p, d: f"{d.get('seat')} completes the siege of {_sp(p, d.get('space'))}.",
    "SiegeLifted": lambda p, d: f"The siege of {_sp(p, d.get('space'))} is lifted.",
    "OverrunCarriedOut": lambda p, d: f"{d.get('seat')} overruns {d.get('enemy')}'s units in "
                                      f"{_sp(p, d.get('space'))}.",
    "LeaderLossChecked": lambda p, d: f"Leader loss check for {_gen(p, d.get('general'))}: die {d.get('die')}, "
                                      + ("killed." if d.get("killed") else "safe."),
    "AttritionRolled": lambda p, d: f"Attrition of {d.get('seat')}'s Macedonians in {_sp(p, d.get('space'))}: "
                                    f"{_cus(d.get('eliminated')) if d.get('eliminated') else 'none'} eliminated.",
    "ElephantsRolled": lambda p, d: f"{d.get('side')}'s elephants at {_sp(p, d.get('space'))} add "
                                    f"{sum(int(r.get('result') or 0) for r in d.get('reads', []))} strength.",
    "HostileTribesRolled": lambda p, d: f"Hostile tribes at {_sp(p, d.get('space'))} attack {d.get('seat')}: "
                                        f"die {d.get('die')}, {d.get('lost', 0)} CU(s) lost.",
    "IndependentArmyActivated": lambda p, d: f"{d.get('seat')} activates {indep_name(p, d.get('army'))} "
                                             f"({_card(p, d.get('card'))}).",
    "IndependentArmyMoved": lambda p, d: f"{indep_name(p, d.get('army'), True)} "
                                         f"{_iv(p, d.get('army'), 'moves', 'move')} from {_sp(p, d.get('from'))} to "
                                         f"{_sp(p, d.get('to'))}.",
    "IndependentArmyRemoved": lambda p, d: f"{indep_name(p, d.get('army'), True)} "
                                           f"{_iv(p, d.get('army'), 'is', 'are')} beaten at {_sp(p, d.get('space'))}"
                                           + ((" and " + _iv(p, d.get('army'), "returns to its", "return to their")
                                               + " box") if d.get("to_box") else
                                              " and " + _iv(p, d.get('army'), "leaves", "leave") + " play") + ".",
    "RoyalCUsDefected": lambda p, d: f"Royal CUs go over to {d.get('to', d.get('seat', 'the other side'))} at "
                                     f"{_sp(p, d.get('space'))} (R-4.3).",
    "BesiegedRoyalCUsDeserted": lambda p, d: f"{d.get('count')} royal CU(s) besieged in {_sp(p, d.get('space'))} "
                                             f"desert {d.get('from')} for {d.get('to')}, who has more "
                                             "legitimacy (R-4.3).",
    "Sallied": lambda p, d: f"{d.get('seat')} sallies out of {_sp(p, d.get('space'))} against "
                            f"{d.get('enemy')} (R-5).",
    "IndependentSiegeBegan": lambda p, d: f"{indep_name(p, d.get('army'), True)} "
                                          f"{_iv(p, d.get('army'), 'besieges', 'besiege')} {_sp(p, d.get('space'))}"
                                          + (f", held by {d['seat']}" if d.get("seat") else "")
                                          + " (R-14).",
    "NavalBattleDeclared": lambda p, d: f"{d.get('seat')} declares a naval battle"
                                        + (f" at {_sp(p, d['space'])}" if d.get("space") else "") + ".",
    "FleetsFought": lambda p, d: "Naval battle" + (f" at {_sp(p, d['space'])}" if d.get("space") else "")
                                 + (f": {d['winner']} wins" if d.get("winner") else "") + ".",
    "FleetDispersed": lambda p, d: f"The {_fleet(p, d.get('fleet', ''))} is dispersed.",
    "FleetUpgraded": lambda p, d: f"{d.get('seat')} upgrades the {_fleet(p, d.get('fleet'))} to strength "
                                  f"{d.get('strength', '?')}" + (f" with {card_label(p, d['card'])}"
                                                                 if d.get("card") else "") + " (R-8.2).",
    "FleetUpgradeLost": lambda p, d: f"The {_fleet(p, d.get('fleet'))} changes hands"
                                     + (f" (now {d['owner']}'s)" if d.get("owner") else "")
                                     + f" and drops to its printed strength {d.get('strength', '?')} (R-15).",
    "ReactionWindowOpened": lambda p, d: _window(p, d),
    "ReactionWindowClosed": lambda p, d: "",
    "MoveSuspended": lambda p, d: "",
    "OrdersWithheld": lambda p, d: "",  # bookkeeping of a paused player-turn
    "OrdersRevealed": lambda p, d: "",
    "UnitsWentInside": lambda p, d: f"{d.get('seat')} puts {_cus(d.get('cus') or {})}"
                                    + (f" and {', '.join(_gen(p, g) for g in d['generals'])}" if d.get("generals")
                                       else "") + f" inside {_sp(p, d.get('space'))} ({d.get('rule', 'R-5')}).",
    "UnitsCameOut": lambda p, d: f"{d.get('seat')}'s units come out of {_sp(p, d.get('space'))} (R-5).",  # judge-only: the mover's remaining orders
    "ReactionChosen": lambda p, d: _reaction(p, d),
    "InsideUnitsStayedOut": lambda p, d: f"{d.get('seat')}'s units inside {_sp(p, d.get('space'))} "
                                         f"({_cus(d.get('cus') or {})}) stay out of the battle (R-9.2).",
    "MoveEnded": lambda p, d: (f"{d.get('seat')}'s move ends in {_sp(p, d.get('space'))}, where its army was "
                               "wiped out." if d.get("wiped_out") else
                               f"{d.get('seat')}'s army ends its move in {_sp(p, d.get('space'))}."),
    "MoveCancelled": lambda p, d: f"{d.get('seat')}'s move stops: {d.get('why', '')}.",
    "ReinforcementsPlaced": lambda p, d: f"{d.get('seat')} has placed the reinforcements.",
    "ArmyReorganised": lambda p, d: f"{d.get('seat')} reorganises the army in {_sp(p, d.get('space'))}.",
    "StandingOrdersSet": lambda p, d: f"{d.get('seat')} sets {len(d.get('orders') or [])} standing order(s).",
}


_WINDOW_ASK = {"intercept": "may intercept", "avoid_battle": "may try to avoid battle",
               "naval_battle": "may declare a naval battle",
               "inside_join": "decides whether the units inside join the battle"}


def _window(pack: Pack, d: Mapping[str, Any]) -> str:
    """R-9.3/R-15/R-9.2: "north's move stops at Gaza (Tyche segment): east may
    intercept." """
    kind = str(d.get("kind", "react"))
    seg = " (Tyche segment)" if d.get("segment") == "tyche" else ""
    ask = _WINDOW_ASK.get(kind, "may " + kind.replace("_", " "))
    return f"{d.get('mover')}'s move stops at {_sp(pack, d.get('space'))}{seg}: {d.get('seat')} {ask}."


def _reaction(pack: Pack, d: Mapping[str, Any]) -> str:
    """A reaction chosen in a window or by a standing order, in words (R-9.3, R-15,
    R-9.2)."""
    kind, choice, seat = str(d.get("kind")), d.get("choice"), d.get("seat")
    how = " (standing order)" if d.get("source") == "standing" else ""
    where = _sp(pack, d.get("space"))
    if kind == "naval_battle":
        if not choice:
            return f"{seat} declares no naval battle{how}."
        names = ", ".join(pack.fleets[f].name if f in pack.fleets else str(f) for f in choice)
        return f"{seat} declares a naval battle with the {names}{how}."
    if kind == "inside_join":
        return (f"{seat}'s units inside {where} " + ("join the battle" if choice != "stay"
                                                     else "stay out of the battle") + f"{how}.")
    if choice:
        return f"{seat} chooses to {kind.replace('_', ' ')} ({_sp(pack, choice)}){how}."
    return f"{seat} does not {kind.replace('_', ' ')}{how}."


def _battle(pack: Pack, d: Mapping[str, Any]) -> str:
    """R-9.2: "Battle at Gaza, east (strength 9, roll 7, score 5) attacks south (…):
    east wins." Ties and royal CUs joining (R-4.3) read as such."""
    where = _sp(pack, d.get("space"))
    attacker, defender = d.get("attacker", "?"), d.get("defender", "?")
    if d.get("result") == "joined":
        return f"At {where} the royal CUs join {d.get('winner')} without a battle (R-4.3)."

    def side(role: str, who: Any) -> str:
        parts = [f"{k} {d[k + 's'][role]}" for k in ("strength", "roll", "score")
                 if isinstance(d.get(k + "s"), Mapping) and role in d[k + "s"]]
        return f"{who} ({', '.join(parts)})" if parts else str(who)

    outcome = "a tie" if d.get("result") == "tie" else f"{d.get('winner')} wins"
    return f"Battle at {where}: {side('attacker', attacker)} attacks {side('defender', defender)}: {outcome}."


def _prov(pack: Pack, province: Any) -> str:
    if isinstance(province, str) and province in pack.provinces:
        return pack.provinces[province].name
    return str(province)


def _names(pack: Pack, spaces: Any) -> str:
    return ", ".join(_sp(pack, x) for x in (spaces or []))


def narrate(pack: Pack, event: rules.Event) -> str:
    """One sentence for ``event`` (empty for bookkeeping events not worth telling)."""
    if event.kind in ("OrdersApplied",):
        return ""
    fn = SENTENCES.get(event.kind)
    data = dict(event.data)
    if fn is None:
        return fallback(pack, event.kind, data)
    try:
        return fn(pack, data)
    except Exception:  # noqa: BLE001 - an odd event must not break a report
        return f"{event.kind}: {data}"


def fallback(pack: Pack, kind: str, data: Mapping[str, Any]) -> str:
    """A readable sentence for an event kind with no sentence of its own:
    ``"Army intercepted: space Gaza, seat east (R-9.3)."`` (ids shown as names)."""
    words = "".join(" " + c.lower() if c.isupper() else c for c in kind).strip().capitalize()
    parts = []
    for k, v in data.items():
        if k == "rule":
            continue
        if k in ("space", "from", "to") and isinstance(v, str):
            v = _sp(pack, v)
        elif k in ("general", "commander"):
            v = _gen(pack, v)
        elif k == "royal":
            v = _royal(pack, v)
        elif k == "card":
            v = _card(pack, v)
        parts.append(f"{k.replace('_', ' ')} {v}")
    rule = f" ({data['rule']})" if data.get("rule") else ""
    return f"{words}: {', '.join(parts)}{rule}." if parts else f"{words}{rule}."
