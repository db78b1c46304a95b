"""A game's history from its log: the batches of the log (what each applied decision
appended, with the state after it) and a seat's own view of them as a mail
(:func:`history_reply`). In the log layer so that the play layer (a config game's
seat handover) and the commands (``history: N``, ``command: replace``) use one builder
(issue 24 item D)."""
from __future__ import annotations

from pbem import rules
from pbem.report.history import Batch, headline, render_history
from pbem.service.base.context import game_pack
from pbem.service.outgoing import seat_preferences
from pbem.store import Store


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
    bounds = store.snapshot_seqs(game_id, after_seq=first[0])
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
            bot = next((str(e.data["by"]) for e in rows if e.kind == "OrdersAccepted"
                        and str(e.data.get("by", "")).startswith("bot ")), None)  # a bot at the table played
            by_deadline = len(out) > 0 and all(e.inbox_id is None for e in rows) and bot is None
            out.append(Batch(index=len(out), step=rows[0].step, first_seq=rows[0].seq, last_seq=rows[-1].seq,
                             events=events, state=state, headline=headline(len(out), events, by_deadline, bot)))
        lo = hi
    return out


def history_reply(store: Store, game_id: str, seat: str, step: int | None) -> tuple[str, str, str]:
    """The answer to ``seat``'s history request for ``step`` (None: the list), as
    ``(subject, text, html)`` (:func:`pbem.report.history.render_history`), in the
    seat's language (issue 28). Raises
    KeyError when ``game_id`` is unknown, ValueError when ``seat`` is not one of its
    seats."""
    row = store.game(game_id)
    if row is None:
        raise KeyError(game_id)
    seats = store.seats(game_id)
    if seat not in {s["seat"] for s in seats}:
        raise ValueError(f"{seat!r} is not a seat of {game_id}")
    return render_history(game_pack(store, game_id), batches(store, game_id), game_id=game_id, seat=seat,
                          seats=seats, seed_commitment=row["seed_commitment"], step=step,
                          tr=seat_preferences.translations(store, game_id, seat))
