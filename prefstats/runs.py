"""Chunked, resumable, reproducible Monte Carlo runs (DESIGN.md principle 7).

A run is a folder of parquet chunks. Chunk ``i`` is computed from its own seed,
``SeedSequence(seed, spawn_key=(i,))``, so its rows are the same on any backend and any number
of workers. Each finished chunk is written to a temporary file and renamed into place, with the
run's provenance in the parquet metadata; rerunning the same command skips finished chunks, so a
stopped run loses at most the chunks in flight.

>>> import tempfile, pandas as pd
>>> def draws(spec: dict, rows: int, seed: np.random.SeedSequence) -> pd.DataFrame:
...     return pd.DataFrame({"x": np.random.default_rng(seed).integers(0, 9, rows)})
>>> with tempfile.TemporaryDirectory() as folder:
...     spec = {"kind": "demo", "n": 10, "chunk_size": 4, "seed": 1}
...     written = run_chunks(draws, spec, folder, progress=False)
...     len(written), len(load_run(folder))
(3, 10)
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm.auto import tqdm

# function(spec, rows, seed) -> the chunk's table of ``rows`` rows, drawn from ``seed`` alone.
ChunkFunction = Callable[[dict[str, Any], int, np.random.SeedSequence], pd.DataFrame]
PROVENANCE_KEY = b"prefstats"
SPEC_FILE = "run.json"


def chunk_sizes(n: int, chunk_size: int) -> list[int]:
    """Rows of each chunk: full chunks and a last partial one.

    >>> chunk_sizes(10, 4)
    [4, 4, 2]
    """
    if n < 0 or chunk_size <= 0:
        raise ValueError(f"need n >= 0 and chunk_size > 0, got n={n}, chunk_size={chunk_size}")
    full, rest = divmod(n, chunk_size)
    return [chunk_size] * full + ([rest] if rest else [])


def chunk_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed of chunk ``index``: independent of the number of chunks and of the workers."""
    return np.random.SeedSequence(seed, spawn_key=(index,))


def chunk_path(folder: Path, index: int) -> Path:
    """Where chunk ``index`` of a run lives."""
    return folder / f"chunk-{index:05d}.parquet"


def run_chunks(
    function: ChunkFunction,
    spec: dict[str, Any],
    folder: str | Path,
    *,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool = True,
    unit: str = "deal",
) -> list[Path]:
    """Compute every missing chunk of the run described by ``spec`` into ``folder``.

    ``spec`` must hold ``n``, ``chunk_size`` and ``seed``, plus whatever ``function`` reads; it
    is the run's provenance. ``backend`` is ``loky`` (local processes) or ``dask`` (joblib's dask
    backend on the ``scheduler`` address, or on a LocalCluster started here).
    """
    folder = Path(folder)
    spec = _checked_spec(spec)
    _claim_folder(folder, spec)
    sizes = chunk_sizes(spec["n"], spec["chunk_size"])
    todo = [i for i in range(len(sizes)) if not chunk_path(folder, i).exists()]
    done_rows = sum(sizes) - sum(sizes[i] for i in todo)
    bar = tqdm(
        total=spec["n"], initial=done_rows, unit=unit, unit_scale=True, disable=not progress,
        desc=folder.name,
    )  # fmt: skip
    with bar:
        for rows in _execute(function, spec, folder, todo, jobs, backend, scheduler):
            bar.update(rows)
    return [chunk_path(folder, i) for i in range(len(sizes))]


def compute_chunk(function: ChunkFunction, spec: dict[str, Any], folder: Path, index: int) -> int:
    """Compute chunk ``index`` and write it atomically; returns its number of rows."""
    rows = chunk_sizes(spec["n"], spec["chunk_size"])[index]
    table = function(spec, rows, chunk_seed(spec["seed"], index))
    if len(table) != rows:
        raise ValueError(f"chunk {index} has {len(table)} rows, expected {rows}")
    write_table(table, chunk_path(folder, index), {**spec, "chunk": index})
    return len(table)


