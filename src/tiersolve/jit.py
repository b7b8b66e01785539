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
from numba.core.registry import CPUDispatcher
from numba.core.targetconfig import ConfigStack

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


def _keep_helpers_as_ir() -> bool:
    """Teach numba to keep each ``jit(forceinline=True)`` helper as LLVM IR only.

    numba finishes every function it compiles: it runs LLVM's whole optimisation
    pipeline over the function *and every function it calls* (linked in), then emits
    machine code. A helper is only ever inlined into the kernels that call it, so
    the code of a call tree several levels deep was optimised and emitted once per
    level, and each helper's machine code was never run. Here a helper's library is
    finished by linking its callees' IR only; the kernel that inlines it optimises
    it once and emits it once; the disk cache keeps the helper as bitcode. LLVM's
    time in Lines of Action's start kernel and its helpers went from 4.9 to 2.0 s.
    (numba's own functions that a helper calls inherit its ``forceinline`` and are
    kept as IR too.)

    It patches five methods of numba's CPU target (numba is pinned to 0.68 in
    pyproject.toml); if they are not what it expects, it patches nothing and returns
    False. ``TIERSOLVE_HELPER_CODE=1`` turns it off (every helper then gets machine
    code, as numba does by default)."""
    if os.environ.get("TIERSOLVE_HELPER_CODE", "") not in ("", "0"):
        return False
    try:
        from numba import _dynfunc
        from numba.core import codegen, cpu
        from numba.core.compiler_lock import require_global_compiler_lock

        library_class, codegen_class = codegen.JITCodeLibrary, codegen.JITCPUCodegen
        finalize, serialize = library_class.finalize, library_class.serialize_using_object_code
        unserialize = library_class._unserialize.__func__
        set_env, get_executable = codegen_class.set_env, cpu.CPUContext.get_executable
    except (ImportError, AttributeError):
        return False
    kind = "tiersolve-ir-only"

    def helper_finalize(self):
        if not getattr(self, "_ir_only", False):
            return finalize(self)
        require_global_compiler_lock()
        self._raise_if_finalized()
        for library in dict.fromkeys(self._linking_libraries):
            self._reload_init.update(library._reload_init)
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._finalized = True

    def helper_serialize(self):
        if not getattr(self, "_ir_only", False):
            return serialize(self)
        self._ensure_finalized()
        return (self.name, kind, self._final_module.as_bitcode())

    def helper_unserialize(cls, codegen_, state):
        name, state_kind, data = state
        if state_kind != kind:
            return unserialize(cls, codegen_, state)
        from llvmlite import binding

        self = codegen_.create_library(name)
        self._ir_only = True
        self._final_module = binding.parse_bitcode(data)
        self._finalized = True
        return self

    def helper_set_env(self, env_name, env):
        # An IR-only helper's environment has no address: no code of its own uses it.
        if self._engine.get_global_value_address(env_name):
            set_env(self, env_name, env)

    def helper_get_executable(self, library, fndesc, env):
        if fndesc.inline and not library._finalized:
            library._ir_only = True
        if not getattr(library, "_ir_only", False):
            return get_executable(self, library, fndesc, env)
        library._ensure_finalized()
        # No entry point (address 0): a call from Python goes to the helper's twin.
        return _dynfunc.make_function(fndesc.lookup_module(), fndesc.qualname.split(".")[-1],
                                      f"IR-only helper {fndesc.qualname!r}", 0, env, (library,))

    library_class.finalize = helper_finalize
    library_class.serialize_using_object_code = helper_serialize
    library_class._unserialize = classmethod(helper_unserialize)
    codegen_class.set_env = helper_set_env
    cpu.CPUContext.get_executable = helper_get_executable
    return True


#: Whether ``jit(forceinline=True)`` helpers are kept as LLVM IR (``_keep_helpers_as_ir``).
HELPERS_AS_IR = _keep_helpers_as_ir()


def _configure_cache() -> Path:
    root = cache_root()
    # Kernels built with and without BMI2 differ for the same sources and processor.
    # So do caches with and without helpers kept as IR (their entries differ).
    cache_dir = root / (f"numba-{source_fingerprint()}{'' if FAST_PEXT else '-tables'}"
                        f"{'' if HELPERS_AS_IR else '-helper-code'}")
    numba.config.CACHE_DIR = str(cache_dir)
    try:  # mark this version's cache as used, so pruning keeps it
        cache_dir.mkdir(parents=True, exist_ok=True)
        os.utime(cache_dir)
    except OSError:
        pass
    prune_stale_caches(root, cache_dir)
    return cache_dir


