"""Argument checks of the public functions: each returns the value in its plain Python type or
raises a one-line ``ValueError`` naming the argument and the bad value (a base module: it imports
nothing from the package).

A bool is not an int here, though Python counts it as one: ``n=True`` is a slip, not a 1. A
value of the wrong type raises ``WrongType``, both a ``ValueError`` (the package's rule: bad
input is a ``ValueError``) and a ``TypeError`` (Python's).

>>> integer("tricks", 7, 0, 10), positive("samples", np.int64(16)), seat("leader", 2)
(7, 16, 2)
>>> integer("tricks", 11, 0, 10)
Traceback (most recent call last):
...
ValueError: tricks must be an integer in 0..10, got 11
>>> positive("samples", True)
Traceback (most recent call last):
...
prefstats.checks.WrongType: samples must be a positive integer, got True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeGuard, TypeVar

import numpy as np

T = TypeVar("T")
SEATS = 3  # seats 0, 1, 2: the first, second and third hand


class WrongType(ValueError, TypeError):
    """An argument of the wrong type: a ``ValueError`` like every bad input of the package, and
    a ``TypeError`` as Python has it."""


def is_int(value: object) -> TypeGuard[int | np.integer]:
    """Is ``value`` an int or a numpy integer, and not a bool?"""
    return isinstance(value, int | np.integer) and not _is_bool(value)


def integer(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int, checked to lie in ``low..high`` (either end may be open)."""
    if low is not None and high is not None:
        what = f"an integer in {low}..{high}"
    elif low == 0:
        what = "a non-negative integer"
    elif low is not None:
        what = f"an integer >= {low}"
    elif high is not None:
        what = f"an integer <= {high}"
    else:
        what = "an integer"
    if not is_int(value):
        raise WrongType(f"{name} must be {what}, got {value!r}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueError(f"{name} must be {what}, got {number}")
    return number


def positive(name: str, value: object) -> int:
    """``value`` as an int >= 1."""
    if not is_int(value):
        raise WrongType(f"{name} must be a positive integer, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, got {int(value)}")
    return int(value)


def seat(name: str, value: object, seats: int = SEATS) -> int:
    """``value`` as a seat index ``0..seats-1`` (0, 1, 2: the first, second and third hand)."""
    if not is_int(value) or not 0 <= value < seats:
        names = " (first, second or third hand)" if seats == SEATS else ""
        listed = ", ".join(str(s) for s in range(seats - 1)) + f" or {seats - 1}"
        error = ValueError if is_int(value) else WrongType
        raise error(f"{name} must be {listed}{names}, got {value!r}")
    return int(value)


def probability(name: str, value: object) -> float:
    """``value`` as a float in [0, 1] (an int or a float; not a bool, not NaN)."""
    number = float(value) if isinstance(value, float | np.floating) or is_int(value) else None
    if number is None:
        raise WrongType(f"{name} must be a probability in [0, 1], got {value!r}")
    if not 0 <= number <= 1:  # NaN fails too
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    return number


def finite(name: str, value: object) -> float:
    """``value`` as a finite float (an int or a float; not a bool)."""
    if not (isinstance(value, float | np.floating) or is_int(value)):
        raise WrongType(f"{name} must be a number, got {value!r}")
    if not math.isfinite(float(value)):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def _is_bool(value: object) -> bool:
    return isinstance(value, bool | np.bool_)


def flag(name: str, value: object) -> bool:
    """``value`` as a bool (True, False or a numpy bool; not 0 or 1)."""
    if not _is_bool(value):
        raise WrongType(f"{name} must be True or False, got {value!r}")
    return bool(value)


def choice(name: str, value: object, options: Sequence[T]) -> T:
    """The option equal to ``value`` (a bool matches only a bool), checked to be one of
    ``options``."""
    for option in options:
        equal = value == option
        if isinstance(equal, bool | np.bool_) and equal and _is_bool(value) == _is_bool(option):
            return option
    known = [repr(option) for option in options]
    listed = f"{', '.join(known[:-1])} or {known[-1]}" if len(known) > 1 else "".join(known)
    raise ValueError(f"{name} must be {listed}, got {value!r}")
