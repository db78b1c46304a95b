"""``command: press``: a message from one seat to others, relayed by the judge (issue 16)::

    game: g2
    seat: east
    key: <the seat key>
    command: press
    to: [north, west]       # or `to: all`
    text: |
      Shall we share Syria?
    grey: true              # optional: hide the sender's seat (if the game allows grey press)

The game's ``press`` setting (:mod:`pbem.gamesettings`) says what is allowed: ``none``
(refused), ``public`` (``to: all`` only) or ``private`` (any seats); ``grey_press``
allows hiding the sender. Each recipient seat gets the text in its own mail, with the
sender's seat shown (or "grey press" when hidden); the sender gets a receipt.

Secrecy: the text and the recipients are stored in the ``press`` table only, never
mailed to another seat and never in the public log. The log holds ``PressSent`` (seen
by the judge only) with ``commitment`` = HMAC-SHA256(game event key, canonical JSON of
the message as the archive publishes it, :func:`published`: a grey message without
its sender and recipients) — the key is derived from the dice seed, which is secret until the
game is over, so a short text cannot be guessed from the commitment; once the seed is
published anyone can check a published message against it. The archive shows the press
of an ended game only when ``publish_press`` is set (:mod:`pbem.archive`).

Limits: :data:`MAX_CHARS` characters per message, :data:`PER_HOUR` messages per seat
in any hour.
"""
from __future__ import annotations

import hashlib
import hmac
import textwrap
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from pbem import i18n, rules
from pbem.problems import Problem
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import settings_of, wrapped
from pbem.service.commands.registry import Field, Guide, Limit, SeatCommand
from pbem.service.commands.reply import CommandError, Reply
from pbem.service.log import trust
from pbem.service.outgoing import outbox, seat_preferences
from pbem.store.base import canonical_json
from pbem.store.events import event_key

MAX_CHARS = 4000
"""The longest press text, in characters."""
PER_HOUR = 10
"""Press messages a seat may send in any hour (counted from the stored press)."""
HELP = "docs/player-guide.md, \"Press\", shows the form."


def published(message: Mapping[str, Any]) -> dict[str, Any]:
    """A press row as the archive shows it and ``PressSent`` commits to it: ``{id,
    step, sender, recipients, grey, text, at}``; for grey press ``sender`` and
    ``recipients`` are None — the recipients of a grey ``to: all`` name every seat but
    the sender, and a commitment over the sender could be tested against the four seats
    once the seed is out (break16)."""
    grey = bool(message.get("grey"))
    return {"id": message["id"], "step": message["step"], "sender": None if grey else message["sender"],
            "recipients": None if grey else list(message["recipients"]), "grey": grey, "text": message["text"],
            "at": message["at"]}


def commitment(judge: Service, game_id: str, message: Mapping[str, Any]) -> str:
    """HMAC-SHA256 hex of ``message`` (the stored press row: id, step, sender,
    recipients, grey, text, at) as :func:`published` shows it, under the game's event
    key (RFC 2104): what ``PressSent`` logs."""
    seed = bytes.fromhex(judge.store.game(game_id)["seed"])
    return hmac.new(event_key(seed), f"pbem-press/v1:{canonical_json(published(message))}".encode(),
                    hashlib.sha256).hexdigest()


def _recipients(judge: Service, game_id: str, seat: str, to: Any, mode: str) -> tuple[list[str], list[Problem]]:
    seats = [r["seat"] for r in judge.store.seats(game_id)]
    others = [s for s in seats if s != seat]
    if isinstance(to, str) and to.strip().lower() == "all":
        return others, []
    if mode == "public":
        return [], [Problem(message=f"Press in {game_id} is public: it goes to all seats or none.", where="to",
                            code="press.public_only", hint="Write `to: all`.")]
    names = [to] if isinstance(to, str) else to
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        return [], [Problem(message="`to:` must be `all` or a list of seats.", where="to", code="press.recipients",
                            hint=f"For example `to: [{others[0]}]` or `to: all`.")]
    wrong = [n for n in names if n.strip().lower() not in others]
    if wrong:
        mine = " (not your own seat)" if any(n.strip().lower() == seat for n in wrong) else ""
        return [], [Problem(message=f"Not a seat you can write to{mine}: {', '.join(map(repr, wrong))}.", where="to",
                            code="press.recipients", hint=f"The other seats are: {', '.join(others)}; or `to: all`.")]
    return [s for s in others if s in {n.strip().lower() for n in names}], []


