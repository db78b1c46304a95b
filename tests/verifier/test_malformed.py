"""Issue 25, finding 10: the verifier on malformed archives. Its exit status is what its
docstring says (0 every check passed, 1 a check failed, 2 the archive could not be read)
and it never ends in a traceback: a handful of named breakages run as a player runs it
(a subprocess), then hypothesis mutates a real archive (fields, rows, bytes) and runs
the verifier's ``main`` in-process many times over: it never raises, the status always
matches its output, and no edit of what the chain covers passes."""
from __future__ import annotations

import io
import json
import random
import shutil
import tempfile
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import rules
from pbem.archive import write_archive
from pbem.service.log import trust
from pbem.verifier import pbem_verify as V
from tests.conftest import KEYS, local_judge, player_mail
from tests.verifier.bare import run_verifier


@dataclass(frozen=True)
class Archives:
    running: Path
    over: Path


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> Archives:
    tmp = tmp_path_factory.mktemp("malformed")
    judge = local_judge(tmp, {})
    rng = random.Random(8)
    for _ in range(6):
        state = judge.state("g1")
        d = rules.pending(state)[0]
        doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": rules.bot_orders(state, d.seat, rng)}
        assert judge.handle_message(player_mail(d.seat, doc)) == "applied"
    write_archive(judge.store, "g1", tmp / "running")
    trust.abandon(judge, "g1", "a test")
    write_archive(judge.store, "g1", tmp / "over")
    judge.store.close()
    return Archives(tmp / "running", tmp / "over")


def _lines(path: Path) -> list[str]:
    return (path / "log.jsonl").read_text(encoding="utf-8").rstrip("\n").split("\n")


def _set_meta(key: str, value: object) -> Callable[[Path], None]:
    def edit(dest: Path) -> None:
        meta = json.loads((dest / "game.json").read_text(encoding="utf-8"))
        meta[key] = value
        (dest / "game.json").write_text(json.dumps(meta), encoding="utf-8")
    return edit


