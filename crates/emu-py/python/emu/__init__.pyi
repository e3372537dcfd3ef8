import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Union

from ._batch import (
    Rows as Rows,
    StressResult as StressResult,
    experiments as experiments,
    reproduce as reproduce,
    stress as stress,
    sweep as sweep,
)
from ._errors import (
    ConfigError as ConfigError,
    EmuError as EmuError,
    EngineError as EngineError,
    InternalError as InternalError,
    TooLargeError as TooLargeError,
)

from . import topology as topology

__version__: str

Input = Union[str, os.PathLike[str], Mapping[str, Any]]
Sets = Union[Mapping[str, Any], Iterable[str], None]

class Progress:
    virtual_us: float
    end_us: float
    fraction: float
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
    ) -> None: ...

class Report:
    outcome: str
    threads: int
    wall_seconds: float
    reproduce: str
    def __init__(
        self, outcome: str, json_text: str, threads: int, wall_seconds: float, reproduce: str
    ) -> None: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    @property
    def completed(self) -> bool: ...
    @property
    def seed(self) -> int: ...
    @property
    def throughput(self) -> Optional[float]: ...
    @property
    def offered(self) -> Optional[float]: ...
    @property
    def latency_mean_us(self) -> Optional[float]: ...
    @property
    def latency_p99_us(self) -> Optional[float]: ...
    @property
    def token_hops(self) -> Optional[int]: ...
    @property
    def deadlock(self) -> Optional[Dict[str, Any]]: ...
    @property
    def fault(self) -> Optional[Dict[str, Any]]: ...
    @property
    def terminals(self) -> Any: ...
    @property
    def links(self) -> Any: ...
    @property
    def flows(self) -> Any: ...
    @property
    def latency(self) -> Any: ...

class Check:
    deadlock_free: bool
    text: str
    def __init__(self, deadlock_free: bool, text: str, json_text: str) -> None: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    @property
    def cycle(self) -> Optional[List[Dict[str, Any]]]: ...

def run(
    topology: Input,
    traffic: Input,
    *,
    set: Sets = ...,
    seed: int = ...,
    threads: Optional[int] = ...,
    check: bool = ...,
    progress: Optional[Callable[[Progress], Optional[bool]]] = ...,
    deadlock_window_us: Optional[float] = ...,
    memory_limit: Union[int, str, None] = ...,
    progress_interval: float = ...,
) -> Report: ...
def check(
    topology: Input, *, set: Sets = ..., memory_limit: Union[int, str, None] = ...
) -> Check: ...
def list() -> Dict[str, Dict[str, str]]: ...

class Network:
    name: str
    terminals: int
    tick_ns: float
    def __init__(
        self,
        topology: Input,
        seed: int = ...,
        set: Sets = ...,
        *,
        memory_limit: Union[int, str, None] = ...,
    ) -> None: ...
    @property
    def tick(self) -> int: ...
    @property
    def now(self) -> float: ...
    @property
    def in_flight(self) -> int: ...
    def send(self, src: int, dst: int, nbytes: int, *, at_us: Optional[float] = ...) -> int: ...
    def step(self, ticks: int = ...) -> None: ...
    def run_until(self, t_us: float) -> None: ...
    def delivered(self) -> List[Dict[str, Any]]: ...
    def activity(self) -> Dict[str, int]: ...
