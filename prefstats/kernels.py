"""numba's ``njit`` for the package: kernels compiled on first use, in a cache that cannot go
stale (docs/design.md, "Kernels and wrappers").

On first use, not at import. A kernel decorated here compiles, or loads from the cache, when it
is first called (from Python or from a kernel being compiled), never at import: ``import
prefstats`` and ``prefstats --help`` compile nothing. A kernel given explicit signatures is
compiled for exactly those, all at once on its first use, and then takes no other (as numba's
``njit(signatures)`` does at import): the search keeps its two signatures with misère a
constant. The first call that has to compile (a cache miss) prints one line (``COMPILING``,
on standard error; in a notebook, under the cell): a user waiting about a minute knows why; a
cache hit prints nothing.

A cache that cannot go stale. numba keys each cached kernel by the text of its own file. But a
compiled kernel also holds the helpers it calls from other files and the constants and lookup
tables it reads from them, so after one of those changes numba would load the old code, and an
upgrade that changed only ``solver/_search.py`` would keep running the old search inside
``solver/_potential.py``. Every kernel of the package is cached in one directory named after a
hash of all the files kernels are made of (``KERNEL_SOURCES``): any change to one of them starts
a fresh cache. The directory is found (files hashed, folder made, older caches deleted) once,
before the first kernel compiles or loads.

With the JIT off (``NUMBA_DISABLE_JIT=1``, ``make test-nojit``) the kernels run as Python, so
that the tests that compare them with their naive twins reach every line of their code: the
processor's bit instructions the kernels use (``ctpop``, ``leading_zeros``, ``trailing_zeros``)
are then Python functions giving the same values.

Layer 0: it imports nothing of the package.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

import numpy as np
from numba import int64
from numba.core import config, event, typeinfer
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import OmittedArg
from numba.core.registry import CPUDispatcher
from numba.cpython.unsafe import numbers
from numba.extending import intrinsic

PACKAGE = Path(__file__).resolve().parent
# Every module that defines kernels, and every package module they import (a test checks it).
KERNEL_SOURCES = (
    "kernels.py",
    "names.py",
    "checks.py",
    "game/cards.py",
    "game/deal.py",
    "game/rules.py",
    "game/bidding.py",
    "solver/_tables.py",
    "solver/_search.py",
    "solver/_potential.py",
    "solver/_hidden.py",
    "solver/_estimate.py",
    "benchmarks/speed.py",
)
CACHE_PREFIX = "prefstats-kernels-"
KEPT_CACHES = 3  # the current sources' cache and the two last made before it
COMPILING = "prefstats: compiling the solver for this machine, once (about a minute)..."
JIT_OFF: bool = bool(config.DISABLE_JIT)  # type: ignore[attr-defined]  # NUMBA_DISABLE_JIT=1
STALE = "prefstats: kernel sources changed since they were imported; not caching their code"
# A kernel keeps its Python function's signature for the type checker (a Kernel calls as it).
F = TypeVar("F", bound=Callable[..., Any])


def sources_hash(paths: tuple[Path, ...]) -> str:
    """Hex digest of the files' names and contents, in order."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _writable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(directory, os.W_OK)


def _drop_older(base: Path) -> None:
    """Delete all but the newest ``KEPT_CACHES`` kernel caches kept in the package's tree (one
    for each version of the sources: some 25 MB each)."""
    caches = sorted(base.glob(CACHE_PREFIX + "*"), key=lambda path: path.stat().st_mtime)
    for old in caches[:-KEPT_CACHES]:
        shutil.rmtree(old, ignore_errors=True)


def find_cache_dir() -> Path:
    """Where the kernels are cached: under ``NUMBA_CACHE_DIR`` if the user set one, else in the
    package's ``__pycache__`` (older caches there deleted), else in the user's cache folder."""
    name = CACHE_PREFIX + sources_hash(tuple(PACKAGE / source for source in KERNEL_SOURCES))
    if config.CACHE_DIR:  # type: ignore[attr-defined]
        return Path(config.CACHE_DIR) / name  # type: ignore[attr-defined]
    in_tree = PACKAGE / "__pycache__"
    if _writable(in_tree):
        (in_tree / name).mkdir(exist_ok=True)
        os.utime(in_tree / name)
        _drop_older(in_tree)
        return in_tree / name
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "prefstats"
    return user / name


