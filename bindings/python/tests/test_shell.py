"""Shell: runs carry bytes, state persists across runs, options last for one run,
O(1) snapshots and forks, limits raise LimitExceeded, bad arguments raise TypeError
or ValueError, and the same script gives the same bytes on every machine."""

from __future__ import annotations

import pytest

import shellbox
from shellbox import ExitStatusError, LimitExceeded, Limits, Shell


def test_a_run_returns_bytes_and_the_exit_status() -> None:
    r = Shell().run("printf 'a\\xffb'; echo oops >&2; exit 3")
    assert r.stdout == b"a\xffb"
    assert r.stderr == b"oops\n"
    assert r.exit_code == 3
    assert not r.ok
    assert r.script == "printf 'a\\xffb'; echo oops >&2; exit 3"


def test_text_helpers_decode_explicitly() -> None:
    r = Shell().run("printf 'h\\xc3\\xa9\\n'; printf 'x\\xff' >&2")
    assert r.stdout_text == "hé\n"
    assert r.text() == "hé\n"
    assert r.text("latin-1") == "hÃ©\n"
    with pytest.raises(UnicodeDecodeError):
        r.stderr_text
    assert r.stderr.decode("utf-8", "replace") == "x\ufffd"


def test_check_raises_with_the_script_and_output() -> None:
    sh = Shell()
    assert sh.run("true").check().exit_code == 0
    with pytest.raises(ExitStatusError) as e:
        sh.run("echo out; echo err >&2; exit 4").check()
    assert e.value.exit_code == 4
    assert e.value.result is not None and e.value.result.stdout == b"out\n"
    message = str(e.value)
    for part in ["status 4", "script: echo out; echo err >&2; exit 4", "stdout:\nout", "stderr:\nerr"]:
        assert part in message
    with pytest.raises(ExitStatusError):
        sh.run("false", check=True)


def test_state_persists_across_runs() -> None:
    sh = Shell()
    sh.run("x=41; f() { echo \"f:$1\"; }; cd /tmp; alias hi='echo hi'")
    r = sh.run("echo $((x + 1)); f y; pwd")
    assert r.stdout == b"42\nf:y\n/tmp\n"
    assert sh.var("x") == "41"
    assert sh.var("nope") is None
    assert sh.cwd == "/tmp"


def test_stdin_takes_bytes_or_str() -> None:
    sh = Shell()
    assert sh.run("wc -c", stdin=b"\x00\x01\x02").stdout == b"3\n"
    assert sh.run("cat", "héllo").stdout == "héllo".encode()
    assert sh.run("cat", bytearray(b"ba")).stdout == b"ba"
    with pytest.raises(TypeError, match="stdin must be bytes or str, not int"):
        sh.run("cat", 5)  # type: ignore[arg-type]


def test_run_options_last_for_that_run_only() -> None:
    sh = Shell(env={"KEEP": "k"})
    sh.run("mkdir -p sub; V=keep")
    r = sh.run("pwd; echo $V $W $KEEP", cwd="sub", env={"V": "tmp", "W": "w"})
    assert r.stdout == b"/workspace/sub\ntmp w k\n"
    assert sh.run("pwd; echo $V ${W-unset}").stdout == b"/workspace\nkeep unset\n"
    r = sh.run("printf '<%s>'", args=["a b", "*", "$HOME"])
    assert r.stdout == b"<a b><*><$HOME>"
    r = sh.run("y=2; cd /tmp", capture_env=True)
    assert r.env is not None and r.env["y"] == "2" and r.env["PWD"] == "/tmp"
    assert sh.run("true").env is None


def test_constructor_files_env_cwd() -> None:
    sh = Shell(files={"a.txt": "text\n", "bin/data": b"\x00\x01", "/tmp/motd": "hi"}, env={"WHO": "me"}, cwd="proj/src")
    assert sh.run("pwd; cat ../../a.txt; echo $WHO; cat /tmp/motd").stdout == b"/workspace/proj/src\ntext\nme\nhi"
    assert sh.fs.read_bytes("bin/data") == b"\x00\x01"


def test_a_missing_working_directory_is_reported() -> None:
    r = Shell().run("pwd", cwd="/nowhere")
    assert r.exit_code == 1
    assert r.stderr == b"shellbox: working directory /nowhere does not exist\n"


def test_snapshot_and_restore_the_filesystem() -> None:
    sh = Shell(files={"a": "1"})
    snap = sh.snapshot()
    sh.run("echo 2 > a; touch b; x=after")
    sh.restore(snap)
    assert sh.fs.read_text("a") == "1"
    assert not sh.fs.exists("b")
    assert sh.var("x") == "after", "restoring files leaves the shell's variables"


def test_fork_is_an_independent_copy_of_the_whole_session() -> None:
    sh = Shell(files={"f": "0"})
    sh.run("n=1; g() { echo g$n; }; cd /tmp")
    fork = sh.fork()
    assert type(fork) is Shell
    assert fork.run("g; pwd; cat /workspace/f").stdout == b"g1\n/tmp\n0"
    fork.run("n=2; echo 1 > /workspace/f")
    assert sh.run("g; cat /workspace/f").stdout == b"g1\n0"
    assert fork.run("g").stdout == b"g2\n"


