// Records the expectations of the compatibility table: each case of cases.mjs run by
// the real /bin/bash (in a fresh temp directory holding the case's files), and the list
// of cases where just-bash 3.4.2 gives something else. Writes expected.json next to
// this file. Run from bindings/node: `node test/compat/record.mjs`.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Bash as JustBash } from "just-bash";
import { cases } from "./cases.mjs";

// `node --test test/` runs every module under test/, this one included: recording is
// done by hand, never by the test runner.
if (process.env.NODE_TEST_CONTEXT !== undefined) process.exit(0);

const version = spawnSync("/bin/bash", ["--version"], { encoding: "utf8" }).stdout ?? "";
if (!version.startsWith("GNU bash, version 5.2.")) throw new Error(`/bin/bash is not bash 5.2: ${version.split("\n")[0]}`);

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "expected.json");

function runBash(c) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "shellbox-compat-"));
  try {
    const work = path.join(root, "work");
    const home = path.join(root, "home");
    fs.mkdirSync(work);
    fs.mkdirSync(home);
    for (const [rel, content] of Object.entries(c.files ?? {})) {
      const file = path.join(work, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
    const r = spawnSync("/bin/bash", ["-c", c.script], {
      argv0: "bash",
      cwd: work,
      env: { PATH: "/usr/bin:/bin", HOME: home, LC_ALL: "C.UTF-8", TZ: "UTC" },
      input: c.stdin ?? "",
      encoding: "utf8",
      timeout: 20000,
    });
    if (r.error) throw r.error;
    if (r.status === null) throw new Error(`bash was killed by ${r.signal}`);
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function runJustBash(c) {
  const files = {};
  for (const [rel, content] of Object.entries(c.files ?? {})) files[`/workspace/${rel}`] = content;
  const bash = new JustBash({ files, cwd: "/workspace" });
  const r = await bash.exec(c.script, c.stdin === undefined ? {} : { stdin: c.stdin });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

// File modes must not depend on the recorder's umask.
process.umask(0o022);

const same = (a, b) => a.stdout === b.stdout && a.stderr === b.stderr && a.exitCode === b.exitCode;

const seen = new Set();
const bash = {};
const justBashDiffers = [];
for (const c of cases) {
  if (seen.has(c.name)) throw new Error(`duplicate case name: ${c.name}`);
  seen.add(c.name);
  const expected = runBash(c);
  // Every case must be deterministic under bash: run it twice.
  if (!same(expected, runBash(c))) throw new Error(`case is not deterministic under bash: ${c.name}`);
  bash[c.name] = expected;
  if (!same(expected, await runJustBash(c))) justBashDiffers.push(c.name);
}

fs.writeFileSync(out, JSON.stringify({ cases: cases.length, bash, justBashDiffers }, null, 2) + "\n");
console.log(`${cases.length} cases recorded; just-bash differs from bash on ${justBashDiffers.length}`);
