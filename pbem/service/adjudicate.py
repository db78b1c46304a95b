"""Adjudication: applying checked orders (or a deadline default) with the game's dice,
appending the events and the snapshot, and queueing the receipt, the reports and the
next prompts — all inside the caller's transaction."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem import rules
from pbem.mail.message import ParsedMail
from pbem.rules.dice import Dice
from pbem.service import answers, reports

if TYPE_CHECKING:
    from pbem.service.judge import Judge


def previous_orders(judge: Judge, game_id: str, seat: str, step: int) -> Mapping[str, Any] | None:
    """The orders of the seat's latest earlier submission for the same step (a
    rejected one), for the receipt's "what changed" section."""
    result = judge.store.latest_result(game_id, seat, step)
    return result.get("orders") if isinstance(result, dict) else None


def apply_orders(judge: Judge, game_id: str, state: rules.GameState, seat: str, orders: Mapping[str, Any],
                 inbox_id: int | None, parsed: ParsedMail | None, by_deadline: bool = False,
                 previous: Mapping[str, Any] | None = None) -> rules.GameState:
    """Apply ``orders`` of ``seat`` (already validated) to ``state`` with the dice of
    the game's seed at this step (``rules.apply``); store the events (linked to inbox
    row ``inbox_id``) and the snapshot; queue the receipt (when ``parsed``), the
    reports and the next prompts. Standing orders alone (no decision taken) get a
    receipt only. Returns the new state. Call inside a transaction."""
    store = judge.store
    pack = judge.pack_for(game_id)
    seed = bytes.fromhex(store.game(game_id)["seed"])
    hand = list(state.private.get(seat, {}).get("hand", []))  # before the orders play a card
    new_state, events = rules.apply(state, seat, orders, Dice(seed, state.step))
    seq = store.append_events(game_id, [e.to_dict() for e in events], step=state.step, inbox_id=inbox_id)
    store.save_snapshot(game_id, seq, new_state.step, new_state.to_dict())
    if new_state.step == state.step:  # no decision taken (standing orders): nothing to report
        if parsed is not None:
            waits = next((d for d in rules.pending(new_state) if d.seat == seat), None)
            note = ("Your standing orders are recorded; they act when the rules offer the "
                    "choice (R-9.3). No turn report follows.")
            if waits is not None:
                note += (f"\nThe game still waits for your answer to the "
                         f"{waits.kind.replace('_', ' ')} decision of step {new_state.step}.")
            answers.receipt(judge, parsed, game_id, seat, state.step, orders, previous, note=note,
                            hand=hand)
        return new_state
    store.set_game_step(game_id, new_state.step, status="over" if not rules.pending(new_state) else None)
    if parsed is not None:
        answers.receipt(judge, parsed, game_id, seat, state.step, orders, previous, hand=hand)
    headline = f"{seat} played" + (" (deadline default)" if by_deadline else "")
    reports.queue_reports(judge, game_id, pack, new_state, events, headline=headline, step=state.step)
    reports.queue_prompts(judge, game_id, pack, new_state)
    return new_state
