"""Queueing the mail a decision causes: every seat's turn report (its own view, the map
picture inline), the public report to every observer (issue 29.3), and the prompt of
every seat the game now waits for, with its deadline."""
from __future__ import annotations

import gettext
import hashlib
from html import escape
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem import i18n, rules
from pbem.mail.compose import Attachment
from pbem.pack.model import Pack
from pbem.report import build, seatjson
from pbem.report.context import WIDTH, wrap
from pbem.service.base.context import Service
from pbem.service.base.settings import bot_seats
from pbem.service.log import trust
from pbem.service.outgoing import outbox, seat_preferences, webhooks
from pbem.service.play import deadlines


def prompt_subject(game_id: str, step: int, seat: str, tr: gettext.NullTranslations) -> str:
    """A prompt's subject, ``[g1] step 7: your move, east``, in the language of ``tr``
    after the ``[game] step N`` that mail filters rely on (kept in every language)."""
    return f"[{game_id}] step {step}: " + tr.gettext("your move, %(seat)s") % {"seat": seat}


Headline = str | Callable[[gettext.NullTranslations], str]
"""A report's headline: a text, or the text in the language of a translations object."""


def queue_reports(judge: Service, game_id: str, pack: Pack, state: rules.GameState, events: Sequence[rules.Event],
                  headline: Headline, step: int | None = None, before: rules.GameState | None = None) -> None:
    """Queue the report of ``events`` (the state after them) to every seat, each
    rendered from that seat's view; ``step`` is the number in the subject (default the
    state's step); ``before``: the position the events were played from (the report
    names its turn and explains every change of control, VP and LP since it);
    ``headline``: its text, or a function giving it in a seat's language (the English
    one names the mail's Message-ID, the same in every language)."""
    step = state.step if step is None else step
    said = headline if callable(headline) else (lambda tr: headline)
    english = said(i18n.translations())
    store = judge.store
    seats = store.seats(game_id)
    commitment = store.game(game_id)["seed_commitment"]
    witness = trust.witness(store, game_id)
    players = {r["seat"]: r["player"] for r in seats}
    played = {seat: b.bot for seat, b in bot_seats(judge, game_id).items()}
    # each seat's picture: the overview drawn for the mailed width, and for the seats the
    # game now waits for (they write orders next) a zoom on their own forces (issues 13,
    # 24 item 15: the others get one small picture, the same for all), the shared drawing
    # done once (issue 14); no picture for a seat with the map off or its reports in a
    # digest, which is text (issue 16)
    wanted = {r["seat"]: seat_preferences.of(store, game_id, r["seat"]) for r in seats}
    drawn = [s for s, w in wanted.items() if w["map"] == "on" and w["digest"] == "off"]
    to_move = {d.seat for d in rules.pending(state)}
    pngs = build.seat_map_pngs(pack, state, events, title=f"{game_id} step {step}", players=players,
                               seats=drawn, zoom=to_move, languages={s: wanted[s]["language"] for s in drawn}
                               ) if judge.config.map_attachment and drawn else {}
    for row in seats:
        wants = wanted[row["seat"]]
        png = pngs.get(row["seat"])
        # two reports can share a step (setup, then the first player-turn): the picture's
        # hash keeps each Content-ID unique (RFC 2392)
        cid = f"map.{game_id}.step{step}.{hashlib.sha256(png).hexdigest()[:12]}@{judge.domain}" if png else None
        tr = i18n.translations(wants["language"])  # the seat's language (issue 28)
        rep = build.render_report(pack, state, events, game_id=game_id, step=step, seat=row["seat"],
                                  seats=seats, headline=said(tr), seed_commitment=commitment, map_cid=cid,
                                  witness=witness, before=before, map_attached=png is not None, bots=played,
                                  tr=tr)
        # the subject's "[game] step N" stays as it is in every language: mail filters rely on it
        subject = f"[{game_id}] step {step} " + tr.gettext("report: %(headline)s") % {"headline": said(tr)}
        if wants["digest"] == "daily":  # held for the seat's daily digest (pbem.service.outgoing.seat_preferences)
            store.hold_for_digest(game_id=game_id, seat=row["seat"], to_addr=row["email"], to_name=row["player"],
                                  subject=subject, text=rep.text, at=judge.clock().isoformat())
            continue
        attachments = [Attachment(f"{game_id}-step{step}.png", png, cid=cid)] if png else []
        if wants["json"] == "on":  # the seat's own view for its tools (issue 29, pbem.report.seatjson)
            doc = seatjson.seat_report(state, events, game_id=game_id, step=step, seat=row["seat"], headline=english)
            attachments.append(Attachment(f"{game_id}-step{step}-{row['seat']}.json", seatjson.encode(doc),
                                          "application", "json"))
        outbox.queue(judge, game_id=game_id, kind="report", to_addr=row["email"], to_name=row["player"],
                     subject=subject, text=rep.text, html=rep.html, attachments=attachments,
                     id_parts=(game_id, step, "report", row["seat"], english))
    queue_observer_reports(judge, game_id, pack, state, events, said, step, before, seats, commitment, witness, played)


