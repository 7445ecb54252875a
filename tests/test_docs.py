"""docs/design.md stays a design document: short, no dated readings, and every section the code,
the tests and the other docs cite by title exists (docs/design.md, "Benchmarks": readings over
time go to benchmark records, not into the docs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
MAX_LINES = 300
# A citation names the page, a comma and a section title in double quotes; the title may wrap
# onto the next line of a docstring or a comment.
CITATION = re.compile(r"docs/design\.md,\s*\"([^\"]+)\"")
LINK = re.compile(r"design\.md#([\w-]+)")
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def headings() -> set[str]:
    lines = DESIGN.read_text(encoding="utf-8").splitlines()
    return {line.lstrip("#").strip() for line in lines if re.match(r"#+ ", line)}


def slug(title: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def citing_files() -> list[Path]:
    files = [*sorted((ROOT / "prefstats").rglob("*.py")), *sorted((ROOT / "tests").rglob("*.py"))]
    files += [ROOT / "README.md", ROOT / "Makefile", *sorted((ROOT / "docs").glob("*.md"))]
    return [path for path in files if path != DESIGN and path.exists()]


def citations() -> list[tuple[str, str]]:
    """(file, cited title) for every citation of a design.md section, wrapped titles joined."""
    found = []
    for path in citing_files():
        for match in CITATION.finditer(path.read_text(encoding="utf-8")):
            title = re.sub(r"\s*\n\s*(#\s*)?", " ", match.group(1)).strip()
            found.append((str(path.relative_to(ROOT)), title))
    return found


def test_design_is_at_most_300_lines() -> None:
    n_lines = len(DESIGN.read_text(encoding="utf-8").splitlines())
    assert n_lines <= MAX_LINES, f"docs/design.md has {n_lines} lines, more than {MAX_LINES}"


def test_design_holds_no_dated_reading() -> None:
    dated = [line for line in DESIGN.read_text(encoding="utf-8").splitlines() if DATE.search(line)]
    assert not dated, f"dated lines in docs/design.md: {dated}"


def test_the_citations_are_found() -> None:
    # Guards the scan itself: the package cites at least these sections today.
    assert {"Layers", "Dealt potential", "Random streams"} <= {title for _, title in citations()}


@pytest.mark.parametrize(("path", "title"), citations())
def test_every_cited_section_exists(path: str, title: str) -> None:
    assert title in headings(), f"{path} cites docs/design.md section {title!r}, which is gone"


def test_every_link_into_design_finds_its_heading() -> None:
    anchors = {slug(title) for title in headings()}
    for path in citing_files():
        for anchor in LINK.findall(path.read_text(encoding="utf-8")):
            assert anchor in anchors, f"{path.relative_to(ROOT)} links to design.md#{anchor}"
