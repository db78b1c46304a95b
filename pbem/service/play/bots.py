"""Bots at the table (issue 27 Part A item 3; docs/bots.md "At the table"): a seat the
game's bot plays — from the start (``pbem game new --bot``, a config seat with ``bot:
true``), handed to it by the host (``replace`` with ``bot: true``), or taken in civil
disorder when the game's ``civil_disorder`` setting is ``bot``.

Which seats the bot plays is folded from the game's log (``BotSeated``, ``BotLeft``;
:func:`pbem.service.base.settings.bot_seats`). A decision of such a seat gets a deadline
due at once and no prompt; the judge's loop plays the oldest such deadline, one per
cycle (:func:`play_due`), so the mailbox waits for one bot decision at most. The bot
thinks for a number of playout rounds (the game's ``bot_playouts``), never for a time:
its orders are the same on any machine, so a restore that replays its decisions
(:mod:`pbem.service.recover`) writes the orders the players were told (issue 25). The
bot takes the player's path: it reads only its seat's view, its orders are written as a
YAML document, read back by the strict reader of order mails, checked by the rules' own
check, logged as the seat's orders (``OrdersAccepted`` with ``by: bot search/1``) and
carried out with the game's dice; the host gets the receipt. Its own randomness comes
from the game's secret bot key, an HMAC of the dice seed revealed with it at the end
(:func:`pbem.rules.bots.table.bot_key`, :func:`pbem.rules.bots.table.bot_seed`;
docs/trust.md).
"""
from __future__ import annotations

import gettext
import logging
import random
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import yaml

from pbem import i18n, rules
from pbem.config import GameConfig
from pbem.gamesettings import GameSettings
from pbem.mail.strict_yaml import load_strict_yaml
from pbem.report import build
from pbem.rules.bots.search import Budget
from pbem.rules.bots.table import BOTS, TableBot, bot_key, bot_seed
from pbem.service.base.context import RetryLater, Service, is_transient
from pbem.service.base.settings import bot_seats, host_of, settings_of, wrapped
from pbem.service.base.text import safe_text
from pbem.service.log import trust
from pbem.service.outgoing import host_notices, outbox
from pbem.service.play import adjudicate, deadlines

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(hours=1)
"""How long a bot decision whose bot and default both failed waits before it is tried
again (the hosts were told), so the other bot decisions are not held up by it."""


class BotOrdersRefused(ValueError):
    """The check refused a bot's orders; the message names the problem codes only (the
    problems' own words may name the bot's cards, a secret the hosts may not see).
    ``label`` is the bot's, ``codes`` the problem codes (sorted), so the host's notice
    says it in the host's language (:meth:`said`, issue 28)."""

    def __init__(self, label: str, codes: list[str]) -> None:
        super().__init__(f"the bot {label} wrote orders the check refuses ({', '.join(codes)})")
        self.label, self.codes = label, codes

    def said(self, tr: gettext.NullTranslations) -> str:
        """The refusal in the language of ``tr`` (the codes as they are)."""
        return tr.gettext("the bot %(bot)s wrote orders the check refuses (%(codes)s)") % {
            "bot": self.label, "codes": ", ".join(self.codes)}


def table_bot(settings: GameSettings) -> TableBot:
    """The bot a game's ``bot`` setting names (:data:`pbem.rules.bots.table.BOTS`)."""
    return BOTS[settings.bot]


def budget(settings: GameSettings) -> Budget:
    """The strong bot's budget of one decision in a game of ``settings``: at most
    ``bot_playouts`` rounds and no clock (``seconds=None``), so its orders are a function
    of the seat's view, the game's bot key and the settings only, the same on any machine
    and when a restore replays the decision (issue 25; docs/bots.md, "Its budget").
    ``bot_seconds`` is no limit: :func:`play` only logs a warning when a decision took
    longer."""
    return Budget(seconds=None, playouts=settings.bot_playouts)


def player_name(settings: GameSettings) -> str:
    """The name a seat the bot plays shows as its player: ``bot search`` (the
    version is in the log and the reports' heading)."""
    return f"bot {settings.bot}"


def seated_at_setup(judge: Service, game: GameConfig) -> list[rules.Event]:
    """``BotSeated`` (``why: setup``) for each seat of ``game`` the bot plays from the
    start, for the setup's batch of events (:func:`pbem.service.play.setup.create_game`)."""
    label = table_bot(game.settings).label
    return [rules.judge_event("BotSeated", {"seat": s.seat, "bot": label, "why": "setup"})
            for s in game.seats if s.bot]


