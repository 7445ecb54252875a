"""``prefstats bench NAME [--record FILE]``: one benchmark's figures between the machine's load
and speed before and after (docs/design.md, "Benchmarks"), and, with a file, one JSON line of
them appended to it: readings over time are kept there, not in the docs.

Each benchmark module has ``main()``, which prints its figures and returns them as a dict of
name → number.
"""

from __future__ import annotations

import datetime
import importlib
import json
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

from prefstats.benchmarks.speed import reference_nanos
from prefstats.version import __version__

BENCHMARKS = {
    "deal": "prefstats.benchmarks.deal",
    "solver": "prefstats.benchmarks.solver",
    "calibration": "prefstats.benchmarks.calibration",
    "misere": "prefstats.benchmarks.misere",
    "study": "prefstats.benchmarks.study",
    "potential": "prefstats.benchmarks.potential",
    "analyze": "prefstats.benchmarks.analyze",
}
SOURCE_TREE = Path(__file__).resolve().parents[2]


def _utc_now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def load_average() -> tuple[float, float, float] | None:
    """The load average over the last 1, 5 and 15 minutes, or None where the system does not
    report it (Windows)."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):
        return None


def machine_line(when: str, load: tuple[float, float, float] | None) -> str:
    """The machine a benchmark ran on, in one line: ``when`` (before or after), the time in
    UTC, the cores and ``load`` (``load_average``), or that the system does not report it."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    if load is None:
        said = "load average not reported by this system"
    else:
        said = "load average {:.2f} / {:.2f} / {:.2f} (1 / 5 / 15 min)".format(*load)
    return f"machine {when}: {now}, {os.cpu_count()} cores, {said}"


def speed_line(when: str, nanos: float) -> str:
    """One line: ``when`` (before or after) and ``nanos`` from ``speed.reference_nanos``."""
    return (
        f"speed {when}: {nanos:.2f} ns a step of a fixed loop of random reads and writes in a "
        f"2 MB table (lower is faster)"
    )


def cpu_model() -> str:
    """The processor's model name (from /proc/cpuinfo on Linux), else what Python reports."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_commit() -> str | None:
    """The commit of the source tree the package runs from (with ``-dirty`` if files differ
    from it), or None if it is not a git checkout."""
    git = ["git", "-C", str(SOURCE_TREE)]
    try:
        run = subprocess.run(
            [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        )
        dirty = subprocess.run([*git, "diff", "--quiet", "HEAD", "--", "prefstats"], check=False)
    except (OSError, subprocess.CalledProcessError):
        return None
    return run.stdout.strip() + ("-dirty" if dirty.returncode else "")


def record(
    name: str, figures: dict[str, float], loads: list[Any], speeds: list[float]
) -> dict[str, Any]:
    """The JSON record of one benchmark run: when, what code on what machine (the load average
    and the fixed loop's speed before and after), and its figures."""
    return {
        "utc": _utc_now(),
        "benchmark": name,
        "commit": git_commit(),
        "version": __version__,
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "load_before": loads[0],
        "load_after": loads[1],
        "speed_ns_before": speeds[0],
        "speed_ns_after": speeds[1],
        "figures": figures,
    }


def run_benchmark(name: str, record_to: Path | None = None) -> dict[str, float]:
    """Print the benchmark's figures between the machine lines and the speed lines, append
    their record to ``record_to`` if given (one JSON line), and return them."""
    if record_to is not None and not record_to.parent.is_dir():
        raise ValueError(f"cannot record to {record_to}: no folder {record_to.parent}")
    loads, speeds = [load_average()], [reference_nanos()]
    print(machine_line("before", loads[0]), flush=True)
    print(speed_line("before", speeds[0]), flush=True)
    figures: dict[str, float] = importlib.import_module(BENCHMARKS[name]).main()
    loads.append(load_average())
    speeds.append(reference_nanos())
    print(machine_line("after", loads[1]))
    print(speed_line("after", speeds[1]))
    if record_to is not None:
        with record_to.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record(name, figures, loads, speeds), default=float) + "\n")
    return figures
