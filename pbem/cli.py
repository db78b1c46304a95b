"""Command-line interface: a thin layer over the library (see ARCHITECTURE.md).

Exit codes: 0 success, 1 a problem reported to the user (bad config, broken log…),
2 usage errors (click's own).

Start-up time: the commands import the service (:mod:`pbem.service`), the archive, the
demo and the map drawing (:mod:`pbem.report.mapview`) inside themselves, and only
those; everything else (config, keys, store, the pack) is imported here. Importing the
service loads the rules core, the reports, cairo, Pillow and the mail servers, and every
command would pay for it: measured as whole processes on a 2-core machine (median of
10 runs, issue 26 item 5), ``pbem --help`` takes 0.38 s of CPU (0.47 s wall) with these
imports deferred and 1.18 s (1.70 s wall) with all of them at the top, and ``pbem key
new``, ``pbem key hash`` and ``pbem data check`` likewise; ``pbem status`` needs the
service either way (1.12 s of CPU both ways). tests/test_import_structure.py holds this
file to exactly these deferred imports.
"""
from __future__ import annotations

import json
import logging
import shutil
import signal
import sys
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

import click
from pythonjsonlogger.json import JsonFormatter

from pbem import i18n, problem_texts
from pbem.config import ConfigError, load_config
from pbem.gamesettings import GameSettings
from pbem.keys import hash_key, new_key
from pbem.pack.cli import data as data_group
from pbem.pack.loader import PackError, load_pack
from pbem.problems import Problem
from pbem.store import Store, StoreError


