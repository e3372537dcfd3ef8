"""The example notebook (examples/notebook/load-latency-fairness.ipynb) runs top to
bottom in a fresh kernel, its own assertions included, and is kept without outputs."""

import os

import pytest

from conftest import REPO

NOTEBOOK = REPO / "examples" / "notebook" / "load-latency-fairness.ipynb"


def test_the_example_notebook_runs(tmp_path):
    try:
        import nbclient
        import nbformat
    except ImportError:
        if os.environ.get("EMU_REQUIRE_NOTEBOOK"):
            raise
        pytest.skip("nbclient is not installed: pip install nbclient nbformat ipykernel matplotlib")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, "the notebook lost its code"
    assert not any(c.get("outputs") for c in code), "commit the notebook without outputs"
    nbclient.NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    texts = [
        o.get("text", "") + str(o.get("data", {}).get("text/plain", ""))
        for c in code
        for o in c.outputs
    ]
    images = [o for c in code for o in c.outputs if "image/png" in o.get("data", {})]
    assert len(images) == 2, "one figure per study"
    assert any("delivery falls short of the offer from load" in t for t in texts), texts
    assert any(t.startswith("hot sender:") for t in texts), texts
