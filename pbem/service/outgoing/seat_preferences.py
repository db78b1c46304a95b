"""A seat's mail preferences (issue 16): ``command: preferences`` sets them, the mail
path honours them.

- ``map: on | off`` — the map picture in turn reports (also off when the config's
  ``map_attachment`` is off);
- ``format: html | plain`` — every mail to the seat in that game with an HTML part, or
  text only (the map, if on, then comes as an ordinary attachment);
- ``digest: daily | off`` — turn reports are held and sent once a day as one mail, at
  :data:`DIGEST_HOUR`:00 in the game's time zone (``settings.time_zone``, UTC by
  default). Prompts, reminders, receipts, press and notices are never held: only turn
  reports wait;
- ``language: en | es | ru`` — every mail to the seat in that game is rendered in that
  language from the next mail on (issue 28; :mod:`pbem.i18n`). The host sets a seat's
  first language (the config's ``games[].seats[].language``, ``pbem game new
  --language SEAT=LANG``): it is logged as the seat's first ``PreferencesSet`` when the
  game is made, before the welcome;
- ``json: on | off`` — each turn report mailed to the seat carries the seat's own view
  of the game as a JSON attachment (issue 29, :mod:`pbem.report.seatjson`,
  docs/seat-report.md), for the player's own tools. Off by default; reports held for a
  digest carry none (the digest is text);
- ``webhook: https://… | off`` — prompts and deadline reminders are also posted as
  JSON to that URL (issue 29.5, :mod:`pbem.service.outgoing.webhooks`). Off by default;
  kept in the prefs only while set, so a seat's defaults stay those of before issue 29.5
  (and a handover to a new player drops it with the other preferences).

The preferences live in the game's log only: each change is a ``PreferencesSet``
event seen by the seat alone, carrying the seat's whole preferences; the latest one
is what holds (:func:`of`), so the replay and the live behaviour cannot differ.
"""
from __future__ import annotations

import gettext
import logging
from collections.abc import Mapping

from pbem import i18n
from pbem.mail.headers import fold_address
from pbem.store import Store

log = logging.getLogger(__name__)

DEFAULTS: Mapping[str, str] = {"map": "on", "format": "html", "digest": "off", "language": i18n.DEFAULT,
                               "json": "off"}
"""Each preference's value when the seat never set it."""
CHOICES: Mapping[str, tuple[str, ...]] = {"map": ("on", "off"), "format": ("html", "plain"),
                                          "digest": ("daily", "off"), "language": i18n.LANGUAGES,
                                          "json": ("on", "off")}
"""The values each preference takes."""
DIGEST_HOUR = 8
"""The local hour (game time zone) at which a day's digest goes."""


def of(store: Store, game_id: str, seat: str) -> dict[str, str]:
    """The seat's preferences ``{"map", "format", "digest", "language", "json"}``: the latest
    ``PreferencesSet`` of the seat over :data:`DEFAULTS`."""
    data = store.latest_seat_event(game_id, "PreferencesSet", seat)
    return {**DEFAULTS, **(data["prefs"] if data else {})}


def webhook(store: Store, game_id: str, seat: str) -> str | None:
    """The seat's webhook URL (issue 29.5), or None when it set none (or ``off``): the log's
    ``PreferencesSet`` names the URL's fingerprint only (the log is published once the game
    is over, and the URL is the chat's secret); the URL is kept in ``seat_webhooks``."""
    fp = of(store, game_id, seat).get("webhook")
    return store.webhook_url(game_id, seat, fp) if fp else None


def of_address(store: Store, game_id: str | None, address: str) -> dict[str, str]:
    """The preferences of the seat of ``game_id`` registered at ``address`` (the
    defaults for an address that is no seat's, or no game)."""
    if not game_id:
        return dict(DEFAULTS)
    seat = store.seat_at(game_id, fold_address(address))
    return of(store, game_id, seat) if seat else dict(DEFAULTS)




def translations(store: Store, game_id: str | None, seat: str | None) -> gettext.NullTranslations:
    """The translations object of the seat's mail (:func:`pbem.i18n.translations` of its
    ``language`` preference; English with no game or seat)."""
    if not game_id or not seat:
        return i18n.translations()
    return i18n.translations(of(store, game_id, seat)["language"])


def translations_at(store: Store, game_id: str | None, address: str) -> gettext.NullTranslations:
    """The translations object of mail to ``address`` in ``game_id``: its seat's
    language (:func:`translations`), English for an address that is no seat's."""
    return i18n.translations(of_address(store, game_id, address)["language"])


def address_translations(store: Store, address: str, game_id: str | None = None,
                         given: object = None) -> gettext.NullTranslations:
    """The translations object of mail to an address that need not hold a seat (a
    substitute on the standby list, an observer, anyone asking for a record; issue 28):
    ``given`` when it is a language (a command's ``language:``), else the language of
    the address's seat in ``game_id``, else of its observer row there, else of the
    seat it holds in any game of this judge (the last by game id), else English."""
    if i18n.is_language(given):
        return i18n.translations(str(given))
    folded = fold_address(address or "")
    if game_id:
        seat = store.seat_at(game_id, folded)
        if seat:
            return translations(store, game_id, seat)
        row = store.observer(game_id, folded)
        if row and i18n.is_language(row.get("language")):
            return i18n.translations(row["language"])
    held = store.seats_at(folded) if folded else []
    if held:
        return translations(store, held[-1]["game_id"], held[-1]["seat"])
    return i18n.translations()

