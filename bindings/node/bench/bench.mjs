// shellbox's Bash against just-bash 3.4.2, in one process and one run: the
// round trip of `exec("echo hi")`, an arithmetic loop, `grep -r` over seeded files,
// and seeding files through `files`. Prints a table of medians and the ratio
// (just-bash's time / shellbox's). Run: `npm run bench` (after `npm run build`).
import { Bash as JustBash } from "just-bash";
import { Bash } from "shellbox";

const now = () => Number(process.hrtime.bigint()) / 1e6;

async function median(runs, fn) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = now();
    await fn();
    times.push(now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function files(n, dirs) {
  const out = {};
  for (let i = 0; i < n; i++) {
    const body = i % 10 === 0 ? `line one\nneedle ${i}\nline three\n` : `line one\nhay ${i}\nline three\n`;
    out[`/workspace/d${i % dirs}/f${i}.txt`] = body;
  }
  return out;
}

async function expect(bash, script, stdout) {
  const r = await bash.exec(script, { cwd: "/workspace" });
  if (r.stdout !== stdout) throw new Error(`${script}: got ${JSON.stringify(r.stdout.slice(0, 200))}`);
}

const LOOP = "s=0; for ((i=0; i<10000; i++)); do s=$((s + i * 2)); done; echo $s";
const workloads = [
  {
    name: "exec('echo hi') round trip",
    unit: "µs",
    scale: 1000,
    make: async (B) => {
      const b = new B({ cwd: "/workspace" });
      await expect(b, "echo hi", "hi\n");
      return async () => {
        for (let i = 0; i < 200; i++) await b.exec("echo hi");
      };
    },
    per: 200,
    runs: 15,
  },
  {
    name: "arithmetic loop, 10,000 iterations",
    unit: "ms",
    scale: 1,
    make: async (B) => {
      const b = new B({ cwd: "/workspace", executionLimits: { maxLoopIterations: 1e6, maxCommandCount: 1e7 } });
      await expect(b, LOOP, "99990000\n");
      return () => b.exec(LOOP);
    },
    per: 1,
    runs: 7,
  },
  {
    name: "grep -r over 2,000 seeded files",
    unit: "ms",
    scale: 1,
    make: async (B) => {
      const b = new B({ files: files(2000, 20), cwd: "/workspace" });
      const r = await b.exec("grep -rl needle . | wc -l", { cwd: "/workspace" });
      if (r.stdout.trim() !== "200") throw new Error(`grep found ${r.stdout}`);
      return () => b.exec("grep -rl needle .", { cwd: "/workspace" });
    },
    per: 1,
    runs: 7,
  },
  {
    name: "seeding 20,000 files through `files`",
    unit: "ms",
    scale: 1,
    make: async (B) => {
      const f = files(20000, 200);
      return async () => {
        const b = new B({ files: f, cwd: "/workspace" });
        await b.exec("true");
      };
    },
    per: 1,
    runs: 5,
  },
];

const rows = [];
for (const w of workloads) {
  const ours = await median(w.runs, await w.make(Bash));
  const theirs = await median(w.runs, await w.make(JustBash));
  const a = (ours / w.per) * w.scale;
  const b = (theirs / w.per) * w.scale;
  rows.push({ workload: w.name, shellbox: `${a.toFixed(2)} ${w.unit}`, "just-bash": `${b.toFixed(2)} ${w.unit}`, "speed-up": `${(b / a).toFixed(1)}x` });
}
console.table(rows);
