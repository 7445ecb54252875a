"""Every number the README states comes from a shipped table: its generated blocks equal what
``report.answers.readme_blocks`` writes from the tables (prefstats/data)."""

from pathlib import Path

import pytest

from prefstats.report.answers import README_BLOCKS, readme_blocks

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def blocks() -> dict[str, str]:
    return readme_blocks()


def readme_block(name: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split(f"<!-- {name}:start -->")[1].split(f"<!-- {name}:end -->")[0].strip()


@pytest.mark.parametrize("name", README_BLOCKS)
def test_readme_block_equals_the_shipped_tables(name, blocks):
    assert readme_block(name) == blocks[name]
