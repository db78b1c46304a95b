"""The server-side figures of issue 14, through a real ``pbem run`` process.

    .venv/bin/python benchmarks/scale.py [--root CHECKOUT] [burst|latency|dovecot|start ...]

- ``burst``: 1,000 order mails (standing orders with a valid key and a rising ``seq``,
  each applied and answered with a receipt) across 20 games, sent over SMTP as fast as
  one client can to the embedded server of a running ``pbem run``. Prints mails/s
  (first to last mail handled) and the rate of each quarter of the burst: a flat cost
  as the backlog grows shows as four equal rates.
  ``burst-dovecot``: the same with Dovecot serving IMAP (the judge on IDLE).
- ``latency``: from the SMTP hand-over of one order mail to its receipt in the player's
  maildir, ten times with the judge idle, embedded server (``dovecot``: IMAP served by
  Dovecot over the same maildirs, the judge on IDLE as for a real account).
- ``start``: from starting ``pbem run`` with 100 games configured (402 accounts on the
  embedded server, maps on) to every setup mail delivered.

``--root`` runs another checkout's code (e.g. a copy of ``main``) with this venv.
Servers listen on 127.0.0.1 only; every wait is bounded.
"""
from __future__ import annotations

import argparse
import os
import smtplib
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parents[1]
SEATS = ("north", "east", "south", "west")
STANDING = {"standing": [{"when": "losses", "order": ["mercenary", "loyal"]}]}


def _pbem(root: Path):  # noqa: ANN202 - the module of the checkout under test
    sys.path.insert(0, str(root))
    from pbem import devmail, keys
    return devmail, keys


def write_config(tmp: Path, root: Path, games: int, *, devmail: bool = True, imap_port: int | None = None,
                 smtp_port: int | None = None, map_attachment: bool = True) -> tuple[Path, dict[str, str]]:
    """A config of ``games`` games of four seats (account ``gNNseat``) on the embedded
    server (or, with ``devmail`` False, on ``imap_port``/``smtp_port``); returns its
    path and each account's seat key."""
    dm, keys = _pbem(root)
    imap_port = imap_port or dm.free_port()
    smtp_port = smtp_port or dm.free_port()
    accounts = {"judge": "jpw", "host": "hpw"}
    seat_keys: dict[str, str] = {}
    games_conf = []
    for g in range(games):
        seats = []
        for s in SEATS:
            account = f"g{g:02d}{s}"
            accounts[account] = "pw"
            key = keys.new_key()
            seat_keys[account] = key
            seats.append({"seat": s, "player": s.title(), "email": f"{account}@pbem.localhost",
                          "key_hash": keys.hash_key(key)})
        games_conf.append({"id": f"g{g:02d}", "host_email": "host@pbem.localhost", "seats": seats})
    raw = {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / "pbem.sqlite"),
           "map_attachment": map_attachment,
           "imap": {"host": "127.0.0.1", "port": imap_port, "user": "judge", "password": "jpw",
                    "processed_folder": "Processed", "poll_interval": "30s"},
           "smtp": {"host": "127.0.0.1", "port": smtp_port},
           "devmail": {"enabled": devmail, "maildir": str(tmp / "mail"), "smtp_port": smtp_port,
                       "imap_port": imap_port, "accounts": accounts},
           "seat_reply_rate_per_hour": 1000, "games": games_conf}
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return path, seat_keys


def start_judge(root: Path, config: Path, log: Path) -> subprocess.Popen:
    """``pbem run -c config`` of the checkout ``root`` as a child process."""
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-c", "from pbem.cli import main; main()", "run", "-c", str(config)],
                            stdout=open(log, "ab"), stderr=subprocess.STDOUT, cwd=root, env=env)  # noqa: SIM115


