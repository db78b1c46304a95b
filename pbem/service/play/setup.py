"""Setting games up (setup, R-2): the config's games (:func:`ensure_games`), and the games
a host creates without editing the config, ``pbem game new`` (:func:`new_game`; issue 16).

A config game is created with its first reports and prompts when the database does not
have it yet; the config's seat changes of stored games become ``SeatChanged`` events
(:func:`pbem.service.log.trust.sync_seats`).

:func:`new_game` creates a game in the database from options: it is set up like a
config game (:func:`create_game`, setup R-2, first reports and prompts), its table
(origin, host, settings) is stored in ``game_tables`` and recorded as a ``TableSet``
event in the game's hash chain, and each player is mailed a welcome with the seat key
(only its hash is stored). Config games keep working: they have no ``game_tables`` row
and take their host from the config. A game opened for sign-up
(:mod:`pbem.service.commands.join`) starts through :func:`new_game` too, with the keys
its players got by mail (origin ``signup``).
"""
from __future__ import annotations

import gettext
import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from email.utils import parseaddr
from typing import Any

import yaml

from pbem import i18n, rules
from pbem.addresses import reaches_mailbox
from pbem.config import GameConfig, SeatConfig
from pbem.gamesettings import GameSettings, parse_settings
from pbem.keys import hash_key, new_key
from pbem.mail.headers import clean_text, fold_address, normalise_address
from pbem.report import build
from pbem.report.context import WIDTH, wrap
from pbem.rules.dice import DICE_VERSION, seed_commitment
from pbem.service.base.context import Service, pack_from
from pbem.service.base.settings import bot_seats, wrapped
from pbem.service.log import trust
from pbem.service.outgoing import outbox, seat_preferences
from pbem.service.play import bots, reports
from pbem.service.play.handover import hand_over

N_ = i18n.N_


def ensure_games(judge: Service) -> list[str]:
    """Create every configured game that is not in the database yet (setup R-2, first
    prompts), and sync seat names/addresses/key hashes from the config, each change an
    event in the game's log; a seat given a new address is handed over to it as by
    ``command: replace`` (:func:`pbem.service.play.handover.hand_over`: a new key unless
    the config holds a new key hash, the history, the standing orders, the prompt; the
    old address told). Returns the ids created. Raises ValueError for a config game
    whose id is open for sign-up or whose rule options are bad (nothing stored for it)."""
    created = []
    for game in judge.config.games:
        if judge.store.moved_game(game.id) is not None:  # finished and moved to the archive database (issue 30.7)
            continue
        if judge.store.game(game.id) is None:
            if judge.store.signup(game.id):  # its fourth join would find the id taken (break16)
                raise ValueError(f"game {game.id} of the config has the id of a game open for sign-up "
                                 "(`pbem game open`); give the config game another id")
            create_game(judge, game)
            created.append(game.id)
        else:
            with judge.store.transaction():
                for h in trust.sync_seats(judge, game):  # a seat at a new address: the handover (item D)
                    hand_over(judge, game.id, h.seat, h.player, h.address, h.key, h.old,
                              trust.witness(judge.store, game.id), "config")
                _sync_bots(judge, game)
    return created


def _sync_bots(judge: Service, game: GameConfig) -> None:
    """The config's ``bot: true`` seats of a stored game: a seat that became a bot seat
    gets ``BotSeated`` (``why: config``), one that the bot played from the config and is
    a person's now gets ``BotLeft`` and its pending prompt, if any. A seat the bot took in civil disorder is left as it
    is (its player or the host brings it back). Call inside a transaction."""
    played = bot_seats(judge, game.id)
    for s in game.seats:
        if s.bot and s.seat not in played:
            bots.seat_bot(judge, game.id, s.seat, "config")
        elif not s.bot and s.seat in played and played[s.seat].why in ("setup", "config"):
            bots.unseat_bot(judge, game.id, s.seat, "config")
            reports.prompt_again(judge, game.id, s.seat, again="from-bot")  # its pending decision, to the person


