"""Pack entries as players read them: the printed names of spaces, generals, royals,
independent armies, fleets, special units and cards, and the small phrases the report
sentences of the event catalogue (:mod:`pbem.rules.core.events`) are built from.

Unknown ids are shown as they are, so an odd or old event still reads as text.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pbem.pack.model import Pack
from pbem.plural import count
from pbem.rules.core.pack import const
from pbem.rules.core.units import unit_strength, unit_types


def space_name(pack: Pack, space: Any) -> str:
    """The printed name of a space id (``"pelusium"`` -> ``"Pelusium"``); ``"off map"`` for
    None; unknown ids are returned as they are."""
    if space is None:
        return "off map"
    if isinstance(space, str) and space in pack.spaces:
        return pack.spaces[space].name
    return str(space)


def named(table: str):
    """A name lookup for one table of the pack (generals, royals, ...): the printed
    name of an id, or the value itself as text when the pack does not know it."""
    def name(pack: Pack, x: Any) -> str:
        entries = getattr(pack, table)
        return entries[x].name if isinstance(x, str) and x in entries else str(x)
    return name


general_name = named("generals")


royal_name = named("royals")


indep_army_name = named("independent_armies")


fleet_name = named("fleets")


special_unit_name = named("special_units")


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


def printed_name(pack: Pack, x: Any) -> str:
    """The printed name of anything of the pack a player may name, given by id or by
    name in any case (``"greek_army"``, ``"Greek army"`` -> ``"Greek Army"``; spaces
    before the other tables, provinces last, as :func:`_id_names`); a value the pack
    does not know comes back as text unchanged. The one place ids become names."""
    text = str(x)
    names = _id_names(pack)
    if text in names:
        return names[text]
    key = "_".join(text.strip().lower().split())
    if key in names:
        return names[key]
    by_name = {v.lower(): v for v in reversed(list(names.values()))}
    return by_name.get(" ".join(text.strip().lower().split()), text)


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
    return count(int(n), "OP") if str(n).lstrip("-").isdigit() else f"{n} OPs"


def a_unit(unit: Any) -> str:
    """A unit type with its indefinite article: ``"a phalangite"``, ``"an auxiliary"``."""
    word = str(unit).replace("_", " ")
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


USE_WORDS = {"garrisons": "to place garrisons", "event": "for its event", "activate": "to activate an army",
             "train": "to train units", "upgrade_fleet": "to upgrade a fleet", "discard": "as a discard"}
"""How a report says what a card was played for (R-8.2), by its use."""


def use_text(use: Any) -> str:
    """``CardPlayed``'s use in words: ``"for its event"``, ``"to place garrisons"``."""
    return USE_WORDS.get(str(use), f"for {str(use).replace('_', ' ')}")


REMOVAL_WHY = {"forage": "forage", "attrition": "attrition", "tie": "a tie: both armies lose 1 CU",
               "assault losses": "assault losses", "hostile tribes": "hostile tribes",
               "defeated: mercenaries and elephants eliminated":
                   "defeated: its mercenaries and elephants are eliminated"}
"""The causes of ``CUsRemoved`` (its ``why``) as the reports say them."""


def cus_removed_text(pack: Pack, d: Mapping[str, Any]) -> str:
    """R-8.8, R-9.2, R-9.5, R-10: ``"west loses 1 mercenary in Thermum (forage: more CUs
    than its limit of 6, R-8.8)"``: whose CUs, where, and why."""
    why, rule = str(d.get("why") or ""), d.get("rule")
    if why == "forage":
        cause = f"forage: more CUs than the space's limit of {d['limit']}" if d.get("limit") is not None \
            else "forage"
    elif why == "winner's loss":
        ratio = const(pack, "winner_no_loss_ratio")
        cause = f"the winner's loss: its score was less than {ratio} times the loser's"
    else:
        cause = REMOVAL_WHY.get(why, why)
    chosen = "; the types as its standing order on losses says" if d.get("chosen") else ""
    where = space_name(pack, d.get("space"))
    return (f"{d.get('seat')} loses {cus_text(d.get('cus'), pack)} in {where}"
            + (f" ({cause}{chosen}, {rule})" if cause else f" ({rule})" if rule else "") + ".")


