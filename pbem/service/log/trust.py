"""Trust (issue 15, docs/trust.md): the judge's own entries in a game's log and the mail
that lets every seat check the judge.

- each accepted orders document is logged as ``OrdersAccepted`` (private to its seat
  until the game is over) before the decision's events, and moves the game's orders
  context on, from which the decision's dice derive (:mod:`pbem.rules.dice`);
- a game's first event commits to the seed (``SeedCommitted``); when the game ends or
  the host abandons it, ``SeedRevealed`` publishes the seed and every seat gets it by
  mail;
- a seat whose player, address or key the config changed gets a ``SeatChanged`` event,
  and the seat is told at its old and its new address;
- every mail about a game carries the log's *witness*: the hash of its last event and
  that event's number (``HASH@N``);
- the game's log archive (:func:`log_archive`): ``log.jsonl``, ``game.json`` and
  ``pbem_verify.py`` zipped with a README, the files of those names ``pbem archive``
  writes: the public part while the game runs, everything once it is over. The seed
  mail carries it, and ``command: archive`` mails it to a seat at any time
  (docs/player-guide.md, docs/trust.md).
"""
from __future__ import annotations

import gettext
import hashlib
import io
import json
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pbem import i18n, rules
from pbem.config import GameConfig
from pbem.keys import hash_key, new_key
from pbem.mail.compose import Attachment
from pbem.mail.headers import fold_address
from pbem.problems import Problem
from pbem.report import build
from pbem.report.context import RESULT_HOW, WIDTH, wrap
from pbem.rules.dice import seed_commitment
from pbem.service.base.context import Service
from pbem.service.outgoing import host_notices, outbox, seat_preferences
from pbem.store import Store
from pbem.store.db import canonical_json
from pbem.store.games import ENDED_STATUSES
from pbem.verifier import SOURCE as VERIFIER

#: the longest salt accepted, in characters
SALT_MAX = 200
#: statuses of a game that takes no more orders
ENDED = ENDED_STATUSES


def json_form(value: Any) -> Any:
    """``value`` as it reads back from the log (mapping keys become text and sorted,
    tuples lists): the form orders are checked, carried out and logged in, so a replay
    from the log sees exactly what the judge saw. The keys are sorted because the log
    stores canonical JSON (sorted keys) and the order of a mapping can matter to the
    rules (``cus: {mercenary: 1, loyal: 1}`` places the CUs in that order): carried out
    in the mail's order, a decision was replayed in another one and ``pbem verify``
    found other events (a flaky whole-game test on CI)."""
    text_keys = json.loads(json.dumps(value, ensure_ascii=False))  # `1:` and `"1":` both become "1"
    return json.loads(json.dumps(text_keys, ensure_ascii=False, sort_keys=True))


def salt_problem(doc: Mapping[str, Any]) -> Problem | None:
    """A problem when the document's optional top-level ``salt`` is not a text or a
    whole number of at most :data:`SALT_MAX` characters (docs/orders.md)."""
    if "salt" not in doc:
        return None
    salt = doc["salt"]
    if isinstance(salt, bool) or not isinstance(salt, (str, int)) or len(str(salt)) > SALT_MAX:
        return Problem(message=f"`salt` must be a text or a number of at most {SALT_MAX} characters; found "
                               f"{type(salt).__name__}.", where="salt", code="envelope.salt_type",
                       hint="e.g. `salt: my lucky words 7431` (any text; it only feeds the dice)")
    return None


def salt_text(doc: Mapping[str, Any]) -> str | None:
    """The document's salt as text (None when it has none)."""
    salt = doc.get("salt")
    return None if salt is None else str(salt)


def accepted_document(seat: str, step: int, orders: Any, salt: str | None, by: str) -> dict[str, Any]:
    """The data of an ``OrdersAccepted`` event: ``{"by": "mail" | "deadline", "orders":
    <JSON form>, "salt": text | None, "seat", "step"}`` (docs/trust.md)."""
    return {"by": by, "orders": json_form(orders), "salt": salt, "seat": seat, "step": step}


def witness(store: Store, game_id: str) -> str | None:
    """``"HASH@N"``: the hash of the game's last event and its number, or None for a
    version-1 chain (whose hashes of private events can be guessed)."""
    if store.chain_version(game_id) < 2:
        return None
    seq, head = store.last_event(game_id)
    return f"{head}@{seq}"


