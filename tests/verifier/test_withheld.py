"""Issue 25, finding 1 (and issue 24, finding 13's ``--orders``): the archive verifier,
run as a player runs it, on archives a judge that picked a die would publish.

A judge knows the seed, so a die it picked can be logged with every hash and commitment
recomputed: the chain is intact and matches every witness the players hold; only the
dice recomputation catches it. Private rows are hashed only through their commitment,
so a judge could withhold one (``data: null``) and the verifier stopped checking there,
passing the picked die. A finished game must reveal everything: a withheld private
event, a seed published without ``SeedRevealed`` in the log, or a log whose end was cut
fail; a log cut short with no seed and no witness passes, and the verifier says that
only a witness (the newest mail's) catches it."""
from __future__ import annotations

import email
import email.policy
import json
import random
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem import rules
from pbem.archive import write_archive
from pbem.service.log import trust
from pbem.verifier import pbem_verify as V
from tests.conftest import KEYS, local_judge, player_mail
from tests.verifier.bare import run_verifier


@dataclass(frozen=True)
class Game:
    """A game's archive during the game and after its end, and what its players hold."""

    running: Path  # written after 12 decisions
    running_head: str  # the witness of the last mail then
    over: Path  # written after the host abandoned it
    seed_mail_head: str  # the witness of the seed mail
    seed: str
    receipt: str  # the SHA-256 of an orders document, from a receipt
    heading: str  # the digest a receipt's first line shows (issue 24 item H)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return make_game(tmp_path_factory)


def make_game(tmp_path_factory: pytest.TempPathFactory, rolled: bool = False) -> Game:
    """A game of 12 decisions by random legal orders (the seed is new each time, so the
    rolls differ from run to run), archived while running and after it is abandoned.
    ``rolled``: play on (at most 60 decisions) until a roll comes after the second
    orders document, so that an edit of an orders document changes dice."""
    tmp = tmp_path_factory.mktemp("withheld")
    judge = local_judge(tmp, {})
    rng = random.Random(3)
    for n in range(60):
        kinds = [e.kind for e in judge.store.events("g1")]
        orders = [i for i, k in enumerate(kinds) if k == "OrdersAccepted"]
        if n >= 12 and (not rolled or (len(orders) >= 2 and "DiceRolled" in kinds[orders[1]:])):
            break
        state = judge.state("g1")
        d = rules.pending(state)[0]
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": rules.bot_orders(state, d.seat, rng), "salt": n}
        assert judge.handle_message(player_mail(d.seat, doc)) == "applied"
    running_head = trust.witness(judge.store, "g1")
    write_archive(judge.store, "g1", tmp / "running")
    receipt = next(V.orders_digest(e.data) for e in judge.store.events("g1") if e.kind == "OrdersAccepted")
    first_reply = judge.store.db.execute("SELECT id FROM outbox WHERE kind = 'reply' ORDER BY id").fetchone()[0]
    mail = email.message_from_bytes(judge.store.outbox_row(first_reply)["raw"], policy=email.policy.default)
    heading = re.search(r"as the judge read them \(SHA-256 (\S+?)[)…]", mail.get_body(("plain",)).get_content()).group(1)
    head = trust.abandon(judge, "g1", "the players moved away")
    write_archive(judge.store, "g1", tmp / "over")
    seed = judge.store.game("g1")["seed"]
    judge.store.close()
    return Game(tmp / "running", running_head, tmp / "over", head, seed, receipt, heading)


def _copy(src: Path, tmp_path: Path) -> tuple[Path, dict, list[dict]]:
    dest = tmp_path / "copy"
    shutil.copytree(src, dest)
    meta, rows = V.load(dest)
    return dest, meta, rows


