"""Game-independent solvers: the tier driver (``tiers``) with its two kernels,
bottom-up for tiers without cycles (``bottom_up``) and retrograde analysis inside
loopy tiers (``loopy``)."""
