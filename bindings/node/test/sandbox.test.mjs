// `createSandbox()` / `loadSandbox()`: the session eve and the AI SDK use, shellbox's
// additions (snapshot, fork, save, callTool), and the promises that the engine never
// blocks the event loop, runs many sandboxes at once and stops when told.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox, loadSandbox, defineCommand } from "shellbox";

const text = (s) => new Response(s).text();

test("every member is an own enumerable property that survives an object spread", async () => {
  const sb = await createSandbox();
  const copy = { ...sb };
  for (const name of [
    "run", "spawn", "readFile", "readBinaryFile", "readTextFile", "writeFile", "writeBinaryFile",
    "writeTextFile", "stat", "listDirectory", "deleteFile", "resolvePath", "removePath", "stop",
    "delete", "snapshot", "restore", "fork", "save", "callTool", "shell",
  ]) {
    assert.equal(typeof copy[name], "function", name);
  }
  assert.equal(typeof copy.description, "string");
  assert.match(copy.id, /^sbx_[0-9a-f]{16}$/);
  assert.equal((await copy.run({ command: "echo via spread" })).stdout, "via spread\n");
});

test("run: a fresh shell in /workspace per command; files persist", async () => {
  const sb = await createSandbox({ files: { "src/a.txt": "b\na\n" }, env: { WHO: "agent" } });
  assert.deepEqual(await sb.run({ command: "sort src/a.txt; pwd; echo $WHO; x=1; cd /tmp" }), {
    exitCode: 0,
    stdout: "a\nb\n/workspace\nagent\n",
    stderr: "",
  });
  const r = await sb.run({ command: "echo ${x-unset} $PWD $EXTRA; exit 4", env: { EXTRA: "e" } });
  assert.deepEqual(r, { exitCode: 4, stdout: "unset /workspace e\n", stderr: "" });
  assert.equal((await sb.run({ command: "pwd", workingDirectory: "src" })).stdout, "/workspace/src\n");
  await assert.rejects(sb.run({ command: "pwd", workingDirectory: "nope" }), { code: "ENOENT" });
});

test("files: read (stream, bytes, text with line ranges), write (stream, bytes, text), stat, list, delete", async () => {
  const sb = await createSandbox();
  await sb.writeTextFile({ path: "deep/dir/notes.md", content: "one\ntwo\r\nthree\nfour" });
  assert.equal(await sb.readTextFile({ path: "/workspace/deep/dir/notes.md", startLine: 2, endLine: 3 }), "two\r\nthree\n");
  assert.equal(await sb.readTextFile({ path: "deep/dir/notes.md", startLine: 4, endLine: 99 }), "four");
  assert.equal(await sb.readTextFile({ path: "deep/dir/notes.md", startLine: 9 }), "");
  await assert.rejects(sb.readTextFile({ path: "deep/dir/notes.md", startLine: 0 }), RangeError);
  assert.equal(await sb.readTextFile({ path: "missing" }), null);
  assert.equal(await sb.readBinaryFile({ path: "missing" }), null);
  assert.equal(await sb.readFile({ path: "missing" }), null);
  await sb.writeBinaryFile({ path: "bin/blob", content: new Uint8Array([0, 255, 10]) });
  assert.deepEqual([...(await sb.readBinaryFile({ path: "bin/blob" }))], [0, 255, 10]);
  await assert.rejects(sb.readTextFile({ path: "bin/blob" }), { code: "EILSEQ" });
  assert.equal(await sb.readTextFile({ path: "bin/blob", encoding: "latin1" }), "\u0000\u00ff\n");
  const stream = new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode("stre"));
      c.enqueue(new TextEncoder().encode("amed\n"));
      c.close();
    },
  });
  await sb.writeFile({ path: "s.txt", content: stream });
  assert.equal(await text(await sb.readFile({ path: "s.txt" })), "streamed\n");
  await assert.rejects(sb.writeTextFile({ path: "deep", content: "x" }), { code: "EISDIR" });
  assert.deepEqual(await sb.stat({ path: "s.txt" }), { type: "file", size: 9 });
  assert.equal((await sb.stat({ path: "deep" })).type, "directory");
  assert.equal((await sb.stat({ path: "/dev/null" })).type, "other");
  assert.equal(await sb.stat({ path: "nope" }), null);
  await sb.run({ command: "ln -s s.txt link" });
  const listing = await sb.listDirectory({ path: "." });
  assert.deepEqual(listing.map((e) => `${e.name}:${e.type}`).sort(), ["bin:directory", "deep:directory", "link:symlink", "s.txt:file"]);
  assert.equal(await sb.listDirectory({ path: "nope" }), null);
  await assert.rejects(sb.listDirectory({ path: "s.txt" }), { code: "ENOTDIR" });
  assert.equal(await sb.deleteFile({ path: "link" }), true);
  assert.equal(await sb.readTextFile({ path: "s.txt" }), "streamed\n", "the link went, not its target");
  assert.equal(await sb.deleteFile({ path: "link" }), false);
  await assert.rejects(sb.deleteFile({ path: "deep" }), { code: "EISDIR" });
  assert.equal(sb.resolvePath("a/../b"), "/workspace/b");
  assert.equal(sb.resolvePath("/etc/x"), "/etc/x");
  await assert.rejects(sb.removePath({ path: "deep" }), { code: "ENOTEMPTY" });
  await sb.removePath({ path: "deep", recursive: true });
  await sb.removePath({ path: "deep", force: true });
  await assert.rejects(sb.removePath({ path: "deep" }), { code: "ENOENT" });
});

