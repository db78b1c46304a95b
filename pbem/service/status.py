"""``pbem status``: what a host wants to see at a glance — every game's step and who is
to act, open deadlines, bouncing seats, the outbox (failed rows with their error),
answers held back by the rate limit, held mail (a seat's key from another address),
quarantined mail, and server faults still going on. Read from the store only."""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem import rules
from pbem.plural import count
from pbem.service.base.context import live_state
from pbem.service.base.text import safe_text
from pbem.service.outgoing import faults
from pbem.store import Store


@dataclass(frozen=True)
class Status:
    """The facts :func:`status` gathers, and :meth:`lines` to print them."""

    games: list[str] = field(default_factory=list)
    deadlines: list[str] = field(default_factory=list)
    bouncing: list[str] = field(default_factory=list)
    outbox: str = "empty"
    outbox_problems: list[str] = field(default_factory=list)
    suppressed: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    quarantined: list[str] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report as text lines (games first, then indented details)."""
        out = list(self.games) or ["no game yet: `pbem run` creates the games of the config"]
        out += [f"  deadline: {d}" for d in self.deadlines]
        out += [f"  bouncing: {b}" for b in self.bouncing]
        out.append(f"outbox: {self.outbox}")
        out += [f"  {p}" for p in self.outbox_problems]
        out += [f"  not answered (reply rate limit): {s}" for s in self.suppressed]
        out += [f"held: {h}" for h in self.held]
        out += [f"quarantined: {q}" for q in self.quarantined]
        out += [f"fault: {f}" for f in self.faults]
        return out


def status(store: Store) -> Status:
    """Gather the status of every game in ``store``."""
    lines = []
    for row in store.games():
        st = live_state(store, row["id"])
        waiting = ", ".join(f"{d.seat} ({d.kind})" for d in rules.pending(st)) or "-"
        lines.append(f"{row['id']}: {row['status']}, turn {st.turn}, step {st.step}, waiting for {waiting}")
    counts = store.outbox_counts()
    return Status(
        games=lines,
        deadlines=[f"{r['game_id']} step {r['step']} {r['seat']} ({r['kind']}) due {r['due_at']}"
                   for r in store.open_deadlines()],
        bouncing=[f"{r['game_id']} {r['seat']} {r['email']} since {r['bounced_at']}" for r in store.bouncing_seats()],
        outbox=", ".join(f"{n} {s}" for s, n in counts) or "empty",
        outbox_problems=[f"{r['status']}: to {r['to_addr']} ({r['kind']}), {count(r['attempts'], 'attempt')}: "
                         f"{r['last_error']}" for r in store.outbox_problems()],
        suppressed=[f"{count(n, 'mail')} from {sender}, last {last}" for sender, n, last in store.suppressed_answers()],
        held=[f"inbox {r['id']} {r['fetched_at']} from {safe_text(r['sender'] or '?', 80)} for {r['game_id']} "
              f"{r['seat']} ({safe_text(r['subject'] or '', 80)!r}): the seat's right key from an address that is "
              "not the seat's; the seat was alerted, nothing applied" for r in store.held_mail()],
        quarantined=[f"inbox {r['id']} {r['status']} {r['fetched_at']} from {safe_text(r['sender'] or '?', 80)} "
                     f"{safe_text(r['message_id'], 80)}: {safe_text(' '.join((r['error'] or r['reason'] or '').split()), 200)}"
                     for r in store.quarantined()],
        faults=[f"{r['key']} since {r['first_seen']} ({count(r['count'], 'time')}, last {r['last_seen']}"
                f"{', host told' if r['notified_at'] else ''}): {safe_text(' '.join(r['detail'].split()), 200)}"
                for r in store.open_faults() if r["key"] in faults.GRACE],
    )