def press(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Relay a press message (see the module docstring). Raises CommandError naming
    every problem: press off, public-only, unknown recipients, a missing or too long
    text, grey press not allowed, the hourly limit reached, the game over."""
    settings = settings_of(judge, game_id)
    status = (judge.store.game(game_id) or {}).get("status")
    if status in trust.ENDED:
        raise CommandError([Problem(message=f"Game {game_id} is {status}: press is closed.", where="command",
                                    code="press.closed", hint="Write to the other players directly.")])
    if settings.press == "none":
        raise CommandError([Problem(message=f"Game {game_id} has no press: the host set `press: none`.",
                                    where="command", code="press.off",
                                    hint="Ask the host if you want press in this game.")])
    problems: list[Problem] = []
    recipients, bad = _recipients(judge, game_id, seat, doc.get("to", None), settings.press)
    problems += bad
    text = doc.get("text")
    if not isinstance(text, str) or not text.strip():
        problems.append(Problem(message="The press has no text: write it under `text: |`.", where="text",
                                code="press.text", hint=HELP))
    elif len(text) > MAX_CHARS:
        problems.append(Problem(message=f"The text has {len(text)} characters; press takes at most {MAX_CHARS}.",
                                where="text", code="press.text", hint="Shorten it or send it in two messages."))
    grey = doc.get("grey", False)
    if not isinstance(grey, bool):
        problems.append(Problem(message=f"`grey:` must be true or false, not {grey!r}.", where="grey",
                                code="press.grey", hint="Write `grey: true` to hide your seat, or leave the line out."))
    elif grey and not settings.grey_press:
        problems.append(Problem(message=f"Game {game_id} does not allow grey press: the sender is always shown.",
                                where="grey", code="press.grey", hint="Leave out `grey: true`."))
    now = judge.clock()
    since = (now - timedelta(hours=1)).isoformat()
    sent = [p for p in judge.store.press_of(game_id) if p["sender"] == seat and p["at"] >= since]
    if len(sent) >= PER_HOUR:
        problems.append(Problem(message=f"You sent {len(sent)} press messages within the hour; the limit is "
                                f"{PER_HOUR}.", where="command", code="press.rate",
                                hint="Send it again in an hour."))
    if problems:
        raise CommandError(problems)
    assert isinstance(text, str)
    step = judge.state(game_id).step
    message = {"step": step, "sender": seat, "recipients": recipients, "grey": bool(grey), "text": text,
               "at": now.isoformat()}
    pid = judge.store.add_press(game_id=game_id, inbox_id=None, **message)
    head = trust.log_events(judge, game_id, [rules.judge_event(
        "PressSent", {"id": pid, "commitment": commitment(judge, game_id, {"id": pid, **message})})])
    players = {r["seat"]: r for r in judge.store.seats(game_id)}
    _relay(judge, game_id, pid, seat if not grey else None, recipients, text, players)
    _ = seat_preferences.translations(judge.store, game_id, seat).gettext  # the sender's language (issue 28)
    values = {"id": pid, "chars": len(text),
              "to": _("all seats") if len(recipients) == len(players) - 1 else ", ".join(recipients)}
    relayed = (_("Your press (message %(id)s, %(chars)s characters) is relayed to %(to)s as grey press: your "
                 "seat is not shown.") if grey else
               _("Your press (message %(id)s, %(chars)s characters) is relayed to %(to)s.")) % values
    kept = (_("Nobody else sees it, and the archive shows it only after the game ends.") if settings.publish_press
            else _("Nobody else sees it; the archive never shows it."))
    return Reply(_("press"), f"{relayed} {kept}" + ("\n\n" + _("Log witness: %(witness)s") % {"witness": head}
                                                   if head else ""))


def quoted(text: str, width: int = 70) -> str:
    """``text`` as a quote: each line wrapped to ``width`` and prefixed ``> `` (72
    columns in all)."""
    out: list[str] = []
    for line in text.strip("\n").splitlines():
        out += ["> " + part for part in (textwrap.wrap(line, width) or [""])]
    return "\n".join(out)


def _relay(judge: Service, game_id: str, pid: int, sender: str | None, recipients: Sequence[str], text: str,
           rows: Mapping[str, Mapping[str, Any]]) -> None:
    for r in recipients:
        _ = seat_preferences.translations(judge.store, game_id, r).gettext  # each recipient's language (issue 28)
        who = (f"{sender} ({rows[sender]['player']})" if sender
               else _("a seat that does not show itself (grey press)"))
        # grey press names no other recipient: the seat missing from the list would be the sender
        others = [s for s in recipients if s != r] if sender else []
        names = {"game": game_id, "who": who, "others": ", ".join(others), "seat": sender}
        head = wrapped((_("Press in %(game)s from %(who)s, to you and %(others)s:") if others
                        else _("Press in %(game)s from %(who)s, to you:")) % names)
        language = i18n.language_of(seat_preferences.translations(judge.store, game_id, r))
        body = build.render_notice(head + "\n\n" + quoted(text) + "\n\n" + wrapped(
            _("Answer with a `command: press` mail to the judge (`command: help` sends the guide, \"Press\").")), game_id,
            seat_preferences.translations(judge.store, game_id, r))
        subject = f"[{game_id}] " + (_("press from %(seat)s") % names if sender else _("grey press"))
        outbox.queue(judge, game_id=game_id, kind="press", to_addr=rows[r]["email"], to_name=rows[r]["player"],
                     subject=subject, text=body, html=build.html_of_text(subject, body, language),
                     id_parts=(game_id, "press", pid, r))


COMMAND = SeatCommand(
    name="press", fields=(Field("to", "seats", "the seats it goes to"), Field("text", "text", "the message"),
                          Field("grey", "flag", "true: sent without your seat's name")),
    limit=Limit(PER_HOUR, timedelta(hours=1)), logs=("PressSent",), once=True,
    help="A message to other seats (`to:`, `text:`, maybe `grey: true`), relayed by the judge.",
    guide=Guide("player-guide.md", "Press"), process=press)
