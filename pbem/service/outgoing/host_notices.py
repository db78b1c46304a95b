"""Telling the hosts (issue 17, finding 11): a game's host hears about bounces, held mail
and wrong keys of its game; every host of the config hears about what concerns the
judge as a whole — quarantined mail, internal errors, server faults (IMAP, SMTP, the
database) and mail that could not be delivered — once per episode, not once per cycle.

A notice goes through the outbox when the database works. When it does not (disk full,
read-only) the notice about that fault is sent straight over SMTP
(:func:`send_direct`), remembered in memory so that it goes once per process.
"""
from __future__ import annotations

import asyncio
import gettext
import hashlib
import logging
from datetime import datetime, timedelta

from pbem import i18n
from pbem.addresses import fold_address
from pbem.gamesettings import GameSettings
from pbem.mail.compose import compose, stable_message_id
from pbem.mail.smtp import send_raw
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import host_of, settings_of, wrapped
from pbem.service.base.text import safe_text
from pbem.service.outgoing import outbox, seat_preferences, webhooks
from pbem.store.base import is_db_error

log = logging.getLogger(__name__)

#: a fault still going on is reported again after this long
REMIND_EVERY = timedelta(hours=24)


def host_translations(judge: Service, game_id: str) -> gettext.NullTranslations:
    """The translations of the language of ``game_id``'s host (its table setting
    ``host_language``; issue 28)."""
    return i18n.translations(settings_of(judge, game_id).host_language)


KINDS = {"bounce": i18n.N_("bounce"), "address change": i18n.N_("address change"),
         "game over": i18n.N_("game over"), "civil disorder": i18n.N_("civil disorder"),
         "substitute": i18n.N_("substitute"), "substitute asks": i18n.N_("substitute asks"),
         "wrong host keys": i18n.N_("wrong host keys"), "not archived": i18n.N_("not archived"),
         "wrong keys": i18n.N_("wrong keys"), "held": i18n.N_("held"),
         "observer bounce": i18n.N_("observer bounce")}
"""The kinds of host notice as their subjects say them (issue 28: a subject in one
language); a kind not listed reads as it is."""


def notify_host(judge: Service, game_id: str, body: i18n.Localizable, kind: str, once: str | None = None) -> None:
    """Queue a host notice ``[game] host notice: kind`` with ``body`` to the game's
    ``host_email`` (a log warning when the game has none), in the host's language
    (``host_language``; ``body`` a text or a function of the translations object,
    :data:`pbem.i18n.Localizable`). The same body for the same game and kind is queued
    once (its Message-ID is a hash of the English body); with ``once``, one notice per
    (game, kind, once) whatever the body. When the host set a webhook (host command
    ``webhook``), the notice's subject is posted there too
    (:func:`pbem.service.outgoing.webhooks.queue_host_notice`)."""
    address = host_of(judge, game_id)
    english = i18n.localize(body)
    if not address:
        log.warning("[%s] %s", game_id, english)
        return
    digest = once or hashlib.sha256(english.encode()).hexdigest()[:12]
    tr = host_translations(judge, game_id)  # the host's language (issue 28)
    subject = f"[{game_id}] " + tr.gettext("host notice: %(kind)s") % {
        "kind": tr.gettext(KINDS[kind]) if kind in KINDS else kind}
    text = build.render_notice(i18n.localize(body, tr), game_id, tr)
    outbox.queue(judge, game_id=game_id, kind="host", to_addr=address, to_name=None, subject=subject,
                 text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                 id_parts=(game_id, "host", kind, digest))
    webhooks.queue_host_notice(judge, address, game_id, kind, subject, (game_id, "host", kind, digest))


