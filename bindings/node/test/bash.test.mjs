// The `Bash` class as a drop-in for just-bash's: construction, exec options, the
// filesystem object, custom commands, limits, aborts and argument errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Bash, defineCommand } from "shellbox";

test("exec runs a script over initial files and reports stdout, stderr, exit code and env", async () => {
  const bash = new Bash({ files: { "/data/a.txt": "b\na\n", "/data/n.json": '{"n": 2}' }, cwd: "/data" });
  const r = await bash.exec("sort a.txt; jq .n n.json; echo oops >&2; x=5; exit 3");
  assert.equal(r.stdout, "a\nb\n2\n");
  assert.equal(r.stderr, "oops\n");
  assert.equal(r.exitCode, 3);
  assert.equal(r.env.x, "5");
  assert.equal(r.env.PWD, "/data");
  assert.deepEqual(Object.keys(r), ["stdout", "stderr", "exitCode", "env"]);
  assert.ok(r.stdoutBytes instanceof Uint8Array);
});

/** Paths `path.resolve` changes, each with a text naming how; `ODD_READ` cats them. */
const ODD_PATHS = {
  "rel/a.txt": "relative\n",
  "/x/../b.txt": "dotdot\n",
  "/c//d/./e.txt": "doubled\n",
  "/f/g/": "trailing slash\n",
  "/u.txt": "é ü\n",
};
const ODD_READ = ["cat /rel/a.txt /b.txt /c/d/e.txt /f/g /u.txt", "relative\ndotdot\ndoubled\ntrailing slash\né ü\n"];

test("initial file paths are resolved as path.resolve does, and string and byte contents mix", async () => {
  const bash = new Bash({ files: { ...ODD_PATHS, "/bin.dat": new Uint8Array([0, 255, 10]) } });
  const r = await bash.exec(`${ODD_READ[0]}; od -An -tu1 /bin.dat`);
  assert.equal(r.stdout, `${ODD_READ[1]}   0 255  10\n`);
  const only = new Bash({ files: { "/s1": "one", "/s2": "ünï", "/s3": "" } });
  assert.equal((await only.exec("cat /s1 /s2 /s3; wc -c < /s2")).stdout, "oneünï5\n");
});

test("files that are all strings take the batch path with the same rules", async () => {
  // The later of two names for one path wins; a lone surrogate becomes U+FFFD, as
  // Buffer.from(text) makes it.
  const files = { ...ODD_PATHS, "/twice": "first\n", "/y/../twice": "second\n", "/lone": "a\ud800b" };
  const r = await new Bash({ files }).exec(`${ODD_READ[0]} /twice; od -An -tx1 /lone`);
  assert.equal(r.stdout, `${ODD_READ[1]}second\n 61 ef bf bd 62\n`);
  // A NUL in a path is a TypeError, reported by the next call as a failed seed is.
  const bad = new Bash({ files: { "/ok": "x", "/a\0b": "y" } });
  await assert.rejects(bad.exec("true"), (e) => e instanceof TypeError && /holds a NUL byte/.test(e.message));
});

test("each exec starts from the same shell state; files persist", async () => {
  const bash = new Bash();
  await bash.exec("x=1; f() { echo f; }; cd /tmp; echo kept > /tmp/k");
  const r = await bash.exec("echo ${x-unset}; type f >/dev/null 2>&1 || echo no-f; pwd; cat /tmp/k");
  assert.equal(r.stdout, "unset\nno-f\n/home/user\nkept\n");
});

test("keepState keeps variables, functions and the directory", async () => {
  const bash = new Bash({ keepState: true });
  await bash.exec("x=1; f() { echo f$x; }; cd /tmp");
  assert.equal((await bash.exec("f; pwd")).stdout, "f1\n/tmp\n");
});