def seat_bot(judge: Service, game_id: str, seat: str, why: str) -> rules.Event:
    """The game's bot plays ``seat`` from now on (``why``: ``setup``, ``host``,
    ``civil_disorder``, ``config``): log ``BotSeated`` and make the seat's pending
    decision, if any, due at once, so the next bot pass plays it. Returns the event.
    Call inside a transaction."""
    event = rules.judge_event("BotSeated", {"seat": seat, "bot": table_bot(settings_of(judge, game_id)).label,
                                            "why": why})
    deadlines.log_table(judge, game_id, [event])
    _restart(judge, game_id, seat)
    return event


def unseat_bot(judge: Service, game_id: str, seat: str, why: str) -> bool:
    """The bot no longer plays ``seat`` (``why``: ``host``, ``orders``, ``config``): log
    ``BotLeft`` and start the seat's pending decision's deadline again at its full
    length. False (nothing logged) when no bot plays the seat. Call inside a
    transaction, before the seat's prompt is mailed again."""
    played = bot_seats(judge, game_id).get(seat)
    if played is None:
        return False
    deadlines.log_table(judge, game_id, [rules.judge_event("BotLeft", {"seat": seat, "bot": played.bot,
                                                                        "why": why})])
    _restart(judge, game_id, seat)
    return True


def _restart(judge: Service, game_id: str, seat: str) -> None:
    """Start the deadline of ``seat``'s pending decision again (a bot seat's is due at
    once, :func:`pbem.service.play.deadlines.start`)."""
    state = judge.state(game_id)
    decision = next((d for d in rules.pending(state) if d.seat == seat), None)
    if decision is not None:
        deadlines.start(judge, game_id, state.step, seat, decision.kind)


def waiting(judge: Service) -> bool:
    """Whether a bot decision is due now (the loop then starts its next cycle at once)."""
    return _next_due(judge) is not None


def _next_due(judge: Service) -> dict[str, Any] | None:
    """The open deadline of a bot seat that waited longest, of a running game at its
    step, or None."""
    now = judge.clock()
    games: dict[str, tuple[int | None, dict]] = {}  # game -> (its step while it runs, its bot seats)
    due: list[tuple[datetime, dict[str, Any]]] = []
    # only the rows awake now (a bot seat's is due at once and the deadline pass leaves it
    # awake; the others sleep until their reminder or deadline: issue 30 item 6)
    for row in judge.store.due_deadlines(now.astimezone(UTC).replace(microsecond=0).isoformat()):
        when = datetime.fromisoformat(row["due_at"])  # compared as instants: games keep other UTC offsets
        if when > now:
            continue
        game_id = row["game_id"]
        if game_id not in games:
            game = judge.store.game(game_id)
            running = game is not None and game["status"] not in (*trust.ENDED, "paused")
            games[game_id] = (game["step"], bot_seats(judge, game_id)) if running else (None, {})
        step, played = games[game_id]
        if row["step"] == step and row["seat"] in played:
            due.append((when, row))
    return min(due, key=lambda d: d[0])[1] if due else None


def play_due(judge: Service, most: int = 1) -> int:
    """Play at most ``most`` bot decisions that are due, the one that waited longest
    first; returns how many were played. Each is its own transaction and its own guard:
    a bot that raises or writes orders the check refuses is reported to the hosts and
    the decision's default is played instead, so the game never waits on a broken bot;
    should the default fail too, the decision waits :data:`RETRY_AFTER`. Raises
    RetryLater on a transient database failure."""
    done = 0
    while done < most:
        row = _next_due(judge)
        if row is None:
            break
        try:
            with judge.store.transaction():
                play(judge, row["game_id"], row["seat"])
        except Exception as exc:
            if is_transient(exc):
                raise RetryLater("bots", exc) from exc
            log.exception("bot %s step %s %s failed", row["game_id"], row["step"], row["seat"])
            try:
                with judge.store.transaction():
                    _fall_back(judge, row, exc)
            except Exception as again:
                if is_transient(again):
                    raise RetryLater("bots", again) from again
                log.exception("the default of %s step %s %s failed too", row["game_id"], row["step"], row["seat"])
                with judge.store.transaction():  # tried again in an hour; other bot decisions go first
                    judge.store.set_deadline(row["game_id"], row["step"], row["seat"], row["kind"],
                                             (judge.clock() + RETRY_AFTER).isoformat())
        done += 1
    return done