def bounced(judge: Service, address: str, why: i18n.Localizable) -> list[tuple[str, str]]:
    """Mail to ``address`` cannot be delivered — a delivery report came back (RFC 3464)
    or the relay refused the recipient for good (a 5xx reply to RCPT, RFC 5321 4.2.1;
    issue 25, finding 12) — ``why`` says which: every seat registered at ``address`` is
    marked bouncing, so mail to it waits in the outbox (:meth:`pbem.store.Store.due_mail`)
    until the player writes from the address with the seat's key or the seat gets
    another address, and each game's host is told which game and seat (once a day per
    seat; ``why`` a text or a function of the reader's translations object, said in each
    reader's language, issue 28). An address change waiting for its code at ``address`` is closed and its seat
    and host told (:func:`_confirmation_undeliverable`); an observer at ``address`` is
    dropped and its host told
    (:func:`dropped_for_bounce`). Returns the
    (game, seat) pairs marked. Call inside a transaction."""
    hits = judge.store.mark_bouncing(address)
    _confirmation_undeliverable(judge, address, why)
    dropped_for_bounce(judge, address, why)  # an observer's bounce drops it (issue 29)
    for game_id, seat in hits:
        row = next((r for r in judge.store.seats(game_id) if r["seat"] == seat), {})
        config_game = judge.config.game(game_id) is not None
        player = row.get('player', '?')

        def body(tr: gettext.NullTranslations, seat: str = seat, player: str = player,
                 config_game: bool = config_game) -> str:  # the host's language (issue 28)
            said = safe_text(i18n.localize(why, tr), 300)
            how = (tr.gettext("change the seat's address in the judge's config (games[].seats[].email; the next "
                              "`pbem run` logs it)") if config_game else
                   tr.gettext("the player sends `command: address`, or `pbem host replace %(game)s --seat %(seat)s` "
                              "gives the seat to another player") % {"game": game_id, "seat": seat})
            return tr.gettext(
                "Mail to seat %(seat)s of %(game)s (%(player)s, %(address)s) bounced: %(why)s. The seat is marked as "
                "bouncing: mail to it waits in the outbox, nothing is lost, and goes out when the player writes "
                "from that address with the seat's key. If the address is dead, ask the player for a working one: "
                "%(how)s. `pbem status` lists bouncing seats.") % {
                "seat": seat, "game": game_id, "player": player, "address": address, "why": said, "how": how}

        notify_host(judge, game_id, body, kind="bounce", once=f"{seat} {address} {judge.clock():%Y-%m-%d}")
    return hits


def _confirmation_undeliverable(judge: Service, address: str, why: i18n.Localizable) -> None:
    """Close every open address change towards ``address`` (its confirmation code cannot
    arrive) and tell the seat, at the address it still has, and the game's host why
    (issue 25, third break-it pass: a 5xx for the code went unreported, and the player
    waited for a code that never came). Call inside a transaction."""
    now = judge.clock()
    for change in judge.store.open_address_changes_to(address):
        game_id, seat = change["game_id"], change["seat"]
        judge.store.close_address_change(change["id"], "undeliverable", now.isoformat())
        row = next((r for r in judge.store.seats(game_id) if r["seat"] == seat), None)
        if row is not None:
            tr = seat_preferences.translations(judge.store, game_id, seat)  # the seat's language (issue 28)
            reason = safe_text(i18n.localize(why, tr), 300)
            text = build.render_notice(wrapped(tr.gettext(
                "The confirmation code of your address change for seat %(seat)s in %(game)s could not be delivered "
                "to %(address)s: %(why)s. The request is closed and the seat's mail stays at this address. Check "
                "the new address, then send `command: address` again (the guide `command: help` sends, "
                "\"Changing your address\").") % {"seat": seat, "game": game_id, "address": address, "why": reason}), game_id, tr)
            subject = f"[{game_id}] " + tr.gettext("seat %(seat)s: the new address refused the confirmation") % {
                "seat": seat}
            outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["email"], to_name=row["player"],
                         subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                         id_parts=(game_id, "address-undeliverable", seat, change["id"]))
        notify_host(judge, game_id, lambda tr, seat=seat: tr.gettext(
            "Seat %(seat)s of %(game)s asked to move to %(address)s, but the confirmation code could not be "
            "delivered there: %(why)s. The request is closed, the seat keeps its address and its player was "
            "told.") % {"seat": seat, "game": game_id, "address": address,
                        "why": safe_text(i18n.localize(why, tr), 300)},
            kind="address change", once=f"{seat} {change['id']}")


def host_addresses(judge: Service) -> list[str]:
    """Every distinct ``host_email`` of the configured games, in config order, then
    those of the games made by ``pbem game new``."""
    try:
        table = [r["host_email"] for r in judge.store.table_rows() if r.get("host_email")]
    except Exception as exc:
        if not is_db_error(exc):
            raise
        table = []
    return list(dict.fromkeys([*(g.host_email for g in judge.config.games if g.host_email), *table]))


def host_language(judge: Service, address: str) -> str:
    """The language of mail to ``address`` as a host of this judge (issue 28): the
    ``host_language`` of the first game it hosts (the config's games in order, then
    those of ``pbem game new``), English when it hosts none (or the table cannot be
    read)."""
    folded = fold_address(address)
    for game in judge.config.games:
        if game.host_email and fold_address(game.host_email) == folded:
            return game.settings.host_language
    try:
        rows = judge.store.table_rows()
    except Exception as exc:
        if not is_db_error(exc):
            raise
        rows = []
    for row in rows:
        if row.get("host_email") and fold_address(row["host_email"]) == folded:
            return GameSettings.from_dict(row.get("settings")).host_language
    return i18n.DEFAULT