def config_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``-c/--config`` option every command takes (default ``config.yaml``), with
    what the command uses the config for as its help."""
    return click.option("-c", "--config", "config_path", default="config.yaml", show_default=True,
                        type=click.Path(dir_okay=False), help=help_text)


def _fail(message: str) -> NoReturn:
    """Print ``message`` on stderr and exit 1."""
    click.echo(message, err=True)
    sys.exit(1)


def _open_store(config, readonly: bool = False, create: bool = False):
    """The config's store, or exit 1 with the reason (read-only, missing…); ``create``:
    a missing database is made (``pbem game new``, ``pbem game open``)."""
    if not create and not Path(config.database).exists():
        _fail(f"no database at {config.database} yet: `pbem run` creates it")
    try:
        store = Store(config.database, readonly=readonly)
    except StoreError as exc:
        _fail(str(exc))
    if store.migrated:  # an upgrade: say where the copy is, and verify every game (issue 30)
        from pbem.service.hosting import verify_all

        click.echo(f"database upgraded ({', '.join(store.migrated)}); the copy taken before it: "
                   f"{store.migration_backup}", err=True)
        checked = verify_all(store, Path(config.database))
        for line in checked.lines():
            click.echo(f"  {line}", err=True)
        if not checked.ok:
            _fail(f"a game does not verify after the upgrade: stop and restore the copy "
                  f"(`pbem restore {store.migration_backup}`)")
    return store


def _game_store(config, game_id: str):
    """The store that holds ``game_id`` read-only: the live database, or the archive
    database for a finished game moved there (issue 30 item 7); exit 1 when neither
    has it."""
    from pbem.service.retention import store_for

    store = _open_store(config, readonly=True)
    if store.game(game_id) is not None:
        return store
    archived = store_for(config, store, game_id)
    if archived is None or archived.game(game_id) is None:
        _fail(f"no game {game_id!r} in {config.database}" + (
            f" (it moved to the archive database {store.moved_game(game_id)['archive']}, which is missing)"
            if store.moved_game(game_id) else ""))
    return archived


def _load(config_path: str, secrets: bool = False):
    """The config; ``secrets``: the command logs in to a mail server (`run`, `devmail`,
    `quarantine retry`), so the passwords must be there (the others never need them)."""
    try:
        return load_config(config_path, secrets=secrets)
    except ConfigError as exc:
        click.echo(f"{config_path}: the config has {len(exc.problems)} problem(s):", err=True)
        for p in exc.problems:
            click.echo(f"  {p}", err=True)
        sys.exit(1)


@click.group()
@click.version_option(package_name="pbem")
@click.option("-v", "--verbose", is_flag=True, help="Log more (debug level).")
@click.option("--log-json", is_flag=True,
              help="Log one JSON object a line (time, level, logger, message), `pbem run`'s progress too.")
@click.pass_context
def main(ctx: click.Context, verbose: bool, log_json: bool) -> None:
    """pbem: play-by-email adjudicator for Successors."""
    ctx.obj = {"log_json": log_json}
    level = logging.DEBUG if verbose else logging.INFO
    if log_json:
        handler = logging.StreamHandler()
        handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                                           rename_fields={"asctime": "time", "levelname": "level", "name": "logger"}))
        logging.basicConfig(level=level, handlers=[handler], force=True)
    else:
        logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not verbose:  # the embedded SMTP server logs every command at INFO
        logging.getLogger("mail.log").setLevel(logging.WARNING)


@main.command()
@config_option("The config file.")
@click.option("--once", is_flag=True, help="Do one cycle (fetch, apply, deadlines, send) and exit.")
@click.pass_context
def run(ctx: click.Context, config_path: str, once: bool) -> None:
    """Poll the judge's mailbox and adjudicate until stopped (Ctrl-C).

    With `devmail.enabled: true` (the example config) the embedded local mail server is
    started first, so this works on a fresh machine with no mail account.
    """
    from pbem.service.runner import RunError, serve

    config = _load(config_path, secrets=True)
    # SIGTERM stops like Ctrl-C, also in the middle of an IDLE wait
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        progress = logging.getLogger("pbem.run").info if (ctx.obj or {}).get("log_json") else click.echo
        handled = serve(config, once=once, echo=progress)
    except RunError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        click.echo("stopped")
        return
    if once:
        click.echo(f"handled {len(handled or {})} message(s): {handled}")


@main.command()
@config_option("The config file (its database and servers are used).")
def devmail(config_path: str) -> None:
    """Run only the embedded local mail server (SMTP + IMAP on 127.0.0.1) until Ctrl-C."""
    from pbem.service.runner import RunError, start_devmail

    config = _load(config_path, secrets=True)
    dm = config.devmail
    try:
        dev = start_devmail(config)
    except RunError as exc:
        _fail(str(exc))
    try:
        click.echo(f"SMTP 127.0.0.1:{dev.smtp_port}  IMAP 127.0.0.1:{dev.imap_port}  maildirs: {dm.maildir}")
        click.echo("accounts: " + ", ".join(f"{u}@{dm.domain}" for u in dm.accounts))
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        dev.stop()


@main.command()
@click.option("--out", "out_dir", default="demo-out", show_default=True, type=click.Path(file_okay=False),
              help="Where the demo leaves its config, database, mailboxes and reports.")
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(1, 30),
              help="Full rounds (every seat plays once per round) to play.")
@click.option("--turns", default=0, show_default=True, type=click.IntRange(0, 5),
              help="Play whole game turns instead (every round, Tyche-only segments, isolation, "
                   "the next turn's reinforcements); overrides --rounds.")
@click.option("--seed", default=None, type=int,
              help="Seed of the scripted players' choices, to play the same choices again; without it "
                   "they are random, so every demo plays differently (the game's dice always come from "
                   "a new secret seed).")
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
    k = new_key()
    click.echo(f"key:      {k}\nkey_hash: {hash_key(k)}")


@key.command("hash")
@click.argument("seat_key")
def key_hash(seat_key: str) -> None:
    """Print the hash of SEAT_KEY for the config's `key_hash`."""
    click.echo(hash_key(seat_key))


@main.command()
@config_option("The config file (its database and servers are used).")
@click.option("--witness", "witnesses", multiple=True, metavar="HASH@N",
              help="A log witness from a turn report (repeatable): event N must have this hash.")
