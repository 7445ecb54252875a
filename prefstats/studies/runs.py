"""The one run driver: chunked, verified, resumable, reproducible (docs/design.md, "Runs").

A run is a folder: ``run.json`` (the spec, written once, atomically) and one parquet file per
chunk of rows. Chunk ``i`` holds rows ``start`` … ``start + rows − 1``; the chunk function gets
that range (a :class:`Chunk`) and must compute its rows from the spec and the row numbers
alone, so a run's table does not depend on its chunk size, its workers or its backend.

Every chunk is written to a temporary file and renamed into place, then its **seal** beside it
(``chunk-00000.seal``: the spec's digest, the row range and the SHA-256 of the chunk's bytes).
A chunk is used only if its seal matches the run and the file: a chunk copied in from another
run, truncated, with flipped bytes, with the wrong number of rows or without a seal is never
read. :func:`run_chunks` moves such a chunk aside into ``quarantine/``, says which file and why
in one line, and recomputes it; :func:`load_run` refuses the run with the same line. A rerun of
the same command skips the sealed chunks, so a stopped run loses at most the chunks in flight.

The files themselves are written by ``storage`` (atomic writes, provenance) and the chunks are
computed by ``executors`` (in this process, on loky processes or on a dask cluster).

>>> import tempfile
>>> import numpy as np
>>> def draws(spec: dict, chunk: Chunk) -> pd.DataFrame:
...     return pd.DataFrame({"row": np.arange(chunk.start, chunk.start + chunk.rows)})
>>> with tempfile.TemporaryDirectory() as folder:
...     spec = {"kind": "demo", "n": 10, "chunk_size": 4, "seed": 1}
...     written = run_chunks(draws, spec, folder, progress=False)
...     len(written), load_run(folder)["row"].tolist() == list(range(10))
(3, True)
"""

from __future__ import annotations

import errno
import hashlib
import itertools
import json
import os
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

from prefstats.checks import is_int
from prefstats.studies.executors import WorkersDied, check_backend, executor
from prefstats.studies.storage import (
    RunError,
    file_digest,
    folder_lock,
    one_line,
    remove_temporaries,
    write_atomic,
    write_table,
)

SPEC_FILE = "run.json"
QUARANTINE = "quarantine"
MAX_CHUNKS = 1_000_000  # two files a chunk: more is no folder a filesystem lists in good time
FULL_DISK = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


@dataclass(frozen=True)
class Chunk:
    """Chunk ``index`` of a run: rows ``start`` … ``start + rows − 1``."""

    index: int
    start: int
    rows: int


# function(spec, chunk) -> the chunk's table of ``chunk.rows`` rows, from the spec and the rows.
ChunkFunction = Callable[[dict[str, Any], Chunk], pd.DataFrame]
# check(table) -> None, or the reason the rows make no sense.
RowCheck = Callable[[pd.DataFrame], str | None]


def chunk_sizes(spec: dict[str, Any]) -> list[int]:
    """Rows of each chunk: ``spec["chunk_rows"]`` if given, else full chunks of
    ``spec["chunk_size"]`` and a last partial one of ``spec["n"]`` rows in all.

    >>> chunk_sizes({"n": 10, "chunk_size": 4})
    [4, 4, 2]
    """
    if "chunk_rows" in spec:
        return [int(rows) for rows in spec["chunk_rows"]]
    n, size = spec["n"], spec["chunk_size"]
    full, rest = divmod(n, size)
    return [size] * full + ([rest] if rest else [])


def chunks_of(spec: dict[str, Any]) -> list[Chunk]:
    """The chunks of a run, in order (in time linear in their number).

    >>> chunks_of({"n": 10, "chunk_size": 4})[-1]
    Chunk(index=2, start=8, rows=2)
    """
    sizes = chunk_sizes(spec)
    starts = itertools.accumulate(sizes, initial=0)
    pairs = zip(starts, sizes, strict=False)  # accumulate gives one start more: the end
    return [Chunk(i, start, rows) for i, (start, rows) in enumerate(pairs)]