test("the default directory is just-bash's: /home/user, or / with files", async () => {
  assert.equal((await new Bash().exec("pwd")).stdout, "/home/user\n");
  assert.equal((await new Bash({ files: { "a.txt": "x" } }).exec("pwd; cat a.txt")).stdout, "/\nx");
  assert.equal((await new Bash({ cwd: "/made/here" }).exec("pwd")).stdout, "/made/here\n");
});

test("exec options: env, replaceEnv, cwd, stdin, stdinKind, args", async () => {
  const bash = new Bash({ env: { A: "a", B: "b" }, files: { "/w/sub/f": "in sub\n" }, cwd: "/w" });
  assert.equal((await bash.exec("echo $A $B $C", { env: { B: "B", C: "c" } })).stdout, "a B c\n");
  assert.equal((await bash.exec("echo ${A-none} $C", { env: { C: "c" }, replaceEnv: true })).stdout, "none c\n");
  assert.equal((await bash.exec("cat f", { cwd: "sub" })).stdout, "in sub\n");
  assert.equal((await bash.exec("tr a-z A-Z", { stdin: "hello\n" })).stdout, "HELLO\n");
  const bytes = await bash.exec("od -An -tx1", { stdin: "\xff\x00", stdinKind: "bytes" });
  assert.equal(bytes.stdout.trim(), "ff 00");
  const grep = await bash.exec("grep -c", { args: ["x y"], stdin: "x y\nz\nx y\n" });
  assert.equal(grep.stdout, "2\n");
  // Unparsed: no globbing or expansion of the extra words.
  assert.equal((await bash.exec("printf '<%s>'", { args: ["*", "$HOME"] })).stdout, "<*><$HOME>");
});

test("binary output is kept as bytes beside its text", async () => {
  const r = await new Bash().exec("printf '\\xff\\xfe'");
  assert.deepEqual([...r.stdoutBytes], [0xff, 0xfe]);
  assert.equal(r.stdout, "\ufffd\ufffd");
});

test("the filesystem object follows just-bash's IFileSystem", async () => {
  const bash = new Bash();
  const fs = bash.fs;
  await fs.writeFile("/x/y/z.txt", "hi"); // parents are made
  assert.equal(await fs.readFile("/x/y/z.txt"), "hi");
  assert.equal(await fs.readFile("/x/y/z.txt", "base64"), "aGk=");
  await fs.appendFile("/x/y/z.txt", new Uint8Array([33]));
  assert.deepEqual([...(await fs.readFileBuffer("/x/y/z.txt"))], [104, 105, 33]);
  assert.equal(await fs.exists("/x/y"), true);
  assert.equal(await fs.exists("/nope"), false);
  const st = await fs.stat("/x/y/z.txt");
  assert.equal(st.isFile, true);
  assert.equal(st.size, 3);
  assert.ok(st.mtime instanceof Date);
  await fs.mkdir("/m/n", { recursive: true });
  assert.deepEqual(await fs.readdir("/m"), ["n"]);
  await fs.symlink("/x/y/z.txt", "/ln");
  assert.equal(await fs.readlink("/ln"), "/x/y/z.txt");
  assert.equal(await fs.realpath("/ln"), "/x/y/z.txt");
  assert.equal((await fs.lstat("/ln")).isSymbolicLink, true);
  await fs.cp("/x", "/x2", { recursive: true });
  await fs.mv("/x2", "/x3");
  assert.equal(await fs.readFile("/x3/y/z.txt"), "hi!");
  await fs.chmod("/x3/y/z.txt", 0o600);
  assert.equal((await fs.stat("/x3/y/z.txt")).mode, 0o600);
  await fs.link("/x3/y/z.txt", "/hard");
  assert.equal((await fs.stat("/hard")).nlink, 2);
  await fs.utimes("/hard", new Date(0), new Date(86_400_000));
  assert.equal((await fs.stat("/hard")).mtime.getTime(), 86_400_000);
  const types = await fs.readdirWithFileTypes("/x3");
  assert.deepEqual(types, [{ name: "y", isFile: false, isDirectory: true, isSymbolicLink: false }]);
  assert.equal(fs.resolvePath("/a/b", "../c"), "/a/c");
  assert.ok(fs.getAllPaths().includes("/x3/y/z.txt"));
  await fs.rm("/x3", { recursive: true });
  assert.equal(await fs.exists("/x3"), false);
  // What the host wrote belongs to the sandbox user: scripts can change it.
  assert.equal((await bash.exec("echo more >> /x/y/z.txt && rm -r /m/n && echo ok")).stdout, "ok\n");
});

