"""Problems of the rules core: why orders cannot be carried out (R-8).

The rules core uses the product's one problem type, :class:`pbem.problems.Problem`, and
its catalogue of codes (:data:`pbem.problems.CODES`); :func:`reject` is how a check adds
one. :class:`IllegalOrders` is raised by ``apply`` with the problems found.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.mail.suggest import did_you_mean as near_miss
from pbem.problems import Problem, problem


class IllegalOrders(ValueError):
    """Raised by ``apply`` when ``validate`` found problems; ``rejections`` lists them
    (:class:`pbem.problems.Problem`, each naming its code, rule and field)."""

    def __init__(self, rejections: list[Problem]):
        self.rejections = list(rejections)
        super().__init__("; ".join(r.message for r in self.rejections) or "illegal orders")


def reject(rej: list[Problem], code: str, msg: str, where: str, hint: str | None = None,
           *, rule: str | None = None, params: Mapping[str, Any] | None = None) -> None:
    """Add a problem of the declared ``code`` to ``rej``: ``msg`` (what is wrong, naming
    the thing) followed by the rule ID in parentheses, ``where`` the field path in the
    orders (``"orders.tyche.places[1]"``), ``hint`` how to fix it. ``rule`` defaults to
    the code's rule in the catalogue; give it where the same problem arises under
    another rule; ``params`` the names and numbers ``msg`` names, for its translation
    (:attr:`pbem.problems.Problem.params`, issue 28). Raises :class:`pbem.problems.UnknownCode` for an undeclared code."""
    p = problem(code, msg, where=where, hint=hint, rule=rule)
    rej.append(Problem(p.code, f"{msg} ({p.rule})", p.rule, where, hint, params=params))


def did_you_mean(word: object, choices: Sequence[str], otherwise: str | None = None
                 ) -> str | None:
    """The hint for a word the orders got wrong: ``"did you mean X?"`` for the nearest of
    ``choices`` (:func:`pbem.mail.suggest.did_you_mean`, the product's one matcher: case
    ignored), else ``otherwise``."""
    return near_miss(word, choices) or otherwise
