// The package's types: the typed example (every shape as a TypeScript user writes
// it) compiles with `tsc --noEmit`, and the declared entry points exist at run time,
// from ES modules and from CommonJS.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as esm from "shellbox";
import * as eveEsm from "shellbox/eve";

const here = fileURLToPath(new URL(".", import.meta.url));
const require = createRequire(import.meta.url);

test("the typed example compiles with tsc --noEmit", () => {
  const tsc = require.resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", `${here}tsconfig.json`], { stdio: "pipe" });
});

test("ES module and CommonJS entry points give the same objects", () => {
  const cjs = require("shellbox");
  for (const name of ["Bash", "createSandbox", "loadSandbox", "defineCommand"]) {
    assert.equal(typeof esm[name], "function", name);
    assert.equal(esm[name], cjs[name], name);
  }
  const eveCjs = require("shellbox/eve");
  assert.equal(typeof eveEsm.ShellboxSandbox.environment, "function");
  assert.equal(typeof eveCjs.createShellboxProvider, "function");
});