@click.argument("game_id")
def verify(config_path: str, game_id: str, witnesses: tuple[str, ...]) -> None:
    """Check a game's event log: the hash chain, that replaying every event from the
    initial position gives the live state, that steps, snapshots and applied mail agree
    with the log, every roll against the seed and the logged orders, that carrying the
    logged orders out again gives the logged events (docs/trust.md), and each --witness."""
    from pbem.service.verify import verify_game

    config = _load(config_path)
    store = _game_store(config, game_id)
    try:
        result = verify_game(store, game_id, witnesses)
    except ValueError as exc:
        if str(exc).startswith("not a witness"):
            _fail(str(exc))
        _fail(f"{game_id} cannot be verified: {exc} (the database was damaged or edited by hand)")
    except Exception as exc:  # noqa: BLE001 - a row edited by hand is a finding, not a crash (issue 25)
        _fail(f"{game_id} cannot be verified: a row does not read as the judge writes it ({type(exc).__name__}: "
              f"{exc}); the database was damaged or edited by hand")
    for p in result.problems:
        click.echo(p, err=True)
    if not result.ok:
        sys.exit(1)
    click.echo(f"{game_id}: {result.events} events, hash chain intact, replay equals live state"
               + (", every roll recomputed, re-adjudication equals the log" if result.dice else ""))


@main.command()
@config_option("The judge's config file (its database holds the game).")
@click.option("--reason", default="", help="Why, for the players (in the log and the mail).")
@click.argument("game_id")
def abandon(config_path: str, game_id: str, reason: str) -> None:
    """End GAME_ID before its end: the log records it, the dice seed is published and
    mailed to every seat (docs/trust.md); the game takes no more orders."""
    from pbem.service.judge import Judge
    from pbem.service.log.trust import abandon as abandon_game

    config = _load(config_path)
    try:
        head = abandon_game(Judge(config, _open_store(config)), game_id, reason)
    except KeyError:
        _fail(f"no game {game_id!r} in {config.database}")
    except ValueError as exc:
        _fail(str(exc))
    click.echo(f"{game_id}: abandoned; the seed is queued to every seat. Log witness: {head}")


@main.group()
def game() -> None:
    """Games kept in the database (issue 16): create one without editing the config."""


@game.command("new")
@config_option("The config file (its database and servers are used).")
@click.option("--seat", "seats", multiple=True, metavar="SEAT=PLAYER<EMAIL>",
              help="One seat, its player and address, e.g. 'north=Ann <ann@example.org>' (one per seat).")
@click.option("--bot", "bot_seats", multiple=True, metavar="SEAT",
              help="A seat the game's bot plays from the start (repeatable; which bot: --setting bot=).")
@click.option("--host", "host_email", required=True, help="The host's address (host notices, host commands).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A rule option (repeatable).")
@click.option("--setting", "settings", multiple=True, metavar="KEY=VALUE",
              help="A table setting: time_zone, allowed_days, grace, nmr_limit, absence_limit_days, press, "
                   "grey_press, publish_press, civil_disorder, bot, bot_seconds, bot_playouts, host_language, "
                   "vote_hours, substitutes, observers, min_finished_games, max_missed_share (repeatable).")
@click.option("--time-zone", default=None, help="The game's time zone (IANA name), same as --setting time_zone=.")
@click.option("--language", "languages", multiple=True, metavar="SEAT=LANG",
              help="A seat's mail language: en (the default), es or ru, e.g. west=es (repeatable).")
@click.option("--host-language", default=None, metavar="LANG",
              help="The language of the host's mail (en, es, ru), same as --setting host_language=.")