test("spawn streams output while JS goes on, takes stdin, waits and kills idempotently", async () => {
  const sb = await createSandbox({ limits: { maxLoopIterations: 1e12 } });
  const p = await sb.spawn({ command: "while read -r l; do echo \"got $l\"; done; echo done >&2; exit 5", stdin: true });
  assert.equal(typeof p.pid, "number");
  const reader = p.stdout.getReader();
  const writer = p.stdin.getWriter();
  await writer.write(new TextEncoder().encode("one\n"));
  const first = await reader.read();
  assert.equal(new TextDecoder().decode(first.value), "got one\n");
  await writer.write(new TextEncoder().encode("two\n"));
  await writer.close();
  let rest = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += new TextDecoder().decode(value);
  }
  assert.equal(rest, "got two\n");
  assert.equal(await text(p.stderr), "done\n");
  assert.deepEqual(await p.wait(), { exitCode: 5 });

  const spin = await sb.spawn({ command: "echo up; while :; do :; done" });
  assert.equal("stdin" in spin, false);
  const r = spin.stdout.getReader();
  assert.equal(new TextDecoder().decode((await r.read()).value), "up\n");
  await spin.kill();
  await spin.kill();
  assert.deepEqual(await spin.wait(), { exitCode: 143 });
});

test("an abort signal kills a run or a spawned process; their promises reject with its reason", async () => {
  const sb = await createSandbox({ limits: { maxLoopIterations: 1e12 } });
  const ac = new AbortController();
  setTimeout(() => ac.abort(new Error("enough")), 50);
  await assert.rejects(sb.run({ command: "while :; do :; done", abortSignal: ac.signal }), /enough/);
  const ac2 = new AbortController();
  const p = await sb.spawn({ command: "while :; do :; done", abortSignal: ac2.signal });
  ac2.abort();
  await assert.rejects(p.wait(), { name: "AbortError" });
  await assert.rejects(sb.run({ command: "true", abortSignal: AbortSignal.abort() }), { name: "AbortError" });
  assert.equal((await sb.run({ command: "echo still fine" })).stdout, "still fine\n");
});

test("the event loop keeps running while a script spins until its limit", async () => {
  const sb = await createSandbox({ limits: { maxLoopIterations: 3e6 } });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const r = await sb.run({ command: "i=0; while :; do i=$((i+1)); done" });
  clearInterval(timer);
  assert.equal(r.exitCode, 126);
  assert.match(r.stderr, /loop iteration limit exceeded/);
  assert.ok(ticks >= 3, `timers fired ${ticks} times while the script ran`);
});

test("ten sandboxes run at once", async () => {
  const boxes = await Promise.all(Array.from({ length: 10 }, (_, i) => createSandbox({ env: { N: String(i) } })));
  const started = Date.now();
  const results = await Promise.all(
    boxes.map((sb) => sb.run({ command: "s=0; for i in $(seq 20000); do s=$((s+i)); done; echo $N $s" })),
  );
  assert.deepEqual(results.map((r) => r.stdout), boxes.map((_, i) => `${i} 200010000\n`));
  assert.ok(Date.now() - started < 60_000);
});

test("snapshot, restore and fork are copies of the files in O(1)", async () => {
  const sb = await createSandbox({ files: { "a.txt": "1" } });
  const snap = sb.snapshot();
  await sb.writeTextFile({ path: "a.txt", content: "2" });
  const fork = await sb.fork();
  assert.notEqual(fork.id, sb.id);
  await fork.writeTextFile({ path: "a.txt", content: "3" });
  assert.equal(await sb.readTextFile({ path: "a.txt" }), "2");
  sb.restore(snap);
  assert.equal(await sb.readTextFile({ path: "a.txt" }), "1");
  assert.equal(await fork.readTextFile({ path: "a.txt" }), "3");
  assert.throws(() => sb.restore({}), TypeError);
});

