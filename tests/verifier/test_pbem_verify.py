"""The standalone verifier (pbem/verifier/pbem_verify.py): standard library only, run by
``python3 -I -S`` from a directory outside the repository (tests/verifier/bare.py); it agrees with the judge's own
hashing and dice, checks a game's log during the game (chain, witnesses) and after it
(seed, every roll), and treats event kinds it does not know like any other row."""
from __future__ import annotations

import ast
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

from pbem import rules
from pbem.archive import write_archive
from pbem.pack.loader import load_pack
from pbem.rules.context import Ctx
from pbem.rules.dice import Dice, die_value
from pbem.service.log import trust
from pbem.store.events import event_hash, event_hash_v2, event_key
from pbem.verifier import SOURCE
from pbem.verifier import pbem_verify as V
from tests.conftest import KEYS, local_judge, player_mail
from tests.verifier.bare import run_verifier


def _run(archive: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return run_verifier(archive, *args, cwd=cwd)


def _game(tmp: Path, decisions: int = 12):
    judge = local_judge(tmp, {})
    rng = random.Random(3)
    for n in range(decisions):
        state = judge.state("g1")
        d = rules.pending(state)[0]
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": rules.bot_orders(state, d.seat, rng), "salt": n}
        assert judge.handle_message(player_mail(d.seat, doc)) == "applied"
    return judge


def test_the_verifier_imports_only_the_standard_library() -> None:
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports"
            names.add((node.module or "").split(".")[0])
    assert names and names <= set(sys.stdlib_module_names) | {"__future__"}, names - set(sys.stdlib_module_names)


def test_the_verifier_agrees_with_the_judge() -> None:
    seed = b"\x07" * 32
    row = {"seq": 3, "step": 1, "kind": "CardsDealt", "public": False, "seat": "west",
           "data": {"seat": "west", "cards": [3, 9], "rule": "R-6.4"}, "prev_hash": "ab" * 32, "inbox_id": 9}
    key = event_key(seed)
    row["secret"] = V.commitment(key, row["data"])
    assert V.row_hash("g", row, 2) == event_hash_v2(row["prev_hash"], "g", 3, "CardsDealt", row["data"], "west",
                                                     False, 1, 9, key)
    assert V.row_hash("g", row, 1) == event_hash(row["prev_hash"], "g", 3, "CardsDealt", row["data"], "west", False)
    for sides in (2, 6, 13, 52):
        assert [V.die(seed, "cd" * 32, 5, i, sides) for i in range(20)] == \
            [die_value(seed, 5, i, sides, "cd" * 32) for i in range(20)]
    pack = load_pack()
    ctx = Ctx(pack, rules.empty_state(pack).to_dict(), Dice(seed, 5, context="cd" * 32))
    ctx.roll(2, "a roll first", "R-2")
    order = ctx.shuffle(list(range(30)), "a shuffle", "R-6.4")
    shuffled = ctx.events[-1]
    assert shuffled.kind == "Shuffled" and shuffled.data["index"] == 2 and not shuffled.public
    assert V.shuffle(seed, "cd" * 32, 5, 2, list(range(30))) == (order, 2 + 29)


def test_during_the_game_the_chain_and_witnesses_are_checked(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    seq, head = judge.store.last_event("g1")
    write_archive(judge.store, "g1", tmp_path / "arch")
    meta, rows = V.load(tmp_path / "arch")
    assert meta["seed"] is None and meta["head"] == f"{head}@{seq}"
    assert all(r["data"] is None for r in rows if not r["public"])  # nothing private before the end
    out = _run(tmp_path / "arch", "--witness", f"{head}@{seq}", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "OK: hash chain intact" in out.stdout and "note: no seed yet" in out.stdout
    assert f"OK: witness {head[:12]}…@{seq}" in out.stdout


def test_after_an_abandoned_game_every_roll_is_checked(tmp_path: Path) -> None:
    judge = _game(tmp_path)
    witness = trust.abandon(judge, "g1", "the players moved away")
    assert judge.store.game("g1")["status"] == "abandoned"
    seeds = [r for r in judge.store.db["outbox"].rows_where("subject LIKE '%the dice seed%'")]
    assert len(seeds) == 4  # every seat is mailed the seed
    write_archive(judge.store, "g1", tmp_path / "arch")
    meta, rows = V.load(tmp_path / "arch")
    assert meta["seed"] == judge.store.game("g1")["seed"] and meta["status"] == "abandoned"
    assert [r["kind"] for r in rows[-2:]] == ["GameAbandoned", "SeedRevealed"]
    out = _run(tmp_path / "arch", "--witness", witness, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "12 orders documents" in out.stdout and "OK: the seed matches" in out.stdout
    # orders refused now, deadlines closed
    state = judge.state("g1")
    d = rules.pending(state)[0]
    doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step, "orders": d.default}
    assert judge.handle_message(player_mail(d.seat, doc)) == "rejected"
    assert judge.tick() == 0


def test_kinds_the_verifier_does_not_know_are_chained_like_any_other(tmp_path: Path) -> None:
    judge = _game(tmp_path, decisions=2)
    write_archive(judge.store, "g1", tmp_path / "arch")
    with judge.store.transaction():  # a host action of a later issue, of a kind nobody declared yet
        state = judge.state("g1")
        judge.store.append_events("g1", [{"kind": "HostRolledBack", "data": {"to": 3}, "seat": None,
                                          "public": True}], step=state.step)
    log = trust.log_lines(judge.store, "g1", reveal=False)
    lines = [json.dumps(x) for x in log]
    (tmp_path / "arch" / "log.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "arch" / "game.json").write_text(json.dumps(trust.game_meta(judge.store, "g1", log, reveal=False)))
    assert _run(tmp_path / "arch", cwd=tmp_path).returncode == 0
    row = json.loads(lines[-1])
    row["data"]["to"] = 2
    lines[-1] = json.dumps(row)
    (tmp_path / "arch" / "log.jsonl").write_text("\n".join(lines) + "\n")
    out = _run(tmp_path / "arch", cwd=tmp_path)
    assert out.returncode == 1
    assert f"FAIL: event {row['seq']} (HostRolledBack): its hash does not match its content" in out.stdout


def test_a_missing_archive_is_exit_2(tmp_path: Path) -> None:
    shutil.copyfile(SOURCE, tmp_path / "pbem_verify.py")
    out = _run(tmp_path, cwd=tmp_path)
    assert out.returncode == 2 and "cannot read" in out.stderr