def config_welcome_text(judge: Service, game: GameConfig, seat: SeatConfig,
                        tr: gettext.NullTranslations | None = None) -> str:
    """The welcome of a config game's player: everything a player of ``pbem game new``
    is told but the key, which the judge cannot send (it holds only the key's hash; the
    host gave the key to the player) — issue 24, finding 12; in the language of ``tr``
    (None: English; the YAML example stays English, issue 28)."""
    _ = (tr or i18n.translations()).gettext
    host = f" ({game.host_email})" if game.host_email else ""
    names = {"game": game.id, "player": seat.player, "seat": seat.seat, "host": host,
             "judge": judge.config.judge_address, "zone": game.settings.time_zone}
    return (_("Welcome to %(game)s, %(player)s. You play the seat %(seat)s.") % names + "\n\n"
            + _("Your seat key is not in this mail: the host of %(game)s%(host)s gives it to you; the judge "
                "keeps only a hash of it and cannot send it. If you have not got it, ask the host. Keep it "
                "secret: every orders mail you send to %(judge)s carries it. An orders mail "
                "looks like") % names
            + f"\n\n  game: {game.id}\n  seat: {seat.seat}\n  key: YOUR-SEAT-KEY\n  step: N\n  orders:\n    ...\n\n"
            + _(ORDERS_LINE) % names
            + " " + _(GUIDE_LINE) + "\n\n" + options_text(game.options, tr))


def _welcome_config_seats(judge: Service, game: GameConfig) -> None:
    """Queue the welcome (:func:`config_welcome_text`) of every seat of config game
    ``game``, with the log witness after the setup (every mail about a game carries
    one, docs/trust.md)."""
    head = trust.witness(judge.store, game.id)
    for seat in game.seats:
        tr = seat_preferences.translations(judge.store, game.id, seat.seat)
        body = config_welcome_text(judge, game, seat, tr) + (
            "\n\n" + tr.gettext("Log witness: %(witness)s") % {"witness": head} if head else "")
        text = build.render_notice(wrap_paragraphs(body), game.id, tr)
        subject = welcome_subject(game.id, seat.seat, tr)
        outbox.queue(judge, game_id=game.id, kind="welcome", to_addr=seat.email, to_name=seat.player,
                     subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                     id_parts=(game.id, "welcome", seat.seat))


def welcome_subject(game_id: str, seat: str, tr: gettext.NullTranslations) -> str:
    """A welcome's subject, ``[g1] welcome: your seat north``, in the language of
    ``tr`` after the ``[game]`` that mail filters rely on."""
    return f"[{game_id}] " + tr.gettext("welcome: your seat %(seat)s") % {"seat": seat}


def wrap_paragraphs(text: str) -> str:
    """``text`` with each paragraph wrapped to 72 columns; paragraphs whose lines are
    indented (examples, keys) are kept as they are."""
    return "\n\n".join(para if para.startswith(" ") else wrap(para, WIDTH) for para in text.split("\n\n"))


def create_game(judge: Service, game: GameConfig, welcome: Callable[[], None] | None = None) -> None:
    """Set up ``game`` (R-2) in one transaction: the games and seats rows, the setup
    events after the seed's commitment (``SeedCommitted``, the log's first event), the
    empty and the first snapshot, each player's welcome, then the setup reports and the
    first prompts (issue 24, finding 12: the welcome came after them); a seat the bot
    plays from the start (``bot``) gets ``BotSeated`` in the setup's batch, no welcome
    and no prompt (:mod:`pbem.service.play.bots`). ``welcome``
    queues the welcomes (``pbem game new``'s carry the keys); without it each seat of a
    config game gets :func:`config_welcome_text`. Raises ValueError, storing nothing,
    when the game's rule options are unknown or bad (:func:`pbem.rules.option_problems`)."""
    store = judge.store
    pack = pack_from(game.pack)
    bad = rules.option_problems(pack, dict(game.options))
    if bad:  # found before anything is stored; `pbem run` says so and stops (the config is wrong)
        raise ValueError(f"game {game.id}: bad rule options: " + "; ".join(bad))
    seed = judge.new_seed()
    state, events = rules.new_game(pack, seed, dict(game.options))
    with store.transaction():
        store.create_game(game.id, game.pack, seed, seed_commitment(seed), game.options,
                          [{"seat": s.seat, "player": s.player, "email": s.email,
                            "key_hash": s.key_hash} for s in game.seats])
        first = trust.seed_committed(seed, DICE_VERSION)
        events = [*events, *bots.seated_at_setup(judge, game)]  # before the first prompts: none to a bot
        seq = store.append_events(game.id, [e.to_dict() for e in [first, *events]], step=0)
        store.save_snapshot(game.id, 0, -1, rules.empty_state(pack).to_dict())
        store.save_snapshot(game.id, seq, state.step, state.to_dict())
        store.set_game_step(game.id, state.step)
        languages = [rules.judge_event("PreferencesSet", {"seat": s.seat, "prefs": {
            **seat_preferences.DEFAULTS, "language": s.language}}) for s in game.seats if s.language != i18n.DEFAULT]
        if languages:  # each seat's language before its first mail, the welcome (issue 28)
            trust.log_events(judge, game.id, languages)
        if welcome is not None:
            welcome()
        else:
            _welcome_config_seats(judge, game)
        reports.queue_reports(judge, game.id, pack, state, [first, *events],
                              headline=lambda tr: tr.gettext("setup, the game begins"))
        reports.queue_prompts(judge, game.id, pack, state)


