"""emu from Python: run a cycle-accurate emulation of an interconnection network (DS-Link
/ IMS C104 / T9000 networks, SCI rings, switch fabrics) and read its report.

>>> import emu
>>> r = emu.run("hypercube6", "uniform", set={"phases.measure_us": 50})
>>> r.outcome
'completed'

A topology or a traffic is a shipped name (``emu.list()`` shows them), a path (``str``
or ``pathlib.Path``), TOML text (a ``str`` with a newline or ``=`` in it) or a ``dict``
of the file's tables. The report of a run that completed is what ``emu --json`` writes
for the same inputs and seed (``Report.to_dict()``); a deadlock is the report's
outcome, not an exception. Bad input raises ``emu.ConfigError`` (a ``ValueError``) with
the command line's one-line message and where the bad value is.
"""

from __future__ import annotations

# What `import emu` loads is kept to what every run needs: the annotations below are
# not evaluated (PEP 563; type checkers read the stub, __init__.pyi), and json, pandas
# and the batch jobs' modules are imported where they are used, so that a script that
# runs one case pays for no more than it uses.
import builtins
import math
import os
from collections.abc import Mapping

from . import _emu
from ._errors import ConfigError, EmuError, EngineError, InternalError, TooLargeError
from ._batch import Rows, StressResult, experiments, reproduce, stress, sweep
from ._network import Network
from . import topology

__version__: str = _emu.__version__

__all__ = [
    "run",
    "check",
    "Network",
    "list",
    "sweep",
    "stress",
    "reproduce",
    "experiments",
    "Rows",
    "StressResult",
    "topology",
    "Report",
    "Check",
    "Progress",
    "EmuError",
    "ConfigError",
    "TooLargeError",
    "EngineError",
    "InternalError",
]

class Progress:
    """How far a run has got, as the ``progress`` callable of :func:`run` is told it."""

    __slots__ = (
        "virtual_us",
        "end_us",
        "fraction",
        "tokens_moved",
        "packets_injected",
        "packets_ejected",
        "messages_created",
        "messages_delivered",
    )

    virtual_us: float
    """Virtual time reached, in µs."""
    end_us: float
    """Virtual time at which the run may end (the end of its measurement), in µs."""
    fraction: float
    """``virtual_us / end_us``, from 0 to 1."""
    tokens_moved: int
    packets_injected: int
    packets_ejected: int
    messages_created: int
    messages_delivered: int

    def __init__(
        self,
        virtual_us: float,
        end_us: float,
        fraction: float,
        tokens_moved: int,
        packets_injected: int,
        packets_ejected: int,
        messages_created: int,
        messages_delivered: int,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "virtual_us", virtual_us)
        set_(self, "end_us", end_us)
        set_(self, "fraction", fraction)
        set_(self, "tokens_moved", tokens_moved)
        set_(self, "packets_injected", packets_injected)
        set_(self, "packets_ejected", packets_ejected)
        set_(self, "messages_created", messages_created)
        set_(self, "messages_delivered", messages_delivered)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Progress is read-only: cannot set {name}")

    def _fields(self) -> tuple:
        return tuple(getattr(self, f) for f in Progress.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Progress):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in Progress.__slots__)
        return f"Progress({fields})"


def _input(value: Input, what: str) -> tuple:
    """A topology or traffic as the extension takes it: (how, name, text)."""
    if isinstance(value, Mapping):
        import json

        return ("text", f"<{what}>", _emu.toml_text(json.dumps(dict(value))))
    if isinstance(value, os.PathLike):
        return ("path", os.fspath(value), "")
    if isinstance(value, str):
        if "\n" in value or "=" in value:
            return ("text", f"<{what}>", value)
        return ("lookup", value, "")
    raise TypeError(
        f"{what}: give a shipped name, a path, TOML text or a dict, not {type(value).__name__}"
    )


