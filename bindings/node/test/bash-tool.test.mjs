// bash-tool 1.3.19 over shellbox: `createBashTool({sandbox: new Bash(...)})` takes
// shellbox's `Bash` as it takes just-bash's, and its bash, readFile and writeFile
// tools work unchanged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBashTool } from "bash-tool";
import { Bash } from "shellbox";

const options = { toolCallId: "call-1", messages: [] };

test("bash-tool's tools run over a shellbox Bash", async () => {
  const sandbox = new Bash({ files: { "/workspace/src/index.ts": "export const x = 1;\n" } });
  const { tools } = await createBashTool({ sandbox, files: { "notes.md": "# notes\n" } });
  assert.deepEqual(Object.keys(tools).sort(), ["bash", "readFile", "writeFile"]);

  const ls = await tools.bash.execute({ command: "find . -type f | sort && grep -c x src/index.ts" }, options);
  assert.equal(ls.exitCode, 0);
  assert.equal(ls.stdout, "./notes.md\n./src/index.ts\n1\n");

  const failed = await tools.bash.execute({ command: "cat missing.txt" }, options);
  assert.equal(failed.exitCode, 1);
  assert.equal(failed.stderr, "cat: missing.txt: No such file or directory\n");

  await tools.writeFile.execute({ path: "out/report.md", content: "done\n" }, options);
  assert.equal(await sandbox.fs.readFile("/workspace/out/report.md"), "done\n");
  const read = await tools.readFile.execute({ path: "src/index.ts" }, options);
  assert.equal(read.content, "export const x = 1;\n");
  const wc = await tools.bash.execute({ command: "wc -l < out/report.md" }, options);
  assert.equal(wc.stdout, "1\n");
});