_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


@dataclass(frozen=True)
class NewSeat:
    """One seat of a new game: the pack's seat name, the player's name and address."""

    seat: str
    player: str
    email: str
    language: str = "en"


@dataclass(frozen=True)
class NewGame:
    """What :func:`new_game` made: the seat keys (mailed to the players, not stored) and
    the host key (printed once by the CLI), and the log witness after ``TableSet``."""

    game_id: str
    keys: Mapping[str, str]
    host_key: str
    witness: str | None


def parse_seat(text: str) -> NewSeat:
    """``"north=Ann <ann@example.org>"`` as a :class:`NewSeat`. Raises ValueError saying
    how to write it."""
    seat, sep, rest = text.partition("=")
    name, address = parseaddr(rest)
    if not sep or not address or "@" not in address:
        raise ValueError(f"--seat {text!r}: write SEAT=PLAYER <EMAIL>, e.g. 'north=Ann <ann@example.org>'")
    return NewSeat(seat.strip(), clean_text(name, 60) or address, address)


def with_languages(seats: Sequence[NewSeat], items: Sequence[str]) -> list[NewSeat]:
    """``seats`` with the languages of ``items`` (``pbem game new --language
    west=es``: ``SEAT=LANG``, :data:`pbem.i18n.LANGUAGES`; a seat not named keeps
    English). Raises ValueError naming a bad item, a seat that is not among ``seats``
    or a language the judge does not speak."""
    chosen: dict[str, str] = {}
    names = {s.seat for s in seats}
    for item in items:
        seat, sep, language = (part.strip() for part in item.partition("="))
        if not sep or seat not in names:
            raise ValueError(f"--language {item!r}: write SEAT=LANGUAGE with a seat given by --seat, e.g. west=es")
        if not i18n.is_language(language, pseudo=True):
            raise ValueError(f"--language {item!r}: {language!r} is not a language of this judge "
                             f"(one of {', '.join(i18n.LANGUAGES)})")
        chosen[seat] = language
    return [NewSeat(s.seat, s.player, s.email, chosen.get(s.seat, s.language)) for s in seats]


def parse_pairs(items: Sequence[str], what: str) -> dict[str, Any]:
    """``["key=value", ...]`` as a mapping, each value read as YAML (``3``, ``true``,
    ``[mon, fri]``). Raises ValueError naming the bad item."""
    out: dict[str, Any] = {}
    for item in items:
        k, sep, v = item.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"--{what} {item!r}: write KEY=VALUE")
        out[k.strip()] = yaml.safe_load(v) if v.strip() else ""
    return out


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


ORDERS_LINE = N_("where N is the step the latest prompt names. The judge mails a prompt whenever your seat has a "
                 "decision to make, with the orders it expects; reply to the prompt with your orders. Deadlines "
                 "are shown in the game's time zone, %(zone)s.")
"""How orders come and go, in both welcomes (issue 24 item G: it pointed to docs/orders.md, a file the
player does not have; :data:`GUIDE_LINE` after it says how to get the guide by mail)."""
GUIDE_LINE = N_("A mail with `command: help` (and your game, seat and key) brings the player's guide, "
                "the orders and the commands; every problem the judge names comes with its fix.")
"""Where the welcome sends a player for the rest: the guide by mail, which players have
(issue 24 item G: the welcome named docs/player-guide.md, which they do not); English,
translated where it is said (issue 28)."""


OPTION_TEXTS: dict[str, str] = {
    "ask_windows": N_("R-9.3: every move that can be answered opens a reaction window"),
    "assault_min_cus": N_("R-10: CUs an assaulting army needs, over the pack's constant"),
    "lp_bonus_tie": N_("R-7.1 [D]: a tie for most LP goes to the most senior major general (seniority, "
                       "seed 003, the default) or to nobody (the rulebook)"),
    "reinforcement_limit": N_("R-7.2 [D]: at most 2 reinforcements per space without a major city or "
                              "major general (space, seed 003, the default) or per province outside "
                              "an unbesieged friendly major city (province, the rulebook)"),
    "bot_inside": N_("the random bots besiege and go inside (bots/war.py; tests and demos)"),
    "capitals": N_("R-1.4 [L]: the optional capitals: the card Foundation of the Capital joins the Tyche "
                   "deck; a capital is worth 2 VP, destroying an enemy capital 1 VP"),
}
"""What each rule option does, as the welcome says it (issue 28, try28: a Spanish or
Russian welcome said it in English): the words of :data:`pbem.rules.RULE_OPTIONS`
without the module, marked for translation (tests/service/test_welcome_first.py keeps
the two the same)."""


