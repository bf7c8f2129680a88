"""The README's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_its_examples() -> None:
    assert len(blocks()) == 4


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_library_example_runs(index: int, tmp_path: Path) -> None:
    code = blocks()[index].replace("/tmp/store", str(tmp_path / "store"))
    exec(compile(code, f"README.md block {index}", "exec"), {})


def test_the_plugin_example_passes(pytester: pytest.Pytester) -> None:
    (pytester.path / "fixtures" / "repo").mkdir(parents=True)
    pytester.makepyfile(test_readme_example=blocks()[3])
    pytester.runpytest("-q").assert_outcomes(passed=3)
