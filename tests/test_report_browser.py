"""The report as a reader sees it, in a real browser (headless Chromium, where installed): every
section present, every figure loaded, nothing wider than the page, at desktop and phone width."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from prefstats.report.html import SECTIONS, build_report
from prefstats.studies.misere_ev import run_misere_ev
from prefstats.studies.study import StudySpec, run_study

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]
PROBE = """<script>
window.addEventListener('load', () => {
  const images = [...document.images];
  const wide = [...document.querySelectorAll('body *')].filter(
      e => e.getBoundingClientRect().right > window.innerWidth + 1
           && !e.closest('.scroll')).map(e => e.tagName);
  const seen = JSON.stringify({
    sections: [...document.querySelectorAll('h2[id]')].map(h => h.id),
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    viewport: window.innerWidth,
    wide: wide.slice(0, 5),
    images: images.length,
    broken: images.filter(i => !i.complete || i.naturalWidth === 0).length,
    sci: (document.body.innerText.match(/\\d\\.?\\d*e[-+]?\\d+/gi) || []).slice(0, 5),
    bools: (document.body.innerText.match(/\\b(True|False|NaN)\\b/g) || []).slice(0, 5),
    shrink: Math.max(0, ...images.map(i => i.naturalWidth / i.getBoundingClientRect().width)),
    narrowest: Math.min(...images.map(i => i.getBoundingClientRect().width)),
    uncued: [...document.querySelectorAll('.scroll')].filter(e => e.scrollWidth > e.clientWidth
        && !(getComputedStyle(e).backgroundImage.includes('gradient')
             && getComputedStyle(e).backgroundAttachment.includes('local'))).length,
    scrolling: [...document.querySelectorAll('.scroll')].filter(
        e => e.scrollWidth > e.clientWidth).length});
  window.parent.postMessage(seen, '*');
});
</script>"""
# Headless Chromium's window is at least 500 pixels wide: the page is loaded in a frame of the
# width asked for, whose probe posts what it saw to the outer page.
FRAME = """<!doctype html><html><body style='margin:0'>
<script>window.addEventListener('message', e => document.body.setAttribute('data-probe', e.data));
</script><iframe src='{src}' style='width:{width}px;height:900px;border:0'></iframe>
</body></html>"""

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no headless Chromium here (apt-get install chromium; .ci/run does)"
)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("browser")
    run = run_study(
        StudySpec(deals=2000, seed=4, potential=True, chunk_size=1000), base / "run", progress=False
    )
    ev = run_misere_ev(run, base / "ev", n=10, progress=False)
    return build_report(run, base / "report.html", ev_table=ev)


def probe(page: str, width: int, folder: Path) -> dict[str, Any]:
    """What the probe saw of the page loaded in Chromium in a frame ``width`` pixels wide."""
    probed = folder / "probed.html"
    probed.write_text(page.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    frame = folder / "frame.html"
    frame.write_text(FRAME.format(src=probed.as_uri(), width=width), encoding="utf-8")
    dom = subprocess.run(
        [
            CHROMIUM,  # type: ignore[list-item]
            *FLAGS,
            f"--user-data-dir={folder / 'profile'}",
            f"--window-size={max(width, 500) + 20},900",
            "--virtual-time-budget=10000",
            "--dump-dom",
            frame.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.search(r"data-probe=\"([^\"]*)\"", dom)
    assert found, "the page did not finish loading"
    seen: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    assert seen["viewport"] == width, seen
    return seen


def test_the_probe_sees_an_overflow(report, tmp_path):
    wide = report.read_text(encoding="utf-8").replace(
        "</body>", "<div style='width:3000px'>wide</div></body>"
    )
    seen = probe(wide, 390, tmp_path)
    assert seen["overflow"] > 0 and "DIV" in seen["wide"]


@pytest.mark.parametrize("width", [1280, 390])
def test_nothing_overflows_and_every_figure_loads(report, width, tmp_path):
    seen = probe(report.read_text(encoding="utf-8"), width, tmp_path)
    assert seen["overflow"] <= 0 and seen["wide"] == [] and seen["broken"] == 0, seen
    assert set(seen["sections"]) == set(SECTIONS)


def test_at_phone_width_figures_stay_legible_and_numbers_plain(report, tmp_path):
    """At 390 px: no e-notation, True/False or NaN in the text; every figure is the phone
    drawing, shown at most 1.3 times smaller than drawn (its type about the page's size) and
    filling the column; a table that scrolls sideways shows its edge shadow (the cue)."""
    found = probe(report.read_text(encoding="utf-8"), 390, tmp_path)
    assert found["sci"] == [] and found["bools"] == [], found
    assert found["images"] > 0 and found["shrink"] <= 1.3, found
    assert found["narrowest"] >= 300, found
    assert found["scrolling"] > 0, "some table is wider than a phone: the cue is checked"
    assert found["uncued"] == 0, found
