"""Auditable dice: every roll is a deterministic function of a per-game secret seed, the
step and the roll's index within that step.

A die value is derived from ``HMAC-SHA256(seed, "pbem-dice/v1:{step}:{index}")`` by
rejection sampling, so the sequence is uniform and anyone who later learns the seed can
recompute every roll (the seed's SHA-256 can be published as a commitment when the game
starts). The seed is stored in the database and never mailed.

The rules core receives a :class:`Dice` and records each roll as an event through
:meth:`Dice.roll`; a replay (``fold``) reads the recorded values and never rolls again.
"""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field


def seed_commitment(seed: bytes) -> str:
    """Return the hex SHA-256 of ``seed``: a public commitment to the secret dice seed."""
    return hashlib.sha256(seed).hexdigest()


def die_value(seed: bytes, step: int, index: int, sides: int = 6) -> int:
    """Return the die value (1..``sides``) of roll number ``index`` (0-based) at ``step``.

    Pure and deterministic; uses rejection sampling on successive HMAC blocks so every
    face is equally likely. Raises ValueError if ``sides`` is not in 2..256.
    """
    if not 2 <= sides <= 256:
        raise ValueError(f"sides must be in 2..256, got {sides}")
    limit = 256 - (256 % sides)
    counter = 0
    while True:
        msg = f"pbem-dice/v1:{step}:{index}:{counter}".encode()
        for byte in hmac.new(seed, msg, hashlib.sha256).digest():
            if byte < limit:
                return byte % sides + 1
        counter += 1


@dataclass(frozen=True)
class Roll:
    """One recorded roll: ``values`` are the dice (1..6 each), ``purpose`` says why it was
    rolled (e.g. "battle: Ptolemy attacks Gaza"), ``rule`` the rule ID (R-…), ``index`` the
    first die's index within the step."""

    step: int
    index: int
    values: tuple[int, ...]
    purpose: str
    rule: str

    @property
    def total(self) -> int:
        """Sum of the dice."""
        return sum(self.values)


@dataclass
class Dice:
    """The only source of randomness for a game (R-2 onward).

    ``Dice(seed, step)`` yields rolls for one step (one applied decision). Rolls are
    numbered from 0 within the step; :attr:`rolls` keeps them so the caller can log them.
    For tests, ``Dice.scripted([3, 5, ...])`` returns a Dice that yields the given values
    in order and raises :class:`DiceExhausted` when they run out.
    """

    seed: bytes
    step: int
    rolls: list[Roll] = field(default_factory=list)
    _next: int = 0
    _script: list[int] | None = None

    @classmethod
    def scripted(cls, values: list[int], step: int = 0) -> Dice:
        """Return a Dice that yields ``values`` in order (scenario tests)."""
        return cls(seed=b"scripted", step=step, _script=list(values))

    def roll(self, count: int, purpose: str, rule: str, sides: int = 6) -> Roll:
        """Roll ``count`` dice of ``sides`` faces for ``purpose`` under rule ``rule``.

        Returns the :class:`Roll` (also appended to :attr:`rolls`). Raises
        :class:`DiceExhausted` when a scripted Dice has no values left.
        """
        values: list[int] = []
        start = self._next
        for _ in range(count):
            if self._script is not None:
                if not self._script:
                    raise DiceExhausted(f"scripted dice ran out rolling for {purpose!r}")
                values.append(self._script.pop(0))
            else:
                values.append(die_value(self.seed, self.step, self._next, sides))
            self._next += 1
        result = Roll(self.step, start, tuple(values), purpose, rule)
        self.rolls.append(result)
        return result


class DiceExhausted(RuntimeError):
    """A scripted Dice was asked for more rolls than the scenario provided."""
