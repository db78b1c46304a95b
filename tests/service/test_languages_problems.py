"""Issue 28 through the real mail path (pymap and aiosmtpd on loopback): a Spanish
seat's rejection names every problem in Spanish, by code (message, rule, fix), the
problem's code and field path unchanged; the English seat's rejection keeps the check's
own English words."""
from __future__ import annotations

from pathlib import Path

import yaml

from pbem import i18n, rules
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


def test_a_russian_seats_card_not_in_hand_names_its_hand_in_russian(tmp_path: Path) -> None:
    """Issue 28 trial (trial2829): a card misspelt in Russian came back with the hand in
    English ("#59 Grain Convoy (2 OPs)") and without the "did you mean" the English
    answer gives; now both name the cards as the seat reads them."""
    from pbem.pack import names as pack_names
    from pbem.report.narrate import card_label
    from tests.service.helpers import orders_body

    m = _start(tmp_path)
    try:
        first, body = orders_body(m.judge)  # step 0: the first player is named
        m.send(first, body, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        state = m.judge.state("g1")
        seat = rules.pending(state)[0].seat
        m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "preferences", "language": "ru"})
        assert list(m.cycle().values()) == ["answered"]
        pack = m.judge.pack_for("g1")
        ru = pack_names.localized(pack, "ru")
        hand = list(state.private[seat]["hand"])
        card = hand[-1]
        bad = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
               "orders": {"tyche": {"card": ru.cards[card].name + "зз", "use": "discard"}, "movement": "none"}}
        m.send(seat, yaml.safe_dump(bad, sort_keys=False, allow_unicode=True), subject="orders")
        assert list(m.cycle().values()) == ["rejected"]
        answer = " ".join(text(m.mails(seat, "Re: orders")[-1]).split())
        assert "код: tyche.card_not_in_hand" in answer
        assert f"может быть, вы имели в виду {card_label(ru, card, i18n.translations('ru'))}?" in answer, answer
        for n in hand:
            assert card_label(ru, n, i18n.translations("ru")) in answer
            assert pack.cards[n].name not in answer  # no English card name left
        assert "OPs" not in answer
    finally:
        m.close()


def test_a_russian_seats_unknown_army_gets_did_you_mean_and_its_armies_in_russian(tmp_path: Path) -> None:
    """Issue 28 trial (note28): an army misspelt in Russian ("Лисимахх") came back with
    the generic fix, without the "did you mean" and the seat's armies the English answer
    gives; now both, the names as the seat reads them."""
    from pbem.pack import names as pack_names
    from tests.service.helpers import orders_body

    m = _start(tmp_path)
    try:
        first, body = orders_body(m.judge)
        m.send(first, body, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        state = m.judge.state("g1")
        seat = rules.pending(state)[0].seat
        m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "preferences", "language": "ru"})
        assert list(m.cycle().values()) == ["answered"]
        pack = m.judge.pack_for("g1")
        ru = pack_names.localized(pack, "ru")
        bad = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
               "orders": {"tyche": {"card": state.private[seat]["hand"][-1], "use": "discard"},
                          "movement": [{"army": ru.generals["lysimachus"].name + "х", "path": ["Pella"]}]}}
        m.send(seat, yaml.safe_dump(bad, sort_keys=False, allow_unicode=True), subject="orders")
        assert list(m.cycle().values()) == ["rejected"]
        answer = " ".join(text(m.mails(seat, "Re: orders")[-1]).split())
        assert "код: movement.unknown_army" in answer, answer
        assert "может быть, вы имели в виду Лисимах (Lysimachus)?" in answer, answer
        mine = [g for g, v in state.generals.items() if v.get("seat") == seat and v.get("where") == "map"]
        assert mine
        for g in mine:
            assert pack_names.both(ru, "generals", g) in answer, (g, answer)
        assert "your armies" not in answer and "did you mean" not in answer
    finally:
        m.close()
