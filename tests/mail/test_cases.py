"""The shared real-world mail cases (/work/shared/cases/mail/cases.yaml), run as data."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.mail.message import ParsedMail, parse_mail


def cases_dir() -> Path:
    """The cases directory: $PBEM_CASES_DIR, else tests/cases/mail (a copy of the shared
    cases kept in the repository)."""
    env = os.environ.get("PBEM_CASES_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1] / "cases" / "mail"


def load_cases() -> list[dict[str, Any]]:
    """The cases listed in cases.yaml, or [] when the directory is missing."""
    index = cases_dir() / "cases.yaml"
    if not index.is_file():
        return []
    return yaml.safe_load(index.read_text(encoding="utf-8"))["cases"]


CASES = load_cases()


def problems_text(result: ParsedMail) -> str:
    """Everything a rejection tells the player, lowercased."""
    return " ".join(f"{p.code} {p.message} {p.hint or ''}" for p in result.problems).lower()


def test_cases_are_present() -> None:
    assert CASES, f"no cases found in {cases_dir()} (set PBEM_CASES_DIR)"


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    raw = (cases_dir() / case["file"]).read_bytes()
    expect = case["expect"]
    result = parse_mail(raw, own_addresses=["judge@pbem.example"], own_domains=["pbem.example"])
    assert result.action == expect["action"], result.problems
    if expect["action"] == "accept":
        assert result.document == expect["document"]
        assert result.problems == ()
    elif expect["action"] == "reject":
        assert result.problems
        text = problems_text(result)
        for word in expect.get("mentions", []):
            assert word.lower() in text, (word, text)
        assert result.document is None
    else:
        assert result.ignore_reason == expect["reason"]
        bouncing = expect.get("mark_bouncing")
        wanted = () if bouncing is None else (
            tuple(bouncing) if isinstance(bouncing, list) else (bouncing,))
        assert result.bouncing == wanted
        assert result.document is None and result.problems == ()


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_case_envelope(case: dict[str, Any]) -> None:
    result = parse_mail((cases_dir() / case["file"]).read_bytes())
    assert result.message_id.startswith("<") and result.message_id.endswith(">")
    assert result.sender == result.sender.lower()
    assert "@" in result.sender
