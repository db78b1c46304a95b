"""The ``outbox`` table: every composed message, unique by its stable Message-ID, with
its SMTP attempts, last error and next attempt time. Attachment bodies are stored once
for all the rows that share them and the rest compressed (:mod:`pbem.store.blobs`);
every method that returns ``raw`` returns it whole."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.addresses import fold_address
from pbem.store.base import utcnow
from pbem.store.blobs import BlobsTable, pack, split


class OutboxTable(BlobsTable):
    """Outgoing mail (mixed into :class:`pbem.store.Store`)."""

    def has_mail(self, message_id: str) -> bool:
        """True when a message with this Message-ID is already queued (or sent)."""
        return self.db.execute("SELECT 1 FROM outbox WHERE message_id = ?", [message_id]).fetchone() is not None

    def queue_mail(self, *, message_id: str, game_id: str | None, kind: str, to_addr: str,
                   subject: str, raw: bytes, in_reply_to: str | None = None, at: str | None = None,
                   bodies: Sequence[bytes] | None = None, answer_digest: str | None = None,
                   urgent: bool = False) -> int:
        """Add a composed message to the outbox (status pending, due at once); return its
        id. ``at``: the time it is queued (ISO 8601 UTC; default now). Its attachment
        bodies (``bodies``: as they appear in ``raw``; found by parsing when None) go to
        ``blobs`` once (:func:`pbem.store.blobs.split`). ``answer_digest``: an
        answer's :func:`pbem.service.outgoing.ratelimit.answer_digest`; ``urgent``: a
        refusal sent past the sender's hourly limit (issue 24 B/N2)."""
        now = at or utcnow()
        skeleton, shared = split(raw, bodies)
        outbox_id = self.db["outbox"].insert({
            "message_id": message_id, "game_id": game_id, "kind": kind, "to_addr": to_addr,
            "subject": subject, "raw": pack(skeleton), "in_reply_to": in_reply_to, "status": "pending",
            "attempts": 0, "last_error": None, "next_attempt_at": now, "created_at": now,
            "sent_at": None, "answer_digest": answer_digest, "urgent": 1 if urgent else None}).last_pk
        self.store_blobs(outbox_id, shared, at=now)
        return outbox_id

    def due_mail(self, now: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Pending outbox rows whose next attempt is due, oldest first, at most ``limit``;
        rows to the address of a seat marked bouncing wait (issue 25, finding 12: they
        went on to the dead address) until the mark is cleared."""
        return self.with_bodies(self.db["outbox"].rows_where(
            "status = 'pending' AND next_attempt_at <= ? AND kind != 'webhook' AND to_addr NOT IN "
            "(SELECT email FROM seats WHERE bouncing = 1)", [now or utcnow()], order_by="id", limit=limit))

    def due_webhooks(self, now: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Pending webhook rows (kind ``webhook``, issue 29.5: ``to_addr`` the URL, ``raw``
        the JSON body) whose next attempt is due, oldest first, at most ``limit``."""
        return self.with_bodies(self.db["outbox"].rows_where(
            "status = 'pending' AND next_attempt_at <= ? AND kind = 'webhook'", [now or utcnow()], order_by="id",
            limit=limit))

    def oldest_due_unsent(self, now: str | None = None) -> str | None:
        """``created_at`` of the oldest pending row that is due and not held back for a
        bouncing seat (what :meth:`due_mail` would offer first), or None: the age of the
        outbox's backlog for a health check (issue 30)."""
        row = self.db.execute(
            "SELECT min(created_at) FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? AND kind != 'webhook' AND to_addr "
            "NOT IN (SELECT email FROM seats WHERE bouncing = 1)", [now or utcnow()]).fetchone()
        return row[0] if row else None

    def drop_held_mail(self, game_id: str, address: str, reason: str) -> int:
        """Give up the pending rows of ``game_id`` to ``address`` (a bouncing seat's old
        address, now replaced): status failed with ``reason``, never offered to the dead
        address; ``pbem outbox resend`` can still send them. Returns how many."""
        return self.db.execute(
            "UPDATE outbox SET status = 'failed', last_error = ? WHERE status = 'pending' AND game_id = ? "
            "AND to_addr = ?", [reason[:500], game_id, fold_address(address)]).rowcount

    def mark_sent(self, outbox_id: int) -> None:
        """Record a successful SMTP hand-over; drop the attachment bodies no unsent row
        needs any more (:meth:`drop_sent_blobs`)."""
        self.db["outbox"].update(outbox_id, {"status": "sent", "sent_at": utcnow(), "last_error": None})
        self.drop_sent_blobs(outbox_id)

    def mark_attempt_failed(self, outbox_id: int, error: str, next_attempt_at: str | None) -> None:
        """Count a failed attempt; ``next_attempt_at`` None gives up (status failed)."""
        row = self.db["outbox"].get(outbox_id)
        values: dict[str, Any] = {"attempts": row["attempts"] + 1, "last_error": error[:500]}
        if next_attempt_at is None:
            values["status"] = "failed"
        else:
            values["next_attempt_at"] = next_attempt_at
        self.db["outbox"].update(outbox_id, values)

    def note_delivery_error(self, outbox_id: int, error: str) -> None:
        """Record why the server could not be reached while ``outbox_id`` was next, without
        counting an attempt of that row (a connection-level failure is the server's)."""
        self.db["outbox"].update(outbox_id, {"last_error": error[:500]})

    def replies_to(self, address: str, since: str, kinds: Sequence[str] = ("reply",)) -> int:
        """How many messages of ``kinds`` were queued to ``address`` since ``since``
        (rate limiting answers to a sender)."""
        marks = ",".join("?" * len(kinds))
        return self.db.execute(
            f"SELECT count(*) FROM outbox WHERE to_addr = ? AND created_at >= ? AND kind IN ({marks})",
            [fold_address(address), since, *kinds]).fetchone()[0]

    def urgent_answers_to(self, address: str, since: str) -> int:
        """How many answers were sent to ``address`` past its hourly limit (``urgent``)
        since ``since`` (issue 24 B/N2: at most one in 5 minutes)."""
        return self.db.execute("SELECT count(*) FROM outbox WHERE to_addr = ? AND created_at >= ? AND urgent = 1",
                               [fold_address(address), since]).fetchone()[0]

    def answered_alike(self, address: str, digest: str, since: str) -> bool:
        """True when an answer with ``digest`` went to ``address`` since ``since``, or
        waits in its answers digest (identical repeated mail, issue 24 finding 3)."""
        folded = fold_address(address)
        return self.db.execute(
            "SELECT 1 FROM outbox WHERE to_addr = ? AND created_at >= ? AND answer_digest = ? UNION ALL "
            "SELECT 1 FROM answer_digests WHERE sent_at IS NULL AND to_addr = ? AND answer_digest = ? LIMIT 1",
            [folded, since, digest, folded, digest]).fetchone() is not None

    def hold_answer(self, *, to_addr: str, to_name: str | None, game_id: str | None, inbox_id: int | None,
                    subject: str, text: str, digest: str, at: str) -> int:
        """Keep an answer for the address's answers digest (its hourly limit is
        reached); its id."""
        return self.db["answer_digests"].insert({
            "to_addr": fold_address(to_addr), "to_name": to_name, "game_id": game_id, "inbox_id": inbox_id,
            "subject": subject, "text": text, "answer_digest": digest, "created_at": at, "sent_at": None}).last_pk

    def held_answers(self) -> list[dict[str, Any]]:
        """Every answer kept for a digest and not sent, by id."""
        return list(self.db["answer_digests"].rows_where("sent_at IS NULL", order_by="id"))

    def mark_answers_sent(self, ids: Sequence[int], at: str) -> None:
        """Record that kept answers went out in a digest."""
        for i in ids:
            self.db["answer_digests"].update(i, {"sent_at": at})

    def sent_to(self, address: str, message_ids: Sequence[str]) -> bool:
        """True when one of ``message_ids`` is a message of ours to ``address`` (queued or
        sent): a delivery report about it may be believed (break-it 9h)."""
        ids = list(message_ids)[:20]
        if not ids:
            return False
        marks = ",".join("?" * len(ids))
        return self.db.execute(f"SELECT 1 FROM outbox WHERE to_addr = ? AND message_id IN ({marks}) LIMIT 1",
                               [fold_address(address), *ids]).fetchone() is not None

    def replies_to_strangers(self, since: str, kinds: Sequence[str] = ("reply",)) -> int:
        """How many messages of ``kinds`` were queued since ``since`` to addresses that no
        seat of any game is registered at (the global cap on answers to strangers)."""
        marks = ",".join("?" * len(kinds))
        return self.db.execute(
            f"SELECT count(*) FROM outbox WHERE created_at >= ? AND kind IN ({marks}) "
            "AND to_addr NOT IN (SELECT email FROM seats)", [since, *kinds]).fetchone()[0]

    def outbox_row(self, outbox_id: int) -> dict[str, Any]:
        """The outbox row ``outbox_id`` (``raw`` whole, but for the attachments of a sent
        row, dropped after sending). Raises sqlite_utils NotFoundError."""
        return self.with_bodies([self.db["outbox"].get(outbox_id)])[0]

    def failed_mail(self) -> list[dict[str, Any]]:
        """Outbox rows that gave up (status failed), by id, without their raw bytes."""
        return list(self.db["outbox"].rows_where(
            "status = 'failed'", order_by="id",
            select="id, message_id, game_id, kind, to_addr, subject, attempts, last_error"))

    def resend_failed(self, ids: Sequence[int] | None = None, now: str | None = None) -> list[int]:
        """Put failed rows (all, or those of ``ids``) back to pending, due now, with their
        attempts reset; their Message-IDs stay the same. A seat at one of their addresses
        loses its bounce mark (the host resends because the address works again), so the
        rows do not wait for it. Returns the ids."""
        rows = [r for r in self.failed_mail() if ids is None or r["id"] in set(ids)]
        for row in rows:
            self.db["outbox"].update(row["id"], {"status": "pending", "attempts": 0,
                                                 "next_attempt_at": now or utcnow()})
        for address in {r["to_addr"] for r in rows}:  # the host vouches for the address again
            self.db.execute("UPDATE seats SET bouncing = 0, bounced_at = NULL WHERE email = ? AND bouncing = 1",
                            [address])
        return [r["id"] for r in rows]

    def outbox_counts(self) -> list[tuple[str, int]]:
        """(status, rows) for every outbox status present."""
        return [tuple(r) for r in self.db.execute("SELECT status, count(*) FROM outbox GROUP BY status")]

    def outbox_problems(self) -> list[dict[str, Any]]:
        """Outbox rows not sent that carry an error, by id."""
        return self.with_bodies(self.db["outbox"].rows_where("status != 'sent' AND last_error IS NOT NULL",
                                                             order_by="id"))
