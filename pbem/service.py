"""The judge: wires mail, store, rules and reports (ARCHITECTURE.md, "The flow of one
order email").

One order mail is handled in one database transaction: the raw message and its
Message-ID are recorded together with the events it caused, the new snapshot and the
outgoing mail (outbox). The IMAP move/flag happens after the commit (pbem.mail.imap), and
SMTP sending reads the outbox afterwards (pbem.mail.smtp), so a crash at any point
neither loses a message nor applies it twice.
"""
from __future__ import annotations

import difflib
import hashlib
import imaplib
import json
import logging
import re
import secrets
import socket
import ssl
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

import yaml
from imapclient.exceptions import IMAPClientError

from pbem import rules
from pbem.config import Config, GameConfig
from pbem.keys import verify_key
from pbem.mail.compose import Attachment, compose, stable_message_id
from pbem.mail.imap import ImapPoller
from pbem.mail.message import ParsedMail, parse_mail
from pbem.mail.smtp import send_due
from pbem.mail.suggest import suggest
from pbem.pack.loader import load_pack
from pbem.pack.model import Pack
from pbem.report import build
from pbem.report.history import history_reply
from pbem.rules.dice import Dice, seed_commitment
from pbem.store import Store

log = logging.getLogger(__name__)

ENVELOPE_KEYS = ("game", "seat", "key", "step", "orders")
HISTORY_KEYS = ("game", "seat", "key", "history")


