"""Deadlines (docs/pipeline.md, "Deadlines"): how long a seat has for a decision, the
reminder before it, and the decision's default applied when it passes (R-9.3 for
reaction windows)."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from pbem import rules
from pbem.config import Config
from pbem.report import build
from pbem.service import adjudicate, outbox

if TYPE_CHECKING:
    from pbem.service.judge import Judge


def length(config: Config, kind: str) -> float:
    """Seconds a seat has for a decision of ``kind``: ``deadlines.<kind>`` when the
    config names the kind, else ``deadlines.player_turn`` for player-turns and
    reinforcements and ``deadlines.reaction`` for reaction windows (R-9.3: intercept,
    avoid_battle, naval_battle, inside_join)."""
    dl = config.deadlines
    if kind in dl:
        return dl[kind]
    if kind in ("player_turn", "reinforcements"):
        return dl.get("player_turn", 72 * 3600)
    return dl.get("reaction", 24 * 3600)


def tick(judge: Judge) -> int:
    """Send reminders and apply deadline defaults that are due; return how many
    decisions were decided by default. Each is its own transaction."""
    now = judge.clock()
    store = judge.store
    done = 0
    for row in store.open_deadlines():
        due = datetime.fromisoformat(row["due_at"])
        # the reminder comes deadlines.reminder before the deadline, at most halfway
        remind = timedelta(seconds=min(judge.config.deadlines.get("reminder", 24 * 3600),
                                       length(judge.config, row["kind"]) / 2))
        game = store.game(row["game_id"])
        if game is None or game["step"] != row["step"]:
            store.expire_deadline(row["game_id"], row["step"], row["seat"], now.isoformat())
            continue
        if now >= due:
            with store.transaction():
                state = judge.state(row["game_id"])
                decision = next((d for d in rules.pending(state) if d.seat == row["seat"]), None)
                store.expire_deadline(row["game_id"], row["step"], row["seat"], now.isoformat())
                if decision is not None and state.step == row["step"]:
                    adjudicate.apply_orders(judge, row["game_id"], state, row["seat"], decision.default, inbox_id=None,
                                 parsed=None, by_deadline=True)
                    done += 1
        elif row["reminded_at"] is None and now >= due - remind:
            with store.transaction():
                _remind(judge, row)
                store.mark_reminded(row["game_id"], row["step"], row["seat"], now.isoformat())
    return done


def _remind(judge: Judge, row: dict[str, Any]) -> None:
    seat = next(s for s in judge.store.seats(row["game_id"]) if s["seat"] == row["seat"])
    outbox.queue(judge, game_id=row["game_id"], kind="reminder", to_addr=seat["email"], to_name=seat["player"],
                 subject=f"[{row['game_id']}] reminder: step {row['step']} is due {row['due_at']}",
                 text=build.render_notice(
                     f"Your orders for step {row['step']} are due at {row['due_at']}. "
                     "Without them the judge applies the default shown in your prompt.", row["game_id"]),
                 html=None, id_parts=(row["game_id"], row["step"], "reminder", row["seat"]))
