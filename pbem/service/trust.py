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
  that event's number (``HASH@N``).
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pbem import rules
from pbem.config import GameConfig
from pbem.mail.headers import fold_address
from pbem.problems import Problem
from pbem.report import build
from pbem.rules.dice import seed_commitment
from pbem.service import outbox
from pbem.store import Store

if TYPE_CHECKING:
    from pbem.service.judge import Judge

#: the longest salt accepted, in characters
SALT_MAX = 200
#: statuses of a game that takes no more orders
ENDED = ("over", "abandoned")


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


def mail_seed(judge: Judge, game_id: str, why: str) -> None:
    """Mail every seat the game's seed (the game is over or abandoned: ``why``), with
    how to check it against the commitment of the first report, and the witness."""
    store = judge.store
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    head = witness(store, game_id)
    body = (f"Game {game_id} {why}, so the dice seed is published:\n\n  {game['seed']}\n\n"
            f"Its SHA-256 is the commitment printed in your first report:\n\n  {game['seed_commitment']}\n\n"
            "With it every roll of the game can be recomputed from the logged orders. The game's archive "
            "(`pbem archive`) holds the whole log and pbem_verify.py, a verifier that needs nothing but "
            "Python: `python3 pbem_verify.py ARCHIVE_DIR --witness HASH@N` checks the hash chain, every "
            "roll and any witness you kept from a report.")
    if head:
        body += f"\n\nLog witness (the log's last event now): {head}"
    for row in store.seats(game_id):
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["email"], to_name=row["player"],
                     subject=f"[{game_id}] the dice seed", text=build.render_notice(body, game_id), html=None,
                     id_parts=(game_id, "seed", row["seat"]))


def seat_changes(stored: Sequence[Mapping[str, Any]], game: GameConfig) -> list[tuple[dict[str, Any], rules.Event]]:
    """(stored row, ``SeatChanged``) for every seat whose player, address or key hash in
    the config ``game`` differs from the stored ``seats`` rows."""
    rows = {r["seat"]: r for r in stored}
    out = []
    for s in game.seats:
        row = rows.get(s.seat)
        if row is None:
            continue
        changed = [name for name, old, new in (("player", row["player"], s.player),
                                               ("address", row["email"], fold_address(s.email)),
                                               ("key", row["key_hash"], s.key_hash)) if old != new]
        if changed:
            out.append((dict(row), rules.judge_event("SeatChanged", {"seat": s.seat, "changed": changed,
                                                                     "player": s.player})))
    return out


def sync_seats(judge: Judge, game: GameConfig) -> int:
    """Record the config's seat changes of a stored game: one batch of ``SeatChanged``
    events (with a snapshot of the unchanged state), the seats rows updated, and a
    notice to each changed seat at its old and new address. Returns how many seats
    changed. Call inside a transaction."""
    store = judge.store
    changes = seat_changes(store.seats(game.id), game)
    if not changes:
        return 0
    state = judge.state(game.id)
    seq = store.append_events(game.id, [e.to_dict() for _, e in changes], step=state.step)
    store.save_snapshot(game.id, seq, state.step, state.to_dict())
    head = witness(store, game.id)
    new = {s.seat: s for s in game.seats}
    for row, event in changes:
        s = new[row["seat"]]
        store.update_seat(game.id, s.seat, player=s.player, email=s.email, key_hash=s.key_hash)
        body = (f"The host changed the {' and '.join(event.data['changed'])} of your seat {s.seat} in {game.id} "
                f"(player: {s.player}). The change is in the game's log (event {seq - len(changes) + 1}"
                f"…{seq}); if you did not ask for it, tell the other players."
                + (f"\n\nLog witness: {head}" if head else ""))
        for address, name in dict.fromkeys([(row["email"], row["player"]), (fold_address(s.email), s.player)]):
            outbox.queue(judge, game_id=game.id, kind="notice", to_addr=address, to_name=name,
                         subject=f"[{game.id}] your seat {s.seat} changed", text=build.render_notice(body, game.id),
                         html=None, id_parts=(game.id, "seat-changed", s.seat, seq, address))
    return len(changes)


def abandon(judge: Judge, game_id: str, reason: str) -> str:
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
        mail_seed(judge, game_id, "was abandoned by its host" + (f" ({reason})" if reason else ""))
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
