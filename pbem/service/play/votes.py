"""The seats' votes (issue 29, item 1; docs/player-guide.md, "Votes"): a seat proposes
a draw among named seats, its own concession, or a pause of some days; every seat still
in the game votes; a unanimous yes carries the proposal, one no rejects it, and it
expires after the game's ``vote_hours`` (48 by default) whatever decisions the game
takes meanwhile (issue 29 trial, finding 1: in a fast game the next decision came
seconds later, before the other seats could vote).

Everything is an event in the game's hash chain, folded here from the log (no table of
its own): ``VoteProposed`` (public: who proposes what; the proposer's own yes counts),
``VoteCast`` (seen by the judge only: who voted how stays secret until the proposal is
decided; the seats are told only how many votes are in), ``VoteDecided`` (public:
passed, rejected or expired, with every vote revealed) and, for a concession that
passes, ``SeatConceded``. A draw then ends the game as the host's ``end`` does
(:func:`pbem.service.play.endgame.end_by_vote`); a pause pauses it as the host's
``pause`` does, until the agreed time (the loop resumes it,
:mod:`pbem.service.commands.seat.votes`).

The seats still in the game (:func:`voters`) are those a player still plays: not
conceded, not in civil disorder and not played by a bot ([D] docs/rules.md, "Votes and
concession").
"""
from __future__ import annotations

import gettext
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pbem import i18n, rules
from pbem.i18n import N_
from pbem.service.base.context import Service
from pbem.service.base.settings import bot_seats, settings_of
from pbem.service.log import trust
from pbem.service.play import deadlines, endgame

VOTE_KINDS = ("VoteProposed", "VoteCast", "VoteDecided", "SeatConceded")
"""The events the votes fold."""
WHATS = ("draw", "concede", "pause")
"""What a seat may propose."""
VOTE_WORDS = {"yes": N_("yes"), "no": N_("no")}
"""A vote as the mails say it (the order words ``yes``/``no`` stay English in orders)."""
WHY_WORDS = {"the game took its next decision": N_("the game took its next decision"),
             "its time ran out": N_("its time ran out")}
"""Why a proposal expired, as the notices say it (the log keeps the English words)."""


@dataclass
class Proposal:
    """One proposal folded from the log: its number (1, 2, … per game), the seat that
    proposed it, what (:data:`WHATS`), the seats of a draw, the days of a pause, the
    step it was made at, when it expires (aware UTC), the votes cast so far by seat
    (``yes``/``no``; secret until decided) and its outcome (None while open)."""

    number: int
    seat: str
    what: str
    among: tuple[str, ...]
    days: int | None
    step: int
    expires: datetime
    votes: dict[str, str] = field(default_factory=dict)
    outcome: str | None = None

    def words(self, tr: gettext.NullTranslations | None = None) -> str:
        """What it proposes, in words (``a draw among east, north``), in the language
        of ``tr`` (None: English; issue 28)."""
        _, ngettext = i18n.gettext_of(tr), i18n.ngettext_of(tr)
        if self.what == "draw":
            return _("a draw among %(seats)s") % {"seats": ", ".join(self.among)}
        if self.what == "pause":
            return ngettext("a pause of %(num)d day", "a pause of %(num)d days", self.days or 0) % {
                "num": self.days or 0}
        return _("that %(seat)s concedes") % {"seat": self.seat}


def proposals(judge: Service, game_id: str) -> list[Proposal]:
    """Every proposal of ``game_id`` with its votes and outcome, by number (folded from
    the log's :data:`VOTE_KINDS`)."""
    out: dict[int, Proposal] = {}
    for kind, d in judge.store.events_of_kinds(game_id, VOTE_KINDS):
        if kind == "VoteProposed":
            out[d["proposal"]] = Proposal(d["proposal"], d["seat"], d["what"], tuple(d.get("among") or ()),
                                          d.get("days"), d["step"], datetime.fromisoformat(d["expires"]),
                                          {d["seat"]: "yes"})
        elif kind == "VoteCast" and d["proposal"] in out:
            out[d["proposal"]].votes[d["seat"]] = d["vote"]
        elif kind == "VoteDecided" and d["proposal"] in out:
            out[d["proposal"]].outcome = d["outcome"]
    return [out[n] for n in sorted(out)]


def open_proposals(judge: Service, game_id: str) -> list[Proposal]:
    """The proposals of ``game_id`` not decided yet."""
    return [p for p in proposals(judge, game_id) if p.outcome is None]


def conceded(judge: Service, game_id: str) -> list[str]:
    """The seats of ``game_id`` that conceded (``SeatConceded``), in log order."""
    return [d["seat"] for kind, d in judge.store.events_of_kinds(game_id, ("SeatConceded",))]


def voters(judge: Service, game_id: str) -> list[str]:
    """The seats still in the game, whose votes decide ([D] docs/rules.md): every seat
    but those that conceded, are in civil disorder or a bot plays; in seat order."""
    out = set(conceded(judge, game_id)) | set(bot_seats(judge, game_id))
    recs, _away = deadlines.table(judge, game_id)
    out |= {s for s, r in recs.items() if r.disorder}
    return [r["seat"] for r in judge.store.seats(game_id) if r["seat"] not in out]


