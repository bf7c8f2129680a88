"""The pytest plugin (loaded through the ``pytest11`` entry point when shellbox is
installed).

- Fixture ``shellbox``: a fresh, deterministic ``Shell`` per test (virtual clock
  starting at 2026-01-01T00:00:00Z, seeded ``$RANDOM``, fixed user and host name),
  dropped after the test.
- Marker ``@pytest.mark.shellbox_files({"path": "content", ...})``: files the
  ``shellbox`` fixture's shell starts with (paths relative to ``/workspace``; markers
  on the class and module add to them, the closest wins).
- Marker ``@pytest.mark.shellbox_root("dir")``: a host folder (relative to the test
  file) overlaid read-only at ``/workspace``; writes stay in memory.
- Fixture ``shellbox_template`` (session-scoped): a factory
  ``shellbox_template(setup, files=..., env=..., limits=..., root=..., key=...)`` that
  builds a shell, runs ``setup(shell)`` once per distinct arguments, and returns an
  O(1) fork of it on every call.
- When a test fails, its report gets a ``shellbox`` section with the last runs of
  these shells: each script, exit status, stdout and stderr.
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Generator, Iterator, Optional, Union

import pytest

from ._native import Limits, RunResult, Shell
from .errors import ShellboxError, _describe

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._native import _Data, _RunOptions

#: How many runs a failure report shows.
REPORTED_RUNS = 5


class _Recorded:
    """The last runs of the current test (newest last), and how many there were."""

    def __init__(self) -> None:
        self.runs: deque[RunResult] = deque(maxlen=REPORTED_RUNS)
        self.count = 0

    def add(self, result: RunResult) -> None:
        self.runs.append(result)
        self.count += 1

    def clear(self) -> None:
        self.runs.clear()
        self.count = 0


_RUNS = _Recorded()

Files = dict[str, Union[str, bytes]]


class RecordedShell(Shell):
    """A ``Shell`` whose runs (and those of its forks) are shown when a test fails."""

    def run(self, script: str, stdin: Optional[_Data] = None, **options: Unpack[_RunOptions]) -> RunResult:
        try:
            result = super().run(script, stdin, **options)
        except ShellboxError as e:
            failed = getattr(e, "result", None)
            _RUNS.add(failed if isinstance(failed, RunResult) else RunResult(script=script, exit_code=-1))
            raise
        _RUNS.add(result)
        return result


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "shellbox_files(files): files (path -> str or bytes, relative to /workspace) the shellbox fixture's shell starts with",
    )
    config.addinivalue_line(
        "markers",
        "shellbox_root(path): a host folder (relative to the test file) overlaid read-only at /workspace",
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    _RUNS.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when in ("setup", "call") and report.failed and _RUNS.count:
        skipped = _RUNS.count - len(_RUNS.runs)
        text = "\n\n".join(_describe(r) for r in _RUNS.runs)
        if skipped:
            text = f"({skipped} earlier runs not shown)\n\n" + text
        report.sections.append(("shellbox: last runs", text))
    return report


def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object, right: object) -> Optional[list[str]]:
    """Explains a comparison with a ``RunResult`` by its script and output."""
    for side in (left, right):
        if isinstance(side, RunResult):
            return [f"a RunResult {op} {right!r}" if side is left else f"{left!r} {op} a RunResult", *_describe(side).splitlines()]
    return None


def _files_of(node: pytest.Item) -> Files:
    files: Files = {}
    # Closest markers come first; apply the farthest first so the closest wins.
    for marker in reversed(list(node.iter_markers("shellbox_files"))):
        if len(marker.args) != 1 or not isinstance(marker.args[0], dict):
            raise pytest.UsageError("shellbox_files takes one dict of path -> str or bytes")
        files.update(marker.args[0])
    return files


def _root_of(node: pytest.Item) -> Optional[Path]:
    marker = node.get_closest_marker("shellbox_root")
    if marker is None:
        return None
    if len(marker.args) != 1:
        raise pytest.UsageError("shellbox_root takes one host folder")
    root = Path(os.fspath(marker.args[0]))
    return root if root.is_absolute() else Path(node.path).parent / root


@pytest.fixture
def shellbox(request: pytest.FixtureRequest) -> Iterator[Shell]:
    """A fresh deterministic shell in ``/workspace`` (see the module doc)."""
    node = request.node
    assert isinstance(node, pytest.Item)
    shell = RecordedShell(files=_files_of(node), root=_root_of(node))
    yield shell
    del shell


def _frozen(value: object) -> object:
    """A hashable stand-in for a setting, for the template cache."""
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, Limits):
        return repr(value)
    return value


TemplateFactory = Callable[..., Shell]


@pytest.fixture(scope="session")
def shellbox_template() -> TemplateFactory:
    """``make(setup=None, *, files=None, env=None, limits=None, root=None, key=None)``:
    a fork of a shell that ``setup`` prepared once for these arguments (``key``
    stands in for ``setup`` in the cache when given)."""
    built: dict[object, Shell] = {}

    def make(
        setup: Optional[Callable[[Shell], object]] = None,
        *,
        files: Optional[Files] = None,
        env: Optional[dict[str, str]] = None,
        limits: Optional[Limits] = None,
        root: Union[str, os.PathLike[str], None] = None,
        key: object = None,
    ) -> Shell:
        cache_key = (
            setup if key is None else key,
            _frozen(files or {}),
            _frozen(env or {}),
            _frozen(limits),
            None if root is None else os.fspath(root),
        )
        base = built.get(cache_key)
        if base is None:
            base = RecordedShell(files=files, env=env, limits=limits, root=root)
            if setup is not None:
                setup(base)
            built[cache_key] = base
        return base.fork()

    return make
