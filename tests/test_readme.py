"""The README's findings table is generated from the shipped tables in data/ and kept in sync."""

from pathlib import Path

from prefstats.results import findings_markdown, shipped_findings

ROOT = Path(__file__).resolve().parents[1]


def test_readme_findings_equal_the_shipped_tables():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- findings:start -->")[1].split("<!-- findings:end -->")[0].strip()
    summary = shipped_findings(ROOT / "data")
    expected = findings_markdown(summary) + "\n\n" + summary.attrs["verdict"]
    assert block == expected