def expires_at(judge: Service, game_id: str, now: datetime) -> datetime:
    """When a proposal made ``now`` expires unless decided first: after the game's
    ``vote_hours`` (0: no time limit; then a year, the longest a setting runs),
    whatever decisions the game takes meanwhile ([D] docs/rules.md, "Votes and
    concession")."""
    hours = settings_of(judge, game_id).vote_hours
    return now + timedelta(hours=hours if hours > 0 else 24 * 366)


def count_text(p: Proposal, seats: Sequence[str], tr: gettext.NullTranslations | None = None) -> str:
    """How many votes are in, without saying whose: ``2 of 4 votes are in``, in the
    language of ``tr`` (None: English; issue 28)."""
    got = sum(1 for s in seats if s in p.votes)
    ngettext = i18n.ngettext_of(tr)
    if got == 1:
        return ngettext("%(got)d of %(num)d vote is in", "%(got)d of %(num)d votes is in", len(seats)) % {
            "got": got, "num": len(seats)}
    return ngettext("%(got)d of %(num)d vote are in", "%(got)d of %(num)d votes are in", len(seats)) % {
        "got": got, "num": len(seats)}


def vote_word(vote: str, tr: gettext.NullTranslations | None = None) -> str:
    """``yes``/``no`` as the mails of ``tr``'s language say a vote (None: English)."""
    return i18n.gettext_of(tr)(VOTE_WORDS[vote]) if vote in VOTE_WORDS else vote


def _decided(judge: Service, game_id: str, p: Proposal, outcome: str, why: str) -> list[rules.Event]:
    """The ``VoteDecided`` of ``p``, every vote revealed."""
    p.outcome = outcome
    return [rules.judge_event("VoteDecided", {"outcome": outcome, "proposal": p.number,
                                              "votes": dict(sorted(p.votes.items())), "why": why})]


def _revealed(p: Proposal, tr: gettext.NullTranslations | None = None) -> str:
    """Every vote of ``p`` (``east yes, north no``) in the language of ``tr``."""
    _ = i18n.gettext_of(tr)
    return (", ".join(f"{s} {vote_word(v, tr)}" for s, v in sorted(p.votes.items()))
            or _("no votes"))


def expire_due(judge: Service, game_id: str) -> list[int]:
    """Expire every open proposal of ``game_id`` past its time (``expires``; the game's
    decisions meanwhile do not end it), each with a ``VoteDecided`` (``expired``, its
    votes revealed) and a notice to every seat; decide one whose votes are all in since
    a seat fell out of the game (:func:`decide`). Returns the numbers expired. Call
    inside a transaction."""
    now = judge.clock()
    game = judge.store.game(game_id)
    opened = open_proposals(judge, game_id) if game is not None and game["status"] not in trust.ENDED else []
    if not opened:  # the loop asks every cycle for every game: no state is read without a proposal
        return []
    done: list[int] = []
    for p in opened:
        if now >= p.expires:
            why = "its time ran out"
        else:
            seats = voters(judge, game_id)  # a seat that fell out since may leave every vote needed in
            if seats and all(p.votes.get(s) == "yes" for s in seats):
                decide(judge, game_id, p)
                if (judge.store.game(game_id) or {}).get("status") in trust.ENDED:
                    break
            continue
        trust.log_events(judge, game_id, _decided(judge, game_id, p, "expired", why))
        deadlines.tell_seats(
            judge, game_id, lambda tr, p=p: tr.gettext("proposal %(number)s expired") % {"number": p.number},
            lambda tr, p=p, why=why: tr.gettext(
                "Proposal %(number)s of %(seat)s (%(what)s) expired: %(why)s. The votes were: %(votes)s. Nothing "
                "changes; any seat may propose again.") % {
                "number": p.number, "seat": p.seat, "what": p.words(tr), "why": tr.gettext(WHY_WORDS[why]),
                "votes": _revealed(p, tr)},
            f"vote-{p.number}-expired")
        done.append(p.number)
    return done


def decide(judge: Service, game_id: str, p: Proposal) -> str | None:
    """Decide ``p`` when its votes allow: one ``no`` rejects it, a ``yes`` of every
    seat still in the game (:func:`voters`) carries it (then a draw ends the game, a
    concession takes the seat out, a pause pauses the game); each told to every seat.
    Returns the outcome (``passed``/``rejected``) or None while votes are missing. Call
    inside a transaction."""
    seats = voters(judge, game_id)
    if "no" in p.votes.values():
        trust.log_events(judge, game_id, _decided(judge, game_id, p, "rejected", "a seat voted no"))
        deadlines.tell_seats(
            judge, game_id, lambda tr: tr.gettext("proposal %(number)s rejected") % {"number": p.number},
            lambda tr: tr.gettext("Proposal %(number)s of %(seat)s (%(what)s) is rejected: at least one seat voted "
                                  "no. The votes were: %(votes)s. Nothing changes.") % {
                "number": p.number, "seat": p.seat, "what": p.words(tr), "votes": _revealed(p, tr)},
            f"vote-{p.number}-rejected")
        return "rejected"
    if not all(p.votes.get(s) == "yes" for s in seats):
        return None
    trust.log_events(judge, game_id, _decided(judge, game_id, p, "passed", "every seat still in the game voted yes"))
    _carry_out(judge, game_id, p)
    return "passed"


