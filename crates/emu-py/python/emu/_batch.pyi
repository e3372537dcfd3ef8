import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

Input = Union[str, os.PathLike[str], Mapping[str, Any]]
Sets = Union[Mapping[str, Any], Sequence[str], None]
BatchProgress = Callable[[int, int], Optional[bool]]

class Rows(List[Dict[str, Any]]):
    attrs: Dict[str, Any]
    def __init__(self, rows: Sequence[Dict[str, Any]] = ...) -> None: ...

class StressResult:
    deadlock: bool
    starved: Optional[List[int]]
    case: Optional[int]
    cases: int
    cases_tried: int
    ticks_tried: int
    def __init__(self, json_text: str, case: int, cases: int, traffic: str) -> None: ...
    @property
    def outcome(self) -> str: ...
    @property
    def kind(self) -> Optional[str]: ...
    @property
    def seed(self) -> Optional[int]: ...
    @property
    def tick(self) -> Optional[int]: ...
    @property
    def rerun(self) -> Optional[str]: ...
    @property
    def traffic(self) -> Optional[str]: ...
    @property
    def traffic_dict(self) -> Optional[Dict[str, Any]]: ...
    @property
    def cycle(self) -> Optional[List[str]]: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

def sweep(
    topology: Input,
    traffic: Input,
    *,
    loads: Union[str, float, Sequence[float]] = ...,
    seeds: int = ...,
    seed: int = ...,
    processes: Optional[int] = ...,
    set: Sets = ...,
    shard: Optional[str] = ...,
    out: Union[str, os.PathLike[str], None] = ...,
    memory_limit: Union[int, str, None] = ...,
    progress: Optional[BatchProgress] = ...,
    progress_interval: float = ...,
) -> Any: ...
def stress(
    topology: Input,
    *,
    seeds: int = ...,
    seed: int = ...,
    buffers: str = ...,
    run_us: float = ...,
    max_candidates: int = ...,
    processes: Optional[int] = ...,
    set: Sets = ...,
    out: Union[str, os.PathLike[str], None] = ...,
    memory_limit: Union[int, str, None] = ...,
    progress: Optional[BatchProgress] = ...,
    progress_interval: float = ...,
) -> Optional[StressResult]: ...
def reproduce(name: str, quick: bool = ...) -> Any: ...
def experiments() -> Dict[str, str]: ...
