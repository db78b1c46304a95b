"""``command: preferences``: the seat's mail preferences (issue 16; :mod:`pbem.service.outgoing.seat_preferences`)::

    game: g2
    seat: east
    key: <the seat key>
    command: preferences
    map: off            # on | off: the map picture in turn reports
    format: plain       # html | plain: text-only mail
    digest: daily       # daily | off: turn reports once a day in one mail
    language: es        # en | es | ru: the language of every mail to the seat (issue 28)
    json: on            # on | off: the seat's own view as JSON with each report (issue 29)
    webhook: https://chat.example.org/hooks/abc   # or off: prompts and reminders posted there too (issue 29)

Any of them may be given; the others keep their value. A new language holds from the
next mail on: this command's own answer is the first mail in it. Logged as
``PreferencesSet`` (seen by the seat only) with the seat's whole preferences.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from pbem import i18n, rules
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.commands.registry import Field, Guide, Limit, SeatCommand
from pbem.service.commands.reply import CommandError, Reply
from pbem.service.log import trust
from pbem.service.outgoing import digests, seat_preferences, webhooks


def _value(raw: Any) -> Any:
    """YAML 1.1 reads ``on``/``off`` as booleans: take them back as words."""
    if raw is True:
        return "on"
    if raw is False:
        return "off"
    return raw.strip().lower() if isinstance(raw, str) else raw


def preferences(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Set the given preferences; reply with all of them. Raises CommandError for a
    value a preference does not take, or when none is given."""
    old = seat_preferences.of(judge.store, game_id, seat)
    new = dict(old)
    problems: list[Problem] = []
    for key, choices in seat_preferences.CHOICES.items():
        if key not in doc:
            continue
        value = _value(doc[key])
        if key == "digest" and value == "on":
            value = "daily"
        if value not in choices:
            problems.append(Problem(message=f"`{key}:` takes {' or '.join(choices)}; found {doc[key]!r}.",
                                    where=key, code="command.value", hint=f"Write `{key}: {choices[0]}`.",
                                    params={"why": "choice", "key": key, "choices": ", ".join(choices),
                                            "first": choices[0], "found": repr(doc[key])}))
        else:
            new[key] = value
    if "webhook" in doc:
        url = _value(doc["webhook"]) if doc["webhook"] in (True, False) else str(doc["webhook"] or "").strip()
        why = None if url.lower() == "off" else webhooks.url_problem(url)
        if why:  # the URL's own problem in the seat's language too (issue 28, lang28)
            said = webhooks.url_problem(url, seat_preferences.translations(judge.store, game_id, seat))
            problems.append(Problem(message=f"`webhook:` takes an http:// or https:// URL, or off: {why}.",
                                    where="webhook", code="command.webhook",
                                    hint="Write `webhook: https://…` (the URL your chat gives for an "
                                         "incoming webhook) or `webhook: off`.", params={"why": said}))
        elif url.lower() == "off":
            new.pop("webhook", None)
        else:
            new["webhook"] = judge.store.set_webhook(game_id, seat, url)  # the log keeps the fingerprint only
    if not problems and not any(k in doc for k in (*seat_preferences.CHOICES, "webhook")):
        problems.append(Problem(message="No preference given.", where="command", code="command.value",
                                hint="Add one or more of `map: on|off`, `format: html|plain`, "
                                     "`digest: daily|off`, `language: en|es|ru`, `json: on|off`, `webhook: URL|off`.",
                                params={"why": "no_preference"}))
    if problems:
        raise CommandError(problems)
    head = trust.log_events(judge, game_id, [rules.judge_event("PreferencesSet", {"seat": seat, "prefs": new})])
    flushed = digests.flush_digest(judge, game_id, seat) if old["digest"] == "daily" and new["digest"] == "off" else 0
    _ = i18n.translations(new["language"]).gettext  # the answer is the first mail in the new language (issue 28)
    lines = [_("Your preferences for seat %(seat)s of %(game)s are now:") % {"seat": seat, "game": game_id}, "",
             f"  map: {new['map']}", f"  format: {new['format']}", f"  digest: {new['digest']}",
             f"  language: {new['language']}", f"  json: {new['json']}",
             f"  webhook: {seat_preferences.webhook(judge.store, game_id, seat) or 'off'}", ""]
    if new["digest"] == "daily":
        lines.append(_("Turn reports now come once a day, at %(hour)s:00 in the game's time zone, "
                       "in one mail; prompts and reminders still come at once.")
                     % {"hour": f"{seat_preferences.DIGEST_HOUR:02d}"})
    if flushed:
        lines.append(_("The reports held for your digest come now, in one mail."))
    if new["format"] == "plain":
        lines.append(_("Mail to this seat now has no HTML part (starting with this one)."))
    if new.get("webhook"):
        lines.append(_("Prompts and deadline reminders are now also posted to your webhook (as JSON with "
                       "`content` and `text`); mail still comes as before."))
    if head:
        lines += ["", _("Log witness: %(witness)s") % {"witness": head}]
    return Reply(_("preferences"), "\n".join(lines).replace("\n\n\n", "\n\n"))


COMMAND = SeatCommand(
    name="preferences", fields=(*(Field(k, "choice", " | ".join(v)) for k, v in seat_preferences.CHOICES.items()),
                                Field("webhook", "text", "http(s) URL | off")),
    limit=Limit(10, timedelta(hours=1), counted_by="dispatch"), logs=("PreferencesSet",),
    help="Your mail preferences: `map: on|off`, `format: html|plain`, `digest: daily|off`, `language: en|es|ru`, "
         "`json: on|off`, `webhook: URL|off`.",
    guide=Guide("player-guide.md", "Preferences"), process=preferences)
