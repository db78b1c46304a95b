"""Observers (issue 29.3): an address follows a running game's public reports by mail::

    game: g2
    command: observe        # or `command: leave` to stop
    language: es            # optional (observe): en, es or ru (else that of a seat the address
                            # holds on this judge, else English)
    confirm: 7KQ2M4XBHD     # the code the judge mailed to the address (see below)

Who may observe is the game's ``observers`` setting (:mod:`pbem.gamesettings`):
``off`` (the default: nobody), ``host`` (the addresses the host allowed with
``pbem game observers G add ADDR`` or by mail, the host command ``observers``) or
``anyone``. An observer gets, after every decision, the report rendered from the
public view (``seat=None``: no hand, no standing orders, no private events, no press,
no prompt; :func:`pbem.service.play.reports.queue_reports`) until it sends ``command:
leave`` or the game ends. Observing changes nothing in the game and enters no log
(the ``observers`` table holds it, :mod:`pbem.store.observers`).

Anyone could write a mail with another person's address in its From: (issue 29's
trial, finding 6), so an address the host did not allow is first sent a confirmation
code (the row is ``pending``: no report yet); the reports start once the code comes
back in a ``command: observe`` with ``confirm:`` — from whoever reads that mailbox
(:func:`code`: an HMAC of the game and the address under the game's event key, so it
needs no storage and tells nothing of the seed). The host's allowance (``observers:
host``, ``pbem game observers G add ADDR``) is the host's approval: no code then. An
observer whose mail bounces is dropped (``left``) and the host told
(:func:`pbem.service.outgoing.host_notices.dropped_for_bounce`, from its :func:`bounced`).

Refused, with what to do instead: an unknown game (``observe.no_game``), a game that is
over (``game.over``), a game whose setting is ``off`` (``observe.off``) or ``host``
while the host did not allow the address (``observe.not_allowed``), an address that
holds a seat of the game (``observe.seat``: its own reports say more), and ``leave``
from an address that follows no such game (``observe.not_following``), and a ``confirm:``
that is not the code mailed to the address (``observe.confirm``).
"""
from __future__ import annotations

import base64
import gettext
import hashlib
import hmac
from collections.abc import Mapping
from email.utils import parseaddr
from typing import Any

from pbem import i18n
from pbem.mail.headers import fold_address, normalise_address
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.base.settings import settings_of
from pbem.service.commands.anyone import common
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest, MailRequest, Refused, Who
from pbem.service.log import trust
from pbem.service.outgoing import answers, seat_preferences
from pbem.store.events import event_key

GUIDE = Guide("player-guide.md", "Observing a game")


def _game_problems(judge: Service, game_id: Any) -> list[Problem]:
    """Why ``game_id`` cannot be observed by anyone now (empty: it can)."""
    game = judge.store.game(game_id) if isinstance(game_id, str) else None
    if game is None:
        return [Problem(message=f"There is no running game {game_id!r} on this judge.", where="game",
                        code="observe.no_game", hint="Ask the host for the game's id (`game: g2`).")]
    if game["status"] in trust.ENDED:
        return [Problem(message=f"Game {game_id} is {game['status']}: there is nothing more to follow.",
                        where="game", code="game.over",
                        hint="Its archive (the whole log) is public now: ask the host or a player for it.")]
    return []


def may_observe(judge: Service, game_id: str, address: str) -> list[Problem]:
    """Why ``address`` may not follow ``game_id`` (empty: it may): the game's
    ``observers`` setting, the host's allowance, a seat of the game (module docstring).
    Reads only."""
    problems = _game_problems(judge, game_id)
    if problems:
        return problems
    mode = settings_of(judge, game_id).observers
    if mode == "off":
        return [Problem(message=f"Game {game_id} takes no observers.", where="command", code="observe.off",
                        hint="Its host may open it to observers (the setting `observers: host` or `anyone`).")]
    row = judge.store.observer(game_id, address)
    if mode == "host" and (row is None or row["allowed_by"] != "host"):
        return [Problem(message=f"The host of {game_id} has not allowed {address} to observe it.",
                        where="command", code="observe.not_allowed",
                        hint="Ask the host to allow your address (`pbem game observers GAME add ADDRESS`), "
                             "then send `command: observe` again.")]
    if any(fold_address(r["email"]) == fold_address(address) for r in judge.store.seats(game_id)):
        return [Problem(message=f"Your address holds a seat of {game_id}: your own reports show more than an "
                                "observer's.", where="command", code="observe.seat",
                        hint="Observe another game, or ask a friend to observe this one.")]
    return []