def now_utc() -> datetime:
    """The current time, UTC, whole seconds."""
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class Issue:
    """One problem reported to a sender (envelope, authentication or rules)."""

    message: str
    where: str | None = None
    rule: str | None = None
    hint: str | None = None
    line: int | None = None
    code: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe form (stored in the inbox row's result)."""
        return {"code": self.code, "message": self.message, "where": self.where, "rule": self.rule,
                "hint": self.hint, "line": self.line}


@lru_cache(maxsize=8)
def _pack(source: str) -> Pack:
    pack = load_pack(None if source == "builtin" else source)
    return pack


@dataclass
class Judge:
    """The adjudication service for every game in ``config``.

    ``clock`` returns the current UTC time (tests pass a fake one).
    """

    config: Config
    store: Store
    clock: Callable[[], datetime] = now_utc
    new_seed: Callable[[], bytes] = lambda: secrets.token_bytes(32)  # tests fix it
    _domain: str = field(init=False)

    def __post_init__(self) -> None:
        self._domain = self.config.judge_address.rsplit("@", 1)[1]

    # -- games ----------------------------------------------------------------------------
    def pack_for(self, game_id: str) -> Pack:
        """The data pack a game uses (built-in or an exported directory)."""
        row = self.store.game(game_id)
        return _pack(row["pack"] if row else "builtin")

    def state(self, game_id: str) -> rules.GameState:
        """The live state of a game (its latest snapshot). Raises KeyError if unknown."""
        snap = self.store.snapshot(game_id)
        if snap is None:
            raise KeyError(game_id)
        return rules.GameState.from_dict(snap[1], self.pack_for(game_id))

    def ensure_games(self) -> list[str]:
        """Create every configured game that is not in the database yet (setup R-2, first
        prompts), and sync seat names/addresses/key hashes from the config. Returns the
        ids created."""
        created = []
        for game in self.config.games:
            row = self.store.game(game.id)
            if row is None:
                self._create_game(game)
                created.append(game.id)
            else:
                with self.store.transaction():
                    for s in game.seats:
                        self.store.db["seats"].update((game.id, s.seat), {
                            "player": s.player, "email": s.email, "key_hash": s.key_hash})
        return created

    def _create_game(self, game: GameConfig) -> None:
        pack = _pack(game.pack)
        seed = self.new_seed()
        state, events = rules.new_game(pack, seed, dict(game.options))
        with self.store.transaction():
            self.store.create_game(game.id, game.pack, seed, seed_commitment(seed), game.options,
                                   [{"seat": s.seat, "player": s.player, "email": s.email,
                                     "key_hash": s.key_hash} for s in game.seats])
            seq = self.store.append_events(game.id, [e.to_dict() for e in events], step=0)
            initial = rules.empty_state(pack)
            self.store.save_snapshot(game.id, 0, -1, initial.to_dict())
            self.store.save_snapshot(game.id, seq, state.step, state.to_dict())
            self.store.set_game_step(game.id, state.step)
            self._queue_reports(game.id, pack, state, events, headline="setup, the game begins",
                                in_reply_to=None, actor=None)
            self._queue_prompts(game.id, pack, state)

    # -- one message ----------------------------------------------------------------------
    def handle_message(self, raw: bytes, uidvalidity: int | None = None, uid: int | None = None,
                       folder: str = "INBOX") -> str:
        """Process one raw message; return its status (applied, rejected, ignored, held,
        duplicate). Commits before returning; never raises for bad input."""
        # Loops are recognised by our From address and our X-Pbem-Loop header; not by the
        # Message-ID domain, which players on the same domain as the judge share.
        parsed = parse_mail(raw, own_addresses=[self.config.judge_address])
        if self.store.inbox_by_message_id(parsed.message_id) is not None:
            return "duplicate"
        try:
            with self.store.transaction():
                return self._handle(parsed, raw, uidvalidity, uid, folder)
        except Exception as exc:
            log.exception("internal error on %s", parsed.message_id)
            with self.store.transaction():
                self.store.record_inbox(message_id=parsed.message_id, raw=raw, uidvalidity=uidvalidity,
                                        uid=uid, folder=folder, sender=parsed.sender,
                                        subject=parsed.subject, status="error",
                                        reason=f"{type(exc).__name__}: {exc}")
                self._reply(parsed, [Issue("The judge hit an internal error reading this mail. It is "
                                           "kept and the host has been told; nothing in the game changed.",
                                           code="internal")], None)
            return "error"

    def _record(self, parsed: ParsedMail, raw: bytes, uidvalidity: int | None, uid: int | None,
                folder: str, status: str, reason: str = "", **kw: Any) -> int:
        return self.store.record_inbox(message_id=parsed.message_id, raw=raw, uidvalidity=uidvalidity,
                                       uid=uid, folder=folder, sender=parsed.sender, subject=parsed.subject,
                                       status=status, reason=reason, **kw)

    def _handle(self, parsed: ParsedMail, raw: bytes, uidvalidity: int | None, uid: int | None,
                folder: str) -> str:
        rec = lambda status, reason="", **kw: self._record(parsed, raw, uidvalidity, uid, folder,
                                                           status, reason, **kw)
        if parsed.action == "ignore":
            rec("ignored", parsed.ignore_reason or "")
            for address in parsed.bouncing:
                for game_id, seat in self.store.mark_bouncing(address):
                    self._notify_host(game_id, f"Mail to seat {seat} ({address}) bounced: the address is "
                                      "marked as bouncing. Ask the player for a working address and "
                                      "update the config.", kind="bounce")
            return "ignored"
        if parsed.action == "reject":
            issues = [Issue(p.message, line=p.line, hint=p.hint, code=p.code) for p in parsed.problems]
            mine = self._your_block(parsed.sender)
            if mine:  # the sender's own envelope instead of the generic example
                issues = [replace(i, hint=mine) if i.code == "mail.no_orders" else i for i in issues]
            iid = rec("rejected", issues[0].code if issues else "", result=[i.as_dict() for i in issues])
            if not self._reply(parsed, issues, None):
                self._suppressed(iid, parsed.sender)
            return "rejected"

        doc = parsed.document or {}
        shown = _mask_key(doc)
        if "history" in doc:
            return self._history(parsed, doc, rec, shown)
        issues, game_id, seat = self._check_envelope(parsed, doc)
        if issues == "held":
            rec("held", "sender not registered for the seat", game_id=game_id, seat=seat,
                result={"document": shown})
            return "held"
        if issues:
            return self._reject(parsed, rec, issues, game_id, seat, {"document": shown})

        assert game_id is not None and seat is not None
        pack = self.pack_for(game_id)
        state = self.state(game_id)
        orders = doc["orders"]
        rejections = rules.validate(state, seat, orders)
        if rejections:
            issues = [Issue(r.message, where=r.where, rule=r.rule, hint=r.hint, code=r.code)
                      for r in rejections]
            return self._reject(parsed, rec, issues, game_id, seat, {"document": shown, "orders": orders},
                                step=state.step)
        previous = self._previous_orders(game_id, seat, state.step)
        inbox_id = rec("applied", "", game_id=game_id, seat=seat, step=state.step,
                       result={"document": shown, "orders": orders})
        self._apply(game_id, pack, state, seat, orders, inbox_id=inbox_id, parsed=parsed, previous=previous)
        return "applied"

    def _your_block(self, sender: str | None) -> str | None:
        """For a mail with no orders from a registered address: the envelope to copy for
        each game the address plays (game, seat, the step now, a key placeholder) and
        whose decision the game waits for; None for unknown senders (PBEM workflow,
        docs/pipeline.md)."""
        if not sender:
            return None
        parts: list[str] = []
        for row in self.store.db["seats"].rows_where("email = ?", [sender], order_by="game_id, seat"):
            game = self.store.game(row["game_id"])
            if game is None or game.get("status") == "over":
                continue
            state = self.state(row["game_id"])
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

    def _reject(self, parsed: ParsedMail, rec: Callable[..., int], issues: Sequence[Issue], game_id: str | None,
                seat: str | None, result: Mapping[str, Any], **fields: Any) -> str:
        """Record a rejected mail (with every problem) and answer the sender; nothing in
        the game changes."""
        iid = rec("rejected", issues[0].code, game_id=game_id, seat=seat,
                  result={**result, "problems": [i.as_dict() for i in issues]}, **fields)
        if not self._reply(parsed, issues, game_id, orders_text=parsed.orders_text):
            self._suppressed(iid, parsed.sender)
        return "rejected"

    def _history(self, parsed: ParsedMail, doc: Mapping[str, Any], rec: Callable[..., int],
                 shown: Mapping[str, Any]) -> str:
        """A seat asks for a past report: ``{game, seat, key, history: N | all}``.
        Sender and key are checked as for orders; the answer is that seat's own view."""
        issues, game_id, seat = self._check_envelope(parsed, doc, keys=HISTORY_KEYS)
        if issues == "held":
            rec("held", "history request from an unregistered sender", game_id=game_id, seat=seat)
            return "held"
        wanted = doc.get("history")
        if not issues and not (wanted == "all" or (isinstance(wanted, int) and not isinstance(wanted, bool))):
            issues = [Issue(f"`history` must be a step number or `all`; found {wanted!r}.", where="history",
                            code="history.value", hint="e.g. `history: 3` or `history: all`")]
        if issues:
            return self._reject(parsed, rec, issues, game_id, seat, {"document": shown})
        assert game_id is not None and seat is not None
        subject, text, html = history_reply(self.store, game_id, seat, None if wanted == "all" else wanted)
        iid = rec("answered", "history", game_id=game_id, seat=seat, result={"document": shown})
        if not self._rate_ok(parsed.sender):
            self._suppressed(iid, parsed.sender)
        else:
            self._queue(game_id=game_id, kind="reply", to_addr=parsed.sender, to_name=parsed.sender_name or None,
                        subject=subject, text=text, html=html, id_parts=(game_id, "history", parsed.message_id),
                        in_reply_to=parsed.message_id, references=parsed.references, auto="auto-replied")
        return "answered"

    def _check_envelope(self, parsed: ParsedMail, doc: Mapping[str, Any], keys: Sequence[str] = ENVELOPE_KEYS
                        ) -> tuple[list[Issue] | str, str | None, str | None]:
        """Check game, seat, key, sender and (for orders) step: PBEM workflow, see
        docs/pipeline.md. Returns (issues or "held", game id, seat)."""
        issues: list[Issue] = []
        for key in keys:
            if key == "step" and _standing_only(doc.get("orders")):
                continue  # standing orders may come at any time, with or without a step
            if key not in doc:
                issues.append(Issue(f"The orders block has no `{key}:` line.", where=key, code="envelope.missing",
                                    hint="Start from the YAML template in your last prompt mail."))
        extra = [k for k in doc if k not in keys and k != "notes"]
        for k in extra:
            near = suggest(str(k), [*keys, "notes"])
            issues.append(Issue(f"Unknown top-level key `{k}`; allowed: {', '.join(keys)}, notes.",
                                where=str(k), code="envelope.unknown_key",
                                hint=f"did you mean `{near}`?" if near else None))
        game_id = doc.get("game")
        if not isinstance(game_id, str) or self.store.game(game_id) is None:
            mine = sorted({r["game_id"] for r in self.store.db["seats"].rows_where("email = ?", [parsed.sender])})
            hint = f"Your games here: {', '.join(mine)}." if mine else "Check the game id in your prompt mail."
            if "game" in doc:
                shown = game_id if isinstance(game_id, str) else yaml.safe_dump(game_id, default_flow_style=True).strip()
                issues.append(Issue(f"There is no game {shown!r} on this judge.", where="game",
                                    code="envelope.unknown_game", hint=hint))
            return issues, None, None
        seats = {s["seat"]: s for s in self.store.seats(game_id)}
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
                self._alert_seat(game_id, row, parsed)
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
        if "step" not in keys:
            return issues, game_id, seat
        if _standing_only(doc.get("orders")):
            return issues, game_id, seat  # standing orders may come at any time
        state = self.state(game_id)
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
        return issues, game_id, seat

    # -- applying ---------------------------------------------------------------------------
    def _previous_orders(self, game_id: str, seat: str, step: int) -> Mapping[str, Any] | None:
        """The orders of the seat's latest earlier submission for the same step (a
        rejected one), for the receipt's "what changed" section."""
        rows = list(self.store.db["inbox"].rows_where(
            "game_id = ? AND seat = ? AND step = ? AND result IS NOT NULL", [game_id, seat, step],
            order_by="id DESC", limit=1))
        if not rows:
            return None
        result = json.loads(rows[0]["result"])
        return result.get("orders") if isinstance(result, dict) else None

    def _apply(self, game_id: str, pack: Pack, state: rules.GameState, seat: str,
               orders: Mapping[str, Any], inbox_id: int | None, parsed: ParsedMail | None,
               by_deadline: bool = False, previous: Mapping[str, Any] | None = None) -> rules.GameState:
        seed = bytes.fromhex(self.store.game(game_id)["seed"])
        dice = Dice(seed, state.step)
        new_state, events = rules.apply(state, seat, orders, dice)
        seq = self.store.append_events(game_id, [e.to_dict() for e in events], step=state.step,
                                       inbox_id=inbox_id)
        self.store.save_snapshot(game_id, seq, new_state.step, new_state.to_dict())
        if new_state.step == state.step:  # no decision taken (standing orders): nothing to report
            if parsed is not None:
                waits = next((d for d in rules.pending(new_state) if d.seat == seat), None)
                note = ("Your standing orders are recorded; they act when the rules offer the "
                        "choice (R-9.3). No turn report follows.")
                if waits is not None:
                    note += (f"\nThe game still waits for your answer to the "
                             f"{waits.kind.replace('_', ' ')} decision of step {new_state.step}.")
                self._receipt(parsed, game_id, seat, state.step, orders, previous, note=note)
            return new_state
        self.store.set_game_step(game_id, new_state.step,
                                 status="over" if not rules.pending(new_state) else None)
        if parsed is not None:
            self._receipt(parsed, game_id, seat, state.step, orders, previous)
        headline = f"{seat} played" + (" (deadline default)" if by_deadline else "")
        self._queue_reports(game_id, pack, new_state, events, headline=headline,
                            in_reply_to=None, actor=seat, step=state.step)
        self._queue_prompts(game_id, pack, new_state)
        return new_state

    # -- outgoing mail ----------------------------------------------------------------------
    def _queue(self, *, game_id: str | None, kind: str, to_addr: str, to_name: str | None, subject: str,
               text: str, html: str | None, id_parts: Sequence[object], attachments: Sequence[Attachment] = (),
               in_reply_to: str | None = None, references: Sequence[str] = (),
               auto: str = "auto-generated") -> None:
        message_id = stable_message_id(self._domain, *id_parts)
        if self.store.db.execute("SELECT 1 FROM outbox WHERE message_id = ?", [message_id]).fetchone():
            return
        out = compose(sender=self.config.judge_address, sender_name=self.config.judge_name, to_addr=to_addr,
                      to_name=to_name, subject=subject, text=text, html=html, attachments=attachments,
                      message_id=message_id, kind=kind, in_reply_to=in_reply_to, references=references,
                      auto=auto, game_id=game_id, date=self.clock())
        self.store.queue_mail(message_id=out.message_id, game_id=game_id, kind=kind, to_addr=out.to_addr,
                              subject=subject, raw=out.raw, in_reply_to=in_reply_to)

    def _rate_ok(self, address: str | None) -> bool:
        """Whether one more answer may go to ``address`` this hour: at most
        ``seat_reply_rate_per_hour`` to an address registered for a seat, and
        ``reply_rate_per_hour`` to any other (mail loops, strangers; docs/pipeline.md)."""
        if not address:
            return False
        since = (self.clock() - timedelta(hours=1)).isoformat()
        seat = self.store.db.execute("SELECT 1 FROM seats WHERE email = ? LIMIT 1", [address]).fetchone()
        limit = self.config.seat_reply_rate_per_hour if seat else self.config.reply_rate_per_hour
        return self.store.replies_to(address, since) < limit

    def _suppressed(self, inbox_id: int, address: str | None) -> None:
        """Record that the answer to inbox row ``inbox_id`` was not sent (rate limit):
        a warning in the log and ``answer: suppressed`` in the row's reason, shown by
        ``pbem status``."""
        log.warning("answer to %s (inbox %s) not sent: reply rate limit reached", address, inbox_id)
        row = self.store.db["inbox"].get(inbox_id)
        self.store.db["inbox"].update(inbox_id, {"reason": f"{row['reason']} (answer suppressed: rate limit)"
                                                 .strip()})

    def _reply(self, parsed: ParsedMail, issues: Sequence[Issue], game_id: str | None,
               orders_text: str | None = None) -> bool:
        """Answer a sender with every problem found (rate-limited per address); False
        when the answer was suppressed by the rate limit."""
        if not self._rate_ok(parsed.sender):
            return False
        text = build.render_rejection(parsed.subject, [i.as_dict() for i in issues], game_id,
                                      _KEY_LINE.sub(r"\1(hidden)", orders_text) if orders_text else None)
        self._queue(game_id=game_id, kind="reply", to_addr=parsed.sender, to_name=parsed.sender_name or None,
                    subject=_re(parsed.subject), text=text, html=build.html_of_text("Orders not applied", text),
                    id_parts=(game_id or "judge", "reply", parsed.message_id), in_reply_to=parsed.message_id,
                    references=parsed.references, auto="auto-replied")
        return True

    def _receipt(self, parsed: ParsedMail, game_id: str, seat: str, step: int, orders: Mapping[str, Any],
                 previous: Mapping[str, Any] | None = None, note: str | None = None) -> None:
        orders_yaml = yaml.safe_dump({"orders": dict(orders)}, sort_keys=False, allow_unicode=True)
        digest = hashlib.sha256(orders_yaml.encode()).hexdigest()
        changes = None
        if previous is not None:  # both sides in one key order, so only real changes show
            before, after = (yaml.safe_dump({"orders": dict(o)}, sort_keys=True, allow_unicode=True)
                             for o in (previous, orders))
            diff = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                                "your previous submission", "these orders", n=1))
            changes = ("Changed from your previous submission for this step:\n\n" + diff) if diff else \
                "Same orders as your previous submission for this step.\n"
        text = build.render_receipt(game_id, step, seat, orders_yaml, digest, note=note, changes=changes)
        self._queue(game_id=game_id, kind="reply", to_addr=parsed.sender, to_name=parsed.sender_name or None,
                    subject=_re(parsed.subject), text=text, html=build.html_of_text("Orders accepted", text),
                    id_parts=(game_id, "receipt", parsed.message_id), in_reply_to=parsed.message_id,
                    references=parsed.references, auto="auto-replied")

    def _alert_seat(self, game_id: str, row: Mapping[str, Any], parsed: ParsedMail) -> None:
        body = (f"A mail from {parsed.sender} carried the correct key for your seat {row['seat']} in "
                f"{game_id} (subject: {parsed.subject!r}). It was held, not applied: orders are accepted "
                "only from your registered address. If you sent it, send it again from this address; if "
                "not, your key may be known to someone else: ask the host for a new one.")
        self._queue(game_id=game_id, kind="alert", to_addr=row["email"], to_name=row["player"],
                    subject=f"[{game_id}] held: orders for your seat from another address",
                    text=build.render_notice(body, game_id), html=None,
                    id_parts=(game_id, "held", parsed.message_id))
        self._notify_host(game_id, f"A mail from {parsed.sender} carried the correct key for seat {row['seat']} "
                          f"({row['player']}, registered as {row['email']}) in {game_id} (subject: "
                          f"{parsed.subject!r}). It was held, not applied, and the player was alerted at the "
                          "registered address. If the player changed address, update the config; if not, "
                          "the key may be known to someone else: give the seat a new key (`pbem key new`).",
                          kind="held")

    def _notify_host(self, game_id: str, body: str, kind: str) -> None:
        game = self.config.game(game_id)
        if game is None or not game.host_email:
            log.warning("[%s] %s", game_id, body)
            return
        digest = hashlib.sha256(body.encode()).hexdigest()[:12]
        self._queue(game_id=game_id, kind="host", to_addr=game.host_email, to_name=None,
                    subject=f"[{game_id}] host notice: {kind}", text=build.render_notice(body, game_id),
                    html=None, id_parts=(game_id, "host", kind, digest))

    def _queue_reports(self, game_id: str, pack: Pack, state: rules.GameState, events: Sequence[rules.Event],
                       headline: str, in_reply_to: str | None, actor: str | None, step: int | None = None) -> None:
        step = state.step if step is None else step
        seats = self.store.seats(game_id)
        commitment = self.store.game(game_id)["seed_commitment"]
        png = build.map_png(pack, state, events, title=f"{game_id} step {step}",
                            players={r["seat"]: r["player"] for r in seats}) if self.config.map_attachment else None
        # two reports can share a step (setup, then the first player-turn): the picture's
        # hash keeps each Content-ID unique (RFC 2392)
        cid = f"map.{game_id}.step{step}.{hashlib.sha256(png).hexdigest()[:12]}@{self._domain}" if png else None
        for row in seats:
            rep = build.render_report(pack, state, events, game_id=game_id, step=step, seat=row["seat"],
                                      seats=seats, headline=headline, seed_commitment=commitment, map_cid=cid)
            self._queue(game_id=game_id, kind="report", to_addr=row["email"], to_name=row["player"],
                        subject=f"[{game_id}] step {step} report: {headline}", text=rep.text, html=rep.html,
                        attachments=[Attachment(f"{game_id}-step{step}.png", png, cid=cid)] if png else [],
                        id_parts=(game_id, step, "report", row["seat"], headline))

    def _queue_prompts(self, game_id: str, pack: Pack, state: rules.GameState) -> None:
        seats = {s["seat"]: s for s in self.store.seats(game_id)}
        for decision in rules.pending(state):
            due = self.clock() + timedelta(seconds=self._deadline_length(decision.kind))
            row = seats[decision.seat]
            text, html = build.render_prompt(pack, state, decision, game_id=game_id, seat_row=row,
                                             deadline=due.strftime("%Y-%m-%d %H:%M UTC"), seats=list(seats.values()))
            self._queue(game_id=game_id, kind="prompt", to_addr=row["email"], to_name=row["player"],
                        subject=f"[{game_id}] step {state.step}: your move, {decision.seat}", text=text, html=html,
                        id_parts=(game_id, state.step, "prompt", decision.seat))
            self.store.db["deadlines"].insert({"game_id": game_id, "step": state.step, "seat": decision.seat,
                                               "kind": decision.kind, "due_at": due.isoformat(),
                                               "reminded_at": None, "expired_at": None}, replace=True)

    # -- time ---------------------------------------------------------------------------------
    def _deadline_length(self, kind: str) -> float:
        """Seconds a seat has for a decision of ``kind``: ``deadlines.<kind>`` when the
        config names the kind, else ``deadlines.player_turn`` for player-turns and
        reinforcements and the turn order (R-6.1), and ``deadlines.reaction`` for reaction
        windows (R-9.3: intercept, avoid_battle, naval_battle, inside_join). See
        docs/pipeline.md."""
        dl = self.config.deadlines
        if kind in dl:
            return dl[kind]
        if kind in ("player_turn", "reinforcements", "turn_order"):
            return dl.get("player_turn", 72 * 3600)
        return dl.get("reaction", 24 * 3600)

    def tick(self) -> int:
        """Send reminders and apply deadline defaults that are due; return how many
        decisions were decided by default. Each is its own transaction."""
        now = self.clock()
        done = 0
        rows = list(self.store.db["deadlines"].rows_where("expired_at IS NULL", order_by="due_at"))
        for row in rows:
            due = datetime.fromisoformat(row["due_at"])
            # the reminder comes deadlines.reminder before the deadline, at most halfway
            remind = timedelta(seconds=min(self.config.deadlines.get("reminder", 24 * 3600),
                                           self._deadline_length(row["kind"]) / 2))
            game = self.store.game(row["game_id"])
            if game is None or game["step"] != row["step"]:
                self.store.db["deadlines"].update((row["game_id"], row["step"], row["seat"]),
                                                  {"expired_at": now.isoformat()})
                continue
            if now >= due:
                with self.store.transaction():
                    state = self.state(row["game_id"])
                    decision = next((d for d in rules.pending(state) if d.seat == row["seat"]), None)
                    self.store.db["deadlines"].update((row["game_id"], row["step"], row["seat"]),
                                                      {"expired_at": now.isoformat()})
                    if decision is not None and state.step == row["step"]:
                        self._apply(row["game_id"], self.pack_for(row["game_id"]), state, row["seat"],
                                    decision.default, inbox_id=None, parsed=None, by_deadline=True)
                        done += 1
            elif row["reminded_at"] is None and now >= due - remind:
                with self.store.transaction():
                    seat = next(s for s in self.store.seats(row["game_id"]) if s["seat"] == row["seat"])
                    self._queue(game_id=row["game_id"], kind="reminder", to_addr=seat["email"],
                                to_name=seat["player"],
                                subject=f"[{row['game_id']}] reminder: step {row['step']} is due {row['due_at']}",
                                text=build.render_notice(
                                    f"Your orders for step {row['step']} are due at {row['due_at']}. "
                                    "Without them the judge applies the default shown in your prompt.",
                                    row["game_id"]), html=None,
                                id_parts=(row["game_id"], row["step"], "reminder", row["seat"]))
                    self.store.db["deadlines"].update((row["game_id"], row["step"], row["seat"]),
                                                      {"reminded_at": now.isoformat()})
        return done

    def flush_outbox(self) -> tuple[int, int]:
        """Send due outbox rows over SMTP; return (sent, failed attempts)."""
        return send_due(self.store, self.config.smtp, self.config.judge_address, self.clock())


