"""Orders name places, generals and cards in any of the pack's languages (issue 28,
item 5), through the real mail path: seats in ``es`` and ``ru`` send the bot's orders
with every name written in their language (Spanish without its accents, Russian in
capitals), and each receipt echoes the canonical English form, the same YAML as the
English orders give."""
from __future__ import annotations

import random
import unicodedata
from pathlib import Path
from typing import Any

import yaml

from pbem import i18n, rules
from pbem.config import load_config
from pbem.pack.model import Pack
from pbem.pack.names import localized
from pbem.report import orders_text
from pbem.service import make_judge
from pbem.service.log.trust import accepted_document
from tests.conftest import ACCOUNTS, KEYS, mail_orders
from tests.mailservers import start_pymap
from tests.service.cmdmail import EXTRA, Mail, text
from tests.service.helpers import write_config

LANGUAGES = {"north": "es", "east": "ru", "south": "en", "west": "es"}


def _start(tmp_path: Path) -> Mail:
    server = start_pymap(tmp_path / "pymap", {**ACCOUNTS, **EXTRA})
    path, _config = write_config(tmp_path, server)
    raw = yaml.safe_load(path.read_text())
    for seat in raw["games"][0]["seats"]:
        seat["language"] = LANGUAGES[seat["seat"]]
    path.write_text(yaml.safe_dump(raw, sort_keys=False, allow_unicode=True))
    judge, poller = make_judge(load_config(path))
    m = Mail(server, path, judge, poller)
    judge.ensure_games()
    m.cycle()
    return m


def _written(name: str, language: str) -> str:
    """How the test's player writes a name: Spanish without accents, Russian in capitals."""
    if language == "ru":
        return name.upper()
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def _in_language(pack: Pack, orders: Any, language: str, field: str | None = None) -> tuple[Any, int]:
    """``orders`` with every space, general and province id and every card number
    written as the player of ``language`` would name it; and how many were replaced
    by a name that differs from the English one."""
    table = pack.names[language]
    if isinstance(orders, dict):
        out, n = {}, 0
        for k, v in orders.items():
            out[k], m = _in_language(pack, v, language, k)
            n += m
        return out, n
    if isinstance(orders, list):
        got = [_in_language(pack, v, language, field) for v in orders]
        return [g[0] for g in got], sum(g[1] for g in got)
    if field == "card" and isinstance(orders, int) and orders in pack.cards:
        return _written(table["cards"][orders], language), 1
    if isinstance(orders, str):
        for section in ("spaces", "generals", "provinces"):
            if orders in table[section]:
                name = table[section][orders]
                english = getattr(pack, section)[orders].name
                return _written(name, language), int(_written(name, language).casefold() != english.casefold())
    return orders, 0


def _leaves(orders: Any) -> list[str]:
    """Every string value of ``orders``."""
    if isinstance(orders, dict):
        return [x for v in orders.values() for x in _leaves(v)]
    if isinstance(orders, list):
        return [x for v in orders for x in _leaves(v)]
    return [orders] if isinstance(orders, str) else []


def test_orders_with_spanish_and_russian_names_get_canonical_receipts(tmp_path: Path) -> None:
    m = _start(tmp_path)
    try:
        pack = m.judge.pack_for("g1")
        seen: dict[str, int] = {"es": 0, "ru": 0}
        for step in range(12):  # bounded: the first dozen decisions of the game
            state = m.judge.state("g1")
            seat = rules.pending(state)[0].seat
            orders = mail_orders(state, seat, random.Random(step))
            language = LANGUAGES[seat]
            written, replaced = (orders, 0) if language == "en" else _in_language(pack, orders, language)
            doc = {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step, "orders": written}
            m.send(seat, yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), subject=f"orders {step}")
            assert list(m.cycle().values()) == ["applied"], (seat, written)
            receipt = text(m.mails(seat, f"Re: orders {step}")[0]).replace("\r\n", "\n")
            # as the English orders read (in the log's key order, as every receipt shows them), the
            # cards' labels in the comments in the seat's language (issue 28 item 3)
            canonical = orders_text.orders_yaml(pack, accepted_document(seat, step, orders, None, "mail")["orders"],
                                                (), localized(pack, language), i18n.translations(language))
            # the mail's lines are wrapped at 72 columns, a long comment going on as '# …' lines
            # (issue 24 N15): compare word for word, the comments' bare '#' marks left out
            def words(t: str) -> str:
                return " ".join(w for w in t.split() if w != "#")
            assert words(canonical) in words(receipt), (written, receipt)
            if replaced:
                seen[language] += replaced
                cards = {c.name for c in localized(pack, language).cards.values()}  # the comments' labels
                for value in _leaves(written):  # no Cyrillic name is echoed in the YAML
                    if any(ch.isalpha() and ord(ch) > 0x400 for ch in value) and value not in cards:
                        assert value not in receipt, value
        assert seen["es"] >= 2 and seen["ru"] >= 1, seen  # both languages' names were really used
        assert m.judge.store.verify_chain("g1") == []
    finally:
        m.close()
