"""The published log keeps secrets, and `pbem verify` sees what an edit of the database
would hide (issue 17, findings 3 and 13)."""
from __future__ import annotations

import hashlib
import hmac
import json
import random
import subprocess
from itertools import islice
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.archive import write_archive
from pbem.cli import main
from pbem.config import parse_config
from pbem.service import Judge
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, player_mail


def _canon(value) -> str:  # noqa: ANN001
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _played(tmp_path: Path, decisions: int = 3) -> tuple[Path, Judge]:
    """A config file and a judge whose game g1 has had ``decisions`` decisions by mail."""
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "pbem.sqlite"),
           "map_attachment": False,
           "games": [{"id": "g1", "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                             "key_hash": HASHES[s]} for s in SEATS]}]}
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    judge = Judge(parse_config(raw, base=tmp_path), Store(tmp_path / "pbem.sqlite"))
    judge.ensure_games()
    rng = random.Random(2)
    for _ in range(decisions):
        state = judge.state("g1")
        seat = rules.pending(state)[0].seat
        doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
               "orders": rules.bot_orders(state, seat, rng)}
        assert judge.handle_message(player_mail(seat, doc)) == "applied"
    return path, judge


def _guesses(true_hand: list[int], pool: list[int], n: int, rng: random.Random):  # noqa: ANN202
    """``n`` candidate hands from ``pool`` with the true one among them (the attacker's
    dictionary, cut down from the 77.6 M of the real attack to keep the test short)."""
    at = rng.randrange(n)
    for i in range(n):
        yield list(true_hand) if i == at else rng.sample(pool, len(true_hand))


def _attack(line: dict, game_id: str, prev: str, guesses, keys: list[bytes]) -> list[int] | None:  # noqa: ANN001
    """Try each guessed ``data`` of a secret row against its published hash, with every
    recipe the archive explains (version 1, and versions 2 and 3 under each guessed key)."""
    for cards in guesses:
        data = {"cards": cards, "rule": "R-6.4", "seat": line["seat"]}
        v1 = _canon({"game": game_id, "seq": line["seq"], "kind": line["kind"], "data": data, "seat": line["seat"],
                     "public": False})
        if hashlib.sha256((prev + v1).encode()).hexdigest() == line["hash"]:
            return cards
        for key, text in ((k, t) for k in keys for t in (_canon(data), f"pbem-event/v3:{line['seq']}:{_canon(data)}")):
            secret = hmac.new(key, text.encode(), hashlib.sha256).hexdigest()  # chain 2, and 3 (seq as nonce)
            v2 = _canon({"v": 2, "game": game_id, "seq": line["seq"], "kind": line["kind"], "seat": line["seat"],
                         "public": False, "step": line["step"], "inbox_id": line.get("inbox_id"), "data": None,
                         "secret": secret})
            if hashlib.sha256((prev + v2).encode()).hexdigest() == line["hash"]:
                return cards
    return None


def test_finding3_a_dealt_hand_cannot_be_recovered_from_the_published_log(tmp_path: Path) -> None:
    _path, judge = _played(tmp_path, decisions=1)
    site = write_archive(judge.store, "g1", tmp_path / "site").out_dir
    lines = [json.loads(x) for x in (site / "log.jsonl").read_text().splitlines()]
    dealt = next(x for x in lines if x["kind"] == "CardsDealt" and x["seat"] == "south")
    prev = lines[lines.index(dealt) - 1]["hash"]
    true_hand = next(e.data["cards"] for e in judge.store.events("g1") if e.seq == dealt["seq"])
    pool = sorted(judge.pack_for("g1").cards)
    game = judge.store.game("g1")
    # what another seat could try as the key: nothing, public values, the commitment
    keys = [b"", game["seed_commitment"].encode(), bytes.fromhex(game["seed_commitment"]), b"g1",
            b"pbem-event-secret/v1"]
    rng = random.Random(9)
    assert dealt["data"] is None, "the archive does not publish the hand"
    assert _attack(dealt, "g1", prev, _guesses(true_hand, pool, 3000, rng), keys) is None, \
        "the dealt hand was recovered from its published hash"
    # the same harness does find it once the seed is published (the game is over):
    seed_key = hmac.new(bytes.fromhex(game["seed"]), b"pbem-event-secret/v1", hashlib.sha256).digest()
    found = _attack(dealt, "g1", prev, islice(_guesses(true_hand, pool, 3000, rng), 3000), [seed_key])
    assert found == true_hand


def test_finding13_verify_sees_an_edited_step_or_inbox_id(tmp_path: Path) -> None:
    path, judge = _played(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["verify", "-c", str(path), "g1"]).exit_code == 0
    db = judge.store.db
    seq = db.execute("SELECT max(seq) FROM events WHERE game_id = 'g1'").fetchone()[0]
    db.execute("UPDATE events SET step = step + 1 WHERE game_id = 'g1' AND seq = ?", [seq])
    out = runner.invoke(main, ["verify", "-c", str(path), "g1"])
    assert out.exit_code == 1 and f"event {seq}" in out.output, out.output
    db.execute("UPDATE events SET step = step - 1 WHERE game_id = 'g1' AND seq = ?", [seq])
    db.execute("UPDATE events SET inbox_id = NULL WHERE game_id = 'g1' AND seq = ?", [seq])
    out = runner.invoke(main, ["verify", "-c", str(path), "g1"])
    assert out.exit_code == 1, out.output


def test_finding13_verify_sees_the_newest_decision_removed_with_its_snapshot(tmp_path: Path) -> None:
    path, judge = _played(tmp_path)
    db = judge.store.db
    seq, head = judge.store.last_event("g1")
    cut, step = db.execute("SELECT seq, step FROM snapshots WHERE game_id = 'g1' ORDER BY seq DESC LIMIT 1 OFFSET 1"
                           ).fetchone()
    db.execute("DELETE FROM events WHERE game_id = 'g1' AND seq > ?", [cut])
    db.execute("DELETE FROM snapshots WHERE game_id = 'g1' AND seq > ?", [cut])
    db.execute("UPDATE games SET step = ? WHERE id = 'g1'", [step])
    out = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert out.exit_code == 1 and "cut back" in out.output, out.output
    # with the mail gone too, the witness a player holds from the last report still tells
    db.execute("DELETE FROM inbox WHERE id = (SELECT max(id) FROM inbox)")
    out = CliRunner().invoke(main, ["verify", "-c", str(path), "g1", "--witness", f"{head}@{seq}"])
    assert out.exit_code == 1 and "removed" in out.output, out.output


def test_finding13_the_last_report_carries_the_witness(tmp_path: Path) -> None:
    path, judge = _played(tmp_path, decisions=1)
    seq, head = judge.store.last_event("g1")
    reports = [judge.store.outbox_row(r[0])["raw"] for r in judge.store.db.execute(
        "SELECT id FROM outbox WHERE kind = 'report'")]
    assert any(f"{head}@{seq}".encode() in r for r in reports)
    assert CliRunner().invoke(main, ["verify", "-c", str(path), "g1", "--witness", f"{head}@{seq}"]).exit_code == 0


def test_finding13_a_read_only_database_gives_a_clean_error(tmp_path: Path) -> None:
    path, judge = _played(tmp_path, decisions=0)
    judge.store.db.conn.close()
    db = tmp_path / "pbem.sqlite"
    for extra in tmp_path.glob("pbem.sqlite-*"):
        extra.unlink()
    if subprocess.run(["chattr", "+i", str(db)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not supported on this file system (needed to make the file read-only "
                    "for root)")
    try:
        out = CliRunner().invoke(main, ["run", "--once", "-c", str(path)])
        assert out.exit_code == 1 and "read-only" in out.output and "Traceback" not in out.output, out.output
        assert not isinstance(out.exception, Exception) or isinstance(out.exception, SystemExit)
        status = CliRunner().invoke(main, ["status", "-c", str(path)])
        assert status.exit_code in (0, 1) and "Traceback" not in status.output
        assert status.exception is None or isinstance(status.exception, SystemExit), status.exception
    finally:
        subprocess.run(["chattr", "-i", str(db)], check=False)


@pytest.mark.parametrize("edit", [
    "UPDATE events SET data = 'null' WHERE game_id = 'g1' AND seq = (SELECT max(seq) FROM events)",
    "UPDATE games SET seed = NULL WHERE id = 'g1'",
    "UPDATE snapshots SET state = '[]' WHERE game_id = 'g1' AND seq = (SELECT max(seq) FROM snapshots)",
    "UPDATE events SET data = '{not json' WHERE game_id = 'g1' AND seq = 2",
    "UPDATE events SET kind = 'NoSuchKind' WHERE game_id = 'g1' AND seq = (SELECT max(seq) FROM events)",
])
def test_a_damaged_database_is_named_not_a_traceback(tmp_path: Path, edit: str) -> None:
    """Break-it (issue 25, low): `pbem verify` on a database edited by hand ended in a
    TypeError or AttributeError traceback. It now says it cannot verify and why, exit 1."""
    path, judge = _played(tmp_path)
    judge.store.db.execute(edit)
    out = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert out.exit_code == 1, out.output
    assert out.exception is None or isinstance(out.exception, SystemExit), repr(out.exception)
    assert "g1 cannot be verified" in out.output, out.output
