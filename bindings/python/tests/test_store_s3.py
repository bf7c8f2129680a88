"""Sessions saved to S3-compatible object storage from Python: ``save("s3://bucket/prefix",
name)`` and ``Sandbox.load`` against a real server started here on 127.0.0.1 (moto's
standalone server: ``$SHELLBOX_MOTO_SERVER`` or ``moto_server`` on the PATH), with the
endpoint and credentials in the usual AWS_* variables. Without a server the tests are
skipped with the reason, unless SHELLBOX_REQUIRE_S3=1 (CI sets it)."""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Iterator

import pytest

from shellbox import Sandbox, StoreConflict, StoreError

_buckets = itertools.count()


def _moto_binary() -> str | None:
    return os.environ.get("SHELLBOX_MOTO_SERVER") or shutil.which("moto_server")


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    binary = _moto_binary()
    if binary is None:
        assert os.environ.get("SHELLBOX_REQUIRE_S3") != "1", "SHELLBOX_REQUIRE_S3=1 but no moto_server"
        pytest.skip("no S3-compatible server (pip install 'moto[server]', or set SHELLBOX_MOTO_SERVER)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [binary, "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "moto_server did not start"
                time.sleep(0.1)
        url = f"http://127.0.0.1:{port}"
        saved = {k: os.environ.get(k) for k in _AWS}
        os.environ.update(
            AWS_ENDPOINT_URL=url,
            AWS_REGION="us-east-1",
            AWS_ACCESS_KEY_ID="test",
            AWS_SECRET_ACCESS_KEY="test",
        )
        yield url
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    finally:
        server.terminate()
        server.wait()


_AWS = ("AWS_ENDPOINT_URL", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")


def _bucket(endpoint: str) -> str:
    """A new bucket; its ``s3://`` URL with a prefix."""
    name = f"shellbox-py-{os.getpid()}-{next(_buckets)}"
    request = urllib.request.Request(f"{endpoint}/{name}", method="PUT")
    with urllib.request.urlopen(request) as reply:
        assert reply.status == 200
    return f"s3://{name}/sessions"


def test_a_session_saved_to_s3_loads_elsewhere_and_in_a_fresh_process(endpoint: str) -> None:
    url = _bucket(endpoint)
    sb = Sandbox(files={"notes.md": "# todo\n", "src/a.py": "x" * 5000})
    sb.call_tool_sync("read_file", {"filePath": "notes.md"})
    first = sb.save_sync(url, "chat-1")
    assert first.seq == 1 and first.blobs_written >= 2
    again = Sandbox.load_sync(url, "chat-1")
    assert again.id == sb.id
    assert again.read_stamps() == sb.read_stamps()
    again.call_tool_sync("edit_file", {"filePath": "notes.md", "oldString": "todo", "newString": "done"})
    second = again.save_sync(url, "chat-1")
    assert second.seq == 2 and second.blobs_written < first.blobs_written + 3
    code = (
        "import sys, shellbox\n"
        "sb = shellbox.Sandbox.load_sync(sys.argv[1], 'chat-1')\n"
        "sys.stdout.write(sb.fs.read_text('notes.md'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, url], capture_output=True, text=True, check=True)
    assert out.stdout == "# done\n"
    with pytest.raises(FileNotFoundError):
        Sandbox.load_sync(url, "never-saved")


def test_two_hosts_on_one_s3_session_the_later_save_is_a_conflict(endpoint: str) -> None:
    url = _bucket(endpoint)
    Sandbox(files={"a.txt": "one\n"}).save_sync(url, "shared")
    host_a = Sandbox.load_sync(url, "shared")
    host_b = Sandbox.load_sync(url, "shared")
    host_a.run_sync("echo a >> a.txt")
    host_a.save_sync(url, "shared")
    host_b.run_sync("echo b >> a.txt")
    with pytest.raises(StoreConflict, match="nothing was overwritten") as caught:
        host_b.save_sync(url, "shared")
    assert isinstance(caught.value, StoreError)
    assert Sandbox.load_sync(url, "shared").fs.read_text("a.txt") == "one\na\n"
