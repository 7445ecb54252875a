"""Argument types and shared options of the command line."""

from __future__ import annotations

import argparse
import math
import os
import re
import secrets
import sys

from prefstats.game.cards import Style

# ASCII digits only: int() and float() also read Arabic-Indic (١٢) and full-width (１２) digits.
INTEGER = re.compile(r"[+-]?[0-9]+")
# A study's table in memory, per deal: its columns as loaded (40 bytes, 47 with potentials),
# the reader's and the concatenation's copies and the masks ``summarize`` makes, rounded up.
STUDY_BYTES_PER_DEAL = 256
MEMORY_UNKNOWN = 16 << 30  # assumed when the system does not say how much memory it has


def integer(text: str) -> int:
    """An argparse type: an integer in ASCII digits.

    >>> integer("12"), integer("-3")
    (12, -3)
    """
    if not INTEGER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"must be an integer in digits 0-9, got {text!r}")
    return int(text)


def positive_int(text: str) -> int:
    """An argparse type: a positive integer (ASCII digits)."""
    if not INTEGER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"must be a positive integer in digits 0-9, got {text!r}")
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def deal_count(text: str) -> int:
    """An argparse type: a number of deals, positive and no more than a study's table of them
    fits in this machine's memory (``max_deals``), refused at once rather than after hours."""
    value = positive_int(text)
    limit = max_deals()
    if value > limit:
        raise argparse.ArgumentTypeError(
            f"must be at most {limit:,} here, got {value:,} (a study's {STUDY_BYTES_PER_DEAL} "
            f"bytes a deal in memory times the deals must fit in this machine's "
            f"{memory_bytes() / (1 << 30):.0f} GiB)"
        )
    return value


def max_deals() -> int:
    """The most deals a study's table can hold in this machine's memory."""
    return memory_bytes() // STUDY_BYTES_PER_DEAL


def memory_bytes() -> int:
    """This machine's physical memory (``MEMORY_UNKNOWN`` where the system does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        return MEMORY_UNKNOWN


def risk_limit(text: str) -> float | None:
    """An argparse type: a probability in [0, 1], or ``none``."""
    if text.lower() == "none":
        return None
    if not text.isascii():
        raise argparse.ArgumentTypeError(f"must be in [0, 1] or 'none', got {text!r}")
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be in [0, 1] or 'none', got {text!r}") from None
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be in [0, 1] or 'none', got {text}")
    return value


def style_of(args: argparse.Namespace) -> Style:
    """The card notation asked for: ``ru`` with ``--ru``, else ``en``."""
    return "ru" if getattr(args, "ru", False) else "en"


def worker_count(text: str) -> int:
    """An argparse type: a positive number of worker processes, capped at this machine's cores
    (with a warning)."""
    value = positive_int(text)
    cores = os.cpu_count() or 1
    if value > cores:
        print(
            f"prefstats: --jobs {value} is more than the {cores} cores here; using {cores}",
            file=sys.stderr,
        )
        return cores
    return value


def non_negative_float(text: str) -> float:
    """An argparse type: a finite number >= 0."""
    value = finite_float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {text}")
    return value


def finite_float(text: str) -> float:
    """An argparse type: a finite number (not nan or inf) in ASCII digits."""
    if not text.isascii():
        raise argparse.ArgumentTypeError(f"must be a number in digits 0-9, got {text!r}")
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
    return value


def add_ru(parser: argparse.ArgumentParser) -> None:
    """The ``--ru`` flag: print cards and contracts in Russian notation."""
    parser.add_argument(
        "--ru",
        action="store_true",
        help="print cards and contracts in Russian notation (В Д К Т, п т б ч, мизер)",
    )


def add_scoring(parser: argparse.ArgumentParser) -> None:
    """The ``--scoring`` option: the convention scores are written in."""
    parser.add_argument(
        "--scoring",
        choices=["sochi", "leningrad", "rostov"],
        default="sochi",
        help='scoring convention (default sochi; docs/rules.md, "Scoring")',
    )


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Examples kept as written, and an option's default shown after its help unless the help
    already speaks of it (or there is none: a flag, or None)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or action.default in (None, False, argparse.SUPPRESS):
            return text
        return super()._get_help_string(action)


def examples(*lines: str) -> dict[str, object]:
    """Keyword arguments of ``add_parser`` that end a command's help with examples and show
    each option's default."""
    text = "examples:\n" + "\n".join(f"  {line}" for line in lines)
    return {"epilog": text, "formatter_class": HelpFormatter}


SHORT_SEEDS = 1_000_000  # a fresh seed is drawn below this: six digits, easy to retype


def fresh_seed() -> int:
    """A random seed short enough to retype (0 .. 999,999), from the system's entropy."""
    return int(secrets.randbelow(SHORT_SEEDS))