def garrison_removed_text(pack: Pack, d: Mapping[str, Any]) -> str:
    """Why a garrison leaves the map (R-8.1, R-13, R-14, R-16): the surrender segment of
    another seat, isolation (and what cut its chain), an independent army's victory,
    unrest, a card."""
    seat, where = d.get("seat"), space_name(pack, d.get("space"))
    rule, why, by = d.get("rule"), str(d.get("why") or ""), d.get("by")
    head = f"The {seat} garrison in {where} is removed"
    if why == "isolated":
        by = d.get("cut_by") or {}
        cut = [f"{space_name(pack, x)} ({by[x]})" if isinstance(by, Mapping) else space_name(pack, x) for x in by]
        shown = ", ".join(cut[:4]) + (f" and {count(len(cut) - 4, 'space')} further off" if len(cut) > 4 else "")
        return (f"{head}: isolated, no chain of land paths free of enemy CUs and markers leads to "
                f"{a_unit(f'{seat} general')} or major city" + (f"; the way is cut at {shown}" if cut else "")
                + f" ({rule}).")
    if by == "independent":
        return f"{head}: the independent army won there ({rule})."
    if by:
        return f"{by} removes the {seat} garrison in {where} in its surrender segment ({rule})."
    if why == "unrest":
        return f"{head}: the space revolts ({rule})."
    return f"{head}" + (f" ({why}, {rule})." if why else f" ({rule})." if rule else ".")


_INDEP_RULER = re.compile(r"^\S+ of ")


def indep_name(pack: Pack, army: Any, start: bool = False) -> str:
    """An independent army as a noun phrase: ``"the Greek Army"``, ``"the Scythians"``,
    but ``"Ariarathes of Cappadocia"`` — a pack name of the form "<Name> of <Place>" is a
    ruler's name and takes no article (R-14). ``start`` capitalises the article."""
    name = indep_army_name(pack, army)
    if _INDEP_RULER.match(name):
        return name
    return ("The " if start else "the ") + name


def indep_plural(pack: Pack, army: Any) -> bool:
    """Whether the army's name is plural ("the Scythians move", "the Greek Army moves")."""
    name = indep_army_name(pack, army)
    if _INDEP_RULER.match(name):
        return False
    head = re.split(r" of | \(", name)[0].split()
    return bool(head) and head[-1].endswith("s")


def indep_verb(pack: Pack, army: Any, singular: str, plural: str) -> str:
    return plural if indep_plural(pack, army) else singular


def card_label(pack: Pack, number: Any) -> str:
    """A card as players read it: ``"#12 Name (3 OPs)"``, ``"#5 Name (1 OP)"`` (no OPs
    part for cards without OPs); ``"card N"`` for a number the pack does not know."""
    try:
        c = pack.cards[int(number)]
    except (KeyError, TypeError, ValueError):
        return f"card {number}"
    return f"#{c.number} {c.name}" + (f" ({ops_text(c.ops)})" if c.ops else "")


def cus_text(cus: Any, pack: Pack | None = None) -> str:
    """CUs as players read them: ``"2 loyal, 1 mercenary"``; with ``pack`` in the
    pack's order of CU types (the order of every table) and a special unit by its
    printed name (``"1 Silver Shields"``, R-4.1)."""
    if isinstance(cus, Mapping):
        def name(t: Any) -> str:
            if pack is not None and t in pack.special_units:
                return pack.special_units[t].name
            return str(t).replace("_", " ")
        order = list(cus)
        if pack is not None:  # the pack's order, as every table lists them (issue 24 item H)
            known = unit_types(pack)
            order = [t for t in known if t in cus] + [t for t in cus if t not in known]
        return ", ".join(f"{cus[t]} {name(t)}" for t in order if cus[t]) or "no CUs"
    return str(cus)


def path_text(pack: Pack, d: Mapping[str, Any]) -> str:
    path = d.get("path")
    if isinstance(path, (list, tuple)) and len(path) > 1:
        return " -> ".join(space_name(pack, x) for x in path)
    return f"{space_name(pack, d.get('from'))} -> {space_name(pack, d.get('to', d.get('space')))}"


def who_text(pack: Pack, d: Mapping[str, Any]) -> str:
    g = d.get("general") or d.get("commander")
    seat = d.get("seat")
    if g:
        return f"{general_name(pack, g)} ({seat})" if seat else general_name(pack, g)
    if d.get("army"):
        return indep_army_name(pack, d["army"])
    return str(seat or "someone")


