"""The guide's Python chapter (book/src/python.md): every code block runs, in order,
in one namespace, in a fresh directory."""

import re

from conftest import REPO

PAGE = REPO / "book" / "src" / "python.md"


def test_every_python_block_of_the_guide_runs(tmp_path, monkeypatch, capsys):
    blocks = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(), flags=re.S | re.M)
    assert len(blocks) >= 8, "the page lost its examples"
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    try:
        import networkx  # noqa: F401
    except ImportError:
        networkx = None
    for n, block in enumerate(blocks, 1):
        if networkx is None and "import networkx" in block:
            continue  # emu.topology.from_networkx's example needs networkx
        try:
            exec(compile(block, f"{PAGE.name} block {n}", "exec"), namespace)
        except Exception as e:  # pragma: no cover - the message says which block
            raise AssertionError(f"block {n} of {PAGE}:\n{block}") from e
    out = capsys.readouterr().out
    assert "completed" in out and "stopped" in out
