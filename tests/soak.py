"""Soak test of runs under kills (issue 51): not part of ``make test`` nor of pytest's tests.

Runs one small study undamaged, then again and again with two workers on loky and on dask,
killing (SIGKILL) a random worker or the main process at a random moment of each run; a killed
run is rerun with the same command until it finishes. Every finished table must equal the
undamaged one, no run may hang and no process of a killed run may outlive it by long.

    python tests/soak.py --kills 50 --deals 3000 --chunk-size 150

Prints one line per kill and the counts at the end; exit code 1 if any table differs, a run
hung or a process was left behind.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from prefstats.studies.study import load_study

ROOT = Path(__file__).resolve().parents[1]
HANG_SECONDS = 300  # a run of a few thousand deals that takes this long has hung
OUTLIVE_SECONDS = 10  # how long a process of a killed run may outlive its main process
RERUNS = 3  # reruns of a killed run before it counts as not repaired


def study(folder: Path, args: argparse.Namespace, backend: str, jobs: int) -> list[str]:
    """The command line of the study."""
    return [
        sys.executable,
        "-m",
        "prefstats",
        "study",
        "--deals",
        str(args.deals),
        "--seed",
        str(args.seed),
        "--chunk-size",
        str(args.chunk_size),
        "--jobs",
        str(jobs),
        "--backend",
        backend,
        "--out",
        str(folder),
    ]


def start(command: list[str]) -> subprocess.Popen[bytes]:
    """The command in its own session, its output to a file (a pipe would make the wait last
    as long as the last worker holding it)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(Path(command[-1]).with_suffix(".log"), "ab") as log:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
        )


def finish(process: subprocess.Popen[bytes]) -> int | None:
    """The exit code, or None if the run hung (then its whole group is killed)."""
    try:
        return process.wait(timeout=HANG_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None


def workers(pid: int) -> list[int]:
    """The worker processes of a run (its children that are no resource tracker)."""
    try:
        kids = psutil.Process(pid).children(recursive=True)
    except psutil.Error:  # gone meanwhile
        return []
    found = []
    for kid in kids:
        try:
            line = " ".join(kid.cmdline())
        except psutil.Error:  # gone meanwhile
            continue
        if "resource_tracker" not in line:  # (a dask worker's own line names its tracker_fd)
            found.append(kid.pid)
    return found


def session_left(session: int) -> list[int]:
    """Processes still alive in a killed run's session (zombies excepted)."""
    left = []
    for process in psutil.process_iter(["pid", "status"]):
        try:
            if os.getsid(process.pid) == session and process.info["status"] != "zombie":
                left.append(process.pid)
        except (ProcessLookupError, PermissionError, OSError):
            continue
    return left


def reap(killed: list[tuple[float, int]], wait: bool = False) -> int:
    """Processes of killed runs still alive ``OUTLIVE_SECONDS`` after the kill (then killed);
    runs killed less long ago stay on the list (all are waited for with ``wait``)."""
    left = 0
    for when, session in list(killed):
        if time.monotonic() < when + OUTLIVE_SECONDS:
            if not wait:
                continue
            time.sleep(when + OUTLIVE_SECONDS - time.monotonic())
        killed.remove((when, session))
        for pid in session_left(session):
            left += 1
            print(f"process {pid} of a run killed {OUTLIVE_SECONDS} s ago is alive", flush=True)
            os.kill(pid, signal.SIGKILL)
    return left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--chunk-size", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--random-seed", type=int, default=51)
    args = parser.parse_args()
    rng = random.Random(args.random_seed)
    base = Path(tempfile.mkdtemp(prefix="prefstats-soak-"))
    if finish(start(study(base / "reference", args, "loky", 1))) != 0:
        print("the undamaged run failed", file=sys.stderr)
        return 1
    reference = load_study(base / "reference")
    counts = {
        "kills": 0,
        "main killed": 0,
        "worker killed": 0,
        "reruns": 0,
        "runs": 0,
        "identical tables": 0,
        "different tables": 0,
        "not repaired": 0,
        "hangs": 0,
        "left behind": 0,
    }
    trial = 0
    killed_sessions: list[tuple[float, int]] = []  # (when, session) of killed main processes
    while counts["kills"] < args.kills:
        trial += 1
        backend = ("loky", "dask")[trial % 2]
        folder = base / f"run-{trial:03d}"
        command = study(folder, args, backend, 2)
        process = start(command)
        counts["runs"] += 1
        deadline = time.monotonic() + HANG_SECONDS
        while (
            not list(folder.glob("chunk-*.parquet"))
            and process.poll() is None
            and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 1.5))
        victim, what = process.pid, "main"
        if rng.random() < 0.5 and (pool := workers(process.pid)):
            victim, what = rng.choice(pool), "worker"
        killed = process.poll() is None
        if killed:
            try:
                os.kill(victim, signal.SIGKILL)
            except ProcessLookupError:
                killed = False
        if killed:
            counts["kills"] += 1
            counts[f"{what} killed"] += 1
        code = finish(process)
        if code is None:
            counts["hangs"] += 1
        if what == "main" and killed:
            killed_sessions.append((time.monotonic(), process.pid))
        counts["left behind"] += reap(killed_sessions)
        reruns = 0
        while code != 0 and reruns < RERUNS:
            reruns += 1
            code = finish(start(command))
            if code is None:
                counts["hangs"] += 1
        counts["reruns"] += reruns
        if code != 0:
            counts["not repaired"] += 1
            print(f"run {trial} ({backend}): not repaired after {reruns} reruns", flush=True)
            continue
        same = load_study(folder).equals(reference)
        counts["identical tables" if same else "different tables"] += 1
        print(
            f"run {trial} ({backend}): killed {what if killed else 'nothing (it ended)'}, "
            f"{reruns} rerun(s), table {'identical' if same else 'DIFFERENT'}; so far: "
            + ", ".join(f"{key} {value}" for key, value in counts.items()),
            flush=True,
        )
    counts["left behind"] += reap(killed_sessions, wait=True)
    print(", ".join(f"{key} {value}" for key, value in counts.items()))
    bad = counts["different tables"] + counts["not repaired"] + counts["hangs"]
    return 1 if bad or counts["left behind"] else 0


if __name__ == "__main__":
    sys.exit(main())