@click.argument("game_id")
def game_new(config_path: str, seats: tuple[str, ...], bot_seats: tuple[str, ...], host_email: str,
             options: tuple[str, ...], settings: tuple[str, ...], time_zone: str | None,
             languages: tuple[str, ...], host_language: str | None, game_id: str) -> None:
    """Create GAME_ID in the database: setup, first reports and prompts, the table in the
    log, and a welcome with the seat key to each player. Prints the host key once."""
    from pbem.service.judge import Judge
    from pbem.service.play.setup import (
        new_game,
        parse_pairs,
        parse_seat,
        with_languages,
    )

    try:
        new_seats = with_languages([parse_seat(item) for item in seats], languages)
        table = (parse_pairs(settings, "setting") | ({"time_zone": time_zone} if time_zone else {})
                 | ({"host_language": host_language} if host_language else {}))
        rule_options = parse_pairs(options, "option")
    except ValueError as exc:
        _fail(str(exc))
    config = _load(config_path)
    store = _open_store(config, create=True)
    try:
        made = new_game(Judge(config, store), game_id, new_seats, host_email=host_email,
                        options=rule_options, settings=table, bot_seats=bot_seats)
    except ValueError as exc:
        _fail(str(exc))
    finally:
        store.close()
    click.echo(f"{game_id}: created; a welcome with the seat key is queued to each player "
               f"(`pbem run` sends it). Log witness: {made.witness}")
    click.echo(f"host key (keep it; host commands by mail carry it): {made.host_key}")


@game.command("open")
@config_option("The config file (its database and servers are used).")
@click.option("--host", "host_email", required=True, help="The host's address (host notices, host commands).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A rule option (repeatable).")
@click.option("--setting", "settings", multiple=True, metavar="KEY=VALUE", help="A table setting (as game new).")
@click.option("--time-zone", default=None, help="The game's time zone (IANA name), same as --setting time_zone=.")
@click.argument("game_id")
def game_open(config_path: str, host_email: str, options: tuple[str, ...], settings: tuple[str, ...],
              time_zone: str | None, game_id: str) -> None:
    """Open GAME_ID for sign-up by mail (`game: ID` and `join: SEAT|any`): it starts when
    its four seats are taken (docs/host-guide.md). Prints the host key once."""
    from pbem.service.commands.join import open_game
    from pbem.service.judge import Judge
    from pbem.service.play.setup import parse_pairs

    try:
        table = parse_pairs(settings, "setting") | ({"time_zone": time_zone} if time_zone else {})
        rule_options = parse_pairs(options, "option")
    except ValueError as exc:
        _fail(str(exc))

    config = _load(config_path)
    store = _open_store(config, create=True)
    try:
        key = open_game(Judge(config, store), game_id, host_email=host_email, options=rule_options,
                        settings=table)
    except ValueError as exc:
        _fail(str(exc))
    finally:
        store.close()
    click.echo(f"{game_id}: open for sign-up; players join by mailing {config.judge_address} "
               f"`game: {game_id}` and `join: any` (or a seat).")
    click.echo(f"host key (keep it; host commands by mail carry it): {key}")


@game.command("observers")
@config_option("The config file (its database and servers are used).")
@click.argument("game_id")
@click.argument("action", type=click.Choice(["list", "add", "remove"]), default="list")
@click.argument("address", required=False)
def game_observers(config_path: str, game_id: str, action: str, address: str | None) -> None:
    """List GAME_ID's observers, or allow ADDRESS to observe it (add: it then mails
    `command: observe`) or take that back (remove). Needs the game's setting
    `observers: host` (or `anyone`; docs/host-guide.md, "Observers")."""
    from pbem.service.commands.anyone.observe import allow, listing
    from pbem.service.commands.registry import refusal_in
    from pbem.service.judge import Judge
    from pbem.service.outgoing.host_notices import host_translations

    if action != "list" and not address:
        _fail(f"`pbem game observers {game_id} {action}` needs an ADDRESS")
    config = _load(config_path)
    store = _open_store(config)
    try:
        judge = Judge(config, store)
        tr = host_translations(judge, game_id)  # the host's language (issue 28)
        if action == "list":
            click.echo(listing(judge, game_id, tr))
        else:
            with store.transaction():
                click.echo(allow(judge, game_id, str(address), remove=action == "remove", tr=tr))
    except KeyError:
        _fail(f"no running game {game_id!r} in {config.database}")
    except ValueError as exc:
        _fail(refusal_in(exc, tr) or str(exc))
    finally:
        store.close()


