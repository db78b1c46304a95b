"""The seats' votes by mail (issue 29, item 1; docs/player-guide.md, "Votes";
:mod:`pbem.service.play.votes` folds and decides them)::

    command: propose
    end: draw
    among: [east, north]    # the seats that share the draw (`all`: every seat still in)

    command: propose
    end: concede            # your own seat concedes

    command: propose
    pause: 3 days           # no deadline passes for 3 days

    command: vote
    proposal: 2
    vote: yes               # or no

    command: status         # the game, who it waits for, the open proposals (counts only)

Every seat still in the game votes (the proposer's own yes counts); one ``no`` rejects a
proposal, a unanimous yes carries it, and it expires after the game's ``vote_hours``
(48 by default) whatever decisions the game takes meanwhile. A vote stays secret until the proposal is decided:
the seats are told only how many votes are in. :func:`tick` (each cycle of the loop)
expires the proposals whose time ran out and resumes a game whose agreed pause is over.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from pbem import rules
from pbem.i18n import N_
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.commands.host import common, resume
from pbem.service.commands.registry import Field, Guide, HostRequest, Limit, SeatCommand
from pbem.service.commands.reply import CommandError, Reply
from pbem.service.log import trust
from pbem.service.outgoing import seat_preferences
from pbem.service.play import deadlines, votes

GUIDE = Guide("player-guide.md", "Votes")
MAX_PAUSE_DAYS = 30
"""The longest pause the seats may agree, in days."""
PER_HOUR = 10
"""Proposals (and votes) a seat may send in any hour."""
_DAYS = re.compile(r"\s*(\d+)\s*(?:d|days?)?\s*", re.IGNORECASE)
_HOW = "docs/player-guide.md, \"Votes\", shows the forms."


def _refuse(code: str, message: str, where: str, hint: str = _HOW) -> CommandError:
    return CommandError([Problem(message=message, where=where, code=code, hint=hint)])


def _days(value: Any) -> int | None:
    """``3``, ``"3 days"``, ``"3d"`` as a whole number of days; None when unreadable."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    m = _DAYS.fullmatch(value) if isinstance(value, str) else None
    return int(m.group(1)) if m else None


def _among(judge: Service, game_id: str, value: Any, seats: list[str]) -> list[str]:
    """The seats of a draw (``all``, or a list of two or more seats still in the
    game), in seat order. Raises CommandError (``vote.among``)."""
    if isinstance(value, str) and value.strip().lower() == "all":
        return list(seats)
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise _refuse("vote.among", "`among:` must name the seats that share the draw.", "among",
                      f"For example `among: [{', '.join(seats[:2])}]`, or `among: all`.")
    wanted = {n.strip().lower() for n in names}
    wrong = sorted(wanted - set(seats))
    if wrong or len(wanted) < 2:
        raise _refuse("vote.among", ("Not a seat still in the game: " + ", ".join(wrong) + "." if wrong else
                                     "A draw is shared by two seats or more."), "among",
                      f"The seats still in the game are: {', '.join(seats)}.")
    return [s for s in seats if s in wanted]


def _in_game(judge: Service, game_id: str, seat: str) -> list[str]:
    """The seats still in the game; raises CommandError (``vote.not_in_game``) when
    ``seat`` is not one of them."""
    seats = votes.voters(judge, game_id)
    if seat not in seats:
        raise _refuse("vote.not_in_game", f"Seat {seat} is no longer in the game (it conceded, is in civil "
                      "disorder or a bot plays it): it neither proposes nor votes.", "seat",
                      "Send valid orders to leave civil disorder; a concession is for good.")
    return seats