def chunk_path(folder: Path, index: int) -> Path:
    """Where chunk ``index`` of a run lives."""
    return Path(folder) / f"chunk-{index:05d}.parquet"


def seal_path(folder: Path, index: int) -> Path:
    """Where the seal of chunk ``index`` lives."""
    return chunk_path(folder, index).with_suffix(".seal")


def spec_digest(spec: dict[str, Any]) -> str:
    """SHA-256 of the spec's canonical JSON: what a chunk's seal ties it to."""
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()


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
    check: RowCheck | None = None,
    say: Callable[[str], None] | None = None,
) -> list[Path]:
    """Compute every chunk of the run ``spec`` describes that ``folder`` lacks a sealed copy of.

    ``spec`` holds ``n`` and ``chunk_size`` (or ``chunk_rows``), plus whatever ``function``
    reads; it is the run's provenance. ``backend``: ``loky`` (local processes) or ``dask``
    (a dask client of the ``scheduler`` address, or of a LocalCluster started here).
    A chunk that fails its seal, its number of rows or ``check`` of its rows is quarantined
    with a line through ``say`` (default: standard error) and recomputed. The run holds the
    folder's lock while it works (a second run on it stops with RunError naming the holder)
    and first removes the temporary files a killed run left. Workers that keep dying on a
    chunk end the run with RunError naming the chunk (``executors``).
    """
    check_backend(jobs, backend, scheduler)
    folder = Path(folder).resolve()  # workers elsewhere must find the same folder
    spec = _checked_spec(spec)
    _check_claim(folder, spec)
    say = say or _to_stderr
    with executor(compute_chunk, jobs, backend, scheduler) as run_all:
        _make_folder(folder)  # only once the workers are there: no run folder for nothing
        with folder_lock(folder):
            _claim_folder(folder, spec)
            remove_temporaries(folder)
            todo = _chunks_to_compute(folder, spec, check, say)
            done = spec["n"] - sum(chunk.rows for chunk in todo)
            bar = tqdm(
                total=spec["n"],
                initial=done,
                unit=unit,
                unit_scale=True,
                disable=not progress,
                desc=folder.name,
            )
            try:
                with bar:
                    for rows in run_all([(function, spec, folder, chunk) for chunk in todo]):
                        bar.update(rows)
            except WorkersDied as died:
                name = chunk_path(folder, died.task[-1].index).name
                raise RunError(
                    f"{name}: {died}; the chunks done are kept: rerun the same command to resume"
                ) from None
    return [chunk_path(folder, chunk.index) for chunk in chunks_of(spec)]


def _chunks_to_compute(
    folder: Path, spec: dict[str, Any], check: RowCheck | None, say: Callable[[str], None]
) -> list[Chunk]:
    """The chunks the folder lacks a sound copy of; unsound ones are quarantined."""
    todo = []
    for chunk in chunks_of(spec):
        problem = chunk_problem(folder, spec, chunk)
        if problem is None:
            problem = _read_checked(chunk_path(folder, chunk.index), chunk, check)[1]
        if problem is not None and chunk_path(folder, chunk.index).exists():
            quarantine(folder, chunk.index, problem, say)
        if problem is not None:
            todo.append(chunk)
    return todo


def compute_chunk(function: ChunkFunction, spec: dict[str, Any], folder: Path, chunk: Chunk) -> int:
    """Compute a chunk, write it atomically and seal it; returns its number of rows."""
    started = time.process_time()
    table = function(spec, chunk)
    if len(table) != chunk.rows:
        raise ValueError(f"chunk {chunk.index} has {len(table)} rows, expected {chunk.rows}")
    digest = spec_digest(spec)
    path = chunk_path(folder, chunk.index)
    seconds = round(time.process_time() - started, 3)
    try:
        write_table(
            table,
            path,
            {
                **spec,
                "chunk": chunk.index,
                "start": chunk.start,
                "rows": chunk.rows,
                "spec_digest": digest,
                "cpu_seconds": seconds,
            },
        )
        seal = {
            "spec_digest": digest,
            "chunk": chunk.index,
            "start": chunk.start,
            "rows": chunk.rows,
            "sha256": file_digest(path),
        }
        write_atomic(seal_path(folder, chunk.index), json.dumps(seal, sort_keys=True))
    except OSError as err:
        raise RunError(
            f"the worker on {socket.gethostname()} cannot write {path}: "
            f"{one_line(err)}{_write_hint(folder, err)}"
        ) from None
    return len(table)


