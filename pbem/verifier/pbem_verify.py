#!/usr/bin/env python3
"""pbem_verify.py: check a pbem game's log with nothing but Python 3.11+ (docs/trust.md).

Shipped in every game archive. Usage::

    python3 pbem_verify.py ARCHIVE_DIR [--seed HEX] [--commitment HEX] [--witness HASH@N ...]
                           [--orders SHA256 ...]

ARCHIVE_DIR holds ``game.json`` (game id, chain and dice versions, seed commitment,
the seed once the game is over) and ``log.jsonl`` (every event row of the log). The
verifier checks, and names the first event that fails and why:

1. the hash chain: every row's number, its link to the row before and its hash
   (chain version 1: SHA-256 of the previous hash and the row's canonical JSON;
   version 2: private data only through its keyed commitment (version 3: with the
   event's seq as nonce, so equal private data never gives equal commitments), whose match with the
   revealed data is checked once the seed is known), whatever the event's kind;
2. the seed: its SHA-256 is the commitment of the log's first event (``SeedCommitted``),
   of game.json and of ``--commitment`` (copy it from your first report), and a
   ``SeedRevealed`` event names the same seed;
3. every roll (dice version 2): each ``DiceRolled`` value and each ``Shuffled`` order
   is recomputed from the seed and the logged orders documents (``OrdersAccepted``),
   and the dice of each decision are numbered from 0 without a gap, so no roll was
   dropped, repeated or picked;
4. each witness ``HASH@N`` a player kept from a mail: event N is in the log with that
   hash, so a log rewritten before it (even with every hash recomputed) is caught;
5. each ``--orders`` digest (from a receipt): an ``OrdersAccepted`` document has it.

Exit status: 0 every check passed, 1 a check failed, 2 the files could not be read.

Standard library only, on purpose: a player checks the judge without installing the
project (a test imports-checks this file and runs it with ``python3 -I``). The JSON
form, the chain and the dice are re-implemented here from their spec in docs/trust.md
rather than imported from pbem, and a test checks both agree.
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GENESIS = "0" * 64
START_CONTEXT = "0" * 64
SECRET_LABEL = b"pbem-event-secret/v1"
WITNESS = re.compile(r"^([0-9a-f]{64})@(\d+)$")


def canonical_json(value: Any) -> str:
    """JSON with sorted keys, no spaces, non-ASCII kept: the hashed form."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str) -> str:
    """Hex SHA-256 of ``text`` in UTF-8."""
    return hashlib.sha256(text.encode()).hexdigest()


def event_key(seed: bytes) -> bytes:
    """The key of private events' commitments: HMAC-SHA256(seed, "pbem-event-secret/v1")."""
    return hmac.new(seed, SECRET_LABEL, hashlib.sha256).digest()


def commitment(key: bytes, data: Any, seq: int | None = None) -> str:
    """HMAC-SHA256 hex of a private event's canonical data: chain version 2 without
    ``seq``; version 3 with the event's ``seq`` as nonce ("pbem-event/v3:SEQ:" + JSON)."""
    text = canonical_json(data) if seq is None else f"pbem-event/v3:{seq}:{canonical_json(data)}"
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def row_hash(game: str, row: Mapping[str, Any], version: int) -> str:
    """The hash a log row must carry (``row``: a line of log.jsonl; for version 2 a
    private row's ``secret`` stands for its data)."""
    if version >= 2:
        public = bool(row["public"])
        body = canonical_json({"v": 2, "game": game, "seq": row["seq"], "kind": row["kind"], "seat": row["seat"],
                               "public": public, "step": row["step"], "inbox_id": row.get("inbox_id"),
                               "data": row["data"] if public else None,
                               "secret": None if public else row.get("secret")})
    else:
        body = canonical_json({"game": game, "seq": row["seq"], "kind": row["kind"], "data": row["data"],
                               "seat": row["seat"], "public": bool(row["public"])})
    return sha256_hex(row["prev_hash"] + body)


def orders_digest(document: Any) -> str:
    """Hex SHA-256 of an accepted orders document's canonical JSON."""
    return sha256_hex(canonical_json(document))


def next_context(context: str, document: Any) -> str:
    """The orders context after ``document``: SHA-256("pbem-orders/v1:" + context + ":" + digest)."""
    return sha256_hex(f"pbem-orders/v1:{context}:{orders_digest(document)}")


