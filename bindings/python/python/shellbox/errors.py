"""The exceptions shellbox raises (besides the builtin ``OSError`` family for file
operations and ``TypeError``/``ValueError`` for bad arguments).

The native module raises these by name, so their constructors' arguments are part of
the contract with ``src/errors.rs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from ._native import RunResult


class ShellboxError(Exception):
    """Base class of shellbox's own exceptions."""


def _describe(result: Optional[RunResult]) -> str:
    """The script, status and output of ``result``, for messages and reports."""
    if result is None:
        return ""
    lines = [f"script: {result.script}", f"exit status: {result.exit_code}"]
    for name, data in (("stdout", result.stdout), ("stderr", result.stderr)):
        text = data.decode("utf-8", "backslashreplace")
        if len(text) > 4000:
            text = text[:2000] + f"\n... ({len(text) - 4000} characters cut) ...\n" + text[-2000:]
        lines.append(f"{name}:" + ("" if not text else "\n" + text.rstrip("\n")))
    return "\n".join(lines)


class _RunError(ShellboxError):
    """A run that did not end well; ``result`` holds what it printed (if it ran)."""

    def __init__(self, message: str, result: Optional[RunResult] = None) -> None:
        super().__init__(message)
        self.message = message
        self.result = result

    def __str__(self) -> str:
        details = _describe(self.result)
        return f"{self.message}\n{details}" if details else self.message


class LimitExceeded(_RunError):
    """A resource limit stopped a run or refused a file operation.

    ``limit`` is the name of the ``Limits`` field (``"max_loop_iterations"``, ...).
    """

    def __init__(self, message: str, limit: str, result: Optional[RunResult] = None) -> None:
        super().__init__(message, result)
        self.limit = limit


class Cancelled(_RunError):
    """The run's ``CancelToken`` was cancelled."""


class InternalError(_RunError):
    """shellbox itself failed (a bug); the run was abandoned, the interpreter is fine."""


class ExitStatusError(_RunError):
    """``check()`` (or ``check=True``) of a run whose exit status was not 0."""

    def __init__(self, result: RunResult) -> None:
        super().__init__(f"the script exited with status {result.exit_code}", result)
        self.exit_code = result.exit_code


class ToolError(ShellboxError):
    """An agent tool refused a call. ``kind`` is its code (``"not_read"``,
    ``"no_match"``, ``"invalid_input"``, ...); ``message`` says what to do next."""

    def __init__(self, message: str, kind: str, path: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.path = path

    def to_dict(self) -> dict[str, object]:
        """The tool's JSON error: ``{"error": {"kind", "message", "path"?}}``."""
        error: dict[str, object] = {"kind": self.kind, "message": self.message}
        if self.path is not None:
            error["path"] = self.path
        return {"error": error}


class StoreError(ShellboxError):
    """Saving to or loading from a store failed (``path`` is the file at fault)."""

    def __init__(self, message: str, path: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


class StoreConflict(StoreError):
    """A save found that another host saved the session since this handle loaded or
    last saved it; nothing was overwritten. Load the session again and redo the save."""


class BootstrapError(ShellboxError):
    """A template's bootstrap failed; ``__cause__`` is what it raised."""
