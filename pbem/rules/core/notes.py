"""``Note`` events in the reader's language (issue 28, note28).

A ``Note``'s ``text`` is English written into the log by the rules (about sixteen
places in :mod:`pbem.rules`); the log stays as it is (the events, the hash chain and
the rules baseline are language-free). The report translates the text when it tells
it: :data:`NOTES` holds each text's English pattern (a regex with named groups) with
its msgid (``%(name)s`` placeholders, marked with ``N_`` for extraction); the groups
are shown in the reader's language (:func:`_value`): names from the pack's names of
that language, a nested reason (``why``) by :data:`WHYS`, CU types by gettext. A text
no pattern matches is told as it is (tests/report/test_note_texts.py checks that every
note random games emit matches one).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.names import ENGLISH, N_, Words

def _p(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


WHYS: list[tuple[re.Pattern[str], str]] = [
    (_p(r"the body is no longer in play"), N_("the body is no longer in play")),
    (_p(r"the body may be buried from turn (?P<n>\d+) on"), N_("the body may be buried from turn %(n)s on")),
    (_p(r"you do not control the body"), N_("you do not control the body")),
    (_p(r"the body is in (?P<space>.+), no major city"), N_("the body is in %(space)s, no major city")),
    (_p(r"the body is in (?P<space>.+), not in (?P<space2>.+)"), N_("the body is in %(space)s, not in %(space2)s")),
    (_p(r"no general of yours stands with the body in (?P<space>.+)"),
     N_("no general of yours stands with the body in %(space)s")),
    (_p(r"nobody the card could kill is left"), N_("nobody the card could kill is left")),
    (_p(r"(?P<royal>.+) has already left his holding box"), N_("%(royal)s has already left his holding box")),
    (_p(r"(?P<royal>.+) is not in play"), N_("%(royal)s is not in play")),
    (_p(r"(?P<royal>.+) is already active"), N_("%(royal)s is already active")),
    (_p(r"you have no general or garrison in (?P<space>.+), where (?P<royal>.+) is"),
     N_("you have no general or garrison in %(space)s, where %(royal)s is")),
    (_p(r"nobody controls (?P<royal>.+)"), N_("nobody controls %(royal)s")),
    (_p(r"no capital can be founded there now"), N_("no capital can be founded there now")),
    (_p(r"the army named is no longer there"), N_("the army named is no longer there")),
    (_p(r"(?P<target>[a-z]+)'s army there has (?P<n>\d+) legitimacy, (?P<seat>[a-z]+) (?P<m>\d+)"),
     N_("%(target)s's army there has %(n)s legitimacy, %(seat)s %(m)s")),
    (_p(r"(?P<target>[a-z]+)'s army there has no (?P<types>.+) CUs"), N_("%(target)s's army there has no %(types)s CUs")),
    (_p(r"card (?P<n>\d+) is not in your hand"), N_("card %(n)s is not in your hand")),
    (_p(r"no enemy army has less legitimacy than you now"), N_("no enemy army has less legitimacy than you now")),
]
"""The reasons a note quotes (``why``: a burial refused, R-12.4; a card's event without
effect; a mutiny that fails, R-11.2), each English pattern with its msgid."""

NOTES: list[tuple[re.Pattern[str], str]] = [
    (_p(r"the mutiny in (?P<space>.+?) fails: (?P<why>.+)"), N_("the mutiny in %(space)s fails: %(why)s")),
    (_p(r"(?P<army>.+) was destroyed and does not return"), N_("%(army)s was destroyed and does not return")),
    (_p(r"(?P<army>.+) has no step of its scripted path left to walk and stays where it is"),
     N_("%(army)s has no step of its scripted path left to walk and stays where it is")),
    (_p(r"(?P<royals>.+) already moved with another army this segment and stay in (?P<space>.+)"),
     N_("%(royals)s already moved with another army this segment and stay in %(space)s")),
    (_p(r"(?P<armies>.+) tied a battle as attacker this turn and removes no control markers: the "
        r"(?P<owner>[a-z]+) garrison in (?P<space>.+) stays"),
     N_("%(armies)s tied a battle as attacker this turn and removes no control markers: the %(owner)s "
        "garrison in %(space)s stays")),
    (_p(r"the body is not buried: (?P<why>.+)"), N_("the body is not buried: %(why)s")),
    (_p(r"(?P<space>.+) can no longer take the mercenary after this turn's dice; it goes to the default space"),
     N_("%(space)s can no longer take the mercenary after this turn's dice; it goes to the default space")),
    (_p(r"no army of (?P<seat>[a-z]+) is left that the (?P<unit>.+) could join; the unit stays in its "
        r"holding box"),
     N_("no army of %(seat)s is left that the %(unit)s could join; the unit stays in its holding box")),
    (_p(r"(?P<card>.+?): (?P<seat>[a-z]+) has no fleet left to upgrade"), N_("%(card)s: %(seat)s has no fleet left to upgrade")),
    (_p(r"(?P<card>.+?): no general of (?P<seat>[a-z]+) is left where the CUs could join him; none are gained"),
     N_("%(card)s: no general of %(seat)s is left where the CUs could join him; none are gained")),
    (_p(r"(?P<card>.+?): no army of another player is left in (?P<where>.+); nobody loses CUs"),
     N_("%(card)s: no army of another player is left in %(where)s; nobody loses CUs")),
    (_p(r"(?P<card>.+?): (?P<seat>[a-z]+)'s dispersed box is empty"), N_("%(card)s: %(seat)s's dispersed box is empty")),
    (_p(r"(?P<card>.+?): the woman named cannot go there now"), N_("%(card)s: the woman named cannot go there now")),
    (_p(r"(?P<card>.+?): (?P<why>.+); the event has no effect"), N_("%(card)s: %(why)s; the event has no effect")),
    (_p(r"after the rollback the unseen Tyche deck was shuffled again \(the hands and the discards stay as "
        r"they were\)"),
     N_("after the rollback the unseen Tyche deck was shuffled again (the hands and the discards stay as "
        "they were)")),
    (_p(r"the Tyche deck ran out: discards reshuffled"), N_("the Tyche deck ran out: discards reshuffled")),
    (_p(r"a surprise card of the Tyche orders is not played or discarded: (?P<why>.+)"),
     N_("a surprise card of the Tyche orders is not played or discarded: %(why)s")),
    (_p(r"the siege of (?P<space>.+) is complete: the order's further assaults there are not rolled"),
     N_("the siege of %(space)s is complete: the order's further assaults there are not rolled")),
]
"""Every text the rules write into a ``Note`` (its English pattern, its msgid), the
emit sites in :mod:`pbem.rules` (``grep -rn '"Note"' pbem/rules``)."""

CU_TYPE_WORDS = {"royal": N_("royal"), "loyal": N_("loyal"), "mercenary": N_("mercenary"),
                 "elephant": N_("elephant")}
"""The CU types (R-4.1) as a note names them (a mutiny's ``types``)."""

_KEEP = {"seat", "target", "owner", "n", "m"}
_SECTIONS = ("spaces", "provinces", "generals", "royals", "independent_armies", "fleets", "special_units",
             "cards")


def _one_name(pack: Pack, name: str, t: Words) -> str:
    """A name the rules wrote in English, in ``pack``'s language (the pack the reader's
    mail is rendered with, :func:`pbem.pack.names.localized`); unknown: as it is."""
    if name == "the map":
        return t.gettext("the map")
    base = pack.canonical or pack
    for section in _SECTIONS:
        key = next((k for k, v in getattr(base, section).items() if v.name == name), None)
        if key is not None:
            return getattr(pack, section)[key].name
    return name


def _names(pack: Pack, text: str, t: Words) -> str:
    """A list of names (``"A, B"``, ``"A or B"``) in the reader's language."""
    return ", ".join(t.gettext(" or ").join(_one_name(pack, x, t) for x in part.split(" or "))
                     for part in text.split(", "))


def _value(pack: Pack, group: str, value: str, t: Words) -> str:
    if group in _KEEP:
        return value
    if group == "why":
        return _say(pack, value, t, WHYS)
    if group == "types":
        return t.gettext(" or ").join(t.gettext(CU_TYPE_WORDS[x]) if x in CU_TYPE_WORDS else x
                                      for x in value.split(" or "))
    return _names(pack, value, t)


def _say(pack: Pack, text: str, t: Words, table: list[tuple[re.Pattern[str], str]]) -> str:
    for pattern, msgid in table:
        m = pattern.fullmatch(text)
        if m:
            return t.gettext(msgid) % {g: _value(pack, g, v, t) for g, v in m.groupdict().items()}
    return text


def matched(text: str) -> bool:
    """Whether a note's ``text`` (and any reason it quotes) matches a pattern of
    :data:`NOTES` (:data:`WHYS`)."""
    for pattern, _msgid in NOTES:
        m = pattern.fullmatch(text)
        if m:
            why = m.groupdict().get("why")
            return why is None or any(p.fullmatch(why) for p, _ in WHYS)
    return False


def note_text(pack: Pack, data: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """A ``Note``'s text in the language of ``t``, names from ``pack`` (the reader's
    localized pack): the msgid of the pattern of :data:`NOTES` it matches, translated,
    its groups shown in that language; an unmatched text as it is (issue 28)."""
    return _say(pack, str(data.get("text", "")), t, NOTES)
