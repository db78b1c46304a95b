"""The map in the turn reports, through the real mail path (issue 24 item 15): every
report carries one picture inline in its HTML; the seat the game now waits for gets
the overview and the zoom on its own forces, every other seat the overview alone (the
same picture); and the report mails stay small enough for a mailbox over a whole game
(docs/reports.md, "How much mail a game makes")."""
from __future__ import annotations

import email
import email.policy
import io
from pathlib import Path

from PIL import Image

from pbem.report import raster
from tests.conftest import SEATS
from tests.service.cmdmail import start
from tests.service.helpers import orders_body

#: the most bytes of one report mail as delivered (headers, text, HTML and the base64
#: picture): with the overview alone, and with the overview and the zoom
OVERVIEW_MAIL_MAX = 120_000
ZOOM_MAIL_MAX = 240_000


def _report_and_prompt(raws: list[bytes]) -> tuple[tuple[bytes, email.message.EmailMessage] | None, bool]:
    """Among a seat's new mails: (raw, message) of its turn report, and whether a prompt came."""
    report, prompted = None, False
    for raw in raws:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        subject = str(msg["Subject"])
        if " report: " in subject:
            assert report is None, "one report per seat and decision"
            report = (raw, msg)
        prompted |= "your move" in subject
    return report, prompted


def test_every_report_carries_the_overview_and_the_seat_to_move_its_zoom_in_small_mails(tmp_path: Path) -> None:
    m = start(tmp_path, map_attachment=True)
    try:
        seen = dict.fromkeys(SEATS, 0)
        decisions = 0
        for n in range(5):
            if n:  # the setup's mail first, then a decision each round
                seat, body = orders_body(m.judge, seed=n)
                m.send(seat, body, subject="orders")
                assert list(m.cycle().values()) == ["applied"]
                decisions += 1
            pictures: dict[str, bytes] = {}
            zoomed: set[str] = set()
            for s in SEATS:
                new = m.server.messages(s)[seen[s]:]
                seen[s] += len(new)
                got, prompted = _report_and_prompt(new)
                assert got is not None, f"{s} got no report after decision {decisions}"
                raw, msg = got
                pngs = [p for p in msg.walk() if p.get_content_type() == "image/png"]
                assert len(pngs) == 1, "one picture per report"
                html = msg.get_body(("html",)).get_content()
                assert f'src="cid:{pngs[0]["Content-ID"].strip("<>")}"' in html, "the HTML shows it inline"
                pictures[s] = pngs[0].get_content()
                if prompted:
                    zoomed.add(s)
                assert len(raw) <= (ZOOM_MAIL_MAX if prompted else OVERVIEW_MAIL_MAX), (s, prompted, len(raw))
            assert zoomed, "someone is asked to move"
            overview_h = raster.picture_size(1000)[1]
            for s, png in pictures.items():
                image = Image.open(io.BytesIO(png))
                assert image.width == 1000
                if s in zoomed:  # the overview, the legend and the zoom below it
                    assert image.height > overview_h + 300, (s, image.size)
                else:  # the overview and its legend alone
                    assert image.height < overview_h + 200, (s, image.size)
            others = {pictures[s] for s in SEATS if s not in zoomed}
            assert len(others) <= 1, "the seats not asked to move get the same picture"
    finally:
        m.close()
