"""What is checked when a game is made (break16): its rule options (an unknown option was taken
silently and ignored for the whole game)."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.pack.loader import load_pack
from pbem.store import Store
from tests.conftest import ACCOUNTS, PLAYERS, SEATS
from tests.mailservers import start_pymap
from tests.service.helpers import write_config


def test_option_problems_name_unknown_options_and_bad_values() -> None:
    pack = load_pack(None)
    assert rules.option_problems(pack, {"ask_windows": True, "lp_bonus_tie": "seniority", "assault_min_cus": 3,
                                        "cassander": True}) == []
    bad = rules.option_problems(pack, {"ask_window": True, "assault_min_cus": 0, "cassander": "yes",
                                       "lp_bonus_tie": "coin"})
    assert len(bad) == 4
    assert "no rule option 'ask_window'" in bad[0] and "ask_windows" in bad[0]
    assert "assault_min_cus" in bad[1] and "whole number" in bad[1]
    assert "true or false" in bad[2] and "seniority" in bad[3]


def test_game_new_and_a_config_game_refuse_unknown_options(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        path, _config = write_config(tmp_path, server, options={"ask_windowz": True})
        args = ["game", "new", "-c", str(path), "--host", "host@pbem.localhost", "--option", "ask_window=true"]
        for s in SEATS:
            args += ["--seat", f"{s}={PLAYERS[s]} <{s}@pbem.localhost>"]
        out = CliRunner().invoke(main, [*args, "g2"])
        assert out.exit_code == 1 and "no rule option 'ask_window'" in out.output and "ask_windows" in out.output
        run = CliRunner().invoke(main, ["run", "--once", "-c", str(path)])
        assert run.exit_code != 0 and "no rule option 'ask_windowz'" in run.output, run.output
        store = Store(_config.database)
        try:
            assert store.game("g1") is None and store.game("g2") is None  # nothing stored for either
        finally:
            store.close()
    finally:
        server.stop()


def test_a_config_game_with_the_id_of_an_open_sign_up_is_refused(tmp_path: Path) -> None:
    """break16: a config game given the id of a game open for sign-up took the id, and
    the sign-up's fourth join then failed; now the config game is refused at start."""
    import pytest

    from pbem.service import make_judge

    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        _path, config = write_config(tmp_path, server)  # its game is g1
        judge, poller = make_judge(config)
        try:
            # opened while the config had no g1 (open_game refuses a config game's id), then
            # the host added g1 to the config
            judge.store.create_signup("g1", pack="builtin", options={}, settings={}, host_email="host@pbem.localhost",
                                      host_key_hash=None, at="2026-12-01T00:00:00+00:00")
            with pytest.raises(ValueError, match="open for sign-up"):
                judge.ensure_games()
            assert judge.store.game("g1") is None and judge.store.signup("g1")
        finally:
            poller.close()
            judge.store.close()
    finally:
        server.stop()
