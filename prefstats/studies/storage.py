"""How a run's files are stored: parquet with provenance, shipped CSV tables, atomic writes
(docs/design.md, "Runs" and "Provenance").

Every file is written to a temporary name beside its place (``.tmp-…``) and renamed onto it,
so a reader never sees half a file. Tables carry their provenance: parquet in its metadata
under the key ``prefstats``, a shipped CSV in a ``#`` header above the rows.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "t.parquet"
...     write_table(pd.DataFrame({"x": [1, 2]}), path, {"seed": 1})
...     read_provenance(path)
{'seed': 1}
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

PROVENANCE_KEY = b"prefstats"
TEMPORARY_PREFIX = ".tmp-"  # the name of a file being written, until it is renamed into place


class RunError(ValueError):
    """A run folder that cannot be used as it is; the message is one line naming the file."""


def one_line(err: BaseException | str) -> str:
    """An error's message on one line (its type's name when it has none)."""
    return " ".join(str(err).split()) or type(err).__name__


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[str]:
    """A temporary file beside ``path``, renamed onto it when the block succeeds."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        dir=path.parent, prefix=TEMPORARY_PREFIX, suffix=path.suffix
    )
    os.close(handle)
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file."""
    with atomic_path(Path(path)) as temporary:
        Path(temporary).write_text(text, encoding="utf-8")


def write_table(table: pd.DataFrame, path: Path, provenance: dict[str, Any]) -> None:
    """Write ``table`` as parquet with ``provenance`` in its metadata, atomically."""
    arrow = pa.Table.from_pandas(table, preserve_index=False)
    meta = {**(arrow.schema.metadata or {}), PROVENANCE_KEY: json.dumps(provenance).encode()}
    arrow = arrow.replace_schema_metadata(meta)
    with atomic_path(Path(path)) as temporary:
        pq.write_table(arrow, temporary)


def read_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance stored in a parquet file written by ``write_table``."""
    try:
        meta = pq.read_schema(path).metadata or {}
    except (OSError, ValueError) as err:
        raise RunError(f"{path}: not a readable parquet file: {one_line(err)}") from None
    if PROVENANCE_KEY not in meta:
        raise RunError(f"{path} has no prefstats provenance")
    result: dict[str, Any] = json.loads(meta[PROVENANCE_KEY])
    return result


def write_shipped(
    table: pd.DataFrame, stem: Path, provenance: dict[str, Any], title: str
) -> list[Path]:
    """A shipped table: ``stem``.parquet (provenance in the metadata) and ``stem``.csv (a ``#``
    header: the title and one ``key: value`` line of provenance each, then the rows)."""
    stem = Path(stem)
    write_table(table, stem.with_suffix(".parquet"), provenance)
    stem.with_suffix(".parquet").chmod(0o644)  # mkstemp's private mode is not for shipped data
    header = "".join(f"# {line}\n" for line in csv_header(provenance, title))
    body = table.to_csv(index=False, float_format="%.6g", lineterminator="\n")
    write_atomic(stem.with_suffix(".csv"), header + body)
    return [stem.with_suffix(".parquet"), stem.with_suffix(".csv")]


def csv_header(provenance: dict[str, Any], title: str) -> list[str]:
    """The ``#`` lines above a shipped CSV (without the ``# ``)."""
    lines = [f"{title} (read with pandas.read_csv(path, comment='#'))"]
    return lines + [f"{key}: {json.dumps(value, sort_keys=True)}" for key, value in
                    provenance.items()]  # fmt: skip


def read_csv(path: str | Path) -> pd.DataFrame:
    """A shipped CSV table (skips the ``#`` provenance header)."""
    return pd.read_csv(path, comment="#")
