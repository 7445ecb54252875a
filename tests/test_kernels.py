"""The kernel cache cannot go stale (``prefstats.game.kernels``): every kernel is cached in the
directory named by the hash of every file kernels are made of."""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

import numba

from prefstats.game import kernels

PACKAGE = kernels.PACKAGE
MODULE_FILES = {
    ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts): path
    for path in PACKAGE.rglob("*.py")
    if path.name != "__init__.py"
}


def package_imports(path: Path) -> set[str]:
    """The package's modules (not packages) that a file imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("prefstats"):
            module = node.module or ""
            found |= {f"{module}.{alias.name}" for alias in node.names} | {module}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("prefstats")}
    return found & MODULE_FILES.keys()


def kernel_modules() -> set[str]:
    """Modules that decorate kernels with the package's ``njit``."""
    return {
        name
        for name, path in MODULE_FILES.items()
        if "from prefstats.game.kernels import njit" in path.read_text(encoding="utf-8")
    }


def test_kernel_sources_are_every_kernel_module_and_what_it_imports():
    closure = set(kernel_modules()) | {"prefstats.game.kernels"}
    todo = list(closure)
    while todo:
        for module in package_imports(MODULE_FILES[todo.pop()]) - closure:
            closure.add(module)
            todo.append(module)
    expected = {MODULE_FILES[m].relative_to(PACKAGE).as_posix() for m in closure}
    assert {"solver/_search.py", "solver/_potential.py", "game/deal.py"} <= expected
    assert set(kernels.KERNEL_SOURCES) == expected


def test_no_module_takes_njit_from_numba_itself():
    for name, path in MODULE_FILES.items():
        if name == "prefstats.game.kernels":
            continue
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module == "numba":
                assert "njit" not in {a.name for a in node.names}, f"{name} imports numba's njit"
            if isinstance(node, ast.Attribute) and node.attr in {"njit", "jit"}:
                assert not isinstance(node.value, ast.Name) or node.value.id not in {
                    "nb",
                    "numba",
                }, f"{name} line {node.lineno} calls numba's {node.attr}"


def test_every_cached_kernel_is_cached_in_the_hashed_directory():
    dispatchers = []
    for source in kernels.KERNEL_SOURCES:
        name = "prefstats." + source.removesuffix(".py").replace("/", ".")
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, numba.core.registry.CPUDispatcher) and value.__module__ == name:
                dispatchers.append(value)
    cached = [d for d in dispatchers if hasattr(d._cache, "_cache_path")]
    assert len(cached) > 50  # the search, the potential, the deals, the bidding, the tables
    outside = [
        d.__name__ for d in cached if not d._cache._cache_path.startswith(str(kernels.CACHE_DIR))
    ]
    assert not outside
    assert kernels.CACHE_DIR.name == kernels.CACHE_PREFIX + kernels.sources_hash(
        tuple(PACKAGE / source for source in kernels.KERNEL_SOURCES)
    )


def test_the_hash_follows_every_byte_of_every_source(tmp_path):
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text("X = 1\n")
    second.write_text("Y = 2\n")
    before = kernels.sources_hash((first, second))
    assert kernels.sources_hash((first, second)) == before
    second.write_text("Y = 3\n")
    assert kernels.sources_hash((first, second)) != before
    second.write_text("Y = 2\n")
    assert kernels.sources_hash((first, second)) == before


def test_older_caches_beyond_the_kept_ones_are_dropped(tmp_path):
    made = []
    for index in range(kernels.KEPT_CACHES + 2):
        cache = tmp_path / f"{kernels.CACHE_PREFIX}{index:016x}"
        cache.mkdir()
        (cache / "kernel.nbc").write_bytes(b"")
        made.append(cache)
        os.utime(cache, (1_000_000 + index, 1_000_000 + index))
    (tmp_path / "unrelated").mkdir()
    kernels._drop_older(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [p.name for p in made[-kernels.KEPT_CACHES :]] + ["unrelated"]
    )