test("filesystem errors carry Node's codes", async () => {
  const fs = new Bash().fs;
  const code = async (p) => {
    try {
      await p;
    } catch (e) {
      assert.ok(e instanceof Error);
      return e.code;
    }
    return "no error";
  };
  await fs.writeFile("/d/f", "x");
  assert.equal(await code(fs.readFile("/nope")), "ENOENT");
  assert.equal(await code(fs.readFile("/d")), "EISDIR");
  assert.equal(await code(fs.readdir("/d/f")), "ENOTDIR");
  assert.equal(await code(fs.mkdir("/d")), "EEXIST");
  assert.equal(await code(fs.rm("/d")), "ENOTEMPTY");
  assert.equal(await code(fs.rm("/nope")), "ENOENT");
  assert.equal(await code(fs.rm("/nope", { force: true })), "no error");
  assert.equal(await code(fs.cp("/d", "/e")), "EISDIR");
  assert.equal(await code(fs.readlink("/d")), "EINVAL");
  assert.equal(await code(fs.stat("/nope")), "ENOENT");
  const small = new Bash({ executionLimits: {}, files: {} });
  assert.equal(await code(small.fs.writeFile("/big", "x".repeat(10))), "no error");
});

test("custom commands run in pipelines, see stdin, env and cwd, and may replace built-ins", async () => {
  const seen = [];
  const upper = defineCommand("upper", async (args, ctx) => {
    seen.push({ args, cwd: ctx.cwd, who: ctx.env.get("WHO") });
    return { stdout: ctx.stdin.toUpperCase(), stderr: "", exitCode: 0 };
  });
  const wc = { name: "wc", execute: async () => ({ stdout: "replaced\n", exitCode: 0 }) };
  const lazy = { name: "lazy", load: async () => defineCommand("lazy", () => ({ stdout: "loaded\n" })) };
  const bash = new Bash({ customCommands: [upper, wc, lazy], cwd: "/tmp", env: { WHO: "me" } });
  const r = await bash.exec("echo hi there | upper a 'b c' | cat; printf x | wc -c; lazy; lazy");
  assert.equal(r.stdout, "HI THERE\nreplaced\nloaded\nloaded\n");
  assert.deepEqual(seen, [{ args: ["a", "b c"], cwd: "/tmp", who: "me" }]);
});

test("a custom command's ctx.exec runs shell commands in the same sandbox", async () => {
  const count = defineCommand("count", async (args, ctx) => {
    const r = await ctx.exec(`ls ${args[0]} | wc -l`, { cwd: ctx.cwd });
    const echoed = await ctx.exec("cat", { stdin: "piped" });
    return { stdout: `${r.stdout.trim()} ${echoed.stdout}\n`, exitCode: r.exitCode };
  });
  const bash = new Bash({ files: { "/d/a": "", "/d/b": "" }, customCommands: [count] });
  assert.equal((await bash.exec("count /d")).stdout, "2 piped\n");
});

test("a failing custom command reports its error and the script goes on", async () => {
  const boom = defineCommand("boom", async () => {
    throw new Error("it broke");
  });
  const bad = defineCommand("bad", async () => ({ exitCode: 1.5 }));
  const r = await new Bash({ customCommands: [boom, bad] }).exec("boom; echo $?; bad; echo $?");
  assert.equal(r.stdout, "1\n1\n");
  assert.equal(r.stderr, "boom: it broke\nbad: exitCode must be an integer, not 1.5\n");
});

