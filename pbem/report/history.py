"""Past reports from the event log: the history a player can ask for by mail, and the
batches the archive (:mod:`pbem.archive`) is built from.

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
from pbem.pack.loader import load_pack
from pbem.pack.model import Pack
from pbem.report import build
from pbem.report.render import render
from pbem.store import Store


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


def game_pack(store: Store, game_id: str) -> Pack:
    """The data pack of a stored game (built-in or an exported directory). Raises
    KeyError when the game is unknown."""
    row = store.game(game_id)
    if row is None:
        raise KeyError(game_id)
    pack = load_pack(None if row["pack"] in (None, "builtin") else row["pack"])
    return pack


def _headline(index: int, events: Sequence[rules.Event], by_deadline: bool) -> str:
    if index == 0:
        return "setup, the game begins"
    seat = next((e.data.get("seat") for e in events if e.kind in ("OrdersApplied", "TurnPassed")), None)
    if seat is None:
        return "the game goes on"
    return f"{seat} played" + (" (deadline default)" if by_deadline else "")


def batches(store: Store, game_id: str) -> list[Batch]:
    """Every batch of ``game_id`` in order, each with the state replayed from the first
    snapshot (``rules.fold``). Raises KeyError when the game or its first snapshot is
    unknown."""
    if store.game(game_id) is None:
        raise KeyError(game_id)
    pack = game_pack(store, game_id)
    first = store.first_snapshot(game_id)
    if first is None:
        raise KeyError(f"{game_id}: no snapshot")
    bounds = [r["seq"] for r in store.db["snapshots"].rows_where(
        "game_id = ? AND seq > ?", [game_id, first[0]], order_by="seq", select="seq")]
    inbox = {r[0]: r[1] for r in store.db.execute(
        "SELECT seq, inbox_id FROM events WHERE game_id = ?", [game_id]).fetchall()}
    stored = store.events(game_id, after_seq=first[0])
    if stored and (not bounds or bounds[-1] < stored[-1].seq):
        bounds.append(stored[-1].seq)
    state = rules.GameState.from_dict(first[1], pack)
    out: list[Batch] = []
    lo, i = first[0], 0
    for hi in bounds:
        rows = [e for e in stored[i:] if lo < e.seq <= hi]
        i += len(rows)
        if rows:
            events = tuple(rules.Event(kind=e.kind, data=e.data, public=e.public, seat=e.seat) for e in rows)
            state = rules.fold(state, events)
            by_deadline = len(out) > 0 and all(inbox.get(e.seq) is None for e in rows)
            out.append(Batch(index=len(out), step=rows[0].step, first_seq=rows[0].seq, last_seq=rows[-1].seq,
                             events=events, state=state, headline=_headline(len(out), events, by_deadline)))
        lo = hi
    return out


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


def history_reply(store: Store, game_id: str, seat: str, step: int | None) -> tuple[str, str, str]:
    """The answer to a player's history request: ``(subject, text, html)``.

    - ``step=None``: the list of past reports (step number, headline, turn and round).
    - ``step=N``: the report(s) stored with step N, rendered exactly as ``seat`` received
      them (public events plus the seat's own private ones, the state after them); the
      setup and the first player-turn share step 0 and come as one report.
    - an unknown step: a short text saying so, with the list.

    Never includes another seat's hand: the same per-seat filter as the live reports.
    Raises KeyError when ``game_id`` is unknown, ValueError when ``seat`` is not one of
    its seats. Subjects look like ``"[g1] history: step 3 (south played)"``."""
    row = store.game(game_id)
    if row is None:
        raise KeyError(game_id)
    seats = store.seats(game_id)
    if seat not in {s["seat"] for s in seats}:
        raise ValueError(f"{seat!r} is not a seat of {game_id}")
    pack = game_pack(store, game_id)
    all_batches = batches(store, game_id)
    if step is not None:
        group = [b for b in all_batches if b.step == step]
        if group:
            rep = render_batches(pack, group, game_id=game_id, seat=seat, seats=seats,
                                 seed_commitment=row["seed_commitment"])
            heads = "; ".join(b.headline for b in group)
            return f"[{game_id}] history: step {step} ({heads})", rep.text, rep.html
    ctx = {"game_id": game_id, "seat": seat, "asked": step,
           "entries": [{"step": b.step, "headline": b.headline, "turn": b.state.turn, "round": b.state.round}
                       for b in all_batches]}
    subject = (f"[{game_id}] history: {len(all_batches)} report{'' if len(all_batches) == 1 else 's'}" if step is None
               else f"[{game_id}] history: no report for step {step}")
    return subject, render("history.txt.j2", ctx), render("history.html.j2", ctx)