OFF_MAP = {"dispersed": "goes to the dispersed box", "dead": "is dead",
            "track": "waits on the turn track", "deck": "waits in the Tyche deck (his card)",
            "box": "waits off the map", "map": "is placed on the map"}


def off_map_text(where: Any) -> str:
    """Where a general not on a map space is, as a verb phrase (``GeneralPlaced``)."""
    return OFF_MAP.get(str(where), f"goes to the {str(where).replace('_', ' ')} box" if where
                        else "waits off the map")


def mover_text(pack: Pack, d: Mapping[str, Any]) -> str:
    """The subject of an ``ArmyMoved`` sentence naming the army by its general, the
    commander (highest rank, then seniority, R-5) first: ``"south moves Ptolemy's army"``,
    ``"north moves Craterus's army (with Antipater)"``; a minor general's army, or the
    general/army the event names (older logs)."""
    gens = [g for g in d.get("generals") or [] if isinstance(g, str)]
    seat = d.get("seat")
    if not seat or d.get("general") or d.get("commander"):
        return f"{who_text(pack, d)} moves"
    if gens:
        def key(g: str) -> tuple:
            gen = pack.generals.get(g)
            return (-gen.rank, gen.seniority, g) if gen else (1, 99, g)
        first, *rest = sorted(gens, key=key)
        army = f"{general_name(pack, first)}'s army" + (f" (with {', '.join(general_name(pack, g) for g in rest)})" if rest else "")
    elif d.get("minor"):
        army = "the army of a minor general"
    else:
        army = "an army"
    return f"{seat} moves {army}"


def primary_text(pack: Pack, d: Mapping[str, Any]) -> str:
    cards = d.get("cards")
    if isinstance(cards, Mapping):
        return "Primary generals: " + "; ".join(
            f"{seat} {', '.join(general_name(pack, pack.cards[c].general) if int(c) in pack.cards and pack.cards[int(c)].general else str(c) for c in cs)}"
            for seat, cs in cards.items()) + "."
    return f"{d.get('seat')} receives {', '.join(general_name(pack, g) for g in d.get('generals', []))}."


WINDOW_ASK = {"intercept": "may intercept", "avoid_battle": "may try to avoid battle",
               "naval_battle": "may declare a naval battle",
               "inside_join": "decides whether the units inside join the battle",
               "surprise": "may play surprise cards (R-8.5)"}


def modifier_text(pack: Pack, d: Mapping[str, Any]) -> str:
    """R-9.3, R-8.5: `` +2 (#51 Ambush)`` for a check a surprise card modified, else
    nothing."""
    if not d.get("modifier"):
        return ""
    card = f" ({card_label(pack, d['card'])})" if d.get("card") else ""
    return f" {int(d['modifier']):+d}{card}"


def window_text(pack: Pack, d: Mapping[str, Any]) -> str:
    """R-9.3/R-15/R-9.2: "north's move stops at Gaza (Tyche segment): east may
    intercept." """
    kind = str(d.get("kind", "react"))
    seg = " (Tyche segment)" if d.get("segment") == "tyche" else ""
    ask = WINDOW_ASK.get(kind, "may " + kind.replace("_", " "))
    return f"{d.get('mover')}'s move stops at {space_name(pack, d.get('space'))}{seg}: {d.get('seat')} {ask}."


def reaction_text(pack: Pack, d: Mapping[str, Any]) -> str:
    """A reaction chosen in a window or by a standing order, in words (R-9.3, R-15,
    R-9.2)."""
    kind, choice, seat = str(d.get("kind")), d.get("choice"), d.get("seat")
    how = " (standing order)" if d.get("source") == "standing" else ""
    where = space_name(pack, d.get("space"))
    if kind == "naval_battle":
        if not choice:
            return f"{seat} declares no naval battle{how}."
        names = ", ".join(pack.fleets[f].name if f in pack.fleets else str(f) for f in choice)
        return f"{seat} declares a naval battle with the {names}{how}."
    if kind == "inside_join":
        return (f"{seat}'s units inside {where} " + ("join the battle" if choice != "stay"
                                                     else "stay out of the battle") + f"{how}.")
    if kind == "surprise":  # the cards stay secret until they are played
        return f"{seat} has answered: its surprise cards stay secret until played."
    if choice:
        return f"{seat} chooses to {kind.replace('_', ' ')} ({space_name(pack, choice)}){how}."
    return f"{seat} does not {kind.replace('_', ' ')}{how}."


