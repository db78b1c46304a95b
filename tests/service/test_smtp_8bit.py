"""8-bit bodies on the way out (issue 25, finding 13): a seat name in Greek makes every
report 8-bit; such a message goes with `BODY=8BITMIME` (RFC 6152) when the relay offers
the extension, and re-encoded 7-bit clean (base64 / quoted-printable, RFC 6152 section
3) when it does not. The judge sends to a loopback aiosmtpd relay."""
from __future__ import annotations

import email
import email.policy
from pathlib import Path
from types import SimpleNamespace

from pbem.service import Judge
from pbem.store import Store
from tests.conftest import HASHES, SEATS
from tests.service.helpers import FaultySMTP, text_of, write_config

GREEK = {"north": "Ἀλέξανδρος", "east": "Πευκέστας", "south": "Νέαρχος", "west": "Ἀριστόνους"}


def _judge(tmp_path: Path, smtp: FaultySMTP) -> Judge:
    """A judge of game g1 whose players have Greek names, sending to ``smtp``."""
    seats = [{"seat": s, "player": GREEK[s], "email": f"{s}@pbem.localhost", "key_hash": HASHES[s]} for s in SEATS]
    _path, config = write_config(tmp_path, SimpleNamespace(imap_port=1, smtp_port=smtp.port), games=[
        {"id": "g1", "host_email": "host@pbem.localhost", "options": {}, "seats": seats}])
    judge = Judge(config, Store(config.database))
    judge.ensure_games()  # setup reports and the first prompt, every one naming the Greek seats
    return judge


def test_an_8bit_report_goes_with_body_8bitmime_when_the_relay_offers_it(tmp_path: Path) -> None:
    smtp = FaultySMTP().start()
    try:
        judge = _judge(tmp_path, smtp)
        judge.flush_outbox()
        assert len(smtp.received) >= 4
        eight_bit = [opts for (_f, _t, raw), opts in zip(smtp.received, smtp.options, strict=True)
                     if not raw.isascii()]
        assert eight_bit, "the Greek names make the reports 8-bit"
        assert all("BODY=8BITMIME" in opts for opts in eight_bit), eight_bit
        seven_bit = [opts for (_f, _t, raw), opts in zip(smtp.received, smtp.options, strict=True) if raw.isascii()]
        assert all(not any(o.upper().startswith("BODY=") for o in opts) for opts in seven_bit)
    finally:
        smtp.stop()


def test_without_8bitmime_the_same_reports_go_7bit_clean_and_read_the_same(tmp_path: Path) -> None:
    smtp = FaultySMTP(eightbitmime=False).start()
    try:
        judge = _judge(tmp_path, smtp)
        judge.flush_outbox()
        assert len(smtp.received) >= 4
        statuses = {r[0] for r in judge.store.db.execute("SELECT DISTINCT status FROM outbox")}
        assert statuses == {"sent"}
        for (_f, _t, raw), opts in zip(smtp.received, smtp.options, strict=True):
            assert raw.isascii(), raw[:300]
            assert not any(o.upper().startswith("BODY=") for o in opts)
        north = smtp.to("north@pbem.localhost")
        assert any(GREEK["north"] in text_of(raw) for raw in north)
        sent = judge.store.outbox_row(1)
        msg = email.message_from_bytes(smtp.received[0][2], policy=email.policy.default)
        assert msg["Message-ID"] == email.message_from_bytes(sent["raw"], policy=email.policy.default)["Message-ID"]
    finally:
        smtp.stop()
