"""Sandbox and Template: the asyncio API and its sync twins — fresh shells over one
filesystem, concurrent runs that overlap, cancellation, background processes with
byte streams, the agent tools with read stamps, stores, and templates that bootstrap
once."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any, Coroutine, TypeVar

import pytest

import shellbox
from shellbox import BootstrapError, Limits, Sandbox, StoreError, Template, ToolError

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def test_each_run_is_a_fresh_shell_over_shared_files() -> None:
    async def main() -> None:
        sb = Sandbox(files={"notes.txt": "b\na\n"}, env={"WHO": "agent"})
        r = await sb.run("sort notes.txt | head -n1; cd /tmp; x=1; echo $WHO")
        assert r.stdout == b"a\nagent\n"
        r = await sb.run("pwd; echo ${x:-unset}")
        assert r.stdout == b"/workspace\nunset\n"
        r = await sb.run("cat", stdin="piped", args=["-"], env={"E": "e"})
        assert r.stdout == b"piped"
        with pytest.raises(shellbox.ExitStatusError):
            await sb.run("exit 2", check=True)

    run(main())


def test_the_sync_twins_match() -> None:
    sb = Sandbox()
    assert sb.run_sync("echo hi").stdout == b"hi\n"
    p = sb.spawn_sync("echo out; echo err >&2; exit 3")
    assert p.wait_sync() == 3
    assert p.stdout.read_sync() == b"out\n"
    assert list(p.stderr) == [b"err\n"]
    assert sb.call_tool_sync("glob", {"pattern": "*"})["count"] == 0
    sb.stop_sync()


def test_ten_concurrent_runs_overlap() -> None:
    def pause(ctx: shellbox.CommandContext) -> int:
        time.sleep(0.2)
        return 0

    async def main() -> float:
        sb = Sandbox(commands={"pause": pause})
        start = time.perf_counter()
        results = await asyncio.gather(*(sb.run(f"pause; echo {i}") for i in range(10)))
        assert [r.stdout for r in results] == [f"{i}\n".encode() for i in range(10)]
        return time.perf_counter() - start

    # One after another they would take 2 s.
    assert run(main()) < 1.0


def test_the_event_loop_stays_free_while_a_script_spins() -> None:
    async def main() -> int:
        sb = Sandbox(limits=Limits(max_loop_iterations=10**12))
        token = shellbox.CancelToken()
        spinning = asyncio.ensure_future(sb.run("while :; do :; done", cancel=token))
        ticks = 0
        for _ in range(20):
            await asyncio.sleep(0.01)
            ticks += 1
        token.cancel()
        with pytest.raises(shellbox.Cancelled):
            await spinning
        return ticks

    assert run(main()) == 20


def test_cancelling_the_awaitable_stops_the_command() -> None:
    async def main() -> None:
        sb = Sandbox(limits=Limits(max_loop_iterations=10**12))
        task = asyncio.ensure_future(sb.run("echo started > log; while :; do :; done"))
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # It stopped: the next run has the machine to itself and finishes at once.
        r = await asyncio.wait_for(sb.run("cat log"), timeout=5)
        assert r.stdout == b"started\n"

    run(main())


def test_spawn_streams_bytes_and_kill_is_idempotent() -> None:
    async def main() -> None:
        sb = Sandbox()
        p = await sb.spawn("for i in 1 2 3; do echo $i; done; echo err >&2; exit 4")
        chunks = [c async for c in p.stdout]
        assert b"".join(chunks) == b"1\n2\n3\n"
        assert await p.stderr.read() == b"err\n"
        assert await p.wait() == 4
        assert p.returncode == 4 and p.stopped is None
        assert p.stdin is None

        p = await sb.spawn("while :; do :; done", cancel=None)
        assert p.returncode is None
        await p.kill()
        await p.kill()
        p.kill_sync()
        assert p.returncode == shellbox.TERMINATED
        assert p.stopped is not None and p.stopped.kind == "cancelled"

    run(main())


def test_spawn_with_a_stdin_pipe() -> None:
    async def main() -> None:
        sb = Sandbox()
        p = await sb.spawn("while read -r l; do echo \"got $l\"; done; echo eof", stdin_pipe=True)
        assert p.stdin is not None
        await p.stdin.write(b"one\n")
        p.stdin.write_sync("two\n")
        p.stdin.close()
        p.stdin.close()
        assert await p.stdout.read() == b"got one\ngot two\neof\n"
        assert await p.wait() == 0
        with pytest.raises(BrokenPipeError):
            await p.stdin.write(b"late")

    run(main())


def test_wait_sync_can_time_out() -> None:
    sb = Sandbox(limits=Limits(max_loop_iterations=10**12))
    p = sb.spawn_sync("while :; do :; done")
    with pytest.raises(TimeoutError):
        p.wait_sync(timeout=0.05)
    p.kill_sync()
    assert p.wait_sync(timeout=5) == shellbox.TERMINATED


def test_a_limit_in_a_spawned_process_is_its_stop_reason() -> None:
    sb = Sandbox(limits=Limits(max_loop_iterations=10))
    p = sb.spawn_sync("while :; do :; done")
    assert p.wait_sync() == 126
    assert p.stopped is not None
    assert (p.stopped.kind, p.stopped.limit) == ("limit", "max_loop_iterations")


def test_tools_keep_read_stamps() -> None:
    async def main() -> None:
        sb = Sandbox(files={"a.txt": "hello\n"})
        with pytest.raises(ToolError) as e:
            await sb.call_tool("write_file", {"filePath": "a.txt", "content": "x"})
        assert (e.value.kind, e.value.path) == ("not_read", "/workspace/a.txt")
        read = await sb.call_tool("read_file", {"filePath": "a.txt"})
        assert read == {"content": "1: hello", "path": "/workspace/a.txt", "totalLines": 1, "truncated": False}
        assert "/workspace/a.txt" in sb.read_stamps()
        # The model's arguments as they come: a JSON text works as well as a dict.
        edit = json.dumps({"filePath": "a.txt", "oldString": "hello", "newString": "bye"})
        assert await sb.call_tool("edit_file", edit) == {"path": "/workspace/a.txt", "replacements": 1}
        assert sb.fs.read_text("a.txt") == "bye\n"
        bash = await sb.call_tool("bash", {"command": "cat a.txt; exit 3"})
        assert (bash["status"], bash["exitCode"], bash["stdout"]) == ("completed", 3, "bye\n")

    run(main())


@pytest.mark.parametrize(
    ("name", "arguments", "kind"),
    [
        ("read_file", "{not json", "invalid_input"),
        ("read_file", {"filePath": "a", "extra": 1}, "invalid_input"),
        ("read_file", {}, "invalid_input"),
        ("read_file", {"filePath": "missing"}, "not_found"),
        ("read_file", {"filePath": "../../../.."}, "invalid_path"),
        ("teleport", {}, "unknown_tool"),
    ],
)
def test_bad_tool_calls_are_tool_errors(name: str, arguments: object, kind: str) -> None:
    sb = Sandbox()
    with pytest.raises(ToolError) as e:
        sb.call_tool_sync(name, arguments)  # type: ignore[arg-type]
    assert e.value.kind == kind
    assert e.value.to_dict()["error"]["kind"] == kind  # type: ignore[index]


def test_tool_input_that_is_not_json_is_a_type_error() -> None:
    sb = Sandbox()
    with pytest.raises(TypeError, match="JSON"):
        sb.call_tool_sync("read_file", {"filePath": {1, 2}})
    with pytest.raises(TypeError, match="JSON"):
        sb.call_tool_sync("read_file", {"filePath": float("nan")})


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    async def main() -> None:
        sb = Sandbox(files={"a": "1"}, env={"E": "e"})
        await sb.call_tool("read_file", {"filePath": "a"})
        report = await sb.save(tmp_path, "s1")
        assert report.seq == 1 and report.blobs_written > 0 and report.manifest.exists()
        again = await Sandbox.load(tmp_path, "s1")
        assert again.id == sb.id
        assert again.read_stamps() == sb.read_stamps()
        assert (await again.run("cat a; echo $E")).stdout == b"1e\n"
        sb.fs.write("a", "2")
        assert sb.save_sync(tmp_path, "s1").seq == 2
        assert Sandbox.load_sync(tmp_path, "s1").fs.read_text("a") == "2"

    run(main())


def test_store_failures(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Sandbox.load_sync(tmp_path, "never-saved")
    with pytest.raises(StoreError, match="invalid session name"):
        Sandbox().save_sync(tmp_path, "../escape")
    (tmp_path / "file").write_text("not a store")
    with pytest.raises(StoreError):
        Sandbox().save_sync(tmp_path / "file", "s")


def test_fork_shell_snapshot_and_register() -> None:
    sb = Sandbox(files={"a": "1"})
    fork = sb.fork()
    assert fork.id != sb.id
    fork.fs.write("a", "2")
    assert sb.fs.read_text("a") == "1"
    sh = sb.shell()
    sh.run("x=7; echo $x > made")
    assert sh.run("echo $x").stdout == b"7\n"
    assert sb.fs.read_text("made") == "7\n"
    snap = sb.snapshot()
    sb.fs.remove("made")
    sb.restore(snap)
    assert sb.fs.exists("made")
    sb.register("hello", lambda ctx: ctx.stdout.write("hi\n") and 0)
    assert sb.run_sync("hello").stdout == b"hi\n"
    assert fork.run_sync("hello").exit_code == 127


def test_a_template_bootstraps_once_and_sessions_are_forks() -> None:
    calls = []

    def bootstrap(sb: Sandbox) -> None:
        calls.append(sb.id)
        sb.run_sync("mkdir -p tools && echo 'echo ready' > tools/check.sh")

    async def main() -> None:
        t = Template(bootstrap, files={"seed.txt": "seeded"}, env={"E": "e"})
        a, b = await t.session(), t.session_sync()
        await a.run("rm tools/check.sh")
        assert (await b.run("bash tools/check.sh; cat seed.txt; echo $E")).stdout == b"ready\nseedede\n"
        assert t.builds == 1 and len(calls) == 1
        assert a.id != b.id

    run(main())


def test_an_async_bootstrap_and_revalidation() -> None:
    version = ["v1"]

    async def bootstrap(sb: Sandbox) -> None:
        await sb.run(f"echo {version[0]} > version")

    t = Template(bootstrap, revalidation_key=lambda: version[0])
    assert t.session_sync().fs.read_text("version") == "v1\n"
    assert t.revalidate_sync() is False
    version[0] = "v2"
    assert t.revalidate_sync() is True
    assert t.session_sync().fs.read_text("version") == "v2\n"
    assert t.builds == 2


def test_a_template_seeds_from_a_host_folder_and_a_store(tmp_path: Path) -> None:
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "a.txt").write_text("from the host\n")
    store = tmp_path / "store"
    t = Template(seed_dir=seed, store=store)
    assert t.session_sync().fs.read_text("a.txt") == "from the host\n"
    # A second template with the same inputs finds the first one's build in the store.
    again = Template(lambda sb: pytest.fail("bootstrap ran again"), seed_dir=seed, store=store)
    before = t.fingerprint()
    assert again.fingerprint() == before
    assert again.session_sync().fs.read_text("a.txt") == "from the host\n"
    assert again.builds == 0
    (seed / "a.txt").write_text("changed\n")
    assert again.fingerprint() != before


def test_a_failing_bootstrap_is_a_bootstrap_error_caused_by_it() -> None:
    def bootstrap(sb: Sandbox) -> None:
        raise ValueError("no network here")

    with pytest.raises(BootstrapError, match="no network here") as e:
        Template(bootstrap).session_sync()
    assert isinstance(e.value.__cause__, ValueError)


def test_awaitables_need_a_running_loop() -> None:
    with pytest.raises(RuntimeError, match="no running event loop"):
        Sandbox().run("true")



def test_a_bug_in_shellbox_fails_the_awaitable_not_the_loop() -> None:
    async def main() -> None:
        sb = Sandbox()
        shellbox._native._register_panicking_command(sb, "boom")
        with pytest.raises(shellbox.InternalError) as e:
            await sb.run("echo before; boom")
        assert e.value.result is not None and e.value.result.stdout == b"before\n"
        assert (await sb.run("echo after")).stdout == b"after\n"

    run(main())


def test_spawn_takes_stdin_pipe_but_not_check() -> None:
    sb = Sandbox()
    with pytest.raises(TypeError, match="unexpected keyword argument 'check'"):
        sb.spawn_sync("true", check=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'stdin_pipe'"):
        sb.run_sync("true", stdin_pipe=True)  # type: ignore[call-arg]
