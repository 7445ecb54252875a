"""Where a run's chunks are computed: in this process, on local loky processes, or on a dask
cluster (docs/design.md, "Runs").

:func:`executor` gives a function that runs tasks (argument tuples of one work function) on a
backend, in any order, yielding each one's result as it finishes; the workers stop with the
block, also when it is interrupted.

What a dying worker costs: a task whose loky worker dies is retried once (in a fresh pool);
a task whose dask workers keep dying (the scheduler gives up after its ``allowed-failures``)
is resubmitted up to ``DASK_ATTEMPTS`` times in all. Past that, :class:`WorkersDied` names the
task and the cause in one line; the tasks already done are kept. A loky worker watches the
process that started the run from the moment it starts (a dask worker from its first task) and
ends itself when that process is gone, so no worker outlives a killed run for long.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, wait
from typing import Any

from joblib.externals.loky import get_reusable_executor
from joblib.externals.loky.backend import resource_tracker
from joblib.externals.loky.process_executor import BrokenProcessPool

from prefstats.checks import positive
from prefstats.studies.storage import RunError, one_line

BACKENDS = ("loky", "dask")
SCHEDULER_TIMEOUT = "10s"  # how long to wait for an external dask scheduler
OWNER_POLL_SECONDS = 0.5  # how often a worker checks that the run's process is still there
LOKY_ATTEMPTS = 2  # a task whose worker died is retried once
DASK_ATTEMPTS = 3  # submissions of a task whose workers keep dying (each: the scheduler's retries)

Task = tuple[Any, ...]
Work = Callable[..., int]
RunAll = Callable[[Sequence[Task]], Iterator[int]]


class WorkersDied(RunError):
    """The workers computing ``task`` died too often; the message is one line with the cause."""

    def __init__(self, task: Task, deaths: int, cause: str) -> None:
        super().__init__(f"workers died {deaths} times computing it ({cause})")
        self.task = task


def check_backend(jobs: int, backend: str, scheduler: str | None) -> None:
    """ValueError unless ``jobs``, ``backend`` and ``scheduler`` make sense together."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if scheduler and backend != "dask":
        raise ValueError("--scheduler needs --backend dask")
    positive("jobs", jobs)


@contextlib.contextmanager
def executor(work: Work, jobs: int, backend: str, scheduler: str | None) -> Iterator[RunAll]:
    """A function running ``work(*task)`` for tasks on the backend (in any order, yielding each
    result as it finishes); the workers stop with the block, also when it is interrupted."""
    if jobs == 1 and backend == "loky":
        yield lambda tasks: (work(*task) for task in tasks)
        return
    if backend == "loky":
        yield lambda tasks: _on_loky(work, tasks, jobs)
        return
    with _dask_client(scheduler, jobs) as client:
        yield lambda tasks: _on_dask(client, work, tasks)


def _owner() -> tuple[str, int]:
    return socket.gethostname(), os.getpid()


def _on_loky(work: Work, tasks: Sequence[Task], jobs: int) -> Iterator[int]:
    """Results of ``work(*task)`` on ``jobs`` loky processes, at most ``jobs`` tasks in flight
    (so that the tasks of a dead worker are known). The tasks in flight when a worker died are
    retried once in a fresh pool, each alone: a second death is then that task's own."""
    queue = deque((task, 1) for task in tasks)
    running: dict[Any, tuple[Task, int]] = {}
    pool = None
    _quiet_resource_tracker()
    try:
        while queue or running:
            pool = get_reusable_executor(
                max_workers=jobs, initializer=_watch_owner, initargs=(_owner(),)
            )
            while queue and len(running) < jobs and not _retrying(queue, running):
                task, attempt = queue.popleft()
                running[pool.submit(work, *task)] = (task, attempt)
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                task, attempt = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool as err:  # its worker, or another one in flight, died
                    if attempt >= LOKY_ATTEMPTS:
                        raise WorkersDied(task, attempt, _loky_cause(err)) from None
                    queue.appendleft((task, attempt + 1))
                    continue
                yield result
    except BaseException:
        if pool is not None:
            pool.shutdown(wait=False, kill_workers=True)
        raise


# The warnings of loky's resource tracker, a process of its own: at shutdown it unlinks the
# semaphores a killed worker still held, and says so in lines a user cannot act on.
TRACKER_WARNINGS = "ignore:resource_tracker:UserWarning"


def _quiet_resource_tracker() -> None:
    """Start loky's resource tracker (once a process; it takes the interpreter's ``-W`` options
    when it starts) ignoring its warnings about what a dead worker left, which it cleans up
    itself: a run that ends with dead workers says so in one line (``WorkersDied``)."""
    sys.warnoptions.append(TRACKER_WARNINGS)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(TRACKER_WARNINGS)


def _retrying(queue: deque[tuple[Task, int]], running: dict[Any, tuple[Task, int]]) -> bool:
    """Whether the next task must wait: a retried task runs alone."""
    return bool(running) and (queue[0][1] > 1 or any(a > 1 for _, a in running.values()))


def _loky_cause(err: BaseException) -> str:
    """What killed a loky worker, in a few words (its exit code, e.g. ``SIGKILL(-9)``)."""
    codes = re.search(r"exit codes? of the workers? (?:are|is) \{([^}]*)\}", str(err))
    return f"exit code {codes.group(1)}" if codes else one_line(err)[:200]


def _on_dask(client: Any, work: Work, tasks: Sequence[Task]) -> Iterator[int]:
    """Results of ``work(*task)`` on the dask cluster; a task the scheduler gave up on (its
    workers died) is resubmitted, up to ``DASK_ATTEMPTS`` submissions."""
    from dask.distributed import KilledWorker, as_completed  # the optional 'distributed' extra

    owner = _owner()
    pending = {
        client.submit(_in_worker, owner, work, *task, pure=False): (task, 1) for task in tasks
    }
    finished = as_completed(list(pending))
    try:
        for future in finished:
            task, attempt = pending.pop(future)
            try:
                result = future.result()  # a result lost with its worker is recomputed here
            except KilledWorker as error:
                killed = error
            else:
                yield result
                continue
            if attempt >= DASK_ATTEMPTS:
                deaths = attempt * (killed.allowed_failures + 1)
                raise WorkersDied(task, deaths, f"dask gave it up {attempt} times: KilledWorker")
            retry = client.submit(_in_worker, owner, work, *task, pure=False)
            pending[retry] = (task, attempt + 1)
            finished.add(retry)
    finally:
        client.cancel(list(pending))


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
    if not scheduler:  # its logs stay quiet: a failure is the run's one line
        cluster = LocalCluster(
            n_workers=jobs,
            threads_per_worker=1,
            processes=True,
            silence_logs=logging.CRITICAL,
            dashboard_address=":0",
        )
        with cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as err:
        raise RunError(f"cannot reach the dask scheduler at {scheduler}: {one_line(err)}") from None
    with client:
        yield client