@game.command("close")
@config_option("The config file (its database and servers are used).")
@click.option("--seat", default=None, help="Free only this seat (its player is told); the sign-up stays open.")
@click.option("--reason", default="", help="Why (told to the players).")
@click.argument("game_id")
def game_close(config_path: str, seat: str | None, reason: str, game_id: str) -> None:
    """Close GAME_ID's sign-up (it will not start; the players who joined are told), or
    with --seat free one seat taken by a join you do not want (docs/host-guide.md).
    `pbem run` sends the notices."""
    from pbem.service.commands.join import close_game, free_seat
    from pbem.service.judge import Judge

    config = _load(config_path)
    store = _open_store(config)
    try:
        judge = Judge(config, store)
        if seat:
            player = free_seat(judge, game_id, seat.strip().lower(), reason)
            click.echo(f"{game_id}: seat {seat} is free again ({player} is told); the sign-up stays open.")
        else:
            taken = close_game(judge, game_id, reason)
            click.echo(f"{game_id}: sign-up closed; {len(taken)} player(s) who joined are told.")
    except ValueError as exc:
        _fail(str(exc))
    finally:
        store.close()


@main.command("host")
@config_option("The config file (its database and servers are used).")
@click.option("--reason", default="", help="Why, for the players (pause, resume, end, rollback).")
@click.option("--hours", type=float, default=None, help="extend: by how many hours.")
@click.option("--seat", default=None, help="extend, resend: only this seat; replace, approve: the seat.")
@click.option("--player", default=None, metavar="'NAME <EMAIL>'", help="replace: the seat's new player.")
@click.option("--winner", default=None, metavar="SEAT", help="end: the seat that wins.")
@click.option("--abandon", is_flag=True, help="end: without a winner (the game is abandoned).")
@click.option("--to-step", type=int, default=None, help="rollback: the earlier step whose position comes back.")
@click.option("--bot", is_flag=True, help="replace: the game's bot takes the seat instead of a person.")
@click.option("--add", default=None, metavar="ADDRESS", help="observers: allow this address to observe the game.")
@click.option("--remove", default=None, metavar="ADDRESS", help="observers: this address may no longer observe.")
@click.option("--url", default=None, metavar="URL", help="webhook: post your host notices there too (`off`: no more).")
@click.argument("command", type=click.Choice(["status", "pause", "resume", "extend", "replace", "approve", "resend",
                                              "end", "rollback", "observers", "webhook"]))
@click.argument("game_id")
def host_command(config_path: str, reason: str, hours: float | None, seat: str | None, player: str | None,
                 winner: str | None, abandon: bool, to_step: int | None, bot: bool, add: str | None,
                 remove: str | None, url: str | None, command: str, game_id: str) -> None:
    """Run host COMMAND on GAME_ID (status, pause, resume, extend, replace,
    approve, resend, end, rollback, observers, webhook): an event in the
    game's log, the players told where it concerns them (docs/host-guide.md)."""
    from pbem.service.commands.host_commands import run as run_host
    from pbem.service.judge import Judge
    from pbem.service.outgoing.host_notices import host_translations

    config = _load(config_path)
    judge = Judge(config, _open_store(config))
    try:
        done = run_host(judge, game_id, command, reason=reason, hours=hours, seat=seat,
                        player=player, winner=winner, abandon=abandon, to_step=to_step, bot=bot, add=add,
                        remove=remove, url=url, via="cli")
    except KeyError:
        store = _open_store(config)
        row = store.signup(game_id)
        if row is None:
            _fail(f"no game {game_id!r} in {config.database}")
        # the host's language (issue 28): the sign-up's host_language
        tr = i18n.translations(GameSettings.from_dict(row.get("settings")).host_language)
        taken = {r["seat"]: r["player"] for r in store.signup_seats(game_id)}
        joined = ", ".join(f"{s}: {p}" for s, p in taken.items()) or tr.gettext("nobody yet")
        if command != "status":
            _fail(tr.gettext("%(game)s is open for sign-up and has not started (%(taken)d of 4 seats taken: "
                             "%(joined)s); `%(command)s` works once it starts") % {
                "game": game_id, "taken": len(taken), "joined": joined, "command": command})
        click.echo(tr.gettext("%(game)s is open for sign-up; joined: %(joined)s. It starts when the last seat is "
                              "taken.") % {"game": game_id, "joined": joined})
        return
    except (ValueError, OverflowError) as exc:  # OverflowError: a deadline moved past the year 9999
        _fail(_refused(judge, game_id, exc))
    tr = host_translations(judge, game_id)  # the host's language (issue 28)
    click.echo(i18n.localize(done.text, tr))
    if done.witness:
        click.echo(tr.gettext("Log witness: %(witness)s") % {"witness": done.witness})


