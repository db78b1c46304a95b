"""History: the batches of a game's log (what each applied decision appended, with the
state after it), and a seat's request for a past report by mail
(``{game, seat, key, history: N | all}``), answered with that seat's own view."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem import rules
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.report.history import Batch, headline, render_history
from pbem.service.base.context import Service, game_pack
from pbem.service.commands.registry import Field, Guide, MailRequest, Who
from pbem.service.identity import envelope
from pbem.service.outgoing import answers, ratelimit
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
            by_deadline = len(out) > 0 and all(e.inbox_id is None for e in rows)
            out.append(Batch(index=len(out), step=rows[0].step, first_seq=rows[0].seq, last_seq=rows[-1].seq,
                             events=events, state=state, headline=headline(len(out), events, by_deadline)))
        lo = hi
    return out


def history_reply(store: Store, game_id: str, seat: str, step: int | None) -> tuple[str, str, str]:
    """The answer to ``seat``'s history request for ``step`` (None: the list), as
    ``(subject, text, html)`` (:func:`pbem.report.history.render_history`). Raises
    KeyError when ``game_id`` is unknown, ValueError when ``seat`` is not one of its
    seats."""
    row = store.game(game_id)
    if row is None:
        raise KeyError(game_id)
    seats = store.seats(game_id)
    if seat not in {s["seat"] for s in seats}:
        raise ValueError(f"{seat!r} is not a seat of {game_id}")
    return render_history(game_pack(store, game_id), batches(store, game_id), game_id=game_id, seat=seat,
                          seats=seats, seed_commitment=row["seed_commitment"], step=step)


def handle_request(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                   shown: Mapping[str, Any]) -> str:
    """A seat asks for a past report. Sender and key are checked as for orders; the
    answer is that seat's own view. Returns the inbox status (answered, rejected, held)."""
    checked = envelope.check_envelope(judge, parsed, doc, keys=envelope.HISTORY_KEYS)
    game_id, seat, issues = checked.game_id, checked.seat, checked.issues
    if checked.held:
        return answers.reject(judge, parsed, rec, issues, game_id, seat, {"document": shown}, status="held",
                              reason=checked.reason)
    wanted = doc.get("history")
    if not issues and not (wanted == "all" or (isinstance(wanted, int) and not isinstance(wanted, bool))):
        issues = [Problem(message=f"`history` must be a step number or `all`; found {wanted!r}.", where="history",
                        code="history.value", hint="e.g. `history: 3` or `history: all`")]
    if issues:
        return answers.reject(judge, parsed, rec, issues, game_id, seat, {"document": shown},
                              reason=checked.reason or issues[0].code)
    assert game_id is not None and seat is not None
    subject, text, html = history_reply(judge.store, game_id, seat, None if wanted == "all" else wanted)
    iid = rec("answered", "history", game_id=game_id, seat=seat, result={"document": shown})
    ratelimit.deliver(judge, parsed, iid, game_id=game_id, subject=subject, text=text, html=html,
                      id_parts=(game_id, "history", *answers.answer_key(parsed)))
    return "answered"


REQUEST = MailRequest(
    name="history", who=Who.SEAT, fields=(Field("history", "any", "a step number, or `all`"),),
    limit=None, logs=(),
    help="A past report (`history: N`) or the seat's whole history (`history: all`), in its own view.",
    guide=Guide("player-guide.md", "Past reports"), process=handle_request)
