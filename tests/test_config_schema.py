"""The config is one declared schema (:class:`pbem.config.ConfigFile`, issue 26 item 6):
every problem is named by its path, a problem's consequences are not listed as more
problems, and the docs are checked against the schema both ways (in the manner of
sqlite-utils' ``tests/test_docs.py``): the host guide's table lists exactly the schema's
keys, and every key of ``config.example.yaml`` (its commented-out sections too) is one.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import ConfigError, key_paths, load_config, parse_config
from pbem.keys import verify_key

ROOT = Path(__file__).resolve().parent.parent
HASH = "pbkdf2_sha256$1$x$y"


def _flatten(doc: Any, prefix: str, known: set[str]) -> set[str]:
    """The key paths of a parsed YAML document, in :func:`key_paths`' form; a free mapping
    of the schema (``games[].options``) is not entered."""
    out: set[str] = set()
    if isinstance(doc, dict):
        for key, value in doc.items():
            path = f"{prefix}{key}"
            out.add(path)
            if not any(k.startswith((path + ".", path + "[].")) for k in known):
                continue
            if isinstance(value, list):
                for item in value:
                    out |= _flatten(item, f"{path}[].", known)
            else:
                out |= _flatten(value, f"{path}.", known)
    return out


def _documented() -> list[str]:
    """The keys of the host guide's config table (first column)."""
    text = (ROOT / "docs" / "host-guide.md").read_text(encoding="utf-8")
    section = text.split("## The config file", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, re.MULTILINE)


def test_the_host_guide_lists_exactly_the_keys_of_the_schema() -> None:
    documented = _documented()
    assert len(documented) == len(set(documented)), "a key is listed twice"
    assert set(documented) == set(key_paths()), (
        f"in the schema, not the guide: {sorted(set(key_paths()) - set(documented))}; "
        f"in the guide, not the schema: {sorted(set(documented) - set(key_paths()))}")


def test_every_key_of_the_example_is_in_the_schema_and_the_example_loads() -> None:
    text = (ROOT / "config.example.yaml").read_text(encoding="utf-8")
    # the commented-out top-level sections (`# authentication:` and its `#   key:` lines)
    # are keys a host turns on
    lines = [("  " if m.group(1) else "") + m.group(2) for m in re.finditer(r"^#(?: |(   ))(\w+:[^#\n]*)", text, re.MULTILINE)
             if m.group(1) or m.group(2).startswith(("authentication:", "replica:", "retention:"))]
    known = set(key_paths())
    keys = _flatten(yaml.safe_load(text), "", known)
    commented = _flatten(yaml.safe_load("\n".join(lines)), "", known)
    assert {"authentication.authserv_id", "replica.url", "replica.sync_interval", "retention.move_after"} <= commented
    assert keys | commented <= known, sorted((keys | commented) - known)
    assert load_config(ROOT / "config.example.yaml").games[0].id == "alexandria-1"


def test_key_paths_name_nested_sections_and_lists() -> None:
    paths = key_paths()
    assert {"judge.address", "imap.password_file", "games[].seats[].email", "games[].options",
            "authentication.require"} <= set(paths)
    assert not any(p.startswith("games[].options.") for p in paths)


def _config(tmp_path: Path, **top: Any) -> dict:
    seats = [{"seat": s, "player": s.title(), "email": f"{s}@example.org", "key_hash": HASH}
             for s in ("north", "east", "south", "west")]
    return {"judge": {"address": "judge@example.org"}, "database": str(tmp_path / "db.sqlite"),
            "games": [{"id": "g1", "seats": seats}], **top}


def test_every_problem_is_named_by_its_path_all_at_once(tmp_path: Path) -> None:
    raw = _config(tmp_path, imap={"port": 70000, "idle_renew": "40m", "folder": 5},
                  devmail={"accounts": {"judge": 7}}, reply_rate_per_hour=True, colour="red")
    raw["games"][0]["seats"][2]["email"] = "south@"
    raw["games"][0]["settings"] = {"press": "loud"}
    with pytest.raises(ConfigError) as caught:
        parse_config(raw, base=tmp_path)
    paths = sorted(p.split(": ", 1)[0] for p in caught.value.problems)
    assert paths == sorted(["imap.port", "imap.idle_renew", "imap.folder", "devmail.accounts.judge",
                            "reply_rate_per_hour", "colour", "games[0].seats[2].email",
                            "games[0].settings.press"]), caught.value.problems
    assert "games[0].seats[2].email: not an email address: 'south@'" in caught.value.problems
    assert "imap.folder: expected str, got int 5" in caught.value.problems
    assert "reply_rate_per_hour: expected a number, got True" in caught.value.problems


def test_a_problem_is_not_repeated_as_its_consequences(tmp_path: Path) -> None:
    """A game that is not a mapping is one problem (not also its missing id and
    seats); a host that is not a string is one problem (not also 'would send the
    password unencrypted to None')."""
    with pytest.raises(ConfigError) as caught:
        parse_config(_config(tmp_path, games=[5]), base=tmp_path)
    assert caught.value.problems == ["games[0]: expected a mapping, got int"]
    with pytest.raises(ConfigError) as caught:
        parse_config(_config(tmp_path, imap={"host": 7}), base=tmp_path)
    assert caught.value.problems == ["imap.host: expected str, got int 7"]


def test_env_and_password_file_fill_strings_and_ports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_TEST_IMAP_PASSWORD", "from-env")
    monkeypatch.setenv("PBEM_TEST_SMTP_PORT", "2525")
    monkeypatch.delenv("PBEM_TEST_UNSET", raising=False)
    (tmp_path / "smtp-password").write_text("from-file\n")
    config = parse_config(_config(tmp_path, imap={"password": "${PBEM_TEST_IMAP_PASSWORD}"},
                                  smtp={"port": "${PBEM_TEST_SMTP_PORT}", "password_file": "smtp-password"}),
                          base=tmp_path)
    assert (config.imap.password, config.smtp.port, config.smtp.password) == ("from-env", 2525, "from-file")
    with pytest.raises(ConfigError) as caught:
        parse_config(_config(tmp_path, smtp={"user": "me-${PBEM_TEST_UNSET}"}), base=tmp_path)
    assert caught.value.problems == ["smtp.user: environment variable PBEM_TEST_UNSET is not set"]


def test_the_host_key_hash_takes_what_pbem_key_new_prints(tmp_path: Path) -> None:
    """Hand-play (issue 24's second game): `pbem key new`'s `key_hash: hmac_sha256$…` was
    refused as `host_key_hash` with "make one with `pbem key new`"."""
    out = CliRunner().invoke(main, ["key", "new"]).output
    key = re.search(r"^key:\s+(\S+)$", out, re.M).group(1)
    made = re.search(r"^key_hash:\s+(\S+)$", out, re.M).group(1)
    raw = _config(tmp_path)
    raw["games"][0]["host_key_hash"] = made
    config = parse_config(raw, base=tmp_path)
    assert config.games[0].host_key_hash == made and verify_key(key, made)
    raw["games"][0]["host_key_hash"] = "hmac_sha256$not-a-hash"
    with pytest.raises(ConfigError) as caught:
        parse_config(raw, base=tmp_path)
    assert caught.value.problems == ["games[0].host_key_hash: not a key hash; make one with `pbem key new`"]
