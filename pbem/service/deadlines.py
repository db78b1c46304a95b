"""Deadlines (docs/pipeline.md, "Deadlines"): how long a seat has for a decision, the
reminder before it, and the decision's default applied when it passes (R-9.3 for
reaction windows)."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from pbem import rules
from pbem.config import Config
from pbem.report import build
from pbem.service import adjudicate, host, intake, outbox, trust
from pbem.service.issue import safe_text

if TYPE_CHECKING:
    from pbem.service.judge import Judge

log = logging.getLogger(__name__)


def length(config: Config, kind: str) -> float:
    """Seconds a seat has for a decision of ``kind``: ``deadlines.<kind>`` when the
    config names the kind, else ``deadlines.player_turn`` for player-turns,
    reinforcements and the turn order (R-6.1), and ``deadlines.reaction`` for reaction
    windows (R-9.3: intercept, avoid_battle, naval_battle, inside_join)."""
    dl = config.deadlines
    if kind in dl:
        return dl[kind]
    if kind in ("player_turn", "reinforcements", "turn_order"):
        return dl.get("player_turn", 72 * 3600)
    return dl.get("reaction", 24 * 3600)


def tick(judge: Judge) -> int:
    """Send reminders and apply deadline defaults that are due; return how many
    decisions were decided by default. Each deadline is its own transaction and its own
    guard: one that raises is logged, reported to the hosts (once) and left open, and
    the others go on. Raises RetryLater on a transient database failure."""
    done = 0
    for row in judge.store.open_deadlines():
        try:
            done += _one(judge, row)
        except Exception as exc:
            if intake.is_transient(exc):
                raise intake.RetryLater("deadlines", exc) from exc
            log.exception("deadline %s step %s %s failed", row["game_id"], row["step"], row["seat"])
            with judge.store.transaction():
                host.report_fault(judge, f"deadline {row['game_id']} {row['step']} {row['seat']}",
                                  "a deadline could not be applied",
                                  f"The deadline of seat {row['seat']} at step {row['step']} of {row['game_id']} "
                                  f"(due {row['due_at']}) raised {type(exc).__name__}: {safe_text(str(exc), 300)}. "
                                  "It stays open and is tried again every cycle; the game waits.")
    return done


def _one(judge: Judge, row: dict[str, Any]) -> int:
    """Remind or decide one open deadline; 1 when its default was applied."""
    now = judge.clock()
    store = judge.store
    due = datetime.fromisoformat(row["due_at"])
    # the reminder comes deadlines.reminder before the deadline, at most halfway
    remind = timedelta(seconds=min(judge.config.deadlines.get("reminder", 24 * 3600),
                                   length(judge.config, row["kind"]) / 2))
    game = store.game(row["game_id"])
    if game is None or game["step"] != row["step"] or game["status"] in trust.ENDED:
        store.expire_deadline(row["game_id"], row["step"], row["seat"], now.isoformat())
        return 0
    if game["status"] == "paused":  # no deadline passes in a pause; resuming moves them (hostcmd)
        return 0
    if now >= due:
        with store.transaction():
            state = judge.state(row["game_id"])
            decision = next((d for d in rules.pending(state) if d.seat == row["seat"]), None)
            store.expire_deadline(row["game_id"], row["step"], row["seat"], now.isoformat())
            if decision is not None and state.step == row["step"]:
                adjudicate.apply_orders(judge, row["game_id"], state, row["seat"], decision.default, inbox_id=None,
                                        parsed=None, by_deadline=True)
                return 1
    elif row["reminded_at"] is None and now >= due - remind:
        with store.transaction():
            _remind(judge, row)
            store.mark_reminded(row["game_id"], row["step"], row["seat"], now.isoformat())
    return 0


def _remind(judge: Judge, row: dict[str, Any]) -> None:
    seat = next(s for s in judge.store.seats(row["game_id"]) if s["seat"] == row["seat"])
    outbox.queue(judge, game_id=row["game_id"], kind="reminder", to_addr=seat["email"], to_name=seat["player"],
                 subject=f"[{row['game_id']}] reminder: step {row['step']} is due {row['due_at']}",
                 text=build.render_notice(
                     f"Your orders for step {row['step']} are due at {row['due_at']}. "
                     "Without them the judge applies the default shown in your prompt.", row["game_id"]),
                 html=None, id_parts=(row["game_id"], row["step"], "reminder", row["seat"]))