def options_text(options: Mapping[str, Any], tr: gettext.NullTranslations | None = None) -> str:
    """The rule options in force, for the first mail of a game (issue 24 item G; R-2):
    ``"Rule options in force: capitals: true (R-1.4 [L]: the optional capitals: ...)."``
    with what each does (:data:`pbem.rules.RULE_OPTIONS`, an optional general by
    name), or that the game is played without any; the sentences in the language of
    ``tr`` (None: English; issue 28), the option names and values as the config writes
    them, what each does in the language of ``tr`` too (:data:`OPTION_TEXTS`)."""
    _ = (tr or i18n.translations()).gettext
    if not options:
        return _("Rule options: none; the game is played by the rules as the judge documents them.")
    said = []
    for name, value in options.items():
        if name in rules.RULE_OPTIONS:
            what = re.sub(r" \([a-z_/]+\.py\)$", "", rules.RULE_OPTIONS[name][2])
            what = _(OPTION_TEXTS[name]) if name in OPTION_TEXTS else what
            if value is False:  # issue 24 N6: the text says what the option does when on
                what = _("off; when true: %(what)s") % {"what": what}
        elif value is False:
            what = _("the optional general %(general)s not in play (R-2)") % {"general": name}
        else:
            what = _("the optional general %(general)s in play (R-2)") % {"general": name}
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        said.append(f"{name}: {shown} ({what})")
    return _("Rule options in force: %(options)s.") % {"options": "; ".join(said)}


def welcome_text(game_id: str, seat: str, player: str, key: str, judge_address: str,
                 settings: GameSettings, options: Mapping[str, Any] | None = None,
                 tr: gettext.NullTranslations | None = None) -> str:
    """The welcome a new game's player gets: the seat, the key, how to play and the
    rule options in force (:func:`options_text`), in the language of ``tr`` (None:
    English; the YAML example stays English, issue 28)."""
    _ = (tr or i18n.translations()).gettext
    names = {"game": game_id, "player": player, "seat": seat, "judge": judge_address, "zone": settings.time_zone}
    return (_("Welcome to %(game)s, %(player)s. You play the seat %(seat)s.") % names + "\n\n"
            + _("Your seat key is:") + f"\n\n  {key}\n\n"
            + _("Keep it secret: every orders mail you send to %(judge)s carries it. An orders mail looks like")
            % names
            + f"\n\n  game: {game_id}\n  seat: {seat}\n  key: {key}\n  step: N\n  orders:\n    ...\n\n"
            + _(ORDERS_LINE) % names
            + " " + _(GUIDE_LINE) + "\n\n" + options_text(options or {}, tr))


