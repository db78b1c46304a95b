"""Substitutes by mail (issue 29, item 2; docs/player-guide.md, "Substitutes"): anyone
puts themselves on a game's standby list, or on the installation's (``game: any``),
and takes a seat offered to it (:mod:`pbem.service.play.substitutes`)::

    game: g2                # or `any`: every game of this judge
    command: standby
    standby: true           # false: off the list again
    name: Ann               # optional: the name the players see (else the mail's)
    language: es            # optional: the answer's language (else that of a seat the address holds)

    game: g2
    command: take
    take: east              # the seat named in the offer mail
    name: Ann               # optional

Neither carries a key: the sender's address is who stands by, and the seat's new key
comes with the handover mail. Refused, each with what to do instead, nothing changed:
a game that takes no substitutes, with its one reason (:func:`_no_substitutes`), a seat that is not on
offer (``command.seat_not_free``), a take from an address not on the list
(``command.not_standing_by``), an address that holds a seat of the game
(``command.plays_already``), a bad value (``command.value``), an unknown key
(``envelope.unknown_key``). The answers go as the limits on answers to strangers
allow (:func:`pbem.service.outgoing.ratelimit.deliver`).
"""
from __future__ import annotations

import gettext
from collections.abc import Mapping
from typing import Any

from pbem import i18n
from pbem.addresses import fold_address
from pbem.mail.headers import clean_text, normalise_address
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import settings_of, wrapped
from pbem.service.base.text import re_subject
from pbem.service.commands.registry import Field, Guide, MailRequest, Who
from pbem.service.log import trust
from pbem.service.outgoing import answers, ratelimit, seat_preferences
from pbem.service.play import substitutes
from pbem.store.standby import ANY_GAME

NAMES = ("standby", "take")
"""The ``command:`` names these requests answer to (:mod:`pbem.service.intake.rules`)."""
NAME_MAX = 60
"""The longest player name taken (characters)."""
_KEYS = {"standby": ("game", "command", "standby", "name", "language"),
         "take": ("game", "command", "take", "name", "language")}


def _problem(code: str, message: str, hint: str, where: str, **params: Any) -> Problem:
    return Problem(code=code, message=message, hint=hint, where=where, params=params or None)


def _common(judge: Service, doc: Mapping[str, Any], sender: str, name: str) -> tuple[str | None, list[Problem]]:
    """The game a standby or take mail names (None for ``game: any``) and the problems
    every such mail may have: unknown keys, a bad name, a game that takes no
    substitutes, a sender who plays in it."""
    problems = [_problem("envelope.unknown_key", f"`command: {name}` has no key {k!r}.",
                         f"Write only {', '.join(f'`{x}:`' for x in _KEYS[name])}.", str(k))
                for k in doc if k not in _KEYS[name]]
    player = doc.get("name")
    if player is not None and (not isinstance(player, str) or not clean_text(player) or len(player) > NAME_MAX):
        problems.append(_problem("command.value", f"name: must be a text of 1 to {NAME_MAX} characters.",
                                 "e.g. `name: Ann`", "name", why="name", most=NAME_MAX, found=repr(player)))
    game_id = doc.get("game")
    if name == "standby" and isinstance(game_id, str) and game_id.strip().lower() == "any":
        return None, problems
    if not isinstance(game_id, str) or not substitutes.offers_seats(judge, game_id):
        problems.append(_no_substitutes(judge, game_id))
        return None, problems
    mine = next((r["seat"] for r in judge.store.seats(game_id) if r["email"]
                 and fold_address(r["email"]) == fold_address(sender)), None)
    if mine is not None:
        problems.append(_problem("command.plays_already", f"Your address plays the seat {mine} of {game_id}.",
                                 "One seat per address: a substitute stands by from an address that plays no "
                                 "seat of the game.", "game"))
    return game_id, problems


