"""The command line's batch jobs from Python: load sweeps (:func:`sweep`), the deadlock
search (:func:`stress`) and the published experiments (:func:`reproduce`).

Each answers what the command line prints or writes for the same arguments, as a
table: a pandas DataFrame when pandas is installed, else a list of dicts. The rest of
the answer (the saturation point, the pass and fail counts, the JSON document, the
printed text) is in the table's ``attrs`` dict, which a list of dicts has as well.
"""

from __future__ import annotations

# csv, io, json and pandas are imported where they are used: `import emu` does not load
# them for a script that runs no batch job (see __init__.py).
import builtins
import os

from . import _emu
from ._errors import ConfigError

__all__ = ["sweep", "stress", "reproduce", "experiments", "Rows", "StressResult"]


class Rows(builtins.list):
    """A table as a list of dicts (one per row), for when pandas is not installed; its
    ``attrs`` dict holds the rest of the answer, as a DataFrame's does."""

    attrs: Dict[str, Any]

    def __init__(self, rows: Sequence[Dict[str, Any]] = ()) -> None:
        super().__init__(rows)
        self.attrs = {}


def _number(text: str) -> Any:
    """A CSV field as the number it spells (int, then float), or the text; ``None`` if
    empty."""
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _csv_table(text: str) -> Any:
    """CSV text as a DataFrame (``pandas.read_csv``), or as :class:`Rows` of numbers and
    strings when pandas is absent."""
    import io

    try:
        import pandas  # type: ignore
    except ImportError:
        import csv

        return Rows([{k: _number(v) for k, v in r.items()} for r in csv.DictReader(io.StringIO(text))])
    return pandas.read_csv(io.StringIO(text))


def _records_table(records: List[Dict[str, Any]]) -> Any:
    try:
        import pandas  # type: ignore
    except ImportError:
        return Rows(records)
    return pandas.DataFrame.from_records(records)


def _hook(progress: Optional[Callable[[int, int], Optional[bool]]]) -> Any:
    if progress is None:
        return None

    def hook(d: Dict[str, int]) -> Optional[bool]:
        return progress(d["done"], d["total"])

    return hook


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{what} {value!r}: give a whole number from {low} to {high}")
    return value


def _workers(processes: Optional[int]) -> Optional[int]:
    if processes is None:
        return None
    return _whole(processes, "processes", 1, 4096)


def _loads(loads: Union[str, float, Sequence[float]]) -> Union[str, List[float]]:
    """Loads as the extension takes them: a ``"FROM:TO:STEP"`` string (as ``--load``),
    or a list of loads."""
    if isinstance(loads, str):
        return loads
    if isinstance(loads, bool):
        raise ConfigError(f"loads {loads!r}: give \"FROM:TO:STEP\", a load or a list of loads")
    if isinstance(loads, (int, float)):
        return [float(loads)]
    try:
        return [float(x) for x in loads]
    except (TypeError, ValueError):
        raise ConfigError(
            f"loads {loads!r}: give \"FROM:TO:STEP\", a load or a list of loads"
        ) from None


def sweep(
    topology: Any,
    traffic: Any,
    *,
    loads: Union[str, float, Sequence[float]] = "0.05:1.0:0.05",
    seeds: int = 1,
    seed: int = 1,
    processes: Optional[int] = None,
    set: Any = None,
    shard: Optional[str] = None,
    out: Union[str, "os.PathLike[str]", None] = None,
    memory_limit: Union[int, str, None] = "auto",
    progress: Optional[Callable[[int, int], Optional[bool]]] = None,
    progress_interval: float = 0.1,
) -> Any:
    """Runs ``topology`` under ``traffic`` at every offered load of ``loads``, ``seeds``
    runs per load, as ``emu sweep`` does, and returns one row per run (one per load for
    one seed): the columns and values of ``emu sweep --csv FILE``.

    ``loads`` is ``"FROM:TO:STEP"`` (as ``--load``), one load, or a list of loads
    (swept in its order; the command line takes only ranges). ``processes`` is how many runs go at once: worker threads of this process, as
    ``emu sweep --threads`` (default: one per core); each run is single-threaded, so the
    answer never depends on it. ``set``, ``seed`` and ``memory_limit`` are as for
    :func:`emu.run`.

    The table's ``attrs`` hold the rest: ``saturation`` (the first load at which the
    network stops keeping up, or ``None``), ``peak`` (``(throughput %, load)``),
    ``table`` (one row per load: ``--table-csv``), ``text`` (the table ``emu sweep``
    prints) and ``json`` (the ``--json`` document).

    With ``shard="K/N"`` only the K-th of N slices of the runs is run, and the answer
    is the text ``emu sweep --shard K/N --out FILE`` writes (for ``emu merge``), also
    written to ``out`` if given.

    ``progress(done, total)`` is called every ``progress_interval`` seconds with the
    runs finished; returning ``False`` stops the sweep (no further run starts) and the
    answer is ``None``. Ctrl-C stops it the same way and raises ``KeyboardInterrupt``.
    The GIL is released while it runs.
    """
    from . import _input, _memory, _sets

    if shard is None and out is not None:
        raise ConfigError("out: the file for a shard's runs; give shard=\"K/N\" too")
    got = _emu.sweep(
        _input(topology, "topology"),
        _input(traffic, "traffic"),
        _sets(set),
        _loads(loads),
        _whole(seeds, "seeds", 1, 1000),
        _whole(seed, "seed", 0, 2**64 - 1),
        _workers(processes),
        _memory(memory_limit),
        shard,
        _hook(progress),
        float(progress_interval),
    )
    if got is None:
        return None
    shard_text, whole = got
    if shard_text is not None:
        if out is not None:
            with open(os.fspath(out), "w", encoding="utf-8") as f:
                f.write(shard_text)
        return shard_text
    runs_csv, table_csv, text, json_text, saturation, peak = whole
    frame = _csv_table(runs_csv)
    frame.attrs.update(
        saturation=saturation,
        peak=None if peak is None else tuple(peak),
        table=_csv_table(table_csv),
        text=text,
        json=json_text,
    )
    return frame