def die(seed: bytes, context: str, step: int, index: int, sides: int) -> int:
    """Die ``index`` of the decision at ``step`` in orders ``context`` (dice version 2):
    HMAC-SHA256(seed, "pbem-dice/v2:{context}:{step}:{index}:{counter}"), the first byte
    b < 256 - 256 % sides gives b % sides + 1."""
    if not isinstance(sides, int) or not 2 <= sides <= 256:
        raise ValueError(f"a die of {sides!r} sides")
    limit = 256 - 256 % sides
    counter = 0
    while True:
        digest = hmac.new(seed, f"pbem-dice/v2:{context}:{step}:{index}:{counter}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < limit:
                return byte % sides + 1
        counter += 1


def shuffle(seed: bytes, context: str, step: int, index: int, items: Sequence[Any]) -> tuple[list[Any], int]:
    """Fisher-Yates as the judge shuffles: for i from n-1 down to 1, a die of i+1 sides
    gives j = die - 1, swap i and j. Returns (the order, the next die's index)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = die(seed, context, step, index, i + 1) - 1
        index += 1
        out[i], out[j] = out[j], out[i]
    return out, index


@dataclass(frozen=True)
class Problem:
    """One failed check: the event number (0: the game as a whole) and why."""

    seq: int
    kind: str
    why: str

    def __str__(self) -> str:
        return f"event {self.seq} ({self.kind}): {self.why}" if self.seq else self.why


@dataclass
class Report:
    """What :func:`verify` found: counts of what was checked, notes on what could not
    be, and every problem in log order (empty: the log is intact)."""

    game: str
    events: int = 0
    rolls: int = 0
    dice: int = 0
    shuffles: int = 0
    orders: int = 0
    notes: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return not self.problems

    def lines(self) -> list[str]:
        """The report as text lines: the first failure first."""
        out = []
        if self.problems:
            first = min(self.problems, key=lambda p: (p.seq == 0, p.seq))
            out.append(f"FAIL: {first}")
            rest = [p for p in self.problems if p is not first]
            out += [f"  also: {p}" for p in rest[:30]]
            if len(rest) > 30:
                out.append(f"  … and {len(rest) - 30} more")
        out += [f"OK: {p}" for p in self.passed]
        out += [f"note: {n}" for n in self.notes]
        return out


def check_chain(report: Report, game: str, rows: Sequence[Mapping[str, Any]], version: int,
                 key: bytes | None) -> None:
    """Check 1: numbers, links and hashes of every row, of any kind; with the event
    ``key`` (from the seed) also each revealed private row against its commitment."""
    prev, expected = GENESIS, 1
    for row in rows:
        seq, kind = row.get("seq"), str(row.get("kind"))
        if seq != expected:
            report.problems.append(Problem(seq or 0, kind, f"expected event {expected} here: events are missing or "
                                                         "out of order"))
        if row.get("prev_hash") != prev:
            report.problems.append(Problem(seq, kind, "its prev_hash is not the hash of the event before"))
        public = bool(row.get("public"))
        try:
            if version < 2 and not public and row.get("data") is None:
                report.notes.append(f"event {seq} ({kind}) is private and not revealed: its hash is not checked")
            elif row_hash(game, row, version) != row.get("hash"):
                report.problems.append(Problem(seq, kind, "its hash does not match its content: the event was "
                                                          "edited"))
        except (KeyError, TypeError) as exc:
            report.problems.append(Problem(seq if isinstance(seq, int) else 0, kind, f"the row is malformed ({exc})"))
        if version >= 2 and not public and key is not None and row.get("data") is not None \
                and commitment(key, row["data"], seq if version >= 3 else None) != row.get("secret"):
            report.problems.append(Problem(seq, kind, "its private data does not match its commitment: the data "
                                                    "was edited"))
        prev = row.get("hash")
        expected = (seq if isinstance(seq, int) else expected) + 1
    if not report.problems:
        report.passed.append(f"hash chain intact ({len(rows)} events, chain version {version})")


def check_seed(report: Report, meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], seed: bytes,
               commitments: Iterable[str] = ()) -> None:
    """Check 2: the seed against game.json's commitment, the first event's, each of
    ``commitments`` (from a report) and any ``SeedRevealed``."""
    mine = hashlib.sha256(seed).hexdigest()
    first = rows[0] if rows else None
    before = len(report.problems)
    for c in commitments:
        if c.strip().lower() != mine:
            report.problems.append(Problem(0, "", f"the seed's SHA-256 is {mine}, not the commitment {c} you "
                                                  "gave"))
    if meta.get("seed_commitment") and meta["seed_commitment"] != mine:
        report.problems.append(Problem(0, "", f"the seed's SHA-256 is {mine}, not the game's commitment "
                                              f"{meta['seed_commitment']}"))
    if first is not None and first.get("kind") == "SeedCommitted":
        if (first.get("data") or {}).get("commitment") != mine:
            report.problems.append(Problem(first["seq"], "SeedCommitted", "the seed's SHA-256 is not this "
                                                                          "commitment"))
    else:
        report.notes.append("the log does not begin with SeedCommitted (a game older than issue 15): the seed is "
                            "checked against game.json's commitment only")
    for row in rows:
        if row.get("kind") == "SeedRevealed" and (row.get("data") or {}).get("seed") != seed.hex():
            report.problems.append(Problem(row["seq"], "SeedRevealed", "it names another seed"))
    if len(report.problems) == before:
        report.passed.append(f"the seed matches the commitment {mine}")


def check_dice(report: Report, rows: Sequence[Mapping[str, Any]], seed: bytes) -> None:
    """Check 3 (dice version 2): every ``DiceRolled`` and ``Shuffled`` recomputed from
    the seed and the orders documents before it, numbered from 0 in each decision
    without a gap; stops at the first failure or at the first event not revealed."""
    context, index = START_CONTEXT, 0
    before = len(report.problems)
    for row in rows:
        kind, data, seq = row.get("kind"), row.get("data"), row.get("seq")
        if kind == "OrdersAccepted":
            if data is None:
                report.notes.append(f"event {seq}: the orders are not revealed yet, so the rolls from here on are "
                                    "not checked (they are once the game is over)")
                return
            context, index = next_context(context, data), 0
            report.orders += 1
        elif kind in ("DiceRolled", "Shuffled"):
            if data is None:
                report.notes.append(f"event {seq} ({kind}) is not revealed: the rolls from here on are not checked")
                return
            if data.get("index") != index:
                report.problems.append(Problem(seq, kind, f"its first die is numbered {data.get('index')!r}, but "
                                                          f"{index} is next in this decision: a roll was dropped, "
                                                          "repeated or picked"))
                return
            try:
                index = _check_draw(report, row, seed, context, index)
            except (ValueError, TypeError, KeyError) as exc:
                report.problems.append(Problem(seq, kind, f"it cannot be recomputed ({exc})"))
                return
            if len(report.problems) > before:
                return
    if len(report.problems) == before:
        report.passed.append(f"{report.rolls} rolls ({report.dice} dice) and {report.shuffles} shuffles "
                             f"recomputed from the seed and {report.orders} orders documents")


def _check_draw(report: Report, row: Mapping[str, Any], seed: bytes, context: str, index: int) -> int:
    """Check one DiceRolled or Shuffled row; return the next die's index."""
    data, step, seq = row["data"], row["step"], row["seq"]
    if row["kind"] == "Shuffled":
        order, after = shuffle(seed, context, step, index, data["items"])
        report.shuffles += 1
        if order != data["order"]:
            report.problems.append(Problem(seq, "Shuffled", "the seed and the logged orders give another order"))
        return after
    report.rolls += 1
    for k, value in enumerate(data["values"]):
        want = die(seed, context, step, index + k, data["sides"])
        report.dice += 1
        if value != want:
            report.problems.append(Problem(seq, "DiceRolled", f"die {k + 1} of {data.get('purpose', 'the roll')!r} "
                                                              f"shows {value}, but the seed and the logged orders "
                                                              f"give {want}"))
            break
    return index + len(data["values"])


def check_witnesses(report: Report, rows: Sequence[Mapping[str, Any]], witnesses: Iterable[str]) -> None:
    """Check 4: each ``HASH@N`` names an event of the log with that hash."""
    by_seq = {r.get("seq"): r.get("hash") for r in rows}
    last = rows[-1].get("seq") if rows else 0
    for text in witnesses:
        m = WITNESS.match(text.strip().lower())
        if not m:
            report.problems.append(Problem(0, "", f"{text!r} is not a witness (64 hex digits, '@', the event "
                                                  "number)"))
            continue
        head, seq = m.group(1), int(m.group(2))
        if seq not in by_seq:
            report.problems.append(Problem(seq, "witness", f"the witness {head[:12]}…@{seq} names an event the log "
                                                           f"does not have (it ends at {last}): events were removed"))
        elif by_seq[seq] != head:
            report.problems.append(Problem(seq, "witness", f"the witness {head[:12]}…@{seq} has another hash: the "
                                                           f"log was rewritten at or before event {seq}"))
        else:
            report.passed.append(f"witness {head[:12]}…@{seq}")


def check_orders(report: Report, rows: Sequence[Mapping[str, Any]], digests: Iterable[str]) -> None:
    """Check 5: each digest (from a receipt) is the SHA-256 of a logged orders document."""
    found = {orders_digest(r["data"]) for r in rows if r.get("kind") == "OrdersAccepted" and r.get("data") is not None}
    for d in digests:
        if d.strip().lower() in found:
            report.passed.append(f"orders document {d[:12]}… is in the log")
        else:
            report.problems.append(Problem(0, "", f"no orders document in the log has the SHA-256 {d} (from a "
                                                  "receipt?)"))


def verify(meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], seed: bytes | None = None,
           witnesses: Iterable[str] = (), orders: Iterable[str] = (), commitments: Iterable[str] = ()) -> Report:
    """Check a game's log (see the module docstring). ``meta``: game.json (``game``,
    ``chain``, ``dice``, ``seed_commitment``, ``seed``); ``rows``: log.jsonl's lines in
    order; ``seed``: the seed (default: game.json's, once published); ``witnesses``,
    ``orders`` (digests) and ``commitments`` as a player kept them from mails. Never
    raises for a bad log: every problem is in the report."""
    game = str(meta.get("game"))
    version = int(meta.get("chain") or 1)
    if seed is None and meta.get("seed"):
        seed = bytes.fromhex(meta["seed"])
    report = Report(game, events=len(rows))
    check_chain(report, game, rows, version, event_key(seed) if seed is not None else None)
    if seed is None:
        report.notes.append("no seed yet (the game is not over): the rolls are not checked")
    else:
        check_seed(report, meta, rows, seed, commitments)
        dice = (rows[0].get("data") or {}).get("dice") if rows and rows[0].get("kind") == "SeedCommitted" \
            else meta.get("dice")
        if dice == 2:
            check_dice(report, rows, seed)
        else:
            report.notes.append(f"dice version {dice}: rolls made from the seed and step alone are not checked here")
    check_witnesses(report, rows, witnesses)
    check_orders(report, rows, orders)
    return report