def _no_substitutes(judge: Service, game_id: Any) -> Problem:
    """The one reason ``game_id`` takes no substitutes (issue 29's trial: the answer
    listed every possible reason at once): no game of that name
    (``envelope.unknown_game``), a game that is over (``game.over``), a game of the
    judge's config file, whose seats change only there (``command.config_game``), or a
    game whose host turned substitutes off (``command.no_substitutes``)."""
    anywhere = ("Write `game: any` with `command: standby` to stand by for every game of this judge that takes "
                "substitutes.")
    game = judge.store.game(game_id) if isinstance(game_id, str) else None
    if game is None:
        return _problem("envelope.unknown_game", f"There is no game {game_id!r} on this judge.",
                        "Ask the host for the game's id. " + anywhere, "game")
    if game["status"] in trust.ENDED:
        return _problem("game.over", f"Game {game_id} is {game['status']}: it takes no more players.", anywhere,
                        "game")
    if judge.config.game(game_id) is not None:
        return _problem("command.config_game", f"Game {game_id} is defined in the judge's config file; its seats "
                        "change only there, so it takes no substitutes.",
                        "Ask its host to give you a seat in the config file. " + anywhere, "game")
    return _problem("command.no_substitutes", f"The host of game {game_id} turned substitutes off (the game's "
                    "setting `substitutes: off`).", "Ask its host. " + anywhere, "game")


def _player(doc: Mapping[str, Any], parsed: ParsedMail, sender: str) -> str:
    name = doc.get("name") if isinstance(doc.get("name"), str) else (parsed.sender_name or sender.split("@")[0])
    return clean_text(str(name), NAME_MAX) or sender.split("@")[0]


def _answer(judge: Service, parsed: ParsedMail, iid: int, game_id: str | None, body: str,
            tr: gettext.NullTranslations | None = None) -> None:
    text = build.render_notice(wrapped(body), game_id, tr)
    subject = re_subject(parsed.subject)
    ratelimit.deliver(judge, parsed, iid, game_id=game_id, subject=subject, text=text, html_title=subject,
                      id_parts=(game_id or "judge", "standby", *answers.answer_key(parsed)))


def _on_offer(judge: Service, game_id: str | None, tr: gettext.NullTranslations) -> str:
    """The seats on offer now, with how to take one (empty when none), in the language
    of ``tr``."""
    games = [game_id] if game_id else sorted({o["game_id"] for o in judge.store.open_offers()})
    free = [(g, s) for g in games for s in substitutes.free_seats(judge, g)]
    if not free:
        return ""
    lines = "\n\n".join(substitutes.how_to_take(g, s) for g, s in free)
    return ("\n\n" + tr.gettext("On offer now (the first to answer gets a seat, or the host approves them):")
            + "\n\n" + lines)


def standby(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
            shown: Mapping[str, Any]) -> str:
    """``command: standby`` (module docstring): the sender on or off the standby list of
    the game or the installation, answered with the seats on offer now. Returns the
    inbox status (``answered`` or ``rejected``). Call inside the intake's transaction."""
    sender = normalise_address(parsed.sender or "")
    game_id, problems = _common(judge, doc, sender, "standby")
    on = doc.get("standby")
    if not isinstance(on, bool):
        problems.append(_problem("command.value", f"standby: takes true or false; found {on!r}.",
                                 "Write `standby: true` to stand by, `standby: false` to stop.", "standby",
                                 why="flag", key="standby", found=repr(on)))
    if problems or not sender:
        return answers.reject(judge, parsed, rec, problems, game_id, None, {"document": shown})
    scope = game_id or ANY_GAME
    tr = seat_preferences.address_translations(judge.store, sender, game_id, doc.get("language"))  # issue 28
    _ = tr.gettext
    where = _("game %(game)s") % {"game": game_id} if game_id else _("every game of this judge")
    now = judge.clock().isoformat()
    if on:
        new = judge.store.stand_by(scope, sender, _player(doc, parsed, sender), now)
        body = ((_("You now stand by to take a seat of %(where)s whose player drops out (civil disorder, or handed "
                   "to the bot).") if new else
                 _("You stood by already (your place in the list is kept) to take a seat of %(where)s whose player "
                   "drops out (civil disorder, or handed to the bot).")) % {"where": where}
                + " " + _("When one falls free you get a mail saying how to take it. To stop, send `command: "
                          "standby` with `standby: false`.") + _on_offer(judge, game_id, tr))
    else:
        gone = judge.store.stand_down(scope, sender)
        body = (_("You no longer stand by for %(where)s.") if gone else
                _("You were not on the standby list of %(where)s; nothing changed.")) % {"where": where}
    iid = rec("answered", "standby", game_id=game_id, result={"document": shown, "standby": on})
    _answer(judge, parsed, iid, game_id, body, tr)
    return "answered"