def test_fork_keeps_a_subclass() -> None:
    class Mine(Shell):
        pass

    assert type(Mine().fork()) is Mine


def test_the_same_script_gives_the_same_bytes() -> None:
    script = "date; echo $RANDOM $RANDOM $$; whoami; hostname; sleep 90; date +%s; ls -la / | head -3"
    first = Shell().run(script)
    assert first.stdout == Shell().run(script).stdout
    lines = first.stdout_text.splitlines()
    assert lines[0] == "Thu Jan  1 00:00:00 UTC 2026"
    assert lines[2:4] == ["user", "shellbox"]
    assert int(lines[4]) == shellbox.DEFAULT_EPOCH + 90


@pytest.mark.parametrize(
    ("limits", "script", "limit"),
    [
        (Limits(max_loop_iterations=100), "while :; do :; done", "max_loop_iterations"),
        (Limits(max_commands=50), "for i in $(seq 100); do true; done", "max_commands"),
        (Limits(max_call_depth=20), "f() { f; }; f", "max_call_depth"),
        (Limits(max_output_bytes=1000), "yes | head -c 5000", "max_output_bytes"),
        (Limits(max_memory_bytes=1 << 20), "x=a; while :; do x=$x$x; done", "max_memory_bytes"),
        (Limits(max_io_bytes=1 << 20), "cat /dev/zero > /dev/null", "max_io_bytes"),
        (Limits(timeout=0.05, max_loop_iterations=10**12), "while :; do :; done", "timeout"),
    ],
)
def test_a_limit_raises_limit_exceeded_naming_it(limits: Limits, script: str, limit: str) -> None:
    sh = Shell(limits=limits)
    sh.run("echo before")
    with pytest.raises(LimitExceeded) as e:
        sh.run("echo started; " + script)
    assert e.value.limit == limit
    assert e.value.result is not None
    assert e.value.result.exit_code == 126
    assert e.value.result.stdout.startswith(b"started\n")
    assert e.value.message.encode() in e.value.result.stderr
    # The shell is fine afterwards, with a fresh budget.
    assert sh.run("echo again").stdout == b"again\n"


def test_limits_mirror_the_rust_fields_and_profiles() -> None:
    d, h = Limits(), Limits.hardened()
    assert d.max_commands == 50_000_000 and h.max_commands == 1_000_000
    assert d.timeout == 600.0 and h.timeout == 30.0
    assert Limits.hardened(max_files=5).max_files == 5
    assert list(d.to_dict())[:3] == ["max_commands", "max_loop_iterations", "max_call_depth"]
    assert len(d.to_dict()) == 21
    assert d.max_memory_bytes == 512 << 20 and h.max_memory_bytes == 64 << 20
    assert d.max_io_bytes == 16 << 30 and h.max_io_bytes == 1 << 30
    d.max_words = 7
    d.timeout = None
    assert d.max_words == 7 and d.timeout is None
    assert Limits(max_words=7, timeout=None) == d
    assert "max_words=7" in repr(d)


def test_bad_limits_are_type_and_value_errors() -> None:
    with pytest.raises(TypeError, match="unknown limit 'max_fun'"):
        Limits(max_fun=1)
    with pytest.raises(TypeError, match="whole number"):
        Limits(max_commands=-1)
    with pytest.raises(TypeError, match="whole number"):
        Limits(max_commands="many")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="limit max_memory_bytes must be a whole number"):
        Limits(max_memory_bytes=-1)
    with pytest.raises(TypeError, match="limit max_io_bytes must be a whole number"):
        Limits(max_io_bytes=1.5)
    with pytest.raises(ValueError, match="0 or more seconds"):
        Limits(timeout=-1)


def test_bad_run_arguments_are_type_errors() -> None:
    sh = Shell()
    with pytest.raises(TypeError, match="unexpected keyword argument 'color'"):
        sh.run("true", color=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="env must be a dict of str to str"):
        sh.run("true", env={"A": 1})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="args must be a list of str"):
        sh.run("true", args=[1])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="stdin_pipe"):
        sh.run("true", stdin_pipe=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Shell(files={"a": 1})  # type: ignore[dict-item]


def test_a_bug_in_shellbox_is_an_internal_error_not_a_crash() -> None:
    sh = Shell()
    shellbox._native._register_panicking_command(sh, "boom")
    with pytest.raises(shellbox.InternalError) as e:
        sh.run("echo before; boom; echo never")
    assert e.value.result is not None
    assert e.value.result.exit_code == shellbox.INTERNAL_ERROR
    assert e.value.result.stdout == b"before\n"
    assert b"shellbox: internal error: " in e.value.result.stderr
    assert sh.run("echo after").stdout == b"after\n"


def test_a_cancel_token_stops_a_run() -> None:
    token = shellbox.CancelToken()
    token.cancel()
    assert token.cancelled
    with pytest.raises(shellbox.Cancelled) as e:
        Shell().run("echo never", cancel=token)
    assert e.value.result is not None and e.value.result.exit_code == shellbox.TERMINATED
    with pytest.raises(TypeError, match="CancelToken"):
        Shell().run("true", cancel=object())  # type: ignore[arg-type]
