"""The shipped tables (README.md in this folder says how each was made), read through
``importlib.resources`` so that they are found in an installed package as in a checkout.
A base module: it imports nothing from the package (docs/design.md, "Layers").

>>> shipped("catch_rates.parquet").name
'catch_rates.parquet'
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

SENSITIVITY_TABLE = "misere_limit_sensitivity"  # the misère risk limit's table, no extension


def shipped(name: str) -> Path:
    """The path of a shipped table in this folder (a name without extension means its parquet
    file: ``shipped("summary")``); ValueError naming it if it is missing.

    >>> shipped("summary").name
    'summary.parquet'
    """
    if not Path(name).suffix:
        name = f"{name}.parquet"
    path = Path(str(resources.files(__name__).joinpath(name)))
    if not path.is_file():
        raise ValueError(f"shipped table {name} is missing from {path.parent}")
    return path


def folder() -> Path:
    """The folder of the shipped tables (where the generators write them)."""
    return Path(str(resources.files(__name__)))