def write_table(table: pd.DataFrame, path: Path, provenance: dict[str, Any]) -> None:
    """Write ``table`` as parquet with ``provenance`` in its metadata, atomically."""
    arrow = pa.Table.from_pandas(table, preserve_index=False)
    meta = {**(arrow.schema.metadata or {}), PROVENANCE_KEY: json.dumps(provenance).encode()}
    arrow = arrow.replace_schema_metadata(meta)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".parquet")
    os.close(handle)
    try:
        pq.write_table(arrow, temporary)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def read_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance stored in a parquet file written by ``write_table``."""
    meta = pq.read_schema(path).metadata or {}
    if PROVENANCE_KEY not in meta:
        raise ValueError(f"{path} has no prefstats provenance")
    result: dict[str, Any] = json.loads(meta[PROVENANCE_KEY])
    return result


def read_spec(folder: str | Path) -> dict[str, Any]:
    """The spec of the run in ``folder``."""
    path = Path(folder) / SPEC_FILE
    if not path.exists():
        raise ValueError(f"{folder} is not a prefstats run (no {SPEC_FILE})")
    spec: dict[str, Any] = json.loads(path.read_text())
    return spec


def load_run(folder: str | Path, *, complete: bool = True) -> pd.DataFrame:
    """All rows of a run, in chunk order. Raises if chunks are missing unless ``complete=False``."""
    folder = Path(folder)
    spec = read_spec(folder)
    paths = [chunk_path(folder, i) for i in range(len(chunk_sizes(spec["n"], spec["chunk_size"])))]
    missing = [p.name for p in paths if not p.exists()]
    if missing and complete:
        raise ValueError(f"run {folder} is incomplete: {len(missing)} chunk(s) missing, "
                         f"e.g. {missing[0]}; rerun the same command to resume")  # fmt: skip
    tables = [pd.read_parquet(p) for p in paths if p.exists()]
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()


def _checked_spec(spec: dict[str, Any]) -> dict[str, Any]:
    for key in ("n", "chunk_size", "seed"):
        if not isinstance(spec.get(key), int) or isinstance(spec.get(key), bool):
            raise ValueError(f"a run spec needs an integer {key!r}, got {spec.get(key)!r}")
    chunk_sizes(spec["n"], spec["chunk_size"])
    return json.loads(json.dumps(spec))  # plain JSON values only: it is stored with the data


def _claim_folder(folder: Path, spec: dict[str, Any]) -> None:
    """Record the spec in a new run folder, or check that an existing run is the same study."""
    path = folder / SPEC_FILE
    if path.exists():
        old = json.loads(path.read_text())
        if old != spec:
            changed = sorted(k for k in old.keys() | spec.keys() if old.get(k) != spec.get(k))
            raise ValueError(
                f"{folder} holds a different run (differs in {', '.join(changed)}); "
                "use another --out or delete the folder"
            )
        return
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(spec, indent=2, sort_keys=True))


def _execute(
    function: ChunkFunction,
    spec: dict[str, Any],
    folder: Path,
    todo: list[int],
    jobs: int,
    backend: str,
    scheduler: str | None,
) -> Iterator[int]:
    if backend not in ("loky", "dask"):
        raise ValueError(f"backend must be 'loky' or 'dask', got {backend!r}")
    if jobs == 1 and backend == "loky":
        for index in todo:
            yield compute_chunk(function, spec, folder, index)
        return
    from joblib import Parallel, delayed, parallel_config

    tasks = (delayed(compute_chunk)(function, spec, folder, i) for i in todo)
    if backend == "loky":
        yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks)
        return
    with _dask_client(scheduler, jobs), parallel_config(backend="dask"):
        yield from Parallel(return_as="generator_unordered")(tasks)


def _dask_client(scheduler: str | None, jobs: int) -> Any:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as err:  # pragma: no cover - depends on the installed extras
        raise ValueError("the dask backend needs the 'distributed' extra") from err
    if scheduler:
        return Client(scheduler)
    cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True)
    return Client(cluster)
