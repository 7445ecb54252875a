"""The HTML report: one self-contained file, every section there whatever the working folder,
every headline number the run's summary, a missing table named rather than silently dropped."""

from __future__ import annotations

import base64
import html
import re
import warnings
from pathlib import Path

import pandas as pd
import pytest

from prefstats.cli import main
from prefstats.misere.tables import (
    COMMON_HOLDINGS,
    load_catch_rates,
    pair_independence,
    published_comparison,
)
from prefstats.report import tables
from prefstats.report.answers import (
    PLAYED_SETTING,
    played_answer,
    played_length_text,
    played_model,
)
from prefstats.report.html import SECTIONS, ReportWarning, build_report
from prefstats.studies.catch_information import information_ev
from prefstats.studies.misere_ev import break_even, run_misere_ev, tricks_when_caught
from prefstats.studies.results import sensitivity, summarize
from prefstats.studies.study import StudySpec, run_study


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("runs") / "small"
    return run_study(
        StudySpec(deals=2000, seed=8, potential=True, chunk_size=1000), folder, progress=False
    )


@pytest.fixture(scope="module")
def ev(run: Path, tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return run_misere_ev(run, tmp_path_factory.mktemp("ev") / "ev", n=10, progress=False)


@pytest.fixture(scope="module")
def page(run: Path, ev: pd.DataFrame, tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("report") / "report.html"
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReportWarning)  # every table given: nothing left out
        return build_report(run, out, ev_table=ev).read_text(encoding="utf-8")


def cells(frame: pd.DataFrame) -> list[str]:
    """Every cell of a display table as it is written in the page."""
    return [f">{html.escape(str(v), quote=True)}</td>" for v in frame.to_numpy().ravel()]


def test_report_is_one_file_with_embedded_images(run, ev, tmp_path):
    path = build_report(run, tmp_path / "report.html", ev_table=ev)
    text = path.read_text(encoding="utf-8")
    images = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", text)
    assert len(images) >= 9  # claim, contracts, calibration, sensitivity, classes, catch, played,
    # pairs, EV
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    assert "src='http" not in text and "<link" not in text and "<script" not in text
    assert list(tmp_path.iterdir()) == [path]


def test_every_section_is_there_from_any_working_folder(run, ev, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the shipped tables are found from the package, not the cwd
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReportWarning)
        text = build_report(run, "here.html", ev_table=ev).read_text(encoding="utf-8")
    assert re.findall(r"<h2 id='(\w+)'>", text) == list(SECTIONS)


def test_headline_numbers_are_the_summary(run, page):
    summary = summarize(run)
    for frame in (tables.headline(summary), tables.ratios(summary)):
        for cell in cells(frame):
            assert cell in page, cell
    assert html.escape(summary.attrs["verdict"], quote=True) in page


def test_sharing_section_states_the_break_even(ev, page):
    m, p = tricks_when_caught(ev), break_even(ev)
    assert f"m = {m.estimate:.2f} tricks" in page
    assert f"P(caught) = {p.estimate:.3f} ({p.low:.3f}–{p.high:.3f})" in page
    for cell in cells(tables.misere_ev_summary(ev)):
        assert cell in page, cell


def test_pairs_section_states_the_product_rule_check(page):
    pairs = pair_independence()
    assert "Two catchable suits" in page
    for lead, part in pairs.groupby("lead"):
        assert f">{len(part):,}</td>" in page and f">{part.inside.mean():.1%}</td>" in page, lead


def test_played_section_shows_the_bracket_of_the_ten_published_holdings(page):
    """The as-played table of the shipped ``catch_rates``' paired rows, its model and its
    answer, the pooled tables (by setting, by length) and a figure in the section."""
    info = information_ev(load_catch_rates(design="paired"))
    published = published_comparison(table=load_catch_rates())
    shown = tables.played_comparison(info, COMMON_HOLDINGS, PLAYED_SETTING, published)
    assert len(shown) == 2 * len(COMMON_HOLDINGS)
    for cell in cells(shown):
        assert cell in page, cell
    section = page.split("<h2 id='played'>")[1].split("<h2")[0]
    by_length = tables.played_by_length(info, PLAYED_SETTING)
    assert by_length.cards.tolist() == [1, 1, 2, 2, 3, 3]
    by_setting = tables.played_by_setting(info, COMMON_HOLDINGS)
    assert len(by_setting) == 6
    for cell in cells(by_length) + cells(by_setting):
        assert cell in section, cell
    assert html.escape(played_length_text(PLAYED_SETTING), quote=True) in section
    assert html.escape(played_model(info), quote=True) in section
    assert html.escape(played_answer(info), quote=True) in section
    assert "data:image/png;base64," in section


def test_holdings_pooled_by_length_weigh_their_layouts():
    """Two holdings of one card, 100 and 300 layouts: the pooled share weighs them 1:3, and its
    interval's half-width is the root of the weighted half-widths' squares; a conditionally
    clean holding is left out."""
    base = {"setting": "lowest-sides", "lead": "own", "information": "open"}
    rows = [
        {
            **base,
            "holding": "8",
            "n_cards": 1,
            "suit_class": "catchable",
            "n": 100,
            "p_caught": 0.2,
            "p_caught_low": 0.1,
            "p_caught_high": 0.3,
        },
        {
            **base,
            "holding": "9",
            "n_cards": 1,
            "suit_class": "catchable",
            "n": 300,
            "p_caught": 0.6,
            "p_caught_low": 0.56,
            "p_caught_high": 0.64,
        },
        {
            **base,
            "holding": "7 8",
            "n_cards": 2,
            "suit_class": "conditionally_clean",
            "n": 100,
            "p_caught": 0.0,
            "p_caught_low": 0.0,
            "p_caught_high": 0.04,
        },
    ]
    models = ("open", "as played low", "as played high", "estimate", "hidden floor")
    info = pd.DataFrame([{**r, "information": m} for r in rows for m in models])
    shown = tables.played_by_length(info.assign(lead="own"), "lowest-sides")
    assert shown.cards.tolist() == [1] and shown.holdings.tolist() == ["2"]
    half = (0.25**2 * 0.1**2 + 0.75**2 * 0.04**2) ** 0.5  # 0.0391
    assert shown.at[0, "open"] == f"0.500 ({0.5 - half:.3f}–{0.5 + half:.3f})"
    assert shown.at[0, "layouts"] == "400"


def test_sensitivity_section_shows_each_setting(run, ev, tmp_path):
    table = sensitivity({"0.3": run, "same <run>": run})
    text = build_report(run, tmp_path / "r.html", ev_table=ev, sensitivity=table).read_text(
        encoding="utf-8"
    )
    assert "How much the misère risk limit decides" in text
    row = table.iloc[0]
    assert f">{tables.ratio_text(row.ratio, row.ratio_low, row.ratio_high)}</td>" in text
    assert ">same &lt;run&gt;</td>" in text and "<run>" not in text  # cells are escaped


def test_a_missing_table_is_named_and_its_section_left_out(run, tmp_path):
    with pytest.warns(ReportWarning, match="'sharing' left out: no ev_table"):
        text = build_report(run, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "id='sharing'" not in text and "id='catch'" in text
    with pytest.warns(ReportWarning) as warned:
        text = build_report(run, tmp_path / "r.html", catch_rates=pd.DataFrame()).read_text(
            encoding="utf-8"
        )
    assert "id='catch'" not in text and "id='played'" not in text
    assert {str(w.message).split(":")[1].strip() for w in warned} == {
        "section 'catch' left out",
        "section 'played' left out",
        "section 'sharing' left out",
    }


def test_report_cli(run, tmp_path, capsys):
    out = tmp_path / "r.html"
    with pytest.warns(ReportWarning, match="'sharing' left out: no ev_table"):
        assert main(["report", str(run), "--out", str(out)]) == 0
    assert out.exists() and "wrote" in capsys.readouterr().out
    assert main(["report", str(run), "--out", str(out), "--catch-rates", "nowhere"]) == 2
    error = capsys.readouterr().err
    assert "nowhere" in error and len(error.strip().splitlines()) == 1


def test_report_states_its_run_size_and_where_the_readme_figures_come_from(page):
    assert "This report is of a run of 2,000 deals" in page
    assert "10^6-deal runs" in page and "README" in page
    assert "<dd>yes</dd>" in page and ">True<" not in page and ">False<" not in page
    assert "media='(max-width: 40em)'" in page  # every figure has its phone drawing