def chart_text(read: Any) -> str:
    """A chart lookup as players can redo it: ``"battle chart row 9, column 7: 6"``
    (``read`` as the rules core records it: ``{chart, row, column, result}``)."""
    if not isinstance(read, Mapping) or "chart" not in read:
        return ""
    col = read.get("column")
    column = f", column {col}" if col not in (None, "result") else ""
    return f"{str(read['chart']).replace('_', ' ')} chart row {read.get('row')}{column}: {read.get('result')}"


def _cu_terms(pack: Pack, rec: Mapping[str, Any]) -> list[str]:
    """The terms of a side's CU strength (R-4.4, R-9.2, R-14): ``"2 loyal x 2"``, the
    elephants' strength from the elephant chart (``"2 elephant 5 (elephant chart 2+3)"``),
    each independent army's printed strength."""
    terms = []
    for army, n in (rec.get("armies") or {}).items():
        terms.append(f"{indep_army_name(pack, army)} {n}")
    for t, n in (rec.get("cus") or {}).items():
        st = unit_strength(pack, t)
        name = pack.special_units[t].name if t in pack.special_units else str(t).replace("_", " ")
        if st is None:
            got = [int(v) for v in rec.get("elephants") or []]
            terms.append(f"{n} {name} {sum(got)} (elephant chart {'+'.join(map(str, got)) or '?'})")
        elif st:
            terms.append(f"{n} {name} x {st}")
    return terms


def _leader(pack: Pack, rec: Mapping[str, Any]) -> str:
    """Whose battle rating a side has: ``"Craterus's"``, ``"the minor general's"``."""
    cmd = rec.get("commander")
    armies = list(rec.get("armies") or {})
    return ("the minor general's" if cmd == "minor" else f"{general_name(pack, cmd)}'s" if cmd
            else f"{indep_army_name(pack, armies[0])}'s" if len(armies) == 1 else "the best independent army's")


def battle_roll_text(pack: Pack, rec: Mapping[str, Any]) -> tuple[str, str]:
    """A side's battle dice and the row of the battle chart they lead to (R-9.2), as
    ``(dice, row)``: ``("dice 6+6 = 12, above Craterus's battle rating 6", "row 12 (the
    dice)")``; a roll below the commander's battle rating counts as the rating:
    ``("dice 2+2 = 4, below Antigonus's battle rating 5, which counts instead", "row 5
    (the rating)")``; no general, no rating. A re-roll by a surprise card says so."""
    dice = [int(v) for v in rec.get("dice") or []]
    total = sum(dice)
    text = "dice " + "+".join(map(str, dice)) + (f" = {total}" if len(dice) > 1 else "")
    if rec.get("rerolled") is not None:
        text += f" (re-rolled with {card_label(pack, rec['rerolled'])}, R-8.5)"
    row = rec.get("roll", total)
    if rec.get("rating") is None:
        return text + ", no battle rating (no general)", f"row {row} (the dice)"
    floor, leader = int(rec["rating"]), _leader(pack, rec)
    if total < floor:
        return (text + f", below {leader} battle rating {floor}, which counts instead",
                f"row {row} (the rating)")
    side = "equal to" if total == floor else "above"
    return text + f", {side} {leader} battle rating {floor}", f"row {row} (the dice)"


def battle_side_text(pack: Pack, rec: Mapping[str, Any], who: str) -> str:
    """One side of a battle with every term of its numbers (R-9.2): its strength as the
    sum of its CUs, elephants, independent armies and local troops; its dice and how
    they compare with the commander's battle rating (a lower roll counts as the rating);
    the battle chart's row (the dice, or the rating) and column (the strength) giving
    its score. Older records without the terms read as ``"strength 7, roll 9, score
    6"``."""
    if "dice" not in rec:
        parts = [f"{k} {rec[k]}" for k in ("strength", "roll", "score") if k in rec]
        return f"{who} ({', '.join(parts)})"
    terms = _cu_terms(pack, rec)
    if "cus" not in rec and "armies" not in rec:
        terms = [f"CUs {rec.get('cus_strength')}"]
    if rec.get("local_troops"):
        terms.append(f"local troops {rec['local_troops']}")
    strength = f"strength {rec.get('strength')}" + (f" = {' + '.join(terms)}" if terms else "")
    dice, row = battle_roll_text(pack, rec)
    read = rec.get("read")
    if isinstance(read, Mapping) and "chart" in read:
        col = read.get("column")
        column = (f", column {col} (the strength{', at least 1' if col != rec.get('strength') else ''})"
                  if col not in (None, "result") else "")
        chart = f"{str(read['chart']).replace('_', ' ')} chart {row}{column}: score {read.get('result')}"
    else:
        chart = f"score {rec.get('score')}"
    return f"{who}: {strength}; {dice}; {chart}"


