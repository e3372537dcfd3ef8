"""emu.sweep, emu.stress and emu.reproduce against the command line: the same tables,
files and JSON documents for the same arguments."""

import csv
import json
import subprocess
import sys

import pytest

import emu

SHORT = {"phases.measure_us": 50}
SHORT_FLAGS = ["--set", "phases.measure_us=50"]
LOADS = "0.2:0.6:0.2"


def cli_out(emu_bin, tmp_path, *args, code=0):
    p = subprocess.run(
        [str(emu_bin), *args], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert p.returncode == code, p.stderr
    return p.stdout, p.stderr


def test_a_sweep_is_the_command_lines_csv_table_and_json(emu_bin, tmp_path):
    pandas = pytest.importorskip("pandas")
    stdout, _ = cli_out(
        emu_bin, tmp_path, "sweep", "-t", "hypercube6", "-p", "uniform", "--load", LOADS,
        *SHORT_FLAGS, "--csv", "runs.csv", "--table-csv", "table.csv", "--json", "s.json", "-q",
    )
    frame = emu.sweep("hypercube6", "uniform", loads=LOADS, set=SHORT, processes=2)
    pandas.testing.assert_frame_equal(frame, pandas.read_csv(tmp_path / "runs.csv"))
    assert list(frame["load"]) == [0.2, 0.4, 0.6]
    assert list(frame["status"]) == ["ok"] * 3
    pandas.testing.assert_frame_equal(
        frame.attrs["table"], pandas.read_csv(tmp_path / "table.csv")
    )
    assert frame.attrs["json"] == (tmp_path / "s.json").read_text()
    assert frame.attrs["text"] == stdout
    doc = json.loads(frame.attrs["json"])
    assert frame.attrs["saturation"] == doc["saturation"]["load"]
    assert frame.attrs["peak"] == tuple(doc["saturation"]["peak"])
    assert frame.attrs["peak"][1] == 0.6


def test_loads_as_a_list_and_one_worker_give_the_same_sweep():
    a = emu.sweep("hypercube6", "uniform", loads=LOADS, set=SHORT, processes=2)
    b = emu.sweep("hypercube6", "uniform", loads=[0.2, 0.4, 0.6], set=SHORT, processes=1)
    assert a.attrs["json"] == b.attrs["json"]
    # Any list of loads, in its order.
    c = emu.sweep("hypercube6", "uniform", loads=[0.6, 0.25], set=SHORT)
    assert list(c["load"]) == [0.6, 0.25]
    assert list(c["throughput_pct"])[0] == list(a["throughput_pct"])[2]
    with pytest.raises(emu.ConfigError, match="load 1.5 is not a fraction"):
        emu.sweep("hypercube6", "uniform", loads=[0.5, 1.5])


def test_without_pandas_a_sweep_is_a_list_of_dicts(emu_bin, tmp_path, monkeypatch):
    cli_out(
        emu_bin, tmp_path, "sweep", "-t", "hypercube6", "-p", "uniform", "--load", "0.3",
        *SHORT_FLAGS, "--csv", "runs.csv", "-q",
    )
    monkeypatch.setitem(sys.modules, "pandas", None)
    rows = emu.sweep("hypercube6", "uniform", loads=0.3, set=SHORT)
    assert isinstance(rows, emu.Rows) and isinstance(rows, list)
    with open(tmp_path / "runs.csv") as f:
        expected = list(csv.DictReader(f))
    assert len(rows) == len(expected) == 1
    assert rows[0].keys() == expected[0].keys()
    for k, v in expected[0].items():
        assert rows[0][k] == (v if isinstance(rows[0][k], str) else float(v)), k
    assert isinstance(rows[0]["seed"], int) and isinstance(rows[0]["throughput_pct"], float)
    assert rows.attrs["saturation"] is None


def test_a_shard_is_what_the_command_line_writes_for_merge(emu_bin, tmp_path):
    cli_out(
        emu_bin, tmp_path, "sweep", "-t", "hypercube6", "-p", "uniform", "--load", LOADS,
        *SHORT_FLAGS, "--shard", "2/2", "--out", "cli.jsonl", "-q",
    )
    text = emu.sweep(
        "hypercube6", "uniform", loads=LOADS, set=SHORT, shard="2/2", out=tmp_path / "py.jsonl"
    )
    assert text == (tmp_path / "cli.jsonl").read_text()
    assert (tmp_path / "py.jsonl").read_text() == text
    # The merge of the two slices prints the whole sweep.
    emu.sweep("hypercube6", "uniform", loads=LOADS, set=SHORT, shard="1/2", out=tmp_path / "p1.jsonl")
    merged, _ = cli_out(emu_bin, tmp_path, "merge", "p1.jsonl", "py.jsonl")
    whole = emu.sweep("hypercube6", "uniform", loads=LOADS, set=SHORT)
    assert merged == whole.attrs["text"]


def test_the_progress_callable_is_told_runs_done_and_can_stop_a_sweep():
    seen = []

    def progress(done, total):
        seen.append((done, total))
        return False

    got = emu.sweep(
        "hypercube6", "uniform", loads="0.05:1.0:0.05", set=SHORT, processes=1,
        progress=progress, progress_interval=0.001,
    )
    assert got is None
    assert seen and all(total == 20 and 0 <= done < 20 for done, total in seen)

    told = []
    emu.sweep("hypercube6", "uniform", loads=0.2, set=SHORT, progress=lambda d, t: told.append((d, t)))
    assert told[-1] == (1, 1)


def test_ctrl_c_stops_a_sweep_and_a_search_and_raises_keyboard_interrupt(ctrl_c_raises):
    import os
    import signal
    import threading
    import time

    for job in (
        # Twenty runs of seconds each if nothing stopped them.
        lambda: emu.sweep("hypercube8", "uniform", loads="0.05:1.0:0.05", processes=1),
        lambda: emu.stress("hypercube8", seeds=1000, processes=1),
    ):
        timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
        start = time.monotonic()
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                job()
        finally:
            timer.cancel()
        assert time.monotonic() - start < 30


def test_bad_sweeps_say_what_the_command_line_says(emu_bin, tmp_path):
    _, stderr = cli_out(emu_bin, tmp_path, "sweep", "-t", "hypercube6", "-p", "shuffle20", "-q", code=2)
    with pytest.raises(emu.ConfigError) as e:
        emu.sweep("hypercube6", "shuffle20")
    assert stderr == f"error: {e.value}\n"
    with pytest.raises(emu.ConfigError, match="loads 0.5:0.1:0.1"):
        emu.sweep("hypercube6", "uniform", loads="0.5:0.1:0.1")
    with pytest.raises(emu.ConfigError, match="shard 3/2"):
        emu.sweep("hypercube6", "uniform", shard="3/2")
    with pytest.raises(emu.ConfigError, match="processes"):
        emu.sweep("hypercube6", "uniform", processes=0)
    with pytest.raises(emu.ConfigError, match="network.dimensions"):
        emu.sweep("hypercube6", "uniform", set={"network.dimensions": 0})


def test_a_stress_search_finds_and_shrinks_the_command_lines_deadlock(emu_bin, tmp_path):
    stdout, _ = cli_out(
        emu_bin, tmp_path, "stress", "-t", "ring4", "--seeds", "2", "--json", "s.json",
        "--out", "cli.toml", "-q", code=3,
    )
    r = emu.stress("ring4", seeds=2, out="cli.toml", processes=2)
    assert r.deadlock and r.case == 1 and r.cases == 6 and r.cases_tried == 1
    assert "deadlock in case 1 of 6" in stdout
    assert r.to_json() == (tmp_path / "s.json").read_text()
    assert r.traffic == (tmp_path / "cli.toml").read_text()
    assert r.rerun.startswith("emu --topology ring4 --traffic cli.toml --seed 1")
    assert f"reproduce with: {r.rerun}" in stdout
    assert r.kind == "permutation" and r.seed == 1 and r.cycle
    # The shrunk traffic, given to emu.run as a dict, deadlocks at the same tick.
    again = emu.run("ring4", r.traffic_dict, seed=r.seed)
    assert again.outcome == "deadlock" and again.to_dict()["tick"] == r.tick


def test_a_clean_search_says_so_as_the_command_line_does(emu_bin, tmp_path):
    cli_out(emu_bin, tmp_path, "stress", "-t", "hypercube6", "--seeds", "1", "--json", "s.json", "-q")
    r = emu.stress("hypercube6", seeds=1)
    assert not r.deadlock and r.case is None and r.cases == r.cases_tried == 3
    assert r.traffic is None and r.rerun is None and r.traffic_dict is None
    assert r.to_json() == (tmp_path / "s.json").read_text()


def test_on_an_sci_ring_a_search_finds_the_command_lines_starved_node(emu_bin, tmp_path):
    stdout, _ = cli_out(
        emu_bin, tmp_path, "stress", "-t", "sci-ring4", "--seeds", "1", "--json", "s.json",
        "--out", "case.toml", "-q", code=3,
    )
    r = emu.stress("sci-ring4", seeds=1, out="case.toml")
    assert r.outcome == "starvation" and not r.deadlock and r.case == 1 and r.cases == 4
    assert r.to_json() == (tmp_path / "s.json").read_text()
    assert r.traffic == (tmp_path / "case.toml").read_text()
    assert f"rerun with: {r.rerun}" in stdout
    assert f"node {r.starved[0]} starved in case 1 of 4" in stdout
    assert r.traffic_dict["pattern"]["kind"] == "starved"
    clean = emu.stress("sci-ring4", seeds=1, set={"network.flow_control": True})
    assert clean.outcome == "no_starvation" and clean.case is None and clean.cases_tried == 4
    with pytest.raises(emu.ConfigError, match="an SCI ring has none to shrink"):
        emu.stress("sci-ring4", buffers="small")


def test_a_stress_search_refuses_what_it_cannot_search():
    with pytest.raises(emu.ConfigError, match="buffers"):
        emu.stress("ring4", buffers="tiny")
    with pytest.raises(emu.ConfigError, match="only topology keys"):
        emu.stress("ring4", set={"message.bytes": 8})
    with pytest.raises(emu.ConfigError, match="run_us"):
        emu.stress("ring4", run_us=0.5)


def test_a_reproduction_is_the_command_lines_rows_and_json(emu_bin, tmp_path):
    stdout, _ = cli_out(
        emu_bin, tmp_path, "reproduce", "dslink-latency", "--quick", "--json", "r.json", "-q"
    )
    rows = emu.reproduce("dslink-latency")
    assert rows.attrs["json"] == (tmp_path / "r.json").read_text()
    assert rows.attrs["text"] in stdout
    assert len(rows) == rows.attrs["passed"] + rows.attrs["failed"]
    assert f"{rows.attrs['passed']} of {len(rows)} rows pass" in stdout
    assert rows.attrs["ok"] is True
    first = rows.iloc[0] if hasattr(rows, "iloc") else rows[0]
    assert first["experiment"] == "dslink-latency" and "parameter" in first


def test_experiments_are_the_command_lines_list(emu_bin, tmp_path):
    stdout, _ = cli_out(emu_bin, tmp_path, "reproduce", "--list")
    names = [line.split()[0] for line in stdout.splitlines()]
    assert list(emu.experiments()) + ["all"] == names
    with pytest.raises(emu.ConfigError, match="unknown experiment `nope`"):
        emu.reproduce("nope")
