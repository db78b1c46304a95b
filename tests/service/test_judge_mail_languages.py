"""The judge's own mail pasted back in Spanish or Russian is recognised as the judge's
(issue 28, lang28e item 7): a reply that includes a prompt (or any mail the judge sent
a seat of that language) unquoted below the player's orders block, with no header
block above it, is read as one orders block, the player's; the judge's template is
never read as a second one. The lines that mark the judge's mail
(``pbem.mail.extract.is_judge_text``) come from the catalogues, so they follow the
translations."""
from __future__ import annotations

import email.policy
import random
import re
from email.message import EmailMessage
from pathlib import Path

from pbem import rules
from pbem.mail.message import parse_mail
from tests.conftest import KEYS
from tests.service.cmdmail import text
from tests.service.test_languages import LANGUAGES, _start


def _pasted(mine: str, earlier: str) -> bytes:
    bare = EmailMessage()
    bare["From"], bare["To"], bare["Subject"] = "north@pbem.localhost", "judge@pbem.localhost", "Re: x"
    bare.set_content(mine + "\n" + earlier)
    return bare.as_bytes(policy=email.policy.SMTP)


def _is_prompt(msg: EmailMessage) -> bool:
    return bool(re.search(r"step \d+: ", str(msg["Subject"]))) and "key: YOUR-SEAT-KEY" in text(msg)


def test_a_spanish_or_russian_mail_of_the_judge_pasted_below_the_orders_is_not_read(tmp_path: Path) -> None:
    m = _start(tmp_path)  # east Russian, west Spanish
    try:
        for _ in range(6):  # play until east and west each got a prompt
            if all(any(_is_prompt(x) for x in m.inbox(s)) for s in ("east", "west")):
                break
            decision = rules.pending(m.judge.state("g1"))[0]
            bot = rules.bot_orders(m.judge.state("g1"), decision.seat, random.Random(1))
            m.send(decision.seat, {"game": "g1", "seat": decision.seat, "key": KEYS[decision.seat],
                                   "step": m.judge.state("g1").step, "orders": bot})
            m.cycle()
        m.send("west", {"game": "g1", "seat": "west", "key": "YOUR-SEAT-KEY", "command": "status"}, "clave")
        m.send("east", {"game": "g1", "seat": "east", "key": KEYS["east"], "command": "status"}, "статус")
        m.cycle()
        mine = "game: g1\nseat: north\nkey: k\nstep: 99\norders:\n  movement: none\n"
        prompts, kinds = 0, set()
        for seat in ("east", "west"):
            assert LANGUAGES[seat] in ("es", "ru")
            # the prompts first (their template is the block a player would paste), then every other mail
            for msg in sorted(m.inbox(seat), key=lambda x: not _is_prompt(x)):
                earlier = text(msg)
                prompts += _is_prompt(msg)
                parsed = parse_mail(_pasted(mine, earlier))
                assert parsed.action == "accept" and parsed.document["step"] == 99, (
                    str(msg["Subject"]), parsed.problems, earlier[:600])
                kinds.add(re.sub(r"\d+", "N", str(msg["Subject"])).split(":")[0])
        assert prompts >= 2, kinds
    finally:
        m.close()


def test_the_judge_lines_come_from_messages_the_judge_still_writes() -> None:
    """Each message the Spanish and Russian judge lines are taken from is one the code
    still writes (in the catalogues' template) and both catalogues translate it, so a
    reworded template cannot leave the check with English only."""
    from pbem import i18n
    from pbem.mail import extract
    for msgid in (*extract._JUDGE_MSGIDS, *extract._JUDGE_SUFFIX_MSGIDS):
        assert msgid in i18n.extracted(), msgid
        for language in ("es", "ru"):
            assert i18n.translations(language).gettext(msgid) != msgid, (language, msgid)
    starts, ends = extract._translated_prefixes()
    assert extract.is_judge_text("Responde a este correo con el bloque de abajo, editado:")
    assert extract.is_judge_text("Ответьте на это письмо блоком ниже, исправив его:")
    assert extract.is_judge_text("-- судья pbem партии g1.".removeprefix("-- "))
    assert not extract.is_judge_text("Juez, aquí van mis órdenes:") and not extract.is_judge_text("Судья, вот приказы")
    assert len(starts) >= 14 and len(ends) == 2
