"""FileSystem (sh.fs / sb.fs): reads and writes the shell's own files, paths relative
to /workspace, failures as the builtin OSError of their errno, limits as
LimitExceeded, and a host folder overlaid read-only."""

from __future__ import annotations

import errno
from pathlib import Path, PurePosixPath

import pytest

from shellbox import LimitExceeded, Limits, Sandbox, Shell


def test_reads_and_writes_are_the_shells_files() -> None:
    sh = Shell()
    sh.fs.write("notes/a.txt", "one\n")
    sh.fs.write("/tmp/b.bin", b"\x00\xff")
    sh.fs.write("notes/a.txt", "two\n", append=True)
    assert sh.run("cat notes/a.txt; wc -c < /tmp/b.bin").stdout == b"one\ntwo\n2\n"
    sh.run("printf 'caf\\xc3\\xa9' > made.txt")
    assert sh.fs.read_bytes("made.txt") == b"caf\xc3\xa9"
    assert sh.fs.read_text("/workspace/made.txt") == "café"
    assert sh.fs.read_text(PurePosixPath("made.txt"), encoding="latin-1") == "cafÃ©"


def test_listing_existence_and_metadata() -> None:
    sh = Shell(files={"d/b": "", "d/a": "xyz"})
    sh.fs.mkdir("d/sub")
    sh.fs.symlink("a", "d/link")
    assert sh.fs.listdir("d") == ["a", "b", "link", "sub"]
    assert "d" in sh.fs.listdir()
    assert sh.fs.exists("d/a") and not sh.fs.exists("d/zz")
    assert sh.fs.is_file("d/link") and not sh.fs.is_dir("d/link")
    assert sh.fs.is_dir("d/sub")
    st = sh.fs.stat("d/a")
    assert (st.kind, st.size, st.mode, st.uid) == ("file", 3, 0o644, 1000)
    assert st.is_file() and not st.is_dir()
    assert sh.fs.stat("d/link", follow_symlinks=False).is_symlink()
    assert sh.fs.readlink("d/link") == "a"
    assert sh.fs.resolve("d/../x") == "/workspace/x"
    sh.fs.write("run.sh", "echo ran\n", mode=0o755)
    assert sh.fs.stat("run.sh").mode == 0o755
    assert sh.run("./run.sh").stdout == b"ran\n"
    sh.fs.chmod("run.sh", 0o600)
    assert sh.run("stat -c %a run.sh").stdout == b"600\n"


def test_mkdir_remove_copy_rename() -> None:
    sh = Shell(files={"d/a.txt": "a", "d/sub/b.txt": "b"})
    sh.fs.mkdir("x/y/z", parents=True)
    sh.fs.mkdir("x", exist_ok=True)
    sh.fs.copy("d", "e", recursive=True)
    sh.fs.rename("e", "f")
    assert sh.run("find f | sort").stdout == b"f\nf/a.txt\nf/sub\nf/sub/b.txt\n"
    sh.fs.remove("f/a.txt")
    sh.fs.remove("f", recursive=True)
    sh.fs.remove("f", force=True)
    assert not sh.fs.exists("f")


@pytest.mark.parametrize(
    ("call", "error", "code"),
    [
        (lambda sh: sh.fs.read_bytes("missing"), FileNotFoundError, errno.ENOENT),
        (lambda sh: sh.fs.read_bytes("d"), IsADirectoryError, errno.EISDIR),
        (lambda sh: sh.fs.write("f/x", "y"), NotADirectoryError, errno.ENOTDIR),
        (lambda sh: sh.fs.listdir("f"), NotADirectoryError, errno.ENOTDIR),
        (lambda sh: sh.fs.mkdir("d"), FileExistsError, errno.EEXIST),
        (lambda sh: sh.fs.remove("d"), OSError, errno.ENOTEMPTY),
        (lambda sh: sh.fs.remove("missing"), FileNotFoundError, errno.ENOENT),
        (lambda sh: sh.fs.copy("d", "e"), IsADirectoryError, errno.EISDIR),
        (lambda sh: sh.fs.stat("missing"), FileNotFoundError, errno.ENOENT),
        (lambda sh: sh.fs.readlink("f"), OSError, errno.EINVAL),
    ],
)
def test_failures_are_the_oserror_of_their_errno(call: object, error: type[OSError], code: int) -> None:
    sh = Shell(files={"d/a": "a", "f": "file"})
    with pytest.raises(error) as e:
        call(sh)  # type: ignore[operator]
    assert e.value.errno == code


def test_a_missing_file_names_its_path() -> None:
    with pytest.raises(FileNotFoundError) as e:
        Shell().fs.read_text("gone.txt")
    assert e.value.filename == "/workspace/gone.txt"
    assert str(e.value) == "[Errno 2] No such file or directory: '/workspace/gone.txt'"


def test_a_write_over_a_limit_is_limit_exceeded() -> None:
    sh = Shell(limits=Limits(max_file_bytes=10))
    with pytest.raises(LimitExceeded) as e:
        sh.fs.write("big", "more than ten bytes")
    assert e.value.limit == "max_file_bytes"
    assert "file size limit exceeded (10 bytes)" in e.value.message
    sh.fs.write("small", "ok")
    sb = Sandbox(limits=Limits(max_files=10_000))
    with pytest.raises(LimitExceeded) as e2:
        for i in range(10_001):
            sb.fs.write(f"many/{i}", "")
    assert e2.value.limit == "max_files"


def test_bad_paths_and_data_are_type_errors() -> None:
    fs = Shell().fs
    with pytest.raises(TypeError, match="a path must be str"):
        fs.read_bytes(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="data must be bytes or str"):
        fs.write("x", 3)  # type: ignore[arg-type]


def test_a_host_folder_is_overlaid_read_only(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("print('hi')\n")
    (tmp_path / "README").write_text("host readme\n")
    sh = Shell(root=tmp_path)
    assert sh.run("cat README; ls src").stdout == b"host readme\nmain.py\n"
    sh.run("echo changed > README; rm src/main.py; echo new > new.txt")
    assert sh.fs.read_text("README") == "changed\n"
    # The host is never written.
    assert (tmp_path / "README").read_text() == "host readme\n"
    assert (tmp_path / "src" / "main.py").exists()
    assert not (tmp_path / "new.txt").exists()
    with pytest.raises(OSError):
        Shell(root=tmp_path / "missing")
