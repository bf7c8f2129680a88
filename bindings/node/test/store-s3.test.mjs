// Sessions saved to S3-compatible object storage from Node: `save("s3://bucket/prefix",
// name)` and `loadSandbox` against a real server started here on 127.0.0.1 (moto's
// standalone server: `$SHELLBOX_MOTO_SERVER` or `moto_server` on the PATH), with the
// endpoint and credentials in the usual AWS_* variables. Without a server the tests
// say so and pass, unless SHELLBOX_REQUIRE_S3=1 (CI sets it).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, connect } from "node:net";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSandbox, loadSandbox } from "shellbox";

function motoBinary() {
  if (process.env.SHELLBOX_MOTO_SERVER) return process.env.SHELLBOX_MOTO_SERVER;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const bin = join(dir, "moto_server");
    if (dir && existsSync(bin)) return bin;
  }
  return null;
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listening(port) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

/** Starts moto, or returns why not (and fails when a server is required). */
async function startServer() {
  const bin = motoBinary();
  if (!bin) {
    assert.notEqual(process.env.SHELLBOX_REQUIRE_S3, "1", "SHELLBOX_REQUIRE_S3=1 but no moto_server");
    return { skip: "no S3-compatible server (pip install 'moto[server]', or set SHELLBOX_MOTO_SERVER)" };
  }
  const port = await freePort();
  const child = spawn(bin, ["-H", "127.0.0.1", "-p", String(port)], { stdio: "ignore" });
  after(() => child.kill());
  const deadline = Date.now() + 30_000;
  while (!(await listening(port))) {
    assert.ok(Date.now() < deadline, "moto_server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  const endpoint = `http://127.0.0.1:${port}`;
  Object.assign(process.env, {
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
  });
  return { endpoint };
}

const server = await startServer();
let buckets = 0;

/** A new bucket; its `s3://` URL with a prefix. */
async function bucket() {
  const name = `shellbox-node-${process.pid}-${buckets++}`;
  const res = await fetch(`${server.endpoint}/${name}`, { method: "PUT" });
  assert.equal(res.status, 200);
  return `s3://${name}/sessions`;
}

test("a session saved to s3:// loads in another sandbox and in a fresh process", { skip: server.skip }, async () => {
  const url = await bucket();
  const sb = await createSandbox({ files: { "notes.md": "# todo\n", "src/a.ts": "x".repeat(5000) } });
  await sb.callTool("read_file", { filePath: "notes.md" });
  const first = await sb.save(url, "chat-1");
  assert.ok(first.blobsWritten >= 2, JSON.stringify(first));
  const again = await loadSandbox(url, "chat-1");
  assert.equal(again.id, sb.id);
  const edit = await again.callTool("edit_file", { filePath: "notes.md", oldString: "todo", newString: "done" });
  assert.equal(edit.replacements, 1);
  // After a one-file change only that file's blob (and the tree above it) moves.
  const second = await again.save(url, "chat-1");
  assert.equal(second.seq, first.seq + 1);
  assert.ok(second.blobsWritten < first.blobsWritten + 3, JSON.stringify(second));
  const entry = fileURLToPath(new URL("../index.mjs", import.meta.url));
  const script =
    `const { loadSandbox } = await import(${JSON.stringify(entry)});` +
    `const sb = await loadSandbox(${JSON.stringify(url)}, "chat-1");` +
    `process.stdout.write(await sb.readTextFile({ path: "notes.md" }));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(out, "# done\n");
  await assert.rejects(loadSandbox(url, "never-saved"), { code: "ENOENT" });
});

test("two hosts on one s3:// session: the later save is ECONFLICT and overwrites nothing", { skip: server.skip }, async () => {
  const url = await bucket();
  await (await createSandbox({ files: { "a.txt": "one\n" } })).save(url, "shared");
  const hostA = await loadSandbox(url, "shared");
  const hostB = await loadSandbox(url, "shared");
  await hostA.run({ command: "echo a >> a.txt" });
  await hostA.save(url, "shared");
  await hostB.run({ command: "echo b >> a.txt" });
  await assert.rejects(hostB.save(url, "shared"), (e) => {
    assert.equal(e.code, "ECONFLICT");
    assert.match(e.message, /nothing was overwritten/);
    return true;
  });
  const now = await loadSandbox(url, "shared");
  assert.equal(await now.readTextFile({ path: "a.txt" }), "one\na\n");
});