def _save(dest: Path, meta: dict, rows: list[dict]) -> None:
    (dest / "log.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    (dest / "game.json").write_text(json.dumps(meta), encoding="utf-8")


def _forge(meta: dict, rows: list[dict], start: int, seed: str) -> str:
    """What a judge holding ``seed`` logs from row index ``start`` on: every commitment
    and hash recomputed, game.json's head moved along. Returns the new head (the witness
    its later mails carry)."""
    key = V.event_key(bytes.fromhex(seed))
    for i in range(start, len(rows)):
        r = rows[i]
        r["prev_hash"] = rows[i - 1]["hash"] if i else V.GENESIS
        if not r["public"] and r["data"] is not None:
            r["secret"] = V.commitment(key, r["data"], r["seq"] if meta["chain"] >= 3 else None)
        r["hash"] = V.row_hash(meta["game"], r, meta["chain"])
    meta["head"] = f"{rows[-1]['hash']}@{rows[-1]['seq']}" if rows else None
    return meta["head"]


def _pick_a_die(meta: dict, rows: list[dict], seed: str) -> tuple[int, str]:
    """Change the first die of the first roll after a shuffle and re-log everything
    after it; (the roll's row index, the witness the players then hold)."""
    shuffled = next(i for i, r in enumerate(rows) if r["kind"] == "Shuffled")
    i = next(i for i, r in enumerate(rows) if r["kind"] == "DiceRolled" and i > shuffled)
    d = rows[i]["data"]
    d["values"][0] = d["values"][0] % d["sides"] + 1
    return i, _forge(meta, rows, i, seed)


def _fail_line(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 1, out.stdout + out.stderr
    return next(x for x in out.stdout.splitlines() if x.startswith("FAIL: "))


def test_the_untouched_archives_pass(game: Game, tmp_path: Path) -> None:
    out = run_verifier(game.over, "--witness", game.seed_mail_head, "--orders", game.receipt, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "OK: hash chain intact" in out.stdout and "OK: every private event is revealed" in out.stdout
    out = run_verifier(game.running, "--witness", game.running_head, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_picked_die_is_caught_by_the_dice(game: Game, tmp_path: Path) -> None:
    dest, meta, rows = _copy(game.over, tmp_path)
    i, head = _pick_a_die(meta, rows, game.seed)
    _save(dest, meta, rows)
    fail = _fail_line(run_verifier(dest, "--witness", head, cwd=tmp_path))
    assert fail.startswith(f"FAIL: event {rows[i]['seq']} (DiceRolled): die 1 of ")


def test_a_picked_die_behind_a_withheld_private_event_fails(game: Game, tmp_path: Path) -> None:
    dest, meta, rows = _copy(game.over, tmp_path)
    i, head = _pick_a_die(meta, rows, game.seed)
    j = next(j for j, r in enumerate(rows) if r["kind"] == "Shuffled")
    assert j < i and not rows[j]["public"]
    rows[j]["data"] = None  # its hash holds only its commitment: the chain stays intact
    _save(dest, meta, rows)
    out = run_verifier(dest, "--witness", head, cwd=tmp_path)
    fail = _fail_line(out)
    assert fail == (f"FAIL: event {rows[j]['seq']} (Shuffled): it is private and not revealed, but the game is "
                    "over (its seed is published): a finished game's archive reveals every event, so what this "
                    "one hides (and every roll after it) cannot be checked")
    assert "OK: hash chain intact" in out.stdout and f"OK: witness {head[:12]}" in out.stdout


def test_a_finished_game_with_every_private_event_withheld_fails(game: Game, tmp_path: Path) -> None:
    dest, meta, rows = _copy(game.over, tmp_path)
    private = [r for r in rows if not r["public"]]
    for r in private:
        r["data"] = None
    _save(dest, meta, rows)
    out = run_verifier(dest, "--witness", game.seed_mail_head, cwd=tmp_path)
    fail = _fail_line(out)
    assert fail.startswith(f"FAIL: event {private[0]['seq']} ({private[0]['kind']}): it is private and not revealed")
    assert out.stdout.count("it is private and not revealed") == len(private)  # every one of them named


def test_a_published_seed_without_its_seed_revealed_means_a_cut_log(game: Game, tmp_path: Path) -> None:
    dest, meta, rows = _copy(game.over, tmp_path)
    cut = rows[:-2]  # GameAbandoned and SeedRevealed gone; game.json's seed and head kept in step
    assert [r["kind"] for r in rows[-2:]] == ["GameAbandoned", "SeedRevealed"]
    meta["head"] = f"{cut[-1]['hash']}@{cut[-1]['seq']}"
    meta["status"] = "active"
    _save(dest, meta, cut)
    fail = _fail_line(run_verifier(dest, cwd=tmp_path))
    assert fail == ("FAIL: the seed is published, but the log has no SeedRevealed event: a finished game's log "
                    "ends with it, so this log was cut short")


def test_a_finished_game_passed_off_as_running(game: Game, tmp_path: Path) -> None:
    """The end cut off, every private event withheld and the seed taken out of game.json:
    it reads like a running game's archive. Without a witness nothing shows it (and the
    verifier says so); the seed or the witness of the seed mail does."""
    dest, meta, rows = _copy(game.over, tmp_path)
    cut = rows[:-2]
    for r in cut:
        if not r["public"]:
            r["data"] = None
    meta.update(seed=None, status="active", head=f"{cut[-1]['hash']}@{cut[-1]['seq']}")
    _save(dest, meta, cut)
    out = run_verifier(dest, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert ("note: no witness given: a log cut short (its newest events removed, or rewritten with every hash "
            "recomputed) looks intact here; only a witness from a mail catches it. Give the witness of the "
            "newest mail you have from the judge (--witness HASH@N): the seed mail's once the game is over, "
            "else the last report's") in out.stdout
    fail = _fail_line(run_verifier(dest, "--seed", game.seed, cwd=tmp_path))
    assert fail.startswith("FAIL: event ") and "it is private and not revealed, but the game is over" in fail
    assert "the log has no SeedRevealed event" in run_verifier(dest, "--seed", game.seed, cwd=tmp_path).stdout
    fail = _fail_line(run_verifier(dest, "--witness", game.seed_mail_head, cwd=tmp_path))
    n = int(game.seed_mail_head.split("@")[1])
    assert fail.startswith(f"FAIL: event {n} (witness): ") and "events were removed" in fail


def test_a_log_cut_short_behind_game_json_fails(game: Game, tmp_path: Path) -> None:
    dest, meta, rows = _copy(game.running, tmp_path)
    _save(dest, meta, rows[:-5])  # game.json still names the head the judge wrote
    fail = _fail_line(run_verifier(dest, cwd=tmp_path))
    assert fail == (f"FAIL: game.json names the log's last event {meta['head'][:12]}…@{rows[-1]['seq']}, but "
                    f"log.jsonl ends at event {rows[-6]['seq']}: the log is incomplete or was cut short")


def test_orders_during_the_game_are_private_not_missing(game: Game, tmp_path: Path) -> None:
    out = run_verifier(game.running, "--orders", game.receipt, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "FAIL" not in out.stdout
    assert (f"note: orders document {game.receipt[:12]}… is not checked yet: orders documents are private until "
            "the game ends; check it again in the archive of the finished game (the seed mail carries it)"
            ) in out.stdout
    out = run_verifier(game.over, "--orders", game.receipt, "--orders", "ab" * 32, cwd=tmp_path)
    assert f"OK: orders document {game.receipt[:12]}… is in the log" in out.stdout
    assert _fail_line(out) == (f"FAIL: no orders document in the log has the SHA-256 {'ab' * 32} (from a "
                               "receipt?): the log does not hold the orders that receipt confirmed")


def test_the_digest_a_receipt_shows_first_is_the_one_the_verifier_checks(game: Game, tmp_path: Path) -> None:
    """Issue 24 item H: the receipt's first line showed 16 hex digits of the SHA-256 of
    the orders' YAML text, which `pbem_verify --orders` refused (not 64 digits) and which
    no logged document has. The first line now shows the start of the logged document's
    digest, and the verifier takes such a prefix (16 hex digits or more) when exactly
    one logged document has it."""
    assert game.receipt.startswith(game.heading) and len(game.heading) >= 16
    out = run_verifier(game.over, "--orders", game.heading, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"OK: orders document {game.receipt[:12]}… is in the log" in out.stdout
    out = run_verifier(game.over, "--orders", game.heading[:8], cwd=tmp_path)  # too short to name one document
    assert "at least 16" in _fail_line(out)
