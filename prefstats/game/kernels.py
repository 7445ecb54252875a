"""numba's ``njit`` with a kernel cache that cannot go stale (docs/design.md, "Kernels and
wrappers").

numba keys each cached kernel by the text of its own file. But a compiled kernel also holds the
helpers it calls from other files and the constants and lookup tables it reads from them, so
after one of those changes numba would load the old code, and an upgrade that changed only
``solver/_search.py`` would keep running the old search inside ``solver/_potential.py``. The
``njit`` here caches every kernel of the package in one directory named after a hash of all the
files kernels are made of (``KERNEL_SOURCES``): any change to one of them starts a fresh cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numba
from numba.core import config

PACKAGE = Path(__file__).resolve().parents[1]
# Every module that defines kernels, and every package module they import (a test checks it).
KERNEL_SOURCES = (
    "game/cards.py",
    "game/deal.py",
    "game/rules.py",
    "game/bidding.py",
    "game/kernels.py",
    "names.py",
    "solver/_tables.py",
    "solver/_search.py",
    "solver/_potential.py",
    "solver/_hidden.py",
    "cli/speed.py",
)
CACHE_PREFIX = "prefstats-kernels-"


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


KEPT_CACHES = 3  # the current sources' cache and the two last made before it


def _drop_older(base: Path) -> None:
    """Delete all but the newest ``KEPT_CACHES`` kernel caches kept in the package's tree (one
    for each version of the sources: some 25 MB each)."""
    caches = sorted(base.glob(CACHE_PREFIX + "*"), key=lambda path: path.stat().st_mtime)
    for old in caches[:-KEPT_CACHES]:
        shutil.rmtree(old, ignore_errors=True)


def _find_cache_dir() -> Path:
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


CACHE_DIR = _find_cache_dir()


@contextmanager
def _caching_in(directory: Path) -> Iterator[None]:
    """numba's cache directory for the kernels decorated meanwhile (it is read when a kernel is
    decorated; the user's own kernels keep theirs)."""
    before = config.CACHE_DIR  # type: ignore[attr-defined]
    config.CACHE_DIR = str(directory)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        config.CACHE_DIR = before  # type: ignore[attr-defined]


def njit(*args: Any, **options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(*args, **options)`` as a decorator factory, caching in ``CACHE_DIR``."""

    def decorate(function: Callable[..., Any]) -> Any:
        with _caching_in(CACHE_DIR):
            return numba.njit(*args, **options)(function)

    return decorate
