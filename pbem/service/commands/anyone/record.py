"""A player's record (issue 29.4): per address, across this judge's games — games
played and finished, decisions answered and missed, civil disorders, the mean time to
answer (:meth:`pbem.store.observers.ObserversTable.player_record`).

``command: record`` (``game:`` optional) answers the sender's own record, to the
sender only; the host sees a joining player's record in the sign-up notice
(:mod:`pbem.service.commands.join`); a game's settings ``min_finished_games`` and
``max_missed_share`` refuse a join below them (:func:`join_problems`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.gamesettings import GameSettings
from pbem.mail.headers import fold_address
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.commands.anyone import common
from pbem.service.commands.registry import Guide, MailRequest, Who
from pbem.service.outgoing import answers


def duration_text(seconds: float) -> str:
    """A mean answer time in words: ``3 h 20 min``, ``2 d 4 h``, ``45 s``.

    >>> duration_text(12000.0), duration_text(187200.0), duration_text(45.2)
    ('3 h 20 min', '2 d 4 h', '45 s')
    """
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    minutes, hours, days = s // 60 % 60, s // 3600 % 24, s // 86400
    if days:
        return f"{days} d {hours} h"
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def record_lines(record: Mapping[str, Any]) -> list[str]:
    """The record (:meth:`~pbem.store.observers.ObserversTable.player_record`) as lines of text."""
    share = record["missed_share"]
    mean = record["answer_seconds"]
    return [f"Games played: {record['games']} (finished: {record['finished']}, running: {record['running']})",
            f"Decisions answered: {record['decisions']}",
            f"Decisions missed: {record['missed']}" + (f" ({share:.0%} of decisions)" if share is not None else ""),
            f"Civil disorders: {record['civil_disorders']}",
            "Average answer time: " + (duration_text(mean) if mean is not None else "none yet")]


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
    problems = common.unknown_keys(doc, "record", ())
    if problems:
        return answers.reject(judge, parsed, rec, problems, None, None, {"document": shown})
    sender = fold_address(parsed.sender or "")
    iid = rec("answered", "record", result={"document": shown})
    lines = record_lines(judge.store.player_record(sender))
    common.answer(judge, parsed, iid, None, "your record",
                  f"Your record on this judge ({sender}), over every game in which this address holds or held a "
                  "seat:\n\n" + "\n".join("  " + line for line in lines) + "\n\nA missed decision is one whose "
                  "deadline passed without your orders; the answer time runs from the prompt to your first "
                  "orders accepted for it. Hosts see this record when you join a game, and a game may ask for a "
                  "minimum (docs/player-guide.md, \"Your record\").")
    return "answered"


RECORD = MailRequest(
    name="record", who=Who.ANYONE, by_command=True, fields=(), limit=None, logs=(),
    help="Your record on this judge: games played and finished, decisions missed, civil disorders, answer time.",
    guide=Guide("player-guide.md", "Your record"), process=record)
