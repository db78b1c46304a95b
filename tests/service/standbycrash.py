"""``python tests/service/standbycrash.py run -c CONFIG``: ``pbem`` with the crash points
of tests/service/crashpoints.py and more, armed by ``PBEM_TEST_CRASH_AT``, for the
substitutes (issue 29 item 2) and the retention pass (issue 30 item 7) under SIGKILL
(issue 25, bot25 item 2):

- ``in_offer``: a seat fell into civil disorder and was offered to the standby list
  (the offer and its mails written inside the deadline pass's transaction), nothing
  committed;
- ``in_take``: a substitute's ``command: take`` gave it the seat (the handover, a new
  key, the notices written inside the mail's transaction), nothing committed;
- ``retention_copied``: a finished game copied to the archive database (committed
  there), not yet dropped from the live one;
- ``retention_in_drop``: inside the live database's transaction that drops the game,
  after its deletes, nothing committed;
- ``retention_in_prune``: inside the archive database's transaction that prunes the
  game's raw mail, nothing committed;
- ``retention_pruned``: pruned in the archive database, not yet marked in the live one.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.cli import main  # noqa: E402
from pbem.service import retention  # noqa: E402
from pbem.service.play import substitutes  # noqa: E402
from pbem.store import retention as stored  # noqa: E402
from tests.service.crashpoints import _die, arm  # noqa: E402


def arm_standby(point: str) -> None:
    """Wrap the substitutes' function where ``point`` is so that it SIGKILLs the process
    once it has written its part (inside the caller's transaction)."""
    if point == "in_offer":
        real_offer = substitutes.offer

        def offered(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            sent = real_offer(*args, **kwargs)
            if sent:
                _die()
            return sent
        substitutes.offer = offered
    elif point == "in_take":
        real_take = substitutes.take

        def taken(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            real_take(*args, **kwargs)
            _die()
        substitutes.take = taken
    elif point == "retention_copied":
        real_copy = retention.copy_game

        def copied(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            real_copy(*args, **kwargs)
            _die()
        retention.copy_game = copied
    elif point in ("retention_in_drop", "retention_in_prune"):  # the move's stamp, inside the transaction
        name = "drop_game" if point == "retention_in_drop" else "prune_game"
        real = getattr(retention, name)

        def inside(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            stored.utcnow = _die
            return real(*args, **kwargs)
        setattr(retention, name, inside)
    elif point == "retention_pruned":
        real_prune = retention.prune_game

        def pruned(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            real_prune(*args, **kwargs)
            _die()
        retention.prune_game = pruned
    else:
        arm(point)


if __name__ == "__main__":
    arm_standby(os.environ.get("PBEM_TEST_CRASH_AT", ""))
    main(sys.argv[1:], prog_name="pbem")
