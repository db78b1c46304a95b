"""A player's record (issue 29.4): per address, across this judge's games — games
played and finished, decisions answered and missed, civil disorders, the mean time to
answer (:meth:`pbem.store.observers.ObserversTable.player_record`).

``command: record`` (``game:`` optional) answers the sender's own record, to the
sender only; the host sees a joining player's record in the sign-up notice
(:mod:`pbem.service.commands.join`); a game's settings ``min_finished_games`` and
``max_missed_share`` refuse a join below them (:func:`join_problems`).
"""
from __future__ import annotations

import gettext
from collections.abc import Mapping
from typing import Any

from pbem import i18n
from pbem.gamesettings import GameSettings
from pbem.mail.headers import fold_address
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.commands.anyone import common
from pbem.service.commands.registry import Field, Guide, MailRequest, Who
from pbem.service.outgoing import answers, seat_preferences


def duration_text(seconds: float, tr: gettext.NullTranslations | None = None) -> str:
    """A mean answer time in words: ``3 h 20 min``, ``2 d 4 h``, ``45 s`` (the units in
    the language of ``tr``; None: English).

    >>> duration_text(12000.0), duration_text(187200.0), duration_text(45.2)
    ('3 h 20 min', '2 d 4 h', '45 s')
    """
    _ = i18n.gettext_of(tr)
    s = round(seconds)
    if s < 60:
        return _("%(s)s s") % {"s": s}
    minutes, hours, days = s // 60 % 60, s // 3600 % 24, s // 86400
    if days:
        return _("%(d)s d %(h)s h") % {"d": days, "h": hours}
    return _("%(h)s h %(min)s min") % {"h": hours, "min": minutes} if hours else _("%(min)s min") % {"min": minutes}


def record_lines(record: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> list[str]:
    """The record (:meth:`~pbem.store.observers.ObserversTable.player_record`) as lines
    of text, in the language of ``tr`` (None: English; issue 28)."""
    _ = i18n.gettext_of(tr)
    share = record["missed_share"]
    mean = record["answer_seconds"]
    return [_("Games played: %(games)s (finished: %(finished)s, running: %(running)s)") % {
                "games": record['games'], "finished": record['finished'], "running": record['running']},
            _("Decisions answered: %(num)s") % {"num": record['decisions']},
            _("Decisions missed: %(num)s") % {"num": record['missed']}
            + (" " + _("(%(share)s of decisions)") % {"share": f"{share:.0%}"} if share is not None else ""),
            _("Civil disorders: %(num)s") % {"num": record['civil_disorders']},
            _("Average answer time: %(time)s") % {"time": duration_text(mean, tr) if mean is not None
                                                  else _("none yet")}]


def join_problems(settings: GameSettings, record: Mapping[str, Any], game_id: str) -> list[Problem]:
    """Why a player with ``record`` may not join ``game_id`` under its ``settings``
    (``min_finished_games``, ``max_missed_share``); empty when it may."""
    problems = []
    if record["finished"] < settings.min_finished_games:
        problems.append(Problem(
            message=f"Game {game_id} takes players who finished at least {settings.min_finished_games} games on "
                    f"this judge; your address finished {record['finished']}.", where="join",
            code="command.signup_finished", hint="Play a game to its end first, or ask the host; "
                                                 "`command: record` shows your record."))
    share = record["missed_share"]
    if share is not None and share > settings.max_missed_share:
        problems.append(Problem(
            message=f"Game {game_id} takes players who missed at most {settings.max_missed_share:.0%} of their "
                    f"decisions; your address missed {share:.0%}.", where="join", code="command.signup_missed",
            hint="Answer your decisions in your other games, or ask the host; `command: record` shows your record."))
    return problems


def record(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
           shown: Mapping[str, Any]) -> str:
    """``command: record``: the sender's own record, to the sender. Returns the inbox status."""
    problems = common.unknown_keys(doc, "record", ("language",))
    if problems:
        return answers.reject(judge, parsed, rec, problems, None, None, {"document": shown})
    sender = fold_address(parsed.sender or "")
    iid = rec("answered", "record", result={"document": shown})
    game_id = doc.get("game") if isinstance(doc.get("game"), str) else None
    tr = seat_preferences.address_translations(judge.store, sender, game_id, doc.get("language"))  # issue 28
    _ = tr.gettext
    lines = record_lines(judge.store.player_record(sender), tr)
    common.answer(judge, parsed, iid, None, _("your record"),
                  _("Your record on this judge (%(address)s), over every game in which this address holds or held "
                    "a seat:") % {"address": sender} + "\n\n" + "\n".join("  " + line for line in lines) + "\n\n"
                  + _("A missed decision is one whose deadline passed without your orders; the answer time runs "
                      "from the prompt to your first orders accepted for it. Hosts see this record when you join a "
                      "game, and a game may ask for a minimum (the guide `command: help` sends, "
                      "\"Your record\")."), tr=tr)
    return "answered"


RECORD = MailRequest(
    name="record", who=Who.ANYONE, by_command=True,
    fields=(Field("language", "choice", "en | es | ru: the language of the answer"),), limit=None, logs=(),
    help="Your record on this judge: games played and finished, decisions missed, civil disorders, answer time.",
    guide=Guide("player-guide.md", "Your record"), process=record)
