"""docs/trust.md's worked example of the dice derivation: every number in its block is
recomputed here, by pbem's dice (pbem.rules.dice) and by the standalone verifier, so
the spec, the judge and the verifier cannot drift apart."""
from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path

from pbem.rules import dice as D
from pbem.store.base import canonical_json
from pbem.verifier import pbem_verify as V

DOC = Path(__file__).resolve().parents[1] / "docs" / "trust.md"


def _example() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("### Worked example", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    out = {}
    for line in block.strip().splitlines():
        key, value = re.split(r"\s{2,}", line.strip(), maxsplit=1)
        out[key] = value
    return out


def test_the_worked_example_is_what_the_judge_and_the_verifier_compute() -> None:
    ex = _example()
    seed = bytes.fromhex(ex["seed"])
    document = json.loads(ex["document"])
    assert canonical_json(document) == D.canonical_json(document) == V.canonical_json(document) == ex["document"]
    assert D.seed_commitment(seed) == ex["commitment"]
    assert D.orders_digest(document) == V.orders_digest(document) == ex["digest"]
    assert ex["context before"] == D.START_CONTEXT == V.START_CONTEXT
    context = D.next_context(ex["context before"], document)
    assert context == V.next_context(ex["context before"], document) == ex["context after"]
    step = document["step"]
    mac = hmac.new(seed, f"pbem-dice/v2:{context}:{step}:0:0".encode(), hashlib.sha256).hexdigest()
    assert mac == ex["hmac of die 0"]
    dice = [D.die_value(seed, step, i, 6, context) for i in range(6)]
    assert dice == [V.die(seed, context, step, i, 6) for i in range(6)]
    assert " ".join(map(str, dice)) == ex["dice 0-5 (d6)"]
    assert int(mac[:2], 16) % 6 + 1 == dice[0]  # the text's reading of the first byte
    unsalted = D.next_context(ex["context before"], {**document, "salt": None})
    assert " ".join(str(D.die_value(seed, step, i, 6, unsalted)) for i in range(6)) == ex["without salt"]


def test_the_dice_versions_and_forms_agree() -> None:
    """The rules' copy of canonical JSON is the store's; a Dice yields the documented
    values; version 1 is the old derivation."""
    value = {"b": [1, 2.5, None], "a": {"é": True}}
    assert D.canonical_json(value) == canonical_json(value)
    seed = b"\x01" * 32
    d = D.Dice(seed, 4, context="ab" * 32)
    assert d.roll(3, "x", "R-2").values == tuple(D.die_value(seed, 4, i, 6, "ab" * 32) for i in range(3))
    old = D.Dice(seed, 4, version=1)
    digest = hmac.new(seed, b"pbem-dice/v1:4:0:0", hashlib.sha256).digest()
    first = next(b for b in digest if b < 252)
    assert old.roll(1, "x", "R-2").values == (first % 6 + 1,)
