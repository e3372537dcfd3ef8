"""Topologies made in Python: a networkx graph as a network of C104 switches.

>>> import networkx as nx, emu
>>> torus = emu.topology.from_networkx(nx.grid_2d_graph(3, 3, periodic=True))
>>> emu.check(torus).deadlock_free
False

:func:`from_networkx` writes the graph as GraphML text, which :func:`emu.run` and
:func:`emu.check` (and the command line, saved to a ``.graphml`` file) read as a
netlist: a switch at each node, a link at each edge, shortest-path routing tables.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["from_networkx"]

#: The sections whose keys the graph may set (``{"link.buffer_tokens": "packet"}``).
SECTIONS = ("link", "packet", "c104", "vcp")


def from_networkx(
    G: Any,
    *,
    terminals: Union[int, Mapping[Hashable, int]] = 1,
    description: Optional[str] = None,
    settings: Optional[Mapping[str, Any]] = None,
) -> str:
    """``G`` (a networkx graph or multigraph) as the GraphML text of a network of C104
    switches, a topology :func:`emu.run` and :func:`emu.check` accept.

    Each node is a switch (in ``G``'s node order), each edge a DS-Link (parallel edges
    of a multigraph are parallel links). ``terminals`` is how many terminals each switch
    has: a number for every node, or a dict by node (nodes it leaves out have one); a
    node's own ``terminals`` attribute wins over a number. An edge's ``source_port`` and
    ``target_port`` attributes, if it has them, fix its ports at the end ``G.edges()``
    lists first and second. ``description`` is the report's description of the
    topology; ``settings`` sets keys of the ``link``, ``packet``, ``c104`` and ``vcp``
    sections (``{"link.buffer_tokens": "packet", "vcp.acknowledge": False}``), as a
    topology file does. Other attributes of ``G`` are not written.

    A directed graph is written directed: emu takes each edge as one link whichever way
    it points, and refuses two edges that point opposite ways between the same nodes
    (give ``G.to_undirected()``). What emu refuses (a self-loop, a port used twice, more
    than 32 links and terminals on a switch, a disconnected graph) raises
    :class:`emu.ConfigError` when the text is run or checked, naming the node or edge.
    """
    try:
        import networkx as nx  # type: ignore
    except ImportError as e:  # pragma: no cover - networkx is what G is made with
        raise ImportError("emu.topology.from_networkx needs networkx: pip install networkx") from e
    if not isinstance(G, nx.Graph):
        raise TypeError(f"give a networkx graph, not {type(G).__name__}")
    for key in settings or {}:
        if key.split(".", 1)[0] not in SECTIONS or "." not in key:
            raise ValueError(
                f"settings key {key!r}: give SECTION.KEY with a section of {', '.join(SECTIONS)}"
            )
    H = nx.MultiDiGraph() if G.is_directed() else nx.MultiGraph()
    if description is not None:
        H.graph["description"] = str(description)
    for key, value in (settings or {}).items():
        H.graph[key] = value
    by_node = terminals if isinstance(terminals, Mapping) else {}
    every = 1 if isinstance(terminals, Mapping) else terminals
    if isinstance(every, bool) or not isinstance(every, int):
        raise TypeError(f"terminals {terminals!r}: give a whole number or a dict by node")
    for node, attrs in G.nodes(data=True):
        count = by_node.get(node, attrs.get("terminals", every))
        H.add_node(str(node), terminals=int(count))
    for u, v, attrs in G.edges(data=True):
        ports = {k: int(attrs[k]) for k in ("source_port", "target_port") if k in attrs}
        H.add_edge(str(u), str(v), **ports)
    if H.number_of_nodes() != G.number_of_nodes():
        raise ValueError("two nodes of G have the same name as text (str(node)): rename one")
    return "\n".join(nx.generate_graphml(H)) + "\n"
