"""``command: approve`` / ``pbem host approve GAME --seat S``: the host gives a seat
offered to the standby list to the substitute who accepted it, in a game whose
``substitutes`` setting is ``approve`` (issue 29, item 2; docs/host-guide.md,
"Substitutes"): the handover mail with a new key and the seat's history to them, the
old player told (:func:`pbem.service.play.substitutes.take`)."""
from __future__ import annotations

from pbem.service.base.context import Service
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest, Refused
from pbem.service.play import substitutes


def process(judge: Service, request: HostRequest) -> Done:
    """Hand the request's ``seat`` to the substitute who asked for it. Raises
    ValueError, saying what to do instead, when no substitute asked for the seat or the
    seat is no longer free (its player came back, or the host gave it to someone)."""
    game_id, seat = request.game_id, request.values.get("seat")
    offer = judge.store.seat_offer(game_id, seat) if isinstance(seat, str) else None
    asked = [o["seat"] for o in judge.store.seat_offers(game_id) if o["status"] == "asked"]
    if offer is None or offer["status"] != "asked":
        raise Refused(lambda tr: tr.gettext("no substitute asks for seat %(seat)s of %(game)s (they ask for: "
                                            "%(asked)s); %(how)s names the seat of the substitute's request") % {
            "seat": repr(seat), "game": game_id, "asked": ", ".join(asked) or tr.gettext("none"),
            "how": request.say("`seat: east`", "--seat east")})
    if not substitutes.is_free(judge, game_id, seat):
        judge.store.close_offer(game_id, seat, "closed", request.now.isoformat())
        raise Refused(lambda tr: tr.gettext("seat %(seat)s of %(game)s is its player's again (they sent orders); the "
                                            "offer is closed") % {"seat": seat, "game": game_id})
    head = substitutes.take(judge, game_id, seat, offer["asker_name"], offer["asker_email"])
    player = f"{offer['asker_name']} <{offer['asker_email']}>"
    return Done(lambda tr: tr.gettext("Seat %(seat)s of %(game)s is now played by %(player)s; the handover mail "
                                      "with the new key is queued.") % {"seat": seat, "game": game_id,
                                                                         "player": player}, head)


COMMAND = HostCommand(
    name="approve", fields=(Field("seat", "seat", "the seat a substitute from the standby list asks for"),),
    logs=("SeatChanged", "PreferencesSet", "SeatReturned", "BotLeft"), once=True,
    guide=Guide("host-guide.md", "Substitutes"), process=process,
    help="Give `seat:` to the substitute from the standby list who asked for it (the game's `substitutes: "
         "approve`).")
