"""Substitutes (issue 29, item 2; docs/host-guide.md and docs/player-guide.md,
"Substitutes"): people put themselves on a game's or the installation's standby list
by mail (:mod:`pbem.service.commands.standby`); when a seat falls into civil disorder
(:mod:`pbem.service.play.overdue`) or the host hands it to the bot (``replace`` with
``bot: true``), the seat is offered to everyone on the list, in the list's order, each
told how to take it. What happens when one accepts is the game's ``substitutes``
setting: ``auto`` (the default) — the first to accept gets the seat at once, with the
handover mail (the seat's history, a new key; :func:`pbem.service.play.handover.give_seat`)
and the host is told; ``approve`` — the first to accept is held and the host approves
(``command: approve``); ``off`` — nothing is offered.

Only games made by ``pbem game new`` (or started by sign-up) offer seats: a config
game's seats change in the config (as ``replace`` refuses them). The old player's key
and address stop working with the handover, as after ``replace``.
"""
from __future__ import annotations

from typing import Any

from pbem import i18n
from pbem.i18n import N_
from pbem.addresses import fold_address
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import bot_seats, settings_of, wrapped
from pbem.service.log import trust
from pbem.service.outgoing import host_notices, outbox, seat_preferences
from pbem.service.play import deadlines
from pbem.service.play.handover import give_seat

WHY = {"civil_disorder": N_("its player missed too many decisions in a row and it is in civil disorder"),
       "bot": N_("the host handed it to the game's bot until a new player takes it")}
"""Why a seat is offered (the offer's ``why``), in the offer mail's words."""


def offers_seats(judge: Service, game_id: str) -> bool:
    """Whether ``game_id`` offers free seats to the standby list: a running game of
    ``pbem game new`` (not the config's) whose ``substitutes`` setting is not ``off``."""
    game = judge.store.game(game_id)
    return (game is not None and game["status"] not in trust.ENDED and judge.config.game(game_id) is None
            and settings_of(judge, game_id).substitutes != "off")


def is_free(judge: Service, game_id: str, seat: str) -> bool:
    """Whether ``seat`` may go to a substitute now: it is in civil disorder, or the bot
    plays it for its player (taken in civil disorder, or handed over by the host)."""
    recs, _away = deadlines.table(judge, game_id)
    if recs.get(seat, deadlines.SeatRecord()).disorder:
        return True
    played = bot_seats(judge, game_id).get(seat)
    return played is not None and played.why in ("civil_disorder", "host")


def open_offer(judge: Service, game_id: str, seat: str) -> dict[str, Any] | None:
    """The offer of ``seat`` that a substitute may still accept (``open``), or None."""
    row = judge.store.seat_offer(game_id, seat)
    return row if row is not None and row["status"] == "open" else None


def free_seats(judge: Service, game_id: str) -> list[str]:
    """The seats of ``game_id`` on offer now (open offers of seats still free)."""
    if not offers_seats(judge, game_id):
        return []
    return [r["seat"] for r in judge.store.seat_offers(game_id)
            if r["status"] == "open" and is_free(judge, game_id, r["seat"])]


def how_to_take(game_id: str, seat: str) -> str:
    """The lines of a mail that take ``seat`` of ``game_id``, indented for a notice."""
    return f"    game: {game_id}\n    command: take\n    take: {seat}"


def offer(judge: Service, game_id: str, seat: str, why: str) -> int:
    """Offer ``seat`` (``why``: ``civil_disorder`` or ``bot``) to the standby list of
    ``game_id`` and of the installation: the offer opened in the store and one mail to
    each address on the list, in its order (none to an address that holds a seat of
    the game). Returns how many were mailed; 0 and no offer when the game offers no
    seats (:func:`offers_seats`). Call inside a transaction."""
    if not offers_seats(judge, game_id):
        return 0
    now = judge.clock().isoformat()
    judge.store.offer_seat(game_id, seat, why, now)
    mode = settings_of(judge, game_id).substitutes
    playing = {fold_address(r["email"]) for r in judge.store.seats(game_id) if r["email"]}
    sent = 0
    for row in judge.store.standby_list(game_id):
        if row["address"] in playing:
            continue
        tr = seat_preferences.address_translations(judge.store, row["address"], game_id)  # issue 28
        _ = tr.gettext
        rule = (_("The first to answer gets the seat.") if mode == "auto" else
                _("The host approves the first substitute who answers; you are told either way."))
        body = (_("The seat %(seat)s of %(game)s is free: %(why)s. You stand by to take a seat, so it is offered to "
                  "you. To take it, answer with:") % {"seat": seat, "game": game_id,
                                                       "why": _(WHY[why]) if why in WHY else why}
                + f"\n\n{how_to_take(game_id, seat)}\n\n"
                + rule + " " + _("The new player gets the seat's key and its history so far by mail, and plays on "
                                 "from the position as it is. To leave the standby list, send `command: standby` "
                                 "with `standby: false`."))
        text = build.render_notice(wrapped(body), game_id, tr)
        subject = f"[{game_id}] " + _("seat %(seat)s is free: take it?") % {"seat": seat}
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["address"], to_name=row["name"] or None,
                     subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                     id_parts=(game_id, "offer", seat, row["address"], now))
        sent += 1
    return sent