def _carry_out(judge: Service, game_id: str, p: Proposal) -> None:
    """What a passed proposal does, told to every seat (each in its language, issue 28)."""
    def head(tr: gettext.NullTranslations) -> str:
        return tr.gettext("Proposal %(number)s of %(seat)s (%(what)s) passed: every seat still in the game "
                          "voted yes.") % {"number": p.number, "seat": p.seat, "what": p.words(tr)} + " "

    if p.what == "draw":
        deadlines.tell_seats(
            judge, game_id, lambda tr: tr.gettext("proposal %(number)s passed: the game is drawn") % {
                "number": p.number},
            lambda tr: head(tr) + tr.gettext("The game ends in a draw among %(seats)s; the seed and the archive "
                                             "follow in their own mail.") % {"seats": ", ".join(p.among)},
            f"vote-{p.number}-passed")
        endgame.end_by_vote(judge, game_id, p.number, among=list(p.among))
    elif p.what == "concede":
        concede(judge, game_id, p.seat, p.number)
        out = set(conceded(judge, game_id))
        left = [r["seat"] for r in judge.store.seats(game_id) if r["seat"] not in out]
        deadlines.tell_seats(
            judge, game_id, lambda tr: tr.gettext("proposal %(number)s passed: %(seat)s concedes") % {
                "number": p.number, "seat": p.seat},
            lambda tr: head(tr) + tr.gettext(
                "%(seat)s concedes: it takes no more decisions, shares no draw and proposes and votes no more; "
                "its pieces stay where they are and its decisions play their defaults, as in civil disorder "
                "(the guide `command: help` sends, \"Votes\").") % {"seat": p.seat}
            + (" " + tr.gettext("%(seat)s is the only seat left: it wins.") % {"seat": left[0]}
               if len(left) == 1 else ""),
            f"vote-{p.number}-passed")
        if len(left) == 1:  # every other seat conceded: the last one wins ([D] docs/rules.md)
            endgame.end_by_vote(judge, game_id, p.number, winner=left[0])
    else:
        until = pause(judge, game_id, p)
        deadlines.tell_seats(
            judge, game_id, lambda tr: tr.gettext("proposal %(number)s passed: the game is paused") % {
                "number": p.number},
            lambda tr: head(tr) + tr.gettext(
                "The game is paused until %(until)s. No deadline passes until then; every open deadline then "
                "moves on by the length of the pause.") % {"until": deadlines.shown(judge, game_id, until, tr)},
            f"vote-{p.number}-passed")


def concede(judge: Service, game_id: str, seat: str, proposal: int) -> None:
    """Take ``seat`` out of the game ([D] docs/rules.md): ``SeatConceded``, after which
    the deadlines fold the seat as in civil disorder for good (its decisions are due at
    once and play their defaults, or the game's bot's moves under ``civil_disorder:
    bot``), its open deadlines due now, and its orders refused. Its reducer puts the
    seat in the state's ``conceded``: out of the contest for victory (R-1.1–R-1.3 pass
    it over; [D] docs/rules.md). Call inside a transaction."""
    endgame.append_events(judge, game_id, [rules.judge_event("SeatConceded", {"proposal": proposal, "seat": seat})])
    for d in judge.store.open_deadlines(game_id):
        if d["seat"] == seat:
            deadlines.start(judge, game_id, d["step"], seat, d["kind"])


def pause(judge: Service, game_id: str, p: Proposal) -> datetime:
    """Pause ``game_id`` as the host's ``pause`` does (``GamePaused``, status
    ``paused``) for ``p.days`` days; return when it resumes (the loop resumes it then).
    Call inside a transaction."""
    now = judge.clock()
    until = now + timedelta(days=p.days or 0)
    trust.log_events(judge, game_id, [rules.judge_event("GamePaused", {
        "at": now.isoformat(), "reason": f"agreed by vote (proposal {p.number})", "until": until.isoformat(),
        "proposal": p.number})])
    judge.store.set_game_status(game_id, "paused")
    return until


def pause_ends(judge: Service, game_id: str) -> datetime | None:
    """When the pause the seats agreed ends, if ``game_id`` is paused by a vote (its
    latest ``GamePaused`` has ``until``); None otherwise."""
    game = judge.store.game(game_id)
    if game is None or game["status"] != "paused":
        return None
    paused = [d for kind, d in judge.store.events_of_kinds(game_id, ("GamePaused",))]
    until = paused[-1].get("until") if paused else None
    return datetime.fromisoformat(until) if until else None
