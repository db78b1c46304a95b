"""``command: replace``: a new player takes a seat — a new key, the handover mail
with the seat's own history and its standing orders, a notice to the old player."""
from __future__ import annotations

from pbem import rules
from pbem.keys import hash_key, new_key
from pbem.mail.headers import fold_address, normalise_address
from pbem.service.base.context import Service
from pbem.service.commands.host import common
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest
from pbem.service.log.trust import log_events
from pbem.service.play.handover import hand_over
from pbem.service.play.setup import parse_seat


def _replace(judge: Service, game_id: str, seat: str | None, player: str, via: str = "mail") -> Done:
    """A new player takes ``seat`` (``player`` is ``Name <address>``): a new key, the
    ``SeatChanged`` event, the seat's preferences back to the defaults (``PreferencesSet``,
    when the old player had changed them; break16), a handover mail with the key and the
    seat's own history to the new player, a notice to the old one."""
    store = judge.store
    if judge.config.game(game_id) is not None:
        raise ValueError(f"game {game_id} comes from the config: change the seat there (`pbem run` logs the "
                         "change); replace works on games made by `pbem game new`")
    rows = {r["seat"]: r for r in store.seats(game_id)}
    if seat not in rows:
        raise ValueError(f"replace needs the seat: {common.say(via, '`seat: east`', '--seat east')} (seats: "
                         f"{', '.join(rows)})")
    try:
        new = parse_seat(f"{seat}={player}")
    except ValueError:
        raise ValueError("replace needs the new player as " + common.say(via, "`player: Name <address>`",
                                                                   "--player 'Name <address>'")
                         + f"; got {player!r}") from None
    address = normalise_address(new.email)
    if not address:
        raise ValueError(f"not an address: {new.email!r}; write "
                         + common.say(via, "`player: Name <address>`", "--player 'Name <address>'"))
    if address == normalise_address(judge.config.judge_address or ""):
        raise ValueError(f"{address} is the judge's own address; write "
                         f"{common.say(via, '`player: Name <address>`', '--player NAME <ADDRESS>')} with the "
                         "new player's address")
    taken = [s for s, r in rows.items() if s != seat and fold_address(r["email"]) == fold_address(address)]
    if taken:
        raise ValueError(f"{address} is the address of another seat of {game_id} ({taken[0]}): one seat per "
                         "address; write the new player's own address")
    old = rows[seat]
    store.close_address_changes(game_id, seat, "replaced", judge.clock().isoformat())  # the old player's
    key = new_key()
    event = rules.judge_event("SeatChanged", {"seat": seat, "changed": ["player", "address", "key"],
                                              "player": new.player})
    head = log_events(judge, game_id, [event])
    store.update_seat(game_id, seat, player=new.player, email=address, key_hash=hash_key(key))
    head = hand_over(judge, game_id, seat, new.player, address, key, old, head, "replace")
    return Done(f"Seat {seat} of {game_id} is now played by {new.player}; the handover mail with the new key "
                "is queued.", head)


def process(judge: Service, request: HostRequest) -> Done:
    """:func:`_replace` with the request's ``seat`` and ``player``."""
    return _replace(judge, request.game_id, request.values.get("seat"), request.values.get("player") or "",
                    request.via)


COMMAND = HostCommand(
    name="replace", fields=(Field("seat", "seat", "the seat that changes hands"),
                            Field("player", "text", "the new player, as `Name <address>`")),
    logs=("SeatChanged", "PreferencesSet", "SeatReturned"), once=True, guide=Guide("host-guide.md", "Host commands"),
    process=process,
    help="A new player takes `seat:` (`player: Name <address>`): a new key, the handover mail, the old player told.")
