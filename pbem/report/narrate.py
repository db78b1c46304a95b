"""Events in words, for the reports ("what happened, in order").

Each event kind has its sentence in the rules core's event catalogue
(:mod:`pbem.rules.core.events`); this module tells events with it. There is no fallback:
a kind without a sentence is bookkeeping that reports do not tell, and a sentence that
fails raises (tests/report/test_narrate.py runs every sentence over random games).
"""
from __future__ import annotations

import gettext

from pbem import rules
from pbem.pack.model import Pack
from pbem.rules.core.events import CATALOGUE, sentence
from pbem.rules.core.names import ENGLISH, card_label, ops_text, purpose_text, space_name


def _untold(pack: Pack, data: object, t: object = None) -> str:
    """The sentence of bookkeeping kinds (a window closing, a suspended move): nothing."""
    return ""


SENTENCES = {name: k.say or _untold for name, k in CATALOGUE.items()}
"""Every declared event kind with its sentence function (bookkeeping kinds tell nothing)."""


def narrate(pack: Pack, event: rules.Event, tr: gettext.NullTranslations | None = None) -> str:
    """One sentence for ``event`` (empty for bookkeeping events reports do not tell), in
    the language of ``tr`` (None: English; issue 28, :mod:`pbem.i18n`: the event is the
    same in every language, only its sentence is translated). Raises
    ``UndeclaredEvent`` for a kind the catalogue does not declare."""
    return sentence(pack, event.kind, event.data, tr if tr is not None else ENGLISH)


__all__ = ["SENTENCES", "card_label", "narrate", "ops_text", "purpose_text", "space_name"]
