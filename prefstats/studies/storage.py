"""How a run's files are stored: parquet with provenance, shipped CSV tables, atomic writes
(docs/design.md, "Runs" and "Shipped tables").

Every file is written to a temporary name beside its place (``.tmp-…``) and renamed onto it,
so a reader never sees half a file (a full disk leaves the old file or none); a run removes
the temporaries a killed run left in its folder. A run folder is held by one run at a time: a
lock file (``run.lock``: the owner's pid, host and start) that a second run reports in one line,
and that a run on the same host takes over when its owner is gone. Tables carry their
provenance: parquet in its metadata under the key ``prefstats``, a shipped CSV in ``#`` lines
above the rows, each a key and its value as JSON (escaped: no raw name can break a line).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "t.parquet"
...     write_table(pd.DataFrame({"x": [1, 2]}), path, {"seed": 1})
...     read_provenance(path)
{'seed': 1}
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

PROVENANCE_KEY = b"prefstats"
TEMPORARY_PREFIX = ".tmp-"  # the name of a file being written, until it is renamed into place
LOCK_FILE = "run.lock"
LOCK_TRIES = 20  # takes of a lock that another run keeps releasing or taking over
CSV_NOTE = "read with pandas.read_csv(path, comment='#')"


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
        os.chmod(temporary, 0o644)  # a file of the package, not mkstemp's private one
        yield temporary
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file."""
    with atomic_path(Path(path)) as temporary:
        Path(temporary).write_text(text, encoding="utf-8")


def remove_temporaries(folder: Path) -> int:
    """Remove the temporary files a killed writer left in ``folder``; returns how many.
    Call it only while holding the folder's lock (no live writer is there)."""
    removed = 0
    for path in Path(folder).glob(f"{TEMPORARY_PREFIX}*"):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed += 1
    return removed


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold ``folder`` for this process: RunError (one line naming the holder) if another live
    run holds it; a lock whose owner on this host is gone is stale and taken over."""
    path = Path(folder) / LOCK_FILE
    since = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    me = {"pid": os.getpid(), "host": socket.gethostname(), "since": since}
    for _ in range(LOCK_TRIES):
        if _create_exclusive(path, json.dumps(me, sort_keys=True)):
            break
        holder = _lock_holder(path)
        if holder is None:
            continue  # released or removed as stale meanwhile: try again
        if not _alive(holder):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            continue
        raise RunError(
            f"{folder} is in use by another run: pid {holder.get('pid')} on host "
            f"{holder.get('host')} since {holder.get('since')}; wait for it to end (or, if "
            f"that run is gone, delete {path})"
        )
    else:
        raise RunError(f"cannot take the lock {path}: other runs keep taking it")
    try:
        yield
    finally:
        if _lock_holder(path) == me:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def _create_exclusive(path: Path, text: str) -> bool:
    """Create ``path`` holding ``text`` whole, unless it exists (then False): a temporary file
    hard-linked into place (O_EXCL where the filesystem has no hard links)."""
    try:
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=TEMPORARY_PREFIX, suffix=path.suffix
        )
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.link(temporary, path)
        except (FileExistsError, FileNotFoundError):  # held; or our temporary was cleared
            return False
        except OSError:  # no hard links here
            with open(path, "x", encoding="utf-8") as out:
                out.write(text)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.remove(temporary)
    except FileExistsError:
        return False
    except OSError as err:
        raise RunError(f"cannot lock the run folder: {path}: {one_line(err)}") from None
    return True


def _lock_holder(path: Path) -> dict[str, Any] | None:
    """The owner recorded in a lock file; None if there is none. A lock that cannot be read
    names nobody on no host (so it is never taken for stale)."""
    try:
        holder = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {"pid": "?", "host": "?", "since": "?"}
    return holder if isinstance(holder, dict) else {"pid": "?", "host": "?", "since": "?"}


def _alive(holder: dict[str, Any]) -> bool:
    """Whether a lock's owner may still run: always, unless it is on this host and gone."""
    pid = holder.get("pid")
    if holder.get("host") != socket.gethostname() or not isinstance(pid, int) or pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by another user
        return True
    return True


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
    header: the title and one ``key: value`` line of provenance each, the value as JSON, then
    the rows)."""
    stem = Path(stem)
    write_table(table, stem.with_suffix(".parquet"), provenance)
    header = "".join(f"# {line}\n" for line in csv_header(provenance, title))
    body = table.to_csv(index=False, float_format="%.6g", lineterminator="\n")
    write_atomic(stem.with_suffix(".csv"), header + body)
    return [stem.with_suffix(".parquet"), stem.with_suffix(".csv")]


def csv_header(provenance: dict[str, Any], title: str) -> list[str]:
    r"""The ``#`` lines above a shipped CSV (without the ``# ``): the title (one printable line;
    a name in it is given as JSON) and one ``key: JSON`` line each, JSON escaping every
    character that could end a line (non-ASCII is escaped too).

    >>> csv_header({"run": "a\nb #c"}, "t")
    ["t (read with pandas.read_csv(path, comment='#'))", 'run: "a\\nb #c"']
    """
    if not title.isprintable():
        raise ValueError(f"a CSV title is one printable line, got {title!r}")
    for key in provenance:
        if not (isinstance(key, str) and key.isidentifier() and key.isascii()):
            raise ValueError(f"a provenance key is a plain name, got {key!r}")
    lines = [f"{title} ({CSV_NOTE})"]
    return lines + [
        f"{key}: {json.dumps(value, sort_keys=True)}" for key, value in provenance.items()
    ]


def read_csv(path: str | Path) -> pd.DataFrame:
    """A shipped CSV table (skips the ``#`` provenance header)."""
    return pd.read_csv(path, comment="#")


def read_csv_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance in the ``#`` header of a shipped CSV (``csv_header``'s inverse)."""
    lines = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.startswith("# "):
            break
        lines.append(line[2:])
    try:
        return {
            key: json.loads(value) for key, value in (line.split(": ", 1) for line in lines[1:])
        }
    except ValueError as err:
        raise RunError(f"{path}: the provenance header is not 'key: JSON' lines: {err}") from None
