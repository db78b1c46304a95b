"""Mail preferences (issue 16) through the real mail path: no map, text-only mail and
the daily digest of turn reports, logged for the seat alone."""
from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from pathlib import Path

from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.service.outgoing import seat_preferences
from tests.conftest import KEYS, SEATS
from tests.service.cmdmail import start, text
from tests.service.helpers import orders_body


def _cmd(seat: str, **extra: object) -> dict:
    return {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "preferences", **extra}


def _images(msg) -> list:
    return [p for p in msg.walk() if p.get_content_maintype() == "image"]


def test_preferences_map_off_plain_and_daily_digest(tmp_path: Path) -> None:
    m = start(tmp_path, map_attachment=True)
    try:
        mover = rules.pending(m.judge.state("g1"))[0].seat
        plain, nomap, other = mover, *[s for s in SEATS if s != mover][:2]
        m.send(plain, f"game: g1\nseat: {plain}\nkey: {KEYS[plain]}\ncommand: preferences\nformat: plain\n"
               "digest: daily\n")
        m.send(nomap, f"game: g1\nseat: {nomap}\nkey: {KEYS[nomap]}\ncommand: preferences\nmap: off\n")
        m.send(other, _cmd(other, format="pdf"))
        assert sorted(m.cycle().values()) == ["answered", "answered", "rejected"]
        reply = m.mails(plain, "Re: command")[0]
        assert reply.get_body(("html",)) is None and "digest: daily" in text(reply)
        assert m.mails(nomap, "Re: command")[0].get_body(("html",)) is not None
        assert "`format:` takes html or plain" in text(m.mails(other, "Re: command")[0])
        assert seat_preferences.of(m.judge.store, "g1", plain) == {"map": "on", "format": "plain", "digest": "daily",
                                                                   "language": "en", "json": "off"}
        assert seat_preferences.of(m.judge.store, "g1", nomap) == {"map": "off", "format": "html", "digest": "off",
                                                                   "language": "en", "json": "off"}
        assert seat_preferences.of(m.judge.store, "g1", other) == dict(seat_preferences.DEFAULTS)
        logged = [e for e in m.judge.store.events("g1") if e.kind == "PreferencesSet"]
        assert sorted(e.seat for e in logged) == sorted([plain, nomap]) and not any(e.public for e in logged)

        before = {s: len([x for x in m.inbox(s) if "report:" in str(x["Subject"])]) for s in SEATS}
        _seat, body = orders_body(m.judge)
        m.send(mover, body, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        report = lambda s: m.mails(s, "report:", before[s] + 1)[before[s]:]
        shown, hidden = report(other), report(nomap)
        assert shown and _images(shown[-1]) and shown[-1].get_body(("html",)) is not None
        assert hidden and not _images(hidden[-1]) and hidden[-1].get_body(("html",)) is not None
        assert len([x for x in m.inbox(plain) if "report:" in str(x["Subject"])]) == before[plain]  # held
        held = m.judge.store.held_digests()
        assert [h["seat"] for h in held] == [plain] and "report:" in held[0]["subject"]
        later = [x for x in m.inbox(plain) if "command" in str(x["Subject"]) or "your move" in str(x["Subject"])]
        assert later and all(x.get_body(("html",)) is None for x in later[1:])  # prompts too: text only

        now = m.judge.clock()
        eight = datetime.combine(now.date(), time(seat_preferences.DIGEST_HOUR), tzinfo=UTC)
        eight += timedelta(days=1) if eight <= now + timedelta(minutes=10) else timedelta(0)  # the next 08:00
        m.offset[0] += eight - now - timedelta(minutes=10)
        m.cycle(advance=timedelta(0))  # before 08:00: nothing yet
        assert [h["id"] for h in m.judge.store.held_digests()][:1] == [held[0]["id"]]
        m.offset[0] += timedelta(minutes=15)
        m.cycle()
        digest = m.mails(plain, "daily digest")
        assert len(digest) == 1 and held[0]["subject"] in text(digest[0])
        assert digest[0].get_body(("html",)) is None
        assert not [h for h in m.judge.store.held_digests() if h["id"] == held[0]["id"]]
        m.cycle()
        assert len(m.mails(plain, "daily digest")) == 1
        # turning the digest off sends what is held at once
        mover, body = orders_body(m.judge, seed=2)
        m.send(mover, body, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        assert [h["seat"] for h in m.judge.store.held_digests()] == [plain]
        m.send(plain, _cmd(plain, digest="off"))
        assert list(m.cycle().values()) == ["answered"]
        assert len(m.mails(plain, "daily digest", 2)) == 2 and not m.judge.store.held_digests()
    finally:
        path = m.path
        m.close()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert v.exit_code == 0 and "replay equals live state" in v.output, v.output
