#!/usr/bin/env python3
"""Writes topologies/petersen.graphml: the Petersen graph as networkx writes it.

Ten C104 switches joined as the Petersen graph (3 links each, any switch two hops from
any other), two terminals on each. The graph attributes set the parameters of the
shipped networks of C104s (INMOS ch. 7's experiments), as topologies/netlist-tree.toml
does. Run from the repository root with networkx installed:

    python3 tools/petersen-graphml.py
"""

from pathlib import Path

import networkx as nx

OUT = Path(__file__).resolve().parents[1] / "topologies" / "petersen.graphml"

G = nx.petersen_graph()
G.graph.pop("name", None)
G.graph["description"] = (
    "The Petersen graph written by networkx (GraphML): 10 C104s, 3 links and "
    "2 terminals each, shortest-path tables"
)
G.graph.update(
    {
        "link.bit_rate_mbit_s": 100,
        "link.wire_delay_ns": 200,
        "link.buffer_tokens": "packet",
        "link.fct_batch_tokens": 8,
        "packet.header_bytes": 1,
        "packet.max_data_bytes": 32,
        "c104.header_time_ns": 500,
        "c104.output_buffer_tokens": "packet",
        "vcp.acknowledge": False,
        "vcp.channels": 1,
    }
)
nx.set_node_attributes(G, 2, "terminals")
nx.write_graphml(G, OUT)
print(f"wrote {OUT}")
