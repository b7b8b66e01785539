"""Dōbutsu shōgi (animal shogi): Lions, Giraffes, Elephants and Chicks on a 3x4
board; captured animals change sides and may be dropped back; a Lion captured, or a
Lion that reaches the far row and cannot be taken at once, ends the game.

Rules: docs/RULES.md, section "Dōbutsu shōgi" (GamesmanOne's, to compare values).

Position ``(L gle -c- -C- ELG -)``: the Lion of the player to move (``L`` the first
player, ``l`` the second), the rows from row 4 (top) down to row 1, then the hands
(the first player's uppercase, the second's lowercase, ``-`` when both are empty).
A move is named ``b1-b2`` (captures and promotion implied) or ``C*b2`` (a drop).

Index (``hashers/hand_pieces.py``): positions are stored as the player to move sees
them: the board turned 180° and the sides exchanged when the second player moves, so
one index serves both turns; and up to the left-right mirror. The Lions are the
fixed pieces: the mover's never on the far row (the game would have ended) and the
other's never on the mover's home row (a finished game, below), 75 placements; the
Giraffes, Elephants and Chicks are kinds of two pieces, on the board (either side's,
a Chick or a Hen) or in either hand. Finished games are left out of the index
(``terminal``): a Lion captured (a loss for its owner), and a Lion on the far row
(GamesmanOne's rule: a win at once for the player to move if they can capture it,
else a loss). Captures and drops move pieces between the board and the hands both
ways, so every position lies in one LOOPY tier, solved with un-moves.

State vector: ``[turn, L, l, G, g, E, e, C, H, c, h, hands...]``: turn 0 for the first
player; then a cell mask for each piece (uppercase the first player's; bit i = cell i
in text order, cell 0 = a4, cell 11 = c1); then the hands: Giraffes of the first
player and of the second, Elephants, Chicks. ``decode`` gives the first player to move.

>>> from tiersolve.games import make_game
>>> game = make_game("dshogi")
>>> [child.move for child in game.children(game.start())]
['b1-a2', 'b1-c2', 'c1-c2', 'b2-b3']
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tiersolve.bits import copy_into, deposit_bits, lowest_bit, popcount, sort_unique
from tiersolve.contract import TERMINAL, TierType
from tiersolve.errors import ImpossiblePositionError, OtherBoardError
from tiersolve.games.base import (
    MOVE, Game, GameFunctions, GameSpec, MoveSketch, Option, add_move, hand_cell, parse_square,
    square_name,
)
from tiersolve.hashers.hand_pieces import (
    HandPieceSpace, Kind, configuration_offset, placement_entry, rank_from_parts,
    rank_hand_position, unrank_hand_position,
)
from tiersolve.hashers.tiers import TierLayout
from tiersolve.jit import jit
from tiersolve.values import DRAW, ILLEGAL, LOSE, NONCANONICAL, UNDECIDED, WIN

#: The registry's name for this game (``tiersolve.games`` finds the game by this line).
NAME = "dshogi"

ROWS, COLS = 4, 3
CELLS = ROWS * COLS
FULL = (1 << CELLS) - 1
#: The pieces; a side's pieces are these letters, uppercase for the first player.
LION, GIRAFFE, ELEPHANT, CHICK, HEN = range(5)
LETTERS = "LGECH"
#: The kinds of pieces that go to a hand (a captured Hen goes as a Chick).
KIND_LETTERS = "GEC"
KIND_OF = np.array([-1, 0, 1, 2, 2], np.int64)   # piece -> kind
DROPPED = np.array([GIRAFFE, ELEPHANT, CHICK], np.int64)   # kind -> the piece it is dropped as
#: The state vector: the turn, the cell mask of each side's pieces (SLOT[side, piece]),
#: and the hands (HAND + 2 * kind + side). The masks and hands are the index's block
#: (``hashers.hand_pieces``): the Lions, then each kind's faces, then the hands.
TURN = 0
SLOT = np.array([[1, 3, 5, 7, 8], [2, 4, 6, 9, 10]], np.int64)
HAND = 11
STATE_SIZE = HAND + 6
#: The far row of each side (the first player's is row 4, cells 0-2).
FAR = np.array([0b111, 0b111 << 9], np.int64)
#: A move's code: from * CELLS + to, a drop's "from" being CELLS + its kind.
DROP = CELLS
#: Each piece's steps (rows forward, columns right) for the first player, who moves up.
STEPS = (
    ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, -1), (-1, 0), (-1, 1)),   # Lion
    ((1, 0), (0, -1), (0, 1), (-1, 0)),                                       # Giraffe
    ((1, -1), (1, 1), (-1, -1), (-1, 1)),                                     # Elephant
    ((1, 0),),                                                                # Chick
    ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, 0)),                      # Hen
)
#: Most moves: every piece's steps, and drops of three kinds on ten empty cells.
MAX_MOVES = 8 + 2 * 4 + 2 * 4 + 2 * 6 + 3 * 10
#: Most un-moves: each of the other side's pieces back along its steps (a Hen also
#: un-promoted), each with nothing or one of four pieces un-captured, and six un-drops.
MAX_PARENTS = (8 + 2 * 4 + 2 * 4 + 2 * 7) * 5 + 6


class DobutsuData(NamedTuple):
    """What the kernels read (``Game.data``)."""

    space: np.ndarray      # the index (``HandPieceSpace.table``)
    attacks: np.ndarray    # [side, piece, cell] -> the cells the piece reaches from the cell
    attackers: np.ndarray  # [side, piece, cell] -> the cells from which the piece reaches it
    rotate: np.ndarray     # [mask] -> the mask of the board turned 180° (cell i -> 11 - i)


@jit(forceinline=True)
def _bit(cell):
    return np.int64(1) << cell


@jit(forceinline=True)
def _occupied(state, side):
    cells = 0
    for piece in range(5):
        cells |= state[SLOT[side, piece]]
    return cells


@jit(forceinline=True)
def _piece_at(state, side, cell):
    """The piece of ``side`` on ``cell``, or -1."""
    for piece in range(5):
        if state[SLOT[side, piece]] & _bit(cell):
            return piece
    return -1


@jit(forceinline=True)
def _attacked(attackers, state, side, cell):
    """Whether a piece of ``side`` can move onto ``cell``."""
    for piece in range(5):
        if state[SLOT[side, piece]] & attackers[side, piece, cell]:
            return True
    return False


@jit(forceinline=True)
def _turn_round(rotate, source, target):
    """``target`` = ``source`` as the other side sees it: the board turned 180° and the
    sides exchanged, hands too (``source`` may be ``target``; the turn is left)."""
    for piece in range(5):
        first, second = SLOT[0, piece], SLOT[1, piece]
        mine, theirs = rotate[source[first]], rotate[source[second]]
        target[first], target[second] = theirs, mine
    for kind in range(3):
        mine, theirs = source[HAND + 2 * kind], source[HAND + 2 * kind + 1]
        target[HAND + 2 * kind], target[HAND + 2 * kind + 1] = theirs, mine


@jit(forceinline=True)
def _outcome(attackers, state):
    """The value of a state for the player to move if the game is over (LOSE: their
    Lion was captured; at the other's Lion on their home row, WIN if they can capture
    it, else LOSE), ILLEGAL if no play reaches it (the other's Lion captured, their
    own on the far row), else UNDECIDED."""
    side = state[TURN]
    other = 1 - side
    mine, theirs = state[SLOT[side, LION]], state[SLOT[other, LION]]
    if theirs == 0:
        return ILLEGAL
    if mine == 0:
        return LOSE
    if mine & FAR[side]:
        return ILLEGAL
    if theirs & FAR[other]:
        return WIN if _attacked(attackers, state, side, lowest_bit(theirs)) else LOSE
    return UNDECIDED


@jit
def decode(data, tier, local, state):
    state[TURN] = 0
    unrank_hand_position(data.space, local, state, 1)


@jit
def encode(data, state):
    if state[TURN] == 0:
        return np.int64(0), rank_hand_position(data.space, state, 1)
    _turn_round(data.rotate, state, state)  # seen by the second player, and back
    rank = rank_hand_position(data.space, state, 1)
    _turn_round(data.rotate, state, state)
    return np.int64(0), rank


@jit(forceinline=True)
def _steps(attacks, state, side, moves):
    """Writes the codes of the steps of ``side``'s pieces into ``moves`` (piece by
    piece, each from its lowest square); returns how many."""
    mine = _occupied(state, side)
    count = 0
    for piece in range(5):
        pieces = state[SLOT[side, piece]]
        while pieces:
            cell = lowest_bit(pieces)
            pieces &= pieces - 1
            targets = attacks[side, piece, cell] & ~mine
            while targets:
                moves[count] = cell * CELLS + lowest_bit(targets)
                targets &= targets - 1
                count += 1
    return count


@jit(forceinline=True)
def _ending(attackers, state, source, target):
    """The value for the other side (side 1) after the mover's (side 0's) step from
    ``source`` to ``target``, if it ends the game (a finished game the index leaves
    out): LOSE when it takes their Lion; when the mover's Lion reaches the far row,
    WIN if they can take it, else LOSE. 0 otherwise."""
    if state[SLOT[1, LION]] & _bit(target):
        return LOSE
    if target < COLS and state[SLOT[0, LION]] & _bit(source):
        return WIN if _attacked(attackers, state, 1, target) else LOSE
    return 0


@jit(forceinline=True)
def _ended_steps(data, state, out, moves):
    """Sorts the mover's (side 0's) steps: the rows of those that end the game go to
    ``out`` (``_ending``), the codes of the others to the front of ``moves``. Returns
    (rows written, codes kept)."""
    ended = 0
    kept = 0
    for k in range(_steps(data.attacks, state, 0, moves)):
        code = moves[k]
        ending = _ending(data.attackers, state, code // CELLS, code % CELLS)
        if ending:
            ended = add_move(out, ended, TERMINAL, ending, code)
        else:
            moves[kept] = code
            kept += 1
    return ended, kept


@jit
def generate_moves(data, state, moves):
    side = state[TURN]
    count = _steps(data.attacks, state, side, moves)
    empty = FULL & ~(_occupied(state, 0) | _occupied(state, 1))
    for kind in range(3):
        if state[HAND + 2 * kind + side] > 0:
            rest = empty
            while rest:
                moves[count] = (DROP + kind) * CELLS + lowest_bit(rest)
                rest &= rest - 1
                count += 1
    return count


@jit
def do_move(data, state, move, child):
    copy_into(child, state)
    side = state[TURN]
    other = 1 - side
    child[TURN] = other
    source, target = move // CELLS, move % CELLS
    if source >= DROP:
        kind = source - DROP
        child[SLOT[side, DROPPED[kind]]] |= _bit(target)
        child[HAND + 2 * kind + side] -= 1
        return 0
    captured = _piece_at(state, other, target)
    if captured >= 0:
        child[SLOT[other, captured]] &= ~_bit(target)
        if captured != LION:
            child[HAND + 2 * KIND_OF[captured] + side] += 1
    piece = _piece_at(state, side, source)
    child[SLOT[side, piece]] &= ~_bit(source)
    if piece == CHICK and _bit(target) & FAR[side]:
        piece = HEN
    child[SLOT[side, piece]] |= _bit(target)
    return 0


@jit
def primitive(data, state, move_count):
    value = _outcome(data.attackers, state)
    if value == UNDECIDED and move_count == 0:
        return DRAW  # walled in: not lost (GamesmanOne gives such positions no value)
    return value


@jit
def terminal(data, state):
    """The value of a finished game the index leaves out (a Lion captured, a Lion on
    the far row), else 0."""
    value = _outcome(data.attackers, state)
    return value if value == WIN or value == LOSE else 0


@jit(forceinline=True)
def _step_child(table, child, piece, source, target, captured, entry, offset):
    """The index of the position after the mover's ``piece`` steps from ``source`` to
    ``target`` (capturing the other's ``captured``, or -1), where ``child`` holds the
    position turned round (the mover's pieces on side 1, cells turned) and ``entry``
    and ``offset`` are its first parts of a rank (``hashers.hand_pieces``), which only
    a Lion's step, a capture or a promotion change; ``child`` is given back unchanged."""
    rotated_source, rotated_target = _bit(CELLS - 1 - source), _bit(CELLS - 1 - target)
    after = HEN if piece == CHICK and target < COLS else piece
    before_slot, after_slot = SLOT[1, piece], SLOT[1, after]
    kept_before, kept_after = child[before_slot], child[after_slot]
    child[before_slot] = kept_before & ~rotated_source
    child[after_slot] |= rotated_target
    if piece == LION:
        entry = placement_entry(table, child, 1)
    if captured >= 0:
        taken_slot = SLOT[0, captured]
        hand = HAND + 2 * KIND_OF[captured] + 1
        kept_taken = child[taken_slot]
        child[taken_slot] = kept_taken & ~rotated_target
        child[hand] += 1
        rank = rank_from_parts(table, child, 1, entry, configuration_offset(table, child, 1))
        child[taken_slot] = kept_taken
        child[hand] -= 1
    elif after != piece:
        rank = rank_from_parts(table, child, 1, entry, configuration_offset(table, child, 1))
    else:
        rank = rank_from_parts(table, child, 1, entry, offset)
    child[after_slot] = kept_after
    child[before_slot] = kept_before
    return rank


@jit
def expand(data, tier, local, out, state, child, moves):
    table = data.space
    if not unrank_hand_position(table, local, state, 1):
        return -np.int64(NONCANONICAL)
    _turn_round(data.rotate, state, child)
    entry, offset = placement_entry(table, child, 1), configuration_offset(table, child, 1)
    count, steps = _ended_steps(data, state, out, moves)
    for k in range(steps):
        source, target = moves[k] // CELLS, moves[k] % CELLS
        rank = _step_child(table, child, _piece_at(state, 0, source), source, target,
                           _piece_at(state, 1, target), entry, offset)
        count = add_move(out, count, 0, rank, moves[k])
    empty = FULL & ~(_occupied(state, 0) | _occupied(state, 1))
    for kind in range(3):
        if state[HAND + 2 * kind] == 0:
            continue
        # Every drop of a kind leaves the same pieces on the board and in hand.
        slot, hand = SLOT[1, DROPPED[kind]], HAND + 2 * kind + 1
        kept = child[slot]
        child[hand] -= 1
        dropped_offset = -1
        rest = empty
        while rest:
            target = lowest_bit(rest)
            rest &= rest - 1
            child[slot] = kept | _bit(CELLS - 1 - target)
            if dropped_offset < 0:
                dropped_offset = configuration_offset(table, child, 1)
            count = add_move(out, count, 0, rank_from_parts(table, child, 1, entry, dropped_offset),
                             (DROP + kind) * CELLS + target)
        child[slot] = kept
        child[hand] += 1
    if count == 0:
        return -np.int64(DRAW)  # walled in (``primitive``)
    return count


#: A board as 12 nibbles (``_nibbles``): the slot of the piece on each cell, 0 if empty.
NIBBLES = 0x111111111111
#: The nibbles of columns a and b (column c's are column a's shifted by 8 bits).
COLUMN_A, COLUMN_B = 0x00F00F00F00F, 0x0F00F00F00F0


@jit(forceinline=True)
def _nibbles(state):
    """The board as a number: nibble i holds the state slot of the piece on cell i."""
    board = 0
    for slot in range(1, HAND):
        board |= deposit_bits(state[slot], NIBBLES) * slot
    return board


@jit(forceinline=True)
def _mirrored(board):
    """``_nibbles`` of the left-right mirror image."""
    return (board & COLUMN_B) | ((board & COLUMN_A) << 8) | ((board >> 8) & COLUMN_A)


@jit(forceinline=True)
def _key(board, hands):
    """A number that two positions share exactly when they are mirror images of each
    other (or the same): the lesser board of the two images, and the hands."""
    return (hands << 48) | min(board, _mirrored(board))


@jit
def expand_leaving(data, tier, local, out, state, child, moves):
    """``expand`` without ranking the children: only the moves that end the game leave
    the tier. Two moves reach one stored position only if they lead to mirror images
    of each other; the position and its image then differ on at most four cells
    (two for each move), so other positions count their moves, and these few count
    distinct keys (``_key``) of their children."""
    table = data.space
    if not unrank_hand_position(table, local, state, 1):
        return -np.int64(NONCANONICAL), np.int64(-1)
    board = _nibbles(state)
    different = board ^ _mirrored(board)
    different = (different | (different >> 1) | (different >> 2) | (different >> 3)) & NIBBLES
    exact = popcount(different) <= 4
    hands = 0
    for slot in range(6):
        hands |= state[HAND + slot] << (2 * slot)
    leaving, staying = _ended_steps(data, state, out, moves)
    for k in range(staying if exact else 0):  # each child's key, over its step's code
        source, target = moves[k] // CELLS, moves[k] % CELLS
        piece = _piece_at(state, 0, source)
        after = HEN if piece == CHICK and target < COLS else piece
        moved = (board & ~(np.int64(15) << (4 * source)) & ~(np.int64(15) << (4 * target))) \
            | (SLOT[0, after] << (4 * target))
        captured = _piece_at(state, 1, target)
        gained = hands + (np.int64(1) << (4 * KIND_OF[captured]) if captured >= 0 else 0)
        moves[k] = _key(moved, gained)
    empty = FULL & ~(_occupied(state, 0) | _occupied(state, 1))
    for kind in range(3):
        if state[HAND + 2 * kind] > 0:
            if exact:
                dropped = SLOT[0, DROPPED[kind]]
                spent = hands - (np.int64(1) << (4 * kind))
                rest = empty
                while rest:
                    target = lowest_bit(rest)
                    rest &= rest - 1
                    moves[staying] = _key(board | (dropped << (4 * target)), spent)
                    staying += 1
            else:
                staying += popcount(empty)
    if leaving + staying == 0:
        return -np.int64(DRAW), np.int64(-1)
    if exact:
        staying = sort_unique(moves, staying)
    return leaving, staying


@jit
def parents(data, tier, local, out, state, other):
    """Un-moves of the player who just moved (side 1 here, moving down): a piece steps
    back (a Hen on row 1 may also have been a Chick before it stepped), leaving behind
    nothing or a piece it captured (one of the mover's kinds in its hand; a Chick may
    have been a Hen); or a Giraffe, Elephant or Chick goes back to its hand. The parent
    is seen by that player: ``other`` holds this position turned round."""
    table, attackers = data.space, data.attackers
    unrank_hand_position(table, local, state, 1)
    empty = FULL & ~(_occupied(state, 0) | _occupied(state, 1))
    _turn_round(data.rotate, state, other)
    entry, offset = placement_entry(table, other, 1), configuration_offset(table, other, 1)
    count = 0
    for piece in range(5):
        pieces = state[SLOT[1, piece]]
        while pieces:
            target = lowest_bit(pieces)
            pieces &= pieces - 1
            on_far_row = _bit(target) & FAR[1] != 0
            if not (piece == CHICK and on_far_row):  # a Chick there was dropped there
                sources = attackers[1, piece, target] & empty
                if piece == LION:
                    sources &= ~FAR[1]  # a Lion there would have ended the game
                count = _unsteps(table, other, out, count, piece, piece, sources, target, entry,
                                 offset)
            if piece == HEN and on_far_row:  # promoted by this step
                count = _unsteps(table, other, out, count, HEN, CHICK,
                                 attackers[1, CHICK, target] & empty, target, entry, offset)
    for kind in range(3):
        pieces = state[SLOT[1, DROPPED[kind]]]
        if pieces == 0:
            continue
        # Every un-drop of a kind leaves the same pieces on the board and in hand.
        slot, hand = SLOT[0, DROPPED[kind]], HAND + 2 * kind
        kept = other[slot]
        other[hand] += 1
        undropped_offset = -1
        while pieces:
            other[slot] = kept & ~_bit(CELLS - 1 - lowest_bit(pieces))
            pieces &= pieces - 1
            if undropped_offset < 0:
                undropped_offset = configuration_offset(table, other, 1)
            out[count] = rank_from_parts(table, other, 1, entry, undropped_offset) << 1
            count += 1
        other[slot] = kept
        other[hand] -= 1
    return count


@jit(forceinline=True)
def _unsteps(table, other, out, count, piece, before, sources, target, entry, offset):
    """Add the parents where the mover's ``before`` stepped from one of ``sources`` to
    ``target`` and is now ``piece``, capturing nothing or any piece it may have
    captured (``other``: seen by the mover, who is side 0 there, given back unchanged;
    ``entry`` and ``offset``: its first parts of a rank, which only a Lion's un-move,
    an un-promotion or an un-capture change); returns the new count."""
    rotated_target = _bit(CELLS - 1 - target)
    now_slot, before_slot = SLOT[0, piece], SLOT[0, before]
    kept_now, kept_before = other[now_slot], other[before_slot]
    promoted = before != piece
    while sources:
        rotated_source = _bit(CELLS - 1 - lowest_bit(sources))
        sources &= sources - 1
        other[now_slot] = kept_now & ~rotated_target
        other[before_slot] |= rotated_source
        if piece == LION:
            entry = placement_entry(table, other, 1)
        if promoted:  # the same pieces for every source
            offset = configuration_offset(table, other, 1)
            promoted = False
        out[count] = rank_from_parts(table, other, 1, entry, offset) << 1
        count += 1
        for kind in range(3):
            hand = HAND + 2 * kind
            if other[hand] == 0:
                continue
            other[hand] -= 1
            count = _uncapture(table, other, out, count, SLOT[1, DROPPED[kind]], rotated_target,
                               entry)
            if kind == 2:  # a Chick in hand may have been a Hen on the board
                count = _uncapture(table, other, out, count, SLOT[1, HEN], rotated_target, entry)
            other[hand] += 1
        other[before_slot] = kept_before
        other[now_slot] = kept_now
    return count


@jit(forceinline=True)
def _uncapture(table, other, out, count, slot, cell, entry):
    """Add the parent with a piece of ``slot`` back on ``cell``."""
    kept = other[slot]
    other[slot] = kept | cell
    out[count] = rank_from_parts(table, other, 1, entry, configuration_offset(table, other, 1)) << 1
    other[slot] = kept
    return count + 1


def step_tables() -> tuple[np.ndarray, np.ndarray]:
    """(attacks, attackers) of ``DobutsuData``: for each side (0 moves up, 1 down),
    piece and cell, the cells it reaches, and the cells from which it reaches the cell.

    >>> attacks, attackers = step_tables()
    >>> int(attacks[0, CHICK, 7]) == 1 << 4, int(attackers[1, CHICK, 7]) == 1 << 4  # b2 and b3
    (True, True)
    """
    attacks = np.zeros((2, 5, CELLS), np.int64)
    attackers = np.zeros((2, 5, CELLS), np.int64)
    for side, up in ((0, -1), (1, 1)):
        for piece, steps in enumerate(STEPS):
            for cell in range(CELLS):
                row, col = divmod(cell, COLS)
                for ahead, right in steps:
                    # The second player's steps are the first's turned round.
                    to_row, to_col = row + up * ahead, col + (right if side == 0 else -right)
                    if 0 <= to_row < ROWS and 0 <= to_col < COLS:
                        reached = to_row * COLS + to_col
                        attacks[side, piece, cell] |= 1 << reached
                        attackers[side, piece, reached] |= 1 << cell
    return attacks, attackers


def rotation_table() -> np.ndarray:
    """[mask] -> the mask of the board turned 180°: cell i goes to cell 11 - i."""
    masks = np.arange(1 << CELLS, dtype=np.int64)
    rotated = np.zeros_like(masks)
    for cell in range(CELLS):
        rotated |= ((masks >> cell) & 1) << (CELLS - 1 - cell)
    return rotated


#: The left-right mirror of the board (cell -> cell).
MIRROR = [row * COLS + COLS - 1 - col for row in range(ROWS) for col in range(COLS)]
#: The Lions' placements the index holds: (the mover's, the other's), the mover's not
#: on the far row (row 4), the other's not on the mover's home row (row 1).
LION_PLACEMENTS = [(mine, theirs) for mine in range(COLS, CELLS) for theirs in range(CELLS - COLS)
                   if mine != theirs]
SIDE_NAMES = ("the first player", "the second player")
#: Each kind's name, for one piece and for more (Chicks and Hens are counted together).
KIND_NAMES = (("Giraffe", "Giraffes"), ("Elephant", "Elephants"),
              ("Chick or Hen", "Chicks and Hens"))


class DobutsuShogi(Game):
    name = NAME
    title = "Dōbutsu shōgi"
    options_spec = (
        Option("animals", str, KIND_LETTERS,
               "the animals besides the Lions in play, a subset of GEC (G Giraffes, E "
               "Elephants, C Chicks; - none)"),
    )
    functions = GameFunctions(decode, encode, generate_moves, do_move, primitive, expand,
                              terminal, parents, expand_leaving=expand_leaving)
    state_fields = ("turn (0 = the first player), the cell masks of L l G g E e C H c h (bit i = "
                    "cell i in text order), then the hands: G of the first player, of the "
                    "second, E, E, C, C")

    #: The first player's pieces light, the second's dark, each with its letter.
    piece_colours = {**dict.fromkeys(LETTERS, "#eeeeee"), **dict.fromkeys(LETTERS.lower(), "#222222")}
    #: Boards whose every index the game tester checks (tests/test_conformance.py).
    tester_boards = ({"animals": "G"}, {"animals": "C"})
    #: Boards whose every position is compared with tests/reference (tests/test_crosscheck.py).
    reference_boards = ({"animals": "E"}, {"animals": "C"})

    def normalise(self, options: dict) -> dict:
        animals = options["animals"].strip()
        if animals in ("", "-"):
            animals = "-"
        elif set(animals) - set(KIND_LETTERS) or len(set(animals)) != len(animals):
            raise ValueError(f"animals is a subset of {KIND_LETTERS} (G Giraffes, E Elephants, "
                             f"C Chicks) or - for none, each letter once; got {animals!r}")
        else:
            animals = "".join(letter for letter in KIND_LETTERS if letter in animals)
        return {**options, "animals": animals}

    def build(self) -> GameSpec:
        included = self.kinds_in_play()
        kinds = [Kind(2 if play else 0, faces, 2) for play, faces in zip(included, (2, 2, 4))]
        self.space = HandPieceSpace(CELLS, kinds, LION_PLACEMENTS, [MIRROR])
        attacks, attackers = step_tables()
        return GameSpec(
            tiers=TierLayout(keys=[(sum(2 * play for play in included),)], sizes=[self.space.size]),
            data=DobutsuData(self.space.table, attacks, attackers, rotation_table()),
            state_size=STATE_SIZE, max_moves=MAX_MOVES, loopy=True, remoteness_bound=None,
            max_parents=MAX_PARENTS,
            hasher={"name": "pieces on a board and in hands, as the mover sees them, up to the "
                            "mirror", "tiers": "one", "cells": CELLS,
                    "fixed": "Lions: the mover's off the far row, the other's off the mover's "
                             "home row", "animals": self.options["animals"], "symmetries": 2})

    def kinds_in_play(self) -> list[bool]:
        """Whether Giraffes, Elephants and Chicks are in play."""
        return [letter in self.options["animals"] for letter in KIND_LETTERS]

    def tier_children(self, tier: int) -> set[int]:
        return {tier}

    def tier_type(self, tier: int) -> TierType:
        return TierType.LOOPY

    def board_shape(self) -> tuple[int, int]:
        return ROWS, COLS

    def default_start(self) -> str:
        rows = ["gle", "-c-", "-C-", "ELG"]
        kept = set("Ll-") | {c for c in self.options["animals"] if c != "-"} | \
            {c.lower() for c in self.options["animals"] if c != "-"}
        return "(L " + " ".join("".join(c if c in kept else "-" for c in row) for row in rows) + " -)"

    # -- text ---------------------------------------------------------------------------
    def parse(self, text: str) -> np.ndarray:
        words = self.split_position(text)
        if len(words) != 6:
            raise OtherBoardError(
                f"a {self.title} position is the Lion of the player to move, four rows of "
                f"three cells and the hands, like {self.default_start()}; got {text!r}")
        turn, *rows, hands = words
        if turn not in ("L", "l"):
            raise ValueError(f"the first word of {text!r} is the Lion of the player to move, L "
                             f"(the first player) or l (the second); got {turn!r}")
        self.check_rows(rows, text, "LGECHlgech-")
        state = np.zeros(STATE_SIZE, np.int64)
        state[TURN] = 0 if turn == "L" else 1
        for cell, letter in enumerate("".join(rows)):
            if letter != "-":
                side = 0 if letter.isupper() else 1
                state[SLOT[side, LETTERS.index(letter.upper())]] |= 1 << cell
        if hands != "-":
            for letter in hands:
                if letter.upper() in "LH":
                    raise ImpossiblePositionError(
                        f"{text!r} has {letter!r} in hand: a captured Hen goes to the hand as a "
                        "Chick, and a Lion captured ends the game")
                if letter.upper() not in KIND_LETTERS:
                    raise ValueError(f"the hands of {text!r} are letters of G, E, C (the first "
                                     f"player's) and g, e, c (the second's), or -; got {letter!r}")
                side = 0 if letter.isupper() else 1
                state[HAND + 2 * KIND_LETTERS.index(letter.upper()) + side] += 1
        self._check_counts(state, text)
        value = _outcome(self.data.attackers, state)
        if value == ILLEGAL:
            raise ImpossiblePositionError(f"{text!r} cannot arise: {self.explain_illegal(state)}")
        return state

    def _check_counts(self, state: np.ndarray, text: str) -> None:
        for side in (0, 1):
            lions = popcount_of(state[SLOT[side, LION]])
            if lions > 1:
                raise ImpossiblePositionError(f"{text!r} has {lions} Lions of "
                                              f"{SIDE_NAMES[side]}; each player has one")
        for kind, (letter, play) in enumerate(zip(KIND_LETTERS, self.kinds_in_play())):
            pieces = (GIRAFFE, ELEPHANT, CHICK, HEN)[kind:kind + 1 + (kind == 2)]
            total = sum(popcount_of(state[SLOT[side, piece]]) for side in (0, 1) for piece in pieces)
            total += int(state[HAND + 2 * kind] + state[HAND + 2 * kind + 1])
            expected = 2 if play else 0
            if total != expected:
                one, more = KIND_NAMES[kind]
                rule = ("the game has two, on the board or in a hand" if play else
                        f"this {self.describe()} game has none")
                raise ImpossiblePositionError(
                    f"{text!r} has {total} {one if total == 1 else more}; {rule}")

    def explain_illegal(self, state: np.ndarray) -> str:
        side = int(state[TURN])
        mine, theirs = int(state[SLOT[side, LION]]), int(state[SLOT[1 - side, LION]])
        if theirs == 0 and mine == 0:
            return "both Lions are captured, but the game ends when the first one is"
        if theirs == 0:
            return (f"the Lion of {SIDE_NAMES[1 - side]} is captured, so the game ended at "
                    f"the capture and it is not {SIDE_NAMES[side]}'s turn")
        if mine & int(FAR[side]):
            return (f"the Lion of {SIDE_NAMES[side]}, to move, is on the far row: the game "
                    "ended when the other player could not capture it there")
        return super().explain_illegal(state)

    def format(self, state: np.ndarray) -> str:
        board = ["-"] * CELLS
        for side in (0, 1):
            for piece, letter in enumerate(LETTERS):
                mask = int(state[SLOT[side, piece]])
                for cell in range(CELLS):
                    if mask >> cell & 1:
                        board[cell] = letter if side == 0 else letter.lower()
        hands = "".join(letter * int(state[HAND + 2 * kind])
                        for kind, letter in enumerate(KIND_LETTERS))
        hands += "".join(letter.lower() * int(state[HAND + 2 * kind + 1])
                         for kind, letter in enumerate(KIND_LETTERS))
        rows = " ".join("".join(board[r * COLS:(r + 1) * COLS]) for r in range(ROWS))
        return f"({'Ll'[int(state[TURN])]} {rows} {hands or '-'})"

    def grid(self, state: np.ndarray) -> list[str]:
        return self.format(state).strip("()").split()[1:1 + ROWS]

    def pieces_in_hand(self, state: np.ndarray) -> list[tuple[int, int, str, int]]:
        """Each kind in a hand: the first player's drawn under the board, the second's
        over it, Giraffes at column a, Elephants at b, Chicks at c."""
        return [(side, kind, letter if side == 0 else letter.lower(),
                 int(state[HAND + 2 * kind + side]))
                for side in (0, 1) for kind, letter in enumerate(KIND_LETTERS)
                if state[HAND + 2 * kind + side]]

    def move_name(self, state: np.ndarray, move: int) -> str:
        source, target = divmod(int(move), CELLS)
        to = square_name(*divmod(target, COLS), ROWS)
        if source >= DROP:
            return f"{KIND_LETTERS[source - DROP]}*{to}"
        return f"{square_name(*divmod(source, COLS), ROWS)}-{to}"

    def move_sketch(self, state: np.ndarray, name: str) -> MoveSketch | None:
        """A step goes from its square to its square; a drop, from the piece in hand
        (``pieces_in_hand``) to its square.

        >>> from tiersolve.games import make_game
        >>> game = make_game("dshogi")
        >>> game.move_sketch(game.parse("(L gle --- -C- ELG C)"), "C*b3")
        MoveSketch(kind='move', cells=((4, 2), (1, 1)), path=(), side='')
        """
        if "*" in name:
            letter, square = name.split("*", 1)
            return MoveSketch(MOVE, (hand_cell(int(state[TURN]), KIND_LETTERS.index(letter), ROWS),
                                     parse_square(square, ROWS, COLS)))
        return MoveSketch(MOVE, tuple(parse_square(square, ROWS, COLS) for square in name.split("-")))


def popcount_of(mask) -> int:
    return bin(int(mask)).count("1")


GAME = DobutsuShogi
