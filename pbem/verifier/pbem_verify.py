#!/usr/bin/env python3
"""pbem_verify.py: check a pbem game's log with nothing but Python 3.11+ (docs/trust.md).

Shipped in every game archive. Usage::

    python3 pbem_verify.py ARCHIVE_DIR [--seed HEX] [--commitment HEX] [--witness HASH@N ...]
                           [--orders SHA256 ...]

ARCHIVE_DIR holds ``game.json`` (game id, chain and dice versions, seed commitment,
the seed once the game is over, the log's head) and ``log.jsonl`` (every event row of
the log, one JSON object a line). The verifier checks, and names the first event that
fails and why:

1. the hash chain: every row's number, its link to the row before and its hash
   (chain version 1: SHA-256 of the previous hash and the row's canonical JSON;
   version 2: private data only through its keyed commitment (version 3: with the
   event's seq as nonce, so equal private data never gives equal commitments), whose
   match with the revealed data is checked once the seed is known), whatever the
   event's kind; and that game.json's head is the log's last event;
2. the seed: its SHA-256 is the commitment of the log's first event (``SeedCommitted``),
   of game.json and of ``--commitment`` (copy it from your first report), and a
   ``SeedRevealed`` event names the same seed;
3. a finished game (its seed published, or its end in the log or in game.json) reveals
   everything: the seed, every private event, and a ``SeedRevealed`` event in its log;
   an event withheld there fails, since what it hides (and every roll after it) could
   not be checked;
4. every roll (dice version 2): each ``DiceRolled`` value and each ``Shuffled`` order
   is recomputed from the seed and the logged orders documents (``OrdersAccepted``),
   and the dice of each decision are numbered from 0 without a gap, so no roll was
   dropped, repeated or picked;
5. each witness ``HASH@N`` a player kept from a mail: event N is in the log with that
   hash, so a log rewritten before it (even with every hash recomputed) or cut short
   behind it is caught. Nothing else catches a log cut short: keep the witness of the
   newest mail (after the game, the seed mail's);
6. each ``--orders`` digest (from a receipt): an ``OrdersAccepted`` document has it.
   During the game the orders documents are private, so the digests are checked once
   the game is over.

Exit status: 0 every check passed (notes say what could not be checked yet), 1 a check
failed, 2 the archive could not be read (a file missing, not JSON, not shaped like an
archive) or the command line is wrong: then nothing was checked. It never ends in a
traceback.

Standard library only, on purpose: a player checks the judge without installing the
project (a test imports-checks this file and runs it with ``python3 -I -S``). The JSON
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
DIGEST = re.compile(r"^[0-9a-f]{16,64}$")
"""An orders digest as a receipt gives it: the SHA-256 in full, or its first 16 hex
digits or more (a receipt's first line shows 16)."""
SEED = re.compile(r"^(?:[0-9a-fA-F]{2})+$")
#: the chain versions this verifier knows
CHAINS = (1, 2, 3)
#: the statuses of a game that is over (game.json's ``status``)
ENDED = ("over", "abandoned")
#: the judge's events that end a game: the log of a finished game holds one
END_KINDS = ("SeedRevealed", "GameEnded", "GameAbandoned")
#: the fields of a log.jsonl row, by chain version (1, and 2 and later)
ROW_FIELDS = {1: ("seq", "step", "kind", "public", "seat", "data", "prev_hash", "hash"),
              2: ("seq", "step", "kind", "public", "seat", "data", "prev_hash", "hash", "v", "inbox_id", "secret")}
#: the deepest nesting of an event's data read (the judge's events are far shallower)
MAX_DEPTH = 64


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
    before = len(report.problems)
    for row in rows:
        seq, kind = row.get("seq"), str(row.get("kind"))
        if seq != expected:
            report.problems.append(Problem(seq if isinstance(seq, int) else 0, kind, f"expected event {expected} "
                                           "here: events are missing or out of order"))
        if row.get("prev_hash") != prev:
            report.problems.append(Problem(seq, kind, "its prev_hash is not the hash of the event before"))
        public = bool(row.get("public"))
        if version >= 2 and row.get("v", version) != version:
            report.problems.append(Problem(seq, kind, f"it says chain version {row.get('v')!r}, game.json "
                                                      f"{version}"))
        if version >= 2 and public and row.get("secret") is not None:
            report.problems.append(Problem(seq, kind, "it is public but carries a commitment, which its hash does "
                                                      "not cover"))
        try:
            if version < 2 and not public and row.get("data") is None:
                report.notes.append(f"event {seq} ({kind}) is private and not revealed: its hash is not checked")
            elif row_hash(game, row, version) != row.get("hash"):
                report.problems.append(Problem(seq, kind, "its hash does not match its content: the event was "
                                                          "edited"))
        except (KeyError, TypeError, ValueError) as exc:
            report.problems.append(Problem(seq if isinstance(seq, int) else 0, kind, f"the row is malformed ({exc})"))
        if version >= 2 and not public and key is not None and row.get("data") is not None \
                and commitment(key, row["data"], seq if version >= 3 else None) != row.get("secret"):
            report.problems.append(Problem(seq, kind, "its private data does not match its commitment: the data "
                                                    "was edited"))
        prev = row.get("hash")
        expected = (seq if isinstance(seq, int) else expected) + 1
    if len(report.problems) == before:
        report.passed.append(f"hash chain intact ({len(rows)} events, chain version {version})")


def check_head(report: Report, meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> None:
    """Check 1 (end): game.json's ``head`` (``HASH@N``, written with the log) is the
    log's last event; a log.jsonl that ends earlier was cut short (or is incomplete).
    A missing head claims nothing."""
    head = meta.get("head")
    if not isinstance(head, str):
        return
    last = rows[-1] if rows else None
    if last is not None and head == f"{last.get('hash')}@{last.get('seq')}":
        return
    ends = last.get("seq") if last is not None else 0
    m = WITNESS.match(head)
    if m and isinstance(ends, int) and int(m.group(2)) > ends:
        why = f"log.jsonl ends at event {ends}: the log is incomplete or was cut short"
    else:
        why = f"the log's last event is {str(last.get('hash'))[:12]}…@{ends}: game.json and log.jsonl do not " \
              "belong together" if last is not None else "log.jsonl is empty"
    shown = f"{m.group(1)[:12]}…@{m.group(2)}" if m else repr(head)
    report.problems.append(Problem(0, "", f"game.json names the log's last event {shown}, but {why}"))


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
        if _data(first).get("commitment") != mine:
            report.problems.append(Problem(first["seq"], "SeedCommitted", "the seed's SHA-256 is not this "
                                                                          "commitment"))
    else:
        report.notes.append("the log does not begin with SeedCommitted (a game older than issue 15): the seed is "
                            "checked against game.json's commitment only")
    for row in rows:
        if row.get("kind") == "SeedRevealed" and _data(row).get("seed") != seed.hex():
            report.problems.append(Problem(row["seq"], "SeedRevealed", "it names another seed"))
    if len(report.problems) == before:
        report.passed.append(f"the seed matches the commitment {mine}")


def _data(row: Mapping[str, Any]) -> Mapping[str, Any]:
    """A row's data as a mapping (empty when it is not revealed or not a mapping)."""
    data = row.get("data")
    return data if isinstance(data, Mapping) else {}


def dice_version(meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> Any:
    """The game's dice version: the first event's (``SeedCommitted``, in the chain)
    when the log has it, else game.json's."""
    if rows and rows[0].get("kind") == "SeedCommitted":
        return _data(rows[0]).get("dice")
    return meta.get("dice")


def is_over(meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], seed: bytes | None) -> str | None:
    """Why the game is over, or None while it runs: its seed is known, the log records
    its end (``SeedRevealed``, ``GameEnded``, ``GameAbandoned``), or game.json's status
    says so."""
    if seed is not None:
        return "its seed is published"
    end = next((r for r in rows if r.get("kind") in END_KINDS), None)
    if end is not None:
        return f"the log records its end at event {end.get('seq')} ({end.get('kind')})"
    if meta.get("status") in ENDED:
        return f"game.json says it is {meta['status']}"
    return None


def check_revealed(report: Report, meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                   seed: bytes | None, why: str) -> None:
    """Check 3: a finished game (``why`` says how it is known) publishes its seed and
    every private event, and (dice version 2) its log holds ``SeedRevealed``. A
    private event left unrevealed would stop the dice check where it stands, so a die
    picked after it would pass: it fails here instead."""
    before = len(report.problems)
    if seed is None:
        report.problems.append(Problem(0, "", f"the game is over ({why}), but its seed is not published: a "
                                              "finished game's archive publishes the seed and every event"))
    hidden = [r for r in rows if not r.get("public") and r.get("data") is None]
    for r in hidden:
        report.problems.append(Problem(r.get("seq", 0), str(r.get("kind")), f"it is private and not revealed, but "
                                       f"the game is over ({why}): a finished game's archive reveals every event, "
                                       "so what this one hides (and every roll after it) cannot be checked"))
    if seed is not None and dice_version(meta, rows) == 2 and not any(r.get("kind") == "SeedRevealed" for r in rows):
        report.problems.append(Problem(0, "", "the seed is published, but the log has no SeedRevealed event: a "
                                              "finished game's log ends with it, so this log was cut short"))
    if len(report.problems) == before:
        private = sum(1 for r in rows if not r.get("public"))
        report.passed.append(f"every private event is revealed ({private} events), as a finished game's archive "
                             "must")


def check_dice(report: Report, rows: Sequence[Mapping[str, Any]], seed: bytes) -> None:
    """Check 4 (dice version 2): every ``DiceRolled`` and ``Shuffled`` recomputed from
    the seed and the orders documents before it, numbered from 0 in each decision
    without a gap; stops at the first failure or at the first event not revealed
    (which :func:`check_revealed` fails in a finished game)."""
    context, index = START_CONTEXT, 0
    before = len(report.problems)
    for row in rows:
        kind, data, seq = row.get("kind"), row.get("data"), row.get("seq")
        if kind == "OrdersAccepted":
            if data is None:
                report.notes.append(f"event {seq}: the orders are not revealed, so the rolls from here on are not "
                                    "checked")
                return
            context, index = next_context(context, data), 0
            report.orders += 1
        elif kind in ("DiceRolled", "Shuffled"):
            if data is None:
                report.notes.append(f"event {seq} ({kind}) is not revealed: the rolls from here on are not checked")
                return
            if not isinstance(data, Mapping) or data.get("index") != index:
                shown = data.get("index") if isinstance(data, Mapping) else None
                report.problems.append(Problem(seq, kind, f"its first die is numbered {shown!r}, but {index} is "
                                                          "next in this decision: a roll was dropped, repeated or "
                                                          "picked"))
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
    values = data["values"]
    if not isinstance(values, list):
        raise TypeError(f"its values are {type(values).__name__}, not a list")
    for k, value in enumerate(values):
        want = die(seed, context, step, index + k, data["sides"])
        report.dice += 1
        if value != want:
            report.problems.append(Problem(seq, "DiceRolled", f"die {k + 1} of {data.get('purpose', 'the roll')!r} "
                                                              f"shows {value!r}, but the seed and the logged orders "
                                                              f"give {want}"))
            break
    return index + len(values)


def check_witnesses(report: Report, rows: Sequence[Mapping[str, Any]], witnesses: Iterable[str]) -> None:
    """Check 5: each ``HASH@N`` names an event of the log with that hash. Without a
    witness, a note says what only a witness catches."""
    by_seq = {r.get("seq"): r.get("hash") for r in rows}
    last = rows[-1].get("seq") if rows else 0
    newest = 0
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
            newest = max(newest, seq)
    if not witnesses:
        report.notes.append("no witness given: a log cut short (its newest events removed, or rewritten with every "
                            "hash recomputed) looks intact here; only a witness from a mail catches it. Give the "
                            "witness of the newest mail you have from the judge (--witness HASH@N): the seed mail's "
                            "once the game is over, else the last report's")
    elif newest and isinstance(last, int) and newest < last:
        report.notes.append(f"events {newest + 1} to {last} come after your newest witness: only the chain covers "
                            "them, and a log rewritten there would look intact; a later mail's witness covers them")


def check_orders(report: Report, rows: Sequence[Mapping[str, Any]], digests: Iterable[str],
                 over: bool = True) -> None:
    """Check 6: each digest (from a receipt: the SHA-256 in full, or a prefix of 16 hex
    digits or more that exactly one document has) is the SHA-256 of a logged orders
    document. While the game runs (``over`` False) the documents are private: a digest
    not found among the revealed ones is noted as not checked yet, not failed."""
    found = {orders_digest(r["data"]) for r in rows if r.get("kind") == "OrdersAccepted" and r.get("data") is not None}
    hidden = any(r.get("kind") == "OrdersAccepted" and r.get("data") is None for r in rows)
    for d in digests:
        digest = d.strip().lower().rstrip("….")
        whole = [f for f in found if f.startswith(digest)] if DIGEST.match(digest) else []
        if len(whole) == 1:
            digest = whole[0]
        if not DIGEST.match(digest):
            report.problems.append(Problem(0, "", f"{d!r} is not the SHA-256 of an orders document (64 hex digits, "
                                                  "or at least 16 of its first, from a receipt)"))
        elif digest in found:
            report.passed.append(f"orders document {digest[:12]}… is in the log")
        elif hidden and not over:
            report.notes.append(f"orders document {digest[:12]}… is not checked yet: orders documents are private "
                                "until the game ends; check it again in the archive of the finished game (the seed "
                                "mail carries it)")
        else:
            report.problems.append(Problem(0, "", f"no orders document in the log has the SHA-256 {d} (from a "
                                                  "receipt?): the log does not hold the orders that receipt "
                                                  "confirmed"))


def seed_of(text: Any) -> bytes | None:
    """The seed in ``text`` (hex), or None when it is not a seed in hex."""
    return bytes.fromhex(text) if isinstance(text, str) and SEED.match(text) else None


def verify(meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], seed: bytes | None = None,
           witnesses: Iterable[str] = (), orders: Iterable[str] = (), commitments: Iterable[str] = ()) -> Report:
    """Check a game's log (see the module docstring). ``meta``: game.json (``game``,
    ``chain``, ``dice``, ``seed_commitment``, ``seed``, ``status``, ``head``); ``rows``:
    log.jsonl's lines in order (as :func:`load` reads them); ``seed``: the seed
    (default: game.json's, else the ``SeedRevealed`` event's); ``witnesses``,
    ``orders`` (digests) and ``commitments`` as a player kept them from mails. Never
    raises for a log :func:`load` read: every problem is in the report."""
    game = str(meta.get("game"))
    version = meta.get("chain") or 1
    witnesses, orders, commitments = list(witnesses), list(orders), list(commitments)
    if seed is None:
        seed = seed_of(meta.get("seed"))
    if seed is None:
        seed = next((seed_of(_data(r).get("seed")) for r in rows if r.get("kind") == "SeedRevealed"), None)
    report = Report(game, events=len(rows))
    check_chain(report, game, rows, version, event_key(seed) if seed is not None else None)
    check_head(report, meta, rows)
    over = is_over(meta, rows, seed)
    if over is not None:
        check_revealed(report, meta, rows, seed, over)
    if seed is None:
        report.notes.append("no seed yet (the game is not over): private events are not revealed and the rolls are "
                            "not checked; both are once the game is over (the seed mail carries that archive)")
    else:
        check_seed(report, meta, rows, seed, commitments)
        dice = dice_version(meta, rows)
        if dice == 2:
            check_dice(report, rows, seed)
        else:
            report.notes.append(f"dice version {dice!r}: rolls made from the seed and step alone are not checked "
                                "here")
    check_witnesses(report, rows, witnesses)
    check_orders(report, rows, orders, over is not None)
    return report


class Unreadable(ValueError):
    """The archive's files cannot be read as an archive: the message names the file,
    the line and the field."""


def _json(text: str, what: str) -> Any:
    """``text`` parsed as JSON; raises :class:`Unreadable` naming ``what``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise Unreadable(f"{what} is not JSON (nested too deeply)") from None
    except ValueError as exc:
        raise Unreadable(f"{what} is not JSON ({exc})") from None


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack += [(x, depth + 1) for x in (item.values() if isinstance(item, dict) else item)]
    return deepest


def _is_utf8(value: Any) -> bool:
    """Whether every text in ``value`` can be written in UTF-8 (the hashed form)."""
    try:
        canonical_json(value).encode()
    except UnicodeEncodeError:
        return False
    return True


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_TYPES: dict[str, tuple[str, Any]] = {
    "seq": ("a whole number", _is_int),
    "step": ("a whole number or null", lambda v: v is None or _is_int(v)),
    "kind": ("a text", lambda v: isinstance(v, str)),
    "public": ("true or false", lambda v: isinstance(v, bool)),
    "seat": ("a text or null", lambda v: v is None or isinstance(v, str)),
    "data": ("an object or null", lambda v: v is None or isinstance(v, dict)),
    "prev_hash": ("a text", lambda v: isinstance(v, str)),
    "hash": ("a text", lambda v: isinstance(v, str)),
    "v": ("a whole number", _is_int),
    "inbox_id": ("a whole number or null", lambda v: v is None or _is_int(v)),
    "secret": ("a text or null", lambda v: v is None or isinstance(v, str)),
}


def read_meta(text: str) -> dict[str, Any]:
    """game.json's text as a mapping, its fields checked. Raises :class:`Unreadable`."""
    meta = _json(text, "game.json")
    if not isinstance(meta, dict):
        raise Unreadable("game.json is not a JSON object")
    if not isinstance(meta.get("game"), str):
        raise Unreadable("game.json: `game` (the game's id) is missing or not a text")
    if not _is_utf8(meta):
        raise Unreadable("game.json holds a text no UTF-8 can write (a lone surrogate)")
    chain = meta.get("chain")
    if chain is not None and not _is_int(chain):
        raise Unreadable(f"game.json: `chain` is not a whole number ({chain!r})")
    if (chain or 1) not in CHAINS:
        raise Unreadable(f"game.json: chain version {chain} is not one this verifier knows "
                         f"({', '.join(map(str, CHAINS))}); use the pbem_verify.py of the same archive")
    if meta.get("dice") is not None and not _is_int(meta["dice"]):
        raise Unreadable(f"game.json: `dice` is not a whole number ({meta['dice']!r})")
    if meta.get("seed") is not None and seed_of(meta["seed"]) is None:
        raise Unreadable("game.json: `seed` is not a seed in hex (an even number of digits 0-9 and a-f)")
    for name in ("seed_commitment", "status", "head"):
        if meta.get(name) is not None and not isinstance(meta[name], str):
            raise Unreadable(f"game.json: `{name}` is not a text")
    return meta


def read_rows(text: str, chain: int) -> list[dict[str, Any]]:
    """log.jsonl's text as rows (one JSON object a line; a line ends at LF alone, JSON
    Lines: a U+2028 inside a text is no line end; blank lines skipped), each with
    exactly the fields of its ``chain`` version, of the right types. Raises
    :class:`Unreadable` naming the line."""
    fields = ROW_FIELDS[min(chain, 2)]
    rows = []
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        row = _json(line, f"log.jsonl line {n}")
        if not isinstance(row, dict):
            raise Unreadable(f"log.jsonl line {n} is not a JSON object")
        for name in fields:
            if name not in row:
                raise Unreadable(f"log.jsonl line {n}: `{name}` is missing")
            what, ok = _TYPES[name]
            if not ok(row[name]):
                raise Unreadable(f"log.jsonl line {n}: `{name}` is not {what}")
        extra = sorted(set(row) - set(fields))
        if extra:
            raise Unreadable(f"log.jsonl line {n}: a field a chain version {chain} row does not have: {extra[0]!r}")
        if _depth(row["data"]) > MAX_DEPTH:
            raise Unreadable(f"log.jsonl line {n}: `data` nests deeper than {MAX_DEPTH} levels")
        if not _is_utf8(row):
            raise Unreadable(f"log.jsonl line {n} holds a text no UTF-8 can write (a lone surrogate)")
        rows.append(row)
    return rows


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"{path.name} is not UTF-8 text ({exc})") from None


