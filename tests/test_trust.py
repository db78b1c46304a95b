"""Issue 15, "done when": a whole game played through real mail (SMTP and IMAP on
loopback), the seed mailed to every seat at its end, the archive written, and the
standalone verifier — run by a Python with its standard library only (``-I -S``) from outside the repository, no pbem
importable — confirms the chain and every roll. Then each kind of tampering makes it
fail and name where: one event edited, one roll, one orders document, and the whole
chain rewritten from some point with every hash recomputed, caught by a witness a
player kept from an earlier report."""
from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from pbem import rules
from pbem.archive import write_archive
from pbem.service import make_judge, run_once
from pbem.service.verify import verify_game
from pbem.verifier import pbem_verify as V
from tests.conftest import ACCOUNTS, KEYS, SEATS, Table, make_config
from tests.mailservers import start_pymap
from tests.verifier.bare import imports, run_verifier

WITNESS = re.compile(r"\b([0-9a-f]{64}@\d+)\b")
COMMITMENT = re.compile(r"commitment is:\s+([0-9a-f]{64})")


@dataclass
class Played:
    """The archive of a finished game and what the players kept from their mail."""

    archive: Path
    witnesses: dict[int, str]  # event number -> witness, from every mail received
    report_witnesses: list[str]  # from turn reports, in the order received
    commitment: str
    seed: str
    decisions: int
    salted: int


