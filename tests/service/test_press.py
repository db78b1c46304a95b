"""Press between seats (issue 16) through the real mail path: relayed to the recipients
only, the sender shown or hidden (grey), refused by the game's press setting, limited
in length and rate, logged only as a commitment, published after the end on request."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from pbem.archive import write_archive
from pbem.cli import main
from pbem.service.commands.seat.press import PER_HOUR, commitment
from tests.conftest import KEYS, SEATS
from tests.service.cmdmail import new_game, start, text


def _press(game: str, seat: str, key: str, **extra: object) -> dict:
    return {"game": game, "seat": seat, "key": key, "command": "press", **extra}


def test_press_is_relayed_to_the_recipients_only_and_logged_as_a_commitment(tmp_path: Path) -> None:
    m = start(tmp_path, settings={"press": "none"})
    try:
        keys = new_game(m, "g2", {"press": "private", "grey_press": True, "publish_press": True})
        public = new_game(m, "g3", {"press": "public"})
        secret = "Shall we share Syria? Meet at Damascus."
        m.send("east", _press("g2", "east", keys["east"], to=["north"], text=secret))
        m.send("west", _press("g2", "west", keys["west"], to="All", text="Beware of Ptolemy.", grey=True))
        m.send("south", _press("g1", "south", KEYS["south"], to="all", text="hello"))  # press: none
        m.send("south", _press("g3", "south", public["south"], to=["east"], text="psst"))  # public only
        m.send("north", _press("g2", "north", keys["north"], to=["nobody"], text="many words " * 500, grey="yes"))
        statuses = m.cycle()
        assert sorted(statuses.values()) == ["answered", "answered", "rejected", "rejected", "rejected"]

        relayed = m.mails("north", "[g2] press from east")
        assert len(relayed) == 1 and secret in text(relayed[0]).replace("\n> ", " ")
        assert relayed[0].get_body(("html",)) is not None
        for other in ("south", "west"):  # never shown to the seats it was not sent to
            assert not [x for x in m.inbox(other) if secret.split()[0] in text(x) and "press" in str(x["Subject"])]
        grey = [m.mails(s, "[g2] grey press")[0] for s in ("north", "east", "south")]
        heads = {s: text(g).split("Beware")[0] for s, g in zip(("north", "east", "south"), grey, strict=True)}
        assert all(o not in head for s, head in heads.items() for o in SEATS if o != s)  # no seat but the reader
        assert not [x for x in m.inbox("west") if "grey press" in str(x["Subject"])]

        receipts = {s: [text(x) for x in m.mails(s, "Re: command", 1)] for s in ("east", "south", "north")}
        assert any("relayed to north" in t for t in receipts["east"])
        south = " ".join(text(x) for x in m.mails("south", "Re: command", 2)).replace("\n", " ")
        assert "press: none" in south and "to: all" in south
        assert "4000" in receipts["north"][0] and "nobody" in receipts["north"][0] and "grey" in receipts["north"][0]
        long = [line for t in receipts["east"] + receipts["north"] for line in t.splitlines() if len(line) > 72]
        assert not long, [x[:100] for x in long]

        stored = m.judge.store.press_of("g2")
        assert sorted((p["sender"], p["recipients"], bool(p["grey"])) for p in stored) == \
            [("east", ["north"], False), ("west", ["north", "east", "south"], True)]
        sent = [e for e in m.judge.store.events("g2") if e.kind == "PressSent"]
        assert len(sent) == 2 and all(not e.public and e.seat is None for e in sent)
        assert all(set(e.data) == {"commitment", "id"} for e in sent)
        by_id = {p["id"]: p for p in stored}
        for e in sent:
            p = by_id[e.data["id"]]
            body = {k: p[k] for k in ("id", "step", "sender", "recipients", "text", "at")}
            assert e.data["commitment"] == commitment(m.judge, "g2", {**body, "grey": bool(p["grey"])})
            if p["grey"]:  # the grey sender cannot be tested against the commitment (break16)
                assert e.data["commitment"] == commitment(m.judge, "g2", {**body, "sender": "north", "grey": True})
        assert secret not in json.dumps([e.data for e in m.judge.store.events("g2")])

        # the hourly limit
        for _ in range(PER_HOUR):
            m.judge.store.add_press(game_id="g2", step=1, sender="south", recipients=["east"], grey=False,
                                    text="spam", at=m.judge.clock().isoformat(), inbox_id=None)
        m.send("south", _press("g2", "south", keys["south"], to=["east"], text="one more"))
        assert list(m.cycle().values()) == ["rejected"]
        assert any(f"the limit is {PER_HOUR}" in text(x).replace("\n", " ") for x in m.inbox("south"))

        # the archive: no press while the game runs; all of it (grey senders hidden) after the end
        live = write_archive(m.judge.store, "g2", tmp_path / "live")
        checked = subprocess.run([sys.executable, str(tmp_path / "live" / "pbem_verify.py"), str(tmp_path / "live")],
                                 check=False, capture_output=True, text=True, timeout=120)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "press.json" not in live.files and secret not in "".join(
            f.read_text() for f in (tmp_path / "live").iterdir() if f.suffix in (".html", ".json", ".jsonl"))
        m.judge.store.set_game_status("g2", "over")
        done = write_archive(m.judge.store, "g2", tmp_path / "over")
        published = json.loads((tmp_path / "over" / "press.json").read_text())
        assert "press.json" in done.files and secret in [p["text"] for p in published]
        assert [(p["sender"], p["recipients"]) for p in published if p["grey"]] == [(None, None)]
        m.judge.store.set_game_status("g2", "active")
    finally:
        path = m.path
        m.close()
    for game in ("g1", "g2", "g3"):
        v = CliRunner().invoke(main, ["verify", "-c", str(path), game])
        assert v.exit_code == 0 and "replay equals live state" in v.output, v.output

