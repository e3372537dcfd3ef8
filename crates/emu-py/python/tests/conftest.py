"""Shared helpers: the repository, and the `emu` binary to compare against."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="session")
def emu_bin() -> Path:
    """The command line built from the same sources (`cargo build --release`), or the
    one `EMU_BIN` names."""
    path = Path(os.environ.get("EMU_BIN", REPO / "target" / "release" / "emu"))
    if not path.is_file():
        pytest.fail(f"{path} not found: build it with cargo build --release, or set EMU_BIN")
    return path


@pytest.fixture
def cli(emu_bin, tmp_path):
    """Runs `emu ARGS --json FILE` in `tmp_path`; returns (exit code, JSON text or None,
    stderr)."""

    def run(*args: str, json_flag: bool = True):
        out = tmp_path / "cli.json"
        if out.exists():
            out.unlink()
        cmd = [str(emu_bin), *args] + (["--json", str(out)] if json_flag else [])
        p = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        text = out.read_text() if out.exists() else None
        return p.returncode, text, p.stderr

    return run


def parsed(text: str):
    return json.loads(text)


@pytest.fixture(autouse=True)
def in_a_fresh_directory(tmp_path, monkeypatch):
    """Each test runs in an empty directory: a name is looked up there first, as the
    command line looks it up where it runs."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C (SIGINT) raises KeyboardInterrupt for the test's duration, whatever the
    process inherited: a Python started with SIGINT ignored (as a shell starts a
    background job without job control) keeps it ignored, and a Ctrl-C test there
    would wait for the whole job instead."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