def seed_committed(seed: bytes, dice: int) -> rules.Event:
    """The first event of a game: the seed's SHA-256 and the dice version."""
    return rules.judge_event("SeedCommitted", {"commitment": seed_commitment(seed), "dice": dice})


def seed_revealed(store: Store, game_id: str) -> rules.Event:
    """``SeedRevealed`` for a game that is over: its seed (hex) and commitment."""
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    return rules.judge_event("SeedRevealed", {"seed": game["seed"], "commitment": game["seed_commitment"]})


def mail_seed(judge: Service, game_id: str, why: i18n.Localizable) -> None:
    """Mail every seat the game's seed (the game is over or abandoned: ``why``, a text
    or a function of the reader's translations object, issue 28), with
    how to check it against the commitment of the first report, the witness, and the
    finished game's archive attached (:func:`log_archive`). Call inside the
    transaction that logged ``SeedRevealed``."""
    store = judge.store
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    made: dict[str, LogArchive] = {}  # one zip per language: its README in the seat's (issue 28)
    head = witness(store, game_id)
    for row in store.seats(game_id):
        tr = seat_preferences.translations(store, game_id, row["seat"])  # the seat's language (issue 28)
        language = i18n.language_of(tr)
        if language not in made:
            made[language] = log_archive(store, game_id, judge.clock(), tr)
        archive = made[language]
        _ = tr.gettext
        names = {"game": game_id, "why": i18n.localize(why, tr), "archive": archive.filename}
        body = _paragraphs(
            result_sentence(judge, game_id, tr),
            _("Game %(game)s %(why)s, so the dice seed is published:") % names,
            f"  {game['seed']}",
            _("Its SHA-256 is the commitment printed in your first report:"),
            f"  {game['seed_commitment']}",
            _("With it every roll of the game can be recomputed from the logged orders. Attached is the game's "
              "archive, %(archive)s: the whole log, every private event included, and pbem_verify.py, a "
              "verifier that needs nothing but Python 3.11 or later. Unzip it and run") % names,
            archive.command(game['seed_commitment']),
            _("It checks the hash chain, the seed, every private event, every roll and this mail's witness; add "
              "--witness for any other witness you kept and --orders for the SHA-256 of a receipt. Keep this "
              "mail: its witness covers the whole log, and a log cut short is caught only by a witness. "
              "`command: archive` mails the archive again (docs/trust.md)."))
        if head:
            body += "\n\n" + _("Log witness (the log's last event now): %(witness)s") % {"witness": head}
        subject, text = f"[{game_id}] " + _("the dice seed"), build.render_notice(body, game_id, tr)
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["email"], to_name=row["player"],
                     subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                     id_parts=(game_id, "seed", row["seat"]), attachments=[archive.attachment])
    filename = next(iter(made.values())).filename if made else log_archive(store, game_id, judge.clock()).filename
    host = host_notices.host_translations(judge, game_id)  # the host's language (issue 28)
    host_body = _paragraphs(
        result_sentence(judge, game_id, host),
        host.gettext("Game %(game)s %(why)s. Every seat has been sent the final report and the dice seed with the "
                     "game's archive (%(archive)s); `pbem archive %(game)s DIR` writes it for you, and `pbem verify "
                     "%(game)s` re-adjudicates the whole log.") % {"game": game_id, "why": i18n.localize(why, host),
                                                                     "archive": filename})
    if head:
        host_body += "\n\n" + host.gettext("Log witness: %(witness)s") % {"witness": head}
    host_notices.notify_host(judge, game_id, host_body, "game over", once="over")


