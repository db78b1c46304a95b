"""Command-line interface: a thin layer over the library (see ARCHITECTURE.md).

Exit codes: 0 success, 1 a problem reported to the user (bad config, broken log…),
2 usage errors (click's own).
"""
from __future__ import annotations

import logging
import signal
import sys
import threading
from pathlib import Path

import click

from pbem.archive import archive as archive_command
from pbem.config import ConfigError, load_config
from pbem.pack.cli import data as data_group


def _load(config_path: str):
    try:
        return load_config(config_path)
    except ConfigError as exc:
        click.echo(f"{config_path}: the config has {len(exc.problems)} problem(s):", err=True)
        for p in exc.problems:
            click.echo(f"  {p}", err=True)
        sys.exit(1)


@click.group()
@click.version_option(package_name="pbem")
@click.option("-v", "--verbose", is_flag=True, help="Log more (debug level).")
def main(verbose: bool) -> None:
    """pbem: play-by-email adjudicator for Successors."""
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not verbose:  # the embedded SMTP server logs every command at INFO
        logging.getLogger("mail.log").setLevel(logging.WARNING)


@main.command()
@click.option("-c", "--config", "config_path", default="config.yaml", show_default=True,
              type=click.Path(dir_okay=False), help="The config file.")
@click.option("--once", is_flag=True, help="Do one cycle (fetch, apply, deadlines, send) and exit.")
def run(config_path: str, once: bool) -> None:
    """Poll the judge's mailbox and adjudicate until stopped (Ctrl-C).

    With `devmail.enabled: true` (the example config) the embedded local mail server is
    started first, so this works on a fresh machine with no mail account.
    """
    config = _load(config_path)
    from pbem.service import NETWORK_ERRORS, make_judge, run_forever, run_once

    dev = None
    stop = threading.Event()
    if config.devmail.enabled:
        dev = _start_devmail(config)
        click.echo(f"embedded mail server: SMTP 127.0.0.1:{dev.smtp_port}, IMAP 127.0.0.1:{dev.imap_port}, "
                   f"maildirs in {config.devmail.maildir}")
    try:
        judge, poller = make_judge(config)
        created = judge.ensure_games()
        for gid in created:
            click.echo(f"created game {gid}; prompts queued")
        click.echo(f"database: {config.database}")
        if once:
            try:
                handled = run_once(judge, poller)
            except NETWORK_ERRORS as exc:
                click.echo(f"mail server problem: {type(exc).__name__}: {exc}", err=True)
                sys.exit(1)
            finally:
                poller.close()
            click.echo(f"handled {len(handled)} message(s): {handled}")
            return
        # SIGTERM stops like Ctrl-C, also in the middle of an IDLE wait
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        click.echo(f"polling {config.imap.user}@{config.imap.host}:{config.imap.port}/{config.imap.folder} "
                   f"as {config.judge_address}; Ctrl-C to stop")
        if dev is not None:
            threading.Thread(target=_watch_devmail, args=(dev, stop), daemon=True).start()
        try:
            run_forever(judge, poller, stop)
        except KeyboardInterrupt:
            click.echo("stopped")
    finally:
        stop.set()  # first: the watchdog must not restart what we stop
        if dev is not None:
            dev.stop()


def _start_devmail(config):
    """Start the embedded mail server, or exit 1 with a one-line reason."""
    from pbem.devmail import DevMail, DevMailError

    dm = config.devmail
    try:
        return DevMail(dm.maildir, dm.accounts, smtp_port=dm.smtp_port, imap_port=dm.imap_port).start()
    except DevMailError as exc:
        click.echo(f"cannot start the embedded mail server: {exc}", err=True)
        sys.exit(1)


def _watch_devmail(dev, stop: threading.Event, every: float = 2.0) -> None:
    """Restart the embedded IMAP server if it exits while the judge runs."""
    log = logging.getLogger("pbem.devmail")
    while not stop.wait(every):
        if not dev.imap_alive():
            log.error("the embedded IMAP server exited (see %s); restarting it", dev._log)
            try:
                dev.restart_imap()
            except Exception as exc:  # noqa: BLE001 - keep watching; the poller backs off meanwhile
                log.error("restarting the embedded IMAP server failed: %s", exc)


@main.command()
@click.option("-c", "--config", "config_path", default="config.yaml", show_default=True,
              type=click.Path(dir_okay=False))
def devmail(config_path: str) -> None:
    """Run only the embedded local mail server (SMTP + IMAP on 127.0.0.1) until Ctrl-C."""

    config = _load(config_path)
    dm = config.devmail
    with _start_devmail(config) as dev:
        click.echo(f"SMTP 127.0.0.1:{dev.smtp_port}  IMAP 127.0.0.1:{dev.imap_port}  maildirs: {dm.maildir}")
        click.echo("accounts: " + ", ".join(f"{u}@{dm.domain}" for u in dm.accounts))
        stop = threading.Event()
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass


