"""`pbem quarantine list` and `pbem quarantine retry ID` (issue 17, break-it 9d): a
mail kept by the quarantine is handled again from its stored bytes once the cause is
gone; rows without their bytes are refused with a reason."""
from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import yaml
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.service import Judge
from pbem.service.intake import intake
from pbem.store import Store
from tests.conftest import KEYS
from tests.service.helpers import mail, write_config


def test_breakit9d_a_quarantined_mail_is_listed_and_retried_from_the_cli(tmp_path: Path) -> None:
    path, config = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=1))
    judge = Judge(config, Store(config.database))
    judge.ensure_games()
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
           "orders": rules.bot_orders(state, seat, random.Random(5))}
    raw = mail(seat, yaml.safe_dump(doc, sort_keys=False), message_id="<kept@players.test>")
    # what the guard does with a mail that made a stage raise (a bug since fixed)
    assert intake.quarantine(judge, raw, RuntimeError("a bug in the rules"), "handle", 7, 42, "INBOX") == "quarantined"
    assert intake.handle_message(judge, raw) == "quarantined", "the same bytes stay quarantined"
    iid = next(r["id"] for r in judge.store.quarantined())
    runner = CliRunner()
    listed = runner.invoke(main, ["quarantine", "list", "-c", str(path)])
    assert listed.exit_code == 0 and "<kept@players.test>" in listed.output and "a bug in the rules" in listed.output
    done = runner.invoke(main, ["quarantine", "retry", "-c", str(path), str(iid)])
    assert done.exit_code == 0, done.output
    assert "applied" in done.output
    assert judge.state("g1").step == state.step + 1
    assert judge.store.inbox_row(iid)["status"] == "retried"
    again = runner.invoke(main, ["quarantine", "retry", "-c", str(path), str(iid)])
    assert again.exit_code == 1 and "not quarantined" in again.output
    missing = runner.invoke(main, ["quarantine", "retry", "-c", str(path), "9999"])
    assert missing.exit_code == 1 and "no inbox row" in missing.output
    assert "0 mail(s)" in runner.invoke(main, ["quarantine", "list", "-c", str(path)]).output
