"""The HTML report: one self-contained file whose headline numbers are the run's summary."""

import base64
import re

import pytest

from prefstats.cli import main
from prefstats.report.html import build_report, headline
from prefstats.studies.results import summarize
from prefstats.studies.study import StudySpec, run_study


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs") / "small"
    run_study(StudySpec(deals=2000, seed=8, chunk_size=1000), folder, progress=False)
    return folder


def test_report_is_one_file_with_embedded_images(run, tmp_path):
    path = build_report(run, tmp_path / "report.html")
    text = path.read_text(encoding="utf-8")
    images = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", text)
    assert len(images) >= 3
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    assert "src='http" not in text and "<link" not in text and "<script" not in text
    assert list(tmp_path.iterdir()) == [path]


def test_headline_numbers_equal_the_summary(run, tmp_path):
    text = build_report(run, tmp_path / "report.html").read_text(encoding="utf-8")
    summary = summarize(run)
    for row in headline(summary).itertuples():
        cells = f"<td>{row.measure}</td>\n      <td>{row.event}</td>\n      <td>{row.count}</td>"
        assert cells in text, cells
        assert f"<td>{row.frequency:.5g}</td>" in text
        assert f"<td>{row.low:.5g}</td>" in text and f"<td>{row.high:.5g}</td>" in text
    assert summary.attrs["verdict"] in text


def test_report_cli(run, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", str(run), "--out", str(out)]) == 0
    assert out.exists() and "wrote" in capsys.readouterr().out
    assert main(["report", str(run), "--out", str(out), "--catch-rates", "nowhere"]) == 2
    error = capsys.readouterr().err
    assert "nowhere" in error and len(error.strip().splitlines()) == 1


def test_pairs_section_states_the_product_rule_check(run, tmp_path):
    from prefstats.misere.tables import pair_independence

    pairs = pair_independence()
    text = build_report(run, tmp_path / "r.html", catch_pairs=pairs).read_text(encoding="utf-8")
    assert "Two catchable suits" in text
    for lead, part in pairs.groupby("lead"):
        share = f"<td>{part.inside.mean():.4g}</td>"
        assert f"<td>{lead}</td>\n      <td>{len(part)}</td>" in text and share in text, lead


def test_sensitivity_section_shows_each_setting(run, tmp_path):
    from prefstats.studies.results import sensitivity

    table = sensitivity({"0.3": run, "same run": run})
    text = build_report(run, tmp_path / "r.html", sensitivity=table).read_text(encoding="utf-8")
    assert "How much the bidders decide it" in text
    row = table.iloc[0]
    for value in (row.ratio, row.ratio_low, row.ratio_high, row.caught_rate):
        assert f"<td>{value:.4g}</td>" in text
    assert "<td>same run</td>" in text
