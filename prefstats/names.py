"""Looking a thing up by its name, with an error that lists the names known (a base module: it
imports nothing from the package).

>>> lookup({"sochi": 1, "rostov": 2}, "sochi", "convention")
1
>>> lookup({"sochi": 1, "rostov": 2}, "moscow", "convention")
Traceback (most recent call last):
...
ValueError: unknown convention 'moscow'; known: sochi, rostov
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")


def lookup(table: Mapping[str, T], name: object, what: str) -> T:
    """``table[name]``, or ValueError naming ``what`` was asked and the names known."""
    if not isinstance(name, str) or name not in table:
        raise ValueError(f"unknown {what} {name!r}; known: {', '.join(table)}")
    return table[name]