def take(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
         shown: Mapping[str, Any]) -> str:
    """``command: take`` (module docstring): the sender takes the offered seat (the
    game's ``substitutes: auto``: the handover at once) or asks for it (``approve``: the
    host decides). Returns the inbox status (``answered`` or ``rejected``). Call inside
    the intake's transaction."""
    sender = normalise_address(parsed.sender or "")
    game_id, problems = _common(judge, doc, sender, "take")
    seat = doc.get("take")
    seat = seat.strip().lower() if isinstance(seat, str) else seat
    if game_id is not None and not problems:
        free = substitutes.free_seats(judge, game_id)
        others = f"On offer now: {', '.join(free)}." if free else "No seat of the game is on offer now."
        if not judge.store.standing_by(game_id, sender):
            problems.append(_problem("command.not_standing_by", f"Your address does not stand by for {game_id}.",
                                     f"First send `game: {game_id}` (or `game: any`), `command: standby`, "
                                     "`standby: true`; seats that fall free later are offered to you.", "take"))
        elif seat not in free:
            offer = judge.store.seat_offer(game_id, seat) if isinstance(seat, str) else None
            why = ("another substitute asked for it first and the host decides" if offer and
                   offer["status"] == "asked" else "its player plays it, or it went to another player")
            problems.append(_problem("command.seat_not_free", f"The seat {seat} of {game_id} is not on offer: "
                                     f"{why}.", others, "take"))
    if problems or not sender or game_id is None:
        return answers.reject(judge, parsed, rec, problems, game_id, None, {"document": shown})
    listed = next((r["name"] for r in judge.store.standby_list(game_id) if r["address"] == fold_address(sender)), "")
    player = _player(doc, parsed, sender) if "name" in doc or not listed else listed  # the name they stood by with
    tr = seat_preferences.address_translations(judge.store, sender, game_id, doc.get("language"))  # issue 28
    _ = tr.gettext
    if settings_of(judge, game_id).substitutes == "approve":
        substitutes.ask(judge, game_id, seat, player, sender)
        body = _("You asked to take the seat %(seat)s of %(game)s. Its host approves substitutes: when they do, the "
                 "handover mail with the seat's key and history comes to this address.") % {"seat": seat,
                                                                                            "game": game_id}
        iid = rec("answered", "take", game_id=game_id, result={"document": shown, "seat": seat})
    else:
        head = substitutes.take(judge, game_id, seat, player, sender, i18n.language_of(tr))
        body = (_("The seat %(seat)s of %(game)s is yours, %(player)s. The handover mail with the seat's key and "
                  "its history comes in its own mail, and the latest prompt after it.") % {
                    "seat": seat, "game": game_id, "player": player}
                + ("\n\n" + _("Log witness: %(witness)s") % {"witness": head} if head else ""))
        iid = rec("answered", "take", game_id=game_id, seat=seat, result={"document": shown, "seat": seat})
    _answer(judge, parsed, iid, game_id, body, tr)
    return "answered"


STANDBY = MailRequest(
    name="standby", who=Who.ANYONE,
    fields=(Field("standby", "flag", "`true`: stand by for a seat; `false`: off the list again"),
            Field("name", "text", "your name as players see it"),
            Field("language", "choice", "en | es | ru: the language of the answers and offers")),
    limit=None, logs=(),
    help="Stand by to take a seat whose player drops out (`game: G` or `game: any`, `standby: true|false`).",
    guide=Guide("player-guide.md", "Substitutes"), process=standby)

TAKE = MailRequest(
    name="take", who=Who.ANYONE,
    fields=(Field("take", "seat", "the seat offered to you"), Field("name", "text", "your name as players see it"),
            Field("language", "choice", "en | es | ru: the language of the answer")),
    limit=None, logs=("SeatChanged", "SeatReturned", "BotLeft", "PreferencesSet"),
    help="Take a seat offered to the standby list (`game: G`, `take: SEAT`); the key comes by mail.",
    guide=Guide("player-guide.md", "Substitutes"), process=take)
