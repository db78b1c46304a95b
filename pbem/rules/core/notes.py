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
from collections.abc import Callable, Mapping
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.names import ENGLISH, N_, Words

def _p(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _r(pattern: str) -> re.Pattern[str]:
    """A pattern of :data:`REASONS`: its groups take no ``"; "`` (what joins reasons)."""
    return re.compile(pattern.replace(".+)", "[^;]+)"))


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

REASONS: list[tuple[re.Pattern[str], str]] = [
    # a move that cannot start or go on (R-5, R-9.1, R-12.5; pbem.rules.resolve.movement.start_move)
    (_r(r"you have no general in (?P<space>.+): CUs without a general cannot move"),
     N_("you have no general in %(space)s: CUs without a general cannot move")),
    (_r(r"(?P<royals>.+) already moved with another army in this segment: a member of the royal family moves "
        r"with only one army per segment"),
     N_("%(royals)s already moved with another army in this segment: a member of the royal family moves with "
        "only one army per segment")),
    (_r(r"the army would move without a general"), N_("the army would move without a general")),
    (_r(r"a minor general never moves without CUs"), N_("a minor general never moves without CUs")),
    (_r(r"this army has already moved in this segment"), N_("this army has already moved in this segment")),
    # the path (R-9.1; pbem.rules.core.board.classify_path, blocked_text, the checks' movement.too_far)
    (_r(r"the path is empty"), N_("the path is empty")),
    (_r(r"(?P<space>.+) is not next to (?P<space2>.+)"), N_("%(space)s is not next to %(space2)s")),
    (_r(r"(?P<space>.+) is no port"), N_("%(space)s is no port")),
    (_r(r"a naval move starts in a port; (?P<space>.+) is none"),
     N_("a naval move starts in a port; %(space)s is none")),
    (_r(r"a move goes along land and mountain paths, or port to port along sea paths \(ending on landing\), or "
        r"one trans-Mediterranean path"),
     N_("a move goes along land and mountain paths, or port to port along sea paths (ending on landing), or one "
        "trans-Mediterranean path")),
    (_r(r"(?P<space>.+) is (?P<mps>\d+) MPs? from (?P<space2>.+) on that path, the army has (?P<n>\d+)"),
     N_("%(space)s is %(mps)s from %(space2)s on that path, the army has %(n)s")),
    (_r(r"(?P<space>.+) is at least (?P<mps>\d+) MPs? from (?P<space2>.+) by any land path, the army has "
        r"(?P<n>\d+)"),
     N_("%(space)s is at least %(mps)s from %(space2)s by any land path, the army has %(n)s")),
    (_r(r"(?P<space>.+) is at least (?P<mps>\d+) MPs? from (?P<space2>.+) along the path as written, each gap "
        r"filled by the shortest land path, the army has (?P<n>\d+)"),
     N_("%(space)s is at least %(mps)s from %(space2)s along the path as written, each gap filled by the "
        "shortest land path, the army has %(n)s")),
    (_r(r"(?P<space>.+) holds an enemy army: entering it ends the move"),
     N_("%(space)s holds an enemy army: entering it ends the move")),
    # what a move drops or picks up (R-9.1, R-12; movement._subtract, _add, _parts_off_the_way)
    (_r(r"the army has (?P<n>\d+) (?P<types>.+) CUs, not (?P<m>\d+)"),
     N_("the army has %(n)s %(types)s CUs, not %(m)s")),
    (_r(r"there are not (?P<n>\d+) (?P<types>.+) CUs of yours to pick up in (?P<space>.+)"),
     N_("there are not %(n)s %(types)s CUs of yours to pick up in %(space)s")),
    (_r(r"(?P<who>.+) is not yours to carry: an army moves only the members its faction controls \(women once "
        r"active; the funeral cart not on turn 1\)"),
     N_("%(who)s is not yours to carry: an army moves only the members its faction controls (women once active; "
        "the funeral cart not on turn 1)")),
    (_r(r"(?P<who>.+) is not with the army"), N_("%(who)s is not with the army")),
    (_r(r"(?P<who>.+) is not there to pick up"), N_("%(who)s is not there to pick up")),
    (_r(r"(?P<space>.+) is not on the army's way from (?P<space2>.+): the drop there is not done"),
     N_("%(space)s is not on the army's way from %(space2)s: the drop there is not done")),
    (_r(r"(?P<space>.+) is not on the army's way from (?P<space2>.+): the pick-up there is not done"),
     N_("%(space)s is not on the army's way from %(space2)s: the pick-up there is not done")),
    (_r(r"(?P<space>.+) is not on this move's path: drop leaves units only where the army passes \(its start or "
        r"a space of its path\)"),
     N_("%(space)s is not on this move's path: drop leaves units only where the army passes (its start or a "
        "space of its path)")),
    (_r(r"(?P<space>.+) is not on this move's path: pick_up takes units along only where the army passes \(its "
        r"start or a space of its path\)"),
     N_("%(space)s is not on this move's path: pick_up takes units along only where the army passes (its start "
        "or a space of its path)")),
    # assaults (R-8.1, R-10; pbem.rules.resolve.siege.why_no_assault and the checks' siege.illegal)
    (_r(r"there is nothing to besiege in (?P<space>.+) \(an independent marker or another player's major "
        r"city\)"),
     N_("there is nothing to besiege in %(space)s (an independent marker or another player's major city)")),
    (_r(r"there is nothing to besiege in (?P<space>.+) \(an independent marker or another player's major "
        r"city\), where the move ends"),
     N_("there is nothing to besiege in %(space)s (an independent marker or another player's major city), "
        "where the move ends")),
    (_r(r"assaulting (?P<space>.+) needs (?P<n>\d+) CUs, you have (?P<m>\d+) there"),
     N_("assaulting %(space)s needs %(n)s CUs, you have %(m)s there")),
    (_r(r"no more assaults on (?P<space>.+) in this segment"), N_("no more assaults on %(space)s in this segment")),
    (_r(r"assaulting (?P<space>.+) needs (?P<n>\d+) CUs, the army can have at most (?P<m>\d+) there"),
     N_("assaulting %(space)s needs %(n)s CUs, the army can have at most %(m)s there")),
    (_r(r"at most (?P<n>\d+) assaults per space in a movement segment"),
     N_("at most %(n)s assaults per space in a movement segment")),
    (_r(r"at most (?P<n>\d+) assaults per space in a tyche segment"),
     N_("at most %(n)s assaults per space in a tyche segment")),
    (_r(r"at most (?P<n>\d+) assaults per space in a surrender segment"),
     N_("at most %(n)s assaults per space in a surrender segment")),
    # a naval move's escort (R-15; moves.escort_problems), when the position changed since the check
    (_r(r"the (?P<fleet>.+) is not yours: a fleet belongs to whoever controls its home \(nobody now\)"),
     N_("the %(fleet)s is not yours: a fleet belongs to whoever controls its home (nobody now)")),
    (_r(r"the (?P<fleet>.+) is not yours: a fleet belongs to whoever controls its home \((?P<owner>[a-z]+) now\)"),
     N_("the %(fleet)s is not yours: a fleet belongs to whoever controls its home (%(owner)s now)")),
    (_r(r"the (?P<fleet>.+) was dispersed this turn and cannot fight again before the next turn"),
     N_("the %(fleet)s was dispersed this turn and cannot fight again before the next turn")),
    (_r(r"both assaults on (?P<space>.+) in a segment are by the same general"),
     N_("both assaults on %(space)s in a segment are by the same general")),
    (_r(r"#(?P<n>\d+) (?P<card>.+) needs a siege you conduct, and the move ends in (?P<space>.+), where there is "
        r"nothing to besiege"),
     N_("#%(n)s %(card)s needs a siege you conduct, and the move ends in %(space)s, where there is nothing to "
        "besiege")),
    # a move as written (the lenient check of a Tyche move's rest, moves._soft_moves)
    (_r(r"not possible now"), N_("not possible now")),
    (_r(r"give the path as a list of spaces"), N_("give the path as a list of spaces")),
    (_r(r"assault is a number of rolls \(0-2\)"), N_("assault is a number of rolls (0-2)")),
    (_r(r"escort lists fleet ids"), N_("escort lists fleet ids")),
    (_r(r"each move is \{army: General, path: \[Space, \.\.\.\]\}"),
     N_("each move is {army: General, path: [Space, ...]}")),
    (_r(r"there is no space (?P<written>'[^']*'|\"[^\"]*\")"), N_("there is no space %(written)s")),
    (_r(r"a move has no field (?P<written>'[^']*'|\"[^\"]*\")"), N_("a move has no field %(written)s")),
    (_r(r"(?P<who>.+) is not one of your generals on the map"), N_("%(who)s is not one of your generals on the map")),
    (_r(r"you have no general on the map: an army needs a general"),
     N_("you have no general on the map: an army needs a general")),
    (_r(r"the (?P<fleet>.+) was dispersed this turn and cannot fight again before the next turn"),
     N_("the %(fleet)s was dispersed this turn and cannot fight again before the next turn")),
    # a claim of an automatic victory that lapses (R-1.1; pbem.rules.phases.victory): "it %(why)s"
    (_r(r"no longer holds"), N_("no longer holds")),
    # how a game is won (R-1.1, R-1.2, R-12; pbem.rules.phases.victory): GameWon's ``how``
    (_r(r"automatic \(vp\)"), N_("automatic (vp)")),  # the log's words: English mail stays as it was
    (_r(r"automatic \(lp\)"), N_("automatic (lp)")),
    (_r(r"end of game \(most VP\)"), N_("end of game (most VP)")),
    (_r(r"regency"), N_("regency")),
    # a proposal decided (issue 29; pbem.service.play.votes): VoteDecided's ``outcome`` and ``why``
    (_r(r"passed"), N_("passed")),
    (_r(r"rejected"), N_("rejected")),
    (_r(r"expired"), N_("expired")),
    (_r(r"its time ran out"), N_("its time ran out")),
    (_r(r"a seat voted no"), N_("a seat voted no")),
    (_r(r"every seat still in the game voted yes"), N_("every seat still in the game voted yes")),
]
"""The reasons the rules write into a cancelled move, assault or reorganisation
(``MoveCancelled.why``, ``AssaultCancelled.why``, ``ArmyReorganised.error``), why a
claim lapsed (``VictoryClaimUpdated.why``), how a game is won (``GameWon.how``) and how
a proposal was decided (``VoteDecided.outcome`` and ``why``, the service's words; issue 28,
why28), each English pattern (without the rule ID in parentheses some end with, which
:func:`reason_text` keeps as it is) with its msgid. Several reasons joined by ``"; "``
(a move refused for more than one thing) are told one by one."""

_RULE_ID = re.compile(r"(?P<body>.+) \((?P<rule>R-[0-9][0-9.]*[a-z]?)\)")

VICTORY_KINDS = {"vp": N_("VP"), "lp": N_("LP")}
"""The kinds of automatic victory (R-1.1: by VP or by LP) as a report names them."""

CU_TYPE_WORDS = {"royal": N_("royal"), "loyal": N_("loyal"), "mercenary": N_("mercenary"),
                 "elephant": N_("elephant")}
"""The CU types (R-4.1) as a note names them (a mutiny's ``types``)."""

_KEEP = {"seat", "target", "owner", "n", "m", "written"}
_SECTIONS = ("spaces", "provinces", "generals", "royals", "independent_armies", "fleets", "special_units",
             "cards")


def one_name(pack: Pack, name: str, t: Words) -> str:
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
    return ", ".join(t.gettext(" or ").join(one_name(pack, x, t) for x in part.split(" or "))
                     for part in text.split(", "))


def _value(pack: Pack, group: str, value: str, t: Words) -> str:
    if group in _KEEP:
        return value
    if group == "why":
        return _say(pack, value, t, WHYS)
    if group == "types":
        return t.gettext(" or ").join(t.gettext(CU_TYPE_WORDS[x]) if x in CU_TYPE_WORDS else one_name(pack, x, t)
                                      for x in value.split(" or "))
    if group == "mps":
        return t.ngettext("%(num)d MP", "%(num)d MPs", int(value)) % {"num": int(value)}
    return _names(pack, value, t)


def _said(pack: Pack, text: str, t: Words, table: list[tuple[re.Pattern[str], str]]) -> str | None:
    """``text`` told by the first pattern of ``table`` it matches; None when none does."""
    for pattern, msgid in table:
        m = pattern.fullmatch(text)
        if m:
            return t.gettext(msgid) % {g: _value(pack, g, v, t) for g, v in m.groupdict().items()}
    return None


def _say(pack: Pack, text: str, t: Words, table: list[tuple[re.Pattern[str], str]]) -> str:
    said = _said(pack, text, t, table)
    return text if said is None else said


def _reason(text: str, tell: Callable[[str], str | None]) -> str | None:
    """One reason (``tell`` says it: the pattern of :data:`REASONS` it matches, None for
    none), a reason with a rule ID in parentheses after it (kept as it is), or several
    joined by ``"; "``; None when a part matches no pattern."""
    m = _RULE_ID.fullmatch(text)
    if m:
        body = _reason(m["body"], tell)
        return None if body is None else f"{body} ({m['rule']})"
    said = tell(text)
    if said is not None:
        return said
    at = text.find("; ")
    while at != -1:
        head = _reason(text[:at], tell)
        tail = None if head is None else _reason(text[at + 2:], tell)
        if tail is not None:
            return f"{head}; {tail}"
        at = text.find("; ", at + 1)
    return None


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


def reason_text(pack: Pack, text: Any, t: Words = ENGLISH) -> str:
    """A reason the rules wrote into an event (``MoveCancelled.why``,
    ``AssaultCancelled.why``, ``ArmyReorganised.error``, ``VictoryClaimUpdated.why``,
    ``GameWon.how``, ``VoteDecided.outcome`` and ``why``) in
    the language of ``t``, names from ``pack`` (the reader's localized pack): each part
    by the msgid of the pattern of :data:`REASONS` it matches; a text some part of which
    no pattern matches is told as it is (issue 28, why28)."""
    said = _reason(str(text or ""), lambda x: _said(pack, x, t, REASONS))
    return str(text or "") if said is None else said


def reason_matched(text: str) -> bool:
    """Whether a reason (:func:`reason_text`) is told by the patterns of :data:`REASONS`."""
    return _reason(text, lambda x: x if any(p.fullmatch(x) for p, _ in REASONS) else None) is not None
