"""emu.run: the report is the command line's, byte for byte, for every kind of input."""

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import emu
from conftest import REPO

SHORT = {"phases.warmup_us": 10, "phases.measure_us": 60}
SHORT_ARGS = ["--set", "phases.warmup_us=10", "--set", "phases.measure_us=60"]

# One case of each family, shortened where the family has phases.
CASES = [
    ("hypercube6", "uniform", SHORT, SHORT_ARGS),
    ("sci-ring4", "sci-uniform", SHORT, SHORT_ARGS),
    ("fabric16-grant", "uniform-rate", SHORT, SHORT_ARGS),
    ("relay-ring", "relay-balls", {}, []),
]


@pytest.mark.parametrize("topology,traffic,sets,args", CASES)
def test_a_run_is_the_command_line_s_json(cli, topology, traffic, sets, args):
    r = emu.run(topology, traffic, set=sets, seed=5)
    code, text, err = cli("-q", "-t", topology, "-p", traffic, "--seed", "5", *args)
    assert code == 0, err
    assert r.outcome == "completed" and r.completed
    assert r.to_dict() == json.loads(text)
    assert r.to_json() == text
    assert r.seed == 5


def test_the_common_figures_are_the_report_s(cli):
    r = emu.run("hypercube6", "uniform", set=SHORT)
    d = r.to_dict()
    assert r.throughput == d["throughput"]["delivered_pct"]["mean"] > 0
    assert r.offered == d["throughput"]["offered_pct"]["mean"]
    assert r.latency_mean_us == d["latency"]["message_latency"]["us"]["mean"] > 0
    assert r.latency_p99_us == d["latency"]["message_latency"]["us"]["p99"]
    assert r.token_hops == d["token_hops"] > 0
    assert r.deadlock is None and r.fault is None
    assert r.threads >= 1 and r.wall_seconds > 0
    assert "hypercube6" in repr(r)


def test_sets_as_a_dict_or_strings_and_inputs_of_every_kind_agree():
    base = emu.run("hypercube6", "uniform", set=["phases.warmup_us=5", "phases.measure_us=30"]).to_dict()
    as_dict = emu.run("hypercube6", "uniform", set={"phases.warmup_us": 5, "phases.measure_us": 30})
    assert as_dict.to_dict() == base
    path = REPO / "topologies" / "hypercube6.toml"
    text = path.read_text()
    for topology in (path, str(path), text):
        d = emu.run(topology, "uniform", set={"phases.warmup_us": 5, "phases.measure_us": 30}).to_dict()
        # Everything but the name the topology is known by.
        d["topology"]["name"] = base["topology"]["name"]
        assert d == base, topology
    import tomllib

    as_table = emu.run(tomllib.loads(text), "uniform", set={"phases.warmup_us": 5, "phases.measure_us": 30})
    d = as_table.to_dict()
    assert d["topology"]["name"] == "<topology>"
    d["topology"]["name"] = base["topology"]["name"]
    assert d == base


def test_a_path_with_sets_matches_the_command_line(cli):
    path = REPO / "topologies" / "grid8.toml"
    r = emu.run(path, "shuffle", set={"message.bytes": 16, **SHORT}, seed=2)
    code, text, err = cli(
        "-q", "-t", str(path), "-p", "shuffle", "--seed", "2",
        "--set", "message.bytes=16", *SHORT_ARGS,
    )
    assert code == 0, err
    assert r.to_json() == text


def test_a_deadlock_is_the_outcome_with_its_explanation(cli):
    r = emu.run("torus4-single", "torus4-ring")
    code, text, err = cli("-q", "-t", "torus4-single", "-p", "torus4-ring")
    assert code == 3, err
    assert r.outcome == "deadlock" and not r.completed
    assert r.to_json() == text
    d = r.deadlock
    assert d["outcome"] == "deadlock"
    assert len(d["cycle_text"]) > 1 and d["stuck"]
    assert d["reproduce"] == r.reproduce == "emu --topology torus4-single.toml --traffic torus4-ring.toml --seed 1"
    assert r.throughput is None and r.terminals is None


def test_progress_is_told_and_can_stop_the_run():
    seen = []

    def progress(p: emu.Progress):
        seen.append(p)
        return p.virtual_us < 40

    r = emu.run("hypercube6", "uniform", progress=progress, progress_interval=0.001)
    assert r.outcome == "stopped"
    assert r.to_dict()["outcome"] == "stopped"
    assert seen and all(isinstance(p, emu.Progress) for p in seen)
    assert any(p.virtual_us >= 40 for p in seen)
    assert all(0 <= p.fraction <= 1 for p in seen)
    # It stopped soon after it was asked to, long before its end.
    assert r.to_dict()["tick"] * r.to_dict()["tick_ns"] / 1000 < seen[0].end_us


