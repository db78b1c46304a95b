"""``command: replace``: a new player takes a seat — a new key, the handover mail
with the seat's own history and its standing orders, a notice to the old player."""
from __future__ import annotations

from pbem import i18n, rules
from pbem.addresses import reaches_mailbox
from pbem.mail.headers import fold_address, normalise_address
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import bot_seats, settings_of, wrapped
from pbem.service.commands.host import common
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest, Refused
from pbem.service.log import trust
from pbem.service.log.trust import log_events
from pbem.service.outgoing import digests, outbox, seat_preferences
from pbem.service.play import bots, deadlines, substitutes
from pbem.service.play.handover import give_seat
from pbem.service.play.setup import parse_seat


def _common(judge: Service, game_id: str, seat: str | None, via: str) -> dict[str, dict]:
    """The checks every replace makes: a game of ``pbem game new`` and one of its
    seats. Returns the seats rows by seat. Raises ValueError saying what to do."""
    if judge.config.game(game_id) is not None:
        raise Refused(lambda tr: tr.gettext("game %(game)s comes from the config: change the seat there (`pbem run` "
                                            "logs the change); replace works on games made by `pbem game new`") % {
            "game": game_id})
    rows = {r["seat"]: r for r in judge.store.seats(game_id)}
    if seat not in rows:
        raise Refused(lambda tr: tr.gettext("replace needs the seat: %(how)s (seats: %(seats)s)") % {
            "how": common.say(via, "`seat: east`", "--seat east"), "seats": ", ".join(rows)})
    return rows


def _to_bot(judge: Service, game_id: str, seat: str, via: str) -> Done:
    """The game's bot takes ``seat`` (``bot: true``; docs/bots.md): ``SeatChanged`` (no
    address, no key: the old key stops working) and ``BotSeated`` (``why: host``), the
    seat's preferences back to the defaults, a notice to the old player; the seat's
    pending decision is due at once, for the bot's next pass."""
    store = judge.store
    rows = _common(judge, game_id, seat, via)
    played = bot_seats(judge, game_id).get(seat)
    if played is not None and played.why != "civil_disorder":
        raise Refused(lambda tr: tr.gettext("the bot plays %(seat)s of %(game)s already; to give the seat to a "
                                            "person, %(how)s") % {
            "seat": seat, "game": game_id, "how": common.say(via, "`player: Name <address>`",
                                                             "--player 'Name <address>'")})
    old = rows[seat]
    old_language = seat_preferences.of(store, game_id, seat)["language"]
    store.close_address_changes(game_id, seat, "replaced", judge.clock().isoformat())
    name = bots.player_name(settings_of(judge, game_id))
    log_events(judge, game_id, [rules.judge_event("SeatChanged", {"seat": seat, "changed": ["player", "address", "key"],
                                                                  "player": name})])
    store.update_seat(game_id, seat, player=name, email="", key_hash="")
    _default_preferences(judge, game_id, seat)
    deadlines.returned(judge, game_id, seat, "replace")  # out of civil disorder: the bot is no player in disorder
    if played is not None:  # the bot took it in civil disorder: now by the host's hand, for good
        bots.unseat_bot(judge, game_id, seat, "host")
    bots.seat_bot(judge, game_id, seat, "host")
    offered = substitutes.offer(judge, game_id, seat, "bot")  # issue 29: until a substitute takes it
    head = trust.witness(store, game_id)
    if old["email"]:
        tr = i18n.translations(old_language)  # the player's language, before the defaults came back (issue 28)
        note = build.render_notice(wrapped(tr.gettext(
            "The host gave your seat %(seat)s in %(game)s to the game's bot. Thank you for playing; your key no "
            "longer works.") % {"seat": seat, "game": game_id}), game_id, tr)
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=old["email"], to_name=old["player"],
                     subject=f"[{game_id}] " + tr.gettext("your seat %(seat)s is played by the bot") % {"seat": seat},
                     text=note, html=build.html_of_text(tr.gettext("seat replaced"), note, i18n.language_of(tr)),
                     id_parts=(game_id, "replaced", seat, head))
    return Done(lambda tr: tr.gettext(  # the host's language (issue 28)
        "Seat %(seat)s of %(game)s is now played by the game's bot (%(bot)s); it plays the seat's decisions as "
        "they come, its orders checked and logged like a player's, a receipt to you for each.") % {
        "seat": seat, "game": game_id, "bot": name}
        + (" " + tr.gettext("The seat is offered to the %(num)s address(es) on the standby list "
                            "(docs/host-guide.md, Substitutes).") % {"num": offered} if offered else ""), head)