class StressResult:
    """What :func:`stress` found: a deadlock shrunk to a small traffic file, on an SCI
    ring a case that starves a node, or nothing."""

    deadlock: bool
    """True if a case deadlocked."""
    starved: Optional[List[int]]
    """On an SCI ring, the nodes the first failing case starves; ``None`` if none (and
    on any other network)."""
    case: Optional[int]
    """The first failing case's number, counted from 1 in search order (as ``emu
    stress`` prints it: "deadlock in case N of M"); ``None`` if none failed."""
    cases: int
    """Cases in the search (3 per seed; 4 on an SCI ring)."""
    cases_tried: int
    """Cases run, up to and including the first that failed."""
    ticks_tried: int
    """Ticks (an SCI ring's: cycles) those cases simulated."""

    def __init__(self, json_text: str, case: int, cases: int, traffic: str) -> None:
        self._json = json_text
        import json

        self._dict: Dict[str, Any] = json.loads(json_text)
        outcome = self._dict["outcome"]
        self.deadlock = outcome == "deadlock"
        self.starved = self._dict["case"]["starved"] if outcome == "starvation" else None
        self.case = case or None
        self.cases = cases
        self.cases_tried = int(self._dict["cases_tried"])
        self.ticks_tried = int(self._dict["ticks_tried"])
        self._traffic: Optional[Dict[str, Any]] = json.loads(traffic) if traffic else None

    def __repr__(self) -> str:
        if self.case is None:
            return f"<emu.StressResult nothing found in {self.cases_tried} cases>"
        what = "deadlock" if self.deadlock else f"node(s) {self.starved} starved"
        return f"<emu.StressResult {what} in case {self.case} of {self.cases}: {self.rerun}>"

    def _shrunk(self, key: str) -> Any:
        return self._dict.get("shrunk", {}).get(key)

    def _case(self, key: str) -> Any:
        return (self._dict.get("original") or self._dict.get("case") or {}).get(key)

    @property
    def outcome(self) -> str:
        """``deadlock``, ``no_deadlock``, ``starvation`` or ``no_starvation``, as the JSON
        document says."""
        return self._dict["outcome"]

    @property
    def kind(self) -> Optional[str]:
        """The traffic of the failing case: ``permutation``, ``hotspot`` or ``burst``;
        on an SCI ring ``starved``, ``hot``, ``permutation`` or ``hotspot``."""
        return self._case("kind")

    @property
    def seed(self) -> Optional[int]:
        """Its run seed."""
        return self._case("seed")

    @property
    def tick(self) -> Optional[int]:
        """The tick at which the shrunk deadlock happens; ``None`` without one."""
        return self._shrunk("tick")

    @property
    def rerun(self) -> Optional[str]:
        """The command line that reruns the case found, its traffic file named as
        ``out`` says (by default ``stress-deadlock.toml``; ``CASE.toml`` on an SCI
        ring, as the command line names them)."""
        return self._shrunk("reproduce") or self._dict.get("command")

    @property
    def traffic(self) -> Optional[str]:
        """The case's traffic file, as ``emu stress --out`` writes it."""
        return self._shrunk("traffic_file") or self._dict.get("traffic_file")

    @property
    def traffic_dict(self) -> Optional[Dict[str, Any]]:
        """The same traffic file as a dict of its tables (``emu.run`` takes it)."""
        import json

        return None if self._traffic is None else json.loads(json.dumps(self._traffic))

    @property
    def cycle(self) -> Optional[List[str]]:
        """The shrunk deadlock's wait-for cycle, one line per place, each waiting for
        the next."""
        return self._shrunk("cycle_text")

    def to_json(self) -> str:
        """The JSON document ``emu stress --json FILE`` writes, byte for byte."""
        return self._json

    def to_dict(self) -> Dict[str, Any]:
        """The JSON document as a dict (a fresh copy)."""
        import json

        return json.loads(self._json)