def take(judge: Service, game_id: str, seat: str, player: str, address: str,
         language: str | None = None) -> str | None:
    """The substitute ``player`` at ``address`` gets ``seat`` (checked free and offered
    by the caller): :func:`pbem.service.play.handover.give_seat` (``by: standby``), the
    offer closed as ``taken``, the substitute off the game's own standby list (the
    installation's list keeps them), the others on the list told the seat is gone, and
    the host told; ``language``: the substitute's (``language:`` of the take), the
    seat's from then on (issue 28 trial). Returns the log witness. Call
    inside a transaction."""
    offered_at = (judge.store.seat_offer(game_id, seat) or {}).get("offered_at")
    head = give_seat(judge, game_id, seat, player, address, "standby", language)  # the seat in their language
    now = judge.clock().isoformat()
    judge.store.stand_down(game_id, address)
    playing = {fold_address(r["email"]) for r in judge.store.seats(game_id) if r["email"]}
    for row in judge.store.standby_list(game_id):  # the others offered the seat: it is gone
        if row["address"] in playing:
            continue
        tr = seat_preferences.address_translations(judge.store, row["address"], game_id)  # issue 28
        text = build.render_notice(wrapped(tr.gettext(
            "The seat %(seat)s of %(game)s, offered to you, has been taken by another substitute. You still stand "
            "by; the next seat that falls free is offered to you too.") % {"seat": seat, "game": game_id}),
            game_id, tr)
        subject = f"[{game_id}] " + tr.gettext("seat %(seat)s is taken") % {"seat": seat}
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["address"], to_name=row["name"] or None,
                     subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                     id_parts=(game_id, "offer-taken", seat, row["address"], offered_at))
    host_notices.notify_host(judge, game_id, lambda tr: wrapped(tr.gettext(  # the host's language (issue 28)
        "%(player)s <%(address)s>, from the standby list, took the seat %(seat)s of %(game)s: the handover mail "
        "with a new key and the seat's history went to them, and the old player's key and address no longer "
        "work. To give the seat to someone else instead, use `command: replace`.") % {
        "player": player, "address": address, "seat": seat, "game": game_id}
        + ("\n\n" + tr.gettext("Log witness: %(witness)s") % {"witness": head} if head else "")),
        "substitute", once=f"{seat}-{now}")
    return head


def ask(judge: Service, game_id: str, seat: str, player: str, address: str) -> None:
    """The substitute ``player`` at ``address`` accepts the offer of ``seat`` in a game
    whose host approves (``substitutes: approve``): held on the offer and the host told
    how to approve. Call inside a transaction."""
    now = judge.clock().isoformat()
    judge.store.ask_for_seat(game_id, seat, address, player, now)
    host_notices.notify_host(judge, game_id, lambda tr: wrapped(  # the host's language (issue 28)
        tr.gettext("%(player)s <%(address)s>, from the standby list, asks to take the seat %(seat)s of %(game)s (in "
                   "civil disorder or played by the bot). The game's substitutes setting is approve: to give them "
                   "the seat, send") % {"player": player, "address": address, "seat": seat, "game": game_id}
        + f"\n\n    game: {game_id}\n    host: <" + tr.gettext("your host key")
        + f">\n    command: approve\n    seat: {seat}\n\n"
        + tr.gettext("or run `pbem host approve %(game)s --seat %(seat)s`. To give it to someone else, use "
                     "`command: replace`; nothing happens otherwise.") % {"game": game_id, "seat": seat}),
        "substitute asks", once=f"{seat}-{now}")