def load(archive: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(game.json, log.jsonl's rows) of an archive directory. Raises OSError or
    ValueError when they cannot be read."""
    meta = json.loads((archive / "game.json").read_text(encoding="utf-8"))
    rows = [json.loads(line) for line in (archive / "log.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return meta, rows


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (module docstring); returns the exit status."""
    ap = argparse.ArgumentParser(prog="pbem_verify.py", description="Check a pbem game's log: hash chain, seed, "
                                 "every roll, witnesses (docs/trust.md).")
    ap.add_argument("archive", type=Path, help="the archive directory (game.json and log.jsonl)")
    ap.add_argument("--seed", help="the seed in hex (default: game.json's, once the game is over)")
    ap.add_argument("--commitment", action="append", default=[], metavar="HEX",
                    help="the seed commitment printed in your first report (repeatable)")
    ap.add_argument("--witness", action="append", default=[], metavar="HASH@N",
                    help="a log witness from a report or receipt (repeatable)")
    ap.add_argument("--orders", action="append", default=[], metavar="SHA256",
                    help="the SHA-256 of an orders document from a receipt (repeatable)")
    args = ap.parse_args(argv)
    try:
        meta, rows = load(args.archive)
        seed = bytes.fromhex(args.seed) if args.seed else None
    except (OSError, ValueError) as exc:
        print(f"pbem_verify: cannot read {args.archive}: {exc}", file=sys.stderr)
        return 2
    report = verify(meta, rows, seed, args.witness, args.orders, args.commitment)
    print(f"pbem_verify: game {report.game}, {report.events} events")
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