def result_sentence(judge: Service, game_id: str, tr: gettext.NullTranslations | None = None) -> str:
    """How the game ended, for the seed mail and the host's game-over notice: ``"The
    game is over: south (Selene) wins by regency (R-1.3)."``, or that nobody won (the
    host abandoned it), or the draw the seats agreed by vote. Read from the state's ``result`` (R-1.1 to R-1.3, or the host's
    ``end``); in the language of ``tr`` (None: English; issue 28), the way of winning
    as the rules core names it."""
    _ = (tr or i18n.translations()).gettext
    result = judge.state(game_id).result or {}
    winner = result.get("winner") or result.get("seat")
    if result.get("how") == "draw":  # agreed by the seats' vote (issue 29)
        return _("The game is over: a draw among %(seats)s, agreed by every seat still in the game.") % {
            "seats": ", ".join(str(s) for s in result.get("among") or [])}
    if not winner:
        return _("The game is over without a winner: it was abandoned.")
    player = next((r["player"] for r in judge.store.seats(game_id) if r["seat"] == winner), "")
    how = str(result.get("how") or "").replace("_", " ")
    rule = str(result.get("rule") or "")
    if how.startswith("automatic"):
        how = _("an automatic victory") + how.removeprefix("automatic")
    elif how in RESULT_HOW:  # "regency" in the seat's words (try28: a Spanish seed mail said "por regency")
        how = _(RESULT_HOW[how])
    by = (_("by the host's decision") if rule == "host" else
          _("as every other seat conceded") if rule == "vote" else _("by %(how)s") % {"how": how} if how else "")
    who = f"{winner} ({player})" if player else winner
    return ((_("The game is over: %(winner)s wins %(by)s") % {"winner": who, "by": by} if by
             else _("The game is over: %(winner)s wins") % {"winner": who})
            + (f" ({rule})" if rule.startswith("R-") else "") + ".")


def _paragraphs(*paragraphs: str) -> str:
    """Paragraphs wrapped to 72 columns, those indented (a value to copy) kept whole."""
    return "\n\n".join(p if p.startswith(" ") else wrap(p, WIDTH) for p in paragraphs)


def config_key(key_hash: str) -> str:
    """The fingerprint of a config seat's ``key_hash`` kept in the log when the judge
    issued the seat a key of its own (a new address, the same hash in the config): 16
    hex digits of its SHA-256 — it tells a later restart that the config has not changed
    since, and reveals nothing of any key (issue 24 item D)."""
    return hashlib.sha256(key_hash.encode()).hexdigest()[:16]


def seat_changes(stored: Sequence[Mapping[str, Any]], game: GameConfig,
                 issued: Mapping[str, str] | None = None) -> list[tuple[dict[str, Any], rules.Event]]:
    """(stored row, ``SeatChanged``) for every seat whose player, address or key hash in
    the config ``game`` differs from the stored ``seats`` rows. ``issued`` ``{seat:
    config_key}``: seats whose key the judge issued at a change of address while the
    config kept that key hash (not a change while it still does)."""
    rows = {r["seat"]: r for r in stored}
    out = []
    for s in game.seats:
        row = rows.get(s.seat)
        if row is None:
            continue
        same_key = row["key_hash"] == s.key_hash or (issued or {}).get(s.seat) == config_key(s.key_hash)
        changed = [name for name, old, new in (("player", row["player"], s.player),
                                               ("address", row["email"], fold_address(s.email)))
                   if old != new] + ([] if same_key else ["key"])
        if changed:
            out.append((dict(row), rules.judge_event("SeatChanged", {"seat": s.seat, "changed": changed,
                                                                     "player": s.player})))
    return out


@dataclass(frozen=True)
class Handover:
    """A config seat that changed address (issue 24 item D): the new ``player`` at
    ``address`` takes over ``seat`` from ``old`` (its stored row before the change);
    ``key``: the key the judge issued (None when the host put a new key hash in the
    config: the host gives that key)."""

    seat: str
    player: str
    address: str
    key: str | None
    old: Mapping[str, Any]