def _toml_value(v: Any) -> str:
    """``v`` as a TOML value for a ``--set`` override."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        import json

        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (builtins.list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot give {type(v).__name__} as a --set value")


def _sets(set: Sets) -> List[str]:
    """``set`` as ``KEY=VALUE`` strings."""
    if set is None:
        return []
    if isinstance(set, Mapping):
        return [f"{k}={_toml_value(v)}" for k, v in set.items()]
    if isinstance(set, str):
        return [set]
    return [str(s) for s in set]


def _memory(memory_limit: Union[int, str, None]) -> Optional[int]:
    if memory_limit == "auto":
        return _emu.usable_memory()
    if memory_limit is None:
        return None
    if isinstance(memory_limit, int) and not isinstance(memory_limit, bool) and memory_limit >= 0:
        return memory_limit or None
    raise ConfigError(
        f"memory_limit {memory_limit!r}: give bytes (0 or None: no limit), or \"auto\""
    )


def _loads(text: str) -> Any:
    """``text`` parsed as JSON."""
    import json

    return json.loads(text)


def _tables_as_frames(records: Any, index: Optional[str] = None) -> Any:
    """``records`` (a list of dicts, or a dict of columns) as a pandas DataFrame if pandas
    is installed, else as they are."""
    try:
        import pandas  # type: ignore
    except ImportError:
        return records
    frame = pandas.DataFrame(records)
    if index is not None and index in frame.columns:
        frame = frame.set_index(index)
    return frame


class Report:
    """The report of one run (:func:`run`)."""

    outcome: str
    """How the run ended: ``completed``, ``deadlock``, ``partial_deadlock``,
    ``blocked_by_fault`` or ``stopped``."""
    threads: int
    """Worker threads it ran on."""
    wall_seconds: float
    """Wall-clock seconds the emulation took."""
    reproduce: str
    """The command line that reproduces the run."""

    def __init__(
        self, outcome: str, json_text: str, threads: int, wall_seconds: float, reproduce: str
    ) -> None:
        self.outcome = outcome
        self._json = json_text
        self._parsed: Optional[Dict[str, Any]] = None
        self.threads = threads
        self.wall_seconds = wall_seconds
        self.reproduce = reproduce

    def __repr__(self) -> str:
        if self.outcome != "completed":
            return f"<emu.Report {self.outcome} at tick {self._dict.get('tick')}>"
        return (
            f"<emu.Report {self._dict['topology']['name']} × {self._dict['traffic']['name']}: "
            f"throughput {self.throughput:.2f} %, latency mean {self.latency_mean_us:.2f} µs>"
        )

    @property
    def _dict(self) -> Dict[str, Any]:
        """The JSON document, parsed the first time a figure is read (kept, not copied)."""
        if self._parsed is None:
            self._parsed = _loads(self._json)
        return self._parsed

    def to_json(self) -> str:
        """The JSON document ``emu --json FILE`` writes for the same run, byte for byte."""
        return self._json

    def to_dict(self) -> Dict[str, Any]:
        """The JSON document as a dict (a fresh copy)."""
        return _loads(self._json)

    @property
    def completed(self) -> bool:
        """True if the run ended as its phases say (the report has its statistics)."""
        return self.outcome == "completed"

    @property
    def seed(self) -> int:
        """The run seed."""
        return int(self._dict["seed"])

    def _get(self, *path: str) -> Any:
        d: Any = self._dict
        for p in path:
            if not isinstance(d, dict) or p not in d:
                return None
            d = d[p]
        return d

    @property
    def throughput(self) -> Optional[float]:
        """Payload delivered per terminal in the measurement window, mean over terminals,
        in % of one link's data capacity; ``None`` if the run did not complete."""
        return self._get("throughput", "delivered_pct", "mean")

    @property
    def offered(self) -> Optional[float]:
        """Payload offered per terminal, mean, in % of one link's data capacity."""
        return self._get("throughput", "offered_pct", "mean")

    @property
    def latency_mean_us(self) -> Optional[float]:
        """Message latency (creation to delivery) of measured messages, mean, in µs."""
        return self._get("latency", "message_latency", "us", "mean")

    @property
    def latency_p99_us(self) -> Optional[float]:
        """Message latency, 99th percentile, in µs."""
        return self._get("latency", "message_latency", "us", "p99")

    @property
    def token_hops(self) -> Optional[int]:
        """Flow-controlled tokens put on a link over the whole run."""
        return self._get("token_hops")

    @property
    def deadlock(self) -> Optional[Dict[str, Any]]:
        """For a run that deadlocked: the tick, the wait-for cycle (``cycle_text``, one
        line per place), the stuck nodes and the command that reproduces it."""
        if self.outcome in ("deadlock", "partial_deadlock"):
            return self.to_dict()
        return None

    @property
    def fault(self) -> Optional[Dict[str, Any]]:
        """For a run whose packets were blocked behind links that died: the links and
        the packets."""
        return self.to_dict() if self.outcome == "blocked_by_fault" else None

    @property
    def terminals(self) -> Any:
        """Per terminal: delivered, offered and sent payload in % of link capacity (a
        DataFrame indexed by terminal when pandas is installed, else a dict of lists)."""
        t = self._get("terminals")
        if t is None:
            return None
        frame = _tables_as_frames(t)
        if frame is not t:
            frame.index.name = "terminal"
        return frame

    @property
    def links(self) -> Any:
        """Per link direction: its ends and how busy it was (``busy_pct``); ``None`` for
        families whose parts count no wire time."""
        links = self._get("links")
        return None if links is None else _tables_as_frames(links)

    @property
    def flows(self) -> Any:
        """Per flow of permutation traffic: messages, throughput and latency; ``None``
        for other traffic."""
        flows = self._get("flows")
        return None if flows is None else _tables_as_frames(flows)

    @property
    def latency(self) -> Any:
        """One row per latency metric (message, network, source queueing): count and the
        mean, minimum, percentiles and maximum in µs."""
        lat = self._get("latency")
        if lat is None:
            return None
        rows = [
            dict(metric=name, count=m["count"], **m["us"])
            for name, m in lat.items()
            if isinstance(m, dict) and m.get("us") is not None
        ]
        return _tables_as_frames(rows, index="metric")


