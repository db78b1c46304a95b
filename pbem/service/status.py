"""``pbem status``: what a host wants to see at a glance — every game's step and who is
to act, the games open for sign-up (seats taken and free, who joined), open deadlines,
bouncing seats, the outbox (failed rows with their error),
answers held back by the rate limit, answers waiting in a seat's digest (per seat, how
long the oldest has waited), held mail (a seat's key from another address),
quarantined mail, and server faults still going on. Read from the store only."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbem import rules
from pbem.plural import count
from pbem.service.base.context import live_state
from pbem.service.base.text import safe_text
from pbem.service.outgoing import faults
from pbem.store import Store
from pbem.store.heartbeat import read_heartbeat

#: exit codes of ``pbem status --check`` (issue 30): the judge cycles and nothing waits
#: for the host / the judge is not cycling (restart it) / it cycles but the host is needed
HEALTHY, NOT_CYCLING, HOST_NEEDED = 0, 1, 3
#: the outbox's oldest due row may wait this long before the host is needed
MAX_OUTBOX_AGE = timedelta(hours=1)


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
    #: one object per game (id, status, turn, step, waiting: [[seat, kind], ...])
    game_rows: list[dict[str, Any]] = field(default_factory=list)
    #: the games open for sign-up, a line each, then a line per seat taken (issue 25)
    signups: list[str] = field(default_factory=list)
    #: one object per game open for sign-up (id, opened_at, host, taken: [{seat, player,
    #: email, joined_at}], free: [seat], deadline: None — a sign-up has none; it stays
    #: open until its four seats are taken or the host closes it)
    signup_rows: list[dict[str, Any]] = field(default_factory=list)
    #: the answers kept for a digest (the address past its hourly limit, issue 24), a line
    #: per seat (or address) with how many and how long the oldest has waited
    digests: list[str] = field(default_factory=list)
    #: one object per seat with answers waiting in a digest (game, seat — None for an
    #: address that holds no seat —, address, answers, oldest_at, waited_seconds)
    digest_rows: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Everything :meth:`lines` shows, as one JSON-ready object (``pbem status --json``)."""
        out = asdict(self)
        out["games"] = out.pop("game_rows")
        out["signups"] = out.pop("signup_rows")
        out["digests"] = out.pop("digest_rows")
        return out

    def lines(self) -> list[str]:
        """The report as text lines (games first, then indented details)."""
        out = list(self.games) or (
            [] if self.signups else ["no game yet: `pbem run` creates the games of the config"])
        out += self.signups
        out += [f"  deadline: {d}" for d in self.deadlines]
        out += [f"  bouncing: {b}" for b in self.bouncing]
        out.append(f"outbox: {self.outbox}")
        out += [f"  {p}" for p in self.outbox_problems]
        out += [f"  not answered (reply rate limit): {s}" for s in self.suppressed]
        out += [f"  waiting in a digest (reply rate limit): {d}" for d in self.digests]
        out += [f"held: {h}" for h in self.held]
        out += [f"quarantined: {q}" for q in self.quarantined]
        out += [f"fault: {f}" for f in self.faults]
        return out


def waited(seconds: float) -> str:
    """A wait in words: ``"45 s"``, ``"12 min"``, ``"2 h 05 min"``."""
    n = max(0, int(seconds))
    if n < 60:
        return f"{n} s"
    if n < 3600:
        return f"{n // 60} min"
    return f"{n // 3600} h {n % 3600 // 60:02d} min"


