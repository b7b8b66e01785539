"""Faster start-up and exit of the command-line processes (``tiersolve``,
``scripts/build_db.py``, ``scripts/query.py``); nothing here changes a result.

A small build spends most of its second in numba, not in solving (docs/PROFILE.md).
Three costs of a short-lived process can be avoided without touching numba:

* **numba's BLAS probe.** Loading the first kernel, even from the cache, initialises
  numba's CPU target, which imports ``numba.np.arraymath``; that module probes for
  BLAS by importing ``scipy.linalg`` (about 0.15-0.25 s and 16 MB when SciPy is
  installed). Our kernels use no linear algebra. While that one module is imported,
  :func:`skip_numba_blas_probe` makes ``scipy.linalg`` unimportable, so the probe
  answers "no BLAS" at once; afterwards SciPy imports as usual. The only effect is
  that numba's ``np.convolve``/``np.correlate`` in this process use a plain loop
  instead of BLAS, and only in the command-line processes, which run no user code.
* **The cyclic garbage collector during start-up.** numba allocates hundreds of
  thousands of long-lived objects; with Python's default thresholds the collector
  walks them about 300 times before the first kernel is loaded (0.1-0.2 s). Solver
  arrays are freed by reference counting, not by the collector.
* **The collector at exit.** The interpreter collects once more while it shuts
  down; :func:`gc.freeze` at exit moves every object out of its reach (the operating
  system frees the memory). Exit handlers still run, and HDF5 closes its files in
  its own.

This module imports nothing heavy, so ``tiersolve --help`` stays instant.
"""

from __future__ import annotations

import atexit
import gc
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Sequence

#: The module of numba that probes for BLAS when it is imported.
NUMBA_BLAS_PROBE = "numba.np.arraymath"
#: The package that probe imports (scipy.linalg.cython_blas lives in it).
PROBED_PACKAGE = "scipy.linalg"
#: Allocations between two young-generation collections while a command runs
#: (Python's default is 700).
YOUNG_COLLECTION_THRESHOLD = 100_000


class _BlasProbeSkipper(importlib.abc.MetaPathFinder):
    """Finds ``numba.np.arraymath`` as usual, but executes it with ``scipy.linalg``
    unimportable (unless SciPy's linear algebra is already imported)."""

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if name != NUMBA_BLAS_PROBE or PROBED_PACKAGE in sys.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        execute = spec.loader.exec_module

        def exec_module_without_scipy_linalg(module: ModuleType) -> None:
            sys.modules[PROBED_PACKAGE] = None  # type: ignore[assignment]  # import fails at once
            try:
                execute(module)
            finally:
                if sys.modules.get(PROBED_PACKAGE, "") is None:
                    del sys.modules[PROBED_PACKAGE]

        spec.loader.exec_module = exec_module_without_scipy_linalg  # type: ignore[method-assign]
        return spec


def skip_numba_blas_probe() -> None:
    """Let numba's CPU target start without importing SciPy (see the module
    docstring); does nothing if numba's array functions are already loaded."""
    if NUMBA_BLAS_PROBE in sys.modules:
        return
    if not any(isinstance(finder, _BlasProbeSkipper) for finder in sys.meta_path):
        sys.meta_path.insert(0, _BlasProbeSkipper())


def tune_command_line_process() -> None:
    """Make this short-lived command-line process start and exit faster: skip numba's
    BLAS probe, collect cyclic garbage less often, and not at exit. Call it first
    thing in a command's entry point, never in a library call (a notebook keeps its
    default collector)."""
    skip_numba_blas_probe()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, middle, oldest)
    atexit.register(gc.freeze)  # registered first, so it runs after the other handlers
