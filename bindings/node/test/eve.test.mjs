// eve 0.80.1 over shellbox: eve's own tools driven headlessly against a shellbox
// session (as eve's runtime calls them), and shellbox as an eve sandbox provider
// (prepare, start, stop, resume in a new process, delete).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import bashTool from "eve/tools/bash";
import readFileTool from "eve/tools/read_file";
import writeFileTool from "eve/tools/write_file";
import globTool from "eve/tools/glob";
import grepTool from "eve/tools/grep";
import { defineSandboxProvider } from "eve/sandbox/provider";
import { createSandbox, defineCommand } from "shellbox";
import { ShellboxSandbox, createShellboxProvider } from "shellbox/eve";

/** A small eve context store (the container eve's file tools keep read records in). */
function contextStore() {
  const values = new Map();
  const store = {
    get: (key) => values.get(key.name),
    has: (key) => values.has(key.name),
    set: (key, value) => {
      const v = typeof value === "function" ? value(values.get(key.name)) : value;
      values.set(key.name, v);
      return v;
    },
    ensure: (key, make) => (values.has(key.name) ? values.get(key.name) : store.set(key, make())),
    require: (key) => {
      if (!values.has(key.name)) throw new Error(`Context key "${key.name}" is not set.`);
      return values.get(key.name);
    },
  };
  return store;
}

function eveCall(sandbox, store) {
  const storage = globalThis[Symbol.for("eve.context-storage")];
  const ctx = { getSandbox: async () => sandbox, abortSignal: new AbortController().signal };
  return (tool, input) => storage.run(store, () => tool.execute(input, ctx));
}

test("eve's read_file, write_file, glob, grep and bash tools work over a shellbox session", async () => {
  const sb = await createSandbox({
    files: { "src/app.ts": "export const x = 1;\nexport const y = 2;\n", "README.md": "# app\n" },
  });
  const call = eveCall(sb, contextStore());

  const created = await call(writeFileTool, { filePath: "/workspace/src/new.ts", content: "export {};\n" });
  assert.deepEqual(created, { existed: false, path: "/workspace/src/new.ts" });
  await assert.rejects(call(writeFileTool, { filePath: "/workspace/README.md", content: "x" }), /must read file/);

  const read = await call(readFileTool, { filePath: "/workspace/src/app.ts", offset: 1, limit: 1 });
  assert.deepEqual(read, {
    content: "1: export const x = 1;",
    nextOffset: 2,
    path: "/workspace/src/app.ts",
    totalLines: 2,
    truncated: true,
  });
  await sb.run({ command: "echo '// edited' >> src/app.ts" });
  await assert.rejects(call(writeFileTool, { filePath: "/workspace/src/app.ts", content: "y" }), /modified since it was last read/);
  await call(readFileTool, { filePath: "$HOME/../../workspace/src/app.ts" }).catch(() => {});
  await call(readFileTool, { filePath: "/workspace/src/app.ts" });
  const overwritten = await call(writeFileTool, { filePath: "/workspace/src/app.ts", content: "export const z = 3;\n" });
  assert.equal(overwritten.existed, true);
  assert.equal(await sb.readTextFile({ path: "src/app.ts" }), "export const z = 3;\n");

  const glob = await call(globTool, { pattern: "*.ts" });
  assert.deepEqual(glob, {
    content: "/workspace/src/app.ts\n/workspace/src/new.ts",
    count: 2,
    path: "/workspace",
    truncated: false,
  });

  const grep = await call(grepTool, { pattern: "export", glob: "*.ts", context: 1 });
  assert.equal(grep.matchCount, 2);
  assert.match(grep.content, /\/workspace\/src\/app.ts:1:export const z = 3;/);
  assert.match(grep.content, /\/workspace\/src\/new.ts:1:export \{\};/);

  const bash = await call(bashTool, { command: "ls src | wc -l; echo err >&2; exit 3" });
  assert.deepEqual(bash, { exitCode: 3, stderr: "err\n", stdout: "2\n", status: "completed", truncated: false });
});

