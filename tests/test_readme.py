"""The README's generated tables equal the shipped tables (prefstats/data) and stay in sync."""

from pathlib import Path

import pandas as pd

from prefstats.data import shipped
from prefstats.studies.results import findings_markdown, sensitivity_markdown, shipped_findings

ROOT = Path(__file__).resolve().parents[1]


def readme_block(name: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split(f"<!-- {name}:start -->")[1].split(f"<!-- {name}:end -->")[0].strip()


def test_readme_findings_equal_the_shipped_tables():
    summary = shipped_findings()
    expected = findings_markdown(summary) + "\n\n" + summary.attrs["verdict"]
    assert readme_block("findings") == expected


def test_readme_sensitivity_equals_the_shipped_table():
    table = pd.read_parquet(shipped("misere_limit_sensitivity.parquet"))
    assert readme_block("sensitivity") == sensitivity_markdown(table)
