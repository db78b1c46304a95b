"""A host command refused with its reason in the host's language (issue 28, text28c).

Kept in the base layer (docs/pipeline.md, "The service's layers") so that the play
layer's host actions (end, rollback) may raise it as the commands do; the commands'
registry re-exports it."""
from __future__ import annotations

from typing import Any

from pbem import i18n


class Refused(ValueError):
    """A host command that does not apply now (issue 28, text28c): a ``ValueError``
    whose ``str`` is the English reason (as before), ``text`` the reason as a function
    of the host's translations object (:data:`pbem.i18n.Localizable`), so ``pbem
    host`` and the mail answer say it in the host's language."""

    def __init__(self, text: i18n.Localizable) -> None:
        super().__init__(i18n.localize(text))
        self.text = text


def refusal_in(exc: BaseException, tr: Any) -> str | None:
    """The reason of a refused host command in the language of ``tr``; None when the
    refusal carries no translation (a plain ``ValueError``)."""
    return i18n.localize(exc.text, tr) if isinstance(exc, Refused) else None
