"""A network stepped from Python (co-simulation): send messages into a network of C104s,
advance virtual time as far as you like, and read what arrived.

>>> import emu
>>> net = emu.Network("hypercube6", seed=1)
>>> mid = net.send(0, 63, 32)
>>> net.run_until(20.0)
>>> [d["latency_us"] for d in net.delivered()]
[7.7]
"""

from __future__ import annotations

from . import _emu
from ._errors import ConfigError


def _whole(value: Any, what: str) -> int:
    """``value`` if it is a whole number that fits 32 bits (the extension checks the
    range that applies), else ``emu.ConfigError``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32:
        raise ConfigError(f"{what} {value!r}: give a whole number from 0 to {2**32 - 1}")
    return value


class Network:
    """A network of C104s whose terminals send what you :meth:`send`, stepped by you.

    ``topology`` is a shipped name, a path, TOML text or a dict, as for :func:`emu.run`;
    ``set`` overrides topology keys (the traffic is what you send: a traffic key is an
    error); ``seed`` is the run seed (the same seed and calls give the same deliveries).
    Only networks of C104s can be stepped (every ``network.kind`` of that family); an
    SCI ring or a switch fabric raises :class:`emu.ConfigError`.

    Virtual time has two faces: :attr:`tick` is the first whole tick not yet run (one
    tick is :attr:`tick_ns` ns: one bit period of the link, 10 ns at 100 Mbit/s), and
    :attr:`now` is the same instant in µs. :meth:`step` counts ticks; :meth:`run_until`
    takes µs, to the nearest tick.
    """

    def __init__(
        self,
        topology: Any,
        seed: int = 1,
        set: Any = None,
        *,
        memory_limit: Union[int, str, None] = "auto",
    ) -> None:
        from . import _input, _memory, _sets

        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ConfigError(f"seed {seed!r}: give a whole number from 0 to {2**64 - 1}")
        self._net = _emu.Network(
            _input(topology, "topology"), seed, _sets(set), _memory(memory_limit)
        )
        self._step = self._net.step
        self.name: str = self._net.name
        """The topology's name."""
        self.terminals: int = self._net.terminals
        """Number of terminals: they are numbered ``0 .. terminals - 1``."""
        self.tick_ns: float = self._net.tick_ns
        """Nanoseconds per tick."""

    def __repr__(self) -> str:
        return (
            f"<emu.Network {self.name}: {self.terminals} terminals at {self.now:g} µs, "
            f"{self.in_flight} messages in flight>"
        )

    @property
    def tick(self) -> int:
        """The first tick not yet run: every part has done what it does before it."""
        return self._net.tick

    @property
    def now(self) -> float:
        """:attr:`tick` in µs of virtual time."""
        return self._net.tick * self.tick_ns / 1000.0

    @property
    def in_flight(self) -> int:
        """Messages sent and not yet delivered."""
        return self._net.in_flight

    def send(self, src: int, dst: int, nbytes: int, *, at_us: Optional[float] = None) -> int:
        """Sends a message of ``nbytes`` payload bytes from terminal ``src`` to terminal
        ``dst`` and returns its id (0, 1, 2, … in the order sent). It is created now,
        or at ``at_us`` µs (the nearest tick: not in the past, nor before the last
        message sent from ``src``); the source's VCP takes it from then on."""
        at = None if at_us is None else self._net.ticks(float(at_us))
        return self._net.send(
            _whole(src, "source"), _whole(dst, "destination"), _whole(nbytes, "nbytes"), at
        )

    def step(self, ticks: int = 1) -> None:
        """Runs ``ticks`` more ticks."""
        try:
            self._step(ticks)
        except (OverflowError, TypeError):
            raise ConfigError(f"ticks {ticks!r}: give a whole number ≥ 0") from None

    def run_until(self, t_us: float) -> None:
        """Runs until ``t_us`` µs of virtual time (the nearest tick); nothing if the
        network is already there. Ctrl-C stops it between stretches of a million ticks,
        raising ``KeyboardInterrupt``."""
        self._net.run_until(self._net.ticks(float(t_us)))

    def delivered(self) -> List[Dict[str, Any]]:
        """The messages delivered since the last call, by delivery time, then source and
        order sent: one dict each with ``id``, ``source``, ``destination``, ``bytes``,
        ``created``, ``delivered`` and ``latency`` in ticks and, in µs, ``created_us``,
        ``delivered_us`` and ``latency_us``; and the journey of the packet that
        completed the message, in ticks: ``source_wait``, ``input_wait``,
        ``output_wait``, ``transfer`` and ``hops`` (switches crossed). A list, so
        ``pandas.DataFrame(net.delivered())`` makes a table of it."""
        ns = self.tick_ns
        rows = self._net.delivered()
        for r in rows:
            r["created_us"] = r["created"] * ns / 1000.0
            r["delivered_us"] = r["delivered"] * ns / 1000.0
            r["latency_us"] = r["latency"] * ns / 1000.0
        return rows

    def activity(self) -> Dict[str, int]:
        """Totals so far: ``tokens_moved``, ``packets_injected``, ``packets_ejected``,
        ``messages_created``, ``messages_delivered``."""
        names = (
            "tokens_moved",
            "packets_injected",
            "packets_ejected",
            "messages_created",
            "messages_delivered",
        )
        return dict(zip(names, self._net.activity()))