def propose(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Make a proposal (module docstring): ``VoteProposed`` with the proposer's yes,
    every seat told how to vote; decided at once when the proposer is the only seat
    still in the game. Raises CommandError (``vote.*``) naming what to write."""
    votes.expire_due(judge, game_id)
    seats = _in_game(judge, game_id, seat)
    end, days_value = doc.get("end"), doc.get("pause")
    among: list[str] = []
    days: int | None = None
    if (end is None) == (days_value is None) or (end is not None and end not in ("draw", "concede")):
        raise _refuse("vote.proposal", "A proposal is one of `end: draw` (with `among:`), `end: concede` or "
                      "`pause: N days`.", "end" if end is not None else "command")
    if end == "draw":
        among = _among(judge, game_id, doc.get("among"), seats)
    elif "among" in doc:
        raise _refuse("vote.proposal", "`among:` goes only with `end: draw`.", "among", "Leave the line out.")
    if days_value is not None:
        days = _days(days_value)
        if days is None or not 1 <= days <= MAX_PAUSE_DAYS:
            raise _refuse("vote.days", f"`pause:` must be a whole number of days from 1 to {MAX_PAUSE_DAYS}, not "
                          f"{days_value!r}.", "pause", "For example `pause: 3 days`.")
        if (judge.store.game(game_id) or {}).get("status") == "paused":
            raise _refuse("vote.closed", f"Game {game_id} is paused already.", "pause",
                          "Propose the pause again once the game goes on.")
    mine = [p for p in votes.open_proposals(judge, game_id) if p.seat == seat]
    if mine:
        raise _refuse("vote.open", f"Your proposal {mine[0].number} ({mine[0].words()}) is still open.", "command",
                      "Wait until it is decided or expires (`command: status` shows it).")
    now = judge.clock()
    number = len(votes.proposals(judge, game_id)) + 1
    what = "pause" if days is not None else str(end)
    data: dict[str, Any] = {"expires": votes.expires_at(judge, game_id, now).isoformat(), "proposal": number,
                            "seat": seat, "step": judge.state(game_id).step, "what": what}
    if among:
        data["among"] = among
    if days is not None:
        data["days"] = days
    head = trust.log_events(judge, game_id, [rules.judge_event("VoteProposed", data)])
    p = next(p for p in votes.open_proposals(judge, game_id) if p.number == number)

    def told(tr: Any) -> str:  # each seat in its language (issue 28)
        _ = tr.gettext
        return (_("Proposal %(number)s: %(seat)s proposes %(what)s. Every seat still in the game (%(seats)s) votes; "
                  "a unanimous yes carries it, one no rejects it. It stays open until %(expires)s, whatever "
                  "decisions the game takes meanwhile, unless every vote is in before. Votes stay secret until it "
                  "is decided; `command: status` shows how many are in.") % {
                      "number": number, "seat": seat, "what": p.words(tr), "seats": ", ".join(seats),
                      "expires": deadlines.shown(judge, game_id, p.expires, tr)})

    def how_to_vote(tr: Any) -> str:
        _ = tr.gettext
        return (told(tr) + "\n\n" + _("To vote, send:") + f"\n\n    game: {game_id}\n    seat: <" + _("your seat")
                + ">\n    key: <" + _("your key") + f">\n    command: vote\n    proposal: {number}\n    vote: yes"
                + "    # " + _("or no"))

    # a seat that conceded is told of the proposal, not how to cast a vote it never can (issue 28
    # text28c); one in civil disorder or played by a bot may come back and vote, so it is told how
    out = set(votes.conceded(judge, game_id))
    deadlines.tell_seats(judge, game_id, lambda tr: tr.gettext("proposal %(number)s: %(what)s") % {
        "number": number, "what": p.words(tr)}, how_to_vote, f"vote-{number}-proposed",
        body_of=lambda s: told if s in out else how_to_vote)
    outcome = votes.decide(judge, game_id, p)
    tr = seat_preferences.translations(judge.store, game_id, seat)
    _ = tr.gettext
    text = _("Your proposal %(number)s (%(what)s) is made; your own yes counts.") % {
        "number": number, "what": p.words(tr)} + " "
    if outcome:
        text += _(OUTCOME_AT_ONCE[outcome])
    else:
        text += _("%(count)s. Every seat is told how to vote.") % {"count": votes.count_text(p, seats, tr)}
    if head and not outcome:
        text += "\n\n" + _("Log witness: %(witness)s") % {"witness": head}
    return Reply(_("propose"), text)


OUTCOME_AT_ONCE = {"passed": N_("It is passed at once: you are the only seat still in the game."),
                   "rejected": N_("It is rejected at once: you are the only seat still in the game.")}
"""A proposal decided as it is made (the proposer is the only seat still in)."""


def _choice(value: Any) -> str | None:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value.strip().lower() if isinstance(value, str) and value.strip().lower() in ("yes", "no") else None


def vote(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Cast ``seat``'s vote on an open proposal: ``VoteCast`` (seen by the judge only),
    then the proposal decided when the votes allow (:func:`pbem.service.play.votes.decide`).
    Raises CommandError: no such open proposal (``vote.unknown``), not yes/no
    (``vote.choice``), voted already (``vote.twice``), not in the game."""
    expired = votes.expire_due(judge, game_id)
    seats = _in_game(judge, game_id, seat)
    number = doc.get("proposal")
    choice = _choice(doc.get("vote"))
    problems: list[Problem] = []
    p = next((p for p in votes.open_proposals(judge, game_id) if p.number == number), None)
    if p is None:
        said = ("it expired" if number in expired or any(
            q.number == number and q.outcome for q in votes.proposals(judge, game_id)) else "there is none")
        opened = ", ".join(str(q.number) for q in votes.open_proposals(judge, game_id)) or "none"
        problems.append(Problem(message=f"No open proposal {number!r} in {game_id}: {said}.", where="proposal",
                                code="vote.unknown", hint=f"The open proposals: {opened} (`command: status`)."
                                if said == "there is none" else f"The open proposals: {opened}; the decided "
                                "ones are told to every seat."))
    if choice is None:
        problems.append(Problem(message=f"`vote:` must be yes or no, not {doc.get('vote')!r}.", where="vote",
                                code="vote.choice", hint="Write `vote: yes` or `vote: no`."))
    if p is not None and seat in p.votes:
        problems.append(Problem(message=f"You voted on proposal {p.number} already; a vote cannot be changed.",
                                where="proposal", code="vote.twice",
                                hint="It is decided when every seat has voted, or expires."))
    if problems:
        raise CommandError(problems)
    assert p is not None and choice is not None
    head = trust.log_events(judge, game_id, [rules.judge_event("VoteCast", {"proposal": p.number, "seat": seat,
                                                                             "vote": choice})])
    p.votes[seat] = choice
    outcome = votes.decide(judge, game_id, p)
    tr = seat_preferences.translations(judge.store, game_id, seat)
    _ = tr.gettext
    if outcome:
        return Reply(_("vote"), _(OUTCOME_TOLD[outcome]) % {"number": p.number, "what": p.words(tr)})
    return Reply(_("vote"), _("Your vote (%(vote)s) on proposal %(number)s (%(what)s) is counted: %(count)s. Nobody "
                           "else is told how you voted before it is decided.") % {
        "vote": votes.vote_word(choice, tr), "number": p.number, "what": p.words(tr),
        "count": votes.count_text(p, seats, tr)}
                 + ("\n\n" + _("Log witness: %(witness)s") % {"witness": head} if head else ""))


OUTCOME_TOLD = {"passed": N_("Your vote on proposal %(number)s (%(what)s) is counted, and the proposal is passed; "
                             "every seat is told, with every vote."),
                "rejected": N_("Your vote on proposal %(number)s (%(what)s) is counted, and the proposal is "
                               "rejected; every seat is told, with every vote.")}
"""The answer to the vote that decides a proposal, by its outcome."""


def status(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """The game's status for a seat: the step, who the game waits for, the seats still
    in the game and the open proposals with how many votes are in (never whose)."""
    game = judge.store.game(game_id) or {}
    if game.get("status") not in trust.ENDED:
        votes.expire_due(judge, game_id)
    waiting = sorted({d["seat"] for d in judge.store.open_deadlines(game_id)})
    seats = votes.voters(judge, game_id)
    tr = seat_preferences.translations(judge.store, game_id, seat)  # the seat's language (issue 28)
    _ = tr.gettext
    status = game.get("status")
    lines = [_("Game %(game)s is %(status)s at step %(step)s; it waits for %(waiting)s.") % {
        "game": game_id, "status": _(common.STATUS_WORDS[status]) if status in common.STATUS_WORDS else status,
        "step": game.get("step"), "waiting": ", ".join(waiting) or _("no seat")}, "",
        _("Seats still in the game (they vote): %(seats)s.") % {"seats": ", ".join(seats) or _("none")}]
    out = votes.conceded(judge, game_id)
    if out:
        lines.append(_("Conceded: %(seats)s.") % {"seats": ", ".join(out)})
    until = votes.pause_ends(judge, game_id)
    if until:
        lines.append(_("The agreed pause ends at %(until)s.") % {"until": deadlines.shown(judge, game_id, until, tr)})
    opened = votes.open_proposals(judge, game_id) if game.get("status") not in trust.ENDED else []
    lines += ["", _("Open proposals:") if opened else _("No proposal is open.")]
    if opened:  # a line of its own before the list, or the mail's wrapping runs the first one on
        lines.append("")
    for p in opened:
        mine = ("; " + _("you voted %(vote)s") % {"vote": votes.vote_word(p.votes[seat], tr)} if seat in p.votes
                else ("; " + _("your vote is awaited") if seat in seats else ""))
        lines.append("  " + _("%(number)s: %(seat)s proposes %(what)s: %(count)s%(mine)s; open until %(expires)s.") % {
            "number": p.number, "seat": p.seat, "what": p.words(tr), "count": votes.count_text(p, seats, tr),
            "mine": mine, "expires": deadlines.shown(judge, game_id, p.expires, tr)})
    return Reply(_("status"), "\n".join(lines))


def tick(judge: Service) -> int:
    """Each cycle of the loop: expire the proposals whose time ran out, and resume each
    game whose agreed pause is over (as the host's ``resume`` does: every open deadline
    moves on by the pause). Returns how many games resumed. Only the games that ever had
    a proposal, and the paused ones, are looked at (issue 30 item 6: with 10,000 running
    games a cycle spent 1.7 s here)."""
    resumed = 0
    voting = judge.store.games_with_proposals()
    rows = [judge.store.game(game_id) for game_id in sorted(voting)]
    games = [g for g in rows if g is not None and g["status"] in ("active", "paused")]
    games += [g for g in judge.store.games_in("paused") if g["id"] not in voting]
    for game in games:
        game_id = game["id"]
        with judge.store.transaction():
            votes.expire_due(judge, game_id)
            until = votes.pause_ends(judge, game_id)
            now = judge.clock()
            if until is not None and now >= until:
                resume.process(judge, HostRequest(game_id, judge.store.game(game_id) or game,
                                                  {"reason": "the pause the seats agreed is over"}, "vote", now))
                resumed += 1
    return resumed


LIMIT = Limit(PER_HOUR, timedelta(hours=1), counted_by="dispatch")
PROPOSE = SeatCommand(
    name="propose", fields=(Field("end", "choice", "draw or concede"),
                            Field("among", "seats", "the seats that share a draw"),
                            Field("pause", "any", "a pause of N days")),
    limit=LIMIT, logs=("VoteProposed", "VoteDecided", "SeatConceded", "GameEnded", "GamePaused"), guide=GUIDE,
    process=propose,
    help="Propose to the other seats `end: draw` with `among:` seats, `end: concede` (your seat), or `pause: N days`.")
VOTE = SeatCommand(
    name="vote", fields=(Field("proposal", "whole", "the proposal's number"), Field("vote", "choice", "yes or no")),
    limit=LIMIT, logs=("VoteCast", "VoteDecided", "SeatConceded", "GameEnded", "GamePaused"), guide=GUIDE,
    process=vote, help="Vote `yes` or `no` on an open `proposal:`; a unanimous yes carries it, one no rejects it.")
STATUS = SeatCommand(
    name="status", fields=(), limit=None, logs=(), guide=GUIDE, process=status, after_end=True,
    help="The game's step, who it waits for, the seats still in the game and the open proposals (counts only).")
