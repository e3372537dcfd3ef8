"""emu.Network: a network stepped from Python, message by message."""

import json
import random

import pytest

import emu


def one_message_traffic(src, dst, nbytes):
    return (
        f'[pattern]\nkind = "fixed"\ndestination = {dst}\n[injection]\nkind = "batch"\n'
        f"messages = 1\n[message]\nbytes = {nbytes}\n[terminals]\nsenders = [{src}]\n"
    )


@pytest.mark.parametrize("src,dst,nbytes", [(0, 63, 32), (5, 6, 100)])
def test_a_message_on_an_idle_network_has_the_latency_a_run_reports(src, dst, nbytes):
    net = emu.Network("hypercube6", seed=1)
    assert (net.terminals, net.tick, net.now, net.tick_ns) == (64, 0, 0.0, 10.0)
    mid = net.send(src, dst, nbytes)
    assert mid == 0 and net.in_flight == 1
    net.run_until(20.0)
    assert net.tick == 2000 and net.now == 20.0
    assert net.in_flight == 0
    (d,) = net.delivered()
    report = emu.run("hypercube6", one_message_traffic(src, dst, nbytes), threads=1)
    latency = report.to_dict()["latency"]["message_latency"]
    assert latency["count"] == 1
    assert d["latency"] == latency["ticks"]["max"]
    assert d["latency_us"] == pytest.approx(latency["us"]["max"])
    assert (d["id"], d["source"], d["destination"], d["bytes"]) == (mid, src, dst, nbytes)
    assert d["delivered"] - d["created"] == d["latency"]
    assert d["hops"] >= 1
    assert net.delivered() == [], "each message is returned once"


def workload(net, n, chunk, seed=7):
    """Sends n random messages at random ticks over 40,000 ticks, stepping `chunk`
    ticks at a time until all have arrived; returns (ids sent, rows delivered)."""
    rng = random.Random(seed)
    plan = sorted(
        (rng.randrange(40_000), rng.randrange(64), rng.randrange(64), rng.randrange(200))
        for _ in range(n)
    )
    sent, got = [], []
    i = 0
    while net.tick < 200_000:
        while i < len(plan) and plan[i][0] < net.tick + chunk:
            t, src, dst, nbytes = plan[i]
            sent.append(net.send(src, dst, nbytes, at_us=max(t, net.tick) * net.tick_ns / 1000))
            i += 1
        net.step(chunk)
        got.extend(net.delivered())
    return sent, got


def test_every_message_arrives_once_and_the_same_calls_give_the_same_rows():
    sent, got = workload(emu.Network("hypercube6", seed=3), 300, 500)
    assert sent == list(range(300)), "ids count up from 0"
    assert sorted(d["id"] for d in got) == sent, "nothing lost, nothing twice"
    assert [d["delivered"] for d in got] == sorted(d["delivered"] for d in got)
    again = workload(emu.Network("hypercube6", seed=3), 300, 500)[1]
    assert json.dumps(again) == json.dumps(got)
    finer = workload(emu.Network("hypercube6", seed=3), 300, 37)[1]
    assert finer == got, "where the steps stop changes nothing"


def test_messages_can_be_created_later_and_step_counts_ticks():
    net = emu.Network("hypercube6", seed=1, set={"network.dimensions": 3})
    assert net.terminals == 8
    net.send(1, 2, 16, at_us=5.0)
    net.step(500)
    assert net.tick == 500, "ticks 0 to 499 have run"
    assert net.activity()["messages_created"] == 0
    net.step()
    assert net.tick == 501 and net.activity()["messages_created"] == 1, "tick 500 ran"
    net.run_until(30.0)
    (d,) = net.delivered()
    assert d["created"] == 500 and d["created_us"] == 5.0
    net.run_until(10.0)
    assert net.tick == 3000, "run_until never goes back"


def test_bad_calls_are_config_errors_with_one_line():
    net = emu.Network("hypercube6", seed=1)
    with pytest.raises(emu.ConfigError) as info:
        net.send(64, 0, 8)
    assert str(info.value) == "source 64 is not a terminal of hypercube6: give 0 to 63"
    for args in [(0, 99, 8), (-1, 0, 8), (0, 1, 2**40), (0, 1, "x")]:
        with pytest.raises(emu.ConfigError):
            net.send(*args)
    net.run_until(1.0)
    with pytest.raises(emu.ConfigError, match="in the past"):
        net.send(0, 1, 8, at_us=0.5)
    net.send(0, 1, 8, at_us=9.0)
    with pytest.raises(emu.ConfigError, match="in the order they are sent"):
        net.send(0, 1, 8, at_us=8.0)
    for bad in (-1, 1.5, "x"):
        with pytest.raises(emu.ConfigError):
            net.step(bad)
    with pytest.raises(emu.ConfigError):
        net.run_until(float("nan"))
    with pytest.raises(emu.ConfigError, match="only networks of C104s"):
        emu.Network("sci-ring4")
    with pytest.raises(emu.ConfigError, match="reads only the topology"):
        emu.Network("hypercube6", set={"message.bytes": 8})
    with pytest.raises(emu.ConfigError):
        emu.Network("nosuch")
    with pytest.raises(emu.TooLargeError):
        emu.Network("hypercube6", memory_limit=1000)
