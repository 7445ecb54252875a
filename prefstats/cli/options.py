"""Argument types and shared options of the command line."""

from __future__ import annotations

import argparse

from prefstats.game.cards import Style


def positive_int(text: str) -> int:
    """An argparse type: a positive integer."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def risk_limit(text: str) -> float | None:
    """An argparse type: a probability in [0, 1], or ``none``."""
    if text.lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be in [0, 1] or 'none', got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1] or 'none', got {text}")
    return value


def style_of(args: argparse.Namespace) -> Style:
    """The card notation asked for: ``ru`` with ``--ru``, else ``en``."""
    return "ru" if getattr(args, "ru", False) else "en"
