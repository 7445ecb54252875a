"""Every number the README states comes from a shipped table: its generated blocks equal what
``report.answers.readme_blocks`` writes from the tables (prefstats/data)."""

import re
import tomllib
from pathlib import Path

import pytest

from prefstats.report.answers import README_BLOCKS, fill_readme_blocks, readme_blocks

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


def test_filling_the_blocks_keeps_the_rest_and_names_a_missing_block():
    text = "head\n<!-- a:start -->\nold\n<!-- a:end -->\ntail"
    assert fill_readme_blocks(text, {"a": "new"}) == text.replace("old", "new")
    with pytest.raises(ValueError, match="'b'"):
        fill_readme_blocks(text, {"b": "x"})


def test_links_resolve_on_an_index_page():
    """A package index shows the README without the repository around it: a link is absolute
    or absent."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]*)\)", text)
    assert all(t.startswith(("https://", "http://", "#")) for t in targets), targets


def test_no_project_urls_without_a_public_address():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    urls = project.get("urls", {})
    assert all(u.startswith("https://") and "localhost" not in u for u in urls.values()), urls
