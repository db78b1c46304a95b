"""Table settings (issue 16, pbem.gamesettings): one parser for config, CLI and host."""
from __future__ import annotations

from pbem.gamesettings import GameSettings, days, duration, parse_settings


def test_settings_parse_with_problems_named() -> None:
    s, bad = parse_settings({"time_zone": "Europe/Berlin", "allowed_days": "mon-fri", "grace": "2h",
                             "nmr_limit": "3", "press": "public", "grey_press": "true"})
    assert bad == []
    assert s.time_zone == "Europe/Berlin" and s.allowed_days == ("mon", "tue", "wed", "thu", "fri")
    assert s.grace == 7200 and s.nmr_limit == 3 and s.press == "public" and s.grey_press
    s2, bad = parse_settings({"time_zone": "Mars/Olympus", "press": "loud", "colour": 1})
    assert s2 == GameSettings() and [b.split(":")[0] for b in bad] == ["time_zone", "press", "colour"]


def test_settings_round_trip_and_helpers() -> None:
    s, _ = parse_settings({"allowed_days": ["saturday", "sun"], "deadlines": {"player_turn": "2d"}})
    assert GameSettings.from_dict(s.to_dict()) == s
    assert days("fri-mon") == ("mon", "fri", "sat", "sun") and duration("30m") == 1800


def test_substitutes_setting_takes_auto_approve_off_and_the_default_is_not_stored() -> None:
    table, bad = parse_settings({"substitutes": "approve"})
    assert bad == [] and table.substitutes == "approve" and table.to_dict()["substitutes"] == "approve"
    assert GameSettings.from_dict(table.to_dict()).substitutes == "approve"
    _table, bad = parse_settings({"substitutes": "sometimes"})
    assert bad and bad[0].startswith("substitutes: must be one of auto, approve, off")
    assert "substitutes" not in GameSettings().to_dict() and GameSettings().substitutes == "auto"
