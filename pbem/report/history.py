"""Past reports: the history a player can ask for by mail, and the reports of the
archive (:mod:`pbem.archive`), rendered from *batches* the service reads from the log
(:func:`pbem.service.history.batches`); nothing here opens the store.

A *batch* is what one applied decision (or the game's setup) appended to the log: the
events between two consecutive state snapshots. Its ``step`` is the step number the
events were stored with, which is the number in the report's subject ("step 3
report"); the setup and the first player-turn both carry step 0.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem import rules
from pbem.pack.model import Pack
from pbem.report import build
from pbem.report.render import render


@dataclass(frozen=True)
class Batch:
    """One report's worth of the log.

    ``index``: 0-based position in the game; ``step``: the stored step number;
    ``first_seq``/``last_seq``: its event rows; ``events``: the events (secret ones
    included: filter with :func:`pbem.report.context.visible_events`); ``state``: the
    position after it (replayed with ``rules.fold``); ``headline``: e.g. ``"south
    played"``, ``"north played (deadline default)"``, ``"setup, the game begins"``."""

    index: int
    step: int
    first_seq: int
    last_seq: int
    events: tuple[rules.Event, ...]
    state: rules.GameState
    headline: str


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
    step); the setup group's own position for the first."""
    return groups[n - 1][-1].state if n > 0 else groups[0][-1].state


def headline(index: int, events: Sequence[rules.Event], by_deadline: bool) -> str:
    """The headline of batch ``index`` (see :class:`Batch`)."""
    if index == 0:
        return "setup, the game begins"
    kinds = {e.kind for e in events}
    if "GameAbandoned" in kinds:
        return "the host abandoned the game"
    if "GameEnded" in kinds:
        return "the host ended the game"
    if "RollbackAnnounced" in kinds:
        return "the host rolled the game back"
    if kinds == {"SeatChanged"}:
        return "the host changed a seat"
    seat = next((e.data.get("seat") for e in events if e.kind in ("OrdersApplied", "TurnPassed")), None)
    if seat is None:
        return "the game goes on"
    return f"{seat} played" + (" (deadline default)" if by_deadline else "")


def render_batches(pack: Pack, group: Sequence[Batch], *, game_id: str, seat: str | None,
                   seats: Sequence[Mapping[str, Any]], seed_commitment: str, map_src: str | None = None,
                   nav: Sequence[tuple[str, str]] | None = None) -> build.Rendered:
    """One report for consecutive ``group`` batches as ``seat`` received it (None: the
    public report): their events in order, the state after the last one."""
    events = [e for b in group for e in b.events]
    ctx = build.report_context(pack, group[-1].state, events, game_id=game_id, step=group[0].step, seat=seat,
                               seats=seats, headline="; ".join(b.headline for b in group),
                               seed_commitment=seed_commitment)
    ctx["map_src"] = map_src
    ctx["nav"] = list(nav or [])
    return build.Rendered(render("report.txt.j2", ctx), render("report.html.j2", ctx))


def render_history(pack: Pack, all_batches: Sequence[Batch], *, game_id: str, seat: str,
                   seats: Sequence[Mapping[str, Any]], seed_commitment: str, step: int | None
                   ) -> tuple[str, str, str]:
    """The answer to a player's history request as ``(subject, text, html)``:

    - ``step=None``: the list of past reports (step number, headline, turn and round);
    - ``step=N``: the report(s) stored with step N, rendered exactly as ``seat``
      received them (public events plus the seat's own private ones, the state after
      them); the setup and the first player-turn share step 0 and come as one report;
    - an unknown step: a short text saying so, with the list.

    Never includes another seat's hand: the same per-seat filter as the live reports.
    Subjects look like ``"[g1] history: step 3 (south played)"``."""
    if step is not None:
        group = [b for b in all_batches if b.step == step]
        if group:
            rep = render_batches(pack, group, game_id=game_id, seat=seat, seats=seats,
                                 seed_commitment=seed_commitment)
            heads = "; ".join(b.headline for b in group)
            return f"[{game_id}] history: step {step} ({heads})", rep.text, rep.html
    groups = step_groups(all_batches)
    ctx = {"game_id": game_id, "seat": seat, "asked": step,
           "entries": [{"step": g[0].step, "headline": "; ".join(b.headline for b in g),
                        "turn": played_in(groups, i).turn, "round": played_in(groups, i).round}
                       for i, g in enumerate(groups)]}
    n = len(groups)
    subject = (f"[{game_id}] history: {n} report{'' if n == 1 else 's'}" if step is None
               else f"[{game_id}] history: no report for step {step}")
    return subject, render("history.txt.j2", ctx), render("history.html.j2", ctx)
