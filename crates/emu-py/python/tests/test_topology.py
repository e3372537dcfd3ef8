"""emu.topology.from_networkx: a networkx graph runs and is checked as a netlist."""

import json

import pytest

import emu

nx = pytest.importorskip("networkx")

SHORT = {"phases.warmup_us": 10, "phases.measure_us": 60}
SHORT_ARGS = ["--set", "phases.warmup_us=10", "--set", "phases.measure_us=60"]
CHAPTER_7 = {"link.buffer_tokens": "packet", "vcp.acknowledge": False}


def torus(side: int = 3):
    return nx.grid_2d_graph(side, side, periodic=True)


def test_a_torus_runs_and_is_the_command_line_s_report_of_the_same_file(cli, tmp_path):
    text = emu.topology.from_networkx(torus(), terminals=2, description="a 3×3 torus")
    assert text.startswith("<graphml")
    r = emu.run(text, "uniform", set=SHORT, seed=3)
    assert r.completed, r.outcome
    d = r.to_dict()
    assert d["topology"]["config"]["description"] == "a 3×3 torus"
    assert d["topology"]["terminals"] == 18 and d["topology"]["switches"] == 9
    (tmp_path / "torus.graphml").write_text(text)
    code, out, err = cli("-q", "-t", "torus.graphml", "-p", "uniform", "--seed", "3", *SHORT_ARGS)
    assert code == 0, err
    cli_report = json.loads(out)
    assert cli_report["throughput"] == d["throughput"]
    assert cli_report["topology"]["name"] == "torus"


def test_check_finds_the_torus_cycle_and_a_tree_free_of_one():
    c = emu.check(emu.topology.from_networkx(torus()))
    assert c.deadlock_free is False
    assert c.cycle and len(c.cycle) >= 3
    tree = emu.check(emu.topology.from_networkx(nx.balanced_tree(2, 3)))
    assert tree.deadlock_free is True and tree.cycle is None


def test_a_dragonfly_like_multigraph_with_settings_and_terminals_by_node():
    # Four groups of three switches, all-to-all inside a group, one global link between
    # each pair of groups (doubled between groups 0 and 1).
    G = nx.MultiGraph()
    groups = [[(g, s) for s in range(3)] for g in range(4)]
    for members in groups:
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                G.add_edge(a, b)
    for g in range(4):
        for h in range(g + 1, 4):
            G.add_edge((g, h - 1), (h, g))
    G.add_edge((0, 0), (1, 0))
    text = emu.topology.from_networkx(
        G, terminals={(0, 0): 3}, settings=CHAPTER_7, description="dragonfly-like"
    )
    assert text.count("<edge ") == G.number_of_edges()
    r = emu.run(text, "uniform", set=SHORT)
    assert r.outcome in ("completed", "deadlock")
    if r.completed:
        assert r.to_dict()["topology"]["terminals"] == 14
    assert isinstance(emu.check(text).deadlock_free, bool)


def test_refusals_name_the_node_or_edge():
    loop = nx.MultiGraph([(0, 1), (1, 1)])
    with pytest.raises(emu.ConfigError, match=r'edge "1" -- "1" .*is a self-loop'):
        emu.check(emu.topology.from_networkx(loop))
    apart = nx.Graph([(0, 1), (2, 3)])
    with pytest.raises(emu.ConfigError, match='node "2" cannot be reached'):
        emu.check(emu.topology.from_networkx(apart))
    star = nx.star_graph(32)
    with pytest.raises(emu.ConfigError, match='node "0": 32 links and 1 terminals'):
        emu.check(emu.topology.from_networkx(star))
    both_ways = nx.DiGraph([(0, 1), (1, 0)])
    with pytest.raises(emu.ConfigError, match="points back along"):
        emu.check(emu.topology.from_networkx(both_ways))
    emu.check(emu.topology.from_networkx(both_ways.to_undirected()))
    ports = nx.Graph()
    ports.add_edge("a", "b", source_port=2)
    ports.add_edge("a", "c", source_port=2)
    with pytest.raises(emu.ConfigError, match='port 2 of node "a" is already used'):
        emu.check(emu.topology.from_networkx(ports))
    with pytest.raises(ValueError, match="settings key"):
        emu.topology.from_networkx(torus(), settings={"network.kind": "grid"})
    with pytest.raises(TypeError):
        emu.topology.from_networkx({"not": "a graph"})