def stress(
    topology: Any,
    *,
    seeds: int = 16,
    seed: int = 1,
    buffers: str = "topology",
    run_us: float = 100.0,
    max_candidates: int = 400,
    processes: Optional[int] = None,
    set: Any = None,
    out: Union[str, "os.PathLike[str]", None] = None,
    memory_limit: Union[int, str, None] = "auto",
    progress: Optional[Callable[[int, int], Optional[bool]]] = None,
    progress_interval: float = 0.1,
) -> Optional[StressResult]:
    """Searches ``topology`` for deadlocks as ``emu stress`` does: ``seeds`` seeds from
    ``seed``, each a random permutation, a hot spot and a random burst at saturation,
    ``processes`` cases at once (worker threads, as ``--threads``). The first deadlock
    found is shrunk (at most ``max_candidates`` runs) to a small traffic file.

    ``buffers`` is ``"topology"`` (the file's own) or ``"small"`` (the smallest legal
    ones, as ``--buffers small``); ``set`` overrides topology keys only. ``out`` is the
    path the rerun command names for the traffic file, and the file is written there
    (as ``--out``).

    An SCI ring cannot deadlock but can starve a node: on one the search is ``emu
    stress``'s for starved nodes (``buffers`` must be ``"topology"``), and the first case
    that starves one is the answer, unshrunk (``starved``).

    ``progress(done, total)`` is told the cases finished; returning ``False`` stops the
    search (the answer is then ``None``), and so does Ctrl-C (raising
    ``KeyboardInterrupt``). Neither stops the shrinking once it has begun; an SCI
    ring's search has no such hook: it is told and sees Ctrl-C when it ends.
    """
    from . import _input, _memory, _sets

    got = _emu.stress(
        _input(topology, "topology"),
        _sets(set),
        _whole(seeds, "seeds", 1, 100_000),
        _whole(seed, "seed", 0, 2**64 - 1),
        str(buffers),
        float(run_us),
        _whole(max_candidates, "max_candidates", 0, 2**32),
        _workers(processes),
        _memory(memory_limit),
        None if out is None else os.fspath(out),
        _hook(progress),
        float(progress_interval),
    )
    if got is None:
        return None
    result = StressResult(*got)
    if out is not None and result.traffic is not None:
        with open(os.fspath(out), "w", encoding="utf-8") as f:
            f.write(result.traffic)
    return result


def reproduce(name: str, quick: bool = True) -> Any:
    """Runs the published experiment ``name`` (:func:`experiments` lists them) as
    ``emu reproduce NAME`` does, ``quick`` being its scaled-down form (``--quick``), and
    returns one row per compared figure: the experiment, the table's title, the
    parameter, the reference value and its source, the emulated value, the unit, the
    differences, the tolerance and whether it passes.

    The table's ``attrs`` hold ``passed`` and ``failed`` (rows within and outside their
    tolerance, as the summary of ``emu reproduce`` counts them), ``ok`` (no row but a
    known miss fails: ``emu reproduce`` exits 0), ``text`` (the report ``emu reproduce NAME`` prints) and ``json`` (the
    document ``emu reproduce NAME --json FILE`` writes, byte for byte). The GIL is
    released while it runs; Ctrl-C is seen when the experiment ends.
    """
    if not isinstance(name, str):
        raise TypeError(f"name: give an experiment's name, not {type(name).__name__}")
    import json

    text, json_text = _emu.reproduce(name, bool(quick))
    doc = json.loads(json_text)
    records = []
    for experiment in doc["reports"]:
        for table in experiment["tables"]:
            for row in table["rows"]:
                records.append(
                    dict(experiment=experiment["experiment"], table=table["title"], **row)
                )
    frame = _records_table(records)
    passed = sum(1 for r in records if r["pass"])
    frame.attrs.update(
        passed=passed,
        failed=len(records) - passed,
        ok=all(e["pass"] for e in doc["reports"]),
        text=text,
        json=json_text,
    )
    return frame


def experiments() -> Dict[str, str]:
    """The experiments :func:`reproduce` runs, ``{name: what it shows}``, in the order
    ``emu reproduce --list`` gives them."""
    return {name: f"{section}: {about}" for name, section, about in _emu.experiments()}