def sync_seats(judge: Service, game: GameConfig) -> list[Handover]:
    """Record the config's seat changes of a stored game: one batch of ``SeatChanged``
    events (with a snapshot of the unchanged state), the seats rows updated, and a
    notice to each changed seat at its old and new address. A seat whose address
    changed is handed over instead (the caller mails it, as ``command: replace`` does):
    when the config kept its key hash the judge issues a new key (the event keeps the
    config's :func:`config_key`, so the next restart sees no change); the old address is
    told by the handover. Returns the handovers. Call inside a transaction."""
    store = judge.store
    issued = {e.data["seat"]: e.data["config_key"] for e in store.events(game.id)
              if e.kind == "SeatChanged" and e.data.get("config_key")}
    changes = seat_changes(store.seats(game.id), game, issued)
    if not changes:
        return []
    new = {s.seat: s for s in game.seats}
    keys: dict[str, str | None] = {}
    for row, event in changes:
        s = new[row["seat"]]
        if "address" in event.data["changed"]:
            keys[s.seat] = None
            if "key" not in event.data["changed"]:  # the old player's key must not follow the seat
                keys[s.seat] = new_key()
                event.data["changed"].append("key")
                event.data["config_key"] = config_key(s.key_hash)
    state = judge.state(game.id)
    seq = store.append_events(game.id, [e.to_dict() for _, e in changes], step=state.step)
    store.save_snapshot(game.id, seq, state.step, state.to_dict())
    head = witness(store, game.id)
    out = []
    for row, event in changes:
        s = new[row["seat"]]
        key = keys.get(s.seat)
        store.update_seat(game.id, s.seat, player=s.player, email=s.email,
                          key_hash=hash_key(key) if key else s.key_hash)
        if s.seat in keys:
            store.close_address_changes(game.id, s.seat, "replaced", judge.clock().isoformat())
            out.append(Handover(s.seat, s.player, fold_address(s.email), key, dict(row)))
            continue
        tr = seat_preferences.translations(store, game.id, s.seat)  # the seat's language (issue 28)
        _ = tr.gettext
        body = (_("The host changed the %(what)s of your seat %(seat)s in %(game)s (player: %(player)s). The change "
                  "is in the game's log (event %(first)s…%(last)s); if you did not ask for it, tell the other "
                  "players.") % {"what": _(" and ").join(_(CHANGED_WORDS[x]) if x in CHANGED_WORDS else x
                                                          for x in event.data['changed']),
                                 "seat": s.seat, "game": game.id, "player": s.player,
                                 "first": seq - len(changes) + 1, "last": seq}
                + ("\n\n" + _("Log witness: %(witness)s") % {"witness": head} if head else ""))
        for address, name in dict.fromkeys([(row["email"], row["player"]), (fold_address(s.email), s.player)]):
            subject = f"[{game.id}] " + _("your seat %(seat)s changed") % {"seat": s.seat}
            text = build.render_notice(body, game.id, tr)
            outbox.queue(judge, game_id=game.id, kind="notice", to_addr=address, to_name=name,
                         subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                         id_parts=(game.id, "seat-changed", s.seat, seq, address))
    return out


CHANGED_WORDS = {"player": i18n.N_("player"), "address": i18n.N_("address"), "key": i18n.N_("key")}
"""What the config changed of a seat (``SeatChanged``'s ``changed``), as its notice says it."""


def abandon(judge: Service, game_id: str, reason: str) -> str:
    """The host ends ``game_id`` before its end: ``GameAbandoned`` and ``SeedRevealed``
    are logged (one batch, the state unchanged), the game's status becomes
    ``abandoned`` (no more orders or deadlines), and every seat gets the seed by mail.
    Returns the witness after it. Raises KeyError for an unknown game, ValueError for
    a game already over or abandoned."""
    store = judge.store
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    if game["status"] in ENDED:
        raise ValueError(f"game {game_id} is {game['status']} already")
    with store.transaction():
        state = judge.state(game_id)
        events = [rules.judge_event("GameAbandoned", {"reason": reason}), seed_revealed(store, game_id)]
        seq = store.append_events(game_id, [e.to_dict() for e in events], step=state.step)
        store.save_snapshot(game_id, seq, state.step, state.to_dict())
        store.set_game_step(game_id, state.step, status="abandoned")
        mail_seed(judge, game_id, lambda tr: (tr.gettext("was abandoned by its host (%(reason)s)") % {"reason": reason}
                                              if reason else tr.gettext("was abandoned by its host")))
    return witness(store, game_id) or f"@{seq}"


def log_line(row: Mapping[str, Any], version: int, secret: str | None, reveal: bool) -> dict[str, Any]:
    """One line of ``log.jsonl``: what anyone needs to recompute the row's hash
    (:mod:`pbem.store.events`). ``data`` is null for a private event until the game is
    over (``reveal``); with chain version 2 its keyed commitment ``secret`` is there, so
    every row's hash can be checked during the game, and its data against the
    commitment once the seed is published."""
    line = {"seq": row["seq"], "step": row["step"], "kind": row["kind"], "public": row["public"],
            "seat": row["seat"], "data": row["data"] if row["public"] or reveal else None,
            "prev_hash": row["prev_hash"], "hash": row["hash"]}
    if version >= 2:
        line.update({"v": version, "inbox_id": row["inbox_id"], "secret": None if row["public"] else secret})
    return line


