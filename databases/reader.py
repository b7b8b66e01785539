"""The lookup library: open a database file and ask about positions.

A tiny surface, as python-chess's Syzygy probing: :func:`open_database`, then
``lookup`` (raises), ``get`` (does not), ``moves``, ``best_move``, ``after``,
``principal_variation`` and ``info``; numpy in and out for bulk work. Errors are the
``tiersolve.errors`` hierarchy, all ``ValueError``.

>>> from tiersolve.databases import build_database, open_database
>>> _ = build_database("ttt", "ttt_3x3.h5", rows=3, cols=3, progress=False)
>>> db = open_database("ttt_3x3.h5")
>>> db.lookup("(x --- --- ---)")
Record(position='(x --- --- ---)', value='tie', remoteness=9)
>>> db.best_move("(o xx- oo- --x)").move      # o wins at once
'c2'
>>> db.get("(x --- ---)") is None
True
"""

from __future__ import annotations

import collections
import contextlib
import functools
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np

from tiersolve.databases.naming import build_command, default_directory, default_path
from tiersolve.errors import (
    ClosedDatabaseError, DatabaseMismatchError, IllegalMoveError, ImpossiblePositionError,
    IndexRangeError, MalformedPositionError, MissingDatabaseError, PositionError,
    UnreachedPositionError,
)
from tiersolve.games import GAMES, make_game
from tiersolve.values import DRAW, ILLEGAL, LOSE, TIE, VALUE_NAMES, WIN, flipped

if TYPE_CHECKING:

    from tiersolve.games.base import Game

# h5py, numba (through the games and tiersolve.databases.format) and the board drawing
# are imported when a database is opened, not when this module is: importing the
# lookup library costs only numpy (docs/PROFILE.md).

__all__ = ["VALUES", "Database", "DatabaseInfo", "Move", "Record", "open_database"]

#: Value names by code (index = code stored in the ``value`` dataset).
VALUES = tuple(VALUE_NAMES[code] for code in range(len(VALUE_NAMES)))
#: Decompressed chunks a Database keeps for its lookups (value and remoteness data).
CHUNK_CACHE_BYTES = 32 << 20


def value_text(value: str, remoteness: int | None) -> str:
    """A value and its remoteness as the commands print them.

    >>> value_text("win", 3), value_text("draw", None)
    ('win in 3', 'draw')
    """
    return value if remoteness is None else f"{value} in {remoteness}"


