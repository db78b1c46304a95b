"""One catalogue of problem codes (pbem/problems.py): every code the product raises is
declared there once with its rule, every declared code is raised somewhere, and every
code is listed in docs/orders.md, so a player who quotes a code finds it."""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest

from pbem import i18n
from pbem.problem_texts import DETAILS, FIX_DETAILS, TEXTS, localized
from pbem.problems import CODES, UnknownCode, grouped, problem

ROOT = Path(__file__).resolve().parents[1]
FAMILIES = ("orders", "turn", "game", "surrender", "tyche", "movement", "siege", "standing",
            "surprise", "inside", "commanders", "reinforcements", "reaction", "rules", "royals",
            "envelope", "auth", "history", "command", "host", "press", "vote", "mail", "yaml", "observe")
RULE_FAMILIES = FAMILIES[:FAMILIES.index("royals") + 1]
"""The families of the rules core's codes (each names a rule); the rest are the mail's."""
CODE = re.compile(r"^(?:%s)\.[a-z_]+$" % "|".join(FAMILIES))


def _literals() -> tuple[set[str], set[str]]:
    """Code-shaped string constants in pbem/, and the literal prefixes of f-strings that
    build a code (``f"surrender.cannot_{k}"``)."""
    codes, prefixes = set(), set()
    for f in (ROOT / "pbem").rglob("*.py"):
        if f.name == "problems.py" and f.parent.name == "pbem":
            continue
        tree = ast.parse(f.read_text())
        parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and id(node) not in parts and isinstance(node.value, str) \
                    and CODE.match(node.value):
                codes.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values \
                    and isinstance(node.values[0], ast.Constant):
                head = str(node.values[0].value)
                if re.match(r"^(?:%s)\.[a-z_]+$" % "|".join(FAMILIES), head) and len(node.values) > 1:
                    prefixes.add(head)
    return codes, prefixes


def test_every_code_in_the_source_is_declared() -> None:
    codes, prefixes = _literals()
    # dotted literals that are field paths or file names, not codes (orders.tyche,
    # orders.movement, game.json, ...)
    paths = {c for c in codes if c.split(".")[1] in
             ("tyche", "movement", "surrender", "standing", "inside", "outside", "commanders",
              "reinforcements", "log", "daemon", "bury", "heir", "yaml", "json")}
    assert sorted(codes - paths - set(CODES)) == []
    for p in prefixes:
        assert any(c.startswith(p) for c in CODES), p


def test_every_declared_code_is_used() -> None:
    codes, prefixes = _literals()
    unused = [c for c in CODES if c not in codes and not any(c.startswith(p) for p in prefixes)
              and c != "internal"]
    assert unused == []


def test_every_code_is_in_the_orders_guide() -> None:
    text = (ROOT / "docs" / "orders.md").read_text()
    missing = [c for c in CODES if f"`{c}`" not in text]
    assert missing == []


def test_rules_codes_name_a_rule() -> None:
    for c in CODES.values():
        if c.code.split(".")[0] in RULE_FAMILIES:
            assert c.rule and re.match(r"^R-\d+(\.\d+)?$", c.rule), c
        else:
            assert c.rule is None and c.ref, c


def test_an_undeclared_code_is_refused() -> None:
    with pytest.raises(UnknownCode):
        problem("tyche.no_such_code", "x")
    p = problem("tyche.card_missing", "name the card")
    assert (p.code, p.rule) == ("tyche.card_missing", "R-8.2")
    assert problem("orders.unknown_key", "x", rule="R-8.1").rule == "R-8.1"


@pytest.mark.parametrize("language", ["es", "ru"])
def test_every_code_has_its_message_and_fix_in_each_language(language: str) -> None:
    """Issue 28: a rejection names every problem in the seat's language, by code: each
    code has an English message and fix (pbem/problem_texts.py) and both are translated
    in the catalogue of each language; a message with placeholders keeps them."""
    assert sorted(TEXTS) == sorted(CODES)
    tr = i18n.translations(language)
    untranslated = [(code, s) for code, t in TEXTS.items()
                    for s in (t.message, t.fix, DETAILS.get(code)) if s and tr.gettext(s) == s]
    assert untranslated == []
    for code, detail in [*DETAILS.items(), *FIX_DETAILS.items()]:
        assert code in CODES and tr.gettext(detail) != detail, code
        assert sorted(re.findall(r"%\(\w+\)s", tr.gettext(detail))) == sorted(re.findall(r"%\(\w+\)s", detail)), code


def test_a_problem_in_another_language_keeps_its_lines_rule_and_names() -> None:
    tab = problem("yaml.tab", "line 3: a tab in the indentation", line=3)
    merged = grouped([tab, replace(tab, message="line 5: a tab in the indentation", line=5)])
    es = localized(merged[0], i18n.translations("es"))
    assert es.message == "líneas 3, 5: Un tabulador en la sangría." and es.hint == "Sangra solo con espacios."
    # English keeps the check's words; a problem the check gave no fix gets its code's (issue 24 N6)
    assert localized(merged[0], i18n.translations("en")) == replace(merged[0], hint="Indent with spaces only.")
    near = problem("orders.unknown_space", "no space Babilon", hint="did you mean Babylon?", rule="R-3.1")
    ru = localized(near, i18n.translations("ru"))
    assert ru.message == "Нет зоны с таким именем или id (R-3.1)."
    assert ru.hint == "может быть, вы имели в виду Babylon?"
    assert (ru.code, ru.rule, ru.where) == (near.code, near.rule, near.where)
