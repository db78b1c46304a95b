"""The same orders sent the way three real clients send them give the same document."""

from __future__ import annotations

import pytest

from pbem.mail.message import parse_mail

from .clients import ORDERS, bottom_posted, html_only, top_posted
from .conftest import EXPECTED

STYLES = [top_posted, bottom_posted, html_only]


@pytest.mark.parametrize("build", STYLES, ids=[f.__name__ for f in STYLES])
def test_client_styles_give_the_same_document(build) -> None:
    result = parse_mail(build())
    assert result.action == "accept", result.problems
    assert result.document == EXPECTED
    assert result.sender == "north@players.example"
    assert result.in_reply_to == "<report-7-north@pbem.example>"


@pytest.mark.parametrize("build", STYLES, ids=[f.__name__ for f in STYLES])
def test_client_styles_with_other_orders(build) -> None:
    orders = ORDERS + "notes:\n  - hold Pella\n  - 'watch: Gaza'\n"
    result = parse_mail(build(orders))
    assert result.document["notes"] == ["hold Pella", "watch: Gaza"]


@pytest.mark.parametrize("build", STYLES, ids=[f.__name__ for f in STYLES])
def test_client_styles_report_errors_the_same_way(build) -> None:
    orders = ORDERS.replace("  movement:", "  tyche:")
    result = parse_mail(build(orders))
    assert result.action == "reject"
    assert [(p.code, p.line) for p in result.problems] == [("yaml.duplicate_key", 10)]