@main.command()
@click.option("--out", "out_dir", default="demo-out", show_default=True, type=click.Path(file_okay=False),
              help="Where the demo leaves its config, database, mailboxes and reports.")
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(1, 30),
              help="Full rounds (every seat plays once per round) to play.")
@click.option("--turns", default=0, show_default=True, type=click.IntRange(0, 5),
              help="Play whole game turns instead (every round, Tyche-only segments, isolation, "
                   "the next turn's reinforcements); overrides --rounds.")
@click.option("--seed", default=None, type=int, help="Seed of the scripted players' choices.")
def demo(out_dir: str, rounds: int, turns: int, seed: int | None) -> None:
    """Play a 4-seat game through real mail on the embedded server and show the result."""
    from pbem.demo import run_demo

    result = run_demo(Path(out_dir), rounds=rounds, seed=seed, echo=click.echo, turns=turns)
    click.echo(result.summary())


@main.group()
def key() -> None:
    """Seat keys: make one, or hash one for the config."""


@key.command("new")
def key_new() -> None:
    """Print a new random seat key and its hash (send the key to the player, put the
    hash in the config)."""
    from pbem.keys import hash_key, new_key

    k = new_key()
    click.echo(f"key:      {k}\nkey_hash: {hash_key(k)}")


@key.command("hash")
@click.argument("seat_key")
def key_hash(seat_key: str) -> None:
    """Print the hash of SEAT_KEY for the config's `key_hash`."""
    from pbem.keys import hash_key

    click.echo(hash_key(seat_key))


@main.command()
@click.option("-c", "--config", "config_path", default="config.yaml", show_default=True,
              type=click.Path(dir_okay=False))
@click.argument("game_id")
def verify(config_path: str, game_id: str) -> None:
    """Check a game's event log: the hash chain, and that replaying every event from the
    initial position gives the live state."""
    from pbem import rules
    from pbem.store import Store

    config = _load(config_path)
    store = Store(config.database)
    if store.game(game_id) is None:
        click.echo(f"no game {game_id!r} in {config.database}", err=True)
        sys.exit(1)
    problems = store.verify_chain(game_id)
    first, last = store.first_snapshot(game_id), store.snapshot(game_id)
    events = [rules.Event(kind=e.kind, data=e.data, public=e.public, seat=e.seat) for e in store.events(game_id)]
    replayed = rules.fold(rules.GameState.from_dict(first[1]), events)
    if replayed.to_dict() != rules.GameState.from_dict(last[1]).to_dict():
        problems.append("replaying the log does not give the stored live state")
    if problems:
        for p in problems:
            click.echo(p, err=True)
        sys.exit(1)
    click.echo(f"{game_id}: {len(events)} events, hash chain intact, replay equals live state")


@main.command()
@click.option("-c", "--config", "config_path", default="config.yaml", show_default=True,
              type=click.Path(dir_okay=False))
def status(config_path: str) -> None:
    """List games with their step, who is to act, and the outbox."""
    from pbem import rules
    from pbem.service import Judge
    from pbem.store import Store

    config = _load(config_path)
    store = Store(config.database)
    judge = Judge(config, store)
    for row in store.db["games"].rows:
        st = judge.state(row["id"])
        waiting = ", ".join(f"{d.seat} ({d.kind})" for d in rules.pending(st)) or "-"
        click.echo(f"{row['id']}: {row['status']}, turn {st.turn}, step {st.step}, waiting for {waiting}")
    if not store.db["games"].count:
        click.echo("no game yet: `pbem run` creates the games of the config")
    for row in store.db["deadlines"].rows_where("expired_at IS NULL", order_by="due_at"):
        click.echo(f"  deadline: {row['game_id']} step {row['step']} {row['seat']} ({row['kind']}) "
                   f"due {row['due_at']}")
    for row in store.db["seats"].rows_where("bouncing = 1"):
        click.echo(f"  bouncing: {row['game_id']} {row['seat']} {row['email']} since {row['bounced_at']}")
    counts = store.db.execute("SELECT status, count(*) FROM outbox GROUP BY status").fetchall()
    click.echo("outbox: " + (", ".join(f"{n} {s}" for s, n in counts) or "empty"))
    for row in store.db["outbox"].rows_where("status != 'sent' AND last_error IS NOT NULL", order_by="id"):
        click.echo(f"  {row['status']}: to {row['to_addr']} ({row['kind']}), {row['attempts']} attempt(s): "
                   f"{row['last_error']}")
    for row in store.db.execute("SELECT sender, count(*), max(fetched_at) FROM inbox WHERE reason LIKE "
                                "'%answer suppressed: rate limit%' GROUP BY sender ORDER BY sender").fetchall():
        click.echo(f"  not answered (reply rate limit): {row[1]} mail(s) from {row[0]}, last {row[2]}")


main.add_command(data_group)
main.add_command(archive_command)