def log_lines(store: Store, game_id: str, reveal: bool, rows: Sequence[Mapping[str, Any]] | None = None
              ) -> list[dict[str, Any]]:
    """Every line of the game's ``log.jsonl`` (:func:`log_line`), private data only with
    ``reveal``; ``rows``: the game's chain rows when the caller has them already."""
    version = store.chain_version(game_id)
    rows = store.chain_rows(game_id) if rows is None else rows
    return [log_line(r, version, store.event_commitment(game_id, r) if version >= 2 and not r["public"] else None,
                     reveal) for r in rows]


def game_meta(store: Store, game_id: str, lines: Sequence[Mapping[str, Any]], reveal: bool) -> dict[str, Any]:
    """``game.json``: what the standalone verifier needs besides the log: ``{"game",
    "chain", "dice", "status", "seed_commitment", "seed" (hex, null unless
    ``reveal``), "head" ("HASH@N" of the log's last line, null for an empty log)}``.
    Raises KeyError for an unknown game."""
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    head = f"{lines[-1]['hash']}@{lines[-1]['seq']}" if lines else None
    return {"game": game_id, "chain": store.chain_version(game_id), "dice": store.dice_state(game_id)[0],
            "status": game["status"], "seed_commitment": game["seed_commitment"],
            "seed": game["seed"] if reveal else None, "head": head}


#: the files of the game's log archive, as ``pbem archive`` writes them
ARCHIVE_FILES = ("log.jsonl", "game.json", "pbem_verify.py")


@dataclass(frozen=True)
class LogArchive:
    """The game's log archive as a zip file (:func:`log_archive`): ``data`` the zip's
    bytes, ``folder`` the folder its files unzip into, ``over`` whether it reveals the
    whole game, ``head`` the log's last event (``HASH@N``, None for an empty log)."""

    game_id: str
    data: bytes
    folder: str
    over: bool
    head: str | None

    @property
    def filename(self) -> str:
        """The zip's file name: ``FOLDER.zip``."""
        return f"{self.folder}.zip"

    @property
    def attachment(self) -> Attachment:
        """The zip as a mail attachment (application/zip)."""
        return Attachment(self.filename, self.data, "application", "zip")

    def command(self, commitment: str | None) -> str:
        """The command line that checks the unzipped archive against ``commitment`` (the
        seed commitment) and this archive's head, indented by two spaces, one argument a
        line: each line ends in a backslash glued to its last word, so no line holds
        two words and the mail's 72-column wrapping leaves it whole, and a POSIX shell
        reads the lines as one command."""
        args = [f"python3 {self.folder}/pbem_verify.py {self.folder}"]
        if commitment:
            args.append(f"--commitment={commitment}")
        if self.head:
            args.append(f"--witness={self.head}")
        return "\\\n    ".join(["  " + args[0], *args[1:]])


def archive_files(store: Store, game_id: str, reveal: bool | None = None) -> dict[str, bytes]:
    """The log archive's files by name (:data:`ARCHIVE_FILES`), byte for byte as ``pbem
    archive`` writes them: ``log.jsonl`` (:func:`log_lines`, private data only when
    revealed), ``game.json`` (:func:`game_meta`) and the standalone verifier.
    ``reveal`` defaults to whether the game is over or abandoned: while it runs only
    the public part, never a secret. Raises KeyError for an unknown game."""
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    over = game["status"] in ENDED if reveal is None else reveal
    lines = log_lines(store, game_id, reveal=over)
    return {"log.jsonl": "".join(canonical_json(line) + "\n" for line in lines).encode(),
            "game.json": (canonical_json(game_meta(store, game_id, lines, reveal=over)) + "\n").encode(),
            "pbem_verify.py": VERIFIER.read_bytes()}