def test_progress_is_a_read_only_value():
    a = emu.Progress(1.0, 2.0, 0.5, 3, 4, 5, 6, 7)
    b = emu.Progress(1.0, 2.0, 0.5, 3, 4, 5, 6, 7)
    assert a == b and hash(a) == hash(b) and a != emu.Progress(1.0, 2.0, 0.5, 3, 4, 5, 6, 8)
    assert repr(a).startswith("Progress(virtual_us=1.0, end_us=2.0, fraction=0.5,")
    with pytest.raises(AttributeError):
        a.fraction = 1.0


def test_import_emu_loads_only_what_a_run_needs():
    # A run pays for json, csv, pandas and the typing machinery only when it reads a
    # report or a batch job's table: `import emu` does not load them.
    # (Those the interpreter's own start loaded, as a site hook may, do not count.)
    heavy = ["json", "csv", "pandas", "dataclasses", "inspect", "typing", "re"]
    loaded = f"[m for m in {heavy!r} if m in sys.modules]"
    bare = subprocess.run(
        [sys.executable, "-c", f"import sys; print({loaded})"], capture_output=True, text=True, check=True
    )
    code = f"import emu, sys; print({loaded})"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == bare.stdout, out.stdout
    # Reading a figure parses the report then.
    code = "import emu, sys; r = emu.run('hypercube6', 'uniform', set={'phases.measure_us': 20}); "
    code += "assert 'json' not in sys.modules; r.throughput; print('json' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True", out.stdout + out.stderr


def test_a_progress_callable_that_raises_stops_the_run_with_its_exception():
    def progress(p):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        emu.run("hypercube6", "uniform", progress=progress, progress_interval=0.001)


def test_the_gil_is_released_while_the_run_goes():
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    t = threading.Thread(target=count)
    t.start()
    try:
        start = time.monotonic()
        emu.run("hypercube8", "uniform", set={"phases.warmup_us": 10, "phases.measure_us": 200})
        end = time.monotonic()
    finally:
        done.set()
        t.join()
    during = [x for x in ticks if start < x < end]
    assert end - start > 0.2
    assert len(during) >= (end - start) / 0.005 / 4, (len(during), end - start)


def test_ctrl_c_stops_a_run_and_raises_keyboard_interrupt(ctrl_c_raises):
    import os
    import signal

    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # A run of minutes if nothing stopped it.
            emu.run("hypercube8", "uniform", set={"phases.measure_us": 1e6})
    finally:
        timer.cancel()
    assert time.monotonic() - start < 10


def test_threads_do_not_change_the_report():
    one = emu.run("hypercube8", "uniform", set=SHORT, threads=1)
    two = emu.run("hypercube8", "uniform", set=SHORT, threads=2)
    assert one.threads == 1 and two.threads == 2
    assert one.to_json() == two.to_json()


def test_check_is_emu_check(emu_bin, tmp_path):
    import subprocess

    for topology, code in (("hypercube6", 0), ("torus4-single", 3), ("sci-ring4", 0)):
        c = emu.check(topology)
        out = tmp_path / f"{topology}.json"
        p = subprocess.run(
            [str(emu_bin), "check", "-t", topology, "--json", str(out)],
            capture_output=True, text=True,
        )
        assert p.returncode == code, p.stderr
        assert c.to_json() == out.read_text()
        assert c.deadlock_free == (code == 0)
        assert c.text == p.stdout
        assert (c.cycle is not None) == (code == 3)


def test_list_is_emu_list(emu_bin):
    import subprocess

    shipped = emu.list()
    assert "hypercube8" in shipped["topologies"] and "uniform" in shipped["traffic"]
    text = subprocess.run([str(emu_bin), "list"], capture_output=True, text=True).stdout
    for kind in ("topologies", "traffic"):
        for name, description in shipped[kind].items():
            assert f"  {name}" in text and description in text


def test_tables():
    pandas = pytest.importorskip("pandas")
    r = emu.run("hypercube6", "transpose", set=SHORT)
    terminals = r.terminals
    assert isinstance(terminals, pandas.DataFrame)
    assert len(terminals) == 64 and terminals.index.name == "terminal"
    assert terminals["delivered_pct"].mean() == pytest.approx(r.throughput)
    assert list(r.links.columns) == ["from", "from_port", "to", "to_port", "busy_pct"]
    assert len(r.flows) > 0 and "mean_latency" in r.flows.columns
    lat = r.latency
    assert lat.loc["message_latency", "mean"] == r.latency_mean_us
    assert lat.loc["message_latency", "p99"] == r.latency_p99_us
