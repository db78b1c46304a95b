"""A mail that makes a stage raise is kept, quarantined and reported once; the mail
behind it is handled (issue 17, findings 1 and 11). Real pymap + aiosmtpd on loopback."""
from __future__ import annotations

import pytest

from pbem import rules
from pbem.service import run_once
from pbem.service.identity import envelope
from pbem.service.intake import intake
from pbem.service.outgoing import outbox
from pbem.service.play import adjudicate
from pbem.service.status import status
from tests.service.helpers import drop, folder, mail, orders_body

_MARK = b"POISON-PILL"


def _boom(*_a, **_k):  # noqa: ANN002, ANN003, ANN202
    raise TypeError("injected failure of this stage")


# the envelope's checks run as intake rules (issue 26); finish() is the last of them for a mail none stops
STAGES = {"parse": (intake, "parse_mail"), "envelope": (envelope, "finish"), "rules": (rules, "validate_told"),
          "apply": (adjudicate, "apply_orders"), "compose": (outbox, "compose")}


def _inject(monkeypatch, module, name: str) -> None:  # noqa: ANN001
    """Make ``module.name`` raise while the marked mail is handled (and only then)."""
    current: list[bytes] = [b""]
    real_handle, real_stage = intake.handle_message, getattr(module, name)

    def handle(judge, raw, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        current[0] = raw
        try:
            return real_handle(judge, raw, *args, **kwargs)
        finally:
            current[0] = b""

    def stage(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        # composing breaks for the answers to the marked mail (its headers), not for others
        if _MARK in current[0] and (name != "compose" or kwargs.get("in_reply_to")):
            _boom()
        return real_stage(*args, **kwargs)
    monkeypatch.setattr(intake, "handle_message", handle)
    monkeypatch.setattr(module, name, stage)


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_a_mail_that_breaks_any_stage_is_quarantined_and_the_next_is_applied(judge_env, monkeypatch, stage) -> None:
    judge, poller, server = judge_env
    seat, body = orders_body(judge)
    step = judge.state("g1").step
    _inject(monkeypatch, *STAGES[stage])
    drop(server, mail(seat, body, subject=_MARK.decode()))
    handled = run_once(judge, poller)  # must not raise
    drop(server, mail(seat, body, subject="the real orders"))
    handled.update(run_once(judge, poller))

    assert sorted(handled.values()) == ["applied", "quarantined"], handled
    assert judge.state("g1").step == step + 1, "the mail behind the poison was applied"
    [row] = judge.store.quarantined()
    kept = judge.store.inbox_row(row["id"])
    assert kept["status"] == "quarantined" and _MARK in kept["raw"] and "injected failure" in kept["error"]
    assert folder(server, "INBOX") == [] and len(folder(server, "Quarantine")) == 1
    assert _MARK in folder(server, "Quarantine")[0]
    judge.flush_outbox()
    notices = [m for m in server.messages("host") if b"a mail was quarantined" in m]
    assert len(notices) == 1


def test_the_host_is_told_once_not_once_per_poisoned_mail(judge_env, monkeypatch) -> None:
    judge, poller, server = judge_env
    _inject(monkeypatch, intake, "parse_mail")
    for i in range(3):
        drop(server, mail("stranger", "hello", subject=f"{_MARK.decode()} {i}"))
    assert list(run_once(judge, poller).values()) == ["quarantined"] * 3
    drop(server, mail("stranger", "again", subject=_MARK.decode() + " later"))
    assert list(run_once(judge, poller).values()) == ["quarantined"]
    judge.flush_outbox()
    notices = [m for m in server.messages("host") if b"a mail was quarantined" in m]
    assert len(notices) == 1, "one notice per episode (a day), not one per mail"
    assert len(judge.store.quarantined()) == 4 and len(folder(server, "Quarantine")) == 4
    shown = [line for line in status(judge.store).lines() if line.startswith("quarantined: ")]
    assert len(shown) == 4 and all("injected failure" in line for line in shown), shown
