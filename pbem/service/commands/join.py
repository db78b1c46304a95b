"""Sign-up by mail (issue 16): an *open game* the host creates without seats
(``pbem game open GAME --host ADDR``), that players join by mail::

    game: g5
    join: north             # a seat, or `any` (the first free seat)
    name: Ann               # optional: the name the other players see (else the mail's)
    language: es            # optional: en (the default), es or ru: the language of your mail

Each player who joins is answered with the seat and its key (only the key's hash is
kept). When the last of the four seats is taken the game starts as one made by ``pbem
game new`` (:func:`pbem.service.play.setup.new_game`, ``origin: signup``): setup R-2, the
``TableSet`` event (the seats' names, no address), the first reports and prompts; every
player is told the game starts, and so is the host.

Refused, each with what to do instead, nothing changed: a game that is not open for
sign-up (unknown, or started: ``command.no_signup``), a seat that is no seat
(``command.signup_seat``) or is taken (``command.seat_taken``; the free seats are
named), an address that holds a seat of that game already (``command.signup_twice``:
one seat per address, so no player holds two seats and every seat has its own mail),
and an address whose record on this judge is below the game's minimum
(``command.signup_finished``: fewer games finished than ``min_finished_games``;
``command.signup_missed``: a larger share of decisions missed than
``max_missed_share``; issue 29.4). The host is told of every join, with the player's
record.

Before the game starts it has no hash chain yet: the sign-up lives in the ``signups``
and ``signup_seats`` tables; its outcome (who took which seat) enters the chain with
``TableSet`` when the game starts.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem import i18n, rules
from pbem.gamesettings import GameSettings, parse_settings
from pbem.keys import hash_key, new_key
from pbem.mail.headers import clean_text, normalise_address
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import wrapped
from pbem.service.commands.anyone import record
from pbem.service.commands.registry import Field, Guide, MailRequest, Who
from pbem.service.identity.envelope import shown_value
from pbem.service.outgoing import answers, outbox, webhooks
from pbem.service.play.setup import _ID, NewSeat, new_game

SIGNUP_KEYS = ("game", "join", "name", "language")
"""The keys of a sign-up mail."""
NAME_MAX = 60
"""The longest player name taken (characters)."""


def open_game(judge: Service, game_id: str, *, host_email: str, options: Mapping[str, Any] | None = None,
              settings: Mapping[str, Any] | None = None, pack: str = "builtin") -> str:
    """Open ``game_id`` for sign-up by mail (module docstring); return the host key
    (printed once; only its hash is kept). Raises ValueError, saying what to do
    instead, for a bad id, an id in use (a game or another sign-up), a bad host
    address or bad settings."""
    if not _ID.fullmatch(game_id):
        raise ValueError(f"not a game id: {game_id!r} (lower-case letters, digits and -, up to 40)")
    store = judge.store
    if store.game_known(game_id) or judge.config.game(game_id) is not None or store.signup(game_id):
        raise ValueError(f"a game {game_id!r} exists already; choose another id")
    table, bad = parse_settings(dict(settings or {}))
    if bad:
        raise ValueError("bad settings: " + "; ".join(bad))
    host = normalise_address(host_email)
    if not host:
        raise ValueError(f"not an address: {host_email!r}")
    key = new_key()
    with store.transaction():
        store.create_signup(game_id, pack=pack, options=dict(options or {}), settings=table.to_dict(),
                            host_email=host, host_key_hash=hash_key(key), at=judge.clock().isoformat())
    return key


def close_game(judge: Service, game_id: str, reason: str = "") -> list[str]:
    """The host closes an open sign-up (e.g. after forged or unwanted joins): no more
    joins, the game never starts; every player who joined is told. Returns the seats
    that were taken. Raises ValueError, saying what to do instead, when ``game_id`` is
    not open for sign-up. Nothing enters a game log: the game never existed."""
    store = judge.store
    row = store.signup(game_id)
    if row is None or row["status"] != "open":
        raise ValueError(f"{game_id!r} is not open for sign-up; `pbem host status {game_id}` shows a started game")
    with store.transaction():
        taken = store.signup_seats(game_id)
        store.close_signup(game_id, "closed")
        for t in taken:
            _tell(judge, game_id, t, "the sign-up is closed",
                  f"The host closed the sign-up of {game_id}{': ' + clean_text(reason, 300) if reason else ''}. The game will "
                  "not start and your seat key will not be used.")
    return [t["seat"] for t in taken]


def free_seat(judge: Service, game_id: str, seat: str, reason: str = "") -> str:
    """The host takes back ``seat`` of an open sign-up (a join the host does not want,
    e.g. a forged one): the seat is free to join again and its player is told. Returns
    the player's name. Raises ValueError, saying what to do instead, when the game is
    not open for sign-up or the seat is not taken."""
    store = judge.store
    row = store.signup(game_id)
    if row is None or row["status"] != "open":
        raise ValueError(f"{game_id!r} is not open for sign-up; a started game's seat changes with "
                         "`pbem host replace`")
    with store.transaction():
        held = store.free_signup_seat(game_id, seat)
        if held is None:
            taken = ", ".join(t["seat"] for t in store.signup_seats(game_id)) or "none"
            raise ValueError(f"seat {seat!r} of {game_id} is not taken (taken: {taken})")
        values = {"seat": seat, "game": game_id, "reason": clean_text(reason, 300) if reason else ""}
        _tell(judge, game_id, held, lambda tr: tr.gettext("your seat was freed"),
              lambda tr: (tr.gettext("The host freed the seat %(seat)s of %(game)s: %(reason)s; your seat key will "
                                     "not be used. If this is a mistake, write to the host.") if reason else
                          tr.gettext("The host freed the seat %(seat)s of %(game)s; your seat key will not be used. "
                                     "If this is a mistake, write to the host.")) % values)
    return held["player"]


def _tell(judge: Service, game_id: str, taken: Mapping[str, Any], subject: i18n.Localizable,
          body: i18n.Localizable) -> None:
    """A notice to the player who took a seat of an open game, in the language chosen at
    sign-up (issue 28)."""
    tr = i18n.translations(taken.get("language") or i18n.DEFAULT)
    title = i18n.localize(subject, tr)
    text = build.render_notice(wrapped(i18n.localize(body, tr)), game_id, tr)
    outbox.queue(judge, game_id=None, kind="notice", to_addr=taken["email"], to_name=taken["player"],
                 subject=f"[{game_id}] {title}", text=text,
                     html=build.html_of_text(title, text, i18n.language_of(tr)),
                 id_parts=(game_id, "signup", i18n.localize(subject), taken["seat"], taken["email"],
                           judge.clock().isoformat()))


def _refuse(code: str, message: str, hint: str, where: str = "join", **params: Any) -> Problem:
    """A problem of a sign-up mail; ``params`` (with ``why``, its case) let a reader of
    another language be told the same (:data:`pbem.problem_texts.VARIANTS`)."""
    return Problem(message=message, where=where, code=code, hint=hint, params=params or None)


def check_join(judge: Service, doc: Mapping[str, Any], sender: str) -> tuple[str | None, list[Problem]]:
    """The seat a sign-up mail from ``sender`` takes (None) and every problem with it
    (module docstring). Reads only."""
    store = judge.store
    game_id = doc.get("game")
    row = store.signup(game_id) if isinstance(game_id, str) else None
    if row is None or row["status"] != "open":
        state = row["status"] if row is not None else None
        return None, [_refuse("command.no_signup", f"Game {game_id!r} is "
                              + ("full: its four seats are taken and it has started." if state == "started"
                                 else "closed: its host closed the sign-up." if state == "closed"
                                 else "not open for sign-up on this judge."),
                              "Ask the host for the id of an open game; `join:` works only before a game "
                              "starts (docs/player-guide.md: Joining an open game).", where="game")]
    problems = [_refuse("envelope.unknown_key", f"A sign-up mail has no key {k!r}.",
                        "Write only `game:`, `join:`, `name:` and `language:`.", where=str(k))
                for k in doc if k not in SIGNUP_KEYS]
    taken = {r["seat"]: r for r in store.signup_seats(game_id)}
    free = [s for s in rules.SEATS if s not in taken]
    mine = next((r["seat"] for r in taken.values() if r["email"] == sender), None)
    if mine is not None:
        problems.append(_refuse("command.signup_twice", f"Your address holds the seat {mine} of {game_id} already.",
                                "One seat per address: ask a friend to join from their own address."))
    want = doc.get("join")
    want = want.strip().lower() if isinstance(want, str) else want  # `join: North` is north
    seat: str | None = None
    if not isinstance(want, str) or (want != "any" and want not in rules.SEATS):
        problems.append(_refuse("command.signup_seat", f"join: {want!r} is no seat of the game.",
                                f"Write `join: any` or one of the free seats: {', '.join(free)}.",
                                why="join", found=shown_value(want), free=", ".join(free)))
    elif want == "any":
        seat = free[0] if free else None
    elif want in taken:
        problems.append(_refuse("command.seat_taken", f"The seat {want} of {game_id} is taken.",
                                f"Write `join: any` or one of the free seats: {', '.join(free)}."))
    else:
        seat = want
    name = doc.get("name")
    if name is not None and (not isinstance(name, str) or not clean_text(name) or len(name) > NAME_MAX):
        problems.append(_refuse("command.signup_seat", f"name: must be a text of 1 to {NAME_MAX} characters.",
                                "e.g. `name: Ann`", where="name", why="name", most=NAME_MAX,
                                found=shown_value(name)))
    language = doc.get("language", i18n.DEFAULT)
    if not i18n.is_language(language):
        problems.append(_refuse("command.value", f"language: {language!r} is not a language of this judge.",
                                f"Write one of {', '.join(i18n.LANGUAGES)}, e.g. `language: es`.", where="language",
                                why="language", found=shown_value(language), languages=", ".join(i18n.LANGUAGES)))
    # the game's minimum record (issue 29.4): finished games, share of decisions missed
    problems += record.join_problems(GameSettings.from_dict(row["settings"]), store.player_record(sender), game_id)
    return (None if problems else seat), problems


def _player_name(doc: Mapping[str, Any], parsed: ParsedMail, sender: str) -> str:
    name = doc.get("name") if isinstance(doc.get("name"), str) else (parsed.sender_name or sender.split("@")[0])
    return clean_text(str(name), NAME_MAX) or sender.split("@")[0]  # no control characters (break16)


def handle_mail(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                shown: Mapping[str, Any]) -> str:
    """A sign-up mail (module docstring): the seat taken and its key mailed to the
    sender, the game started when it is full; or the refusal naming every problem.
    Returns the inbox status (``answered`` or ``rejected``). Call inside the intake's
    transaction."""
    sender = normalise_address(parsed.sender or "")
    game_id = doc.get("game") if isinstance(doc.get("game"), str) else None
    seat, problems = check_join(judge, doc, sender)
    if problems or seat is None:
        return answers.reject(judge, parsed, rec, problems, None, None, {"document": shown})
    store = judge.store
    key = new_key()
    player = _player_name(doc, parsed, sender)
    now = judge.clock().isoformat()
    language = doc.get("language", i18n.DEFAULT)
    store.take_signup_seat(game_id, seat, player, sender, hash_key(key), now, language)
    taken = store.signup_seats(game_id)
    rec("answered", "signup", result={"document": shown, "seat": seat})
    row = store.signup(game_id)
    settings = GameSettings.from_dict(row["settings"])
    waiting = len(rules.SEATS) - len(taken)
    tr = i18n.translations(language)  # the answer in the language the player chose (issue 28)
    _ = tr.gettext
    names = {"game": game_id, "player": player, "seat": seat, "judge": judge.config.judge_address,
             "num": waiting, "zone": settings.time_zone}
    body = (_("Welcome to %(game)s, %(player)s. You take the seat %(seat)s.") % names + "\n\n"
            + _("Your seat key is:") + f"\n\n  {key}\n\n"
            + _("Keep it secret: every orders mail you send to %(judge)s carries it.") % names + " "
            + (tr.ngettext("The game starts when %(num)d more seat is taken; you will be told.",
                           "The game starts when %(num)d more seats are taken; you will be told.", waiting) % names
               + " " if waiting else
               _("Yours was the last seat: the game starts now, your first report and prompt follow.") + " ")
            + _("Deadlines are shown in the game's time zone, %(zone)s. A `command: help` mail to the "
                "judge sends the guide that tells how to write orders.") % names)
    text = build.render_notice(wrapped(body), game_id, tr)
    subject = _("your seat %(seat)s") % names
    outbox.queue(judge, game_id=None, kind="welcome", to_addr=sender, to_name=player, subject=f"[{game_id}] {subject}",
                 text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                 # the join mail's own id and content: a second join of the seat (after the host freed it)
                 # is a new welcome with a new key (issue 25.2: it shared the first one's id and was dropped)
                 id_parts=(game_id, "signup", seat, sender, *answers.answer_key(parsed)),
                 in_reply_to=parsed.message_id, references=parsed.references, auto="auto-replied")
    _tell_host_joined(judge, game_id, row, seat, player, sender, waiting)
    if not waiting:
        _start(judge, game_id, row, taken)
    return "answered"


def _tell_host_joined(judge: Service, game_id: str, row: Mapping[str, Any], seat: str, player: str, sender: str,
                      waiting: int) -> None:
    """The host's sign-up notice: who took which seat, from which address, with the
    player's record on this judge (issue 29.4; :mod:`pbem.service.commands.anyone.record`)."""
    language = (row.get("settings") or {}).get("host_language")  # the host's language (issue 28)
    tr = i18n.translations(language if i18n.is_language(language, pseudo=True) else i18n.DEFAULT)
    _, ngettext = tr.gettext, tr.ngettext
    lines = "\n".join("  " + line for line in record.record_lines(judge.store.player_record(sender), tr))
    body = (wrapped(_("%(player)s <%(address)s> joined %(game)s and took the seat %(seat)s.") % {
                "player": player, "address": sender, "game": game_id, "seat": seat} + " "
                    + (ngettext("%(num)d seat is still free.", "%(num)d seats are still free.", waiting)
                       % {"num": waiting} if waiting else _("It was the last seat: the game starts."))
                    + " " + _("Their record on this judge:")) + "\n\n" + lines + "\n\n"
            + wrapped(_("A join you do not want is undone with `pbem game close --seat %(seat)s %(game)s`.") % {
                "seat": seat, "game": game_id}))
    text = build.render_notice(body, game_id, tr)
    parts = (game_id, "signup-host", seat, sender, judge.clock().isoformat())
    subject = f"[{game_id}] " + _("sign-up: %(player)s took %(seat)s") % {"player": player, "seat": seat}
    outbox.queue(judge, game_id=None, kind="notice", to_addr=row["host_email"], to_name=None, subject=subject,
                 text=text, html=build.html_of_text(_("sign-up"), text, i18n.language_of(tr)), id_parts=parts)
    webhooks.queue_host_notice(judge, row["host_email"], None, "sign-up", subject, parts)  # issue 29 trial 4