def queue_observer_reports(judge: Service, game_id: str, pack: Pack, state: rules.GameState,
                           events: Sequence[rules.Event], said: Callable[[gettext.NullTranslations], str], step: int,
                           before: rules.GameState | None, seats: Sequence[Mapping[str, Any]], commitment: str,
                           witness: str | None, played: Mapping[str, str]) -> None:
    """Queue the public report of ``events`` to every address observing ``game_id``
    (issue 29.3; :mod:`pbem.service.commands.anyone.observe`): rendered from the public
    view (``seat=None``: no hand, no standing orders, no private event, no press, no
    prompt, no map picture), in the observer's language; ``said`` gives the headline."""
    english = said(i18n.translations())
    for row in judge.store.observers(game_id):
        tr = i18n.translations(row["language"] or i18n.DEFAULT)
        rep = build.render_report(pack, state, events, game_id=game_id, step=step, seat=None, seats=seats,
                                  headline=said(tr), seed_commitment=commitment, witness=witness, before=before,
                                  map_attached=False, bots=played, tr=tr)
        subject = f"[{game_id}] step {step} " + tr.gettext("report: %(headline)s") % {"headline": said(tr)}
        footer = tr.gettext("You observe %(game)s. To stop these reports, mail the judge `game: %(game)s` and "
                            "`command: leave`.") % {"game": game_id}
        outbox.queue(judge, game_id=game_id, kind="observer", to_addr=row["email"], to_name=None, subject=subject,
                     text=rep.text.rstrip("\n") + "\n\n" + wrap(footer, WIDTH) + "\n",
                     html=rep.html.replace("</body>", f"<p>{escape(footer)}</p></body>", 1), id_parts=(game_id, step, "observer", row["email"], english))


def queue_prompts(judge: Service, game_id: str, pack: Pack, state: rules.GameState) -> None:
    """Queue a prompt to every seat with a pending decision (``rules.pending``) and
    start its deadline (:func:`pbem.service.play.deadlines.start`: in the game's local time,
    shown with its zone). A seat the bot plays gets no prompt (its deadline is due at
    once: the bot's pass plays it)."""
    seats = {s["seat"]: s for s in judge.store.seats(game_id)}
    played = bot_seats(judge, game_id)
    for decision in rules.pending(state):
        due = deadlines.start(judge, game_id, state.step, decision.seat, decision.kind)
        if decision.seat in played:  # the bot plays it (pbem.service.play.bots): nobody to prompt
            continue
        row = seats[decision.seat]
        tr = seat_preferences.translations(judge.store, game_id, decision.seat)
        text, html = build.render_prompt(pack, state, decision, game_id=game_id, seat_row=row,
                                         deadline=deadlines.prompt_deadline(judge, game_id, due, tr),
                                         seats=list(seats.values()), witness=trust.witness(judge.store, game_id), tr=tr)
        outbox.queue(judge, game_id=game_id, kind="prompt", to_addr=row["email"], to_name=row["player"],
                     subject=prompt_subject(game_id, state.step, decision.seat, tr), text=text, html=html,
                     id_parts=(game_id, state.step, "prompt", decision.seat))
        webhooks.queue_notice(judge, game_id, state.step, decision.seat, decision.kind, due, "prompt")


def prompt_again(judge: Service, game_id: str, seat: str, again: str | None = None) -> bool:
    """The seat's pending prompt, again, to its (new) address, with its open deadline
    (``again``: what makes the resent mail's Message-ID new). False when the seat has
    no pending decision or the bot plays it."""
    state = judge.state(game_id)
    decision = next((d for d in rules.pending(state) if d.seat == seat), None)
    if decision is None or seat in bot_seats(judge, game_id):
        return False
    store = judge.store
    rows = store.seats(game_id)
    row = next(r for r in rows if r["seat"] == seat)
    due = next((d["due_at"] for d in store.open_deadlines(game_id) if d["seat"] == seat), None)
    tr = seat_preferences.translations(store, game_id, seat)
    shown = deadlines.prompt_deadline(judge, game_id, due, tr) if due else tr.gettext("none")
    text, html = build.render_prompt(judge.pack_for(game_id), state, decision, game_id=game_id, seat_row=row,
                                     deadline=shown, seats=list(rows), witness=trust.witness(store, game_id), tr=tr)
    outbox.queue(judge, game_id=game_id, kind="prompt", to_addr=row["email"], to_name=row["player"],
                 subject=prompt_subject(game_id, state.step, seat, tr), text=text, html=html,
                 id_parts=(game_id, state.step, "prompt", seat, row["email"], again))
    webhooks.queue_notice(judge, game_id, state.step, seat, decision.kind, due, f"prompt-{again}")
    return True