def new_game(judge: Service, game_id: str, seats: Sequence[NewSeat], *, host_email: str,
             options: Mapping[str, Any] | None = None, settings: Mapping[str, Any] | None = None,
             pack: str = "builtin", key_hashes: Mapping[str, str] | None = None,
             host_key_hash: str | None = None, origin: str = "cli", bot_seats: Sequence[str] = ()) -> NewGame:
    """Create ``game_id`` in the database (see the module docstring) and queue each
    player's welcome. ``key_hashes`` and ``host_key_hash``: keys mailed already (a
    sign-up game, :mod:`pbem.service.commands.join`, ``origin="signup"``): those seats get no
    welcome here and no key is returned for them. ``bot_seats``: the seats the game's
    bot plays from the start (``--bot``; no player, no address, no key; docs/bots.md).
    Raises ValueError with what to do instead for a bad id, a game that exists, unknown
    or missing seats, a seat given as a player and a bot, a bad address (or the judge's
    own) or bad settings."""
    if not _ID.fullmatch(game_id):
        raise ValueError(f"not a game id: {game_id!r} (lower-case letters, digits and -, up to 40)")
    if judge.store.game_known(game_id) or judge.config.game(game_id) is not None:
        raise ValueError(f"a game {game_id!r} exists already (or did: an id is never used twice); choose another id")
    if origin != "signup" and judge.store.signup(game_id):  # its fourth join would fail (break16)
        raise ValueError(f"a game {game_id!r} is open for sign-up already; choose another id")
    table_settings, bad = parse_settings(dict(settings or {}))
    if bad:
        raise ValueError("bad settings: " + "; ".join(bad))
    bad = rules.option_problems(pack_from(pack), dict(options or {}))
    if bad:
        raise ValueError("bad rule options: " + "; ".join(bad))
    pack_seats = set(rules.SEATS)
    names = [s.seat for s in seats] + [str(b).strip().lower() for b in bot_seats]
    if sorted(names) != sorted(pack_seats):
        raise ValueError(f"give each seat of the game once, as --seat or --bot: {', '.join(sorted(pack_seats))} "
                         f"(got {', '.join(names) or 'none'})")
    host = normalise_address(host_email)
    if not host:
        raise ValueError(f"not an address: {host_email!r}")
    own = judge.config.judge_address or ""
    if reaches_mailbox(host, own):  # the judge would mail itself (issue 25, attempt 5, item 5)
        raise ValueError(f"--host {host} is the judge's own address ({own}); give the host's own address")
    keys: dict[str, str] = {}
    seat_configs = []
    seen: dict[str, str] = {}
    for s in seats:
        address = normalise_address(s.email)
        if not address:
            raise ValueError(f"seat {s.seat}: not an address: {s.email!r}")
        if reaches_mailbox(address, own):
            raise ValueError(f"seat {s.seat}: {address} is the judge's own address ({own}); give the seat its "
                             "player's own address")
        if fold_address(address) in seen:  # one seat per address, as for sign-up and replace (break16)
            raise ValueError(f"seat {s.seat}: {address} is the address of seat {seen[fold_address(address)]} "
                             "too; give each seat its player's own address")
        seen[fold_address(address)] = s.seat
        language = s.language
        if not i18n.is_language(language, pseudo=True):
            raise ValueError(f"seat {s.seat}: not a language of this judge: {language!r} "
                             f"(one of {', '.join(i18n.LANGUAGES)})")
        s = NewSeat(s.seat, clean_text(s.player, 60) or address, s.email, language)  # no control characters (break16)
        if key_hashes and s.seat in key_hashes:
            seat_configs.append(SeatConfig(s.seat, s.player, address, key_hashes[s.seat], language))
            continue
        keys[s.seat] = new_key()
        seat_configs.append(SeatConfig(s.seat, s.player, address, hash_key(keys[s.seat]), language))
    seat_configs += [SeatConfig(str(b).strip().lower(), bots.player_name(table_settings), "", "", bot=True)
                     for b in bot_seats]
    host_key = "" if host_key_hash else new_key()
    host_hash = host_key_hash or hash_key(host_key)
    game = GameConfig(game_id, tuple(seat_configs), pack, host, dict(options or {}), host_hash, table_settings)
    store = judge.store
    def welcome() -> None:
        """Each player's welcome with the key, queued before the first report and prompt
        (issue 24, finding 12: it came after them)."""
        for s in seat_configs:
            if s.seat not in keys:  # its key went with the sign-up's answer
                continue
            tr = i18n.translations(s.language)
            text = welcome_text(game_id, s.seat, s.player, keys[s.seat], judge.config.judge_address, table_settings,
                                options, tr)
            body = build.render_notice(wrapped(text), game_id, tr)
            subject = welcome_subject(game_id, s.seat, tr)
            outbox.queue(judge, game_id=game_id, kind="welcome", to_addr=s.email, to_name=s.player,
                         subject=subject, text=body, html=build.html_of_text(subject, body, i18n.language_of(tr)),
                         id_parts=(game_id, "welcome", s.seat))

    with store.transaction():
        # the table first: the first prompts' deadlines are computed with its settings
        store.save_table(game_id, origin=origin, host_email=host, host_key_hash=host_hash,
                         settings=table_settings.to_dict(), state={})
        create_game(judge, game, welcome=welcome)
        event = rules.judge_event("TableSet", {
            "host": _digest(host_hash), "seats": {s.seat: s.player for s in seat_configs},
            "settings": table_settings.to_dict()})
        state = judge.state(game_id)
        seq = store.append_events(game_id, [event.to_dict()], step=state.step)
        store.save_snapshot(game_id, seq, state.step, state.to_dict())
        head = trust.witness(store, game_id)
    return NewGame(game_id, keys, host_key, head)