def _digests(store: Store, now: datetime) -> tuple[list[str], list[dict[str, Any]]]:
    """The answers waiting in a digest (:func:`pbem.service.outgoing.ratelimit.send_digests`
    sends them), grouped per seat: its lines and JSON rows, oldest wait first (issue 24:
    the host could not see them)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in store.held_answers():
        groups.setdefault(row["to_addr"], []).append(row)
    rows = []
    for address, held in groups.items():
        oldest = min(r["created_at"] for r in held)
        games = sorted({r["game_id"] for r in held if r["game_id"]})
        seats = [x for x in store.seats_at(address) if not games or x["game_id"] in games]
        # the seat the address holds (a mail without a game line is kept with no game)
        game_id = seats[0]["game_id"] if len(seats) == 1 else (games[0] if len(games) == 1 else None)
        seat = seats[0]["seat"] if len(seats) == 1 else (
            ", ".join(f"{x['game_id']} {x['seat']}" for x in seats) or None)
        try:
            since = datetime.fromisoformat(oldest)
            seconds = (now - (since if since.tzinfo else since.replace(tzinfo=UTC))).total_seconds()
        except ValueError:
            seconds = 0.0
        rows.append({"game": game_id, "seat": seat, "address": address, "answers": len(held),
                     "oldest_at": oldest, "waited_seconds": int(max(0.0, seconds))})
    rows.sort(key=lambda r: -r["waited_seconds"])
    lines = [f"{r['game'] or '-'} {r['seat'] or '(no seat)'} <{safe_text(r['address'], 80)}>: "
             f"{count(r['answers'], 'answer')}, the oldest waiting {waited(r['waited_seconds'])} "
             f"(since {r['oldest_at']})" for r in rows]
    return lines, rows


def status(store: Store, now: datetime | None = None) -> Status:
    """Gather the status of every game in ``store``; ``now`` (default: the clock, UTC)
    measures how long answers have waited in a digest."""
    lines, rows = [], []
    for row in store.games():
        st = live_state(store, row["id"])
        pending = rules.pending(st)
        waiting = ", ".join(f"{d.seat} ({d.kind})" for d in pending) or "-"
        lines.append(f"{row['id']}: {row['status']}, turn {st.turn}, step {st.step}, waiting for {waiting}")
        rows.append({"id": row["id"], "status": row["status"], "turn": st.turn, "step": st.step,
                     "waiting": [[d.seat, d.kind] for d in pending]})
    counts = store.outbox_counts()
    signup_lines, signup_rows = _signups(store)
    digest_lines, digest_rows = _digests(store, now or datetime.now(UTC))
    return Status(
        games=lines,
        digests=digest_lines,
        digest_rows=digest_rows,
        game_rows=rows,
        signups=signup_lines,
        signup_rows=signup_rows,
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


def _signups(store: Store) -> tuple[list[str], list[dict[str, Any]]]:
    """The games open for sign-up (``pbem game open``, issue 25: ``pbem status`` did not
    list them): for each, a line with the seats taken and free, then a line per seat
    taken (the player's name and address, when it joined); and the same as objects.
    A sign-up has no deadline: it stays open until its four seats are taken (the game
    then starts) or the host closes it (``pbem game close``)."""
    lines, rows = [], []
    for row in store.open_signups():
        taken = store.signup_seats(row["game_id"])
        held = {t["seat"] for t in taken}
        free = [s for s in rules.SEATS if s not in held]
        lines.append(f"{row['game_id']}: open for sign-up since {row['created_at']}, "
                     f"{len(taken)} of {len(rules.SEATS)} seats taken, free: {', '.join(free) or '-'}; "
                     "no deadline (it starts when the last seat is taken)")
        lines += [f"  joined: {t['seat']}: {safe_text(t['player'] or '?', 60)} <{safe_text(t['email'], 80)}> "
                  f"at {t['joined_at']}" for t in taken]
        rows.append({"id": row["game_id"], "status": "signup", "opened_at": row["created_at"],
                     "host": row["host_email"],
                     "taken": [{"seat": t["seat"], "player": t["player"], "email": t["email"],
                                "joined_at": t["joined_at"]} for t in taken],
                     "free": free, "deadline": None})
    return lines, rows


@dataclass(frozen=True)
class Health:
    """A supervisor's health check of one judge (``pbem status --check``, issue 30):
    whether it cycles (its heartbeat, :mod:`pbem.store.heartbeat`), the age of the
    outbox's oldest due row, the server faults still going on past their grace, the
    ``problems`` in words and the exit ``code`` (:data:`HEALTHY`, :data:`NOT_CYCLING`,
    :data:`HOST_NEEDED`). Times are ISO 8601 UTC, ages in seconds."""

    code: int
    problems: list[str]
    pid: int | None
    running: bool
    last_cycle_at: str | None
    cycle_age_s: float | None
    max_cycle_age_s: float
    oldest_unsent_at: str | None
    outbox_age_s: float | None
    open_faults: list[str]

    def to_json(self) -> dict[str, Any]:
        """The check as one JSON-ready object."""
        return asdict(self)


def health(store: Store, database: str | Path, poll_interval: float, now: datetime,
           max_cycle_age: float | None = None, max_outbox_age: timedelta = MAX_OUTBOX_AGE) -> Health:
    """Check the judge of ``database`` at ``now`` (aware UTC): it is cycling when its
    heartbeat's process is alive and its last successful cycle is at most
    ``max_cycle_age`` seconds old (default: three poll intervals, at least 2 minutes: the
    loop cycles at least once per poll interval); the host is needed when the outbox's
    oldest due row (bouncing seats' mail excluded: it waits on purpose) is older than
    ``max_outbox_age`` or a server fault has outlasted its grace."""
    limit = max_cycle_age if max_cycle_age is not None else max(3 * poll_interval, 120.0)
    beat = read_heartbeat(database)
    problems: list[str] = []
    running = beat is not None and beat.alive()
    age = (now - beat.last_cycle_at).total_seconds() if beat is not None else None
    if beat is None:
        problems.append("no judge has cycled on this database yet (no heartbeat): is `pbem run` started?")
    elif not running:
        problems.append(f"the judge (pid {beat.pid}) is not running; its last cycle was at "
                        f"{beat.last_cycle_at.isoformat()}")
    elif age is not None and age > limit:
        problems.append(f"the judge (pid {beat.pid}) has not completed a cycle for {age:.0f} s (limit {limit:.0f} s):"
                        " it is stuck or cannot reach its mail server (see its log and `pbem status`)")
    code = NOT_CYCLING if problems else HEALTHY
    oldest = store.oldest_due_unsent(now.replace(microsecond=0).isoformat())
    outbox_age = (now - datetime.fromisoformat(oldest)).total_seconds() if oldest else None
    if outbox_age is not None and outbox_age > max_outbox_age.total_seconds():
        problems.append(f"the outbox's oldest due mail has waited {outbox_age / 60:.0f} min (since {oldest}): "
                        "is the SMTP server reachable?")
    open_faults = [f"{r['key']} since {r['first_seen']}" for r in store.open_faults()
                   if r["key"] in faults.GRACE and now - datetime.fromisoformat(r["first_seen"]) >= faults.GRACE[r["key"]]]
    problems += [f"server fault still going on: {f}" for f in open_faults]
    if problems and code == HEALTHY:
        code = HOST_NEEDED
    return Health(code, problems, beat.pid if beat else None, running,
                  beat.last_cycle_at.isoformat() if beat else None, age, limit, oldest, outbox_age, open_faults)