def battle_text(pack: Pack, d: Mapping[str, Any]) -> str:
    """R-9.2: "Battle at Gaza: east attacks south. east: strength 9 = 3 loyal x 2 + 3
    mercenary x 1; dice 3+4 = 7, above Perdiccas's battle rating 3; battle chart row 7
    (the dice), column 9 (the strength): score 5. south: ... south wins, score 5
    against 3." Every term that entered a number is named, so a player can recompute
    it (:func:`battle_side_text`); ties and royal CUs joining (R-4.3) read as such."""
    where = space_name(pack, d.get("space"))
    attacker, defender = d.get("attacker", "?"), d.get("defender", "?")
    if d.get("result") == "joined":
        return f"At {where} the royal CUs join {d.get('winner')} without a battle (R-4.3)."
    outcome = "A tie" if d.get("result") == "tie" else f"{d.get('winner')} wins"
    sides = d.get("sides")
    if isinstance(sides, list) and len(sides) == 2 and all(isinstance(x, Mapping) for x in sides):
        a, b = sides
        scores = sorted((int(x.get("score") or 0) for x in sides), reverse=True)
        outcome += (f" (score {scores[0]} each)" if d.get("result") == "tie"
                    else f", score {scores[0]} against {scores[1]}")
        return (f"Battle at {where}: {attacker} attacks {defender}. "
                f"{battle_side_text(pack, a, a.get('side', attacker))}. "
                f"{battle_side_text(pack, b, b.get('side', defender))}. {outcome}.")

    def side(role: str, who: Any) -> str:
        parts = [f"{k} {d[k + 's'][role]}" for k in ("strength", "roll", "score")
                 if isinstance(d.get(k + "s"), Mapping) and role in d[k + "s"]]
        return f"{who} ({', '.join(parts)})" if parts else str(who)

    return f"Battle at {where}: {side('attacker', attacker)} attacks {side('defender', defender)}: {outcome}."


def naval_text(pack: Pack, d: Mapping[str, Any]) -> str:
    """R-15: "Naval battle at Smyrna: east declares against north. east: strength 1,
    dice 3+2 = 5, naval chart row 5, column 1 gives score 2. north: no fleet. east wins."
    Every term of each side's score is named."""
    where = f" at {space_name(pack, d['space'])}" if d.get("space") else ""
    parts = []
    for rec in d.get("sides") or []:
        if not isinstance(rec, Mapping):
            continue
        dice = [int(v) for v in rec.get("dice") or []]
        chart = chart_text(rec.get("read"))
        parts.append(f"{rec.get('side')}: strength {rec.get('strength')}, dice " + "+".join(map(str, dice))
                     + (f" = {sum(dice)}" if len(dice) > 1 else "")
                     + (f", {chart.replace(': ', ' gives score ', 1)}" if chart else f", score {rec.get('score')}"))
    winner = d.get("winner") or (d.get("declarer") if d.get("result") == "declarer" else
                                 d.get("mover") if d.get("result") == "mover" else None)
    head = f"Naval battle{where}" + (f": {d['declarer']} declares against {d['mover']}"
                                     if d.get("declarer") and d.get("mover") else "")
    return head + "".join(f". {x}" for x in parts) + (f". {winner} wins." if winner else ".")


def province_name(pack: Pack, province: Any) -> str:
    if isinstance(province, str) and province in pack.provinces:
        return pack.provinces[province].name
    return str(province)


def spaces_text(pack: Pack, spaces: Any) -> str:
    return ", ".join(space_name(pack, x) for x in (spaces or []))
