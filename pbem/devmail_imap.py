"""The embedded IMAP server process of ``pbem devmail`` (:class:`pbem.devmail.DevMail`
starts it as ``python -c "from pbem.devmail_imap import serve_imap; ..."``).

It lives apart from :mod:`pbem.devmail` so that pymap is imported only in the child
process that serves IMAP, never by the judge or the CLI that start it.
"""
from __future__ import annotations

from pymap.backend.maildir.mailbox import MailboxData
from pymap.main import main

from pbem.devmail import delivery_order


def serve_imap() -> int:
    """Run pymap's IMAP server (command-line arguments as ``pymap``'s) with one change:
    new messages get their UIDs in delivery order (:func:`delivery_order`). pymap numbers
    the messages it finds in the order of ``mailbox.Maildir.keys()``, that is of
    ``os.listdir``, which on most file systems is not the order of delivery: under a
    burst a player's later mail got a lower UID than an earlier one, and the judge,
    handling mail in UID order, refused the earlier mail's standing orders as stale
    (``envelope.stale_seq``). A real server keeps its own order; this is the embedded
    one's. The change wraps pymap's ``MailboxData._get_keys`` (the keys it numbers) and
    sorts them."""
    get_keys = MailboxData._get_keys

    async def keys_in_delivery_order(self: MailboxData) -> dict[str, str]:
        keys = await get_keys(self)
        return dict(sorted(keys.items(), key=lambda item: delivery_order(item[0])))
    MailboxData._get_keys = keys_in_delivery_order  # type: ignore[method-assign]
    return main()
