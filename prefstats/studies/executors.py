"""Where a run's chunks are computed: in this process, on local loky processes, or on a dask
cluster (docs/design.md, "Runs").

:func:`executor` gives a function that runs tasks (argument tuples of one work function) on a
backend, in any order, yielding each one's result as it finishes; the workers stop with the
block, also when it is interrupted. A worker process watches the process that started the run
and ends itself when that one is gone, so no worker keeps computing for a run nobody waits for.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from joblib import Parallel, delayed, parallel_config
from joblib.externals.loky import get_reusable_executor

from prefstats.studies.storage import RunError, one_line

BACKENDS = ("loky", "dask")
SCHEDULER_TIMEOUT = "10s"  # how long to wait for an external dask scheduler
OWNER_POLL_SECONDS = 0.5  # how often a worker checks that the run's process is still there

Task = tuple[Any, ...]
Work = Callable[..., int]
RunAll = Callable[[Sequence[Task]], Iterator[int]]


def check_backend(jobs: int, backend: str, scheduler: str | None) -> None:
    """ValueError unless ``jobs``, ``backend`` and ``scheduler`` make sense together."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if scheduler and backend != "dask":
        raise ValueError("--scheduler needs --backend dask")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")


@contextlib.contextmanager
def executor(work: Work, jobs: int, backend: str, scheduler: str | None) -> Iterator[RunAll]:
    """A function running ``work(*task)`` for tasks on the backend (in any order, yielding each
    result as it finishes); the workers stop with the block, also when it is interrupted."""
    if jobs == 1 and backend == "loky":
        yield lambda tasks: (work(*task) for task in tasks)
        return
    if backend == "loky":
        try:
            yield lambda tasks: _parallel(work, tasks, n_jobs=jobs)
        except BaseException:
            get_reusable_executor().shutdown(wait=False, kill_workers=True)
            raise
        return
    with _dask_client(scheduler, jobs), parallel_config(backend="dask"):
        yield lambda tasks: _parallel(work, tasks)


def _parallel(work: Work, tasks: Sequence[Task], n_jobs: int | None = None) -> Iterator[int]:
    owner = (socket.gethostname(), os.getpid())
    calls = (delayed(_in_worker)(owner, work, *task) for task in tasks)
    yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(calls)


def _in_worker(owner: tuple[str, int], work: Work, *task: Any) -> int:
    """``work(*task)`` in a worker process, which exits if the run's own process is gone."""
    _watch_owner(owner)
    return work(*task)


def _watch_owner(owner: tuple[str, int]) -> None:
    """Once per worker: a thread that ends this process when the process that started the run
    (on this machine) is gone, so that no worker keeps computing for a run nobody waits for."""
    host, pid = owner
    if host != socket.gethostname() or pid == os.getpid() or owner in _WATCHED:
        return
    _WATCHED.add(owner)

    def watch() -> None:
        while True:
            time.sleep(OWNER_POLL_SECONDS)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(3)
            except PermissionError:  # alive, owned by someone else: a pid reused, or shared
                continue

    threading.Thread(target=watch, name="prefstats-owner-watch", daemon=True).start()


_WATCHED: set[tuple[str, int]] = set()


@contextlib.contextmanager
def _dask_client(scheduler: str | None, jobs: int) -> Iterator[Any]:
    """A dask client of the scheduler (or of a LocalCluster of ``jobs`` processes)."""
    try:
        from dask.distributed import Client, LocalCluster  # the optional 'distributed' extra
    except ImportError:  # pragma: no cover - depends on the installed extras
        raise RunError("the dask backend needs the 'distributed' extra") from None
    if not scheduler:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True)
        with cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as err:
        raise RunError(f"cannot reach the dask scheduler at {scheduler}: {one_line(err)}") from None
    with client:
        yield client