def stop_judge(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def query(db: Path, sql: str, args: tuple = ()) -> tuple:
    """One row of a read-only query (None while the database does not exist yet)."""
    if not db.exists():
        return (None,)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return conn.execute(sql, args).fetchone()
    except sqlite3.OperationalError:
        return (None,)
    finally:
        conn.close()


def wait_for(check: Callable[[], bool], timeout: float, every: float = 0.05) -> float:
    """Poll ``check`` until true; the time it took. Raises TimeoutError after ``timeout``."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if check():
            return time.perf_counter() - t0
        time.sleep(every)
    raise TimeoutError(f"not done after {timeout:.0f} s")


def settled(db: Path, games: int) -> bool:
    """Every configured game exists and nothing is waiting in the outbox."""
    n = query(db, "SELECT count(*) FROM games")[0]
    pending = query(db, "SELECT count(*) FROM outbox WHERE status = 'pending'")[0]
    return n == games and pending == 0


def order_mail(account: str, key: str, game: str, seat: str, seq: int, mid: str) -> bytes:
    doc = {"game": game, "seat": seat, "key": key, "step": 0, "seq": seq, "orders": STANDING}
    return (f"From: {account}@pbem.localhost\nTo: judge@pbem.localhost\nSubject: standing orders\n"
            f"Message-ID: {mid}\n\n{yaml.safe_dump(doc, sort_keys=False)}").replace("\n", "\r\n").encode()


def burst(root: Path, n: int = 1000, games: int = 20, dovecot: bool = False) -> dict[str, float] | None:
    """See the module docstring. Returns mails/s overall and per quarter (None for
    ``dovecot`` without Dovecot installed)."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-burst-"))
    server = None
    if dovecot:
        server = _dovecot(tmp, root, games)
        if server is None:
            return None
        config, seat_keys = server[1], server[2]
    else:
        config, seat_keys = write_config(tmp, root, games)
    cfg = yaml.safe_load(config.read_text())
    db = tmp / "pbem.sqlite"
    judge = start_judge(root, config, tmp / "judge.log")
    try:
        wait_for(lambda: settled(db, games), 300)
        accounts = list(seat_keys)
        mails = []
        for i in range(n):
            account = accounts[i % len(accounts)]
            mails.append((account, order_mail(account, seat_keys[account], account[:3], account[3:],
                                              i // len(accounts) + 1, f"<burst-{i}@players.test>")))
        port = cfg["smtp"]["port"]
        t0 = time.perf_counter()
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            for account, raw in mails:
                smtp.sendmail(f"{account}@pbem.localhost", ["judge@pbem.localhost"], raw)
        sent = time.perf_counter() - t0
        marks: dict[int, float] = {}
        quarter = [n // 4, n // 2, 3 * n // 4, n]

        def progress() -> bool:
            done = query(db, "SELECT count(*) FROM inbox WHERE message_id LIKE '<burst-%'")[0] or 0
            for q in quarter:
                if done >= q and q not in marks:
                    marks[q] = time.perf_counter() - t0
            return done >= n
        wait_for(progress, 600, every=0.02)
        applied = query(db, "SELECT count(*) FROM inbox WHERE message_id LIKE '<burst-%' AND status = 'applied'")[0]
        wait_for(lambda: query(db, "SELECT count(*) FROM outbox WHERE status = 'pending'")[0] == 0, 600)
        replied = time.perf_counter() - t0
    finally:
        stop_judge(judge)
        if server is not None:
            server[0].stop()
    edges = [0.0] + [marks[q] for q in quarter]
    rates = [(n / 4) / (b - a) for a, b in zip(edges, edges[1:], strict=False)]
    return {"mails_per_s": n / marks[n], "sent_s": sent, "handled_s": marks[n], "replied_s": replied,
            "applied": applied, **{f"q{i + 1}_per_s": r for i, r in enumerate(rates)}}


def _latency_loop(db: Path, maildir: Path, smtp_port: int, seat_keys: dict[str, str], rounds: int,
                  tag: str) -> list[float]:
    account = next(iter(seat_keys))
    new = maildir / account / "new"
    out = []
    for i in range(rounds):
        time.sleep(0.5)  # the judge is idle again (waiting on IDLE or the wake event)
        mid = f"<latency-{tag}-{i}@players.test>"
        raw = order_mail(account, seat_keys[account], account[:3], account[3:], i + 1, mid)
        before = set(os.listdir(new)) if new.exists() else set()
        t0 = time.perf_counter()
        with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
            smtp.sendmail(f"{account}@pbem.localhost", ["judge@pbem.localhost"], raw)

        def answered() -> bool:
            for name in set(os.listdir(new)) - before if new.exists() else ():
                try:
                    if f"In-Reply-To: {mid}".encode() in (new / name).read_bytes():
                        return True
                except FileNotFoundError:  # moved to cur/ by the IMAP server: not ours to read
                    continue
            return False
        out.append(wait_for(answered, 60, every=0.005))
    return out


def latency(root: Path, rounds: int = 10) -> list[float]:
    """Seconds from SMTP hand-over to the receipt in the maildir, embedded server."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-latency-"))
    config, seat_keys = write_config(tmp, root, 1)
    cfg = yaml.safe_load(config.read_text())
    judge = start_judge(root, config, tmp / "judge.log")
    try:
        wait_for(lambda: settled(tmp / "pbem.sqlite", 1), 120)
        return _latency_loop(tmp / "pbem.sqlite", tmp / "mail", cfg["smtp"]["port"], seat_keys, rounds, "pymap")
    finally:
        stop_judge(judge)


def _dovecot(tmp: Path, root: Path, games: int):  # noqa: ANN202
    """(server, config path, seat keys): Dovecot serving IMAP over maildirs that this
    process's aiosmtpd fills, and a judge config for it (no embedded server: the judge
    waits with IDLE, as for a real account); None without Dovecot."""
    sys.path.insert(0, str(HERE))
    from tests.mailservers import DOVECOT, start_dovecot
    if not DOVECOT:
        return None
    probe, seat_keys = write_config(tmp, root, games)
    accounts = yaml.safe_load(probe.read_text())["devmail"]["accounts"]
    server = start_dovecot(None, accounts)
    config, _ = write_config(tmp, root, games, devmail=False, imap_port=server.imap_port, smtp_port=server.smtp_port)
    text = yaml.safe_load(config.read_text())
    for game in text["games"]:  # the probe's keys
        for seat in game["seats"]:
            seat["key_hash"] = _pbem(root)[1].hash_key(seat_keys[seat["email"].split("@")[0]])
    config.write_text(yaml.safe_dump(text, sort_keys=False))
    return server, config, seat_keys


def latency_dovecot(root: Path, rounds: int = 10) -> list[float] | None:
    """The same with Dovecot serving IMAP (the judge on IDLE, as for a real account);
    None without Dovecot."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-latency-dovecot-"))
    got = _dovecot(tmp, root, 1)
    if got is None:
        return None
    server, config, seat_keys = got
    try:
        judge = start_judge(root, config, tmp / "judge.log")
        try:
            wait_for(lambda: settled(tmp / "pbem.sqlite", 1), 120)
            return _latency_loop(tmp / "pbem.sqlite", server.root, server.smtp_port, seat_keys, rounds, "dovecot")
        finally:
            stop_judge(judge)
    finally:
        server.stop()


def start_games(root: Path, games: int = 100) -> float:
    """Seconds from starting ``pbem run`` with ``games`` games to every setup mail sent."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-start-"))
    config, _ = write_config(tmp, root, games)
    t0 = time.perf_counter()
    judge = start_judge(root, config, tmp / "judge.log")
    try:
        wait_for(lambda: settled(tmp / "pbem.sqlite", games), 900, every=0.1)
        return time.perf_counter() - t0
    finally:
        stop_judge(judge)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=HERE)
    ap.add_argument("what", nargs="*", default=["burst", "latency", "dovecot", "start"])
    args = ap.parse_args()
    root = args.root.resolve()
    for what in args.what:
        if what in ("burst", "burst-dovecot"):
            got = burst(root, dovecot=what == "burst-dovecot")
            print(f"{what}:", "Dovecot not installed" if got is None else {k: round(v, 2) for k, v in got.items()})
        elif what == "latency":
            got = latency(root)
            print(f"latency (embedded): median {statistics.median(got):.3f} s, max {max(got):.3f} s")
        elif what == "dovecot":
            got = latency_dovecot(root)
            print("latency (Dovecot):", "not installed" if got is None else
                  f"median {statistics.median(got):.3f} s, max {max(got):.3f} s")
        elif what == "start":
            print(f"100 games started in {start_games(root):.1f} s")


if __name__ == "__main__":
    main()