def _set_line(n: int, text: str) -> Callable[[Path], None]:
    def edit(dest: Path) -> None:
        lines = _lines(dest)
        lines[n] = text
        (dest / "log.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return edit


def _set_field(n: int, key: str, value: object) -> Callable[[Path], None]:
    def edit(dest: Path) -> None:
        lines = _lines(dest)
        row = json.loads(lines[n])
        if value is _DROP:
            del row[key]
        else:
            row[key] = value
        lines[n] = json.dumps(row)
        (dest / "log.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return edit


def _write(name: str, data: bytes) -> Callable[[Path], None]:
    return lambda dest: (dest / name).write_bytes(data)


_DROP = object()
UNREADABLE = {  # edit -> what the message names
    "a seed that is not hex": (_set_meta("seed", "zz" * 32), "game.json: `seed` is not a seed in hex"),
    "a seed that is a number": (_set_meta("seed", 7), "game.json: `seed` is not a seed in hex"),
    "game.json a list": (_write("game.json", b"[1, 2]"), "game.json is not a JSON object"),
    "game.json not JSON": (_write("game.json", b"{\"game\": "), "game.json is not JSON"),
    "a chain version from the future": (_set_meta("chain", 9), "game.json: chain version 9"),
    "a chain version that is text": (_set_meta("chain", "3"), "game.json: `chain` is not"),
    "a row that is a list": (_set_line(4, "[1, 2, 3]"), "log.jsonl line 5 is not a JSON object"),
    "a row that is not JSON": (_set_line(2, "{\"seq\": 3,"), "log.jsonl line 3 is not JSON"),
    "a seq that is text": (_set_field(3, "seq", "4"), "log.jsonl line 4: `seq` is not"),
    "a row without its hash": (_set_field(3, "hash", _DROP), "log.jsonl line 4: `hash` is missing"),
    "public as a number": (_set_field(1, "public", 1), "log.jsonl line 2: `public` is not"),
    "data that is text": (_set_field(1, "data", "x"), "log.jsonl line 2: `data` is not"),
    "bytes that are not UTF-8": (_write("log.jsonl", b"{\"seq\": \xff}\n"), "log.jsonl is not UTF-8"),
    "data nested without end": (_set_line(1, "[" * 100_000 + "]" * 100_000), "log.jsonl line 2 is not"),
    "a game id no UTF-8 can hold": (_set_meta("game", "g\ud800"), "game.json holds a text no UTF-8 can write"),
    "a kind no UTF-8 can hold": (_set_field(2, "kind", "x\udc80"), "log.jsonl line 3 holds a text no UTF-8"),
    "a number of 5000 digits": (_set_line(1, "{\"seq\": " + "9" * 5000 + "}"), "log.jsonl line 2 is not JSON"),
}


@pytest.mark.parametrize("case", list(UNREADABLE), ids=lambda c: c.replace(" ", "-"))
def test_an_unreadable_archive_is_exit_2_with_a_message(archives: Archives, tmp_path: Path, case: str) -> None:
    edit, said = UNREADABLE[case]
    dest = tmp_path / "copy"
    shutil.copytree(archives.over, dest)
    edit(dest)
    out = run_verifier(dest, cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert out.stderr.startswith(f"pbem_verify: cannot read {dest}: ") and said in out.stderr, out.stderr
    assert out.stderr.rstrip().endswith("nothing was checked.")


def test_a_roll_that_cannot_be_recomputed_is_a_failed_check(archives: Archives, tmp_path: Path) -> None:
    dest = tmp_path / "copy"
    shutil.copytree(archives.over, dest)
    meta, rows = V.load(dest)
    i = next(i for i, r in enumerate(rows) if r["kind"] == "DiceRolled")
    rows[i]["data"]["sides"] = "six"
    key = V.event_key(bytes.fromhex(meta["seed"]))
    for j in range(i, len(rows)):  # the chain recomputed: only the roll itself is wrong
        r = rows[j]
        r["prev_hash"] = rows[j - 1]["hash"]
        if not r["public"]:
            r["secret"] = V.commitment(key, r["data"], r["seq"])
        r["hash"] = V.row_hash(meta["game"], r, meta["chain"])
    meta["head"] = f"{rows[-1]['hash']}@{rows[-1]['seq']}"
    (dest / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (dest / "game.json").write_text(json.dumps(meta), encoding="utf-8")
    out = run_verifier(dest, cwd=tmp_path)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert f"FAIL: event {rows[i]['seq']} (DiceRolled): it cannot be recomputed (a die of 'six' sides)" in out.stdout


def test_line_separators_inside_the_log_s_text_are_no_line_ends(tmp_path: Path) -> None:
    """JSON keeps U+2028, U+0085 and friends unescaped (``ensure_ascii=False``); JSON
    Lines ends a line at LF alone, so a salt holding them must not split its row."""
    judge = local_judge(tmp_path, {})
    state = judge.state("g1")
    d = rules.pending(state)[0]
    doc = {"game": "g1", "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
           "orders": rules.bot_orders(state, d.seat, random.Random(1)), "salt": "olive\u2028lamp\x85\x1c"}
    assert judge.handle_message(player_mail(d.seat, doc)) == "applied"
    trust.abandon(judge, "g1", "a test")
    write_archive(judge.store, "g1", tmp_path / "arch")
    judge.store.close()
    assert "\u2028" in (tmp_path / "arch" / "log.jsonl").read_text(encoding="utf-8")
    out = run_verifier(tmp_path / "arch", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


# -- hypothesis: mutated archives, the verifier's main in-process ------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) |
                    st.text(max_size=20), lambda kids: st.lists(kids, max_size=4) |
                    st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=12)
ROW_KEYS = ["seq", "step", "kind", "public", "seat", "data", "prev_hash", "hash", "inbox_id", "secret", "v"]
META_KEYS = ["game", "chain", "dice", "status", "seed_commitment", "seed", "head"]
COVERED_META = {"game", "chain", "seed", "seed_commitment", "head"}
"""game.json's fields whose change a finished game's verification must notice."""


def _canon(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _verify_in_process(dest: Path, *args: str) -> tuple[int, str, str]:
    """``main`` with stdout and stderr as strict UTF-8 streams (what a terminal or a
    pipe takes): (status, stdout, stderr)."""
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="strict")
    with redirect_stdout(out), redirect_stderr(err):
        status = V.main([str(dest), *args])
    out.flush()
    err.flush()
    return status, out_bytes.getvalue().decode(), err_bytes.getvalue().decode()


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, object]:
    """One edit of an archive: (what, its arguments)."""
    what = draw(st.sampled_from(["row field", "drop row field", "row", "delete row", "duplicate row", "swap rows",
                                 "meta field", "drop meta field", "log bytes", "meta bytes", "truncate log",
                                 "flip a character"]))
    return what, draw(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.sampled_from(ROW_KEYS),
                                st.sampled_from(META_KEYS), JSON, st.binary(max_size=40)))


def _apply(dest: Path, what: str, args: tuple) -> None:
    """Apply one mutation to the archive in ``dest``. Raises ValueError, TypeError,
    AttributeError, KeyError or ZeroDivisionError when an earlier one left nothing of
    that kind to edit."""
    a, b, row_key, meta_key, value, blob = args
    log_text = (dest / "log.jsonl").read_text(encoding="utf-8")
    rows = [json.loads(x) for x in log_text.split("\n") if x.strip()]
    meta = json.loads((dest / "game.json").read_text(encoding="utf-8"))
    i, j = a % len(rows), b % len(rows)
    if what == "row field":
        rows[i][row_key] = value
    elif what == "drop row field":
        rows[i].pop(row_key, None)
    elif what == "row":
        rows[i] = value
    elif what == "delete row":
        del rows[i]
    elif what == "duplicate row":
        rows.insert(j, rows[i])
    elif what == "swap rows":
        rows[i], rows[j] = rows[j], rows[i]
    elif what == "meta field":
        meta[meta_key] = value
    elif what == "drop meta field":
        meta.pop(meta_key, None)
    raw = log_text.encode()
    if what == "log bytes":
        (dest / "log.jsonl").write_bytes(raw[:a % len(raw)] + blob + raw[a % len(raw):])
    elif what == "truncate log":
        (dest / "log.jsonl").write_bytes(raw[:a % len(raw)])
    elif what == "flip a character":
        k = a % len(log_text)
        (dest / "log.jsonl").write_text(log_text[:k] + chr(32 + b % 95) + log_text[k + 1:], encoding="utf-8")
    else:
        (dest / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    if what == "meta bytes":
        (dest / "game.json").write_bytes(blob)
    else:
        (dest / "game.json").write_text(json.dumps(meta), encoding="utf-8")


def _covered_change(source: Path, dest: Path) -> bool:
    """Whether the archive in ``dest`` differs from ``source`` in what a finished game's
    verification covers: any row (as JSON; blank lines aside), or a field of
    :data:`COVERED_META` given another value (null or left out is no claim: the log
    holds the seed and its commitment, and game.json's head is a convenience) or the
    game id taken away."""
    def rows(path: Path) -> str:
        text = (path / "log.jsonl").read_text(encoding="utf-8")
        return _canon([json.loads(x) for x in text.split("\n") if x.strip()])  # JSON Lines: LF ends a line

    try:
        if rows(dest) != rows(source):
            return True
        meta = json.loads((dest / "game.json").read_text(encoding="utf-8"))
    except ValueError:  # not JSON or not UTF-8 any more
        return True
    if not isinstance(meta, dict) or meta.get("game") is None:
        return True
    old = json.loads((source / "game.json").read_text(encoding="utf-8"))
    return any(meta.get(k) is not None and _canon(meta[k]) != _canon(old.get(k)) for k in COVERED_META)


@pytest.mark.parametrize("which", ["over", "running"])
@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow,
                                                                                 HealthCheck.function_scoped_fixture])
@given(edits=st.lists(mutations(), min_size=1, max_size=3))
def test_a_mutated_archive_never_crashes_the_verifier(archives: Archives, which: str,
                                                      edits: list[tuple[str, tuple]]) -> None:
    source = archives.over if which == "over" else archives.running
    meta = json.loads((source / "game.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp) / "arch"
        dest.mkdir()
        for name in ("game.json", "log.jsonl"):  # all main reads (the HTML pages would only slow each example)
            shutil.copyfile(source / name, dest / name)
        for what, args in edits:
            try:
                _apply(dest, what, args)
            except (ValueError, TypeError, AttributeError, KeyError, ZeroDivisionError):
                break  # an earlier edit left nothing of the kind to edit: verify what there is
        changed = _covered_change(source, dest)
        status, out, err = _verify_in_process(dest, "--witness", meta["head"])
    assert status in (0, 1, 2)
    assert (status == 2) == err.startswith("pbem_verify: cannot read "), (status, out, err)
    assert (status == 1) == any(line.startswith("FAIL: ") for line in out.splitlines()), (status, out, err)
    if status == 2:
        assert out == "" and err.rstrip().endswith("nothing was checked.")
    if which == "over" and changed:  # everything is covered once the game is over
        assert status != 0, out
