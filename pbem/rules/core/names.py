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


def cus_text(cus: Any) -> str:
    if isinstance(cus, Mapping):
        return ", ".join(f"{n} {str(t).replace('_', ' ')}" for t, n in cus.items() if n) or "no CUs"
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


def battle_text(pack: Pack, d: Mapping[str, Any]) -> str:
    """R-9.2: "Battle at Gaza, east (strength 9, roll 7, score 5) attacks south (…):
    east wins." Ties and royal CUs joining (R-4.3) read as such."""
    where = space_name(pack, d.get("space"))
    attacker, defender = d.get("attacker", "?"), d.get("defender", "?")
    if d.get("result") == "joined":
        return f"At {where} the royal CUs join {d.get('winner')} without a battle (R-4.3)."

    def side(role: str, who: Any) -> str:
        parts = [f"{k} {d[k + 's'][role]}" for k in ("strength", "roll", "score")
                 if isinstance(d.get(k + "s"), Mapping) and role in d[k + "s"]]
        return f"{who} ({', '.join(parts)})" if parts else str(who)

    outcome = "a tie" if d.get("result") == "tie" else f"{d.get('winner')} wins"
    return f"Battle at {where}: {side('attacker', attacker)} attacks {side('defender', defender)}: {outcome}."


def province_name(pack: Pack, province: Any) -> str:
    if isinstance(province, str) and province in pack.provinces:
        return pack.provinces[province].name
    return str(province)


def spaces_text(pack: Pack, spaces: Any) -> str:
    return ", ".join(space_name(pack, x) for x in (spaces or []))
