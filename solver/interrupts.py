"""Ctrl-C and SIGTERM that stop a build even when Python loses their exception.

A signal's handler runs between two bytecodes of the main thread; when those belong
to a finaliser (``__del__``, a weakref callback), the KeyboardInterrupt it raises is
printed as "Exception ignored" and dropped, and the build would run on to the end.
``stopping_on_signals`` makes the handler also *remember* the request, and the tier
driver calls ``check`` after every batch (``build --reachable``: after every level of
its search and every tier it solves; the Dask driver: after every result), so a build
stops within one batch either way.

    >>> with stopping_on_signals():
    ...     check()          # nothing requested: returns
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator

_requested = threading.Event()


def _interrupt(signum, frame) -> None:
    _requested.set()
    raise KeyboardInterrupt


@contextmanager
def stopping_on_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise KeyboardInterrupt and are remembered
    for ``check``; the previous handlers come back after it. Outside the main thread
    (where handlers cannot be set) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _requested.clear()
    previous = {number: signal.signal(number, _interrupt) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        _requested.clear()


def check() -> None:
    """Raise KeyboardInterrupt if a signal asked to stop (its own exception may have
    been lost)."""
    if _requested.is_set():
        raise KeyboardInterrupt
