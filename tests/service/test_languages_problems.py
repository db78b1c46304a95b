"""Issue 28 through the real mail path (pymap and aiosmtpd on loopback): a Spanish
seat's rejection names every problem in Spanish, by code (message, rule, fix), the
problem's code and field path unchanged; the English seat's rejection keeps the check's
own English words."""
from __future__ import annotations

from pathlib import Path

import yaml

from pbem import rules
from pbem.problem_texts import TEXTS
from tests.conftest import KEYS
from tests.service.cmdmail import text
from tests.service.test_languages import LANGUAGES, _start


def test_a_spanish_seats_rejection_names_its_problems_in_spanish(tmp_path: Path) -> None:
    m = _start(tmp_path)
    try:
        state = m.judge.state("g1")
        seat = rules.pending(state)[0].seat
        other = next(s for s, lang in LANGUAGES.items() if lang == "en" and s != seat)
        m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "preferences", "language": "es"})
        assert list(m.cycle().values()) == ["answered"]
        bad = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
               "orders": {"tyche": {"card": 999, "use": "nonsense"}}}
        m.send(seat, yaml.safe_dump(bad, sort_keys=False), subject="orders")
        m.send(other, "game: g1\nseat: " + other + "\nkey: " + KEYS[other] + "\nstep: x\n\tbad: 1\n",
               subject="orders")
        assert sorted(m.cycle().values()) == ["rejected", "rejected"]
        es = text(m.mails(seat, "Re: orders")[-1])
        assert "no se aplicó" in es
        flat = " ".join(es.split())
        assert "Las órdenes tienen un campo tyche que esta decisión no admite (R-6.1)." in flat, es
        assert "arreglo: Quita el campo o corrige su nombre;" in flat
        assert "código: orders.unknown_key" in es and "dónde: orders.tyche" in es
        assert "has no field" not in es and "fields:" not in es  # no English problem left
        assert max(len(line) for line in es.splitlines()) <= 72
        en = text(m.mails(other, "Re: orders")[-1])
        assert "was not applied" in en and "tab" in en.lower()
        assert TEXTS["yaml.tab"].message not in en  # English keeps the check's own message
    finally:
        m.close()
