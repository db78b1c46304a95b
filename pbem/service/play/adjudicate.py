"""Adjudication: applying checked orders (or a deadline default) with the game's dice,
appending the events and the snapshot, and queueing the receipt, the reports and the
next prompts — all inside the caller's transaction.

For a game of dice version 2 (docs/trust.md) the orders document is logged first
(``OrdersAccepted``) and the decision's dice derive from the orders context it leads
to; the decision that ends the game also logs ``SeedRevealed`` and mails every seat the
seed."""
from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence
from typing import Any

from pbem import rules
from pbem.mail.message import ParsedMail
from pbem.rules.dice import Dice, next_context, orders_digest
from pbem.service.base.context import Service
from pbem.service.log import trust
from pbem.service.outgoing import answers
from pbem.service.play import deadlines, reports


def previous_orders(judge: Service, game_id: str, seat: str, step: int) -> Mapping[str, Any] | None:
    """The orders of the seat's latest earlier *accepted* submission for the same step
    (standing orders alone take no decision, so the step stays), for the receipt's "what
    changed" section; a refused mail is never compared with (issue 24 E)."""
    result = judge.store.latest_result(game_id, seat, step)
    return result.get("orders") if isinstance(result, dict) else None


def apply_orders(judge: Service, game_id: str, state: rules.GameState, seat: str, orders: Mapping[str, Any],
                 inbox_id: int | None, parsed: ParsedMail | None, by_deadline: bool = False,
                 previous: Mapping[str, Any] | None = None, salt: str | None = None,
                 partly: Sequence[str] = (), by: str | None = None) -> rules.GameState:
    """Apply ``orders`` of ``seat`` (already validated) to ``state`` with the dice of
    the game's seed at this step (``rules.apply``); store the events (linked to inbox
    row ``inbox_id``) and the snapshot; queue the receipt (when ``parsed``), the
    reports and the next prompts. Standing orders alone (no decision taken) get a
    receipt only. ``salt``: the mail's ``salt:`` as text (docs/orders.md); ``partly``:
    the check's lines of what it left to the dice (:func:`pbem.rules.validate_partly`),
    for the receipt. ``by``: who wrote the orders when not the seat's mail nor the
    deadline (``bot search/1``: a bot at the table, :mod:`pbem.service.play.bots`),
    logged in ``OrdersAccepted``. Returns the
    new state. Raises IllegalOrders when the dice made the orders impossible after
    all (nothing is stored). Call inside a transaction."""
    store = judge.store
    pack = judge.pack_for(game_id)
    seed = bytes.fromhex(store.game(game_id)["seed"])
    hand = list(state.private.get(seat, {}).get("hand", []))  # before the orders play a card
    version, context = store.dice_state(game_id)
    first: list[rules.Event] = []
    logged = None
    if version >= 2:
        document = trust.accepted_document(seat, state.step, orders, salt,
                                            by or ("deadline" if by_deadline else "mail"))
        context = next_context(context, document)
        first = [rules.judge_event("OrdersAccepted", document)]
        logged = orders_digest(document)
        orders = document["orders"]
        dice = Dice(seed, state.step, context=context)
    else:
        dice = Dice(seed, state.step, version=1)
    new_state, events = rules.apply(state, seat, orders, dice)
    if not by_deadline and inbox_id is not None:  # the seat's own orders: its in-a-row NMR count ends (issue 16)
        deadlines.returned(judge, game_id, seat, "orders")
    ended = new_state.step != state.step and not rules.pending(new_state)
    last = [trust.seed_revealed(store, game_id)] if ended and version >= 2 else []
    seq = store.append_events(game_id, [e.to_dict() for e in [*first, *events, *last]], step=state.step,
                              inbox_id=inbox_id)
    if version >= 2:
        store.set_dice_context(game_id, context)
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
                            hand=hand, logged=logged, witness=trust.witness(store, game_id))
        return new_state
    store.set_game_step(game_id, new_state.step, status="over" if ended else None)
    if parsed is not None:
        answers.receipt(judge, parsed, game_id, seat, state.step, orders, previous, hand=hand, logged=logged,
                        witness=trust.witness(store, game_id), partly=partly)
    def headline(tr: gettext.NullTranslations) -> str:
        """Who played (and how: by the deadline's default, or by the bot), in the
        language of ``tr`` (each seat's report; issue 28)."""
        if by_deadline:
            return tr.gettext("%(seat)s played (deadline default)") % {"seat": seat}
        if by:
            return tr.gettext("%(seat)s played (%(by)s)") % {"seat": seat, "by": by}
        return tr.gettext("%(seat)s played") % {"seat": seat}

    reports.queue_reports(judge, game_id, pack, new_state, [*events, *last], headline=headline, step=state.step,
                          before=state)
    reports.queue_prompts(judge, game_id, pack, new_state)
    if last:
        trust.mail_seed(judge, game_id, lambda tr: tr.gettext("is over"))
    return new_state
