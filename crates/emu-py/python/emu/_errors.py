"""The exceptions emu raises. Each carries the command line's one-line message as
``str(e)`` and, where the input was at fault, where: ``file``, ``line``, ``column``,
``key`` and the ``sets`` (``--set``-style overrides) responsible."""

from __future__ import annotations


class EmuError(Exception):
    """Any error emu raises. ``kind`` is one of ``config``, ``build``, ``options``,
    ``too_large``, ``engine``, ``internal``."""

    kind: str = "internal"
    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None
    key: Optional[str] = None
    sets: List[str] = []


class ConfigError(EmuError, ValueError):
    """Bad input: a file that cannot be found, read or parsed, a value out of range, a
    network that cannot be built, a bad option (exit 2 on the command line)."""

    kind = "config"


class TooLargeError(ConfigError):
    """The network would need more memory than the run may use (``memory_limit``);
    refused before it was built."""

    kind = "too_large"


class EngineError(EmuError, RuntimeError):
    """A hardware rule broken while the run went (a flow-control violation, a routing or
    protocol error), or the system refused the run's threads. A deadlock is not an
    error: it is the report's outcome."""

    kind = "engine"


class InternalError(EmuError, RuntimeError):
    """A bug in emu (a panic in its code): please report it with the call that gave it."""

    kind = "internal"