CACHE_DIR = _configure_cache()


def initialise_compiler() -> None:
    """Load what numba loads before its first compile in a process (its registries of
    implementations: about 0.6 s), e.g. before forking processes that will compile."""
    from numba.core.registry import cpu_target

    cpu_target.target_context.refresh()


def jit(function: Callable | None = None, **options: Any):
    """``numba.njit`` with on-disk caching and the GIL released.

    ``forceinline=True`` marks a helper of other jitted functions: LLVM inlines it
    into them, and it is compiled without a Python entry point (see
    :class:`_Helper`), which was a tenth of compiling a game's kernels.

    >>> @jit
    ... def twice(x):
    ...     return 2 * x
    >>> twice(21)
    42
    >>> @jit(forceinline=True)
    ... def thrice(x):
    ...     return 3 * x
    >>> thrice(14)  # from Python: a twin with an entry point
    42
    """
    # forceinline is set either way: numba would otherwise inherit it from whichever
    # caller compiles the function first, and its disk cache would keep that choice.
    # No C-callable wrapper: nothing here passes jitted functions as values, and the
    # wrappers were a fifth of compiling Lines of Action's kernels.
    settings = {"cache": True, "nogil": True, "forceinline": False, "no_cfunc_wrapper": True}
    settings.update(options)
    helper = bool(settings["forceinline"])
    if helper:
        settings["no_cpython_wrapper"] = True

    def compile_lazily(f: Callable):
        try:
            dispatcher = numba.njit(**settings)(f)
        except RuntimeError:  # no source file to cache against (an interactive session)
            dispatcher = numba.njit(**{**settings, "cache": False})(f)
        if helper and type(dispatcher) is CPUDispatcher:
            dispatcher.__class__ = _Helper
        return _without_literal_copies(dispatcher)

    return compile_lazily if function is None else compile_lazily(function)


class _Helper(CPUDispatcher):
    """A dispatcher of ``jit(forceinline=True)``: compiled without the CPython wrapper
    (the code that unboxes Python arguments), since jitted callers inline it. It has
    *twins*, the same function jitted under names of their own (numba's disk cache
    knows a function by its name, not by its options), each compiled when first
    needed:

    - ``<qualname>__py``, with a wrapper: a call from Python (a test, a game's Python
      side) goes to it;
    - ``<qualname>__without_refcounts``: a caller compiled without reference counting
      (``specialise(..., refcounts=False)``) inlines it. numba compiles a function
      called from jitted code with its caller's ``_nrt`` unless told otherwise, and
      keeps one compiled version per signature, in memory and on disk: whichever
      caller came first decided for all. Tic-Tac-Toe 4x4's kernel, compiled after
      ``primitive`` had compiled ``_outcome`` with reference counts, inlined atomic
      increments and decrements of shared counters into its loop and solved a third
      slower than the same kernel compiled first."""

    def get_call_template(self, args: tuple, kws: dict) -> Any:
        # numba types a call (here) and later lowers it (get_overload) while compiling
        # the caller, whose flags are then the top of numba's ConfigStack.
        if self._caller_counts_no_references():
            return self._without_refcounts().get_call_template(args, kws)
        return super().get_call_template(args, kws)

    def get_overload(self, sig: tuple) -> Any:
        if self._caller_counts_no_references():
            return self._without_refcounts().get_overload(sig)
        return super().get_overload(sig)

    def _caller_counts_no_references(self) -> bool:
        caller = ConfigStack.top_or_none()
        return caller is not None and not caller.nrt and self.targetoptions.get("_nrt", True)

    def _without_refcounts(self) -> Callable:
        return self._twin("__without_refcounts", forceinline=True, _nrt=False)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._twin("__py")(*args, **kwargs)

    def _twin(self, suffix: str, **options: Any) -> Callable:
        twins = self.__dict__.setdefault("_twins", {})
        if suffix not in twins:
            twins[suffix] = jit(_renamed(self.py_func, suffix), **options)
        return twins[suffix]


def _renamed(function: Callable, suffix: str) -> Callable:
    """A copy of the plain Python ``function`` whose qualified name ends in ``suffix``."""
    copy = types.FunctionType(function.__code__, function.__globals__, function.__name__,
                              function.__defaults__, function.__closure__)
    copy.__qualname__ = f"{function.__qualname__}{suffix}"
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    return copy


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
        # numba's disk cache knows a function by its qualified name, and not by its
        # options: the copy needs a name of its own, or it could load the original.
        _inlined[function] = jit(forceinline=True)(_renamed(function.py_func, "__inlined"))
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
