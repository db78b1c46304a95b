"""What a card-event primitive is (:class:`Primitive`): the engine's half of the pack's
effect primitives (``cards.yaml``: ``{effect: NAME, param: value}``, R-16.3).

Each family module of :mod:`pbem.rules.cards` declares its primitives with how the
event's fields in the Tyche orders are checked, how it is carried out, and what the
prompt offers; :mod:`pbem.rules.cards.registry` assembles them. A primitive that no
family declares is recorded as skipped when its card is played (``CardEventSkipped``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.pack.model import Card, Effect, Pack
from pbem.problems import Problem
from pbem.rules.context import Ctx
from pbem.rules.core.state import State

Check = Callable[[Pack, State, str, dict[str, Any], Card, Effect, str, list[Problem],
                  dict[str, Any], bool], None]
"""``(pack, s, seat, tyche part, card, effect, where, problems, plan, soft)``: check the
event's own fields of the ``tyche:`` orders and put what it needs into the Tyche plan
(``soft``: carried out after dice changed the board: cancel, never refuse)."""
Resolve = Callable[[Ctx, str, Card, Effect, dict[str, Any]], bool]
"""``(ctx, seat, card, effect, plan)``: carry the effect out; False when the pack lacks
what it needs (it is then recorded as skipped)."""
Choices = Callable[[Pack, State, str, Card, Effect], list[Any] | None]
"""``(pack, s, seat, card, effect)``: the legal choices the prompt lists for the event;
empty when it cannot be played now; None when it has nothing to choose now and the
event may be played anyway (it then does what it can)."""


@dataclass(frozen=True)
class Primitive:
    """One effect primitive the engine resolves.

    ``name`` is the pack's primitive, ``rule`` the rule ID; ``resolve`` carries it out;
    ``check`` (optional) checks the fields of the orders it reads; ``choices``
    (optional) lists what the prompt offers under ``options_key`` of the legal options;
    ``moves_armies``: it moves armies, is resolved before the card's other effects and
    may be paused by a reaction window (R-9.3); ``keys``: the fields of the ``tyche:``
    orders its check reads besides those of the Tyche segment itself."""

    name: str
    rule: str
    resolve: Resolve
    check: Check | None = None
    choices: Choices | None = None
    options_key: str | None = None
    moves_armies: bool = False
    keys: tuple[str, ...] = ()