def _judge_notice(title: i18n.Localizable, body: str, tr: gettext.NullTranslations) -> tuple[str, str]:
    """The subject and text of a judge notice in the language of ``tr``: ``[pbem] `` (what
    filters match) and the translated rest."""
    said = i18n.localize(title, tr)
    return "[pbem] " + tr.gettext("judge notice: %(title)s") % {"title": said}, build.render_notice(body, None, tr)


def report_fault(judge: Service, key: str, title: i18n.Localizable, body: i18n.Localizable) -> bool:
    """Record one occurrence of fault ``key`` and, when the hosts were not told of this
    episode yet (or were told more than :data:`REMIND_EVERY` ago), queue a notice
    ``[pbem] judge notice: <title>`` to every host, each in its language
    (:func:`host_language`; ``title`` and ``body`` texts or functions of a translations
    object, :data:`pbem.i18n.Localizable`; the store and the log keep the English).
    Call inside a transaction. Returns True when a notice was queued."""
    now = judge.clock()
    english = i18n.localize(body)
    row = judge.store.fault_seen(key, english, now.isoformat())
    told = row["notified_at"]
    if told and now - datetime.fromisoformat(told) < REMIND_EVERY:
        return False
    hosts = host_addresses(judge)
    if not hosts:
        log.error("judge notice (no host_email configured): %s: %s", i18n.localize(title),
                  safe_text(english if row["count"] == 1 else f"{english} ({row['count']} times)", 1000))
    for address in hosts:
        tr = i18n.translations(host_language(judge, address))
        text = i18n.localize(body, tr)
        if row["count"] != 1:
            text += "\n\n" + tr.ngettext("This happened %(num)d time since %(since)s.",
                                          "This happened %(num)d times since %(since)s.", row["count"]) % {
                "num": row["count"], "since": row["first_seen"]}
        subject, rendered = _judge_notice(title, text, tr)
        parts = ("judge", "fault", key, row["first_seen"], row["count"], address)
        outbox.queue(judge, game_id=None, kind="host", to_addr=address, to_name=None,
                     subject=subject, text=rendered, html=build.html_of_text(subject, rendered, i18n.language_of(tr)),
                     id_parts=parts)
        if key != "webhook":  # a webhook that gives up is not told through the webhooks
            webhooks.queue_host_notice(judge, address, None, i18n.localize(title, tr), subject, parts)
    judge.store.fault_notified(key, now.isoformat())
    return True


def send_direct(judge: Service, key: str, title: i18n.Localizable, body: i18n.Localizable,
                timeout: float = 20.0) -> int:
    """Send a judge notice to every host straight over SMTP, bypassing the outbox (for
    when the database cannot be written), each in its language (:func:`report_fault`).
    Returns how many hosts it reached; never raises."""
    reached = 0
    for address in host_addresses(judge):
        try:
            tr = i18n.translations(host_language(judge, address))
            subject, rendered = _judge_notice(title, i18n.localize(body, tr), tr)
            out = compose(sender=judge.config.judge_address, sender_name=judge.config.judge_name, to_addr=address,
                          to_name=None, subject=subject, text=rendered, kind="host",
                          message_id=stable_message_id(judge.domain, "judge", "direct", key, address,
                                                       judge.clock().isoformat()),
                          date=judge.clock())
            asyncio.run(send_raw(judge.config.smtp, judge.config.judge_address, address, out.raw, timeout=timeout))
            reached += 1
        except Exception as exc:  # noqa: BLE001 - the notice is best effort; the log has it
            log.error("could not tell the host %s about %s: %s", address, key, safe_text(str(exc), 300))
    return reached


def dropped_for_bounce(judge: Service, address: str, why: i18n.Localizable) -> list[str]:
    """Mail to ``address`` bounced: every game it observes (or was sent a code for) drops
    it (``left``) and its host is told (issue 29's trial, finding 6; as a seat's
    bouncing address is marked; ``why`` as :func:`bounced` takes it). Returns the games. Call inside a
    transaction."""
    now = judge.clock().isoformat()
    games = []
    for row in judge.store.observed_by(address):
        game_id = row["game_id"]
        judge.store.set_observer(game_id, row["email"], "left", now)
        games.append(game_id)
        notify_host(judge, game_id, lambda tr, g=game_id, a=row["email"]: tr.gettext(
            "Mail to %(address)s, an observer of %(game)s, bounced: %(why)s. It no longer observes the game and "
            "gets no more of its reports; it may send `command: observe` again from a working address.") % {
            "address": a, "game": g, "why": safe_text(i18n.localize(why, tr), 300)}, kind="observer bounce",
            once=f"{row['email']} {now[:10]}")
    return games