def _write_hint(folder: Path, err: OSError) -> str:
    """Why a chunk could not be written, when the error says: a full disk, or a run folder
    this worker cannot see (a cluster without a shared filesystem)."""
    if err.errno in FULL_DISK:
        return " (the disk holding the run folder is full: free space, then rerun to resume)"
    if not folder.is_dir():
        return (
            " (the run folder is not there on this machine: every worker of a cluster "
            "must see it, on a shared filesystem)"
        )
    return ""


def chunk_problem(folder: Path, spec: dict[str, Any], chunk: Chunk) -> str | None:
    """None if the chunk is present, sealed for this run and whole; else why not (one line)."""
    path, seal_file = chunk_path(folder, chunk.index), seal_path(folder, chunk.index)
    if not path.exists():
        return "missing"
    try:
        seal = json.loads(seal_file.read_text())
        expected = {
            "spec_digest": spec_digest(spec),
            "chunk": chunk.index,
            "start": chunk.start,
            "rows": chunk.rows,
        }
        wrong = sorted(key for key, value in expected.items() if seal.get(key) != value)
        sha = seal.get("sha256")
    except (OSError, ValueError, AttributeError):
        return "no valid seal (written by another program, or stopped while sealing)"
    if "spec_digest" in wrong:
        return "sealed for another run (another spec: seed, size or options)"
    if wrong:
        return f"sealed for other rows ({', '.join(wrong)} differ)"
    if file_digest(path) != sha:
        return "its bytes changed after it was sealed (damaged or replaced)"
    return None


def quarantine(folder: Path, index: int, reason: str, say: Callable[[str], None]) -> None:
    """Move chunk ``index`` and its seal into ``quarantine/`` and say why in one line."""
    target = folder / QUARANTINE
    target.mkdir(exist_ok=True)
    for path in (chunk_path(folder, index), seal_path(folder, index)):
        if path.exists():
            os.replace(path, target / path.name)
    say(f"{chunk_path(folder, index).name}: {reason}; moved to {QUARANTINE}/, recomputing it")


def load_run(
    folder: str | Path, *, complete: bool = True, check: RowCheck | None = None
) -> pd.DataFrame:
    """All rows of a run, in chunk order, every chunk verified: its seal, its bytes, its number
    of rows and, if given, ``check`` of its rows.

    Raises RunError naming the first bad chunk; with ``complete=False`` missing chunks are
    skipped (damaged ones still raise).
    """
    folder = Path(folder)
    spec = read_spec(folder)
    chunks = chunks_of(spec)
    problems = [chunk_problem(folder, spec, chunk) for chunk in chunks]
    missing = [c for c, p in zip(chunks, problems, strict=True) if p == "missing"]
    if missing and complete and len(missing) == sum(p is not None for p in problems):
        raise RunError(
            f"run {folder} is incomplete: {len(missing)} chunk(s) missing, e.g. "
            f"{chunk_path(folder, missing[0].index).name}; rerun the same command "
            "to resume"
        )
    tables: list[pd.DataFrame] = []
    for chunk, problem in zip(chunks, problems, strict=True):
        path = chunk_path(folder, chunk.index)
        if problem == "missing" and not complete:
            continue
        if problem is None:
            table, problem = _read_checked(path, chunk, check)
        if problem is not None:
            raise RunError(
                f"run {folder}: {path.name}: {problem}; rerun the command that made "
                "the run to repair it"
            )
        if tables and list(table.columns) != list(tables[0].columns):
            raise RunError(
                f"run {folder}: {path.name} has other columns than the first chunk "
                "(written by another version of prefstats?); delete the run and run "
                "it again"
            )
        tables.append(table)
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()


