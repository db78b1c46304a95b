"""Past reports: the history a player can ask for by mail, and the reports of the
archive (:mod:`pbem.archive`), rendered from *batches* the service reads from the log
(:func:`pbem.service.log.history.batches`); nothing here opens the store.

A *batch* is what one applied decision (or the game's setup) appended to the log: the
events between two consecutive state snapshots. Its ``step`` is the step number the
events were stored with, which is the number in the report's subject ("step 3
report"); the setup and the first player-turn both carry step 0.
"""
from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem import i18n, rules
from pbem.pack.model import Pack
from pbem.plural import count
from pbem.report import build, context
from pbem.report.render import render


@dataclass(frozen=True)
class Batch:
    """One report's worth of the log.

    ``index``: 0-based position in the game; ``step``: the stored step number;
    ``first_seq``/``last_seq``: its event rows; ``events``: the events (secret ones
    included: filter with :func:`pbem.report.context.visible_events`); ``state``: the
    position after it (replayed with ``rules.fold``); ``headline``: e.g. ``"south
    played"``, ``"north played (deadline default)"``, ``"setup, the game begins"``, a
    function of the reader's translations object (:func:`headline`; a text is taken as
    it is)."""

    index: int
    step: int
    first_seq: int
    last_seq: int
    events: tuple[rules.Event, ...]
    state: rules.GameState
    headline: i18n.Localizable


def step_groups(all_batches: Sequence[Batch]) -> list[list[Batch]]:
    """The batches in consecutive groups of one step each: one report per step, numbered
    by its step as in the mail subjects ("step 3 report"), for the archive and the
    history list alike; the setup and the first decision share step 0."""
    groups: list[list[Batch]] = []
    for b in all_batches:
        if groups and groups[-1][0].step == b.step:
            groups[-1].append(b)
        else:
            groups.append([b])
    return groups


def played_in(groups: Sequence[Sequence[Batch]], n: int) -> rules.GameState:
    """The position group ``n`` was played from (its turn and round are those of the
    step); for the first, the setup's own position (the setup batch, before the first
    decision that shares step 0 with it: issue 24, trial24c, the list said "step 0 turn
    1, round 1" where the step's report says "Turn 1 (323 BC), turn order phase")."""
    return groups[n - 1][-1].state if n > 0 else groups[0][0].state


def _why_deadline(d: Mapping[str, Any], _: Callable[[str], str]) -> str:
    why = str(d.get("why", ""))
    seat = d.get("seat") or _("a seat")
    said = {"extend": _("the host extended the deadline of %(seat)s"),
            "pause": _("the deadline of %(seat)s moved on by the pause"),
            "absence": _("the deadline of %(seat)s moved out of its player's absence")}.get(why)
    return (said or _("the deadline of %(seat)s moved (%(why)s)")) % {"seat": seat, "why": why.replace("_", " ")}


def _ended(d: Mapping[str, Any], _: Callable[[str], str]) -> str:
    if d.get("by") == "vote":
        return (_("the seats agreed a draw among %(seats)s") % {"seats": ", ".join(d.get("among") or [])}
                if d.get("how") == "draw" else
                _("%(seat)s wins: every other seat conceded") % {"seat": d.get("winner")})
    return (_("the host ended the game: %(result)s") % {"result": _("%(seat)s wins") % {"seat": d["winner"]}}
            if d.get("winner") else _("the host ended the game"))


def _host_acted(d: Mapping[str, Any], _: Callable[[str], str]) -> str:
    command = str(d.get("command"))
    if command == "status":
        return _("the host asked for the game's status")
    if command == "resend":
        return (_("the host had %(seat)s's prompt sent again") % {"seat": d["seat"]} if d.get("seat")
                else _("the host had the waited-on prompts sent again"))
    return _("the host: %(command)s") % {"command": str(d.get("command", "a command")).replace("_", " ")}


def _player_acted(d: Mapping[str, Any], _: Callable[[str], str]) -> str:
    command, seat = str(d.get("command")), d.get("seat")
    if command == "resend":
        return _("%(seat)s had its prompt sent again") % {"seat": seat}
    if command == "address":
        return _("%(seat)s asked to change its address") % {"seat": seat}
    return f"{seat}: {str(d.get('command', 'a command')).replace('_', ' ')}"


