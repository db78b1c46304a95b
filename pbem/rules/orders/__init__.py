"""Orders: one module per order kind, each with the same four functions (R-8).

    read(pack, s, seat, part, where, problems) -> order | None
        The order as written: its shape (types, known fields); problems go to
        ``problems``. The state is there for hints that name the seat's own pieces.
    options(pack, s, seat) -> data
        What the prompt lists for this kind now (the seat's legal choices).
    check(pack, s, seat, order, where, problems, soft=False) -> plan | None
        What the position allows: names resolved to ids, the rule's conditions; the plan
        :func:`execute` carries out. ``soft``: carried out after dice changed the board
        since the check, so what is impossible now is cancelled, not refused.
    execute(ctx, seat, plan) -> None
        The events (through ``ctx``; dice through ``ctx.roll``).

:func:`pbem.rules.orders.common.plan_of` reads and checks one kind. The kinds of a
player-turn, in the order its segments run (:mod:`pbem.rules.phases.player_turn`):
:mod:`.commanders` (R-5), :mod:`.standing` (R-9.3), :mod:`.outside` and :mod:`.inside`
(R-5), :mod:`.surrender` (R-8.1), :mod:`.tyche` (R-8.2 … R-8.6), :mod:`.movement`
(R-8.7); the other decisions: :mod:`.reinforcements` (R-7.2) and :mod:`.reactions` (the
answer to a reaction window, R-9.3). Modules named ``tyche_*`` are helpers of the Tyche
kind, not kinds: :mod:`.tyche_surprises` (surprise discards, R-8.5).
"""