test("registerCommand adds a command for later execs, keeping the files", async () => {
  const bash = new Bash();
  await bash.fs.writeFile("/tmp/f", "data");
  bash.registerCommand(defineCommand("late", () => ({ stdout: "late\n" })));
  assert.equal((await bash.exec("late; cat /tmp/f")).stdout, "late\ndata");
});

test("a limit ends the exec with 126 and a message naming it", async () => {
  const bash = new Bash({ executionLimits: { maxLoopIterations: 100 } });
  const r = await bash.exec("while :; do :; done; echo never");
  assert.equal(r.exitCode, 126);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /loop iteration limit exceeded \(100 iterations\)/);
  assert.equal(r.stopped.kind, "limit");
  assert.equal(r.stopped.limit, "max_loop_iterations");
  // The next exec is not affected.
  assert.equal((await bash.exec("echo fine")).stdout, "fine\n");
});

test("an aborted exec stops at its next command and resolves with 124", async () => {
  const bash = new Bash({ executionLimits: { maxLoopIterations: 1e12 } });
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  const r = await bash.exec("echo started; while :; do :; done", { signal: ac.signal });
  assert.equal(r.exitCode, 124);
  assert.equal(r.stdout, "started\n");
  assert.equal(r.stderr, "bash: execution aborted\n");
  const pre = new AbortController();
  pre.abort();
  assert.equal((await bash.exec("echo no", { signal: pre.signal })).exitCode, 124);
});

test("bad arguments are TypeErrors", async () => {
  const bash = new Bash();
  await assert.rejects(bash.exec(42), TypeError);
  await assert.rejects(bash.exec("true", { env: { A: 1 } }), TypeError);
  await assert.rejects(bash.exec("true", { signal: "no" }), TypeError);
  await assert.rejects(bash.exec("true", { args: [1] }), TypeError);
  assert.throws(() => new Bash({ env: "x" }), TypeError);
  assert.throws(() => new Bash({ customCommands: [{ name: "x" }] }), TypeError);
  assert.throws(() => new Bash({ executionLimits: { maxLoopIterations: -1 } }), TypeError);
  assert.throws(() => new Bash({ executionLimits: { notALimit: 1 } }), TypeError);
  await assert.rejects(bash.fs.readFile(null), TypeError);
  await assert.rejects(bash.fs.writeFile("/a", 5), TypeError);
  await assert.rejects(bash.fs.readFile("/a", "klingon"), TypeError);
});

test("syntax errors and missing commands read as bash's", async () => {
  const r = await new Bash().exec("echo ok; nosuchcmd; if then");
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, "bash: -c: line 1: syntax error near unexpected token `then'\nbash: -c: line 1: `echo ok; nosuchcmd; if then'\n");
  assert.equal(r.exitCode, 2);
  const m = await new Bash().exec("nosuchcmd arg");
  assert.equal(m.stderr, "bash: line 1: nosuchcmd: command not found\n");
  assert.equal(m.exitCode, 127);
});

test("results come back right whether a run ends at once or outlasts the caller's short wait", async () => {
  // A short run is usually handed back as a value, a long one through a promise; many
  // at once race the engine's threads against the JavaScript thread's wait.
  const bash = new Bash({ cwd: "/workspace" });
  const long = "s=0; for ((i=0; i<30000; i++)); do s=$((s+i)); done; echo $s";
  const runs = [];
  for (let i = 0; i < 40; i++) runs.push(bash.exec(i % 4 === 0 ? long : `echo ${i}; x=${i}`));
  const results = await Promise.all(runs);
  results.forEach((r, i) => {
    assert.equal(r.stdout, i % 4 === 0 ? "449985000\n" : `${i}\n`);
    if (i % 4 !== 0) assert.equal(r.env.x, String(i));
  });
  const r = await bash.exec("echo hi");
  r.env = { replaced: "1" };
  assert.deepEqual(r.env, { replaced: "1" });
  assert.equal(JSON.parse(JSON.stringify(r)).env.replaced, "1");
});