TABLE_HEADLINES: dict[str, Callable[[Mapping[str, Any], Callable[[str], str]], str]] = {
    "GameAbandoned": lambda d, _: _("the host abandoned the game"),
    "GameEnded": _ended,
    "VoteProposed": lambda d, _: _("%(seat)s made proposal %(proposal)s") % {"seat": d.get("seat"),
                                                                               "proposal": d.get("proposal")},
    "VoteDecided": lambda d, _: _("proposal %(proposal)s is %(outcome)s") % {
        "proposal": d.get("proposal"), "outcome": _(OUTCOMES[d.get("outcome")]) if d.get("outcome") in OUTCOMES
        else d.get("outcome")},
    "SeatConceded": lambda d, _: _("%(seat)s conceded") % {"seat": d.get("seat")},
    "RollbackAnnounced": lambda d, _: _("the host rolled the game back to the position of step %(step)s") % {
        "step": d.get("to_step")},
    "SeatChanged": lambda d, _: (_("a substitute from the standby list took seat %(seat)s") % {"seat": d.get("seat")}
                                 if d.get("by") == "standby" else
                                 _("the host gave seat %(seat)s a new %(what)s") % {
                                     "seat": d.get("seat"), "what": _(" and ").join(
                                         _(CHANGED[str(x)]) if str(x) in CHANGED else str(x)
                                         for x in d.get("changed") or ["record"])}),
    "GamePaused": lambda d, _: _("the host paused the game"),
    "GameResumed": lambda d, _: _("the host resumed the game"),
    "DeadlineMoved": _why_deadline,
    "HostActed": _host_acted,
    "PlayerActed": _player_acted,
    "AddressChanged": lambda d, _: _("%(seat)s changed its address") % {"seat": d.get("seat")},
    "AbsenceDeclared": lambda d, _: (_("%(seat)s cancelled an absence") if d.get("cancel") else
                                     _("%(seat)s declared an absence")) % {"seat": d.get("seat")},
    "DecisionMissed": lambda d, _: _("%(seat)s sent no orders in time") % {"seat": d.get("seat")},
    "CivilDisorderDeclared": lambda d, _: _("%(seat)s fell into civil disorder") % {"seat": d.get("seat")},
    "SeatReturned": lambda d, _: _("%(seat)s is back") % {"seat": d.get("seat")},
    "BotSeated": lambda d, _: _("the bot %(bot)s plays %(seat)s") % {"bot": d.get("bot"), "seat": d.get("seat")},
    "BotLeft": lambda d, _: _("the bot no longer plays %(seat)s") % {"seat": d.get("seat")},
    "TableSet": lambda d, _: _("the table is set: seats, host and settings"),
}
"""What a batch of the table's own events (host and player commands, deadlines; issue
16) did, in the words of the history list: one phrase per event kind, from the
event's public data, in the reader's language (``_``: its gettext; issue 28)."""
OUTCOMES = {"passed": i18n.N_("passed"), "rejected": i18n.N_("rejected"), "expired": i18n.N_("expired")}
"""A proposal's outcome in a headline (the log keeps the English word)."""
CHANGED = {"player": i18n.N_("player"), "address": i18n.N_("address"), "key": i18n.N_("key"),
           "record": i18n.N_("record")}
"""What the host changed of a seat (``SeatChanged``'s ``changed``) in a headline."""


def headline(index: int, events: Sequence[rules.Event], by_deadline: bool, by: str | None = None
             ) -> i18n.Localizable:
    """The headline of batch ``index`` (see :class:`Batch`) as a function of the
    reader's translations object (issue 28; :func:`pbem.i18n.localize` with none gives
    the English): who played (``"south played"``, ``"north played (deadline
    default)"``), or what the host or a player did around the rules
    (:data:`TABLE_HEADLINES`: ``"the host extended the deadline of east"``, ``"the host
    paused the game"``), each different action named once. ``by``: the bot that played
    the batch's decision (``"west played (bot search/1)"``; the ``by`` of its orders
    document, which names no secret). Only public events are read otherwise: a batch
    with nothing public reads ``"a private entry"``."""
    def said(tr: gettext.NullTranslations) -> str:
        _ = tr.gettext
        if index == 0:
            return _("setup, the game begins")
        seat = next((e.data.get("seat") for e in events if e.kind in ("OrdersApplied", "TurnPassed")), None)
        if seat is not None:
            if by_deadline:
                return _("%(seat)s played (deadline default)") % {"seat": seat}
            return _("%(seat)s played (%(bot)s)") % {"seat": seat, "bot": by} if by else \
                _("%(seat)s played") % {"seat": seat}
        out: list[str] = []
        for e in events:
            say = TABLE_HEADLINES.get(e.kind)
            if e.public and say is not None:
                text = say(e.data, _)
                if text not in out:
                    out.append(text)
        if out:
            return "; ".join(out)
        if any(e.public for e in events):
            return _("the game goes on")
        return _("a private entry of the log")
    return said


