"""The pseudo-language map of what is translated (issue 28's "done when"): games played
through the service with every seat and the host in :data:`pbem.i18n.PSEUDO`, every
mail they get read line by line (:mod:`tests.service.pseudolocale`).

What holds today, and must keep holding:

- every kind of mail the service sends is rendered in the seat's language at least in
  its frame (each kind has translated lines), through the one ``queue`` of each kind;
- the kinds listed in :data:`FINISHED` have no line of English prose at all.

Issue 28 is done when every kind is in :data:`FINISHED`. The figure of the rest (mail
kinds, marked and unmarked lines) is printed by ``python -m tests.service.pseudolocale``
and recorded in docs/reports.md.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.service import pseudolocale
from tests.service.test_mail_kinds import _declared_kinds

MIN_REPORTS_AND_PROMPTS = 0.98
"""The share of the lines of prose of reports and prompts that must be translated."""
FINISHED = ("alert", "press", "reminder", "welcome", "rejection", "notice")
"""The mail kinds with every line of prose translated."""


@pytest.mark.parametrize("seed", [1, 2])
def test_every_mail_kind_in_the_pseudo_language(tmp_path: Path, seed: int) -> None:
    judge, addresses = pseudolocale.play(tmp_path, seed, 30)
    fig = pseudolocale.figure(judge, addresses, pseudolocale.names_of(judge.pack_for(f"p{seed}")))
    outbox_kinds = {"receipt", "rejection", "history", "command reply"} | (_declared_kinds() - {"reply"})
    rendered = set(fig.kinds())
    assert {"report", "prompt", "receipt", "rejection", "welcome", "alert", "host", "notice", "press",
            "reminder", "command reply"} <= rendered, fig.summary()
    assert rendered <= outbox_kinds | {"history"}, rendered - outbox_kinds
    untranslated = [k for k in fig.kinds() if not fig.marked[k]]
    assert untranslated == [], f"no translated line at all in: {untranslated}\n{fig.summary()}"
    for kind in FINISHED:
        assert fig.unmarked[kind] == 0, f"{kind}: English left in {fig.examples[kind]}\n{fig.summary()}"
    # reports and prompts: the story (every event sentence, battle, roll and change) and
    # the prompt lines the rules core writes are translated; what is left is the pack's
    # card texts and free text the rules core writes into events (docs/reports.md)
    marked = sum(fig.marked[k] for k in ("report", "prompt"))
    total = marked + sum(fig.unmarked[k] for k in ("report", "prompt"))
    assert marked / total >= MIN_REPORTS_AND_PROMPTS, f"{marked} of {total}\n{fig.summary()}"


def test_a_line_outside_the_marks_is_counted_and_names_are_not() -> None:
    names = {"north", "babylon", "ann"}
    marked, unmarked = pseudolocale.unmarked_prose(
        "⟦Report for %(seat)s.⟧ north\n"
        "⟦A long message\nover two lines⟧\n"
        "  north   Ann  3  4\n"
        "  game: g1\n"
        "Babylon falls to north.\n"
        "> a player's own words\n", names)
    assert marked == 3
    assert unmarked == ["Babylon falls to north."]
    nested = "1. ⟦⟦A problem that runs\nover two lines.⟧ (R-8.2).⟧\nThen English.\n"
    assert pseudolocale.unmarked_prose(nested, names) == (2, ["Then English."])