def _refused(judge: Any, game_id: str, exc: Exception) -> str:
    """A refused ``pbem host`` command as its host reads it (issue 28): the reason in
    the host's language when the refusal carries it (``Refused``), else, in a language
    other than English, the refusal's text by its code (``host.refused``, as the mail
    answers it) first and the command's own reason after it, since it names what to run
    instead."""
    from pbem.service.commands.registry import refusal_in
    from pbem.service.outgoing.host_notices import host_translations

    tr = host_translations(judge, game_id)
    reason = str(exc)
    said = refusal_in(exc, tr)
    if said is not None or i18n.language_of(tr) == i18n.DEFAULT:
        return said if said is not None else reason
    said = problem_texts.localized(Problem(message=reason, where="command", code="host.refused"), tr)
    return f"{said.message} {said.hint}\n{reason}"


@main.command()
@config_option("The config file (its database and servers are used).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (games, outbox, faults, health).")
@click.option("--check", is_flag=True,
              help="Health check for a supervisor: exit 0 when the judge cycles and nothing waits for the host, "
                   "1 when the judge is not cycling (restart it), 3 when it cycles but the host is needed.")
@click.option("--max-age", type=float, default=None, metavar="SECONDS",
              help="With --check: the oldest last cycle that counts as cycling (default: 3 poll intervals, "
                   "at least 120).")
def status(config_path: str, as_json: bool, check: bool, max_age: float | None) -> None:
    """List games with their step, who is to act, and the outbox."""
    from pbem.service.status import Status, health
    from pbem.service.status import status as game_status

    config = _load(config_path)
    store = _open_store(config, readonly=True) if Path(config.database).exists() else None
    found = game_status(store) if store is not None else Status()
    checked = (health(store, config.database, config.imap.poll_interval, datetime.now(UTC), max_age)
               if store is not None else None)
    if as_json:
        out = found.to_json()
        out["health"] = checked.to_json() if checked else {"code": 1, "problems": ["no database yet"]}
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for line in found.lines():
            click.echo(line)
        if check:
            for line in (checked.problems if checked else ["no database yet: `pbem run` creates it"]):
                click.echo(f"health: {line}")
            if checked is not None and checked.code == 0:
                click.echo("health: ok (the judge cycles, nothing waits for the host)")
    if check:
        sys.exit(checked.code if checked is not None else 1)


@main.group()
def outbox() -> None:
    """The outbox: mail waiting to be sent, and mail the server refused."""


@outbox.command("resend")
@config_option("The config file (its database and servers are used).")
@click.option("--id", "ids", multiple=True, type=int, help="Only this outbox row (repeatable); default: all failed.")
def outbox_resend(config_path: str, ids: tuple[int, ...]) -> None:
    """Queue failed outbox rows again (same Message-IDs); the running judge, or the next
    `pbem run --once`, sends them."""
    from pbem.service.outgoing.outbox import resend

    config = _load(config_path)
    done = resend(_open_store(config), list(ids) or None)
    click.echo(f"{len(done)} message(s) queued again: {', '.join(map(str, done)) or '-'}")


@main.group()
def quarantine() -> None:
    """Mail that made the judge fail, kept with its bytes: list it, and retry it once fixed."""