@contextmanager
def _caching_in(directory: Path) -> Iterator[None]:
    """numba's cache directory for the kernels whose caching is enabled meanwhile (it is read
    then; the user's own kernels keep theirs)."""
    before = config.CACHE_DIR  # type: ignore[attr-defined]
    config.CACHE_DIR = str(directory)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        config.CACHE_DIR = before  # type: ignore[attr-defined]


class _Announcer(event.Listener):
    """Prints ``COMPILING`` when the first of the package's kernels starts compiling: on
    standard error, or in a Jupyter notebook on standard output (a plain line under the cell,
    where standard error would be a warning box)."""

    def __init__(self) -> None:
        self.said = False

    def on_start(self, event: event.Event) -> None:
        if not self.said and isinstance(event.data["dispatcher"], Kernel):
            self.said = True
            out = sys.stdout if "ipykernel" in sys.modules else sys.stderr
            print(COMPILING, file=out, flush=True)

    def on_end(self, event: event.Event) -> None:
        pass


def changed_since(paths: tuple[Path, ...], moment: float) -> list[Path]:
    """The files modified after ``moment`` (seconds since the epoch) and not in the future (a
    clock's skew, not an edit)."""
    now = time.time()
    return [path for path in paths if moment < path.stat().st_mtime <= now]


class _State:
    """The process's kernels: when the first was made, the cache directory (found before the
    first compiles) and whether its code is the sources' (else nothing is cached), the kernels
    whose caching is still to enable, and the tasks to run before compiling."""

    first_made: ClassVar[float | None] = None
    cache_dir: ClassVar[Path | None] = None
    caching: ClassVar[bool] = True
    uncached: ClassVar[list[Kernel]] = []
    before: ClassVar[list[Callable[[], None]]] = []


def cache_dir() -> Path:
    """The directory the package's kernels are cached in, found on the first call (files
    hashed, folder made, older caches dropped). If a kernel source changed since the first
    kernel was made, this process's kernels may be the old code: they are not cached."""
    with global_compiler_lock:
        if _State.cache_dir is None:
            _State.cache_dir = find_cache_dir()
            sources = tuple(PACKAGE / source for source in KERNEL_SOURCES)
            made = _State.first_made
            if made is not None and changed_since(sources, made):
                _State.caching = False
                print(STALE, file=sys.stderr, flush=True)
            event.register("numba:compile", _Announcer())
        return _State.cache_dir


def _enable_caching() -> None:
    """Cache the kernels made since the last call in ``cache_dir()``."""
    directory = cache_dir()
    if _State.caching:
        with _caching_in(directory):
            while _State.uncached:
                _State.uncached.pop().enable_caching()


def _ready() -> None:
    """Before a kernel compiles or loads: find the cache directory (once), point the kernels
    made since at it, and run the tasks registered by ``before_compiling``. Under numba's
    compiler lock, which a thread compiling holds: one thread at a time."""
    with global_compiler_lock:
        _enable_caching()
        while _State.before:
            _State.before.pop(0)()


def before_compiling(task: Callable[[], None]) -> None:
    """Run ``task`` once, before the next kernel compiles or loads (at once with the JIT off):
    to fill a table that kernels read as a constant with a kernel, without compiling at import."""
    if JIT_OFF:
        task()
    else:
        with global_compiler_lock:
            _State.before.append(task)