test("save and loadSandbox keep a session's files, id and read stamps in a store", async () => {
  const dir = mkdtempSync(join(tmpdir(), "shellbox-node-store-"));
  try {
    const sb = await createSandbox({ files: { "notes.md": "# todo\n" } });
    await sb.callTool("read_file", { filePath: "notes.md" });
    const report = await sb.save(dir, "chat-1");
    assert.ok(report.blobsWritten >= 1);
    const again = await loadSandbox(dir, "chat-1");
    assert.equal(again.id, sb.id);
    // The read stamp came along: an edit needs no new read.
    const edit = await again.callTool("edit_file", { filePath: "notes.md", oldString: "todo", newString: "done" });
    assert.equal(edit.replacements, 1);
    assert.equal(await again.readTextFile({ path: "notes.md" }), "# done\n");
    await assert.rejects(loadSandbox(dir, "no-such-session"), { code: "ENOENT" });
    await assert.rejects(sb.save(dir, "../bad"), { code: "ESTORE" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("callTool serves the six agent tools with the session's read stamps and typed errors", async () => {
  const sb = await createSandbox({ files: { "src/app.ts": "const a = 1;\nconst b = 2;\n" } });
  await assert.rejects(sb.callTool("write_file", { filePath: "src/app.ts", content: "x" }), { code: "NOT_READ", kind: "not_read" });
  const read = await sb.callTool("read_file", { filePath: "src/app.ts", offset: 2 });
  assert.equal(read.totalLines, 2);
  assert.match(read.content, /^2: const b = 2;/);
  await sb.run({ command: "echo '// changed' >> src/app.ts" });
  await assert.rejects(sb.callTool("edit_file", { filePath: "src/app.ts", oldString: "a", newString: "z" }), { code: "CHANGED_SINCE_READ" });
  const glob = await sb.callTool("glob", { pattern: "**/*.ts" });
  assert.equal(glob.count, 1);
  const grep = await sb.callTool("grep", { pattern: "const", outputMode: "count" });
  assert.ok(grep.matchCount >= 1);
  const bash = await sb.callTool("bash", { command: "wc -l < src/app.ts" });
  assert.equal(bash.stdout, "3\n");
  await assert.rejects(sb.callTool("nope", {}), { code: "UNKNOWN_TOOL" });
  await assert.rejects(sb.callTool("read_file", { filePath: 3 }), { code: "INVALID_INPUT" });
  await assert.rejects(sb.callTool(5, {}), TypeError);
});

test("custom commands and limits in a sandbox; a limit in a file write is LIMIT_EXCEEDED", async () => {
  const sb = await createSandbox({
    customCommands: { shout: (args, ctx) => ({ stdout: `${args.join(" ").toUpperCase()}${ctx.stdin}` }) },
    limits: { maxFileBytes: 16 },
  });
  assert.equal((await sb.run({ command: "echo -n ! | shout hey there" })).stdout, "HEY THERE!");
  await assert.rejects(sb.writeTextFile({ path: "big", content: "x".repeat(17) }), (e) => {
    assert.equal(e.code, "LIMIT_EXCEEDED");
    assert.match(e.message, /file size limit exceeded \(16 bytes\)/);
    return true;
  });
  const r = await sb.run({ command: "head -c 100 /dev/zero > big" });
  assert.notEqual(r.exitCode, 0);
  await assert.rejects(createSandbox({ limits: { maxBogus: 1 } }), TypeError);
  await assert.rejects(createSandbox({ customCommands: 5 }), TypeError);
});

test("the memory and I/O budgets are limits: maxMemoryBytes and maxIoBytes", async () => {
  const cases = [
    [{ maxMemoryBytes: 1 << 20 }, "x=a; while :; do x=$x$x; done", "memory limit exceeded (1048576 bytes)"],
    [{ maxIoBytes: 1 << 20 }, "cat /dev/zero > /dev/null", "I/O limit exceeded (1048576 bytes)"],
  ];
  for (const [limits, command, message] of cases) {
    const sb = await createSandbox({ limits });
    const r = await sb.run({ command: `echo started; ${command}; echo never` });
    assert.equal(r.exitCode, 126, command);
    assert.equal(r.stdout, "started\n");
    assert.ok(r.stderr.endsWith(`${message}\n`), r.stderr);
    // A budget this small still lets ordinary work through.
    assert.equal((await sb.run({ command: "seq 3 | wc -l" })).stdout, "3\n");
  }
  for (const bad of [{ maxMemoryBytes: -1 }, { maxIoBytes: 1.5 }, { maxIoBytes: "1M" }]) {
    await assert.rejects(createSandbox({ limits: bad }), TypeError);
  }
});

test("a persistent shell over the session's files", async () => {
  const sb = await createSandbox();
  const sh = sb.shell();
  await sh.run("x=42; cd /tmp; echo hi > f");
  assert.deepEqual(await sh.run("echo $x $PWD; cat f"), { exitCode: 0, stdout: "42 /tmp\nhi\n", stderr: "" });
  assert.equal(await sb.readTextFile({ path: "/tmp/f" }), "hi\n");
});

test("a custom command that never answers is stopped by the run's timeout", async () => {
  const hang = defineCommand("hang", () => new Promise(() => {}));
  const sb = await createSandbox({ customCommands: [hang], limits: { timeoutMs: 200 } });
  const r = await sb.run({ command: "hang; echo never" });
  assert.equal(r.exitCode, 126);
  assert.match(r.stderr, /time limit exceeded/);
});