_KEY_LINE = re.compile(r"(?m)^(\s*key\s*:\s*).*$")


def _mask_key(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document with the seat key hidden (what we store and echo)."""
    return {k: ("(hidden)" if k == "key" else v) for k, v in doc.items()}


def _standing_only(orders: Any) -> bool:
    """True for orders that only set standing orders (R-9.3), which any seat may send at
    any time: they answer no prompt, so neither the step nor the turn is checked."""
    return isinstance(orders, Mapping) and set(orders) <= {"standing", "step"} and "standing" in orders


def _re(subject: str) -> str:
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


NETWORK_ERRORS = (IMAPClientError, imaplib.IMAP4.abort, imaplib.IMAP4.error, OSError, socket.timeout,
                  ssl.SSLError, EOFError)


def run_once(judge: Judge, poller: ImapPoller) -> dict[int, str]:
    """One full cycle: connect if needed, reconcile and fetch, deadlines, send mail.
    Returns the statuses of the messages handled. Network errors propagate."""
    if poller.client is None:
        poller.connect()
        handled = poller.poll_once(reconcile=True).handled
    else:
        handled = poller.poll_once().handled
    judge.tick()
    judge.flush_outbox()
    return handled


def run_forever(judge: Judge, poller: ImapPoller, stop: threading.Event | None = None,
                max_backoff: float = 300.0) -> None:
    """Poll until ``stop`` is set: wait with IDLE (or sleep+NOOP) between cycles and
    reconnect with exponential backoff when the server drops the connection."""
    stop = stop or threading.Event()
    backoff = 1.0
    while not stop.is_set():
        try:
            handled = run_once(judge, poller)
            if handled:
                log.info("handled %s", handled)
            backoff = 1.0
            poller.wait(judge.config.imap.poll_interval)
        except NETWORK_ERRORS as exc:
            log.warning("mail server problem (%s: %s); reconnecting in %.0fs", type(exc).__name__, exc, backoff)
            poller.close()
            try:
                judge.flush_outbox()
            except Exception:
                log.exception("outbox flush failed")
            stop.wait(backoff)
            backoff = min(backoff * 2, max_backoff)
    poller.close()


def make_judge(config: Config) -> tuple[Judge, ImapPoller]:
    """Open the store and build the judge and its poller for ``config``."""
    store = Store(config.database)
    judge = Judge(config, store)
    poller = ImapPoller(config.imap, store, judge.handle_message)
    return judge, poller


__all__ = ["Issue", "Judge", "make_judge", "run_forever", "run_once"]