def log_archive(store: Store, game_id: str, when: datetime,
                tr: gettext.NullTranslations | None = None) -> LogArchive:
    """The game's log archive now (``when``: the files' time in the zip): the
    :func:`archive_files` of the game and a README.txt saying what they hold and how to
    check them, in the language of ``tr`` (None: English; issue 28: the README is the
    only file of the zip with words, the others are language-free), zipped (deflate)
    under the folder ``GAME-archive``. While the game runs it holds only its public
    part; once it is over, everything (docs/trust.md). Raises KeyError for an unknown
    game."""
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    over = game["status"] in ENDED
    files = archive_files(store, game_id, reveal=over)
    meta = json.loads(files["game.json"])
    folder = re.sub(r"[^A-Za-z0-9._-]", "-", game_id).strip(".") + "-archive"
    archive = LogArchive(game_id, b"", folder, over, meta["head"])
    readme = _readme(archive, game["seed_commitment"], when, tr or i18n.translations())
    buffer = io.BytesIO()
    stamp = (when.astimezone(UTC) if when.tzinfo else when).timetuple()[:6]
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in [("README.txt", readme.encode()), *files.items()]:
            zf.writestr(zipfile.ZipInfo(f"{folder}/{name}", date_time=stamp), data,
                        compress_type=zipfile.ZIP_DEFLATED)
    return LogArchive(game_id, buffer.getvalue(), folder, over, meta["head"])


def _readme(archive: LogArchive, commitment: str | None, when: datetime, tr: gettext.NullTranslations) -> str:
    """The README.txt of a log archive: what it holds and how to check it, in the
    language of ``tr``; the file names, the command and the hashes as they are."""
    _ = tr.gettext
    if archive.over:
        what = _("The game is over: the log holds every event, private ones (hands, deck orders, orders "
                 "documents) included, and game.json the seed. The verifier checks the hash chain, the seed "
                 "against its commitment, that every private event is revealed, every roll, and your witnesses.")
    else:
        what = _("The game is still running: this is its public part. Private events (hands, deck orders, orders "
                 "documents) are in the log only as commitments, with their data null, and the seed is secret "
                 "until the game ends. The verifier checks the hash chain and your witnesses now; the seed, the "
                 "private events, every roll and your receipts' orders are checked in the archive of the "
                 "finished game, which the seed mail carries.")
    stamp = f"{(when.astimezone(UTC) if when.tzinfo else when):%Y-%m-%d %H:%M} UTC"
    files = [("log.jsonl", _("every event of the game's hash-chained log, one a line")),
             ("game.json", _("the game id, the chain and dice versions, the seed commitment, the seed once the "
                             "game is over, the log's last event")),
             ("pbem_verify.py", _("the verifier: Python 3.11 or later, nothing to install"))]
    table = ("  log.jsonl       every event of the game's hash-chained log, one a line\n"
             "  game.json       the game id, the chain and dice versions, the seed commitment,\n"
             "                  the seed once the game is over, the log's last event\n"
             "  pbem_verify.py  the verifier: Python 3.11 or later, nothing to install"
             if i18n.language_of(tr) == i18n.DEFAULT  # the English table as it always was
             else "\n".join(wrap(text, WIDTH, indent=" " * 18, first=f"  {name:<16}") for name, text in files))
    return _paragraphs(
        _("Game %(game)s: its log archive, as the judge mailed it on %(when)s. The log ends at the witness "
          "%(head)s.") % {"game": archive.game_id, "when": stamp, "head": archive.head or _("(no event yet)")},
        table,
        what,
        _("Check it from the folder you unzipped it into (on Windows: one line, without the backslashes):"),
        archive.command(commitment),
        _("--commitment: the seed commitment printed in your first report. --witness: the log witness of the "
          "newest mail you have from the judge (repeat it for every witness you kept): only a witness catches a "
          "log cut short. --orders SHA256: the orders digest of a receipt. Exit status 0: every check passed; 1: "
          "a check failed (the first failure is named); 2: the archive could not be read. docs/trust.md of pbem "
          "says what each check proves.")) + "\n"


def log_events(judge: Service, game_id: str, events: list[rules.Event]) -> str | None:
    """Append the judge's ``events`` (no change to the position) to the game's hash
    chain with a snapshot after them; return the log witness. Call inside a
    transaction."""
    store = judge.store
    state = judge.state(game_id)
    seq = store.append_events(game_id, [e.to_dict() for e in events], step=state.step)
    store.save_snapshot(game_id, seq, state.step, state.to_dict())
    return witness(store, game_id)
