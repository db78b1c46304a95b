"""The orders envelope and the sender's identity (docs/pipeline.md, "The orders envelope
and seat security"): game, seat, key, sender address and, for orders, the step and whose
decision it is; and, for a mail with no orders from a registered address, the
sender's own envelope to copy."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import yaml

from pbem import rules
from pbem.keys import verify_key
from pbem.mail.message import ParsedMail
from pbem.mail.suggest import suggest
from pbem.service import answers
from pbem.service.issue import Issue

if TYPE_CHECKING:
    from pbem.service.judge import Judge

ENVELOPE_KEYS = ("game", "seat", "key", "step", "orders")
HISTORY_KEYS = ("game", "seat", "key", "history")

#: what :func:`check_envelope` returns: (issues or "held", game id, seat)
Checked = tuple[list[Issue] | str, str | None, str | None]


def standing_only(orders: Any) -> bool:
    """True for orders that only set standing orders (R-9.3), which any seat may send at
    any time: they answer no prompt, so neither the step nor the turn is checked."""
    return isinstance(orders, Mapping) and set(orders) <= {"standing", "step"} and "standing" in orders


def check_envelope(judge: Judge, parsed: ParsedMail, doc: Mapping[str, Any],
                   keys: Sequence[str] = ENVELOPE_KEYS) -> Checked:
    """Check game, seat, key, sender and (for orders) step. Returns (issues or "held",
    game id, seat); "held" when another address carried the seat's right key (the seat
    and the host are alerted)."""
    issues = _shape(doc, keys)
    game_id = doc.get("game")
    if not isinstance(game_id, str) or judge.store.game(game_id) is None:
        mine = sorted({r["game_id"] for r in judge.store.seats_at(parsed.sender)}) if parsed.sender else []
        hint = f"Your games here: {', '.join(mine)}." if mine else "Check the game id in your prompt mail."
        if "game" in doc:
            shown = game_id if isinstance(game_id, str) else yaml.safe_dump(game_id, default_flow_style=True).strip()
            issues.append(Issue(f"There is no game {shown!r} on this judge.", where="game",
                                code="envelope.unknown_game", hint=hint))
        return issues, None, None
    seats = {s["seat"]: s for s in judge.store.seats(game_id)}
    seat = doc.get("seat")
    if seat not in seats:
        if "seat" in doc:
            issues.append(Issue(f"Game {game_id} has no seat {seat!r}; seats are {', '.join(seats)}.",
                                where="seat", code="envelope.unknown_seat"))
        return issues, game_id, None
    row = seats[seat]
    key_ok = verify_key(doc.get("key"), row["key_hash"]) if isinstance(doc.get("key"), str) else False
    if parsed.sender != row["email"]:
        if key_ok:
            answers.alert_seat(judge, game_id, row, parsed)
            return "held", game_id, seat
        return [Issue(f"This address ({parsed.sender}) is not registered for seat {seat} of {game_id}; "
                      "a mail can only act for the seat registered at its sender address.",
                      where="seat", code="auth.sender")], game_id, seat
    if not key_ok:
        placeholder = str(doc.get("key", "")).strip().upper() == "YOUR-SEAT-KEY"
        issues.append(Issue(
            "The `key:` line still holds the placeholder YOUR-SEAT-KEY." if placeholder
            else f"The key for seat {seat} is wrong.", where="key", code="auth.key",
            hint="Replace it with the seat key the game's host gave you (it is case-sensitive)."))
        return issues, game_id, seat
    if "step" not in keys or standing_only(doc.get("orders")):
        return issues, game_id, seat  # standing orders may come at any time
    return issues + _step_and_turn(judge, game_id, seat, doc), game_id, seat


def _shape(doc: Mapping[str, Any], keys: Sequence[str]) -> list[Issue]:
    """Missing and unknown top-level keys."""
    issues: list[Issue] = []
    for key in keys:
        if key == "step" and standing_only(doc.get("orders")):
            continue  # standing orders may come at any time, with or without a step
        if key not in doc:
            issues.append(Issue(f"The orders block has no `{key}:` line.", where=key, code="envelope.missing",
                                hint="Start from the YAML template in your last prompt mail."))
    for k in doc:
        if k not in keys and k != "notes":
            near = suggest(str(k), [*keys, "notes"])
            issues.append(Issue(f"Unknown top-level key `{k}`; allowed: {', '.join(keys)}, notes.",
                                where=str(k), code="envelope.unknown_key",
                                hint=f"did you mean `{near}`?" if near else None))
    return issues


def _step_and_turn(judge: Judge, game_id: str, seat: str, doc: Mapping[str, Any]) -> list[Issue]:
    """The step answers the latest prompt, it is the seat's decision, orders a mapping."""
    issues: list[Issue] = []
    state = judge.state(game_id)
    step = doc.get("step")
    if not isinstance(step, int) or isinstance(step, bool):
        issues.append(Issue(f"`step` must be a whole number; found {step!r}.", where="step",
                            code="envelope.step_type"))
    elif step < state.step:
        issues.append(Issue(f"Step {step} is stale: the game is at step {state.step}. Orders answer "
                            "the latest prompt only.", where="step", code="envelope.stale_step",
                            hint=f"Check your latest prompt; if it is yours, use step: {state.step}."))
    elif step > state.step:
        issues.append(Issue(f"Step {step} has not happened yet: the game is at step {state.step}.",
                            where="step", code="envelope.future_step",
                            hint="Copy the step number from your latest prompt."))
    waiting = {d.seat for d in rules.pending(state)}
    if seat not in waiting:
        who = ", ".join(sorted(waiting)) or "nobody (the game is over)"
        issues.append(Issue(f"It is not your decision now: the game waits for {who}.", where="seat",
                            code="envelope.not_your_turn",
                            hint="Wait for your prompt mail. Until then you may send standing orders "
                                 "(orders: {standing: [...]}, see docs/orders.md), which need no step."))
    if not isinstance(doc.get("orders"), Mapping):
        issues.append(Issue("`orders:` must be a block of keys (tyche:, movement:, …).", where="orders",
                            code="envelope.orders_type"))
    return issues


def your_block(judge: Judge, sender: str | None) -> str | None:
    """For a mail with no orders from a registered address: the envelope to copy for
    each game the address plays (game, seat, the step now, a key placeholder) and
    whose decision the game waits for; None for unknown senders."""
    if not sender:
        return None
    parts: list[str] = []
    for row in judge.store.seats_at(sender):
        game = judge.store.game(row["game_id"])
        if game is None or game.get("status") == "over":
            continue
        state = judge.state(row["game_id"])
        waiting = sorted({d.seat for d in rules.pending(state)})
        mine = row["seat"] in waiting
        head = (f"You play seat {row['seat']} in game {row['game_id']}, now at step {state.step}: "
                + ("it is your decision now. Start your orders with these lines (the pre-filled "
                   "orders are in your latest prompt mail):" if mine else
                   f"the game waits for {', '.join(waiting)}. Until your prompt comes you may "
                   "send standing orders (docs/orders.md), like this:"))
        body = ("    orders:\n      ..." if mine else
                "    orders:\n      standing:\n        - {when: losses, order: [mercenary, loyal]}")
        parts.append(head + f"\n    game: {row['game_id']}\n    seat: {row['seat']}\n"
                     f"    key: YOUR-SEAT-KEY\n" + (f"    step: {state.step}\n" if mine else "") + body)
    return "\n".join(parts) or None
