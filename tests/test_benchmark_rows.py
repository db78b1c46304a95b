"""The benchmarks' ``--rows`` files make long runs resumable (issue 27 Part A items 4 and
6): a run started again with the same file plays only the games the file lacks, refuses a
file of another run, and survives a last line cut short by a killed run."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import bot_strength, victory_routes


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_bot_strength_skips_the_games_of_its_rows_file(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    args = ["--bot", "greedy", "--opponents", "random", "--workers", "1",
            "--seed", "rowstest", "--rows", str(rows)]
    bot_strength.main(["--games", "1", *args])
    first = _rows(rows)
    assert [(r["opponent"], r["g"]) for r in first] == [("random", 0)]
    assert first[0]["bot"] == "greedy" and first[0]["seed"] == "rowstest"
    first[0]["marker"] = "kept"  # a replayed game 0 would come without it
    rows.write_text(json.dumps(first[0]) + "\n" + '{"opponent": "random", "g"')  # cut short
    bot_strength.main(["--games", "2", *args])
    lines = rows.read_text().splitlines()
    assert len(lines) == 3  # game 0, the cut line, game 1 on a line of its own
    assert json.loads(lines[0])["marker"] == "kept"
    assert json.loads(lines[2])["g"] == 1
    with pytest.raises(SystemExit, match="another run"):
        bot_strength.main(["--games", "2", *args[:-2], "--playouts", "3", "--rows", str(rows)])


def test_victory_routes_skips_the_games_of_its_rows_file(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture) -> None:
    rows = tmp_path / "routes.jsonl"
    args = ["--seed", "rowstest", "--rows", str(rows)]
    victory_routes.main(["--games", "1", *args])
    first = _rows(rows)
    assert [r["g"] for r in first] == [0] and first[0]["bots"] == "random"
    first[0]["how"] = "kept"  # a replayed game 0 would end by a real route
    rows.write_text(json.dumps(first[0]) + "\n")
    capsys.readouterr()
    victory_routes.main(["--games", "2", *args])
    assert [r["g"] for r in _rows(rows)] == [0, 1]
    assert "kept" in capsys.readouterr().out  # the summary counts the file's game 0
    with pytest.raises(SystemExit, match="another run"):
        victory_routes.main(["--games", "2", "--bots", "strong", *args])
