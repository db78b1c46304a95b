"""Pack entries as players read them: the printed names of spaces, generals, royals,
independent armies, fleets, special units and cards, and the small phrases the report
sentences of the event catalogue (:mod:`pbem.rules.core.events`) are built from.

Unknown ids are shown as they are, so an odd or old event still reads as text.

The phrases are in the reader's language (issue 28): each takes ``t``, a translations
object (:class:`Words`: ``gettext`` and ``ngettext``, as :mod:`pbem.i18n` makes them),
:data:`ENGLISH` when not given, so the English text is the source strings as they are.
The rules core only receives the object; it never chooses a language.
"""
from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from typing import Any, Protocol

from pbem.pack import names as pack_names
from pbem.pack.model import Pack
from pbem.plural import count
from pbem.rules.core.pack import const
from pbem.rules.core.units import unit_strength, unit_types


class Words(Protocol):
    """What the phrases need of a translations object (``gettext.NullTranslations`` and
    its subclasses): a message, and the form of a message for a count (CLDR plurals)."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...


ENGLISH: Words = gettext.NullTranslations()
"""The source strings as they are: English."""


def N_(message: str) -> str:
    """Mark ``message`` for extraction (Babel's ``-k N_``) in a table translated where
    it is said (``t.gettext(TABLE[key])``)."""
    return message


def space_name(pack: Pack, space: Any, t: Words = ENGLISH) -> str:
    """The printed name of a space id (``"pelusium"`` -> ``"Pelusium"``); ``"off map"`` (in
    the language of ``t``) for None; unknown ids are returned as they are."""
    if space is None:
        return t.gettext("off map")
    if isinstance(space, str) and space in pack.spaces:
        return pack.spaces[space].name
    return str(space)


INDEPENDENT = "independent"
"""The side of the independent armies in a battle or a roll's purpose (R-14), as the
rules core records it (a seat's place in ``attacker``, ``defender``, ``winner``...)."""


def side_name(side: Any, t: Words = ENGLISH) -> str:
    """A battle's side as a sentence of the report names it: a seat by its name (seat
    names stay English in every language, they are what a player writes:
    docs/glossary.md), the independent armies (:data:`INDEPENDENT`, R-14) in the
    reader's words, the glossary's "independent army": ``"independent"`` in English (as
    before), ``"el ejército independiente"``, ``"независимая армия"`` (issue 28 lang28d:
    "east атакует independent" in a Russian report)."""
    if side == INDEPENDENT:
        return t.pgettext("battle side", "independent")
    return str(side)


def _owner(owner: Any, t: Words = ENGLISH) -> str:
    """Whose marker or CUs cut a chain (R-13): a seat, or the independents' ("independent",
    the map legend's word, in the reader's language)."""
    return t.gettext("independent") if owner == INDEPENDENT else str(owner)


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
    does not know comes back as text unchanged; a name in another of the pack's
    languages (``"Вавилон"``, ``"Alejandria"``) gives the canonical one (issue 28).
    The one place ids become names."""
    text = str(x)
    names = _id_names(pack)
    if text in names:
        return names[text]
    key = "_".join(text.strip().lower().split())
    if key in names:
        return names[key]
    by_name = {v.lower(): v for v in reversed(list(names.values()))}
    hit = by_name.get(" ".join(text.strip().lower().split()))
    if hit is not None:
        return hit
    for table in _PURPOSE_TABLES:  # a name in another of the pack's languages (issue 28)
        key = pack_names.lookup(pack, table, text)
        if key is not None:
            return getattr(pack, table)[key].name
    return text


def purpose_text(pack: Pack, purpose: Any) -> str:
    """The purpose of a die roll as players read it: pack ids (whole lower-case words
    such as ``isaura``, ``leonnatus``, ``greek_army``) become printed names, so
    ``"battle in isaura: attacker (east)"`` reads ``"battle in Isaura: attacker (east)"``.
    No id of the pack is an English word the rules core writes in a purpose (checked by
    tests/report/test_wording.py), so nothing else changes; old logs read the same way."""
    names = _id_names(pack)
    text = _TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), str(purpose))
    m = _NAMED_PLACE.match(text)
    if m and pack.canonical is not None:  # a reader's pack: the rules core wrote the space's English name
        key = next((k for k, sp in pack.canonical.spaces.items() if sp.name == m.group("space")), None)
        if key is not None:
            return m.group("what") + pack.spaces[key].name
    return text


_NAMED_PLACE = re.compile(r"^(?P<what>hostile tribes in |assault on )(?P<space>.+)$")
"""The purposes whose space the rules core names by its printed (English) name, not
its id (:func:`purpose_text` says it in a reader's pack: "assault on Исавра", not
"assault on Isaura"; issue 28, try28d)."""


def ops_text(n: Any, t: Words = ENGLISH) -> str:
    """``"1 OP"``, ``"3 OPs"`` (in the language of ``t``)."""
    if str(n).lstrip("-").isdigit():
        return t.ngettext("%(num)d OP", "%(num)d OPs", int(n)) % {"num": int(n)}
    return t.gettext("%(ops)s OPs") % {"ops": n}


UNIT_WORDS = {"phalangite": N_("phalangite"), "auxiliary": N_("auxiliary")}
"""The units a player trains (R-8.4; the orders' words ``phalangite``, ``auxiliary``) as
prose names them, translated (issue 28: the order words stay English in orders only)."""


def unit_word(unit: Any, t: Words = ENGLISH) -> str:
    """A trained unit's type in the language of ``t`` (``"phalangite"`` -> ``"falangita"``
    in Spanish, R-8.4); another id as it is, ``_`` written as a space."""
    key = str(unit)
    return t.gettext(UNIT_WORDS[key]) if key in UNIT_WORDS else key.replace("_", " ")


def a_unit(unit: Any, t: Words = ENGLISH) -> str:
    """A unit type with its indefinite article: ``"a phalangite"``, ``"an auxiliary"``
    (the type's word in the language of ``t``, :func:`unit_word`)."""
    word = str(unit).replace("_", " ")
    return (t.gettext("an %(unit)s") if word[:1].lower() in "aeiou" else t.gettext("a %(unit)s")) % {
        "unit": unit_word(unit, t)}


USE_WORDS = {"garrisons": N_("to place garrisons"), "event": N_("for its event"),
             "activate": N_("to activate an army"), "train": N_("to train units"),
             "upgrade_fleet": N_("to upgrade a fleet"), "discard": N_("as a discard")}
"""How a report says what a card was played for (R-8.2), by its use."""


def use_text(use: Any, t: Words = ENGLISH) -> str:
    """``CardPlayed``'s use in words: ``"for its event"``, ``"to place garrisons"``."""
    if str(use) in USE_WORDS:
        return t.gettext(USE_WORDS[str(use)])
    return t.gettext("for %(use)s") % {"use": str(use).replace('_', ' ')}


REMOVAL_WHY = {"forage": N_("forage"), "attrition": N_("attrition"), "tie": N_("a tie: both armies lose 1 CU"),
               "assault losses": N_("assault losses"), "hostile tribes": N_("hostile tribes"),
               "defeated: mercenaries and elephants eliminated":
                   N_("defeated: its mercenaries and elephants are eliminated"),
               "overrun: mercenaries and elephants eliminated":  # try28: English in es/ru reports
                   N_("overrun: mercenaries and elephants eliminated")}
"""The causes of ``CUsRemoved`` (its ``why``) as the reports say them."""


def card_by_name(pack: Pack, name: str) -> str:
    """A card the log names by its English name (a ``why``: "Peithon's Ambition"), by
    its name in ``pack``'s language (a reader's pack, :func:`pbem.pack.names.localized`);
    any other text as it is."""
    return next((c.name for n, c in pack.cards.items() if (pack.canonical or pack).cards[n].name == name), name)


def cus_removed_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """R-8.8, R-9.2, R-9.5, R-10: ``"west loses 1 mercenary in Thermum (forage: more CUs
    than its limit of 6, R-8.8)"``: whose CUs, where, and why."""
    why, rule = str(d.get("why") or ""), d.get("rule")
    if why == "forage":
        cause = (t.gettext("forage: more CUs than the space's limit of %(limit)s") % {"limit": d['limit']}
                 if d.get("limit") is not None else t.gettext("forage"))
    elif why == "winner's loss":
        ratio = const(pack, "winner_no_loss_ratio")
        cause = t.gettext("the winner's loss: its score was less than %(ratio)s times the loser's") % {"ratio": ratio}
    else:
        cause = t.gettext(REMOVAL_WHY[why]) if why in REMOVAL_WHY else card_by_name(pack, why)
    chosen = t.gettext("; the types as its standing order on losses says") if d.get("chosen") else ""
    values = {"seat": d.get("seat"), "cus": cus_text(d.get("cus"), pack, t=t), "space": space_name(pack, d.get("space"), t),
              "why": f"{cause}{chosen}", "rule": rule}
    if cause:
        return t.gettext("%(seat)s loses %(cus)s in %(space)s (%(why)s, %(rule)s).") % values
    if rule:
        return t.gettext("%(seat)s loses %(cus)s in %(space)s (%(rule)s).") % values
    return t.gettext("%(seat)s loses %(cus)s in %(space)s.") % values


def garrison_removed_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """Why a garrison leaves the map (R-8.1, R-13, R-14, R-16): the surrender segment of
    another seat, isolation (and what cut its chain), an independent army's victory,
    unrest, a card (the log keeps its English name; ``pack`` a reader's pack,
    :func:`pbem.pack.names.localized`, says it in the reader's language: "Seutes se
    rebela", not "Seuthes Rebels")."""
    seat, where = d.get("seat"), space_name(pack, d.get("space"), t)
    rule, why, by = d.get("rule"), str(d.get("why") or ""), d.get("by")
    v = {"seat": seat, "space": where, "rule": rule, "why": why, "by": by}
    if why == "isolated":
        by = d.get("cut_by") or {}
        cut = [f"{space_name(pack, x, t)} ({_owner(by[x], t)})" if isinstance(by, Mapping) else space_name(pack, x, t)
               for x in by]
        shown = ", ".join(cut[:4])
        if len(cut) > 4:
            shown = t.ngettext("%(spaces)s and %(num)d space further off", "%(spaces)s and %(num)d spaces further off",
                               len(cut) - 4) % {"spaces": shown, "num": len(cut) - 4}
        general = (t.gettext("an %(seat)s general") if str(seat)[:1].lower() in "aeiou"
                   else t.gettext("a %(seat)s general")) % v
        if cut:
            return t.gettext("The %(seat)s garrison in %(space)s is removed: isolated, no chain of land paths free "
                             "of enemy CUs and markers leads to %(general)s or major city; the way is cut at "
                             "%(cut)s (%(rule)s).") % {**v, "general": general, "cut": shown}
        return t.gettext("The %(seat)s garrison in %(space)s is removed: isolated, no chain of land paths free "
                         "of enemy CUs and markers leads to %(general)s or major city (%(rule)s).") % {**v, "general": general}
    if by == "independent":
        return t.gettext("The %(seat)s garrison in %(space)s is removed: the independent army won there "
                         "(%(rule)s).") % v
    if by:
        return t.gettext("%(by)s removes the %(seat)s garrison in %(space)s in its surrender segment "
                         "(%(rule)s).") % v
    if why == "unrest":
        return t.gettext("The %(seat)s garrison in %(space)s is removed: the space revolts (%(rule)s).") % v
    if why:
        v["why"] = card_by_name(pack, why)
        return t.gettext("The %(seat)s garrison in %(space)s is removed (%(why)s, %(rule)s).") % v
    if rule:
        return t.gettext("The %(seat)s garrison in %(space)s is removed (%(rule)s).") % v
    return t.gettext("The %(seat)s garrison in %(space)s is removed.") % v


_INDEP_RULER = re.compile(r"^\S+ of ")


def indep_name(pack: Pack, army: Any, start: bool = False, t: Words = ENGLISH) -> str:
    """An independent army as a noun phrase: ``"the Greek Army"``, ``"the Scythians"``,
    but ``"Ariarathes of Cappadocia"`` — a pack name of the form "<Name> of <Place>" is a
    ruler's name and takes no article (R-14). ``start`` capitalises the article."""
    name = indep_army_name(pack, army)
    if _INDEP_RULER.match(name):
        return name
    return (t.gettext("The %(army)s") if start else t.gettext("the %(army)s")) % {"army": name}


def indep_plural(pack: Pack, army: Any) -> bool:
    """Whether the army's name is plural ("the Scythians move", "the Greek Army moves"),
    told by its canonical (English) name whatever the language of ``pack``: Spanish
    "Colonos griegos de Bactriana" and Russian "Скифы" are plural as their English
    names are (issue 28 text28c item 5; a language's own name fooled the check)."""
    name = indep_army_name(pack.canonical or pack, army)
    if _INDEP_RULER.match(name):
        return False
    head = re.split(r" of | \(", name)[0].split()
    return bool(head) and head[-1].endswith("s")


def indep_verb(pack: Pack, army: Any, singular: str, plural: str) -> str:
    return plural if indep_plural(pack, army) else singular


def indep_say(pack: Pack, army: Any, singular: str, plural: str, t: Words = ENGLISH, **values: Any) -> str:
    """A sentence whose subject is an independent army (``%(army)s``, capitalised), in
    the singular or plural message as its name asks (``indep_plural``), translated."""
    return (t.gettext(plural) if indep_plural(pack, army) else t.gettext(singular)) % {
        "army": indep_name(pack, army, True, t), **values}


def card_label(pack: Pack, number: Any, t: Words = ENGLISH) -> str:
    """A card as players read it: ``"#12 Name (3 OPs)"``, ``"#5 Name (1 OP)"`` (no OPs
    part for cards without OPs); ``"card N"`` for a number the pack does not know."""
    try:
        c = pack.cards[int(number)]
    except (KeyError, TypeError, ValueError):
        return t.gettext("card %(number)s") % {"number": number}
    return f"#{c.number} {c.name}" + (f" ({ops_text(c.ops, t)})" if c.ops else "")


def cu_count(n: int, unit: Any, t: Words = ENGLISH) -> str:
    """``n`` CUs of type ``unit`` as prose says them: ``"2 loyal"``, ``"1 mercenary"``;
    the four CU types (R-4.1) in the language of ``t`` with its plural forms (issue 28:
    the orders' words ``loyal``, ``mercenary`` ... stay English in orders, not in
    prose); another type (a special unit's name, an unknown id) as it is."""
    values = {"num": n}
    if unit == "royal":
        return t.ngettext("%(num)d royal", "%(num)d royal", n) % values
    if unit == "loyal":
        return t.ngettext("%(num)d loyal", "%(num)d loyal", n) % values
    if unit == "mercenary":
        return t.ngettext("%(num)d mercenary", "%(num)d mercenary", n) % values
    if unit == "elephant":
        return t.ngettext("%(num)d elephant", "%(num)d elephant", n) % values
    return f"{n} {str(unit).replace('_', ' ')}"


def cus_text(cus: Any, pack: Pack | None = None, t: Words = ENGLISH) -> str:
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
            order = [x for x in known if x in cus] + [x for x in cus if x not in known]
        return ", ".join(cu_count(cus[x], x, t) if isinstance(cus[x], int) and (pack is None or x not in
                                                                               pack.special_units)
                         else f"{cus[x]} {name(x)}" for x in order if cus[x]) or t.gettext("no CUs")
    return str(cus)


def path_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    path = d.get("path")
    if isinstance(path, (list, tuple)) and len(path) > 1:
        return " -> ".join(space_name(pack, x, t) for x in path)
    return f"{space_name(pack, d.get('from'), t)} -> {space_name(pack, d.get('to', d.get('space')), t)}"


def who_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    g = d.get("general") or d.get("commander")
    seat = d.get("seat")
    if g:
        return f"{general_name(pack, g)} ({seat})" if seat else general_name(pack, g)
    if d.get("army"):
        return indep_army_name(pack, d["army"])
    return str(seat or t.gettext("someone"))


OFF_MAP = {"dispersed": N_("goes to the dispersed box"), "dead": N_("is dead"),
           "track": N_("waits on the turn track"), "deck": N_("waits in the Tyche deck (his card)"),
           "box": N_("waits off the map"), "map": N_("is placed on the map")}


def off_map_text(where: Any, t: Words = ENGLISH) -> str:
    """Where a general not on a map space is, as a verb phrase (``GeneralPlaced``)."""
    if str(where) in OFF_MAP:
        return t.gettext(OFF_MAP[str(where)])
    if where:
        return t.gettext("goes to the %(box)s box") % {"box": str(where).replace('_', ' ')}
    return t.gettext("waits off the map")


def mover_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """The subject of an ``ArmyMoved`` sentence naming the army by its general, the
    commander (highest rank, then seniority, R-5) first: ``"south moves Ptolemy's army"``,
    ``"north moves Craterus's army (with Antipater)"``; a minor general's army, or the
    general/army the event names (older logs)."""
    gens = [g for g in d.get("generals") or [] if isinstance(g, str)]
    seat = d.get("seat")
    if not seat or d.get("general") or d.get("commander"):
        return t.gettext("%(who)s moves") % {"who": who_text(pack, d, t)}
    if gens:
        def key(g: str) -> tuple:
            gen = pack.generals.get(g)
            return (-gen.rank, gen.seniority, g) if gen else (1, 99, g)
        first, *rest = sorted(gens, key=key)
        # one sentence for the commander and the generals with him, so each language words the pair as
        # it reads (Russian: "армию (Кратер; с ним: Антипатр)", not two parentheses; issue 28 lang28f)
        army = t.gettext("%(general)s's army (with %(generals)s)") % {
            "general": general_name(pack, first), "generals": ', '.join(general_name(pack, g) for g in rest)} \
            if rest else t.gettext("%(general)s's army") % {"general": general_name(pack, first)}
    elif d.get("minor"):
        army = t.gettext("the army of a minor general")
    else:
        army = t.gettext("an army")
    return t.gettext("%(seat)s moves %(army)s") % {"seat": seat, "army": army}


def primary_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    cards = d.get("cards")
    if isinstance(cards, Mapping):
        return t.gettext("Primary generals: %(list)s.") % {"list": "; ".join(
            f"{seat} {', '.join(general_name(pack, pack.cards[c].general) if int(c) in pack.cards and pack.cards[int(c)].general else str(c) for c in cs)}"
            for seat, cs in cards.items())}
    return t.gettext("%(seat)s receives %(generals)s.") % {
        "seat": d.get('seat'), "generals": ', '.join(general_name(pack, g) for g in d.get('generals', []))}


WINDOW_ASK = {"intercept": N_("may intercept"), "avoid_battle": N_("may try to avoid battle"),
              "naval_battle": N_("may declare a naval battle"),
              "inside_join": N_("decides whether the units inside join the battle"),
              "surprise": N_("may play surprise cards (R-8.5)")}


def modifier_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """R-9.3, R-8.5: `` +2 (#51 Ambush)`` for a check a surprise card modified, else
    nothing."""
    if not d.get("modifier"):
        return ""
    card = f" ({card_label(pack, d['card'], t)})" if d.get("card") else ""
    return f" {int(d['modifier']):+d}{card}"


def window_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """R-9.3/R-15/R-9.2: "north's move stops at Gaza (Tyche segment): east may
    intercept." """
    kind = str(d.get("kind", "react"))
    ask = (t.gettext(WINDOW_ASK[kind]) if kind in WINDOW_ASK
           else t.gettext("may %(react)s") % {"react": kind.replace("_", " ")})
    v = {"mover": d.get('mover'), "space": space_name(pack, d.get('space'), t), "seat": d.get('seat'), "ask": ask}
    if d.get("segment") == "tyche":
        return t.gettext("%(mover)s's move stops at %(space)s (Tyche segment): %(seat)s %(ask)s.") % v
    return t.gettext("%(mover)s's move stops at %(space)s: %(seat)s %(ask)s.") % v


REACTIONS = {"intercept": N_("intercept"), "avoid_battle": N_("avoid battle")}
"""The reactions a seat may decline (R-9.3), as ``"%(seat)s does not %(react)s"`` names
them (why28: "north отказывается: intercept." in a Russian report)."""


def reaction_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """A reaction chosen in a window or by a standing order, in words (R-9.3, R-15,
    R-9.2): an interception names the space the interceptor comes from and the one it
    enters (``"west chooses to intercept from Sinope into Amisus (standing order)."``),
    an avoided battle the space left and the one withdrawn into (issue 24)."""
    kind, choice, seat = str(d.get("kind")), d.get("choice"), d.get("seat")
    how = t.gettext(" (standing order)") if d.get("source") == "standing" else ""
    where = space_name(pack, d.get("space"), t)
    v = {"seat": seat, "how": how, "space": where,
         "react": t.gettext(REACTIONS[kind]) if kind in REACTIONS else kind.replace('_', ' ')}
    if kind == "naval_battle":
        if not choice:
            return t.gettext("%(seat)s declares no naval battle%(how)s.") % v
        names = ", ".join(pack.fleets[f].name if f in pack.fleets else str(f) for f in choice)
        return t.gettext("%(seat)s declares a naval battle with the %(fleets)s%(how)s.") % {**v, "fleets": names}
    if kind == "inside_join":
        if choice != "stay":
            return t.gettext("%(seat)s's units inside %(space)s join the battle%(how)s.") % v
        return t.gettext("%(seat)s's units inside %(space)s stay out of the battle%(how)s.") % v
    if kind == "surprise":  # the cards stay secret until they are played
        return t.gettext("%(seat)s has answered: its surprise cards stay secret until played.") % v
    if choice and kind == "intercept":  # issue 24: both spaces, where from and where into
        return t.gettext("%(seat)s chooses to intercept from %(choice)s into %(space)s%(how)s.") % {
            **v, "choice": space_name(pack, choice, t)}
    if choice and kind == "avoid_battle":
        return t.gettext("%(seat)s chooses to avoid battle, leaving %(space)s for %(choice)s%(how)s.") % {
            **v, "choice": space_name(pack, choice, t)}
    if choice:
        return t.gettext("%(seat)s chooses to %(react)s (%(choice)s)%(how)s.") % {
            **v, "choice": space_name(pack, choice, t)}
    return t.gettext("%(seat)s does not %(react)s%(how)s.") % v


def chart_text(read: Any, t: Words = ENGLISH) -> str:
    """A chart lookup as players can redo it: ``"battle chart row 9, column 7: 6"``
    (``read`` as the rules core records it: ``{chart, row, column, result}``)."""
    if not isinstance(read, Mapping) or "chart" not in read:
        return ""
    col = read.get("column")
    v = {"chart": chart_name(read['chart'], t), "row": read.get('row'), "column": col, "result": read.get('result')}
    if col not in (None, "result"):
        return t.gettext("%(chart)s row %(row)s, column %(column)s: %(result)s") % v
    return t.gettext("%(chart)s row %(row)s: %(result)s") % v


CHARTS = {"battle": N_("battle chart"), "naval": N_("naval chart"), "elephant": N_("elephant chart"),
          "siege": N_("siege chart"), "assault": N_("assault chart"), "unrest": N_("unrest chart"),
          # the pack's other charts (why28: "таблица «elephant strength»" in a Russian report)
          "leader_loss": N_("leader loss chart"), "elephant_strength": N_("elephant strength chart"),
          "macedonian_attrition": N_("macedonian attrition chart"), "interception": N_("interception chart"),
          "avoid_battle": N_("avoid battle chart"), "hostile_tribes": N_("hostile tribes chart"),
          "forage": N_("forage chart"), "overrun": N_("overrun chart")}
"""The charts of the game by the id the rules core records (``read["chart"]``)."""


def chart_name(chart: Any, t: Words = ENGLISH) -> str:
    """``"battle chart"``: a chart by its id, in words."""
    key = str(chart)
    if key in CHARTS:
        return t.gettext(CHARTS[key])
    return t.gettext("%(chart)s chart") % {"chart": key.replace('_', ' ')}


def _cu_terms(pack: Pack, rec: Mapping[str, Any], t: Words = ENGLISH) -> list[str]:
    """The terms of a side's CU strength (R-4.4, R-9.2, R-14): ``"2 loyal x 2"``, the
    elephants' strength from the elephant chart (``"2 elephant 5 (elephant chart 2+3)"``),
    each independent army's printed strength."""
    terms = []
    for army, n in (rec.get("armies") or {}).items():
        terms.append(f"{indep_army_name(pack, army)} {n}")
    for u, n in (rec.get("cus") or {}).items():
        st = unit_strength(pack, u)
        name = pack.special_units[u].name if u in pack.special_units else str(u).replace("_", " ")
        if st is None:
            got = [int(v) for v in rec.get("elephants") or []]
            terms.append(f"{n} {name} {sum(got)} ({chart_name('elephant', t)} {'+'.join(map(str, got)) or '?'})")
        elif st and type(t) is gettext.NullTranslations:  # English: as it always was
            terms.append(f"{n} {name} x {st}")
        elif st:  # try28: "1 loyal x 2" in a Russian battle line; the CUs in the reader's words
            terms.append(f"{cus_text({u: n}, pack, t)} x {st}")
    return terms


def _leader(pack: Pack, rec: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """Whose battle rating a side has: ``"Craterus's battle rating"``, ``"the minor
    general's battle rating"``; a name of several words or with parentheses reads
    ``"the battle rating of Ariarathes of Cappadocia"`` (issue 24)."""
    cmd = rec.get("commander")
    armies = list(rec.get("armies") or {})
    if cmd == "minor":
        return t.gettext("the minor general's battle rating")
    if cmd or len(armies) == 1:
        name = general_name(pack, cmd) if cmd else indep_army_name(pack, armies[0])
        if " " in name or "(" in name:  # issue 24: "Ariarathes of Cappadocia's" reads badly
            return t.gettext("the battle rating of %(name)s") % {"name": name}
        return t.gettext("%(name)s's battle rating") % {"name": name}
    return t.gettext("the best independent army's battle rating")


def battle_roll_text(pack: Pack, rec: Mapping[str, Any], t: Words = ENGLISH) -> tuple[str, str]:
    """A side's battle dice and the row of the battle chart they lead to (R-9.2), as
    ``(dice, row)``: ``("dice 6+6 = 12, above Craterus's battle rating 6", "row 12 (the
    dice)")``; a roll below the commander's battle rating counts as the rating:
    ``("dice 2+2 = 4, below Antigonus's battle rating 5, which counts instead", "row 5
    (the rating)")``; no general, no rating. A re-roll by a surprise card says so."""
    dice = [int(v) for v in rec.get("dice") or []]
    total = sum(dice)
    text = t.gettext("dice %(dice)s") % {"dice": "+".join(map(str, dice)) + (f" = {total}" if len(dice) > 1 else "")}
    if rec.get("rerolled") is not None:
        text += t.gettext(" (re-rolled with %(card)s, R-8.5)") % {"card": card_label(pack, rec['rerolled'], t)}
    row = rec.get("roll", total)
    by_dice, by_rating = (t.gettext("row %(row)s (the dice)") % {"row": row},
                          t.gettext("row %(row)s (the rating)") % {"row": row})
    if rec.get("rating") is None:
        return text + t.gettext(", no battle rating (no general)"), by_dice
    floor, leader = int(rec["rating"]), _leader(pack, rec, t)
    v = {"leader": leader, "rating": floor}
    if total < floor:
        return text + t.gettext(", below %(leader)s %(rating)s, which counts instead") % v, by_rating
    if total == floor:
        return text + t.gettext(", equal to %(leader)s %(rating)s") % v, by_dice
    return text + t.gettext(", above %(leader)s %(rating)s") % v, by_dice


def battle_side_text(pack: Pack, rec: Mapping[str, Any], who: str, t: Words = ENGLISH) -> str:
    """One side of a battle with every term of its numbers (R-9.2): its strength as the
    sum of its CUs, elephants, independent armies and local troops; its dice and how
    they compare with the commander's battle rating (a lower roll counts as the rating);
    the battle chart's row (the dice, or the rating) and column (the strength) giving
    its score. Older records without the terms read as ``"strength 7, roll 9, score
    6"``."""
    words = {"strength": t.gettext("strength"), "roll": t.gettext("roll"), "score": t.gettext("score")}
    if "dice" not in rec:
        parts = [f"{words[k]} {rec[k]}" for k in ("strength", "roll", "score") if k in rec]
        return f"{who} ({', '.join(parts)})"
    terms = _cu_terms(pack, rec, t)
    if "cus" not in rec and "armies" not in rec:
        terms = [t.gettext("CUs %(strength)s") % {"strength": rec.get('cus_strength')}]
    if rec.get("local_troops"):
        terms.append(t.gettext("local troops %(strength)s") % {"strength": rec['local_troops']})
    strength = f"{words['strength']} {rec.get('strength')}" + (f" = {' + '.join(terms)}" if terms else "")
    dice, row = battle_roll_text(pack, rec, t)
    read = rec.get("read")
    if isinstance(read, Mapping) and "chart" in read:
        col = read.get("column")
        v = {"chart": chart_name(read['chart'], t), "row": row, "column": col, "score": read.get('result')}
        if col in (None, "result"):
            chart = t.gettext("%(chart)s %(row)s: score %(score)s") % v
        elif col != rec.get('strength'):
            chart = t.gettext("%(chart)s %(row)s, column %(column)s (the strength, at least 1): score %(score)s") % v
        else:
            chart = t.gettext("%(chart)s %(row)s, column %(column)s (the strength): score %(score)s") % v
    else:
        chart = f"{words['score']} {rec.get('score')}"
    return f"{who}: {strength}; {dice}; {chart}"


def battle_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """R-9.2: "Battle at Gaza: east attacks south. east: strength 9 = 3 loyal x 2 + 3
    mercenary x 1; dice 3+4 = 7, above Perdiccas's battle rating 3; battle chart row 7
    (the dice), column 9 (the strength): score 5. south: ... south wins, score 5
    against 3." Every term that entered a number is named, so a player can recompute
    it (:func:`battle_side_text`); ties and royal CUs joining (R-4.3) read as such."""
    where = space_name(pack, d.get("space"), t)
    attacker, defender = side_name(d.get("attacker", "?"), t), side_name(d.get("defender", "?"), t)
    winner = side_name(d.get("winner"), t)
    if d.get("result") == "joined":
        return t.gettext("At %(space)s the royal CUs join %(seat)s without a battle (R-4.3).") % {
            "space": where, "seat": d.get('winner')}
    tie = d.get("result") == "tie"
    sides = d.get("sides")
    if isinstance(sides, list) and len(sides) == 2 and all(isinstance(x, Mapping) for x in sides):
        a, b = sides
        scores = sorted((int(x.get("score") or 0) for x in sides), reverse=True)
        v = {"winner": winner, "score": scores[0], "other": scores[1]}
        outcome = (t.gettext("A tie (score %(score)s each)") % v if tie
                   else t.gettext("%(winner)s wins, score %(score)s against %(other)s") % v)
        return t.gettext("Battle at %(space)s: %(attacker)s attacks %(defender)s. %(first)s. %(second)s. "
                         "%(outcome)s.") % {
            "space": where, "attacker": attacker, "defender": defender,
            "first": battle_side_text(pack, a, side_name(a['side'], t) if 'side' in a else attacker, t),
            "second": battle_side_text(pack, b, side_name(b['side'], t) if 'side' in b else defender, t),
            "outcome": outcome}
    outcome = t.gettext("A tie") if tie else t.gettext("%(winner)s wins") % {"winner": winner}
    words = {"strength": t.gettext("strength"), "roll": t.gettext("roll"), "score": t.gettext("score")}

    def side(role: str, who: Any) -> str:
        parts = [f"{words[k]} {d[k + 's'][role]}" for k in ("strength", "roll", "score")
                 if isinstance(d.get(k + "s"), Mapping) and role in d[k + "s"]]
        return f"{who} ({', '.join(parts)})" if parts else str(who)

    return t.gettext("Battle at %(space)s: %(attacker)s attacks %(defender)s: %(outcome)s.") % {
        "space": where, "attacker": side('attacker', attacker), "defender": side('defender', defender),
        "outcome": outcome}


def naval_text(pack: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """R-15: "Naval battle at Smyrna: east declares against north. east: strength 1,
    dice 3+2 = 5, naval chart row 5, column 1 gives score 2. north: no fleet. east wins."
    Every term of each side's score is named."""
    parts = []
    for rec in d.get("sides") or []:
        if not isinstance(rec, Mapping):
            continue
        dice = [int(v) for v in rec.get("dice") or []]
        read = rec.get("read")
        v = {"side": rec.get('side'), "strength": rec.get('strength'),
             "dice": "+".join(map(str, dice)) + (f" = {sum(dice)}" if len(dice) > 1 else ""),
             "score": rec.get('score')}
        if isinstance(read, Mapping) and "chart" in read:
            v.update(chart=chart_name(read['chart'], t), row=read.get('row'), column=read.get('column'),
                     score=read.get('result'))
            if read.get("column") not in (None, "result"):
                parts.append(t.gettext("%(side)s: strength %(strength)s, dice %(dice)s, %(chart)s row %(row)s, "
                                       "column %(column)s gives score %(score)s") % v)
            else:
                parts.append(t.gettext("%(side)s: strength %(strength)s, dice %(dice)s, %(chart)s row %(row)s "
                                       "gives score %(score)s") % v)
        else:
            parts.append(t.gettext("%(side)s: strength %(strength)s, dice %(dice)s, score %(score)s") % v)
    winner = d.get("winner") or (d.get("declarer") if d.get("result") == "declarer" else
                                 d.get("mover") if d.get("result") == "mover" else None)
    v = {"space": space_name(pack, d.get('space'), t), "declarer": d.get('declarer'), "mover": d.get('mover')}
    if d.get("declarer") and d.get("mover"):
        head = (t.gettext("Naval battle at %(space)s: %(declarer)s declares against %(mover)s") if d.get("space")
                else t.gettext("Naval battle: %(declarer)s declares against %(mover)s")) % v
    else:
        head = t.gettext("Naval battle at %(space)s") % v if d.get("space") else t.gettext("Naval battle")
    return head + "".join(f". {x}" for x in parts) + (
        ". " + t.gettext("%(winner)s wins.") % {"winner": winner} if winner else ".")


def province_name(pack: Pack, province: Any) -> str:
    if isinstance(province, str) and province in pack.provinces:
        return pack.provinces[province].name
    return str(province)


def spaces_text(pack: Pack, spaces: Any, t: Words = ENGLISH) -> str:
    return ", ".join(space_name(pack, x, t) for x in (spaces or []))
