"""Problems: why a mail or its orders cannot be carried out, phrased for the player.

One type for the whole product (:class:`Problem`: code, rule ID, message, where in the
orders, hint, line) and one catalogue of codes (:data:`CODES`): each code is declared
once here, with the rule it belongs to (an R-… ID of docs/rules.md, or None for a mail
or envelope problem, whose reference is in ``ref``) and a one-line summary.
docs/orders.md lists every code (a test checks it). :func:`problem` refuses a code that
is not declared (:class:`UnknownCode`), so a typo fails the first test that reaches it.

Code families: ``orders.*``, ``turn.*``, ``game.*``, ``surrender.*``, ``tyche.*``,
``movement.*``, ``siege.*``, ``standing.*``, ``surprise.*``, ``inside.*``, ``commanders.*``,
``reinforcements.*``, ``reaction.*``, ``royals.*``, ``rules.*`` (the rules core); ``envelope.*``,
``auth.*``, ``history.*``, ``mail.*``, ``yaml.*``, ``observe.*``, ``internal`` (the mail pipeline).
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One problem found in a mail or in its orders.

    ``code`` is a declared code (:data:`CODES`), ``message`` one sentence naming the thing
    (rules problems end with the rule ID in parentheses), ``rule`` the rule ID
    (``"R-8.3"``) or None for mail and envelope problems, ``where`` the field path in the
    orders (``"orders.tyche.places[1]"``) or None, ``hint`` how to fix it or None,
    ``line`` the 1-based line in the orders text for YAML problems or None; ``params``
    the names and numbers the message names (``{"card": 12}``), which the message of
    its code in another language puts in its placeholders
    (:data:`pbem.problem_texts.DETAILS`, issue 28), or None. ``params`` is no part of
    the problem's identity or of :meth:`to_dict` (the log records what it always did)."""

    code: str
    message: str
    rule: str | None = None
    where: str | None = None
    hint: str | None = None
    line: int | None = None
    params: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict of all fields ``{code, rule, message, where, hint, line}``."""
        return {"code": self.code, "rule": self.rule, "message": self.message,
                "where": self.where, "hint": self.hint, "line": self.line}


@dataclass(frozen=True)
class Code:
    """A declared problem code: ``code``, the ``rule`` ID it belongs to (None for mail and
    envelope problems), a ``summary`` for docs/orders.md, and ``ref``: where the
    behaviour is documented when it is no game rule (a docs section or an RFC)."""

    code: str
    rule: str | None
    summary: str
    ref: str | None = None


class UnknownCode(KeyError):
    """A problem code that the catalogue does not declare."""


_RULES = [
    # orders as a whole
    ("orders.not_a_mapping", "R-8", "the orders (or a part of them) are not a mapping"),
    ("orders.unknown_key", "R-8", "a field the orders of this decision do not have"),
    ("orders.unknown_space", "R-3.1", "no space has that name or id"),
    ("orders.unknown_seat", "R-2", "the orders name a seat that is not one of the four"),
    ("orders.field_not_used", "R-8.2", "a field that the chosen use of the card does not read"),
    ("orders.tyche_only_segment", "R-6.5", "surrender or movement in an extra Tyche-only segment"),
    ("turn.not_your_turn", "R-6.5", "another seat decides now"),
    ("turn.first_player_unknown", "R-6.1", "first_player names no seat of the game"),
    ("game.over", "R-1", "the game is over"),
    ("rules.not_yet_supported", "R-16", "a card event the engine does not resolve"),
    ("rules.pack_incomplete", "R-9", "the data pack lacks a number the rule needs"),
    # surrender segment
    ("surrender.not_a_mapping", "R-8.1", "surrender is not {accept, remove, decline, assault}"),
    ("surrender.duplicate", "R-8.1", "a space listed twice"),
    ("surrender.cannot_accept", "R-8.1", "a space whose surrender the seat may not accept"),
    ("surrender.cannot_remove", "R-8.1", "a space without an enemy garrison to remove"),
    # Tyche segment (R-8.2 …)
    ("tyche.missing", "R-8.2", "no tyche: part: every player-turn plays or discards a card"),
    ("tyche.not_a_mapping", "R-8.2", "tyche is not {card, use, ...}"),
    ("tyche.card_missing", "R-8.2", "no card named"),
    ("tyche.card_not_in_hand", "R-8.2", "the card is not in the seat's hand"),
    ("tyche.duplicate_card", "R-8.5", "a card listed twice"),
    ("tyche.not_a_surprise", "R-8.5", "a surprise discard that is no surprise card"),
    ("tyche.surprise_not_mandatory", "R-8.5", "a surprise card given as the Tyche play"),
    ("tyche.unknown_use", "R-8.2", "a use that does not exist"),
    ("tyche.use_not_allowed", "R-8.2", "a use the card does not allow"),
    ("tyche.must_play_not_discardable", "R-8.2", "a must-play card given to discard"),
    ("tyche.no_ops", "R-8.2", "an OPs use of a card without OPs"),
    ("tyche.unknown_province", "R-16.2", "no province has that id"),
    ("tyche.places_missing", "R-8.3", "garrisons without places"),
    ("tyche.too_many_garrisons", "R-8.3", "more places than the card's OPs"),
    ("tyche.duplicate_place", "R-8.3", "a space listed twice"),
    ("tyche.garrison_illegal", "R-8.3", "a space where the garrison may not go"),
    ("tyche.training_cards_used", "R-8.4", "the cards allowed for training this turn are used"),
    ("tyche.train_missing", "R-8.4", "train without entries"),
    ("tyche.train_entry", "R-8.4", "a train entry that is not {unit, ops}"),
    ("tyche.train_too_many_ops", "R-8.4", "more training OPs than the card gives"),
    ("tyche.training_units_full", "R-8.4", "the units allowed in training at once are training"),
    ("tyche.train_overpaid", "R-8.4", "more OPs than the unit still needs"),
    ("tyche.phalangite_too_fast", "R-8.4", "a phalangite paid in fewer segments than allowed"),
    ("tyche.auxiliary_same_turn", "R-8.4", "an auxiliary paid by several cards of one turn"),
    ("tyche.too_many_places", "R-7.2", "more places than units to place"),
    ("tyche.nothing_to_place", "R-8.4", "places listed when no unit finishes training"),
    ("tyche.general_place_illegal", "R-8.6", "a space where the general may not be placed"),
    ("tyche.fleet_upgrade_ops", "R-8.2", "a fleet upgrade with a card of other OPs"),
    ("tyche.fleet_missing", "R-8.2", "a fleet upgrade naming no fleet"),
    ("tyche.unknown_fleet", "R-15", "no fleet has that name or id"),
    ("tyche.fleet_not_yours", "R-15", "a fleet the seat does not control"),
    ("tyche.fleet_at_most", "R-8.2", "a fleet already at its largest strength"),
    ("tyche.activate_army_missing", "R-8.2", "an activation without army and path"),
    ("tyche.moves_missing", "R-16.1", "Major Campaign without its moves"),
    ("tyche.special_unit_gone", "R-4.1", "the special unit has left its holding box"),
    ("tyche.special_unit_no_army", "R-4.1", "no army the special unit could join"),
    ("tyche.special_unit_army_missing", "R-4.1", "several armies qualify: name one"),
    ("tyche.unknown_army", "R-4.1", "no army of the seat has that name"),
    ("tyche.special_unit_army_illegal", "R-4.1", "an army the special unit may not join"),
    ("tyche.discard_drawn_not_bool", "R-8.5", "discard_drawn_surprises is not true or false"),
    ("tyche.event_no_subject", "R-16", "nothing the card's event could act on now"),
    ("tyche.event_choice_missing", "R-16", "several choices qualify for the event: name one"),
    ("tyche.event_choice_illegal", "R-16", "a choice the card's event does not allow now"),
    # movement segment and army moves
    ("movement.unknown", "R-8.7", "movement is not mercenary, {mercenary: Space}, none or moves"),
    ("movement.mercenary_place_illegal", "R-7.2", "a space where the mercenary may not go"),
    ("movement.not_a_mapping", "R-9.1", "a move that is not {army, path, ...}"),
    ("movement.unknown_army", "R-9.1", "no army of the seat has that name"),
    ("movement.path_missing", "R-9.1", "a move without its path"),
    ("movement.bad_path", "R-9.1", "a path that does not follow the map"),
    ("movement.too_far", "R-9.1", "a path longer than the army's movement allowance"),
    ("movement.bad_assault", "R-10", "assault is not a number of rolls"),
    ("movement.bad_escort", "R-15", "escort does not list fleets"),
    ("movement.escort_not_yours", "R-15", "an escort fleet belongs to another seat or to nobody"),
    ("movement.escort_dispersed", "R-15", "an escort fleet was dispersed this turn"),
    ("movement.bad_part", "R-9.1", "a drop or pick-up that is not {at, cus, generals, royals}"),
    ("movement.bad_cus", "R-9.1", "cus that do not map CU types to counts"),
    ("movement.unknown_royal", "R-12.5", "no royal family member has that name or id"),
    ("movement.royal_moved_twice", "R-12.5", "a royal family member moving with a second army"),
    ("movement.illegal", "R-9.1", "a move the position does not allow"),
    ("siege.illegal", "R-10", "an assault the position does not allow"),
    ("siege.too_many_assaults", "R-10", "more assaults than the segment allows"),
    # standing orders
    ("standing.not_a_list", "R-9.3", "standing is not a list"),
    ("standing.bad_when", "R-9.3", "a standing order without a known when:"),
    ("standing.unknown_army", "R-9.3", "no general or space has that name"),
    ("standing.not_your_army", "R-9.3", "another seat's general"),
    ("standing.army_missing", "R-9.3", "an intercept or avoid order naming no army"),
    ("standing.bad_toward", "R-9.3", "toward does not name one space"),
    ("standing.bad_number", "R-9.3", "a condition that is not a number"),
    ("standing.bad_seat", "R-15", "against (or a free_passage's to) does not list other seats"),
    ("standing.bad_royal", "R-12.2", "a free_passage royal that is not a royal woman"),
    ("standing.bad_fleet", "R-15", "fleets does not list fleets"),
    ("standing.bad_city", "R-9.2", "city does not list major cities"),
    ("standing.bad_join", "R-9.2", "join is not true or false"),
    ("standing.bad_order", "R-9.2", "order does not list CU types, each once"),
    ("standing.order_missing", "R-9.2", "a losses order without its order"),
    ("standing.play_missing", "R-8.5", "a standing order for a surprise moment naming no card"),
    # surprise cards played at their moment
    ("surprise.not_a_card", "R-8.5", "a surprise play that names no card (or several where one is read)"),
    ("surprise.not_in_hand", "R-8.5", "a surprise card that is not in the seat's hand"),
    ("surprise.not_a_surprise", "R-8.5", "a card named for a surprise play that is no surprise card"),
    ("surprise.wrong_moment", "R-8.5", "a surprise card that is not played at this moment"),
    ("surprise.duplicate", "R-8.5", "a surprise card named twice, or two for one moment"),
    ("surprise.no_siege", "R-8.5", "a siege card where the seat conducts no siege"),
    # units inside a major city
    ("inside.not_a_mapping", "R-5", "inside is not {city: {units}}"),
    ("inside.not_major_city", "R-5", "a space that is no major city"),
    ("inside.not_your_city", "R-5", "a major city the seat does not control"),
    ("inside.duplicate", "R-5", "a city or general listed twice"),
    ("inside.no_such_units", "R-5", "units the seat does not have outside there"),
    ("inside.unknown_cu_type", "R-5", "no CU type has that name"),
    ("inside.bad_count", "R-5", "a count that is not a whole number of CUs"),
    ("inside.over_capacity", "R-5", "more CUs than the city holds inside"),
    ("inside.nothing_inside", "R-5", "outside for a city where the seat has nothing inside"),
    # commanders
    ("commanders.not_a_mapping", "R-5", "commanders is not {space: general}"),
    ("commanders.unknown_general", "R-5", "no general has that name"),
    ("commanders.duplicate", "R-5", "a space given twice"),
    ("commanders.not_there", "R-5", "a general of the seat not in that space"),
    ("commanders.outranked", "R-5", "a general outranked where he stands"),
    # reinforcement decision
    ("reinforcements.not_a_list", "R-7.2", "reinforcements is not a list (or default)"),
    ("reinforcements.entry", "R-7.2", "an entry that is not {space, cus, inside}"),
    ("reinforcements.count", "R-7.2", "a count that is not a whole number"),
    ("reinforcements.too_many", "R-7.2", "more CUs than the seat has to place"),
    ("reinforcements.place_illegal", "R-7.2", "a space where the CU may not go"),
    ("reinforcements.inside_not_bool", "R-7.2", "inside is not true"),
    ("reinforcements.inside_not_your_city", "R-7.2", "inside a city that is not the seat's"),
    ("reinforcements.inside_besieged", "R-7.2", "inside a besieged city"),
    ("reinforcements.inside_full", "R-7.2", "more CUs inside than the city holds"),
    # answers to reaction windows
    ("reaction.bad_answer", "R-9.2", "an answer that is not join, stay or none"),
    ("reaction.bad_army", "R-9.3", "an army that is not one of the window's choices"),
    ("reaction.bad_toward", "R-9.3", "a space that is not one of the window's choices"),
    ("reaction.bad_fleet", "R-15", "a fleet that is not one of the seat's ready fleets"),
    # legitimacy and the royal family
    ("royals.no_target", "R-16", "a card event with nothing it can act on now"),
    ("royals.royal_missing", "R-12.6", "a card event naming no member of the royal family"),
    ("royals.unknown_royal", "R-12", "no member of the royal family has that name"),
    ("royals.royal_not_allowed", "R-12.6", "a member the card event cannot act on"),
    ("royals.player_not_allowed", "R-11.1", "a seat the card event cannot name"),
    ("royals.general_missing", "R-16.1", "Condemnation naming no major general"),
    ("royals.general_not_allowed", "R-16.1", "a general Condemnation cannot name"),
    ("royals.army_missing", "R-12.5", "a card event naming no army"),
    ("royals.army_not_allowed", "R-12.5", "an army the card event cannot name"),
    ("royals.cannot_activate", "R-12.2", "Olympias cannot be activated by this seat now"),
    ("royals.cannot_bury", "R-12.4", "the body cannot be buried there now"),
    ("royals.bad_bury", "R-12.4", "bury is not true or a major city"),
    ("royals.heir_not_controlled", "R-11.1", "an heir the seat does not control"),
]

ENVELOPE = "docs/pipeline.md: The orders envelope and seat security"
READING = "docs/pipeline.md: Reading a mail"
_MAIL = [
    ("envelope.missing", "a line game:, seat:, key:, step: or orders: is missing",
     ENVELOPE),
    ("envelope.unknown_key", "a top-level key the envelope does not have", ENVELOPE),
    ("envelope.command_and_orders", "command: and orders: in one mail: one of them per mail, "
     "so neither is done", ENVELOPE),
    ("envelope.unknown_game", "no game of that name on this judge", ENVELOPE),
    ("envelope.unknown_seat", "the game has no such seat", ENVELOPE),
    ("envelope.step_type", "step is not a whole number", ENVELOPE),
    ("envelope.stale_step", "orders for a step that is over", ENVELOPE),
    ("envelope.future_step", "orders for a step that has not come", ENVELOPE),
    ("envelope.not_your_turn", "the seat has no decision now", ENVELOPE),
    ("envelope.orders_type", "orders: is not a block of keys", ENVELOPE),
    ("envelope.seq_type", "seq: is not a whole number from 1", ENVELOPE),
    ("envelope.seat_type", "seat: is not a text (a list or a block of keys, say)", ENVELOPE),
    ("envelope.out_of_range", "step: or seq: is beyond the numbers the judge keeps (at most 2^63 - 1)", ENVELOPE),
    ("envelope.stale_seq", "seq: is not above the last one taken (an old mail again)", ENVELOPE),
    ("envelope.salt_type", "salt: is not a text or a number of at most 200 characters", ENVELOPE),
    ("auth.key", "the seat key is wrong", ENVELOPE),
    ("auth.sender", "the address is not the seat's", ENVELOPE),
    ("auth.locked", "too many wrong keys for the seat within the hour; no key is checked", ENVELOPE),
    ("auth.results", "our mail server did not authenticate the From domain (SPF/DKIM/DMARC)", ENVELOPE),
    ("history.value", "history: is not a step number or all", "docs/orders.md: Asking for a past report"),
    ("command.unknown", "command: names no player command", "docs/player-guide.md: Commands by mail"),
    ("command.not_now", "the command does not apply to the seat now", "docs/player-guide.md: Commands by mail"),
    ("command.absence_dates", "absence: from/to missing, not a date, or to before from",
     "docs/player-guide.md: Absence"),
    ("command.absence_past", "absence: the absence lies in the past", "docs/player-guide.md: Absence"),
    ("command.absence_overlap", "absence: overlaps an absence already declared", "docs/player-guide.md: Absence"),
    ("command.absence_limit", "absence: more days than the game's absence_limit_days leave",
     "docs/player-guide.md: Absence"),
    ("command.value", "a command's own key has a value it does not take", "docs/player-guide.md: Commands by mail"),
    ("command.webhook", "preferences: webhook: is not an http:// or https:// URL (nor off)",
     "docs/player-guide.md: Preferences"),
    ("command.config_game", "the command works only on games made by `pbem game new`",
     "docs/player-guide.md: Commands by mail"),
    ("command.rate", "the command was asked for too often; the reply says when it works again",
     "docs/player-guide.md: Commands by mail"),
    ("command.code", "no address change waits for this address with that code", "docs/player-guide.md: Commands by mail"),
    ("command.repeat", "the same command was carried out before: a copy does nothing; a seq: line makes it new",
     "docs/player-guide.md: Commands by mail"),
    ("host.refused", "a host command that does not apply: the reply says what to write instead",
     "docs/host-guide.md: Host commands"),
    ("press.off", "the game has no press (press: none)", "docs/player-guide.md: Press"),
    ("press.closed", "the game is over: press is closed", "docs/player-guide.md: Press"),
    ("press.public_only", "public press goes to all seats (to: all)", "docs/player-guide.md: Press"),
    ("press.recipients", "to: is not all or a list of other seats", "docs/player-guide.md: Press"),
    ("press.text", "the press has no text or a text too long", "docs/player-guide.md: Press"),
    ("press.grey", "grey: is not true/false, or the game allows no grey press", "docs/player-guide.md: Press"),
    ("press.rate", "the seat sent too many press messages within the hour", "docs/player-guide.md: Press"),
    ("vote.proposal", "propose: needs one of end: draw (with among:), end: concede or pause: N days",
     "docs/player-guide.md: Votes"),
    ("vote.among", "among: is not a list of the game's seats still in it (two or more)", "docs/player-guide.md: Votes"),
    ("vote.days", "pause: is not a whole number of days from 1 to 30", "docs/player-guide.md: Votes"),
    ("vote.open", "the seat has a proposal open already; it is decided or expires first",
     "docs/player-guide.md: Votes"),
    ("vote.unknown", "proposal: names no open proposal of the game (decided, expired or never made)",
     "docs/player-guide.md: Votes"),
    ("vote.choice", "vote: is not yes or no", "docs/player-guide.md: Votes"),
    ("vote.twice", "the seat voted on this proposal already (a vote cannot be changed)",
     "docs/player-guide.md: Votes"),
    ("vote.not_in_game", "the seat is no longer in the game (conceded, in civil disorder or played by a bot)",
     "docs/player-guide.md: Votes"),
    ("vote.closed", "the game is paused already: no pause is proposed now", "docs/player-guide.md: Votes"),
    ("vote.conceded", "the seat conceded: it takes no more orders", "docs/rules.md: Votes and concession"),
    ("command.no_signup", "game: names no game open for sign-up (unknown, or full and started)",
     "docs/player-guide.md: Joining an open game"),
    ("command.signup_seat", "join: names no seat (or name: is not a short text)",
     "docs/player-guide.md: Joining an open game"),
    ("command.seat_taken", "join: names a seat another player took", "docs/player-guide.md: Joining an open game"),
    ("command.signup_twice", "the address holds a seat of that open game already",
     "docs/player-guide.md: Joining an open game"),
    ("command.no_substitutes", "game: names a game whose host turned substitutes off (its setting "
     "substitutes: off)", "docs/player-guide.md: Substitutes"),
    ("command.config_game", "game: names a game of the judge's config file: its seats change only there, so it "
     "takes no substitutes", "docs/player-guide.md: Substitutes"),
    ("command.seat_not_free", "take: names a seat that is not on offer (its player plays it, another "
     "substitute took it or asked first)", "docs/player-guide.md: Substitutes"),
    ("command.not_standing_by", "take: from an address that is not on the game's or the judge's standby list",
     "docs/player-guide.md: Substitutes"),
    ("command.plays_already", "the address holds a seat of that game already", "docs/player-guide.md: Substitutes"),
    ("command.signup_finished", "the address finished fewer games on this judge than the game's min_finished_games",
     "docs/player-guide.md: Your record"),
    ("command.signup_missed", "the address missed a larger share of its decisions than the game's max_missed_share",
     "docs/player-guide.md: Your record"),
    ("observe.no_game", "game: names no running game of this judge", "docs/player-guide.md: Observing a game"),
    ("observe.off", "the game takes no observers (its setting observers: off)",
     "docs/player-guide.md: Observing a game"),
    ("observe.not_allowed", "the game takes observers the host allows, and the host has not allowed this address",
     "docs/player-guide.md: Observing a game"),
    ("observe.seat", "the address holds a seat of the game: its own reports show more",
     "docs/player-guide.md: Observing a game"),
    ("observe.not_following", "leave: the address observes no such game", "docs/player-guide.md: Observing a game"),
    ("observe.confirm", "confirm: is not the code the judge mailed to the address", "docs/player-guide.md: Observing a game"),
    ("internal", "the judge hit an internal error; the host is told", "docs/pipeline.md: One cycle"),
    ("mail.no_orders", "no orders block in the author's own text", READING),
    ("mail.two_documents", "two orders blocks in one mail", READING),
    ("mail.stray_line", "a line inside the orders block that is not YAML (often one the mail program wrapped)",
     READING),
    ("mail.forwarded", "orders only in a forwarded or quoted part", READING),
    ("mail.encrypted", "an encrypted mail the judge cannot read", READING),
    ("mail.too_large", "the mail is larger than the judge accepts", READING),
    ("mail.unreadable", "the mail could not be parsed", READING),
    ("yaml.syntax", "the orders block is not valid YAML", READING),
    ("yaml.tab", "a tab in the indentation", READING),
    ("yaml.duplicate_key", "the same key twice in one mapping", READING),
    ("yaml.alias", "YAML anchors and aliases are not read", READING),
    ("yaml.bad_character", "an escape gives a character no mail can carry (a lone surrogate, past U+10FFFF)",
     READING),
]

CODES: dict[str, Code] = {c: Code(c, r, s) for c, r, s in _RULES}
CODES.update({c: Code(c, None, s, ref) for c, s, ref in _MAIL})
"""Every problem code of the product, declared once."""


def declared(code: str) -> Code:
    """The catalogue entry of ``code``. Raises :class:`UnknownCode` when it is not
    declared in :data:`CODES`."""
    try:
        return CODES[code]
    except KeyError:
        raise UnknownCode(f"problem code {code!r} is not declared in pbem.problems.CODES"
                          ) from None


def problem(code: str, message: str, *, where: str | None = None, hint: str | None = None,
            rule: str | None = None, line: int | None = None,
            params: Mapping[str, Any] | None = None) -> Problem:
    """A :class:`Problem` of the declared ``code``; ``rule`` defaults to the code's rule
    (give it when the same problem arises under another rule, e.g. an unknown field of
    the surrender segment, R-8.1). ``message`` is used as given. Raises
    :class:`UnknownCode` for an undeclared code. ``params``: the names and numbers
    of the message, for its translation (:attr:`Problem.params`)."""
    entry = declared(code)
    return Problem(code, message, rule if rule is not None else entry.rule, where, hint, line, params)


_LINE_PREFIX = re.compile(r"^line (\d+)(?: \(line (\d+) of your mail\))?: ")


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def grouped(problems: Sequence[Problem]) -> list[Problem]:
    """``problems`` with repeats merged, in the order of first appearance: problems of
    the same code, rule, hint and ``where`` whose messages differ only in their
    ``line N:`` prefix (a tab on four lines) become one problem naming every line
    (``"lines 6, 7, 8 and 9: ..."``, ``line`` the first); exact duplicates are kept
    once. Nothing else changes, so every distinct problem is still named."""
    out: list[Problem] = []
    index: dict[tuple, int] = {}
    lines: dict[int, list[tuple[str, str | None]]] = {}
    for p in problems:
        m = _LINE_PREFIX.match(p.message)
        body = p.message[m.end():] if m else p.message
        key = (p.code, p.rule, p.hint, p.where, body, bool(m))
        if key in index:
            if m:
                lines[index[key]].append((m.group(1), m.group(2)))
            continue
        index[key] = len(out)
        if m:
            lines[len(out)] = [(m.group(1), m.group(2))]
        out.append(p)
    for i, found in lines.items():
        if len(found) > 1:
            body = _LINE_PREFIX.sub("", out[i].message, count=1)
            own = _and([n for n, _ in found])
            mail = [m for _, m in found if m]
            head = f"lines {own}" + (f" (lines {_and(mail)} of your mail)" if len(mail) == len(found) else "")
            out[i] = replace(out[i], message=f"{head}: {body}")
    return out
