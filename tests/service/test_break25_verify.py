"""``pbem verify`` on a row edited by hand without recomputing the chain (issue 25,
attempt 5, item 6): the finding named first is the hash that does not match — the event's
seq, its kind and the fields the hash covers — and only then what the edit breaks in the
replay (negative CUs), exit 1."""
from __future__ import annotations

import hashlib
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.config import parse_config
from pbem.service import Judge
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, mail_orders


def _game(tmp_path: Path) -> Path:
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "db.sqlite"),
           "map_attachment": False,
           "games": [{"id": "g1", "host_email": "host@pbem.localhost", "seats": [
               {"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]}
               for s in SEATS]}]}
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    judge = Judge(parse_config(raw, tmp_path), Store(tmp_path / "db.sqlite"),
                  clock=lambda: datetime(2029, 1, 1, tzinfo=UTC), new_seed=lambda: hashlib.sha256(b"s").digest())
    judge.ensure_games()
    rng = random.Random(1)
    for n in range(6):
        state = judge.state("g1")
        seat = rules.pending(state)[0].seat
        doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
               "orders": mail_orders(state, seat, rng)}
        raw_mail = (f"From: {seat}@pbem.localhost\r\nTo: judge@pbem.localhost\r\nSubject: orders\r\n"
                    f"Message-ID: <v{n}@players.test>\r\n\r\n{yaml.safe_dump(doc)}").encode()
        assert judge.handle_message(raw_mail) == "applied"
    judge.store.close()
    return path


def test_verify_names_the_edited_rows_hash_before_what_the_edit_breaks(tmp_path: Path) -> None:
    path = _game(tmp_path)
    assert CliRunner().invoke(main, ["verify", "-c", str(path), "g1"]).exit_code == 0
    db = sqlite3.connect(tmp_path / "db.sqlite")
    seq, data = db.execute("SELECT seq, data FROM events WHERE game_id = 'g1' AND kind = 'CUsPlaced' "
                           "ORDER BY seq LIMIT 1").fetchone()
    edited = data.replace('"loyal":', '"loyal":-', 1)  # negative CUs, the chain not recomputed
    assert edited != data
    db.execute("UPDATE events SET data = ? WHERE game_id = 'g1' AND seq = ?", [edited, seq])
    db.commit()
    db.close()
    out = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert out.exit_code == 1
    lines = [line for line in out.output.splitlines() if line.strip()]
    assert lines[0].startswith(f"seq {seq} (CUsPlaced): hash mismatch"), out.output
    assert "data" in lines[0] and "negative CUs" in out.output
