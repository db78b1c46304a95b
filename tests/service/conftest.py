"""Fixtures of the service tests: a judge with game g1 set up on pymap + aiosmtpd."""
from __future__ import annotations

import pytest

from pbem.service import make_judge, run_once
from tests.service.helpers import write_config


@pytest.fixture
def judge_env(tmp_path, pymap_server):
    """(judge, poller, server): game g1 created and its setup mail sent."""
    _path, config = write_config(tmp_path, pymap_server)
    judge, poller = make_judge(config)
    judge.ensure_games()
    run_once(judge, poller)
    yield judge, poller, pymap_server
    poller.close()
