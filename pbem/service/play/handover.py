"""A seat's handover to a new player (``command: replace``, or a config game's seat
given a new address in the config and the judge restarted; issue 24 item D): the
handover mail to the new address — the key, the seat's own history so far, the
standing orders in force — a notice to the old address, the prompt that waits for the
seat again, and the seat out of civil disorder."""
from __future__ import annotations

import gettext
from collections.abc import Mapping
from typing import Any

import yaml

from pbem import i18n, rules
from pbem.i18n import N_
from pbem.keys import hash_key, new_key
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import wrapped
from pbem.service.log import trust
from pbem.service.log.history import history_reply
from pbem.service.outgoing import digests, outbox, seat_preferences
from pbem.service.play import bots, deadlines
from pbem.service.play.reports import prompt_again


def standing_note(judge: Service, game_id: str, seat: str, tr: gettext.NullTranslations | None = None) -> str:
    """For the handover: the seat's standing orders in force (R-9.3; the previous
    player's, which the new player inherits with the seat) and the ``seq:`` the next
    ones need, or that there are none (break16: the new player was not told), in the
    language of ``tr`` (None: English; issue 28)."""
    _ = (tr or i18n.translations()).gettext
    standing = list(judge.state(game_id).private.get(seat, {}).get("standing", []))
    nxt = judge.store.standing_seq(game_id, seat) + 1
    if not standing:
        return "\n\n" + _("The seat has no standing orders. Yours need `seq: %(seq)s` (or higher) the first "
                           "time.") % {"seq": nxt}
    shown = yaml.safe_dump({"standing": standing}, sort_keys=False, allow_unicode=True).rstrip()
    return ("\n\n" + _("The seat's standing orders stay in force until you send new ones (they need `seq: "
                       "%(seq)s` or higher):") % {"seq": nxt} + "\n\n"
            + "\n".join("    " + line for line in shown.splitlines()))


def hand_over(judge: Service, game_id: str, seat: str, player: str, address: str, key: str | None,
              old: Mapping[str, Any], head: str | None, by: str, language: str | None = None) -> str | None:
    """Mail the handover of ``seat`` to ``player`` at ``address`` (``key``: the new seat
    key; None: the host gives it, the config holding only its hash) and the notice to the
    ``old`` row's address; the seat's preferences back to the defaults (``PreferencesSet``,
    when the old player had changed them: the new player's are not known; break16) and
    what its digest held flushed; end the seat's missed-decision row (``SeatReturned``) and
    mail the waiting prompt again; a bot that plays the seat (taken in civil disorder)
    leaves it (``BotLeft``). ``by``: ``"replace"``, ``"config"`` or ``"standby"`` (a
    substitute from the standby list took the seat; issue 29). No notice when the
    ``old`` row has no address (the bot played the seat). ``language``: the new
    player's (``language:`` of their ``take``), logged as the seat's; the handover
    comes in it and the old player's notice in the old player's (issue 28 trial). Returns
    the log witness after it. Call inside a transaction, after the ``SeatChanged`` event."""
    old_tr = seat_preferences.translations(judge.store, game_id, seat)
    fresh = {**seat_preferences.DEFAULTS, "language": language or i18n.DEFAULT}
    if seat_preferences.of(judge.store, game_id, seat) != fresh:  # not the new player's
        trust.log_events(judge, game_id, [rules.judge_event("PreferencesSet", {"seat": seat, "prefs": fresh})])
        digests.flush_digest(judge, game_id, seat)  # what the digest held goes to the new player now
        head = trust.witness(judge.store, game_id)
    # a new player: out of civil disorder, NMR row ends
    if deadlines.returned(judge, game_id, seat, "standby" if by == "standby" else "replace"):
        head = trust.witness(judge.store, game_id)
    # a seat the bot took in civil disorder is the new player's: the bot leaves it (issue 25, attempt 5,
    # item 2: a config handover left the bot playing the seat of the person the host named)
    if bots.unseat_bot(judge, game_id, seat, {"replace": "host", "standby": "standby"}.get(by, "config")):
        head = trust.witness(judge.store, game_id)
    _subject, history_text, _html = history_reply(judge.store, game_id, seat, None)
    tr = seat_preferences.translations(judge.store, game_id, seat)  # the new player's language (issue 28)
    _ = tr.gettext
    key_text = (_("Your seat key is:") + f"\n\n  {key}" if key else
                _("Your seat key is not in this mail: the host gives it to you (the judge keeps only a hash "
                  "of it). If you have not got it, ask the host."))
    body = (_("Welcome to %(game)s, %(player)s: you take over the seat %(seat)s from %(old)s.") % {
                "game": game_id, "player": player, "seat": seat, "old": old["player"]}
            + "\n\n" + key_text + "\n\n"
            + _("The seat's own history so far follows; ask for any past report with `history: N`, and for the "
                "player's guide with `command: help`. The latest prompt comes in its own mail.")
            + standing_note(judge, game_id, seat, tr)
            + ("\n\n" + _("Log witness: %(witness)s") % {"witness": head} if head else ""))
    text = build.render_notice(wrapped(body) + "\n\n" + history_text, game_id, tr)
    subject = f"[{game_id}] " + _("handover: your seat %(seat)s") % {"seat": seat}
    outbox.queue(judge, game_id=game_id, kind="welcome", to_addr=address, to_name=player, subject=subject,
                 text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                 id_parts=(game_id, "handover", seat, head))
    values = {"seat": seat, "game": game_id}
    told = {"replace": N_("The host gave your seat %(seat)s in %(game)s to another player."),
            "standby": N_("The judge gave your seat %(seat)s in %(game)s to a substitute from the standby list."),
            }.get(by) or N_("The host's config now gives your seat %(seat)s in %(game)s to another player.")
    note = build.render_notice(wrapped(old_tr.gettext(told) % values + " " + old_tr.gettext(
        "Thank you for playing; your key no longer works, and mail from your address no longer speaks for the "
        "seat.")), game_id, old_tr)
    if old["email"]:  # a seat the bot played has no old player to tell
        old_subject = f"[{game_id}] " + old_tr.gettext("your seat %(seat)s has a new player") % values
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=old["email"], to_name=old["player"],
                     subject=old_subject, text=note,
                     html=build.html_of_text(old_subject, note, i18n.language_of(old_tr)),
                     id_parts=(game_id, "replaced", seat, head))
    prompt_again(judge, game_id, seat, again=head)  # a second handover at this step mails the prompt again
    return head


