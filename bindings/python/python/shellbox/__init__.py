"""shellbox: a simulated GNU bash 5.2 over an in-memory filesystem, with no real
processes: the same bytes out on every machine, and nothing touched on the host.

- ``Shell``: a persistent shell (``sh.run(script)``, state carries across runs;
  ``sh.fs`` reads and writes its files; ``snapshot()``/``fork()`` in O(1)).
- ``Sandbox`` and ``Template``: an agent's session with an asyncio API (``await
  sb.run(...)``, ``await sb.spawn(...)``, ``call_tool``, ``save``/``Sandbox.load``),
  each call with a ``*_sync`` twin.
- ``Limits`` (with ``Limits.hardened()``); a limit hit raises ``LimitExceeded``.
- ``shellbox.tools.definitions(format=...)`` for LLM APIs; a pytest plugin
  (fixtures ``shellbox`` and ``shellbox_template``).

Results carry ``bytes``; ``.text()``, ``.stdout_text`` and ``fs.read_text`` decode
explicitly.
"""

from __future__ import annotations

from ._native import (
    DEFAULT_EPOCH,
    INTERNAL_ERROR,
    TERMINATED,
    ByteStream,
    CancelToken,
    CommandContext,
    CommandOutput,
    FileSystem,
    Limits,
    Process,
    ProcessStdin,
    RunResult,
    Sandbox,
    SaveReport,
    Shell,
    Snapshot,
    StatResult,
    StopReason,
    Template,
)
from .errors import (
    BootstrapError,
    Cancelled,
    ExitStatusError,
    InternalError,
    LimitExceeded,
    ShellboxError,
    StoreConflict,
    StoreError,
    ToolError,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_EPOCH",
    "INTERNAL_ERROR",
    "TERMINATED",
    "BootstrapError",
    "ByteStream",
    "CancelToken",
    "Cancelled",
    "CommandContext",
    "CommandOutput",
    "ExitStatusError",
    "FileSystem",
    "InternalError",
    "LimitExceeded",
    "Limits",
    "Process",
    "ProcessStdin",
    "RunResult",
    "Sandbox",
    "SaveReport",
    "Shell",
    "ShellboxError",
    "Snapshot",
    "StatResult",
    "StopReason",
    "StoreConflict",
    "StoreError",
    "Template",
    "ToolError",
]
