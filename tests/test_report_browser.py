"""The report as a reader sees it, in a real browser (headless Chromium, where installed): every
section present, every figure loaded, nothing wider than the page, at desktop and phone width."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from prefstats.report.html import SECTIONS, build_report
from prefstats.studies.misere_ev import run_misere_ev
from prefstats.studies.study import StudySpec, run_study

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]  # fmt: skip
PROBE = """<script>
window.addEventListener('load', () => {
  const images = [...document.images];
  const wide = [...document.querySelectorAll('body *')].filter(
      e => e.getBoundingClientRect().right > window.innerWidth + 1
           && !e.closest('.scroll')).map(e => e.tagName);
  document.body.setAttribute('data-probe', JSON.stringify({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    wide: wide.slice(0, 5),
    images: images.length,
    broken: images.filter(i => !i.complete || i.naturalWidth === 0).length}));
});
</script>"""

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no headless Chromium here (apt-get install chromium; .ci/run does)"
)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("browser")
    run = run_study(StudySpec(deals=2000, seed=4, potential=True, chunk_size=1000), base / "run",
                    progress=False)  # fmt: skip
    ev = run_misere_ev(run, base / "ev", n=10, progress=False)
    return build_report(run, base / "report.html", ev_table=ev)


def probe(page: str, width: int, folder: Path) -> tuple[str, str]:
    """The page's DOM after loading in Chromium at ``width`` pixels, and what the probe saw."""
    probed = folder / "probed.html"
    probed.write_text(page.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={folder / 'profile'}",
         f"--window-size={width},900", "--virtual-time-budget=10000", "--dump-dom",
         probed.as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    found = re.search(r"data-probe=\"([^\"]*)\"", dom)
    assert found, "the page did not finish loading"
    return dom, found.group(1).replace("&quot;", '"')


def test_the_probe_sees_an_overflow(report, tmp_path):
    wide = report.read_text(encoding="utf-8").replace(
        "</body>", "<div style='width:3000px'>wide</div></body>")  # fmt: skip
    _, seen = probe(wide, 390, tmp_path)
    assert '"overflow":0' not in seen and "DIV" in seen


@pytest.mark.parametrize("width", [1280, 390])
def test_nothing_overflows_and_every_figure_loads(report, width, tmp_path):
    dom, probe_seen = probe(report.read_text(encoding="utf-8"), width, tmp_path)
    assert '"overflow":0' in probe_seen or '"overflow":-' in probe_seen, probe_seen
    assert '"wide":[]' in probe_seen and '"broken":0' in probe_seen, probe_seen
    assert set(re.findall(r"<h2 id=\"(\w+)\"", dom)) == set(SECTIONS)
