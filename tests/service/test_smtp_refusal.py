"""A relay that refuses a seat's address while the judge sends (issue 25, finding 12:
`550 5.1.1 … User unknown`): the seat is marked bouncing as a delivery report would
mark it, the game's host is told which game and seat, the judge notice of mail that
could not be delivered names them too, and later mail to the seat waits instead of
going to the dead address; it goes once the player writes from the address with the
seat's key. The judge sends to a loopback aiosmtpd relay."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import yaml

from pbem.service import Judge
from pbem.service.commands import host_commands
from pbem.service.status import status
from pbem.store import Store
from tests.conftest import KEYS, player_mail
from tests.service.helpers import FaultySMTP, mail, text_of, write_config

EAST = "east@pbem.localhost"


def _judge(tmp_path: Path, smtp: FaultySMTP) -> Judge:
    _path, config = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=smtp.port))
    judge = Judge(config, Store(config.database))
    judge.ensure_games()
    return judge


def _rows_to(judge: Judge, address: str) -> list[dict]:
    return list(judge.store.db["outbox"].rows_where("to_addr = ?", [address], order_by="id"))


def test_a_refused_seat_address_is_marked_bouncing_named_to_the_host_and_later_mail_waits(tmp_path: Path) -> None:
    smtp = FaultySMTP(refuse={EAST}).start()
    try:
        judge = _judge(tmp_path, smtp)
        judge.flush_outbox()  # the setup report to east is refused: 550 5.1.1
        judge.flush_outbox()  # the notices that causes
        assert [(r["game_id"], r["seat"]) for r in judge.store.bouncing_seats()] == [("g1", "east")]
        host = [text_of(raw) for raw in smtp.to("host@pbem.localhost")]
        bounce = [t for t in host if "bouncing" in t]
        assert len(bounce) == 1 and "east" in bounce[0] and "g1" in bounce[0] and EAST in bounce[0], host
        undeliverable = [t for t in host if "could not be delivered" in t or "refused" in t]
        assert undeliverable and all("seat east of g1" in t for t in undeliverable), undeliverable
        assert any("bouncing: g1 east" in line for line in status(judge.store).lines())

        # later mail to east waits: the pause notice goes to every seat but east
        tries = len(smtp.refused_tries)
        host_commands.run(judge, "g1", "pause", reason="a holiday")
        judge.flush_outbox()
        assert all(smtp.to(f"{s}@pbem.localhost")[-1:] and "paused" in text_of(smtp.to(f"{s}@pbem.localhost")[-1])
                   for s in ("north", "south", "west"))
        waiting = [r for r in _rows_to(judge, EAST) if r["status"] == "pending"]
        assert waiting and all(r["attempts"] == 0 for r in waiting)
        assert len(smtp.refused_tries) == tries, "nothing more was offered to the dead address"

        # the player's mailbox works again and they write with the seat's key: the mail that waited goes
        smtp.refuse.clear()
        doc = {"game": "g1", "seat": "east", "key": KEYS["east"], "history": 0}
        assert judge.handle_message(player_mail("east", doc)) == "answered"
        assert judge.store.bouncing_seats() == []
        judge.flush_outbox()
        assert all(r["status"] == "sent" for r in _rows_to(judge, EAST) if r["id"] in {w["id"] for w in waiting})
        assert any("paused" in text_of(raw) for raw in smtp.to(EAST))
    finally:
        smtp.stop()


def test_a_refused_address_of_no_seat_fails_alone_and_marks_nothing(tmp_path: Path) -> None:
    smtp = FaultySMTP(refuse={"stranger@pbem.localhost"}).start()
    try:
        judge = _judge(tmp_path, smtp)
        body = yaml.safe_dump({"game": "g1", "seat": "east", "key": "nope", "step": 0, "orders": {}})
        assert judge.handle_message(mail("stranger@pbem.localhost", body)) == "rejected"
        judge.flush_outbox()
        judge.flush_outbox()
        assert judge.store.bouncing_seats() == []
        assert [r["status"] for r in _rows_to(judge, "stranger@pbem.localhost")] == ["failed"]
        assert all(r["status"] == "sent" for r in _rows_to(judge, EAST))
    finally:
        smtp.stop()