class Kernel(CPUDispatcher):
    """numba's dispatcher, ready (``_ready``) before it compiles, and compiling its explicit
    signatures (``signatures``) on its first use rather than at import."""

    signatures_to_compile: tuple[Any, ...] = ()

    def compile(self, sig: Any) -> Any:
        """numba's ``compile``, after ``_ready``."""
        _ready()
        return super().compile(sig)

    def _compile_signatures(self) -> None:
        """Compile the explicit signatures and take no other, as numba's eager ``njit`` does;
        once, whichever thread comes first."""
        with global_compiler_lock:
            if not self.signatures_to_compile:
                return
            signatures, self.signatures_to_compile = self.signatures_to_compile, ()
            with typeinfer.register_dispatcher(self):
                for signature in signatures:
                    self.compile(signature)
            self.disable_compile()

    def _compile_for_args(self, *args: Any, **kws: Any) -> Any:
        """A call from Python found no compiled version: compile the explicit signatures, if
        any, and call again (numba calls what this returns); else numba's lazy compile."""
        with global_compiler_lock:  # another thread may be compiling the signatures now
            explicit = bool(self.signatures_to_compile) or not self._can_compile  # type: ignore[attr-defined]
            self._compile_signatures()
        if not explicit:
            return super()._compile_for_args(*args, **kws)  # type: ignore[misc]
        values = [arg.value if isinstance(arg, OmittedArg) else arg for arg in args]
        return lambda *_: self(*values)

    def get_call_template(self, args: Any, kws: Any) -> Any:
        """A kernel being compiled calls this one: its explicit signatures first, if any."""
        self._compile_signatures()
        return super().get_call_template(args, kws)

    def _reduce_states(self) -> dict[str, Any]:
        """numba's pickled state; a kernel not yet used is rebuilt (in another process) with
        its explicit signatures, compiled there at once, as numba rebuilds an eager one."""
        states: dict[str, Any] = super()._reduce_states()  # type: ignore[misc]
        if self.signatures_to_compile:
            states.update(can_compile=False, sigs=list(self.signatures_to_compile))
        return states

    def get_compile_result(self, sig: Any) -> Any:
        """numba's ``get_compile_result``, after compiling the explicit signatures."""
        self._compile_signatures()
        return super().get_compile_result(sig)


def njit(*args: Any, **options: Any) -> Callable[[F], F]:
    """``numba.njit(*args, **options)`` as a decorator factory (``njit(signatures, ...)`` or
    ``njit(...)``), giving a ``Kernel``: compiled on first use, cached in ``cache_dir()``."""
    signatures = args[0] if args else None
    if signatures is not None and not isinstance(signatures, list):
        signatures = [signatures]
    cache = options.pop("cache", False)
    locals_ = options.pop("locals", {})
    targetoptions = {**options, "nopython": True, "boundscheck": options.get("boundscheck")}

    def decorate(function: F) -> F:
        if JIT_OFF:
            return function  # as numba's njit does with the JIT off
        if _State.first_made is None:
            _State.first_made = time.time()
        kernel = Kernel(py_func=function, locals=locals_, targetoptions=targetoptions)
        if signatures:
            kernel.signatures_to_compile = tuple(signatures)
        if cache:
            with global_compiler_lock:
                _State.uncached.append(kernel)
                if _State.cache_dir is not None:  # made after the first compile
                    _enable_caching()
        return cast(F, kernel)

    return decorate


# --- the processor's bit instructions, and their Python twins for the JIT off ------------------


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    """The processor's population count of an int64 (LLVM's ctpop)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return int64(int64), codegen


def _width(value: Any) -> int:
    """Bits of an integer as the kernels type it: a numpy scalar's, else 64 (an int64)."""
    return int(np.dtype(value.dtype).itemsize * 8) if hasattr(value, "dtype") else 64


def _python_ctpop(value: Any) -> int:
    """``ctpop`` in Python: the bits set in the value's two's complement."""
    return (int(value) & ((1 << _width(value)) - 1)).bit_count()


def _python_leading_zeros(value: Any) -> int:
    """``leading_zeros`` in Python: zero bits above the highest set bit (all if none)."""
    width = _width(value)
    return width - (int(value) & ((1 << width) - 1)).bit_length()


def _python_trailing_zeros(value: Any) -> int:
    """``trailing_zeros`` in Python: zero bits below the lowest set bit (all if none)."""
    bits = int(value) & ((1 << _width(value)) - 1)
    return (bits & -bits).bit_length() - 1 if bits else _width(value)


# numba's intrinsics, typed as what a kernel calling them gets: an integer.
BitCount = Callable[[Any], int]
ctpop: BitCount = _python_ctpop if JIT_OFF else cast(BitCount, _ctpop)
leading_zeros: BitCount = (
    _python_leading_zeros if JIT_OFF else cast(BitCount, numbers.leading_zeros)
)
trailing_zeros: BitCount = (
    _python_trailing_zeros if JIT_OFF else cast(BitCount, numbers.trailing_zeros)
)