def _default_preferences(judge: Service, game_id: str, seat: str) -> None:
    """The seat's preferences back to the defaults (``PreferencesSet``) when the old
    player had changed them, what their digest held flushed to them (break16)."""
    store = judge.store
    if seat_preferences.of(store, game_id, seat) != dict(seat_preferences.DEFAULTS):
        log_events(judge, game_id, [rules.judge_event("PreferencesSet", {"seat": seat,
                                                                         "prefs": dict(seat_preferences.DEFAULTS)})])
        digests.flush_digest(judge, game_id, seat)


def _replace(judge: Service, game_id: str, seat: str | None, player: str, via: str = "mail") -> Done:
    """A new player takes ``seat`` (``player`` is ``Name <address>``): a new key, the
    ``SeatChanged`` event, the seat's preferences back to the defaults (``PreferencesSet``,
    when the old player had changed them; break16), a handover mail with the key and the
    seat's own history to the new player, a notice to the old one."""
    store = judge.store
    rows = _common(judge, game_id, seat, via)
    try:
        new = parse_seat(f"{seat}={player}")
    except ValueError:
        raise Refused(lambda tr: tr.gettext("replace needs the new player as %(how)s; got %(got)s") % {
            "how": common.say(via, "`player: Name <address>`", "--player 'Name <address>'"),
            "got": repr(player)}) from None
    address = normalise_address(new.email)
    if not address:
        raise Refused(lambda tr: tr.gettext("not an address: %(address)s; write %(how)s") % {
            "address": repr(new.email), "how": common.say(via, "`player: Name <address>`",
                                                          "--player 'Name <address>'")})
    if reaches_mailbox(address, judge.config.judge_address or ""):  # JUDGE@, judge+tag@ too (issue 25, attempt 5)
        raise Refused(lambda tr: tr.gettext("%(address)s is the judge's own address; write %(how)s with the new "
                                            "player's address") % {
            "address": address, "how": common.say(via, "`player: Name <address>`", "--player NAME <ADDRESS>")})
    taken = [s for s, r in rows.items() if s != seat and fold_address(r["email"]) == fold_address(address)]
    if taken:
        raise Refused(lambda tr: tr.gettext("%(address)s is the address of another seat of %(game)s (%(seat)s): one "
                                            "seat per address; write the new player's own address") % {
            "address": address, "game": game_id, "seat": taken[0]})
    head = give_seat(judge, game_id, seat, new.player, address, "replace")
    return Done(lambda tr: tr.gettext("Seat %(seat)s of %(game)s is now played by %(player)s; the handover mail "
                                      "with the new key is queued.") % {"seat": seat, "game": game_id,
                                                                         "player": new.player}, head)


def process(judge: Service, request: HostRequest) -> Done:
    """:func:`_to_bot` with the request's ``seat`` when it says ``bot: true``, else
    :func:`_replace` with its ``seat`` and ``player``. Raises ValueError for both a
    ``player`` and ``bot: true``."""
    seat, player = request.values.get("seat"), request.values.get("player")
    if request.values.get("bot") is True:
        if player:
            raise Refused(lambda tr: tr.gettext("replace takes either the new player or the bot, not both: %(how)s")
                          % {"how": common.say(request.via, tr.gettext("`player: Name <address>` or `bot: true`"),
                                               tr.gettext("--player 'Name <address>' or --bot"))})
        return _to_bot(judge, request.game_id, seat, request.via)
    return _replace(judge, request.game_id, seat, player or "", request.via)


COMMAND = HostCommand(
    name="replace", fields=(Field("seat", "seat", "the seat that changes hands"),
                            Field("player", "text", "the new player, as `Name <address>`"),
                            Field("bot", "flag", "`true`: the game's bot takes the seat instead of a person")),
    logs=("SeatChanged", "PreferencesSet", "SeatReturned", "BotSeated", "BotLeft"), once=True,
    guide=Guide("host-guide.md", "Host commands"), process=process,
    help="A new player takes `seat:` (`player: Name <address>`: a new key, the handover mail, the old player "
         "told), or the game's bot does (`bot: true`).")
