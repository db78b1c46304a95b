"""The test SMTP server hands a delivered mail to the IMAP server's user (Dovecot's) even
when that server has already moved it from new/ to cur/ (break-it, issue 25: the chown
raised FileNotFoundError, the SMTP answer was 500 for a delivered mail, a retry
delivered it twice and the other recipients got nothing)."""
from __future__ import annotations

import asyncio
import os
from pathlib import Path
from types import SimpleNamespace

from pbem import devmail


def test_a_mail_moved_to_cur_before_the_chown_is_still_accepted(tmp_path: Path, monkeypatch) -> None:
    owner = (os.getuid(), os.getgid())
    handler = devmail.MaildirHandler(tmp_path, {"north": "pw", "east": "pw"}, owner)
    moved = []
    deliver = devmail.deliver

    def deliver_then_move(root: Path, account: str, raw: bytes) -> str:
        key = deliver(root, account, raw)  # Dovecot picks it up at once: new/ -> cur/ with flags
        (root / account / "new" / key).rename(root / account / "cur" / f"{key}:2,S")
        moved.append(account)
        return key

    monkeypatch.setattr(devmail, "deliver", deliver_then_move)
    envelope = SimpleNamespace(original_content=b"Subject: hi\r\n\r\nhello\r\n", content=None,
                               mail_from="judge@pbem.localhost",
                               rcpt_tos=["north@pbem.localhost", "east@pbem.localhost"])
    answer = asyncio.run(handler.handle_DATA(None, None, envelope))
    assert answer.startswith("250"), answer
    assert moved == ["north", "east"], "every recipient got the mail"
    for account in ("north", "east"):
        got = list((tmp_path / account / "cur").iterdir())
        assert len(got) == 1 and (got[0].stat().st_uid, got[0].stat().st_gid) == owner