def _read_checked(
    path: Path, chunk: Chunk, check: RowCheck | None
) -> tuple[pd.DataFrame, str | None]:
    """The chunk's rows, and what is wrong with them (None if nothing)."""
    try:
        table = pd.read_parquet(path)
    except (OSError, ValueError) as err:
        return pd.DataFrame(), f"unreadable: {one_line(err)}"
    if len(table) != chunk.rows:
        return table, f"{len(table)} rows, not {chunk.rows}"
    reason = check(table) if check is not None else None
    return table, None if reason is None else f"rows make no sense: {reason}"


def read_spec(folder: str | Path) -> dict[str, Any]:
    """The spec of the run in ``folder``; RunError if it is not a readable run."""
    path = Path(folder) / SPEC_FILE
    if Path(folder).exists() and not Path(folder).is_dir():
        raise RunError(f"{folder} is a file, not a prefstats run folder")
    if not path.exists():
        raise RunError(f"{folder} is not a prefstats run (no {SPEC_FILE})")
    try:
        spec = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise RunError(f"{path} is not readable JSON: {one_line(err)}") from None
    if not isinstance(spec, dict):
        raise RunError(f"{path} does not hold a run spec")
    try:
        _checked_spec(spec)
    except ValueError as err:
        raise RunError(f"{path}: {err}") from None
    return spec


def _checked_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec as plain JSON; ValueError unless it describes rows and chunks, at most
    ``MAX_CHUNKS`` of them."""
    if not _count(spec.get("n")):
        raise ValueError(f"a run spec needs a non-negative integer 'n', got {spec.get('n')!r}")
    if "chunk_rows" in spec:
        rows = spec["chunk_rows"]
        if not isinstance(rows, list) or not all(_count(r) for r in rows):
            raise ValueError(f"'chunk_rows' must be a list of row counts, got {rows!r}")
        if sum(rows) != spec["n"]:
            raise ValueError(f"chunk_rows add up to {sum(rows)}, not n = {spec['n']}")
    elif not _count(spec.get("chunk_size")) or spec["chunk_size"] == 0:
        raise ValueError(
            f"a run spec needs a positive integer 'chunk_size', got {spec.get('chunk_size')!r}"
        )
    rows = spec.get("chunk_rows")
    chunks = len(rows) if rows is not None else -(-spec["n"] // spec["chunk_size"])
    if chunks > MAX_CHUNKS:
        raise ValueError(
            f"{spec['n']:,} rows make {chunks:,} chunks, more than the "
            f"{MAX_CHUNKS:,} a run folder holds: use larger chunks"
        )
    plain: dict[str, Any] = json.loads(json.dumps(spec))  # plain JSON: it is stored with the data
    return plain


def _count(value: object) -> bool:
    return is_int(value) and bool(value >= 0)


def _check_claim(folder: Path, spec: dict[str, Any]) -> None:
    """RunError unless ``folder`` is a new run folder that can be written, or this very run."""
    if folder.exists() and not folder.is_dir():
        raise RunError(f"{folder} is a file, not a run folder")
    if (folder / SPEC_FILE).exists():
        old = read_spec(folder)
        if old != spec:
            changed = sorted(k for k in old.keys() | spec.keys() if old.get(k) != spec.get(k))
            raise RunError(
                f"{folder} holds a different run (differs in {', '.join(changed)}); "
                "use another --out or delete the folder"
            )
        return
    parent = next(p for p in (folder, *folder.parents) if p.exists())
    if not os.access(parent, os.W_OK | os.X_OK):
        raise RunError(f"cannot create the run folder {folder}: {parent} is not writable")


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise RunError(f"cannot create the run folder {folder}: {one_line(err)}") from None


def _claim_folder(folder: Path, spec: dict[str, Any]) -> None:
    """Record the spec in a new run folder (atomically), or keep an existing run's."""
    _check_claim(folder, spec)
    if (folder / SPEC_FILE).exists():
        return
    try:
        write_atomic(folder / SPEC_FILE, json.dumps(spec, indent=2, sort_keys=True))
    except OSError as err:
        raise RunError(f"cannot write the run folder {folder}: {one_line(err)}") from None


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)
