"""Perfect hash schemes: bijections between 0..N-1 and sets of boards, reused by games
(the bit-board helpers they share are ``tiersolve.bits``).

* ``mixed_radix``   independent digits (rows, piece squares, a turn bit)
* ``combinations``  k-subsets of n cells (colex order)
* ``rearranger``    boards with fixed counts of two piece kinds (multinomial)
* ``regions``       boards whose pieces are barred from some regions (Breakthrough)
* ``boards``        two-colour boards by piece counts, optionally up to symmetry
* ``hand_pieces``   pieces of several kinds on a board, the rest in hand (Dōbutsu shōgi)
* ``symmetry``      the canonical image of a board under a symmetry group
* ``layers``        several two-colour boards on one set of cells (a layer a piece
                    size), up to a symmetry group, with no gaps (Gobblet Gobblers)
* ``tiers``         several hashed parts laid end to end into one index space
"""
