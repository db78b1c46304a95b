"""``pbem data check|export|map`` through click's CliRunner."""
from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli import data_group as data  # the group with `map` added by pbem.cli
from pbem.cli import main
from pbem.pack.loader import PACK_FILES


def test_check_builtin_prints_summary() -> None:
    result = CliRunner().invoke(data, ["check"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "pack successors: OK" in out
    assert "provinces: 38" in out
    assert "stronghold 9" in out and "major_city" in out
    assert "sea" in out and "trans_med" in out and "mountain_strait" in out
    assert "Tyche deck 55" in out
    assert "reconstructed entries:" in out


def test_data_group_is_registered_on_main() -> None:
    result = CliRunner().invoke(main, ["data", "check"])
    assert result.exit_code == 0, result.output
    assert "pack successors: OK" in result.output


def test_export_then_check_the_copy(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "pack"
    result = runner.invoke(data, ["export", str(out)])
    assert result.exit_code == 0, result.output
    for name in (*PACK_FILES, "land.geojson"):
        assert (out / name).is_file()
    result = runner.invoke(data, ["check", str(out)])
    assert result.exit_code == 0 and "pack pack: OK" in result.output
    again = runner.invoke(data, ["export", str(out)])
    assert again.exit_code == 1 and "--force" in again.output
    assert runner.invoke(data, ["export", str(out), "--force"]).exit_code == 0


def test_check_broken_copy_lists_every_problem(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "pack"
    runner.invoke(data, ["export", str(out)])
    doc = yaml.safe_load((out / "paths.yaml").read_text())
    doc["paths"][3]["b"] = "Pelusim"
    doc["paths"][4]["kind"] = "river"
    (out / "paths.yaml").write_text(yaml.safe_dump(doc))
    result = runner.invoke(data, ["check", str(out)])
    assert result.exit_code == 1
    assert "2 problem(s)" in result.output
    assert "paths.yaml: paths[3]: unknown space 'Pelusim' (did you mean 'pelusium'?)" in result.output
    assert "paths.yaml: paths[4]: field 'kind' must be one of land, sea, mountain_strait, trans_med, got 'river'" in result.output


def test_map_command_writes_svg_and_png(tmp_path: Path) -> None:
    result = CliRunner().invoke(data, ["map", str(tmp_path / "m"), "--width", "400"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "m.svg").read_text().startswith("<svg")
    assert (tmp_path / "m.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
