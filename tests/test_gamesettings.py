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


def test_the_bots_rounds_are_its_only_bound_and_a_game_of_old_settings_keeps_its_own() -> None:
    """Issue 25: the table bot thinks for ``bot_playouts`` rounds and no clock; the
    default and the largest value are the measured ones (docs/bots.md, "Its budget"), and
    the settings a game logged before keep their rounds."""
    from pbem.service.play.bots import budget

    assert GameSettings().bot_playouts == 24 and budget(GameSettings()).seconds is None
    assert budget(GameSettings()).playouts == 24
    table, bad = parse_settings({"bot_playouts": 96, "bot_seconds": 2})
    assert bad == [] and budget(table).playouts == 96 and budget(table).seconds is None
    _table, bad = parse_settings({"bot_playouts": 97})
    assert bad == ["bot_playouts: from 1 to 96, got 97"]
    old = GameSettings.from_dict({"bot_seconds": 1.0, "bot_playouts": 64})  # a game made before issue 25
    assert budget(old).playouts == 64 and budget(old).seconds is None
