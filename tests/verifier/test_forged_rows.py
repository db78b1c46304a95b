"""Issue 25's fresh break-it attempt (bot25 item 2) on the archive's standalone verifier:
a finished game's archive edited as a judge that holds the seed would publish it — rows
removed, repeated or reordered, an orders document changed, the seed changed
everywhere — with every number, commitment and hash recomputed after the edit, so the
chain is intact. Each must fail (exit 1) with the event and what is wrong, never pass
and never end in a traceback. (What it does not prove, by design: that events with no
dice follow from the orders by the rules; docs/trust.md, "After the game".)"""
from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem.verifier import pbem_verify as V
from tests.verifier.bare import run_verifier
from tests.verifier.test_withheld import Game, _copy, _save, make_game


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """The withheld tests' game, played on until a roll follows the second orders
    document (the seed is new each run: in some 12-decision games no roll follows one)."""
    return make_game(tmp_path_factory, rolled=True)


def _nth(rows: list[dict], kind: str, n: int) -> int:
    return [i for i, r in enumerate(rows) if r["kind"] == kind][n]


def _renumbered(meta: dict, rows: list[dict], seed: str) -> None:
    """Every row numbered again from 1, its commitment (the number is its nonce) and hash
    recomputed, game.json's head moved along: what a judge holding ``seed`` writes."""
    key = V.event_key(bytes.fromhex(seed))
    for i, r in enumerate(rows):
        r["seq"] = i + 1
        r["prev_hash"] = rows[i - 1]["hash"] if i else V.GENESIS
        if not r["public"] and r["data"] is not None:
            r["secret"] = V.commitment(key, r["data"], r["seq"])
        r["hash"] = V.row_hash(meta["game"], r, meta["chain"])
    meta["head"] = f"{rows[-1]['hash']}@{rows[-1]['seq']}"


def _rolled(rows: list[dict]) -> int:
    """The index of the first orders document a later roll derives from. Every later roll
    derives from it (each orders document moves the dice's context on), so an edit of it
    changes the dice of every roll after it: the first one, not the last, since the rolls
    after the last document may be one die, which the edited context gives the same value
    one time in six (then the edit is caught only by a witness, docs/trust.md)."""
    last_roll = _nth(rows, "DiceRolled", -1)
    return min(i for i, r in enumerate(rows) if r["kind"] == "OrdersAccepted" and i < last_roll)


def _swap_unequal_rolls(rows: list[dict]) -> None:
    at = [i for i, r in enumerate(rows) if r["kind"] == "DiceRolled"]
    a, b = next((a, b) for a, b in zip(at, at[1:], strict=False)
                if rows[a]["data"]["values"] != rows[b]["data"]["values"])
    rows[a], rows[b] = rows[b], rows[a]


def _other_seed(meta: dict, rows: list[dict]) -> str:
    seed = hashlib.sha256(b"another seed").hexdigest()
    commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    meta["seed"], meta["seed_commitment"] = seed, commitment
    for r in rows:
        if r["kind"] == "SeedCommitted":
            r["data"]["commitment"] = commitment
        if r["kind"] == "SeedRevealed":
            r["data"]["seed"] = seed
    return seed


_ORDERS = ("the seed and the logged orders give", "a roll was dropped, repeated or picked")
"""What the verifier says when an orders document a roll derives from is edited: the
roll's dice (or a shuffle's order) differ from what the seed and the logged orders
give, or (the edit changed
which decision the roll belongs to) its dice numbers do not follow; which one depends on
where the game's last rolls fall."""

EDITS: dict[str, tuple[Callable[[dict, list[dict]], str | None], str | tuple[str, ...]]] = {
    "a roll removed": (lambda m, r: r.pop(_nth(r, "DiceRolled", 2)) and None,
                       "a roll was dropped, repeated or picked"),
    "two rolls swapped": (lambda m, r: _swap_unequal_rolls(r), "a roll was dropped, repeated or picked"),
    "an orders document removed": (lambda m, r: r.pop(_rolled(r)) and None, _ORDERS),
    "an orders document repeated": (lambda m, r: r.insert(_rolled(r), copy.deepcopy(r[_rolled(r)])) and None,
                                    _ORDERS),
    "an orders document changed": (lambda m, r: r[_rolled(r)]["data"].update(salt="x") and None, _ORDERS),
    "the seed changed everywhere": (_other_seed, "the seed and the logged orders give another order"),
}


@pytest.mark.parametrize("case", list(EDITS), ids=lambda c: c.replace(" ", "-"))
def test_a_forged_archive_of_a_finished_game_fails_with_the_event_named(game: Game, tmp_path: Path,
                                                                        case: str) -> None:
    edit, said = EDITS[case]
    dest, meta, rows = _copy(game.over, tmp_path)
    seed = edit(meta, rows) or game.seed
    _renumbered(meta, rows, seed)
    _save(dest, meta, rows)
    out = run_verifier(dest, cwd=tmp_path)
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stdout + out.stderr
    fail = next(x for x in out.stdout.splitlines() if x.startswith("FAIL: "))
    phrases = (said,) if isinstance(said, str) else said
    assert fail.startswith("FAIL: event ") and any(p in fail for p in phrases), fail
    assert "OK: hash chain intact" in out.stdout  # the chain alone could not tell


def test_a_forgery_after_the_last_roll_is_caught_only_by_a_witness(game: Game, tmp_path: Path) -> None:
    """An orders document (or another event) after the game's last roll, changed and the
    log re-hashed from there: no die derives from it, so only a witness catches it — the seed mail's, as
    docs/trust.md tells players to keep (and the receipt's ``--orders`` digest)."""
    dest, meta, rows = _copy(game.over, tmp_path)
    last_roll = _nth(rows, "DiceRolled", -1)
    # the last orders document when one comes after the last roll, else the first public
    # event after it (which rows follow the last roll depends on how the game ended)
    after = [i for i, r in enumerate(rows) if i > last_roll and r["public"] and isinstance(r["data"], dict)
             and r["kind"] not in ("SeedRevealed", "GameEnded")]
    orders = [i for i in after if rows[i]["kind"] == "OrdersAccepted"]
    assert after, [r["kind"] for r in rows[last_roll:]]
    late = orders[-1] if orders else after[0]
    rows[late]["data"]["salt"] = "x"
    _renumbered(meta, rows, game.seed)
    _save(dest, meta, rows)
    alone = run_verifier(dest, cwd=tmp_path)
    assert alone.returncode == 0 and "only a witness from a mail catches it" in alone.stdout, alone.stdout
    caught = run_verifier(dest, "--witness", game.seed_mail_head, cwd=tmp_path)
    assert caught.returncode == 1 and "Traceback" not in caught.stderr, caught.stdout + caught.stderr
    fail = next(x for x in caught.stdout.splitlines() if x.startswith("FAIL: "))
    assert "the log was rewritten at or before event" in fail, fail
