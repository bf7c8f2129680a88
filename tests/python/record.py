#!/usr/bin/env python3
"""Record (or check) CPython's behaviour for every program in tests/python/corpus/.

For each NNN_topic.py the recorder copies the program into a fresh temporary
directory (under its own file name), runs `python3 NNN_topic.py ARGS...` there
with a minimal environment and writes NNN_topic.expected as JSON:

    {"status": int, "stderr": str, "stdout": str}

Every program is run twice (--runs N for more), with different PYTHONHASHSEED
values and different temporary directories; if the runs disagree (stdout exact, status exact,
stderr exact -- or only its last line when it holds a traceback) the recorder
fails loudly so the program can be made deterministic.  It also fails when a
program's output mentions its temporary directory (absolute paths must never
be part of what is compared) or when a program's length is outside 5-40 lines.

Usage:
    python3 tests/python/record.py                # record all programs
    python3 tests/python/record.py 001_json_roundtrip 17   # only matching names
    python3 tests/python/record.py --check        # compare with .expected files
    python3 tests/python/record.py --python /usr/bin/python3.11

The programs under tests/python/escape/ are never run by this script: they try
to escape the sandbox and must not run on the host.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
TIMEOUT = 10  # seconds per run
HASH_SEEDS = ("1", "2718281", "31337", "4000000007", "5", "123456789")
TRACEBACK = "Traceback (most recent call last):"


def default_python():
    if os.path.exists("/usr/bin/python3"):
        return "/usr/bin/python3"
    found = shutil.which("python3")
    if not found:
        sys.exit("record.py: no python3 found; pass --python")
    return found


def compared_stderr(stderr):
    """The part of stderr the corpus test compares."""
    if TRACEBACK in stderr:
        lines = stderr.rstrip("\n").split("\n")
        return lines[-1]
    return stderr


def comparable(result):
    return (result["stdout"], compared_stderr(result["stderr"]), result["status"])


def run_once(python, name, hash_seed, tag):
    src = os.path.join(CORPUS, name + ".py")
    args_file = os.path.join(CORPUS, name + ".args")
    stdin_file = os.path.join(CORPUS, name + ".stdin")
    args = []
    if os.path.exists(args_file):
        with open(args_file, encoding="utf-8") as f:
            args = f.read().splitlines()
    stdin_bytes = b""
    if os.path.exists(stdin_file):
        with open(stdin_file, "rb") as f:
            stdin_bytes = f.read()
    tmp = tempfile.mkdtemp(prefix="pycorpus-%s-%s-" % (tag, name[:3]))
    try:
        shutil.copyfile(src, os.path.join(tmp, name + ".py"))
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": tmp,
            "LC_ALL": "C.UTF-8",
            "PYTHONHASHSEED": hash_seed,
        }
        try:
            proc = subprocess.run(
                [python, name + ".py"] + args,
                cwd=tmp,
                env=env,
                input=stdin_bytes,
                capture_output=True,
                timeout=TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            raise RuntimeError("%s: timed out after %ds" % (name, TIMEOUT))
        try:
            out = proc.stdout.decode("utf-8")
            err = proc.stderr.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RuntimeError("%s: output is not UTF-8: %s" % (name, e))
        result = {"stdout": out, "stderr": err, "status": proc.returncode}
        real_tmp = os.path.realpath(tmp)
        for label, text in (("stdout", out), ("stderr (compared part)", compared_stderr(err))):
            if tmp in text or real_tmp in text:
                raise RuntimeError("%s: %s mentions the temporary directory" % (name, label))
        return result
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def lint(name):
    with open(os.path.join(CORPUS, name + ".py"), encoding="utf-8") as f:
        n = len(f.read().splitlines())
    if not 5 <= n <= 40:
        raise RuntimeError("%s: %d lines (must be 5-40)" % (name, n))


def process(python, name, check, runs):
    lint(name)
    a = run_once(python, name, HASH_SEEDS[0], "a")
    for i in range(1, runs):
        b = run_once(python, name, HASH_SEEDS[i], chr(ord("a") + i))
        if comparable(a) != comparable(b):
            raise RuntimeError(
                "%s: NONDETERMINISTIC (PYTHONHASHSEED %s vs %s)\n--- run a ---\n%r\n--- run %s ---\n%r"
                % (name, HASH_SEEDS[0], HASH_SEEDS[i], a, chr(ord("a") + i), b)
            )
    exp_path = os.path.join(CORPUS, name + ".expected")
    if check:
        if not os.path.exists(exp_path):
            raise RuntimeError("%s: no .expected file" % name)
        with open(exp_path, encoding="utf-8") as f:
            want = json.load(f)
        if comparable(want) != comparable(a):
            raise RuntimeError(
                "%s: MISMATCH with .expected\n--- expected ---\n%r\n--- got ---\n%r"
                % (name, want, a)
            )
        return a
    with open(exp_path, "w", encoding="utf-8") as f:
        json.dump(a, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    return a


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with existing .expected files")
    ap.add_argument("--python", default=None, help="interpreter to record with")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--runs", type=int, default=2, choices=range(2, len(HASH_SEEDS) + 1),
                    metavar="N", help="runs per program, each with its own PYTHONHASHSEED (2-%d)" % len(HASH_SEEDS))
    ap.add_argument("only", nargs="*", help="substrings of program names to run")
    opts = ap.parse_args()
    python = opts.python or default_python()
    version = subprocess.run([python, "--version"], capture_output=True, text=True).stdout.strip()
    names = sorted(f[:-3] for f in os.listdir(CORPUS) if f.endswith(".py"))
    if opts.only:
        names = [n for n in names if any(o in n for o in opts.only)]
    # .expected files without a program are stale
    if not opts.only:
        for f in sorted(os.listdir(CORPUS)):
            stem, ext = os.path.splitext(f)
            if ext in (".expected", ".stdin", ".args") and stem not in names:
                print("record.py: stray file %s" % f, file=sys.stderr)
                sys.exit(1)
    failures = []
    statuses = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        futs = {pool.submit(process, python, n, opts.check, opts.runs): n for n in names}
        for fut in concurrent.futures.as_completed(futs):
            n = futs[fut]
            try:
                r = fut.result()
                statuses[r["status"]] = statuses.get(r["status"], 0) + 1
            except Exception as e:  # noqa: BLE001 - report every failure
                failures.append(str(e))
    for msg in sorted(failures):
        print("FAIL " + msg, file=sys.stderr)
    mode = "checked" if opts.check else "recorded"
    summary = ", ".join("status %d: %d" % (k, statuses[k]) for k in sorted(statuses))
    print(
        "%s %d programs with %s (%s), each run %d times: %d failures [%s]"
        % (mode, len(names), python, version, opts.runs, len(failures), summary)
    )
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
