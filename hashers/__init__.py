"""Perfect hash schemes: bijections between 0..N-1 and sets of boards, reused by games.

* ``mixed_radix``   independent digits (rows, piece squares, a turn bit)
* ``combinations``  k-subsets of n cells (colex order)
* ``rearranger``    boards with fixed counts of two piece kinds (multinomial)
* ``tiers``         several hashed parts laid end to end into one index space
* ``bits``          bit-board helpers (popcount, bit extract/deposit)
"""
