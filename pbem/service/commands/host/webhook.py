"""``command: webhook`` / ``pbem host webhook GAME --url URL``: the host's own webhook
(issue 29's trial, finding 4: item 5 says "a seat (or the host) may register a
webhook", and only seats could). By mail, with the host key::

    game: g2
    host: <the host key>
    command: webhook
    url: https://chat.example.org/hooks/T0K3N    # `off`: no more; no url: what is set

The URL is kept by the host's address (:meth:`pbem.store.Store.set_host_webhook`), not
in the game's log (it is a chat's secret and the log is published once the game is
over), so it serves every game of that host and the judge's own notices to it: each
host notice mailed to that address — a person must act (a substitute asks, a bounce),
a fault, civil disorder, a sign-up — is also posted there as JSON
(:func:`pbem.service.outgoing.webhooks.host_body`: its subject line, never its body),
with the seats' webhooks' retry rules; a webhook that gives up is told by mail. The
host guide has it (docs/host-guide.md, "Players' addresses and preferences").
"""
from __future__ import annotations

import gettext

from pbem.service.base.context import Service
from pbem.service.base.settings import host_of
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest, Refused
from pbem.service.outgoing import webhooks


def process(judge: Service, request: HostRequest) -> Done:
    """Set (``url: https://…``), drop (``url: off``) or show (no ``url``) the webhook of
    the game's host address. Raises ValueError, saying what to write instead, for a URL
    that cannot be a webhook (:func:`pbem.service.outgoing.webhooks.url_problem`) or a
    game without a host address."""
    address = host_of(judge, request.game_id)
    if not address:
        raise Refused(lambda tr: tr.gettext("game %(game)s has no host address (host_email): host notices go "
                                            "nowhere") % {"game": request.game_id})
    url = request.values.get("url")
    url = url.strip() if isinstance(url, str) else None
    if url is None:
        now = judge.store.host_webhook(address)
        return Done((lambda tr: tr.gettext("Your host notices to %(address)s are also posted to %(url)s.") % {
            "address": address, "url": webhooks.shown(now)}) if now else (lambda tr: tr.gettext(
                "Your host notices to %(address)s go by mail only: no webhook is set.") % {"address": address}),
            None)
    if url.lower() == "off":
        judge.store.set_host_webhook(address, None)
        return Done(lambda tr: tr.gettext("Your host notices to %(address)s go by mail only from now on: the "
                                          "webhook is dropped.") % {"address": address}, None)
    if webhooks.url_problem(url):  # said in the host's language, the URL's own problem too (issue 28)
        raise Refused(lambda tr: tr.gettext("%(problem)s; write %(how)s (a chat's incoming webhook) or `off`") % {
            "problem": webhooks.url_problem(url, tr), "how": request.say("`url: https://…`", "--url https://…")})
    judge.store.set_host_webhook(address, url)

    def said(tr: gettext.NullTranslations) -> str:
        return tr.gettext("Every host notice to %(address)s — of this game and your other games, and the judge's "
                          "own — is now also posted to %(url)s (its subject line as JSON `content`/`text`; the "
                          "mail still goes). `url: off` stops it.") % {"address": address,
                                                                       "url": webhooks.shown(url)}
    return Done(said, None)


COMMAND = HostCommand(
    name="webhook", fields=(Field("url", "text", "the webhook URL for your host notices, or `off`"),),
    logs=(), guide=Guide("host-guide.md", "Players' addresses and preferences"), process=process,
    help="Post your host notices to a webhook too (`url: https://…`; `url: off` stops it; no url: what is set).")
