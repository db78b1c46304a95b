"""Compare two dumps of tools/rules_baseline.py (``--dump``) record by record and print
every difference as a path, grouped: the tool to show that a change of the rules core
changed nothing but what its note lists."""
from __future__ import annotations

import collections
import gzip
import json
import re
import sys
from pathlib import Path


def _diff(x, y, path, out):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                out.append(f"{path}.{k} {'added' if k not in x else 'removed'}")
            else:
                _diff(x[k], y[k], f"{path}.{k}", out)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y)):
            _diff(p, q, f"{path}[{i}]", out)
    elif x != y:
        out.append(f"{path}: {json.dumps(x)[:60]} -> {json.dumps(y)[:60]}")


def _as_sets(record: dict) -> dict:
    """The record with each mutated order's problems sorted: a change that reports the
    same problems in another order shows as no difference (``--problems-as-sets``)."""
    if "problems" in record:
        record = {**record, "problems": [sorted(p, key=lambda x: json.dumps(x, sort_keys=True))
                                         for p in record["problems"]]}
    return record


def main(a: str, b: str, as_sets: bool = False) -> int:
    kinds: collections.Counter[str] = collections.Counter()
    for fa in sorted(Path(a).glob("*.jsonl.gz")):
        fb = Path(b) / fa.name
        ra = [json.loads(x) for x in gzip.open(fa, "rt")]
        rb = [json.loads(x) for x in gzip.open(fb, "rt")]
        out: list[str] = []
        if len(ra) != len(rb):
            out.append(f"{len(ra)} records -> {len(rb)}")
        for i, (x, y) in enumerate(zip(ra, rb)):
            if as_sets:
                x, y = _as_sets(x), _as_sets(y)
            _diff(x, y, f"[{i}]", out)
        for d in out:
            kinds[re.sub(r"\[\d+\]", "[]", d.split(":")[0])] += 1
        if out:
            print(fa.name, len(out), "differences; first:", out[0])
    for k, n in kinds.most_common():
        print(f"{n:6d}  {k}")
    return 1 if kinds else 0


if __name__ == "__main__":
    args = [x for x in sys.argv[1:] if not x.startswith("--")]
    raise SystemExit(main(args[0], args[1], "--problems-as-sets" in sys.argv))
