"""What runs on a Dask worker, shared by the tasks of whole tiers (``cluster.py``) and
the parts of split tiers (``split.py``): the game of a task, the partial build as a
worker sees it, and how many threads a task may use; and the error of a cluster
build."""

from __future__ import annotations

import functools
import json
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from tiersolve.errors import TiersolveError
from tiersolve.games import make_game
from tiersolve.games.base import Game
from tiersolve.solver import tiers

if TYPE_CHECKING:  # the tiers a build keeps are the database layer's files
    from tiersolve.databases.format import PartialBuild

PARTIAL_SUFFIX = ".partial"


class ClusterError(TiersolveError):
    """A cluster build cannot start or cannot finish: dask is missing, the scheduler
    is unreachable, a worker cannot see the work dir or runs other code, or a tier
    keeps killing its workers."""


@functools.lru_cache(maxsize=4)
def task_game(name: str, options_json: str) -> Game:
    """The game of a task, made once per worker process."""
    return make_game(name, **json.loads(options_json))


def open_partial(directory: Path, game: Game) -> PartialBuild:
    """The partial build in ``directory`` as a worker sees it (never created here:
    a folder the worker cannot see means the work dir is not shared)."""
    host = socket.gethostname()
    if not (directory / "manifest.json").is_file():
        raise ClusterError(f"the worker on {host} cannot see the work dir {directory}: put it on "
                           "a filesystem every worker shares (--work-dir)")
    database = directory.with_name(directory.name.removesuffix(PARTIAL_SUFFIX))
    # The kept tiers are the database layer's files; imported here, on a worker, so the
    # solver layer does not import the layer above it when it loads.
    from tiersolve.databases.format import PartialBuild, PartialBuildMismatch

    try:
        return PartialBuild(database, game, tiers.records_type(game))
    except PartialBuildMismatch:
        raise ClusterError(f"the worker on {host} runs another version of tiersolve than the "
                           "build's client; install the same version on every machine") from None


def worker_threads() -> int:
    """Kernel threads for a task on this worker: its machine's cores shared among
    the worker's task slots."""
    from distributed import get_worker

    try:
        slots = get_worker().state.nthreads
    except (ValueError, AttributeError):  # not inside a worker
        slots = 1
    return max(1, (os.cpu_count() or 1) // max(slots, 1))
