"""Auditable dice (docs/trust.md): every die is a deterministic function of the game's
secret seed and of every orders document the seats sent so far, so nobody — the host
included — knows a roll before the orders that lead to it exist, and anyone who later
learns the seed recomputes every roll from the log.

Dice version 2 (games created since issue 15):

- the *orders context* starts as :data:`START_CONTEXT` (64 zeros); each accepted orders
  document ``E`` (the data of its ``OrdersAccepted`` event, which the service logs
  before the decision's other events) moves it on:
  ``context = SHA-256("pbem-orders/v1:" + context + ":" + SHA-256(canonical_json(E)))``
  (hex digests, ASCII);
- die ``index`` (0-based within one decision, shuffles included) of a decision taken at
  ``step`` is read from ``HMAC-SHA256(seed, "pbem-dice/v2:{context}:{step}:{index}:{counter}")``
  (RFC 2104) by rejection sampling: the first byte ``b < 256 - 256 % sides`` gives
  ``b % sides + 1``; when none of the 32 bytes does, ``counter`` goes up from 0.

Version 1 (older games) used ``HMAC-SHA256(seed, "pbem-dice/v1:{step}:{index}:{counter}")``
and no orders; :func:`die_value_v1` keeps their replay and checks working.

The rules core receives a :class:`Dice` and records each roll as an event through
:meth:`Dice.roll`; a replay (``fold``) reads the recorded values and never rolls again.
The service passes the context in (the rules never read the store).

``canonical_json`` repeats the store's one-line definition (sorted keys, no spaces, not
ASCII-escaped) because the rules may not import the store; a test checks they agree.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

DICE_VERSION = 2
START_CONTEXT = "0" * 64


def canonical_json(value: Any) -> str:
    """JSON with sorted keys, no spaces, non-ASCII kept: the form that is hashed."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def seed_commitment(seed: bytes) -> str:
    """Return the hex SHA-256 of ``seed``: a public commitment to the secret dice seed."""
    return hashlib.sha256(seed).hexdigest()


def orders_digest(document: Mapping[str, Any]) -> str:
    """Hex SHA-256 of the UTF-8 canonical JSON of an accepted orders document (the data
    of its ``OrdersAccepted`` event)."""
    return hashlib.sha256(canonical_json(document).encode()).hexdigest()


def next_context(context: str, document: Mapping[str, Any]) -> str:
    """The orders context after ``document`` was accepted (64 hex digits in, 64 out):
    ``SHA-256("pbem-orders/v1:" + context + ":" + orders_digest(document))``."""
    return hashlib.sha256(f"pbem-orders/v1:{context}:{orders_digest(document)}".encode()).hexdigest()


def next_index(events: Iterable[Any]) -> int:
    """The index the next die of the current decision has, after ``events`` (the log in
    order: objects with ``kind`` and ``data``): 0 after each ``OrdersAccepted`` (and at
    the setup); each ``DiceRolled`` moves it past its ``values``, each ``Shuffled`` past
    its ``len(items) - 1`` dice (Fisher-Yates). The numbering the verifier checks: the
    dice of a decision run from 0 without a gap."""
    index = 0
    for e in events:
        if e.kind == "OrdersAccepted":
            index = 0
        elif e.kind == "DiceRolled":
            index = int(e.data["index"]) + len(e.data["values"])
        elif e.kind == "Shuffled":
            index = int(e.data["index"]) + len(e.data["items"]) - 1
    return index


def _sample(key: bytes, label: str, sides: int) -> int:
    if not 2 <= sides <= 256:
        raise ValueError(f"sides must be in 2..256, got {sides}")
    limit = 256 - (256 % sides)
    counter = 0
    while True:
        for byte in hmac.new(key, f"{label}:{counter}".encode(), hashlib.sha256).digest():
            if byte < limit:
                return byte % sides + 1
        counter += 1


def die_value(seed: bytes, step: int, index: int, sides: int = 6, context: str = START_CONTEXT) -> int:
    """Return the die value (1..``sides``) of die ``index`` (0-based) of the decision
    taken at ``step`` in orders ``context`` (dice version 2, module docstring).

    Pure and deterministic; every face is equally likely. Raises ValueError if ``sides``
    is not in 2..256."""
    return _sample(seed, f"pbem-dice/v2:{context}:{step}:{index}", sides)


