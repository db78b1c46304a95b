"""``pbem verify GAME``: is the event log what the judge wrote?

Checks, each a list of problems (issue 17, finding 13):

- the hash chain (:meth:`pbem.store.Store.verify_chain`); with chain version 2 the
  hash covers ``step`` and ``inbox_id`` too;
- replaying every event from the initial position gives the stored live state;
- the log agrees with the rest of the database: every batch of events (between two
  snapshots) carries the step of the state it was applied to; the newest snapshot is
  taken after the newest event and holds the game's step; every ``inbox_id`` names an
  applied mail of this game at that step, and every applied mail has its events — so
  removing the newest decision together with its snapshot is seen as long as its mail
  is in the inbox;
- each ``witness`` ``HASH@N`` (printed at the foot of every turn report) is in the log:
  event N exists and has that hash — a log cut back behind a report a player holds is
  caught even when the whole database was rewritten.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pbem import rules
from pbem.service import games
from pbem.store import Store

_WITNESS = re.compile(r"^([0-9a-f]{64})@(\d+)$")


@dataclass(frozen=True)
class Verified:
    """What :func:`verify_game` found: the number of events and every problem (an
    empty list: the log is intact)."""

    game_id: str
    events: int
    problems: list[str]

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.problems


def parse_witness(text: str) -> tuple[str, int]:
    """``"HASH@N"`` -> (hash, N). Raises ValueError for anything else."""
    m = _WITNESS.match(text.strip().lower())
    if not m:
        raise ValueError(f"not a witness: {text!r} (write the 64 hex digits, '@', the event number)")
    return m.group(1), int(m.group(2))


def verify_game(store: Store, game_id: str, witnesses: Sequence[str] = ()) -> Verified:
    """Check ``game_id``'s log (see the module docstring). Raises KeyError when the game
    is unknown, ValueError for a malformed witness."""
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    marks = [parse_witness(w) for w in witnesses]
    pack = games.game_pack(store, game_id)
    problems = store.verify_chain(game_id)
    stored = store.events(game_id)
    first, last = store.first_snapshot(game_id), store.snapshot(game_id)
    events = [rules.Event(kind=e.kind, data=e.data, public=e.public, seat=e.seat) for e in stored]
    if first is None or last is None:
        return Verified(game_id, len(events), [*problems, "the game has no snapshot"])
    replayed = rules.fold(rules.GameState.from_dict(first[1], pack), events)
    if replayed.to_dict() != rules.GameState.from_dict(last[1], pack).to_dict():
        problems.append("replaying the log does not give the stored live state")
    problems += _consistency(store, game_id, game, stored, last)
    by_seq = {e.seq: e.hash for e in stored}
    for head, seq in marks:
        if seq not in by_seq:
            problems.append(f"witness {head[:12]}…@{seq}: the log has no event {seq} (it ends at "
                            f"{stored[-1].seq if stored else 0}): events were removed")
        elif by_seq[seq] != head:
            problems.append(f"witness {head[:12]}…@{seq}: event {seq} has another hash: the log was rewritten")
    return Verified(game_id, len(events), problems)


def _consistency(store: Store, game_id: str, game: dict, stored: list, last: tuple[int, dict]) -> list[str]:
    """Steps, snapshots and inbox ids against the log."""
    problems: list[str] = []
    last_seq = stored[-1].seq if stored else 0
    if last[0] != last_seq:
        problems.append(f"the newest snapshot is taken after event {last[0]}, but the log ends at {last_seq}")
    if last[1].get("step") != game["step"]:
        problems.append(f"the game is at step {game['step']} but its newest snapshot at {last[1].get('step')}")
    bounds = store.snapshot_steps(game_id)
    for e in stored:
        before = max((seq for seq in bounds if seq < e.seq), default=None)
        if before is not None and bounds[before] >= 0 and e.step != bounds[before]:
            problems.append(f"event {e.seq} is stored with step {e.step}, but it was applied at step {bounds[before]}")
    applied = {r["id"]: r for r in store.applied_mail(game_id)}
    linked = {e.inbox_id for e in stored if e.inbox_id is not None}
    for e in stored:
        row = applied.get(e.inbox_id) if e.inbox_id is not None else None
        if e.inbox_id is not None and (row is None or row["step"] != e.step):
            problems.append(f"event {e.seq} names inbox row {e.inbox_id}, which is not a mail applied at step {e.step}")
    for iid in sorted(set(applied) - linked):
        problems.append(f"inbox row {iid} was applied at step {applied[iid]['step']}, but the log has none of its "
                        "events: the log was cut back")
    return problems[:50]