def _hidden(shown: Mapping[str, Any]) -> dict[str, Any]:
    """The document as the inbox keeps it: a ``confirm:`` code hidden."""
    return {**shown, **({"confirm": "(hidden)"} if "confirm" in shown else {})}


def code(judge: Service, game_id: str, address: str) -> str:
    """The confirmation code of ``address`` for observing ``game_id``: ten letters and
    digits (RFC 4648 base32) of HMAC-SHA256 under the game's event key (derived from
    its dice seed, :func:`pbem.store.events.event_key`) over the game and the folded
    address. Only the mail to the address carries it; it reveals nothing of the seed."""
    seed = bytes.fromhex(judge.store.game(game_id)["seed"])
    mac = hmac.new(event_key(seed), f"pbem-observe/v1:{game_id}:{fold_address(address)}".encode(), hashlib.sha256)
    return base64.b32encode(mac.digest()).decode()[:10]




def observe(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
            shown: Mapping[str, Any]) -> str:
    """``command: observe`` (module docstring): the sender follows the game from its
    next report on — at once when the host allowed the address or it observes already,
    else once it sends back the confirmation code mailed to it — or is told why not.
    Returns the inbox status."""
    sender = normalise_address(parsed.sender or "") or fold_address(parsed.sender or "")
    game_id = doc.get("game")
    problems = common.unknown_keys(doc, "observe", ("language", "confirm"))
    # the language asked for, else that of a seat the address holds (issue 28)
    language = doc.get("language") if "language" in doc else i18n.language_of(
        seat_preferences.address_translations(judge.store, sender, game_id if isinstance(game_id, str) else None))
    if "language" in doc and not i18n.is_language(language):
        problems.append(Problem(message=f"language: {language!r} is not a language of this judge.",
                                where="language", code="command.value",
                                hint=f"Write one of {', '.join(i18n.LANGUAGES)}, e.g. `language: es`.",
                                params={"why": "language", "found": repr(language),
                                        "languages": ", ".join(i18n.LANGUAGES)}))
    problems += may_observe(judge, game_id, sender) if isinstance(game_id, str) else _game_problems(judge, game_id)
    known = game_id if isinstance(game_id, str) and judge.store.game(game_id) else None
    if problems:
        return answers.reject(judge, parsed, rec, problems, known, None, {"document": shown})
    assert isinstance(game_id, str)
    now = judge.clock().isoformat()
    row = judge.store.observer(game_id, sender)
    mode = settings_of(judge, game_id).observers
    allowed_by = row["allowed_by"] if row and row["allowed_by"] else mode
    confirmed = row is not None and (row["allowed_by"] == "host" or row["status"] == "active")
    given = doc.get("confirm")
    if "language" not in doc and row is not None and row["language"]:
        language = row["language"]
    if not confirmed and given is None:  # a code to the address first: its From: may be another's
        judge.store.set_observer(game_id, sender, "pending", now, language=language, allowed_by=allowed_by)
        iid = rec("answered", "observe", game_id=game_id, result={"document": _hidden(shown)})
        tr = i18n.translations(language)  # the language asked for (issue 28)
        common.answer(judge, parsed, iid, game_id, tr.gettext("confirm observing"), tr.gettext(
            "To follow %(game)s, send this code back from this address (anyone may write a mail with another's "
            "address as its sender, so the reports start only once the code comes back):") % {"game": game_id}
            + f"\n\n  game: {game_id}\n  command: observe\n  confirm: {code(judge, game_id, sender)}\n\n"
            + tr.gettext("If you did not ask to observe this game, do nothing: no report comes to this address."),
            tr=tr)
        return "answered"
    if not confirmed and (row is None or row["status"] not in ("pending", "left", "allowed")
                          or str(given).strip().upper() != code(judge, game_id, sender)):
        problem = Problem(message=f"`confirm:` is not the code the judge mailed to {sender} for {game_id}.",
                          where="confirm", code="observe.confirm",
                          hint="Copy the three lines of the judge's mail exactly, or send `command: observe` "
                               "without `confirm:` for the code again.")
        return answers.reject(judge, parsed, rec, [problem], game_id, None, {"document": _hidden(shown)})
    judge.store.set_observer(game_id, sender, "active", now, language=language, allowed_by=allowed_by)
    iid = rec("answered", "observe", game_id=game_id, result={"document": _hidden(shown)})
    step = judge.state(game_id).step
    tr = i18n.translations(language)  # the language asked for (issue 28)
    common.answer(judge, parsed, iid, game_id, tr.gettext("observing"), tr.gettext(
        "You observe %(game)s (now at step %(step)s). After every decision you get its public report: the board, "
        "the scores and what happened, as every seat may see it; never a hand, a prompt or press. To stop, mail "
        "the judge:") % {"game": game_id, "step": step} + "\n\n  game: " + game_id + "\n  command: leave", tr=tr)
    return "answered"