def run(
    topology: Input,
    traffic: Input,
    *,
    set: Sets = None,
    seed: int = 1,
    threads: Optional[int] = None,
    check: bool = False,
    progress: Optional[Callable[[Progress], Optional[bool]]] = None,
    deadlock_window_us: Optional[float] = None,
    memory_limit: Union[int, str, None] = "auto",
    progress_interval: float = 0.1,
) -> Report:
    """Runs ``topology`` under ``traffic`` and returns its :class:`Report`.

    ``set`` overrides keys of either file, as ``--set`` does: a dict
    (``{"network.dimensions": 4}``) or ``"key=value"`` strings. ``seed`` is the run seed
    (the same seed gives the same report); ``threads`` the worker threads (default: one
    per core, fewer on a small network); ``check`` checks the credit invariant of every
    link at every window. ``progress`` is called with a :class:`Progress` every
    ``progress_interval`` seconds and once at the end, on the calling thread; returning
    ``False`` stops the run (its outcome is then ``stopped``). Ctrl-C stops it as well,
    raising ``KeyboardInterrupt``. The GIL is released while the run goes.

    ``memory_limit`` refuses a network that would need more bytes than this: ``"auto"``
    (the default) is what the machine and the process's limits allow, as for the command
    line; ``None`` sets no limit.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ConfigError(f"seed {seed!r}: give a whole number from 0 to {2**64 - 1}")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)):
        raise ConfigError(f"threads {threads!r}: give a whole number of threads")
    if threads is not None and threads < 1:
        raise ConfigError(f"threads {threads}: give at least one thread")
    hook = None
    if progress is not None:
        user = progress

        def hook(d: Dict[str, Any]) -> Optional[bool]:
            return user(Progress(**d))

    outcome, text, used, wall, reproduce = _emu.run(
        _input(topology, "topology"),
        _input(traffic, "traffic"),
        _sets(set),
        seed,
        threads,
        bool(check),
        None if deadlock_window_us is None else float(deadlock_window_us),
        _memory(memory_limit),
        hook,
        float(progress_interval),
    )
    return Report(outcome, text, used, wall, reproduce)


class Check:
    """What ``emu check`` answers for a topology (:func:`check`)."""

    deadlock_free: bool
    """True if no deadlock is possible: no cycle in the channel dependency graph, or a
    family that cannot deadlock."""
    text: str
    """The answer as ``emu check`` prints it."""

    def __init__(self, deadlock_free: bool, text: str, json_text: str) -> None:
        self.deadlock_free = deadlock_free
        self.text = text
        self._json = json_text

    def __repr__(self) -> str:
        return f"<emu.Check deadlock_free={self.deadlock_free}>"

    def to_json(self) -> str:
        """The JSON document ``emu check --json FILE`` writes, byte for byte."""
        return self._json

    def to_dict(self) -> Dict[str, Any]:
        """The JSON document as a dict."""
        return _loads(self._json)

    @property
    def cycle(self) -> Optional[List[Dict[str, Any]]]:
        """The cycle of channels found, each depending on the next; ``None`` if none."""
        return self.to_dict().get("check", {}).get("cycle")


def check(
    topology: Input, *, set: Sets = None, memory_limit: Union[int, str, None] = "auto"
) -> Check:
    """Proves ``topology``'s routing deadlock-free from its channel dependency graph, or
    finds a cycle of channels, as ``emu check`` does. ``set`` overrides topology keys."""
    deadlock_free, text, json_text = _emu.check(
        _input(topology, "topology"), _sets(set), _memory(memory_limit)
    )
    return Check(deadlock_free, text, json_text)


def list() -> Dict[str, Dict[str, str]]:
    """The shipped files: ``{"topologies": {name: description}, "traffic": {...}}``, in
    the order ``emu list`` gives them."""
    out: Dict[str, Dict[str, str]] = {"topologies": {}, "traffic": {}}
    for kind, name, description in _emu.shipped():
        out["topologies" if kind == "topology" else "traffic"][name] = description
    return out
