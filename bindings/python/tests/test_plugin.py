"""The pytest plugin, run with pytester: test files using each fixture and marker
pass, and a failing test's report shows the script, its output and exit status."""

from __future__ import annotations

import pytest



def test_the_plugin_is_loaded_from_its_entry_point(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.shellbox_files(files)*", "@pytest.mark.shellbox_root(path)*"])


def test_each_fixture_and_marker_works(pytester: pytest.Pytester) -> None:
    (pytester.path / "host").mkdir()
    (pytester.path / "host" / "data.csv").write_text("a,b\n1,2\n")
    pytester.makepyfile(
        """
        import pytest
        import shellbox

        def test_a_fresh_deterministic_shell(shellbox):
            r = shellbox.run("date; echo $RANDOM; whoami; hostname; pwd; ls")
            assert r.stdout_text.splitlines() == [
                "Thu Jan  1 00:00:00 UTC 2026", "32014", "user", "shellbox", "/workspace",
            ]

        def test_state_from_one_test_does_not_leak(shellbox):
            assert shellbox.run("ls; echo ${LEAK-unset}").stdout == b"unset\\n"
            shellbox.run("LEAK=1; touch leak")

        def test_and_again(shellbox):
            assert shellbox.run("ls; echo ${LEAK-unset}").stdout == b"unset\\n"

        @pytest.mark.shellbox_files({"README.md": "# hi\\n", "bin/tool": b"\\x00"})
        def test_files(shellbox):
            assert shellbox.fs.read_text("README.md") == "# hi\\n"
            assert shellbox.run("wc -c < bin/tool").stdout == b"1\\n"

        @pytest.mark.shellbox_files({"a": "module"})
        class TestMerged:
            @pytest.mark.shellbox_files({"b": "method"})
            def test_markers_add_up(self, shellbox):
                assert shellbox.run("cat a b").stdout == b"modulemethod"

        @pytest.mark.shellbox_root("host")
        def test_root(shellbox):
            assert shellbox.run("cut -d, -f2 data.csv").stdout == b"b\\n2\\n"
            shellbox.run("echo x > data.csv")

        builds = []

        def setup(sh):
            builds.append(1)
            sh.run("mkdir repo && echo v1 > repo/VERSION; export BUILT=yes")

        def test_template_first(shellbox_template):
            sh = shellbox_template(setup, files={"seed": "s"})
            assert sh.run("cat repo/VERSION seed; echo $BUILT").stdout == b"v1\\nsyes\\n"
            sh.run("rm -r repo")

        def test_template_second_is_a_fresh_fork(shellbox_template):
            sh = shellbox_template(setup, files={"seed": "s"})
            assert sh.run("cat repo/VERSION").stdout == b"v1\\n"
            assert len(builds) == 1
            other = shellbox_template(setup, files={"seed": "other"})
            assert other.run("cat seed").stdout == b"other"
            assert len(builds) == 2
        """
    )
    result = pytester.runpytest("-q")
    result.assert_outcomes(passed=8)
    assert (pytester.path / "host" / "data.csv").read_text() == "a,b\n1,2\n"


def test_a_failing_test_shows_the_script_and_its_output(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_fails(shellbox):
            shellbox.run("echo setup")
            r = shellbox.run("echo to-stdout; echo to-stderr >&2; exit 3")
            assert r.exit_code == 0

        def test_fails_in_check(shellbox):
            shellbox.run("printf 'partial'; false", check=True)

        def test_compares_a_result(shellbox):
            assert shellbox.run("echo compared") == "something else"

        def test_many_runs(shellbox):
            for i in range(7):
                shellbox.run(f"echo run{i}")
            assert False
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=4)
    result.stdout.fnmatch_lines(["(2 earlier runs not shown)", "", "script: echo run2"])
    assert "script: echo run1" not in result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*shellbox: last runs*",
            "script: echo setup",
            "exit status: 0",
            "stdout:",
            "setup",
            "*",
            "script: echo to-stdout; echo to-stderr >&2; exit 3",
            "exit status: 3",
            "stdout:",
            "to-stdout",
            "stderr:",
            "to-stderr",
        ]
    )
    result.stdout.fnmatch_lines(["*ExitStatusError: the script exited with status 1*", "*script: printf 'partial'; false*"])
    result.stdout.fnmatch_lines(["*a RunResult == 'something else'*", "*script: echo compared*"])
