"""Every notebook runs from a fresh kernel, every cell that draws shows an image, and no cell
writes to standard error (a warning box in Jupyter) or fails (notebooks/)."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
DRAWS = ("plots.", "plt.", "fig.add_subplot", ".bar(")
# Notebook 05 analyses hands over this many layouts (2,500 by default): fewer under the tests.
os.environ["PREFSTATS_NOTEBOOK_LAYOUTS"] = "462"


@pytest.fixture(scope="module", params=NOTEBOOKS, ids=lambda p: p.stem)
def executed(request: pytest.FixtureRequest) -> nbformat.NotebookNode:
    path: Path = request.param
    notebook: nbformat.NotebookNode = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return notebook


def code_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def test_every_drawing_cell_shows_an_image(executed):
    drawing = [c for c in code_cells(executed) if any(d in c.source for d in DRAWS)]
    assert drawing, "each notebook draws at least one figure"
    for cell in drawing:
        images = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        assert len(images) >= 1, cell.source


def test_no_cell_writes_to_stderr_or_shows_a_stray_repr(executed):
    for cell in code_cells(executed):
        for output in cell.outputs:
            assert output.output_type != "error", cell.source
            assert output.get("name") != "stderr", (cell.source, output.get("text"))
            text = output.get("data", {}).get("text/plain", "")
            assert "<matplotlib." not in text, cell.source


def test_it_ends_with_a_written_answer(executed):
    headings = [c.source for c in executed.cells if c.cell_type == "markdown"]
    assert any(h.startswith("## Answer") for h in headings)
    last = executed.cells[-1]
    written = (
        last.source
        if last.cell_type == "markdown"
        else "".join(o.get("text", "") for o in last.outputs)
    )
    assert len(written.split()) >= 25, "the answer is a few sentences"