class _CompileNotice:
    """Says on stderr when a lookup makes numba compile kernels (the first use of a
    game's lookup kernels since this version was installed; later runs load them
    from the cache, silently), once per game and process. It listens to numba's
    compile events only while a lookup runs, so a build's own compiling is left to
    the build's report."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._depth = 0
        self._label = ""
        self._told: set[str] = set()
        self._listener = None

    @contextlib.contextmanager
    def watch(self, label: str):
        """Listen while the block runs; ``label`` names the game being looked up."""
        from numba.core import event

        with self._lock:
            if self._depth == 0:
                if self._listener is None:
                    self._listener = _compile_listener(self)
                self._label = label
                event.register("numba:compile", self._listener)
            self._depth += 1
        try:
            yield
        finally:
            with self._lock:
                self._depth -= 1
                if self._depth == 0:
                    event.unregister("numba:compile", self._listener)

    def compiling(self) -> None:
        if self._label not in self._told:
            self._told.add(self._label)
            print(f"tiersolve: compiling the {self._label} kernels for lookups, once for this "
                  "version of tiersolve (a few seconds)...", file=sys.stderr, flush=True)


def _compile_listener(notice: _CompileNotice):
    """A numba event listener that tells ``notice`` when a compile starts."""
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, _event) -> None:
            notice.compiling()

        def on_end(self, _event) -> None:
            pass

    return Listener()


_COMPILE_NOTICE = _CompileNotice()


#: (game label, method name) pairs that have run to the end once in this process:
#: their kernels are compiled or loaded, so later calls need no compile listener
#: (registering one costs about 70 µs, a third of a single lookup).
_WARM_METHODS: set[tuple[str, str]] = set()


def _says_when_compiling(method):
    """A Database method that says on stderr when it makes numba compile."""
    name = method.__name__

    @functools.wraps(method)
    def watched(self, *args, **kwargs):
        key = (self._label, name)
        if key in _WARM_METHODS:
            return method(self, *args, **kwargs)
        with _COMPILE_NOTICE.watch(self._label):
            result = method(self, *args, **kwargs)
        _WARM_METHODS.add(key)
        return result

    return watched


@dataclass(frozen=True)
class Record:
    """A position's value for the player to move, and its remoteness (moves to the
    end with perfect play; None for a draw). Draws itself as a board in Jupyter."""

    position: str
    value: str
    remoteness: int | None
    game: Game | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return f"{self.position}  {value_text(self.value, self.remoteness)}"

    def _repr_svg_(self) -> str | None:
        if self.game is None:
            return None
        from tiersolve.games.board import board_svg

        return board_svg(self.game, self.position,
                         f"{value_text(self.value, self.remoteness)} for the player to move")


@dataclass(frozen=True)
class Move:
    """A legal move and its value *for the player who makes it* (as GamesmanUni shows
    moves): ``position`` is where it leads, ``remoteness`` the moves left after it,
    ``moves_again`` whether the same player moves next (a Konane go-again)."""

    move: str
    position: str
    value: str
    remoteness: int | None
    moves_again: bool = False
    game: Game | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        again = " (moves again)" if self.moves_again else ""
        return f"{self.move}: {value_text(self.value, self.remoteness)}{again}"

    def as_dict(self) -> dict[str, Any]:
        """The move as JSON data, with the names of this API (``query --json`` and
        ``tiersolve serve`` answer with them).

        >>> Move("a1", "(o x-- --- ---)", "tie", 8).as_dict()["remoteness"]
        8
        """
        return {"move": self.move, "position": self.position, "value": self.value,
                "remoteness": self.remoteness, "moves_again": self.moves_again}

    def _repr_svg_(self) -> str | None:
        if self.game is None:
            return None
        from tiersolve.games.board import board_svg

        return board_svg(self.game, self.position,
                         f"after {self.move}: {value_text(self.value, self.remoteness)} for its player")


@dataclass(frozen=True)
class DatabaseInfo:
    """What a database holds and how it was built (``Database.info()``)."""

    path: str
    game: str
    description: str
    options: dict[str, Any]
    positions: int
    counts: dict[str, int]          # win, lose, tie, draw, illegal, noncanonical: sum = positions
    start: str
    start_value: str
    start_remoteness: int | None
    max_remoteness: int
    tiers: int
    solver: str
    threads: int
    build_seconds: float
    created_utc: str
    package_version: str
    file_bytes: int
    reachable_from: list[str] | None = None  # the starts of a --reachable database

    def rows(self) -> list[tuple[str, str]]:
        """(label, text) pairs, the lines of ``text()``."""
        from tiersolve.databases.naming import human_bytes, plural

        counts = ", ".join(f"{name} {self.counts[name]:,}" for name in ("win", "lose", "tie", "draw"))
        extra = [f"{name} {self.counts[name]:,}" for name in ("illegal", "noncanonical")
                 if self.counts.get(name)]
        options = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return [
            ("game", f"{self.description} ({self.game}: {options})"),
            ("positions", f"{self.positions:,} indices in {plural(self.tiers, 'tier')}: {counts}"
                          + (f"; {', '.join(extra)}" if extra else "")
                          + (f"; those reachable from {', '.join(self.reachable_from)}"
                             if self.reachable_from else "")),
            ("start", f"{self.start} {value_text(self.start_value, self.start_remoteness)}"),
            ("max remoteness", f"{self.max_remoteness}"),
            ("built", f"{self.created_utc} by tiersolve {self.package_version}, {self.solver} "
                      f"solver, {self.threads} thread{'s' if self.threads != 1 else ''}, "
                      f"{self.build_seconds:.1f} s"),
            ("file", f"{self.path}, {human_bytes(self.file_bytes)}"),
        ]

    def text(self) -> str:
        """Aligned lines for the terminal (``tiersolve info``)."""
        rows = self.rows()
        width = max(len(label) for label, _ in rows)
        return "\n".join(f"{label:<{width}}  {text}" for label, text in rows)

    def _repr_html_(self) -> str:
        from html import escape

        body = "".join(f"<tr><th style='text-align:left'>{escape(label)}</th>"
                       f"<td style='text-align:left'>{escape(text)}</td></tr>"
                       for label, text in self.rows())
        return f"<table>{body}</table>"


def open_database(path_or_game: str | os.PathLike, **options: Any) -> "Database":
    """Open a database file by its path, or by game name and options: the file
    ``tiersolve build`` writes for them (``default_path``). A file that exists is
    always opened as a file, even one named like a game.

    Opened by game, the file must hold exactly that game with exactly those options
    (the others at their defaults); DatabaseMismatchError otherwise. MissingDatabaseError
    if there is no such file (or, by game, no database built yet), GameError for an
    unknown game or options it does not take.

    >>> db = open_database("northcott", rows=3, cols=6)   # db/northcott_3x6.h5  # doctest: +SKIP
    """
    name = os.fspath(path_or_game)
    path = Path(path_or_game)
    if path.exists() or name not in GAMES:
        if options:
            raise TypeError(f"open_database({name!r}) opens a file; the options "
                            f"{', '.join(sorted(options))} are only for opening by game name")
        return Database(path)
    game = make_game(name, **options)
    candidate = default_path(game)
    if not candidate.exists():
        raise MissingDatabaseError(f"no database for {game.describe()} at {candidate}; build it "
                                   f"with: {build_command(game)}")
    try:
        return Database(candidate, expect=game)
    except DatabaseMismatchError as error:
        raise DatabaseMismatchError(f"{error}; open it by its path, or replace it with: "
                                    f"{build_command(game)} --overwrite") from None


def _missing_file_message(path: Path) -> str:
    """The message for a file that is not there, with what was probably meant: the
    same name with ``.h5`` or in the default folder, or the games, as the name may
    have been meant as one."""
    message = f"no such database file: {path}"
    guesses = [folder / name for folder in (Path("."), default_directory())
               for name in (path.name, f"{path.name}.h5")]
    found = [guess for guess in guesses if guess != path and guess.is_file()]
    if found:
        return f"{message} (did you mean {found[0]}?)"
    if path.suffix not in (".h5", ".hdf5") and os.sep not in str(path):
        return f"{message}, and no game is called {str(path)!r} ({', '.join(GAMES)})"
    return message


class Database:
    """An open database file, to probe and explore. Use :func:`open_database`.

    The file is untrusted input: it is opened and every read of it is checked by
    ``tiersolve.databases.verify``; anything out of place is one DamagedDatabaseError
    line, never a traceback, a hang or a wrong answer."""

    def __init__(self, path: str | os.PathLike, expect: Game | None = None) -> None:
        from tiersolve.databases.verify import CheckedFile

        self.path = Path(path)
        self._file: CheckedFile | None = None
        self._label = "database's"  # the game's name, once the file says which
        if not self.path.exists():
            raise MissingDatabaseError(_missing_file_message(self.path))
        self._file = CheckedFile(self.path, expect, watch=self._watch)
        self.game = self._file.game
        self._stored_cache: np.ndarray | None = None
        # The last chunks read by lookups, decompressed and checked: a server or a
        # game's moves ask for nearby positions again and again.
        self._chunks: collections.OrderedDict[int, tuple[np.ndarray, np.ndarray]] = \
            collections.OrderedDict()
        self._start_checked = False

    def _watch(self, name: str):
        """The compile notice while the file's game is made (its kernels may compile)."""
        self._label = name
        return _COMPILE_NOTICE.watch(name)

    # -- context manager and housekeeping ---------------------------------------------
    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file; using the database afterwards raises ClosedDatabaseError."""
        if self._file is not None:
            self._file.close()

    def _opened(self):
        """The checked file; ClosedDatabaseError once the database is closed."""
        if self._file is None or self._file.closed:
            raise ClosedDatabaseError(f"the database {self.path} is closed")
        return self._file

    def _read(self, dataset, key) -> np.ndarray:
        """``dataset[key]`` through the checked file (ClosedDatabaseError once closed)."""
        return self._opened().read(dataset, key)

    def __repr__(self) -> str:
        state = " (closed)" if self._file is None or self._file.closed else ""
        game = self.game.describe() if hasattr(self, "game") else "?"
        return f"<Database {game} at {str(self.path)!r}{state}>"

    def _repr_html_(self) -> str:
        return self.info()._repr_html_()

    @property
    def attributes(self) -> dict[str, Any]:
        """The file's metadata (format, options, counts, build info...; docs/FORMAT.md),
        checked when the file was opened."""
        return dict(self._opened().metadata)

    @property
    def size(self) -> int:
        """Number of indices (legal and illegal) in the file."""
        return self.game.size

    @property
    def reachable_from(self) -> list[str] | None:
        """The starts of a ``--reachable`` database (it holds what play reaches from
        them), or None for a database of the whole index space."""
        starts = self._opened().starts
        return None if starts is None else list(starts)

    def stored_indices(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """The indices start..stop-1 the file holds values for, in order: all of them
        (``np.arange``), or in a ``--reachable`` database those play reaches. They
        are the indices of ``value_array(start, stop)``'s entries, one for one."""
        if self._opened().stored is None:
            return np.arange(start, self.size if stop is None else stop, dtype=np.int64)
        return self._all_stored()[self._rows(start, stop)]

    def _all_stored(self) -> np.ndarray:
        """A ``--reachable`` database's sorted ``indices``, read once (and checked as
        ``_checked_indices_chunk`` checks each chunk)."""
        if self._stored_cache is None:
            stored = self._read(self._file.stored, slice(None))
            chunk = self._file.stored.chunks[0] if stored.size else 1
            for block in range(0, -(-stored.size // chunk)):
                self._file.checked_indices_chunk(block, stored[block * chunk:(block + 1) * chunk])
            self._stored_cache = stored
        return self._stored_cache

    def _rows(self, start: int, stop: int | None) -> slice:
        """The rows of the per-index datasets that hold indices start..stop-1: the
        same numbers, except in a ``--reachable`` database (rows of its sorted
        ``indices``)."""
        if self._file.stored is None:
            return slice(start, stop)
        bounds = np.array([start, self.size if stop is None else stop], dtype=np.int64)
        lo, hi = self._locate(bounds)[0]
        return slice(int(lo), int(hi))

    @property
    def start(self) -> str:
        """The start position recorded when the database was built."""
        return self._opened().metadata["start_position"]

    def _checked_start(self) -> None:
        """Check, once, what the file says of its start (``verify.check_start``)."""
        if not self._start_checked:
            from tiersolve.databases.verify import check_start

            check_start(self)
            self._start_checked = True

    def info(self) -> DatabaseInfo:
        """Options, counts, the start value, the longest game and how the file was built.

        The counts add up to the number of indices: win + lose + tie + draw + illegal
        + noncanonical (indices that ``--symmetry`` leaves to their class's
        representative)."""
        self._checked_start()
        meta = self._opened().metadata
        counts = {name: meta[f"count_{name}"]
                  for name in ("win", "lose", "tie", "draw", "illegal", "noncanonical")}
        remoteness = meta["start_remoteness"]
        return DatabaseInfo(
            path=str(self.path), game=self.game.name, description=meta["description"],
            options=dict(self.game.options), positions=int(self._file.values.shape[0]), counts=counts,
            start=self.start, start_value=meta["start_value"],
            start_remoteness=None if remoteness < 0 else remoteness,
            max_remoteness=meta["max_remoteness"], tiers=self.game.tiers.count,
            solver=meta["solver"], threads=meta["threads"], build_seconds=meta["build_seconds"],
            created_utc=meta["created_utc"], package_version=meta["package_version"],
            file_bytes=self.path.stat().st_size, reachable_from=self.reachable_from)

    # -- single positions -------------------------------------------------------------
    @_says_when_compiling
    def _parse(self, position: str) -> np.ndarray:
        """The state of a position text; MalformedPositionError (or OtherBoardError)."""
        if not isinstance(position, str):
            raise MalformedPositionError(f"a position is a string like {self.start!r}, got "
                                         f"{type(position).__name__} {position!r}")
        try:
            return self.game.parse(position)
        except PositionError:
            raise
        except ValueError as error:
            raise MalformedPositionError(str(error)) from None

    @_says_when_compiling
    def _legal_state(self, position: str) -> tuple[np.ndarray, int, int]:
        """State, value code and remoteness of a legal position; PositionError else."""
        state = self._parse(position)
        reason = self.game.unreachable_reason(state)
        if reason is not None:
            raise ImpossiblePositionError(f"{position!r} is not a legal {self.game.title} "
                                          f"position: {reason}")
        try:
            (code,), (distance,) = self._results([state])
        except UnreachedPositionError:
            raise UnreachedPositionError(
                f"{position!r} is not reachable from this database's starts "
                f"({', '.join(self.reachable_from or [])}); it holds only what play reaches "
                "from them") from None
        if code == ILLEGAL:
            raise ImpossiblePositionError(f"{position!r} is not a legal {self.game.title} "
                                          f"position: {self.game.explain_illegal(state)}")
        return state, int(code), int(distance)

    @_says_when_compiling
    def index(self, position: str) -> int:
        """The index of a position text; PositionError if malformed or of another game/size."""
        return self.game.index(self._parse(position))

    @_says_when_compiling
    def _results(self, states: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Value codes and remoteness (-1 = none) of state vectors; finished games the
        index leaves out are answered from the rules (remoteness 0)."""
        states = np.array(states, dtype=np.int64).reshape(-1, self.game.state_size)
        codes = self.game.terminal_many(states).astype(np.uint8)
        distances = np.zeros(len(states), dtype=np.int32)
        stored = codes == 0
        if stored.any():
            codes[stored], distances[stored] = self.lookup_indices(self.game.encode_many(states[stored]))
        return codes, distances

    def lookup(self, position: str) -> Record:
        """Value and remoteness of a position text, for the player to move.

        Raises a PositionError (a ValueError) for a malformed position, one of another
        size or game, or one that cannot arise in play."""
        state, code, distance = self._legal_state(position)
        return Record(self.game.format(state), VALUES[code], None if distance < 0 else distance,
                      self.game)

    def get(self, position: str, default: Any = None) -> Record | Any:
        """``lookup(position)``, or ``default`` if the position cannot be answered (as
        python-chess's ``get_wdl``); a closed database still raises."""
        try:
            return self.lookup(position)
        except PositionError:
            return default

    def lookup_many(self, positions: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
        """Value codes (uint8; names in ``VALUES``, 0 = illegal) and remoteness (int32,
        -1 = none) of many position texts; PositionError if one is malformed."""
        return self._results([self._parse(text) for text in positions])

    @_says_when_compiling
    def moves(self, position: str) -> list[Move]:
        """Every legal move from a position, best first, each with its value for the
        player who makes it: the fastest win first, then ties, draws, and losses,
        the slowest last-resort loss before faster ones."""
        state, _, _ = self._legal_state(position)
        children = self.game.children(state)
        codes, distances = self._results([child.state for child in children])
        result = []
        for child, code, distance in zip(children, codes, distances):
            mine = int(code) if child.same_mover else flipped(int(code))
            result.append(Move(child.move,
                               self.game.format(child.state), VALUES[mine],
                               None if distance < 0 else int(distance), bool(child.same_mover),
                               self.game))
        return sorted(result, key=_preference)

    def best_moves(self, position: str) -> list[Move]:
        """Every move as good as the best one (same value and remoteness); empty when
        the game is over."""
        moves = self.moves(position)
        return [m for m in moves if _preference(m) == _preference(moves[0])]

    def best_move(self, position: str, rng: random.Random | None = None) -> Move | None:
        """The move perfect play chooses (None when the game is over): the fastest
        win; else a tie, fastest first; else a draw; else the slowest loss. Among
        equals, the first in move order, or a choice of ``rng`` if given."""
        best = self.best_moves(position)
        if not best:
            return None
        return rng.choice(best) if rng is not None else best[0]

    @_says_when_compiling
    def after(self, position: str, move: str) -> str:
        """The position after the move named ``move``; IllegalMoveError if there is none.

        Move names are as ``moves()`` gives them; case and spaces at the ends do not matter."""
        state, _, _ = self._legal_state(position)
        wanted = " ".join(str(move).split()).lower()
        children = self.game.children(state)
        for child in children:
            if child.move.lower() == wanted:
                return self.game.format(child.state)
        names = ", ".join(sorted(child.move for child in children)) or "none: the game is over"
        raise IllegalMoveError(f"{move!r} is not a legal move in {self.game.format(state)}; "
                               f"legal moves: {names}")

    def principal_variation(self, position: str, max_moves: int = 1000) -> list[Move]:
        """The line of perfect play from ``position`` (``best_move`` at each step) to the
        end of the game, or, in a draw, until a position repeats (or ``max_moves``)."""
        line: list[Move] = []
        seen = {self.game.format(self._parse(position))}
        current = position
        while len(line) < max_moves:
            move = self.best_move(current)
            if move is None:
                break
            line.append(move)
            if move.position in seen:
                break
            seen.add(move.position)
            current = move.position
        return line

    def board(self, position: str) -> str:
        """The position as a text grid with coordinates (``tiersolve play`` shows it)."""
        from tiersolve.games.board import board_lines

        return "\n".join(board_lines(self.game, self.game.format(self._parse(position))))

    # -- bulk access: numpy in, numpy out ----------------------------------------------
    def counts(self) -> dict[str, int]:
        """How many indices hold each value: win, lose, tie, draw, then illegal and
        noncanonical (left to their class's representative under ``--symmetry``);
        they add up to ``size``."""
        return dict(self.info().counts)

    def tier_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """(tier keys, counts): what identifies each tier (one row per tier, e.g. the
        marks of each player) and how many of its indices hold each value code (one
        row per tier, columns in ``VALUES`` order). Reads the values a block at a time.

        >>> from tiersolve.databases import build_database
        >>> _ = build_database("ttt", "ttt_3x3.h5", rows=3, cols=3, progress=False)
        >>> keys, counts = open_database("ttt_3x3.h5").tier_counts()
        >>> keys[1].tolist(), dict(zip(VALUES, counts[1].tolist()))["tie"]  # one x placed
        ([1, 0], 9)
        """
        self._opened()
        offsets = np.asarray(self.game.tiers.offsets, np.int64)  # the file's, checked at open
        keys = np.asarray(self.game.tiers.keys, dtype=np.int64).reshape(self.game.tiers.count, -1)
        counts = np.zeros((len(offsets) - 1, len(VALUES)), dtype=np.int64)
        block = 1 << 24
        rows = offsets if self._file.stored is None else self._locate(offsets)[0]
        for tier in range(len(offsets) - 1):
            for lo in range(int(rows[tier]), int(rows[tier + 1]), block):
                hi = min(lo + block, int(rows[tier + 1]))
                values = self._file.checked_values(self._read(self._file.values, slice(lo, hi)))
                counts[tier] += np.bincount(values, minlength=len(VALUES))
        return keys, counts

    # Every number the numpy API takes or gives is an index of the game's index
    # space, in both kinds of file. A --reachable file stores some indices only: its
    # arrays hold those, in order, and stored_indices() says which they are.
    def value_array(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Value codes (uint8; names in ``VALUES``) of the stored indices start..stop-1:
        one per index, or in a ``--reachable`` database one per index it holds (their
        indices: ``stored_indices(start, stop)``)."""
        return self._file.checked_values(self._read(self._file.values, self._rows(start, stop)))

    def remoteness_array(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Remoteness (int32, -1 where there is none) of the stored indices
        start..stop-1, entry for entry as ``value_array``."""
        rows = self._rows(start, stop)
        raw = self._read(self._file.remoteness, rows)
        self._file.checked_remoteness(self._file.checked_values(self._read(self._file.values, rows)), raw)
        raw = raw.astype(np.int32)
        raw[raw == self._file.none_remoteness] = -1
        return raw

    def _checked_indices(self, indices: Iterable[int]) -> np.ndarray:
        """``indices`` as int64; TypeError if they are not whole numbers,
        IndexRangeError if one is outside the index space, and UnreachedPositionError
        if a ``--reachable`` database does not hold one."""
        raw = np.asarray(indices)
        if raw.size and not np.issubdtype(raw.dtype, np.integer):
            raise TypeError(f"indices must be whole numbers, got {raw.dtype} values")
        checked = raw.astype(np.int64)
        if checked.size and (checked.min() < 0 or checked.max() >= self.size):
            bad = checked[(checked < 0) | (checked >= self.size)][0]
            raise IndexRangeError(f"index {bad} is outside this database's 0..{self.size - 1}")
        if self._file.stored is not None and checked.size:
            self._rows_of(checked.reshape(-1))
        return checked

    def lookup_indices(self, indices: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
        """Value codes (uint8) and remoteness (int32, -1 = none) of many indices.

        Reads each chunk that holds a requested index once. A single index gives
        arrays of shape (); TypeError for indices that are not whole numbers."""
        self._opened()
        raw = np.asarray(indices)
        if raw.ndim == 0:
            values, remoteness = self.lookup_indices(raw.reshape(1))
            return values[0], remoteness[0]
        indices = self._checked_indices(raw)
        if self._file.stored is not None:
            indices = self._rows_of(indices)
        values = np.zeros(indices.shape, dtype=np.uint8)
        remoteness = np.zeros(indices.shape, dtype=np.int32)
        chunk = self._file.values.chunks[0]
        if indices.size and indices.min() // chunk == indices.max() // chunk:
            # One chunk (a single position, or a game's moves): no sorting to do.
            block = int(indices[0]) // chunk
            lo = block * chunk
            chunk_values, chunk_remoteness = self._chunk(block, lo, min(lo + chunk, self._file.values.shape[0]))
            values = chunk_values[indices - lo]
            remoteness = chunk_remoteness[indices - lo].astype(np.int32)
            remoteness[remoteness == self._file.none_remoteness] = -1
            return values, remoteness
        order = np.argsort(indices, kind="stable")
        sorted_indices = indices[order]
        blocks = sorted_indices // chunk
        bounds = np.flatnonzero(np.diff(blocks)) + 1
        for part in np.split(np.arange(len(sorted_indices)), bounds):
            if part.size == 0:
                continue
            block = int(blocks[part[0]])
            lo, hi = block * chunk, min((block + 1) * chunk, self._file.values.shape[0])
            inside = sorted_indices[part] - lo
            chunk_values, chunk_remoteness = self._chunk(block, lo, hi)
            values[order[part]] = chunk_values[inside]
            remoteness[order[part]] = chunk_remoteness[inside]
        remoteness[remoteness == self._file.none_remoteness] = -1
        return values, remoteness

    def _chunk(self, block: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows lo..hi-1 (chunk ``block``) of the value and remoteness data, from the
        cache of recently read chunks (at most ``CHUNK_CACHE_BYTES``) or the file."""
        cached = self._chunks.get(block)
        if cached is not None:
            self._chunks.move_to_end(block)
            return cached
        values = self._file.checked_values(self._read(self._file.values, slice(lo, hi)))
        cached = (values, self._file.checked_remoteness(values, self._read(self._file.remoteness, slice(lo, hi))))
        self._chunks[block] = cached
        row_bytes = self._file.values.dtype.itemsize + self._file.remoteness.dtype.itemsize
        while len(self._chunks) > max(1, CHUNK_CACHE_BYTES // (row_bytes * self._file.values.chunks[0])):
            self._chunks.popitem(last=False)
        return cached

    def _locate(self, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, found) of indices in a --reachable database's sorted ``indices``: the
        row where each is or would be inserted (numpy's searchsorted), and whether it is
        there. With an ``index_fence`` (the first index of each chunk) only the chunks
        holding the indices are read, so a file larger than memory can answer."""
        if self._stored_cache is None and self._file.fence.size:
            chunk = self._file.stored.chunks[0]
            blocks = np.searchsorted(self._file.fence, indices, side="right") - 1
            rows = np.zeros(indices.shape, np.int64)
            found = np.zeros(indices.shape, bool)
            order = np.argsort(blocks, kind="stable")  # each chunk read once, as lookup_indices
            bounds = np.flatnonzero(np.diff(blocks[order])) + 1
            for part in np.split(order, bounds):
                block = int(blocks[part[0]]) if part.size else -1
                if block < 0:  # below the first stored index: row 0, not found
                    continue
                held = self._file.checked_indices_chunk(
                    block, self._read(self._file.stored, slice(block * chunk, (block + 1) * chunk)))
                at = np.searchsorted(held, indices[part])
                rows[part] = block * chunk + at
                found[part] = held[np.minimum(at, held.size - 1)] == indices[part]
            return rows, found
        stored = self._all_stored()
        rows = np.searchsorted(stored, indices)
        if not stored.size:
            return rows, np.zeros(indices.shape, bool)
        return rows, stored[np.minimum(rows, stored.size - 1)] == indices

    def _rows_of(self, indices: np.ndarray) -> np.ndarray:
        """Rows of a --reachable database's indices; UnreachedPositionError if one is
        not stored."""
        rows, found = self._locate(indices)
        missing = ~found
        if missing.any():
            raise UnreachedPositionError(f"index {indices[missing][0]} is not reachable from this "
                                         f"database's starts ({', '.join(self.reachable_from)}); "
                                         "stored_indices() lists those it holds")
        return rows

    @_says_when_compiling
    def decode(self, indices: Iterable[int]) -> np.ndarray:
        """State vectors of many indices (one row each; layout in ``game.state_fields``),
        checked as ``lookup_indices`` checks them."""
        return self.game.decode_many(self._checked_indices(indices))

    def positions(self, indices: Iterable[int]) -> list[str]:
        """Position texts of many indices (checked as ``decode``)."""
        return [self.game.format(state) for state in self.decode(indices)]

    @_says_when_compiling
    def indices_of(self, positions: Iterable[str]) -> np.ndarray:
        """Indices of many position texts (ValueError for a finished game the index
        leaves out; ``lookup_many`` answers those)."""
        states = np.array([self._parse(text) for text in positions], dtype=np.int64)
        states = states.reshape(-1, self.game.state_size)
        finished = np.flatnonzero(self.game.terminal_many(states))
        if finished.size:
            self.game.locate(states[finished[0]])  # raises: the index leaves finished games out
        return self.game.encode_many(states)


def _preference(move: Move) -> tuple[int, int]:
    """Sort key, best move for the player who makes it first (``Move.value`` is theirs)."""
    code = VALUES.index(move.value)
    distance = move.remoteness if move.remoteness is not None else 0
    if code == WIN:
        return (0, distance)
    if code == TIE:
        return (1, distance)
    if code == DRAW:
        return (2, 0)
    if code == LOSE:
        return (3, -distance)
    return (4, 0)