def joined_headlines(group: Sequence[Batch], tr: gettext.NullTranslations | None = None) -> str:
    """The headlines of consecutive batches of one step as one, each said once with how
    many times it happened (``"the host extended the deadline of east (2 times); south
    played"``), in the language of ``tr`` (None: English)."""
    counts: dict[str, int] = {}
    for b in group:
        h = i18n.localize(b.headline, tr)
        counts[h] = counts.get(h, 0) + 1
    if tr is None:
        return "; ".join(h if n == 1 else f"{h} ({count(n, 'time')})" for h, n in counts.items())
    return "; ".join(h if n == 1 else tr.ngettext("%(headline)s (%(num)d time)", "%(headline)s (%(num)d times)", n)
                     % {"headline": h, "num": n} for h, n in counts.items())


def bots_until(all_batches: Sequence[Batch], last: Batch) -> dict[str, str]:
    """``{seat: bot label}`` of the seats a bot played after batch ``last`` (its
    ``BotSeated`` and ``BotLeft`` events up to it, in log order; docs/bots.md)."""
    out: dict[str, str] = {}
    for b in all_batches:
        for e in b.events:
            if e.kind == "BotSeated":
                out[e.data["seat"]] = e.data["bot"]
            elif e.kind == "BotLeft":
                out.pop(e.data["seat"], None)
        if b is last:
            break
    return out


def render_batches(pack: Pack, group: Sequence[Batch], *, game_id: str, seat: str | None,
                   seats: Sequence[Mapping[str, Any]], seed_commitment: str, map_src: str | None = None,
                   nav: Sequence[tuple[str, str]] | None = None, before: rules.GameState | None = None,
                   bots: Mapping[str, str] | None = None,
                   tr: gettext.NullTranslations | None = None) -> build.Rendered:
    """One report for consecutive ``group`` batches as ``seat`` received it (None: the
    public report): their events in order, the state after the last one; ``before``:
    the state before the first (the turn it was played in, and every change of control,
    VP and LP since it; :func:`pbem.report.build.report_context`); ``bots``: the seats a
    bot played then (:func:`bots_until`), named under the heading as the live report did;
    in the language of ``tr`` (None: English)."""
    events = [e for b in group for e in b.events]
    ctx = build.report_context(pack, group[-1].state, events, game_id=game_id, step=group[0].step, seat=seat,
                               seats=seats, headline=joined_headlines(group, tr),
                               seed_commitment=seed_commitment, before=before, bots=bots, tr=tr)
    ctx["map_src"] = map_src
    ctx["nav"] = list(nav or [])
    return build.Rendered(render("report.txt.j2", ctx, tr), render("report.html.j2", ctx, tr))


def render_history(pack: Pack, all_batches: Sequence[Batch], *, game_id: str, seat: str,
                   seats: Sequence[Mapping[str, Any]], seed_commitment: str, step: int | None,
                   tr: gettext.NullTranslations | None = None) -> tuple[str, str, str]:
    """The answer to a player's history request as ``(subject, text, html)``:

    - ``step=None``: the list of past reports (step number, headline, turn and round);
    - ``step=N``: the report(s) stored with step N, rendered exactly as ``seat``
      received them (public events plus the seat's own private ones, the state after
      them); the setup and the first player-turn share step 0 and come as one report;
    - an unknown step: a short text saying so, with the list.

    Never includes another seat's hand: the same per-seat filter as the live reports.
    Subjects look like ``"[g1] history: step 3 (south played)"``. In the language of
    ``tr`` (None: English)."""
    _ = i18n.gettext_of(tr)
    if step is not None:
        group = [b for b in all_batches if b.step == step]
        if group:
            first = all_batches.index(group[0])
            rep = render_batches(pack, group, game_id=game_id, seat=seat, seats=seats,
                                 seed_commitment=seed_commitment,
                                 before=all_batches[first - 1].state if first > 0 else None,
                                 bots=bots_until(all_batches, group[-1]), tr=tr)
            heads = joined_headlines(group, tr)
            return (f"[{game_id}] " + _("history: step %(step)s (%(headlines)s)") % {"step": step, "headlines": heads},
                    rep.text, rep.html)
    groups = step_groups(all_batches)
    ctx = {"game_id": game_id, "seat": seat, "asked": step,
           "entries": [{"step": g[0].step, "headline": joined_headlines(g, tr),
                        "turn": played_in(groups, i).turn, "round": played_in(groups, i).round,
                        "stage": context.stage_text(played_in(groups, i).peek(), tr, over=False)}
                       for i, g in enumerate(groups)]}
    n = len(groups)
    subject = f"[{game_id}] " + (
        (tr or i18n.translations()).ngettext("history: %(num)d report", "history: %(num)d reports", n) % {"num": n}
        if step is None else _("history: no report for step %(step)s") % {"step": step})
    return subject, render("history.txt.j2", ctx, tr), render("history.html.j2", ctx, tr)