@quarantine.command("list")
@config_option("The judge's config file.")
def quarantine_list(config_path: str) -> None:
    """List quarantined, too-large and error mails: inbox id, status, sender, error."""
    from pbem.service.intake.quarantine import quarantined

    rows = quarantined(_open_store(_load(config_path), readonly=True))
    for r in rows:
        click.echo(f"{r['id']}\t{r['status']}\t{r['fetched_at']}\t{r['sender'] or '?'}\t{r['message_id']}\t"
                   f"{r['error'] or r['reason'] or ''}")
    click.echo(f"{len(rows)} mail(s)")


@quarantine.command("retry")
@config_option("The judge's config file.")
@click.argument("inbox_id", type=int)
def quarantine_retry(config_path: str, inbox_id: int) -> None:
    """Handle the quarantined mail INBOX_ID (an id of `pbem quarantine list`) again."""
    from pbem.service import Judge
    from pbem.service.base.context import RetryLater
    from pbem.service.intake.quarantine import CannotRetry, retry

    config = _load(config_path, secrets=True)
    judge = Judge(config, _open_store(config))
    try:
        outcome = retry(judge, inbox_id)
    except (CannotRetry, RetryLater) as exc:
        _fail(f"cannot retry inbox row {inbox_id}: {exc}")
    click.echo(f"inbox row {inbox_id} retried: {outcome}; answers go out with the next pass of `pbem run`")


@main.command()
@config_option("The config file (its database and `retention` section are used).")
@click.option("--dry-run", is_flag=True, help="Only list the games due to move or be pruned.")
def retention(config_path: str, dry_run: bool) -> None:
    """Move the finished games whose `retention.move_after` has come from the live database
    to the archive database (each copy verified first), and prune the raw mail and sent
    bodies of those whose `retention.prune_after` has come. `pbem run` does the same every
    six hours; this runs it now, for all of them. Exit 1 when a game could not move."""
    from pbem.service.retention import archive_path
    from pbem.service.retention import run as run_retention

    config = _load(config_path)
    store = _open_store(config, readonly=dry_run)
    try:
        done = run_retention(store, config, datetime.now(UTC), dry_run=dry_run)
    except Exception as exc:  # noqa: BLE001 - a database fault (sqlite3.Error, StoreError) is told, not a traceback
        _fail(f"retention stopped: {type(exc).__name__}: {exc}")
    if dry_run:
        for gid in done.moved:
            click.echo(f"{gid}: due to move to {archive_path(config)}")
        for gid in done.pruned:
            click.echo(f"{gid}: due to be pruned")
    else:
        for line in done.lines():
            click.echo(line)
    if not done.moved and not done.pruned and not done.held:
        click.echo("nothing is due")
    if done.held:
        sys.exit(1)


@main.command()
@config_option("The config file (its database is copied).")
@click.argument("dest", type=click.Path(dir_okay=False))
def backup(config_path: str, dest: str) -> None:
    """Write a consistent copy of the database to DEST (a new file) while `pbem run` may
    keep running (SQLite's online backup), then verify every game on the copy. Exit 1
    when the copy cannot be written or does not verify."""
    from pbem.service.hosting import backup as take_backup

    config = _load(config_path)
    if not Path(config.database).exists():
        _fail(f"no database at {config.database} yet: `pbem run` creates it")
    from pbem.service.hosting import archive_companion

    archive, archive_dest = config.retention.archive_db, archive_companion(dest)
    try:
        checked = take_backup(config.database, dest)
        archived = take_backup(archive, archive_dest) if archive is not None and Path(archive).exists() else None
    except StoreError as exc:
        _fail(str(exc))
    for line in checked.lines() + (archived.lines() if archived else []):
        click.echo(f"  {line}")
    if not checked.ok or (archived is not None and not archived.ok):
        _fail(f"the copy {dest} does NOT verify (lines above); keep the database and an older backup")
    click.echo(f"backup written to {dest}: {len(checked.games)} game(s), every one verifies"
               + (f"; the archive database to {archive_dest}: {len(archived.games)} finished game(s), every one "
                  "verifies" if archived else ""))


@main.command()
@config_option("The config file (its database is replaced).")
@click.option("--force", is_flag=True, help="Restore even a backup that does not verify.")
@click.option("--from-replica", "from_replica", is_flag=True,
              help="Restore the latest state of the config's Litestream replica (`replica` section) instead of SOURCE.")
