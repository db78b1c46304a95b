"""The judge's own address is nobody's seat or host (issue 25, attempt 5, item 5): a
config that gives a seat or a game's host the judge's address (or ``judge+tag@``, which
reaches the same mailbox: RFC 5233) is refused with a ConfigError naming the key, by every
``pbem`` command that reads it; ``pbem game new`` refuses it too."""
from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli import main
from tests.conftest import HASHES, PLAYERS, SEATS


def _config(tmp_path: Path, host: str, east: str) -> Path:
    raw = {"judge": {"address": "Judge@pbem.localhost"}, "database": str(tmp_path / "db.sqlite"),
           "games": [{"id": "g1", "host_email": host, "seats": [
               {"seat": s, "player": PLAYERS[s], "email": east if s == "east" else f"{s}@pbem.localhost",
                "key_hash": HASHES[s]} for s in SEATS]}]}
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return path


def test_a_config_seat_or_host_at_the_judges_address_is_refused(tmp_path: Path) -> None:
    path = _config(tmp_path, "judge+host@pbem.localhost", "JUDGE@pbem.localhost")
    out = CliRunner().invoke(main, ["status", "-c", str(path)])
    assert out.exit_code != 0
    assert "games[0].host_email: judge+host@pbem.localhost is the judge's own address" in out.output
    assert "games[0].seats[1].email: JUDGE@pbem.localhost is the judge's own address" in out.output
    fine = _config(tmp_path, "host@pbem.localhost", "judges@pbem.localhost")  # another address: accepted
    assert CliRunner().invoke(main, ["status", "-c", str(fine)]).exit_code == 0


def test_game_new_refuses_the_judges_address_for_a_seat_or_the_host(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({"judge": {"address": "judge@pbem.localhost"},
                                    "database": str(tmp_path / "db.sqlite")}))
    seats = [f"{s}={PLAYERS[s]} <{s}@players.test>" for s in SEATS]

    def new(host: str, east: str, game: str) -> object:
        args = ["game", "new", "-c", str(path), "--host", host]
        for item in seats:
            args += ["--seat", item if not item.startswith("east=") else f"east=B <{east}>"]
        return CliRunner().invoke(main, [*args, game])

    out = new("judge@pbem.localhost", "east@players.test", "g5")
    assert out.exit_code != 0 and "judge@pbem.localhost is the judge's own address" in out.output
    out = new("host@players.test", "Judge+east@pbem.localhost", "g6")
    assert out.exit_code != 0 and "seat east: judge+east@pbem.localhost is the judge's own address" in out.output
    assert new("host@players.test", "east@players.test", "g7").exit_code == 0


def test_host_replace_refuses_the_judges_address_in_any_case_or_with_a_tag(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({"judge": {"address": "judge@pbem.localhost"},
                                    "database": str(tmp_path / "db.sqlite")}))
    args = ["game", "new", "-c", str(path), "--host", "host@players.test"]
    for s in SEATS:
        args += ["--seat", f"{s}={PLAYERS[s]} <{s}@players.test>"]
    assert CliRunner().invoke(main, [*args, "g5"]).exit_code == 0
    for address in ("JUDGE@pbem.localhost", "judge+east@pbem.localhost"):
        out = CliRunner().invoke(main, ["host", "-c", str(path), "replace", "g5", "--seat", "east",
                                        "--player", f"X <{address}>"])
        assert out.exit_code != 0 and "is the judge's own address" in out.output, out.output
    out = CliRunner().invoke(main, ["host", "-c", str(path), "replace", "g5", "--seat", "east",
                                    "--player", "X <judges@pbem.localhost>"])
    assert out.exit_code == 0, out.output


def test_a_sign_up_from_a_tag_of_the_judges_address_takes_no_seat(tmp_path: Path) -> None:
    """``judge+x@`` reaches the judge's own mailbox: a join from it (ours coming back, or
    a forgery) is our own mail — ignored, no seat taken, no welcome with a key mailed to
    the judge itself."""
    import hashlib
    from datetime import UTC, datetime

    from pbem.config import load_config
    from pbem.service import Judge
    from pbem.store import Store

    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({"judge": {"address": "judge@pbem.localhost"},
                                    "database": str(tmp_path / "db.sqlite")}))
    out = CliRunner().invoke(main, ["game", "open", "-c", str(path), "--host", "host@players.test", "g9"])
    assert out.exit_code == 0, out.output
    judge = Judge(load_config(path), Store(tmp_path / "db.sqlite"), clock=lambda: datetime(2029, 1, 1, tzinfo=UTC),
                  new_seed=lambda: hashlib.sha256(b"s").digest())
    for n, sender in enumerate(("judge+x@pbem.localhost", "Judge+Y@PBEM.localhost", "ann@players.test")):
        raw = (f"From: {sender}\r\nTo: judge@pbem.localhost\r\nSubject: join\r\nMessage-ID: <j{n}@players.test>"
               "\r\n\r\ngame: g9\njoin: any\n").encode()
        assert judge.handle_message(raw) == ("answered" if sender.startswith("ann") else "ignored")
    assert [r["email"] for r in judge.store.signup_seats("g9")] == ["ann@players.test"]
    judge.store.close()