def give_seat(judge: Service, game_id: str, seat: str, player: str, address: str, by: str,
              language: str | None = None) -> str | None:
    """A new player ``player`` at ``address`` (normalised) takes ``seat`` of a game made
    by ``pbem game new``: the old player's pending address changes closed, a new key,
    ``SeatChanged`` (with ``by: standby`` for a substitute; issue 29), the seat row
    updated, the bot off the seat if it played it (``BotLeft``), then :func:`hand_over`.
    ``by``: ``"replace"`` or ``"standby"``; ``language``: the new player's (None:
    English). Returns the log witness. Call inside a
    transaction, after checking the seat and the address."""
    store = judge.store
    old = next(r for r in store.seats(game_id) if r["seat"] == seat)
    store.close_address_changes(game_id, seat, "replaced", judge.clock().isoformat())  # the old player's
    key = new_key()
    data: dict[str, Any] = {"seat": seat, "changed": ["player", "address", "key"], "player": player}
    if by == "standby":
        data["by"] = "standby"
    head = trust.log_events(judge, game_id, [rules.judge_event("SeatChanged", data)])
    store.update_seat(game_id, seat, player=player, email=address, key_hash=hash_key(key))
    if bots.unseat_bot(judge, game_id, seat, by if by == "standby" else "host"):  # the decision waits for the player
        head = trust.witness(store, game_id)
    head = hand_over(judge, game_id, seat, player, address, key, old, head, by, language)
    offer = store.seat_offer(game_id, seat)
    if offer is not None and offer["status"] == "asked" and offer["asker_email"] != address:  # told either way
        tr = seat_preferences.address_translations(store, offer["asker_email"])  # the asker's (issue 28)
        values = {"seat": seat, "game": game_id}
        note = build.render_notice(wrapped(tr.gettext(
            "The host gave the seat %(seat)s of %(game)s, which you asked for, to another player. You still stand "
            "by for the game's other seats.") % values), game_id, tr)
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=offer["asker_email"],
                     to_name=offer["asker_name"],
                     subject=f"[{game_id}] " + tr.gettext("seat %(seat)s went to another player") % values,
                     text=note, html=build.html_of_text(tr.gettext("seat taken"), note, i18n.language_of(tr)),
                     id_parts=(game_id, "offer-refused", seat, offer["asker_email"], head))
    store.close_offer(game_id, seat, "taken" if by == "standby" else "closed", judge.clock().isoformat())
    return head
