"""The layers of docs/design.md hold: imports point down, no cycle, no import tucked inside a
function, no private name taken from another subpackage, the kernels' compiling and caching in
layer 0 and no kernel in the command line (a short walk over every module's AST)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "prefstats"
# Lowest first; a module may import its own subpackage and any lower layer.
LAYERS = {
    "version": 0,
    "stats": 0,
    "data": 0,
    "names": 0,
    "kernels": 0,
    "checks": 0,
    "game": 1,
    "solver": 2,
    "misere": 3,
    "players": 4,
    "studies": 5,
    "report": 6,
    "benchmarks": 7,
    "cli": 8,
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def group(module: str) -> str:
    """The subpackage (or base module) a module belongs to; ``""`` for the package root."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else ""


def imports(module: str) -> Iterator[tuple[ast.stmt, str, list[str], bool]]:
    """(node, imported prefstats module, names, at module level) for every import of a module."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    top = set(tree.body)
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "prefstats":
                    yield node, alias.name, [], node in top
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".")[0] != "prefstats":
                continue
            names = [alias.name for alias in node.names]
            modules = [name for name in names if f"{base}.{name}" in MODULES]
            for name in modules:  # ``from prefstats.x import module`` imports that module
                yield node, f"{base}.{name}", [], node in top
            if len(modules) < len(names):  # and only those, not the names of ``x`` itself
                yield node, base, names, node in top


def resolved(target: str) -> str:
    """The module a dotted import target names (a submodule, or the package it sits in)."""
    while target not in MODULES:
        target = target.rpartition(".")[0]
    return target


def test_every_module_has_a_layer():
    assert {group(m) for m in MODULES} - {""} <= set(LAYERS), "a new subpackage needs a layer"


# Modules allowed to break a rule while work on them is pending (strict xfail): none now.
PENDING: set[str] = set()
CHECKED = [
    pytest.param(m, marks=pytest.mark.xfail(strict=True)) if m in PENDING else m
    for m in sorted(MODULES)
]


@pytest.mark.parametrize("module", CHECKED)
def test_imports_point_down(module):
    if module in ("prefstats", "prefstats.__main__"):
        return  # the package root is the facade above every layer
    for node, target, _, _ in imports(module):
        imported = resolved(target)
        where = f"{module} line {node.lineno} imports {imported}"
        assert imported != "prefstats", f"{where}: the package root is for users, not modules"
        mine, theirs = group(module), group(imported)
        assert mine == theirs or LAYERS[theirs] < LAYERS[mine], f"{where}: an upward import"


@pytest.mark.parametrize("module", CHECKED)
def test_no_package_import_inside_a_function(module):
    for node, target, _, at_top in imports(module):
        assert at_top, f"{module} line {node.lineno} imports {target} inside a block"


@pytest.mark.parametrize("module", CHECKED)
def test_no_private_name_from_another_subpackage(module):
    for node, target, names, _ in imports(module):
        if group(resolved(target)) == group(module):
            continue
        private = [n for n in [*names, *target.split(".")] if _private(n)]
        assert not private, f"{module} line {node.lineno} takes {private} from {target}"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_import_cycle():
    graph = {m: {resolved(t) for _, t, _, _ in imports(m)} - {m} for m in MODULES}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(graph[module]):
            if state.get(nxt) == 1:
                cycle = [*path[path.index(nxt) :], nxt] if nxt in path else [module, nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def test_the_walk_sees_imports():
    """The checks above would pass vacuously if the walk found nothing: it must see these."""
    seen = {resolved(t) for _, t, _, _ in imports("prefstats.studies.study")}
    assert {"prefstats.game.deal", "prefstats.studies.runs", "prefstats.players.declarer"} <= seen
    relative = {resolved(t) for _, t, _, _ in imports("prefstats.solver._search")}
    assert "prefstats.solver._tables" in relative


KERNELS = "prefstats.kernels"  # numba's njit and its cache, for every kernel of the package
CACHE_WORDS = ("enable_caching", "CACHE_DIR", "NUMBA_CACHE_DIR", "numba.core.caching")


def numba_uses(module: str) -> Iterator[tuple[int, str]]:
    """(line, what) for each import from numba and each ``numba.njit``/``nb.jit``-like use."""
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "numba":
                    yield node.lineno, f"import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
            yield node.lineno, f"from {node.module} import " + ", ".join(a.name for a in node.names)
        elif isinstance(node, ast.Attribute) and node.attr in {"njit", "jit"}:
            yield node.lineno, f".{node.attr}"


def test_the_kernel_infrastructure_is_in_layer_0():
    assert LAYERS[group(KERNELS)] == 0
    assert not [t for _, t, _, _ in imports(KERNELS)], "layer 0 imports nothing of the package"


@pytest.mark.parametrize("module", sorted(set(MODULES) - {KERNELS}))
def test_only_the_kernel_module_compiles_with_numba_or_caches(module):
    """Kernels take ``njit`` from ``prefstats.kernels``; none from numba, none defined again."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    defined = [
        n.lineno for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "njit"
    ]
    assert not defined, f"{module} line {defined[0]} defines its own njit"
    for line, what in numba_uses(module):
        assert not any(name in what for name in ("njit", "jit", "dispatcher", "caching")), (
            f"{module} line {line}: {what} (kernels are made by prefstats.kernels.njit)"
        )
    text = MODULES[module].read_text(encoding="utf-8")
    assert not [word for word in CACHE_WORDS if word in text], f"{module} manages numba's cache"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if group(m) == "cli"))
def test_the_command_line_defines_no_kernel(module):
    assert not list(numba_uses(module)), f"{module} uses numba: kernels live below the cli"
    assert not any(t == KERNELS for _, t, _, _ in imports(module)), f"{module} makes kernels"


def test_the_kernel_walks_see_uses():
    """The two rules above would pass vacuously if the walk found nothing: it must see these."""
    assert any(what.startswith("from numba ") for _, what in numba_uses("prefstats.solver._search"))
    assert any("dispatcher" in what for _, what in numba_uses(KERNELS))
    assert any(target == KERNELS for _, target, _, _ in imports("prefstats.solver._search"))