def leave(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
          shown: Mapping[str, Any]) -> str:
    """``command: leave``: the sender stops following the game. Returns the inbox status."""
    sender = normalise_address(parsed.sender or "") or fold_address(parsed.sender or "")
    game_id = doc.get("game")
    problems = common.unknown_keys(doc, "leave", ())
    row = judge.store.observer(game_id, sender) if isinstance(game_id, str) else None
    if row is None or row["status"] != "active":
        problems.append(Problem(message=f"Your address does not observe {game_id!r}.", where="game",
                                code="observe.not_following",
                                hint="Nothing to stop; `command: observe` follows a game."))
    known = game_id if isinstance(game_id, str) and judge.store.game(game_id) else None
    if problems:
        return answers.reject(judge, parsed, rec, problems, known, None, {"document": shown})
    assert isinstance(game_id, str)
    judge.store.set_observer(game_id, sender, "left", judge.clock().isoformat())
    iid = rec("answered", "leave", game_id=game_id, result={"document": shown})
    tr = seat_preferences.address_translations(judge.store, sender, game_id)  # the observer's language (issue 28)
    common.answer(judge, parsed, iid, game_id, tr.gettext("no longer observing"), tr.gettext(
        "You no longer observe %(game)s: no more of its reports come to this address. `command: observe` follows "
        "it again.") % {"game": game_id}, tr=tr)
    return "answered"


def allow(judge: Service, game_id: str, address: str, *, remove: bool = False,
          tr: gettext.NullTranslations | None = None) -> str:
    """The host allows ``address`` to observe ``game_id`` (it then sends ``command:
    observe``), or with ``remove`` takes the allowance back and stops its reports.
    Returns what was done, for the host, in the language of ``tr`` (None: English;
    issue 28). Raises KeyError for an unknown game and
    ValueError, saying what to do instead, for a bad address. Call inside a
    transaction."""
    if judge.store.game(game_id) is None:
        raise KeyError(game_id)
    _ = i18n.gettext_of(tr)
    folded = normalise_address(parseaddr(address)[1] or address)
    if not folded or "@" not in folded:
        raise Refused(lambda tr: tr.gettext("not an address: %(address)s (write e.g. ann@example.org)") % {
            "address": repr(address)})
    now = judge.clock().isoformat()
    row = judge.store.observer(game_id, folded)
    if remove:
        if row is None:
            raise Refused(lambda tr: tr.gettext("%(address)s is not among the observers of %(game)s") % {
                "address": folded, "game": game_id})
        judge.store.set_observer(game_id, folded, "left", now, allowed_by="")
        return _("%(address)s may no longer observe %(game)s; its reports stop.") % {"address": folded,
                                                                                      "game": game_id}
    judge.store.set_observer(game_id, folded, row["status"] if row else "allowed", now, allowed_by="host")
    mode = settings_of(judge, game_id).observers
    note = "" if mode != "off" else (" " + _("The game's setting `observers` is off: set it to `host` for the "
                                             "allowance to count."))
    return _("%(address)s may observe %(game)s: it follows the game once it mails the judge `game: %(game)s` and "
             "`command: observe`.") % {"address": folded, "game": game_id} + note


