"""Game-independent solvers.

* ``tiers``: the tier driver, which solves every tier with the kernel of its type:
  ``bottom_up`` for tiers without cycles, ``loopy`` (retrograde analysis) inside
  loopy tiers;
* ``reachable`` and ``reachable_graph``: only what play reaches from given starts;
* ``common`` (what every kernel shares: the child reader, scores, failures,
  progress), ``records`` (value and remoteness packed), ``atomic`` (intrinsics),
  ``sorted_sets``, ``interrupts`` (Ctrl-C and SIGTERM that are never lost).
"""
