// The compatibility table (test/compat/cases.mjs): shellbox's `Bash` must give exactly
// what /bin/bash 5.2 gave (recorded in test/compat/expected.json by
// test/compat/record.mjs), and just-bash 3.4.2 must still agree with bash exactly where
// the recording says it does, and differ where it says it differs.

import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, test } from "node:test";
import { Bash as JustBash } from "just-bash";
import { Bash } from "shellbox";
import { cases } from "./compat/cases.mjs";

const expected = JSON.parse(fs.readFileSync(new URL("./compat/expected.json", import.meta.url), "utf8"));
const justBashDiffers = new Set(expected.justBashDiffers);
// shellbox's own open differences from bash (bugs being fixed): reported as TODO, and
// checked to still differ so the list cannot go stale.
const known = new Set(
  JSON.parse(fs.readFileSync(new URL("./compat/known-differences.json", import.meta.url), "utf8")).cases,
);

async function run(BashClass, c) {
  const files = {};
  for (const [rel, content] of Object.entries(c.files ?? {})) files[`/workspace/${rel}`] = content;
  const bash = new BashClass({ files, cwd: "/workspace" });
  const r = await bash.exec(c.script, c.stdin === undefined ? {} : { stdin: c.stdin });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

const same = (a, b) => a.stdout === b.stdout && a.stderr === b.stderr && a.exitCode === b.exitCode;

/** A line diff of two texts: common lines as "  ", bash's as "- ", the other's as "+ ". */
function lineDiff(want, got) {
  const a = want.split("\n");
  const b = got.split("\n");
  // Longest common subsequence table (the outputs are small).
  const lcs = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out = [];
  let i = 0;
  let j = 0;
  const show = (s) => JSON.stringify(s).slice(1, -1);
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`    ${show(a[i])}`);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push(`  + ${show(b[j])}`);
      j++;
    } else {
      out.push(`  - ${show(a[i])}`);
      i++;
    }
  }
  return out.join("\n");
}

/** A readable account of how `got` differs from bash's `want`. */
function describeDiff(name, c, want, got, who) {
  const parts = [`case ${JSON.stringify(name)}: ${who} differs from bash`, `script:\n${c.script}`];
  for (const field of ["stdout", "stderr"]) {
    if (want[field] !== got[field]) {
      parts.push(`${field} (- bash, + ${who}):\n${lineDiff(want[field], got[field])}`);
    }
  }
  if (want.exitCode !== got.exitCode) parts.push(`exitCode: bash ${want.exitCode}, ${who} ${got.exitCode}`);
  return parts.join("\n");
}

test("the table and the recording match", () => {
  assert.ok(cases.length >= 150, `only ${cases.length} cases`);
  assert.deepEqual(
    cases.map((c) => c.name),
    Object.keys(expected.bash),
    "expected.json is stale: run `node test/compat/record.mjs`",
  );
  for (const name of justBashDiffers) assert.ok(name in expected.bash, `unknown case ${name}`);
});

describe("shellbox agrees with bash", () => {
  for (const c of cases) {
    const todo = known.has(c.name) ? "a known difference from bash (compat/known-differences.json)" : undefined;
    test(c.name, { todo }, async () => {
      const want = expected.bash[c.name];
      const got = await run(Bash, c);
      if (!same(want, got)) assert.fail(describeDiff(c.name, c, want, got, "shellbox"));
    });
  }
});

test("the known differences are still differences", async () => {
  for (const name of known) {
    const c = cases.find((x) => x.name === name);
    assert.ok(c !== undefined, `known-differences.json names no case ${JSON.stringify(name)}`);
    const got = await run(Bash, c);
    assert.ok(!same(expected.bash[name], got), `case ${JSON.stringify(name)} now agrees with bash: take it off the list`);
  }
});

describe("just-bash is where the recording puts it", () => {
  for (const c of cases) {
    const differs = justBashDiffers.has(c.name);
    test(`${c.name} (${differs ? "differs from" : "agrees with"} bash)`, async () => {
      const want = expected.bash[c.name];
      const got = await run(JustBash, c);
      if (differs) {
        assert.ok(!same(want, got), `case ${JSON.stringify(c.name)}: just-bash now agrees with bash; re-record`);
      } else if (!same(want, got)) {
        assert.fail(describeDiff(c.name, c, want, got, "just-bash"));
      }
    });
  }
});