test("eve's bash tool leaves a long command running after its wait, with its output files", async (t) => {
  // A command that runs until the test lets it finish: it waits on a host command.
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const wait = defineCommand("gate", async () => {
    await gate;
    return { stdout: "released\n" };
  });
  const sb = await createSandbox({ customCommands: [wait] });
  const call = eveCall(sb, contextStore());
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const pending = call(bashTool, { command: "echo before; gate; echo after" });
  // Let eve start the command, then move its 30-second wait past.
  let result;
  pending.then((r) => (result = r));
  // Real time passes (setInterval is not mocked) while mocked time jumps ahead.
  const realPause = () =>
    new Promise((r) => {
      const i = setInterval(() => {
        clearInterval(i);
        r();
      }, 5);
    });
  for (let i = 0; i < 2000 && result === undefined; i++) {
    await realPause();
    t.mock.timers.tick(1000);
  }
  t.mock.timers.reset();
  assert.ok(result !== undefined, "eve's bash tool returned");
  assert.equal(result.status, "running");
  assert.equal(result.stdout, "before\n");
  assert.match(result.outputDirectory, /^\/tmp\/\.eve\/jobs\//);
  assert.match(result.message, /still running/);
  release();
  // The command finishes in the background and writes its files.
  const dir = result.outputDirectory;
  let exit = null;
  for (let i = 0; i < 500 && exit === null; i++) {
    exit = await sb.readTextFile({ path: `${dir}/exit` });
    if (exit === null) await new Promise((r) => setTimeout(r, 10));
  }
  assert.equal(exit, "0\n");
  assert.equal(await sb.readTextFile({ path: `${dir}/stdout` }), "before\nreleased\nafter\n");
});

test("ShellboxSandbox is an eve provider environment", () => {
  assert.equal(ShellboxSandbox.name, "shellbox");
  const environment = ShellboxSandbox.environment({});
  assert.equal(typeof environment.open, "function");
  assert.equal(environment.provider, "shellbox");
  assert.equal(typeof defineSandboxProvider, "function");
});

test("the provider prepares a template once, starts sessions from it, and resumes them in a new process", async () => {
  const storagePath = mkdtempSync(join(tmpdir(), "shellbox-eve-"));
  try {
    let prepared = 0;
    const provider = createShellboxProvider({
      env: { TEAM: "core" },
      prepare: async (sandbox) => {
        prepared += 1;
        await sandbox.run({ command: "mkdir -p tools && echo 'echo tool ran' > tools/run.sh" });
      },
    });
    const resources = {
      source: { kind: "inline", key: "r1" },
      workspace: { key: "w1", mountPath: "/workspace", targetPath: "/workspace", files: [{ relativePath: "README.md", content: "# hi\n" }] },
      skills: { key: "s1", mountPath: "/skills", targetPath: "$HOME/.skills", files: [{ relativePath: "a/SKILL.md", content: new TextEncoder().encode("skill\n") }] },
    };
    const prepareContext = { storagePath, resources, sourceRevision: "rev1", files: {}, host: {}, log: () => {} };
    const artifact = await provider.prepare(prepareContext);
    assert.deepEqual(Object.keys(artifact).sort(), ["template", "version"]);
    assert.deepEqual(await provider.prepare(prepareContext), artifact, "the template is reused");
    assert.equal(prepared, 1);

    const context = { storagePath, host: {}, session: { id: "session-123", auth: {}, turn: {} } };
    const { handle, state } = await provider.start(context, undefined, artifact);
    const sandbox = handle.sandbox;
    const r = await sandbox.run({ command: "cat README.md ~/.skills/a/SKILL.md; bash tools/run.sh; echo $TEAM" });
    assert.equal(r.stdout, "# hi\nskill\ntool ran\ncore\n");
    await sandbox.writeTextFile({ path: "work.txt", content: "saved across processes\n" });
    await handle.onSandboxStop();

    // A second session from the same template does not see the first one's work.
    const other = await provider.start({ ...context, session: { id: "session-456" } }, undefined, artifact);
    assert.equal(await other.handle.sandbox.readTextFile({ path: "work.txt" }), null);

    const script = `
      import { createShellboxProvider } from "shellbox/eve";
      const provider = createShellboxProvider({ env: { TEAM: "core" } });
      const handle = await provider.resume(${JSON.stringify(context)}, ${JSON.stringify(artifact)}, ${JSON.stringify(state)});
      const r = await handle.sandbox.run({ command: "cat work.txt; echo $TEAM" });
      process.stdout.write(r.stdout);
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd(), encoding: "utf8" });
    assert.equal(out, "saved across processes\ncore\n");

    const resumed = await provider.resume(context, artifact, state);
    await resumed.onSandboxDelete();
    await assert.rejects(provider.resume(context, artifact, state), { code: "ENOENT" });
    await assert.rejects(provider.resume(context, artifact, { version: 9 }), /Invalid shellbox session state/);
    await provider.onSessionEnd(context, artifact, other.state, { reason: "completed" });
    await provider.onSessionEnd(context, artifact, other.state, { reason: "completed" });
  } finally {
    rmSync(storagePath, { recursive: true, force: true });
  }
});