@click.option("--timestamp", default=None, metavar="RFC3339",
              help="With --from-replica: the replica's state at this time (e.g. 2026-12-03T22:00:00Z).")
@click.argument("source", required=False, type=click.Path(dir_okay=False))
def restore(config_path: str, force: bool, from_replica: bool, timestamp: str | None, source: str | None) -> None:
    """Replace the database with the backup SOURCE, or with the Litestream replica
    (--from-replica). Refused while `pbem run` holds the database, and for a copy that
    does not verify (unless --force); the database replaced is kept beside it
    (<database>.before-restore-<time>). The next `pbem run` applies again the mail its
    mailbox's Processed folder holds that the restored copy lacks."""
    from pbem.service.hosting import RestoreRefused, archive_companion
    from pbem.service.hosting import restore as do_restore
    from pbem.service.replica import ReplicaError, local_state, restore_from_replica

    config = _load(config_path)
    if from_replica == (source is not None):
        _fail("give either SOURCE (a backup file) or --from-replica")
    if timestamp and not from_replica:
        _fail("--timestamp goes with --from-replica")
    try:
        if from_replica:
            done = restore_from_replica(config, force=force, timestamp=timestamp)
            source = f"the replica {config.replica.url}"
        else:
            done = do_restore(source, config.database, force=force)
            shutil.rmtree(local_state(config.database), ignore_errors=True)  # Litestream's, of the old one
            companion = archive_companion(source)
            if companion.exists() and config.retention.archive_db is not None:  # the archive database too (issue 30.7)
                archived = do_restore(companion, config.retention.archive_db, force=force)
                for line in archived.source.lines():
                    click.echo(f"  {line}")
                click.echo(f"restored the archive database {config.retention.archive_db} from {companion}")
    except (RestoreRefused, ReplicaError, StoreError) as exc:
        _fail(str(exc))
    for line in done.source.lines():
        click.echo(f"  {line}")
    kept = f"; the database it replaced is kept at {done.kept}" if done.kept else ""
    click.echo(f"restored {config.database} from {source}{kept}. Start `pbem run` again: it first applies again "
               "the mail the copy lacks.")


@main.command("archive")
@config_option("The config file (its database is read).")
@click.argument("game_id")
@click.argument("out_dir", type=click.Path(file_okay=False))
def archive_command(config_path: str, game_id: str, out_dir: str) -> None:
    """Write GAME_ID's static HTML archive into OUT_DIR: every public report and map,
    the dice ledger and the log's hash chain (open OUT_DIR/index.html from disk)."""
    from pbem.archive import write_archive

    config = _load(config_path)
    try:
        game = config.game(game_id)
        res = write_archive(_game_store(config, game_id), game_id, out_dir,
                            publish_press=game.settings.publish_press if game is not None else None)
    except KeyError:
        _fail(f"no game {game_id!r} in {config.database}")
    click.echo(f"{game_id}: {res.reports} reports, {res.rolls} dice rolls, {res.rows} log rows -> "
               f"{res.out_dir / 'index.html'}")
    for page in sorted(f for f in res.files if f.endswith("/index.html")):  # the seats' other languages
        click.echo(f"  {page.split('/')[0]}: {res.out_dir / page}")


@data_group.command(name="map")
@click.argument("out_prefix", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--pack", "pack_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Draw this pack directory instead of the built-in pack.")
@click.option("--width", default=1600, show_default=True, help="PNG width in pixels.")
def map_cmd(out_prefix: Path, pack_dir: Path | None, width: int) -> None:
    """Write OUT_PREFIX.svg and OUT_PREFIX.png of the map."""
    from pbem.report.mapview import write_map_files

    try:
        svg_path, png_path = write_map_files(load_pack(pack_dir), out_prefix, width)
    except PackError as exc:
        _fail(str(exc))
    click.echo(f"wrote {svg_path} and {png_path}")


main.add_command(data_group)
