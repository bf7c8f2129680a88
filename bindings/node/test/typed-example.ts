// A typed tour of the package, compiled with `tsc --noEmit` by types.test.mjs: each
// shape as a TypeScript user writes it. Nothing here runs.
import { Bash, createSandbox, defineCommand, loadSandbox } from "shellbox";
import type { BashExecResult, CommandContext, SandboxSession, WritableSandboxProcess } from "shellbox";
import { ShellboxSandbox, createShellboxProvider } from "shellbox/eve";
import { defineSandbox } from "eve/sandbox";
import { createBashTool } from "bash-tool";

export async function dropIn(): Promise<number> {
  const hello = defineCommand("hello", async (args: string[], ctx: CommandContext) => {
    const sub = await ctx.exec("echo sub", { cwd: ctx.cwd });
    return { stdout: `hello ${args[0] ?? "world"} ${sub.stdout}`, exitCode: 0 };
  });
  const bash = new Bash({
    files: { "/data/a.txt": "x\n", "/data/lazy.txt": () => "later\n" },
    env: { MODE: "test" },
    cwd: "/data",
    executionLimits: { maxLoopIterations: 10_000, maxExecutionTimeMs: 5_000 },
    customCommands: [hello],
  });
  const ac = new AbortController();
  const r: BashExecResult = await bash.exec("cat a.txt | hello", { env: { X: "1" }, signal: ac.signal, args: [] });
  const bytes: Uint8Array = r.stdoutBytes;
  const text: string = await bash.fs.readFile("/data/a.txt", "utf8");
  const stat = await bash.fs.stat("/data");
  return r.exitCode + bytes.length + text.length + (stat.isDirectory ? 1 : 0);
}

export async function session(): Promise<void> {
  const sb: SandboxSession = await createSandbox({
    files: { "src/index.ts": "export {};\n" },
    limits: { profile: "hardened", maxCommands: 100_000, timeoutMs: 10_000 },
    customCommands: { shout: (args) => ({ stdout: args.join(" ").toUpperCase() }) },
  });
  const { stdout } = await sb.run({ command: "ls src", workingDirectory: "." });
  const p: WritableSandboxProcess = await sb.spawn({ command: "cat", stdin: true });
  const writer = p.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdout));
  await writer.close();
  const { exitCode } = await p.wait();
  const lines: string | null = await sb.readTextFile({ path: "src/index.ts", startLine: 1, endLine: 1 });
  await sb.writeTextFile({ path: "out.txt", content: `${exitCode} ${lines ?? ""}` });
  const read = await sb.callTool("read_file", { filePath: "out.txt" });
  const fork = await sb.fork();
  await fork.save("/tmp/store", "demo");
  const again = await loadSandbox("/tmp/store", "demo");
  await again.removePath({ path: "out.txt", force: true });
  void read;
}

export const environment = ShellboxSandbox.environment({ prepare: async (sandbox) => void (await sandbox.run({ command: "true" })) });
export default defineSandbox(() => environment.open());
export const implementation = createShellboxProvider({ limits: { maxCommands: 1000 } });

export async function withBashTool() {
  const { tools } = await createBashTool({ sandbox: new Bash() });
  return tools.bash;
}