def die_value_v1(seed: bytes, step: int, index: int, sides: int = 6) -> int:
    """The die of dice version 1 (games created before issue 15): ``index`` at ``step``,
    from the seed alone. Raises ValueError if ``sides`` is not in 2..256."""
    return _sample(seed, f"pbem-dice/v1:{step}:{index}", sides)


@dataclass(frozen=True)
class Roll:
    """One recorded roll: ``values`` are the dice (1..``sides`` each), ``purpose`` says
    why it was rolled (e.g. "battle: Ptolemy attacks Gaza"), ``rule`` the rule ID (R-…),
    ``index`` the first die's index within the decision."""

    step: int
    index: int
    values: tuple[int, ...]
    purpose: str
    rule: str
    sides: int = 6

    @property
    def total(self) -> int:
        """Sum of the dice."""
        return sum(self.values)


@dataclass
class Dice:
    """The only source of randomness for a game (R-2 onward).

    ``Dice(seed, step, context=...)`` yields the dice of one decision (one applied
    orders document) taken at ``step`` in orders ``context`` (:func:`next_context`;
    :data:`START_CONTEXT` for the setup); ``version=1`` gives the dice of games created
    before issue 15. Dice are numbered from 0 within the decision; :attr:`rolls` keeps
    them so the caller can log them. For tests, ``Dice.scripted([3, 5, ...])`` returns a
    Dice that yields the given values in order and raises :class:`DiceExhausted` when
    they run out.
    """

    seed: bytes
    step: int
    context: str = START_CONTEXT
    version: int = DICE_VERSION
    rolls: list[Roll] = field(default_factory=list)
    _next: int = 0
    _script: list[int] | None = None

    @classmethod
    def scripted(cls, values: list[int], step: int = 0) -> Dice:
        """Return a Dice that yields ``values`` in order (scenario tests)."""
        return cls(seed=b"scripted", step=step, _script=list(values))

    @classmethod
    def resumed(cls, seed: bytes, step: int, index: int, context: str = START_CONTEXT,
                version: int = DICE_VERSION) -> Dice:
        """The dice that go on after dice ``0 .. index-1`` of a decision taken at ``step``
        in orders ``context``: the next die has ``index``. A host's rollback reshuffles the
        unseen deck with the dice that follow the last decision's (:func:`next_index`,
        docs/trust.md "Rollback and the dice")."""
        return cls(seed, step, context=context, version=version, _next=index)

    @property
    def next_index(self) -> int:
        """The index the next die will have."""
        return self._next

    def rewind(self, index: int) -> None:
        """Forget the dice from ``index`` on, as if they had not been rolled (the rules
        undo a trial run, R-9.3): the next die has ``index`` again. A scripted Dice keeps
        its place in the script (scenarios list the values in the order used)."""
        self._next = index
        self.rolls = [r for r in self.rolls if r.index < index]

    def roll(self, count: int, purpose: str, rule: str, sides: int = 6) -> Roll:
        """Roll ``count`` dice of ``sides`` faces for ``purpose`` under rule ``rule``.

        Returns the :class:`Roll` (also appended to :attr:`rolls`). Raises
        :class:`DiceExhausted` when a scripted Dice has no values left, ValueError when
        ``sides`` is not in 2..256.
        """
        values: list[int] = []
        start = self._next
        for _ in range(count):
            if self._script is not None:
                if not self._script:
                    raise DiceExhausted(f"scripted dice ran out rolling for {purpose!r}")
                values.append(self._script.pop(0))
            elif self.version == 1:
                values.append(die_value_v1(self.seed, self.step, self._next, sides))
            else:
                values.append(die_value(self.seed, self.step, self._next, sides, self.context))
            self._next += 1
        result = Roll(self.step, start, tuple(values), purpose, rule, sides)
        self.rolls.append(result)
        return result


class DiceExhausted(RuntimeError):
    """A scripted Dice was asked for more rolls than the scenario provided."""
