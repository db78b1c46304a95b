"""Issue 25 (low): `pbem status` lists the games open for sign-up (`pbem game open`):
the seats taken (who joined, when) and free, in its text and in `--json`; a sign-up has
no deadline, and one the host closed is listed no more. Players join by real mail (SMTP,
the IMAP poll)."""
from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import ACCOUNTS
from tests.mailservers import start_pymap
from tests.service.helpers import write_config
from tests.service.tablemail import Table


def test_status_lists_the_games_open_for_sign_up(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        path, config = write_config(tmp_path, server)
        table = Table(server, path, config)
        assert table.cli("game", "open", "-c", str(path), "--host", "host@pbem.localhost", "g5").exit_code == 0
        table.open()
        table.send("north@pbem.localhost", "game: g5\njoin: north\nname: Kleitos\n", "join 1")
        table.send("south@pbem.localhost", "game: g5\njoin: south\n", "join 2")
        assert table.cycle() == ["answered", "answered"]

        out = table.cli("status")
        assert out.exit_code == 0, out.output
        lines = out.output.splitlines()
        head = next(x for x in lines if x.startswith("g5:"))
        assert "open for sign-up since" in head and "2 of 4 seats taken, free: east, west" in head, head
        assert "no deadline" in head, head
        joined = [x.strip() for x in lines if x.strip().startswith("joined:")]
        assert joined[0].startswith("joined: north: Kleitos <north@pbem.localhost> at "), joined
        assert joined[1].startswith("joined: south: "), joined
        assert "no game yet" not in out.output, out.output  # (the config game is not made yet)

        data = json.loads(table.cli("status", "--json").output)
        [g5] = data["signups"]
        assert g5["id"] == "g5" and g5["status"] == "signup" and g5["host"] == "host@pbem.localhost"
        assert g5["free"] == ["east", "west"] and g5["deadline"] is None
        assert [(t["seat"], t["player"], t["email"]) for t in g5["taken"]] == [
            ("north", "Kleitos", "north@pbem.localhost"), ("south", g5["taken"][1]["player"], "south@pbem.localhost")]
        assert data["games"] == []  # started games only

        assert table.cli("game", "close", "-c", str(path), "g5").exit_code == 0
        out = table.cli("status")
        assert "g5" not in out.output and "no game yet" in out.output, out.output
        assert json.loads(table.cli("status", "--json").output)["signups"] == []
    finally:
        if table is not None:
            table.close()
        server.stop()
