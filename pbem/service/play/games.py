"""Games: their data pack, their live state, and creating the configured games (setup,
R-2) with their first reports and prompts; the config's seat changes of stored games
become ``SeatChanged`` events (:func:`pbem.service.log.trust.sync_seats`)."""
from __future__ import annotations

from collections.abc import Callable

from pbem import rules
from pbem.config import GameConfig, SeatConfig
from pbem.report import build
from pbem.report.context import WIDTH, wrap
from pbem.rules.dice import DICE_VERSION, seed_commitment
from pbem.service.base.context import Service, pack_from
from pbem.service.log import trust
from pbem.service.outgoing import outbox
from pbem.service.play import reports


def ensure_games(judge: Service) -> list[str]:
    """Create every configured game that is not in the database yet (setup R-2, first
    prompts), and sync seat names/addresses/key hashes from the config, each change an
    event in the game's log. Returns the ids created. Raises ValueError for a config game
    whose id is open for sign-up or whose rule options are bad (nothing stored for it)."""
    created = []
    for game in judge.config.games:
        if judge.store.game(game.id) is None:
            if judge.store.signup(game.id):  # its fourth join would find the id taken (break16)
                raise ValueError(f"game {game.id} of the config has the id of a game open for sign-up "
                                 "(`pbem game open`); give the config game another id")
            create_game(judge, game)
            created.append(game.id)
        else:
            with judge.store.transaction():
                trust.sync_seats(judge, game)
    return created


def config_welcome_text(judge: Service, game: GameConfig, seat: SeatConfig) -> str:
    """The welcome of a config game's player: everything a player of ``pbem game new``
    is told but the key, which the judge cannot send (it holds only the key's hash; the
    host gave the key to the player) — issue 24, finding 12."""
    host = f" ({game.host_email})" if game.host_email else ""
    return (f"Welcome to {game.id}, {seat.player}. You play the seat {seat.seat}.\n\n"
            f"Your seat key is not in this mail: the host of {game.id}{host} gives it to you; the judge "
            "keeps only a hash of it and cannot send it. If you have not got it, ask the host. Keep it "
            f"secret: every orders mail you send to {judge.config.judge_address} carries it. An orders mail "
            f"looks like\n\n  game: {game.id}\n  seat: {seat.seat}\n  key: YOUR-SEAT-KEY\n  step: N\n"
            "  orders:\n    ...\n\nwhere N is the step the latest prompt names. The judge mails a prompt "
            "whenever your seat has a decision to make, with the orders it expects (docs/orders.md); reply "
            "to the prompt with your orders. Deadlines are shown in the game's time zone, "
            f"{game.settings.time_zone}. docs/player-guide.md tells the rest.")


def _welcome_config_seats(judge: Service, game: GameConfig) -> None:
    """Queue the welcome (:func:`config_welcome_text`) of every seat of config game
    ``game``, with the log witness after the setup (every mail about a game carries
    one, docs/trust.md)."""
    head = trust.witness(judge.store, game.id)
    for seat in game.seats:
        body = config_welcome_text(judge, game, seat) + (f"\n\nLog witness: {head}" if head else "")
        text = build.render_notice(wrap_paragraphs(body), game.id)
        subject = f"[{game.id}] welcome: your seat {seat.seat}"
        outbox.queue(judge, game_id=game.id, kind="welcome", to_addr=seat.email, to_name=seat.player,
                     subject=subject, text=text, html=build.html_of_text(subject, text),
                     id_parts=(game.id, "welcome", seat.seat))


def wrap_paragraphs(text: str) -> str:
    """``text`` with each paragraph wrapped to 72 columns; paragraphs whose lines are
    indented (examples, keys) are kept as they are."""
    return "\n\n".join(para if para.startswith(" ") else wrap(para, WIDTH) for para in text.split("\n\n"))


def create_game(judge: Service, game: GameConfig, welcome: Callable[[], None] | None = None) -> None:
    """Set up ``game`` (R-2) in one transaction: the games and seats rows, the setup
    events after the seed's commitment (``SeedCommitted``, the log's first event), the
    empty and the first snapshot, each player's welcome, then the setup reports and the
    first prompts (issue 24, finding 12: the welcome came after them). ``welcome``
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
        seq = store.append_events(game.id, [e.to_dict() for e in [first, *events]], step=0)
        store.save_snapshot(game.id, 0, -1, rules.empty_state(pack).to_dict())
        store.save_snapshot(game.id, seq, state.step, state.to_dict())
        store.set_game_step(game.id, state.step)
        if welcome is not None:
            welcome()
        else:
            _welcome_config_seats(judge, game)
        reports.queue_reports(judge, game.id, pack, state, [first, *events], headline="setup, the game begins")
        reports.queue_prompts(judge, game.id, pack, state)
