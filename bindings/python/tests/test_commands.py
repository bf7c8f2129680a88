"""Custom commands: a Python function gets the command's args, stdin bytes, env and
cwd, writes to ctx.stdout/ctx.stderr and returns the exit status; it may replace a
built-in; its exceptions are the command's failure, never the run's."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

import shellbox
from shellbox import CommandContext, Limits, Sandbox, Shell


def test_a_command_sees_args_stdin_env_and_cwd() -> None:
    seen: list[tuple[str, list[str], bytes, str, str]] = []

    def probe(ctx: CommandContext) -> int:
        seen.append((ctx.name, ctx.args, ctx.stdin, ctx.env.get("WHO", ""), ctx.cwd))
        ctx.stdout.write(b"out:" + ctx.stdin.upper())
        print("note", file=ctx.stderr)
        return 7

    sh = Shell(env={"WHO": "me"}, commands={"probe": probe})
    r = sh.run("cd /tmp; printf 'abc' | probe 'a b' c")
    assert (r.stdout, r.stderr, r.exit_code) == (b"out:ABC", b"note\n", 7)
    assert seen == [("probe", ["a b", "c"], b"abc", "me", "/tmp")]
    assert sh.run("command -v probe").stdout == b"/usr/bin/probe\n"


def test_a_command_works_in_pipelines_and_substitutions() -> None:
    sh = Shell()
    sh.register("shout", lambda ctx: ctx.stdout.write(ctx.stdin.upper()) and None)
    r = sh.run("x=$(echo hi | shout); echo \"$x\" | shout | tr H J; seq 3 | shout | wc -l")
    assert r.stdout == b"JI\n3\n"


def test_a_command_may_replace_a_builtin() -> None:
    sh = Shell(commands={"cat": lambda ctx: ctx.stdout.write("no cat\n") and 0})
    assert sh.run("cat /etc/passwd").stdout == b"no cat\n"
    assert Shell().run("echo x | cat").stdout == b"x\n"


@pytest.mark.parametrize(
    ("returned", "status"),
    [(None, 0), (0, 0), (3, 3), (256 + 5, 5), (-1, 255)],
)
def test_the_return_value_is_the_exit_status(returned: int | None, status: int) -> None:
    sh = Shell(commands={"f": lambda ctx: returned})
    assert sh.run("f").exit_code == status


def test_an_exception_is_the_commands_failure() -> None:
    def broken(ctx: CommandContext) -> int:
        raise KeyError("missing")

    sh = Shell(commands={"broken": broken, "boolish": lambda ctx: True})
    r = sh.run("broken; echo status $?; boolish; echo status $?")
    assert r.stdout == b"status 1\nstatus 1\n"
    assert r.stderr == (
        b"broken: KeyError: 'missing'\n"
        b"boolish: TypeError: a command returns an int exit status or None, not a bool\n"
    )


def test_an_async_command_is_awaited() -> None:
    async def later(ctx: CommandContext) -> int:
        await asyncio.sleep(0.01)
        ctx.stdout.write("later\n")
        return 2

    r = Shell(commands={"later": later}).run("later")
    assert (r.stdout, r.exit_code) == (b"later\n", 2)


def test_too_much_output_is_the_output_limit() -> None:
    def flood(ctx: CommandContext) -> None:
        for _ in range(100):
            ctx.stdout.write(b"x" * 100)

    sh = Shell(limits=Limits(max_output_bytes=1000), commands={"flood": flood})
    with pytest.raises(shellbox.LimitExceeded) as e:
        sh.run("flood")
    assert e.value.limit == "max_output_bytes"


def test_endless_stdin_is_the_string_limit() -> None:
    sh = Shell(limits=Limits(max_string_len=100_000), commands={"sink": lambda ctx: 0})
    with pytest.raises(shellbox.LimitExceeded) as e:
        sh.run("yes | sink")
    assert e.value.limit == "max_string_len"


def test_cancelling_while_python_works_ends_the_run() -> None:
    token = shellbox.CancelToken()

    def slow(ctx: CommandContext) -> int:
        token.cancel()
        time.sleep(0.05)
        return 0

    sh = Shell(commands={"slow": slow})
    with pytest.raises(shellbox.Cancelled) as e:
        sh.run("slow; echo never", cancel=token)
    assert e.value.result is not None and b"never" not in e.value.result.stdout


def test_commands_run_off_the_calling_thread_but_see_python_state() -> None:
    threads: list[str] = []
    sb = Sandbox(commands={"who": lambda ctx: threads.append(threading.current_thread().name)})
    sb.run_sync("who; who")
    assert len(threads) == 2


def test_a_command_must_be_callable() -> None:
    with pytest.raises(TypeError, match="command 'x' must be callable"):
        Shell(commands={"x": 3})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="must be callable"):
        Shell().register("x", "not a function")  # type: ignore[arg-type]


def test_a_command_can_run_scripts_on_other_shells_but_not_its_own() -> None:
    other = Shell(files={"f": "other\n"})
    sh = Shell()

    def nested(ctx: CommandContext) -> int:
        ctx.stdout.write(other.run("cat f").stdout)
        try:
            sh.run("true")
        except RuntimeError as e:
            ctx.stderr.write(str(e))
        return 0

    sh.register("nested", nested)
    r = sh.run("nested")
    assert r.stdout == b"other\n"
    assert r.stderr == b"this shell is busy (a command cannot run scripts on the shell that runs it)"