def _run(archive: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The archive's own pbem_verify.py, by a Python with its standard library only
    (tests/verifier/bare.py: whatever PATH or an activated venv says)."""
    return run_verifier(archive, *args, cwd=cwd)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    tmp = tmp_path_factory.mktemp("trust")
    server = start_pymap(tmp / "pymap", ACCOUNTS)
    try:
        config = make_config(tmp, server, map_attachment=False)
        judge, poller = make_judge(config)
        judge.new_seed = lambda: bytes(range(32))
        judge.ensure_games()
        table = Table(server, config, judge, poller)
        run_once(judge, poller)
        rng = random.Random(15)
        decisions = salted = 0
        for _ in range(200):
            state = judge.state("g1")
            pending = rules.pending(state)
            if not pending:
                break
            d = pending[0]
            doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
                   "orders": rules.bot_orders(state, d.seat, rng)}
            if decisions % 3 == 0:  # some players salt their orders
                doc["salt"] = f"{d.seat} luck {decisions}"
                salted += 1
            table.send(d.seat, yaml.safe_dump(doc, sort_keys=False))
            assert list(run_once(judge, poller).values()) == ["applied"], (d, doc)
            decisions += 1
        assert not rules.pending(judge.state("g1")), "the game did not end"
        assert judge.store.game("g1")["status"] == "over"
        witnesses: dict[int, str] = {}
        reports: list[str] = []
        seeds = set()
        commitment = ""
        for seat in SEATS:
            mails = table.inbox(seat)
            kinds = set()
            for m in mails:
                text = table.text_of(m)
                subject = str(m["Subject"])
                found = WITNESS.findall(text)
                assert found, f"no witness in {subject!r} to {seat}"  # every mail carries one
                for w in found:
                    witnesses[int(w.split("@")[1])] = w
                if " report: " in subject:
                    kinds.add("report")
                    reports += found
                    if not commitment and COMMITMENT.search(text):
                        commitment = COMMITMENT.search(text).group(1)
                elif "accepted" in text.split("\n", 1)[0]:
                    kinds.add("receipt")
                elif "the dice seed" in subject:
                    kinds.add("seed")
                    seeds.add(re.search(r"published:\s+([0-9a-f]{64})", text).group(1))
            assert {"report", "receipt", "seed"} <= kinds, (seat, kinds)
        assert seeds == {bytes(range(32)).hex()}  # every seat got the seed by mail
        assert verify_game(judge.store, "g1").ok
        archive = tmp / "archive"
        write_archive(judge.store, "g1", archive)
        poller.close()
    finally:
        server.stop()
    return Played(archive, witnesses, reports, commitment, seeds.pop(), decisions, salted)


def _copy(played: Played, tmp_path: Path) -> tuple[Path, dict, list[dict]]:
    dest = tmp_path / "copy"
    shutil.copytree(played.archive, dest)
    meta, rows = V.load(dest)
    return dest, meta, rows


def _save(dest: Path, rows: list[dict]) -> None:
    """Write ``rows`` as the log, and game.json's head along with it (a forger would)."""
    (dest / "log.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    meta = json.loads((dest / "game.json").read_text(encoding="utf-8"))
    meta["head"] = f"{rows[-1]['hash']}@{rows[-1]['seq']}"
    (dest / "game.json").write_text(json.dumps(meta), encoding="utf-8")


def _rechain(meta: dict, rows: list[dict], start: int) -> None:
    """Forge the chain from row index ``start`` on: recompute every commitment and hash."""
    key = V.event_key(bytes.fromhex(meta["seed"]))
    for i in range(start, len(rows)):
        r = rows[i]
        r["prev_hash"] = rows[i - 1]["hash"] if i else V.GENESIS
        if not r["public"]:
            r["secret"] = V.commitment(key, r["data"], r["seq"] if meta["chain"] >= 3 else None)
        r["hash"] = V.row_hash(meta["game"], r, meta["chain"])


def _failure(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 1, out.stdout + out.stderr
    line = next(x for x in out.stdout.splitlines() if x.startswith("FAIL: "))
    return line


def test_the_standalone_verifier_confirms_every_roll_and_the_chain(played: Played, tmp_path: Path) -> None:
    assert not any(p.name.startswith("pbem") for p in tmp_path.iterdir())  # nothing to import here
    assert not imports("pbem", tmp_path)  # the verifier runs without the project
    kept = [a for w in played.witnesses.values() for a in ("--witness", w)]
    out = _run(played.archive, "--commitment", played.commitment, *kept, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    meta, rows = V.load(played.archive)
    assert meta["seed"] == played.seed and meta["status"] == "over"
    rolls = sum(1 for r in rows if r["kind"] == "DiceRolled")
    shuffles = sum(1 for r in rows if r["kind"] == "Shuffled")
    orders = sum(1 for r in rows if r["kind"] == "OrdersAccepted")
    assert orders == played.decisions > 40 and rolls > 0 and shuffles > 0
    assert sum(1 for r in rows if r["kind"] == "OrdersAccepted" and r["data"]["salt"]) == played.salted
    assert f"OK: {rolls} rolls" in out.stdout and f"{shuffles} shuffles" in out.stdout
    assert f"{orders} orders documents" in out.stdout
    assert f"OK: the seed matches the commitment {played.commitment}" in out.stdout
    assert out.stdout.count("OK: witness ") == len(played.witnesses)
    assert rows[0]["kind"] == "SeedCommitted" and rows[-1]["kind"] == "SeedRevealed"


def test_an_edited_event_is_named(played: Played, tmp_path: Path) -> None:
    dest, _meta, rows = _copy(played, tmp_path)
    i = next(i for i, r in enumerate(rows) if r["kind"] == "GarrisonPlaced" and r["public"] and i > 40)
    rows[i]["data"]["space"] = "babylon" if rows[i]["data"]["space"] != "babylon" else "susa"
    _save(dest, rows)
    fail = _failure(_run(dest, cwd=tmp_path))
    assert fail == f"FAIL: event {rows[i]['seq']} (GarrisonPlaced): its hash does not match its content: " \
                   "the event was edited"


def test_an_edited_roll_is_named_even_with_the_chain_recomputed(played: Played, tmp_path: Path) -> None:
    dest, meta, rows = _copy(played, tmp_path)
    i = [i for i, r in enumerate(rows) if r["kind"] == "DiceRolled"][len(rows) % 3]
    d = rows[i]["data"]
    d["values"][0] = d["values"][0] % d["sides"] + 1
    _rechain(meta, rows, i)
    _save(dest, rows)
    fail = _failure(_run(dest, cwd=tmp_path))
    assert fail.startswith(f"FAIL: event {rows[i]['seq']} (DiceRolled): die 1 of ")
    assert f"shows {d['values'][0]}, but the seed and the logged orders give" in fail


def test_an_edited_orders_document_is_named(played: Played, tmp_path: Path) -> None:
    dest, meta, rows = _copy(played, tmp_path)
    i = next(i for i, r in enumerate(rows) if r["kind"] == "OrdersAccepted" and i > len(rows) // 3)
    rows[i]["data"]["salt"] = "a salt nobody sent"
    _save(dest, rows)
    fail = _failure(_run(dest, cwd=tmp_path))  # against the commitment the chain held
    assert fail == f"FAIL: event {rows[i]['seq']} (OrdersAccepted): its private data does not match its " \
                   "commitment: the data was edited"
    _rechain(meta, rows, i)  # a forger recomputes the commitment and the chain: the dice give it away
    _save(dest, rows)
    fail = _failure(_run(dest, cwd=tmp_path))
    after = next(r for r in rows[i:] if r["kind"] in ("DiceRolled", "Shuffled"))
    m = re.match(r"FAIL: event (\d+) \((DiceRolled|Shuffled)\): ", fail)
    assert m and int(m.group(1)) >= after["seq"], fail


def test_a_chain_rewritten_from_some_point_is_caught_by_an_earlier_witness(played: Played, tmp_path: Path) -> None:
    dest, meta, rows = _copy(played, tmp_path)
    kept = played.report_witnesses[len(played.report_witnesses) // 2]  # from a report mid-game
    n = int(kept.split("@")[1])
    i = next(i for i, r in enumerate(rows) if r["kind"] == "PhaseStarted" and 10 < r["seq"] < n)
    rows[i]["data"]["rule"] = "R-0 (as the host would like it)"  # no die depends on it
    _rechain(meta, rows, i)
    _save(dest, rows)
    out = _run(dest, cwd=tmp_path)
    assert out.returncode == 0, out.stdout  # every hash and roll is consistent again …
    fail = _failure(_run(dest, "--witness", kept, cwd=tmp_path))  # … but not with what the player holds
    assert fail == f"FAIL: event {n} (witness): the witness {kept[:12]}…@{n} has another hash: the log was " \
                   f"rewritten at or before event {n}"
    cut = rows[: n - 1]  # a log cut back behind the witness
    _save(dest, cut)
    fail = _failure(_run(dest, "--witness", kept, cwd=tmp_path))
    assert f"names an event the log does not have (it ends at {n - 1}): events were removed" in fail
