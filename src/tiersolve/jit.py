"""Numba compilation helpers: one on-disk cache per source version, and per-game kernels.

Two facts about numba drive this module:

* ``cache=True`` does not notice edits in *other* modules that a cached function
  calls (a game function inlined into a solver kernel). We therefore point numba's
  cache at a directory named after a fingerprint of all of this project's numba
  sources: any edit starts a fresh cache, so a stale kernel can never be loaded.
* A kernel that receives a jitted function as an argument is recompiled in every
  process (the dispatcher's identity is part of the type). Instead, generic kernels
  are written once as plain Python *templates* and :func:`specialise` re-binds the
  game's functions as globals of a copy with its own name, which numba caches
  like any top-level function.

Import this module before defining any ``@jit`` function (every module that jits
does ``from tiersolve.jit import jit``), so the cache location is set first.
"""

from __future__ import annotations

import hashlib
import os
import types
from pathlib import Path
from typing import Any, Callable

import numba
from numba.core import types as numba_types

#: The package's folder (in a checkout, ``src/tiersolve``, whose layer folders link
#: to the repository's top-level folders).
_PACKAGE = Path(__file__).parent
#: What numba compiles, relative to the package: the bottom layer's modules that
#: kernels use, and every module of the hash schemes, the games and the solvers.
_JITTED_SOURCES = ("jit.py", "bits.py", "values.py", "contract.py", "hashers/*.py",
                   "games/*.py", "solver/*.py")


def source_fingerprint() -> str:
    """A short hash of every numba-compiled source file of the project (a new version
    of any of them is a new kernel cache, and a partial build of another refuses to
    resume)."""
    digest = hashlib.sha256()
    for pattern in _JITTED_SOURCES:
        for path in sorted(_PACKAGE.glob(pattern)):
            digest.update(path.relative_to(_PACKAGE).as_posix().encode())
            digest.update(path.read_bytes())
    digest.update(numba.__version__.encode())
    return digest.hexdigest()[:16]


#: How long a kernel cache of another source version is kept after its last use: other
#: checkouts or installs of other versions may share the cache root.
STALE_CACHE_DAYS = 14


def cache_root() -> Path:
    """Where compiled kernels are cached: ``$TIERSOLVE_CACHE_DIR`` (or numba's
    ``$NUMBA_CACHE_DIR``), else ``~/.cache/tiersolve``."""
    base = (os.environ.get("TIERSOLVE_CACHE_DIR") or os.environ.get("GAMESOLVER_CACHE_DIR")
            or os.environ.get("NUMBA_CACHE_DIR"))
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tiersolve"


def prune_stale_caches(root: Path, keep: Path, days: float = STALE_CACHE_DAYS) -> list[Path]:
    """Delete the ``numba-*`` folders under ``root`` other than ``keep`` that nothing has
    used for ``days`` days; returns them. Errors (a folder another process is
    deleting, no permission) are ignored: pruning only saves space.

    >>> import tempfile, time
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "numba-old").mkdir(); (root / "numba-new").mkdir()
    >>> os.utime(root / "numba-old", (time.time() - 30 * 86400,) * 2)
    >>> [p.name for p in prune_stale_caches(root, root / "numba-new")]
    ['numba-old']
    >>> sorted(p.name for p in root.iterdir())
    ['numba-new']
    """
    import shutil
    import time

    removed = []
    cutoff = time.time() - days * 86400
    try:
        candidates = [p for p in root.glob("numba-*") if p.is_dir() and p != keep]
    except OSError:
        return removed
    for folder in candidates:
        try:
            if folder.stat().st_mtime < cutoff:
                shutil.rmtree(folder)
                removed.append(folder)
        except OSError:
            pass
    return removed


def _fast_pext() -> bool:
    """Whether ``tiersolve.bits`` may use the processor's PEXT/PDEP (BMI2): one cycle on
    Intel since Haswell and on AMD since Zen 3, but microcoded, hundreds of cycles,
    on Zen 1 and 2 ("znver1", "znver2"). ``TIERSOLVE_BIT_TABLES=1`` turns them off."""
    if os.environ.get("TIERSOLVE_BIT_TABLES", "") not in ("", "0"):
        return False
    try:
        from llvmlite import binding

        features, name = binding.get_host_cpu_features(), binding.get_host_cpu_name()
    except Exception:  # no way to ask: the tables work everywhere
        return False
    return bool(features.get("bmi2")) and name not in ("znver1", "znver2")


#: The bit helpers compile to BMI2 instructions (see ``_fast_pext``).
FAST_PEXT = _fast_pext()


def _configure_cache() -> Path:
    root = cache_root()
    # Kernels built with and without BMI2 differ for the same sources and processor.
    cache_dir = root / f"numba-{source_fingerprint()}{'' if FAST_PEXT else '-tables'}"
    numba.config.CACHE_DIR = str(cache_dir)
    try:  # mark this version's cache as used, so pruning keeps it
        cache_dir.mkdir(parents=True, exist_ok=True)
        os.utime(cache_dir)
    except OSError:
        pass
    prune_stale_caches(root, cache_dir)
    return cache_dir


CACHE_DIR = _configure_cache()