def play(judge: Service, game_id: str, seat: str) -> rules.GameState:
    """The game's bot plays ``seat``'s pending decision: its orders from the seat's view
    (:meth:`pbem.rules.bots.table.TableBot.orders`, the seed of
    :func:`pbem.rules.bots.table.bot_seed` under the game's secret
    :func:`pbem.rules.bots.table.bot_key`, the game's budget), written as YAML and read
    back as an order mail's document is, checked (``rules.validate``), logged and
    carried out (:func:`pbem.service.play.adjudicate.apply_orders`, ``by: bot NAME/N``);
    the receipt to the host. The budget is :func:`budget`: rounds, no clock. Returns the
    new state. Raises ValueError when the seat has no pending decision, :class:`BotOrdersRefused` when the check refuses the bot's
    orders (nothing stored). Call inside a transaction."""
    settings = settings_of(judge, game_id)
    bot = table_bot(settings)
    state = judge.state(game_id)
    decision = next((d for d in rules.pending(state) if d.seat == seat), None)
    if decision is None:
        raise ValueError(f"{seat} of {game_id} has no decision pending")
    key = bot_key(bytes.fromhex(judge.store.game(game_id)["seed"]), game_id)  # secret until the game ends
    rng = random.Random(bot_seed(game_id, seat, state.step, key))
    started = time.perf_counter()
    written = bot.orders(state, seat, rng, budget(settings))
    took = time.perf_counter() - started
    if took > settings.bot_seconds:  # a measurement for the host, never a limit: the orders do not depend on it
        log.warning("the bot %s took %.1f s for %s's decision of step %s in %s (bot_seconds %g): a smaller "
                    "bot_playouts (now %s) makes it think less", bot.label, took, seat, state.step, game_id,
                    settings.bot_seconds, settings.bot_playouts)
    orders = trust.json_form(load_strict_yaml(yaml.safe_dump(written, sort_keys=False, allow_unicode=True)))
    problems = rules.validate(state, seat, orders)
    if problems:
        raise BotOrdersRefused(bot.label, sorted({p.code for p in problems}))
    deadlines.expire(judge, game_id, state.step, seat)
    new_state = adjudicate.apply_orders(judge, game_id, state, seat, orders, inbox_id=None, parsed=None,
                                        by=f"bot {bot.label}")
    _receipt(judge, game_id, seat, state.step, decision.kind, bot)
    return new_state


def _receipt(judge: Service, game_id: str, seat: str, step: int, kind: str, bot: TableBot) -> None:
    """The host's receipt of one bot decision: which seat, step and decision, that the
    orders passed the check and are in the log, and the witness. The orders themselves
    are not in it: they are the seat's secret until the game ends (the host may play
    another seat), as a person's are (docs/trust.md)."""
    address = host_of(judge, game_id)
    if not address:
        return
    head = trust.witness(judge.store, game_id)
    tr = host_notices.host_translations(judge, game_id)  # the host's language (issue 28)
    body = (tr.gettext(
        "The bot %(bot)s played %(seat)s's %(kind)s decision of step %(step)s in %(game)s. Its orders passed the "
        "same check as a player's and are logged as the seat's orders (OrdersAccepted, by: bot %(bot)s); like any "
        "seat's orders they stay private to the seat until the game ends.") % {
        "bot": bot.label, "seat": seat, "kind": build.decision_text(kind, tr), "step": step, "game": game_id}
            + ("\n\n" + tr.gettext("Log witness: %(witness)s") % {"witness": head} if head else ""))
    text = build.render_notice(wrapped(body), game_id, tr)
    subject = f"[{game_id}] " + tr.gettext("bot receipt: %(seat)s, step %(step)s") % {"seat": seat, "step": step}
    outbox.queue(judge, game_id=game_id, kind="host", to_addr=address, to_name=None, subject=subject,
                 text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                 id_parts=(game_id, step, "bot-receipt", seat))


def _fall_back(judge: Service, row: dict[str, Any], exc: BaseException) -> None:
    """A bot failed on the decision of ``row``: the hosts are told (once a day) and the
    decision's default is played (logged ``by: deadline``). Call inside a transaction."""
    game_id, seat = row["game_id"], row["seat"]
    # only the refusal's codes or the error's type: its text may name the seat's secrets
    # (its hand), and a host may play another seat; the judge's own log has the rest
    values = {"seat": seat, "game": game_id, "step": row["step"]}

    def why(tr: gettext.NullTranslations) -> str:
        """The refusal's codes, or the error's type, in the host's language (issue 28)."""
        if isinstance(exc, BotOrdersRefused):
            return safe_text(exc.said(tr), 300)
        return tr.gettext("%(error)s; the judge's log has the details") % {"error": type(exc).__name__}
    host_notices.report_fault(judge, f"bot {game_id} {seat}", lambda tr: tr.gettext("a bot could not play"),
                              lambda tr: tr.gettext("The bot of seat %(seat)s in %(game)s failed at step %(step)s "
                                                    "(%(why)s). The decision's default was played instead; the bot "
                                                    "plays the seat's next decisions again.") % {**values,
                                                                                                 "why": why(tr)})
    state = judge.state(game_id)
    decision = next((d for d in rules.pending(state) if d.seat == seat), None)
    deadlines.expire(judge, game_id, row["step"], seat)
    if decision is not None and state.step == row["step"]:
        adjudicate.apply_orders(judge, game_id, state, seat, decision.default, inbox_id=None, parsed=None,
                                by_deadline=True)
