"""A fresh Spanish and Russian reader's findings in answers by mail (issue 28, try28d),
through the real mail path (pymap and aiosmtpd on loopback): the seats and the host of
tests/service/test_languages.py (east ru, west es, the host es)."""
from __future__ import annotations

from pathlib import Path

from tests.conftest import KEYS
from tests.service.cmdmail import text
from tests.service.test_languages import _start


def test_a_hidden_key_in_an_echoed_block_is_said_in_the_readers_language(tmp_path: Path) -> None:
    """A refused mail echoes its block with the key hidden: "key: (hidden)" stood in
    English in a Spanish or Russian answer."""
    m = _start(tmp_path)
    try:
        m.send("east", {"game": "g1", "seat": "east", "key": "east-wrong", "command": "status"}, "ключ")
        m.send("west", {"game": "g1", "seat": "west", "key": KEYS["west"], "command": "bogus"}, "clave")
        m.send("north", {"game": "g1", "seat": "north", "key": KEYS["north"], "command": "bogus"}, "key")
        assert sorted(m.cycle().values()) == ["rejected"] * 3
        ru, es, en = (text(m.mails(s, subject)[0]) for s, subject in (("east", "Re: ключ"), ("west", "Re: clave"),
                                                                       ("north", "Re: key")))
        assert "key: (скрыто)" in ru and "(hidden)" not in ru, ru
        assert "key: (no se muestra)" in es and "(hidden)" not in es, es
        assert "key: (hidden)" in en  # English as before
    finally:
        m.close()