def jit(function: Callable | None = None, **options: Any):
    """``numba.njit`` with on-disk caching and the GIL released.

    >>> @jit
    ... def twice(x):
    ...     return 2 * x
    >>> twice(21)
    42
    """
    # forceinline is set either way: numba would otherwise inherit it from whichever
    # caller compiles the function first, and its disk cache would keep that choice.
    # No C-callable wrapper: nothing here passes jitted functions as values, and the
    # wrappers were a fifth of compiling Lines of Action's kernels.
    settings = {"cache": True, "nogil": True, "forceinline": False, "no_cfunc_wrapper": True}
    settings.update(options)

    def compile_lazily(f: Callable):
        try:
            dispatcher = numba.njit(**settings)(f)
        except RuntimeError:  # no source file to cache against (an interactive session)
            dispatcher = numba.njit(**{**settings, "cache": False})(f)
        return _without_literal_copies(dispatcher)

    return compile_lazily if function is None else compile_lazily(function)


def _without_literal_copies(dispatcher):
    """``dispatcher``, compiled once for ``f(x, 8)`` and ``f(x, 16)`` when called from
    other jitted code. numba otherwise compiles a copy of ``f`` for every constant
    argument a caller passes (``Literal[int](8)``): Lines of Action compiled one
    helper six times, each copy costing as much as the first."""
    typed_for = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed_for(tuple(numba_types.unliteral(a) for a in args),
                         {k: numba_types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def bound_later(*names: str) -> tuple[Callable, ...]:
    """Placeholders for the functions a template calls and :func:`specialise` binds.

    A template calls, say, ``expand(...)``; the module defines ``expand`` with
    ``expand, = bound_later("expand")``, so readers, editors and linters see where the
    name comes from. Calling a placeholder (the template itself, not a specialised
    copy) raises TypeError.

    >>> expand, parents = bound_later("expand", "parents")
    >>> expand(1)
    Traceback (most recent call last):
    ...
    TypeError: expand is bound by tiersolve.jit.specialise: call a specialised copy of the template
    """
    def placeholder(name: str) -> Callable:
        def unbound(*args: Any) -> Any:
            raise TypeError(f"{name} is bound by tiersolve.jit.specialise: call a specialised "
                            "copy of the template")

        unbound.__name__ = unbound.__qualname__ = name
        return unbound

    return tuple(placeholder(name) for name in names)


_specialised: dict[tuple, Callable] = {}
_inlined: dict[Callable, Callable] = {}


def inlined(function: Callable) -> Callable:
    """A copy of the jitted ``function`` that LLVM inlines into the kernels calling it.

    A game's ``expand`` bound into a solver kernel is otherwise a call: numba passes
    every array of the game's ``data`` and the scratch buffers field by field, which
    cost Clobber a tenth of its solve. The copy keeps the function's name, so the
    kernels that bind it keep theirs (``specialise``).

    The copy is marked ``forceinline`` (LLVM's ``alwaysinline``), not numba's
    ``inline="always"``: numba inlines by deep-copying the callee's IR at every call
    site, which made compiling Lines of Action's kernels take 100 s instead of 25.

    >>> double = inlined(jit(lambda x: 2 * x))
    >>> double(21)
    42
    """
    if function not in _inlined:
        original = function.py_func
        copy = types.FunctionType(original.__code__, original.__globals__, original.__name__,
                                  original.__defaults__, original.__closure__)
        # numba's disk cache knows a function by its qualified name, and not by its
        # options: the copy needs a name of its own, or it could load the original.
        copy.__qualname__ = f"{original.__qualname__}__inlined"
        copy.__module__ = original.__module__
        _inlined[function] = jit(forceinline=True)(copy)
    return _inlined[function]


def _binding_names(bindings: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """What identifies the bound functions (their names and where they are defined)
    and constants (their values)."""
    return tuple((name, f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', repr(f))}")
                 for name, f in sorted(bindings.items()))


def specialise(template: Callable, label: str, *, refcounts: bool = True,
               **bindings: Any) -> Callable:
    """Compile ``template`` with the names in ``bindings`` bound to the given functions
    (or constants, e.g. a flag that removes a branch at compile time).

    ``template`` is a plain Python function that calls, for example, ``expand(...)``
    as a global (a placeholder of :func:`bound_later` in its module);
    ``specialise(template, "ttt", expand=ttt_expand)`` returns a cached
    numba dispatcher named ``<template>__ttt_<digest>`` in which ``expand`` is the
    game's. The digest names the bound functions, so the same label with other
    functions never shares a dispatcher, in memory or in numba's disk cache (which
    knows a function by its name).

    ``refcounts=False`` compiles it without numba's reference counting (``_nrt``): it
    may then allocate no array, and its callers must hold every array it reads.

    >>> f, = bound_later("f")
    >>> def _apply(x):
    ...     return f(x)
    >>> g = specialise(_apply, "double", f=jit(lambda x: 2 * x))
    >>> g(4)
    8
    """
    names = _binding_names(bindings)
    key = (template, label, names, refcounts)
    if key not in _specialised:
        namespace = dict(template.__globals__)
        namespace.update(bindings)
        digest = hashlib.sha256(repr((names, refcounts)).encode()).hexdigest()[:8]
        name = f"{template.__name__}__{label}_{digest}"
        copy = types.FunctionType(template.__code__, namespace, name, template.__defaults__)
        copy.__qualname__ = name
        copy.__module__ = template.__module__
        copy.__doc__ = template.__doc__
        _specialised[key] = jit(copy) if refcounts else jit(copy, _nrt=False)
    return _specialised[key]