def observer_status(status: str, tr: gettext.NullTranslations | None = None) -> str:
    """An observer row's status (``active``, ``allowed``, ``left``) in the host's
    listing, in the language of ``tr`` (None: English; context ``observer``); another
    status reads as it is."""
    words = tr if tr is not None else i18n.translations()
    if status == "active":
        return words.pgettext("observer", "active")
    if status == "allowed":
        return words.pgettext("observer", "allowed")
    if status == "left":
        return words.pgettext("observer", "left")
    return status


def listing(judge: Service, game_id: str, tr: gettext.NullTranslations | None = None) -> str:
    """The observers of ``game_id`` and the allowed addresses, one line each (for the
    host), in the language of ``tr`` (None: English; the setting's value stays as the
    settings write it). Raises KeyError for an unknown game."""
    if judge.store.game(game_id) is None:
        raise KeyError(game_id)
    _ = i18n.gettext_of(tr)
    rows = judge.store.observers(game_id, None)
    mode = settings_of(judge, game_id).observers
    lines = [_("%(game)s: observers %(mode)s; %(num)s observing") % {
        "game": game_id, "mode": mode, "num": sum(r['status'] == 'active' for r in rows)}]
    lines += [f"  {r['email']}: " + observer_status(r["status"], tr)
              + (" " + _("(allowed by the host)") if r["allowed_by"] == "host" else "") for r in rows]
    return "\n".join(lines)


def host_process(judge: Service, request: HostRequest) -> Done:
    """The host command ``observers`` (``add: ADDR`` or ``remove: ADDR``; neither: the
    list), in the host's language by mail and by ``pbem host`` (issue 28). Raises
    ValueError (:class:`~pbem.service.commands.registry.Refused`) saying what to do instead."""
    add, remove = request.values.get("add"), request.values.get("remove")
    if add and remove:
        raise Refused(lambda tr: tr.gettext("write %(add)s or %(remove)s, one address per command") % {
            "add": request.say("`add:`", "--add"), "remove": request.say("`remove:`", "--remove")})
    if not add and not remove:
        return Done(lambda tr: listing(judge, request.game_id, tr), None)  # the host's language (issue 28)
    tr = i18n.translations(settings_of(judge, request.game_id).host_language)  # the host's language (issue 28)
    return Done(allow(judge, request.game_id, str(add or remove), remove=bool(remove), tr=tr), None)


OBSERVE = MailRequest(
    name="observe", who=Who.ANYONE, by_command=True,
    fields=(Field("language", "choice", "en | es | ru: the language of the reports"),), limit=None, logs=(),
    help="Follow a running game's public reports by mail (`game:`, `command: observe`), if its host allows.",
    guide=GUIDE, process=observe)
LEAVE = MailRequest(
    name="leave", who=Who.ANYONE, by_command=True, fields=(), limit=None, logs=(),
    help="Stop observing a game (`game:`, `command: leave`).", guide=GUIDE, process=leave)
HOST = HostCommand(
    name="observers", fields=(Field("add", "address", "an address the host allows to observe"),
                              Field("remove", "address", "an address that may no longer observe")),
    logs=(), after_end=False, guide=Guide("host-guide.md", "Observers"), process=host_process,
    help="Allow an address to observe the game (`add:`), take it back (`remove:`), or list the observers.")