def load(archive: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(game.json, log.jsonl's rows) of an archive directory, checked by
    :func:`read_meta` and :func:`read_rows`. Raises OSError when a file cannot be
    opened, :class:`Unreadable` (a ValueError) when it is not an archive's."""
    meta = read_meta(_read(archive / "game.json"))
    return meta, read_rows(_read(archive / "log.jsonl"), meta.get("chain") or 1)


def _tolerant_output() -> None:
    """Let stdout and stderr write any text (a game id or path no encoding can write
    is escaped, never a crash)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (module docstring); returns the exit status."""
    _tolerant_output()
    ap = argparse.ArgumentParser(prog="pbem_verify.py", description="Check a pbem game's log: hash chain, seed, "
                                 "every roll, witnesses (docs/trust.md). Exit status: 0 every check passed, 1 a "
                                 "check failed, 2 the archive could not be read.")
    ap.add_argument("archive", type=Path, help="the archive directory (game.json and log.jsonl)")
    ap.add_argument("--seed", help="the seed in hex, from the seed mail (default: game.json's, once the game is "
                                   "over)")
    ap.add_argument("--commitment", action="append", default=[], metavar="HEX",
                    help="the seed commitment printed in your first report (repeatable)")
    ap.add_argument("--witness", action="append", default=[], metavar="HASH@N",
                    help="a log witness from a mail; give the newest you have (repeatable)")
    ap.add_argument("--orders", action="append", default=[], metavar="SHA256",
                    help="the SHA-256 of an orders document from a receipt (in full, or its first 16 hex "
                         "digits or more, as the receipt's first line shows them), checked once the game is over "
                         "(repeatable)")
    args = ap.parse_args(argv)
    seed = seed_of(args.seed.strip()) if args.seed else None
    if args.seed and seed is None:
        ap.error("--seed is not a seed in hex (an even number of digits 0-9 and a-f)")
    try:
        meta, rows = load(args.archive)
    except (OSError, Unreadable) as exc:
        print(f"pbem_verify: cannot read {args.archive}: {exc}; nothing was checked.", file=sys.stderr)
        return 2
    try:
        report = verify(meta, rows, seed, args.witness, args.orders, args.commitment)
    except Exception as exc:  # noqa: BLE001 - a player gets a sentence, never a traceback
        print(f"pbem_verify: cannot read {args.archive}: the verifier hit an unexpected {type(exc).__name__} "
              f"({exc}), a bug of the verifier: please report it; nothing was checked.", file=sys.stderr)
        return 2
    print(f"pbem_verify: game {report.game}, {report.events} events")
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