def _start(judge: Service, game_id: str, row: Mapping[str, Any], taken: list[dict[str, Any]]) -> None:
    """The last seat is taken: the game starts (module docstring)."""
    seats = [NewSeat(t["seat"], t["player"], t["email"], t.get("language") or i18n.DEFAULT) for t in taken]
    made = new_game(judge, game_id, seats, host_email=row["host_email"], options=row["options"],
                    settings=row["settings"], pack=row["pack"], key_hashes={t["seat"]: t["key_hash"] for t in taken},
                    host_key_hash=row["host_key_hash"], origin="signup")
    judge.store.close_signup(game_id)
    names = ", ".join(f"{t['seat']}: {t['player']}" for t in taken)
    for t in taken:  # each in the language chosen at sign-up (issue 28)
        tr = i18n.translations(t.get("language") or i18n.DEFAULT)
        body = tr.gettext("Game %(game)s starts: its four seats are taken (%(names)s). Your first report and "
                          "prompt follow; play with the seat key of your sign-up answer.") % {"game": game_id,
                                                                                              "names": names}
        text = build.render_notice(wrapped(body), game_id, tr)
        outbox.queue(judge, game_id=game_id, kind="notice", to_addr=t["email"], to_name=t["player"],
                     subject=f"[{game_id}] " + tr.gettext("the game starts"), text=text,
                     html=build.html_of_text(tr.gettext("the game starts"), text, i18n.language_of(tr)),
                     id_parts=(game_id, "started", t["seat"]))
    tr = i18n.translations((row["settings"] or {}).get("host_language") or i18n.DEFAULT)  # the host's language
    body = (tr.gettext("Your open game %(game)s is full and has started (%(names)s). Host commands work on it as "
                       "on a game made by `pbem game new` (docs/host-guide.md).") % {"game": game_id, "names": names}
            + ("\n\n" + tr.gettext("Log witness: %(witness)s") % {"witness": made.witness} if made.witness else ""))
    text = build.render_notice(wrapped(body), game_id, tr)
    subject = f"[{game_id}] " + tr.gettext("the game starts")
    outbox.queue(judge, game_id=game_id, kind="notice", to_addr=row["host_email"], to_name=None, subject=subject,
                 text=text, html=build.html_of_text(tr.gettext("the game starts"), text, i18n.language_of(tr)),
                 id_parts=(game_id, "started", "host"))
    webhooks.queue_host_notice(judge, row["host_email"], game_id, "sign-up", subject, (game_id, "started", "host"))


REQUEST = MailRequest(
    name="join", who=Who.ANYONE,
    fields=(Field("join", "text", "the seat to take, or `any`"), Field("name", "text", "your name as players see it"),
            Field("language", "choice", "en | es | ru: the language of your mail")),
    limit=None, logs=(),
    help="Take a seat of a game open for sign-up (`game:`, `join: SEAT|any`, `name:`); the key comes back by mail.",
    guide=Guide("player-guide.md", "Joining an open game"), process=handle_mail)
