"use strict";
// `createSandbox()` / `loadSandbox()`: the sandbox session eve and the AI SDK use
// (the members of the AI SDK's `Experimental_SandboxSession` eve picks, plus eve's
// `resolvePath`, `removePath`, `stop` and `delete`), and shellbox's own: O(1)
// `snapshot`/`fork`, `save` to a store, `callTool` for the agent tools. Every member
// is an own enumerable property (eve re-creates sessions with an object spread).
// Each `run` is a fresh shell; files persist. Relative paths start at the base
// directory (`/workspace` unless `cwd` says otherwise).

const nodePath = require("node:path").posix;
const native = require("./native.cjs");
const { ShellboxFs } = require("./fs.cjs");
const { absolute, seed } = require("./seed.cjs");
const { dispatcher, normalizeCommands } = require("./commands.cjs");
const { fromOurs } = require("./limits.cjs");
const { collect, decode, encodingOf, streamOf, toBuffer } = require("./bytes.cjs");
const { readable, writable } = require("./streams.cjs");
const {
  abortError,
  expectEnv,
  expectObject,
  expectOptionalString,
  expectSignal,
  expectString,
  settle,
  sync,
} = require("./errors.cjs");

const DESCRIPTION =
  "A shellbox sandbox: a simulated GNU bash 5.2 with in-process GNU-style utilities " +
  "(grep, sed, awk, find, jq, ...) over an in-memory filesystem. Commands start in " +
  "/workspace; files persist between commands, shell variables and `cd` do not. " +
  "There is no network, and time only moves with `sleep`.";

/** What a session is made from: its commands, limits and environment. */
function settingsOf(options) {
  const o = expectObject(options, "options");
  const commands = normalizeCommands(o.customCommands);
  const settings = {
    base: nodePath.resolve("/workspace", expectOptionalString(o.cwd, "options.cwd") ?? "."),
    env: expectEnv(o.env, "options.env"),
    limits: fromOurs(o.limits),
    commands,
  };
  return settings;
}

function nativeInit(settings) {
  return { env: settings.env, limits: settings.limits, commands: [...settings.commands.keys()] };
}

function serve(settings, fs) {
  return settings.commands.size > 0 ? dispatcher(settings.commands, fs) : null;
}

function isMissing(e) {
  return e !== null && typeof e === "object" && e.code === "ENOENT";
}

/** Lines `startLine..endLine` (1-based, inclusive) of `text`, endings kept. */
function lineRange(text, startLine, endLine) {
  for (const [name, v] of [["startLine", startLine], ["endLine", endLine]]) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) {
      throw new RangeError(`${name} must be a positive integer (1-based)`);
    }
  }
  if (startLine !== undefined && endLine !== undefined && startLine > endLine) {
    throw new RangeError("startLine must not be greater than endLine");
  }
  if (startLine === undefined && endLine === undefined) return text;
  const lines = text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
  const first = startLine ?? 1;
  if (first > lines.length) return "";
  return lines.slice(first - 1, Math.min(endLine ?? lines.length, lines.length)).join("");
}

function strictUtf8(bytes, path) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const err = new Error(`EILSEQ: not UTF-8 text, read '${path}'`);
    err.code = "EILSEQ";
    throw err;
  }
}

/** Runs `fn` with a cancel token tied to `signal`; rejects with its reason if aborted. */
async function withSignal(signal, fn) {
  if (signal?.aborted) throw abortError(signal);
  const cancel = new native.NativeCancel();
  const onAbort = () => cancel.cancel();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const r = await fn(cancel);
    if (signal?.aborted) throw abortError(signal);
    return r;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

function processOf(proc, signal) {
  let ended;
  const wait = () => {
    ended ??= settle(proc.wait()).then((info) => {
      if (signal?.aborted) throw abortError(signal);
      return { exitCode: info.exitCode };
    });
    return ended;
  };
  const handle = {
    pid: proc.pid,
    stdout: readable(() => proc.nextStdout()),
    stderr: readable(() => proc.nextStderr()),
    wait,
    kill: () => settle(proc.kill()),
  };
  if (proc.hasStdin) handle.stdin = writable(proc);
  if (signal !== undefined) {
    const onAbort = () => {
      proc.kill().catch(() => {});
    };
    if (signal.aborted) onAbort();
    else {
      signal.addEventListener("abort", onAbort, { once: true });
      settle(proc.wait()).then(
        () => signal.removeEventListener("abort", onAbort),
        () => {},
      );
    }
  }
  return handle;
}

/** The session object over native sandbox `sb`. */
function sessionOf(sb, settings) {
  const at = (path, name = "path") => nodePath.resolve(settings.base, expectString(path, name));
  const opts = (o, name) => expectObject(o, name);
  let fsObject;
  const fs = () => fsObject;

  const session = {
    id: sb.id,
    description: DESCRIPTION,

    async run(options) {
      const o = opts(options, "options");
      const command = expectString(o.command, "options.command");
      const init = {
        cwd: at(expectOptionalString(o.workingDirectory, "options.workingDirectory") ?? "."),
        env: expectEnv(o.env, "options.env"),
      };
      const signal = expectSignal(o.abortSignal, "options.abortSignal");
      const r = await withSignal(signal, (cancel) => settle(sb.run(command, init, cancel)));
      return { exitCode: r.exitCode, stdout: decode(r.stdout), stderr: decode(r.stderr) };
    },

    async spawn(options) {
      const o = opts(options, "options");
      const command = expectString(o.command, "options.command");
      const signal = expectSignal(o.abortSignal, "options.abortSignal");
      if (signal?.aborted) throw abortError(signal);
      const init = {
        cwd: at(expectOptionalString(o.workingDirectory, "options.workingDirectory") ?? "."),
        env: expectEnv(o.env, "options.env"),
        stdinPipe: o.stdin === true,
      };
      const proc = await settle(sb.spawn(command, init, null));
      return processOf(proc, signal);
    },

    async readFile(options) {
      const bytes = await session.readBinaryFile(options);
      return bytes === null ? null : streamOf(bytes);
    },

    async readBinaryFile(options) {
      const path = at(opts(options, "options").path, "options.path");
      try {
        const b = await settle(sb.readFile(path));
        return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },

    async readTextFile(options) {
      const o = opts(options, "options");
      const bytes = await session.readBinaryFile(o);
      if (bytes === null) return null;
      const encoding = o.encoding ?? "utf-8";
      const e = encodingOf(encoding, "options.encoding");
      const text = e === "utf8" ? strictUtf8(bytes, at(o.path)) : decode(bytes, e);
      return lineRange(text, o.startLine, o.endLine);
    },

    async writeFile(options) {
      const o = opts(options, "options");
      const data = await collect(o.content, "options.content");
      await settle(sb.writeFile(at(o.path, "options.path"), data, false, true));
    },

    async writeBinaryFile(options) {
      const o = opts(options, "options");
      if (!(o.content instanceof Uint8Array)) throw new TypeError("options.content must be a Uint8Array");
      await settle(sb.writeFile(at(o.path, "options.path"), toBuffer(o.content), false, true));
    },

    async writeTextFile(options) {
      const o = opts(options, "options");
      const content = expectString(o.content, "options.content");
      const data = toBuffer(content, "options.content", encodingOf(o.encoding ?? "utf-8", "options.encoding"));
      await settle(sb.writeFile(at(o.path, "options.path"), data, false, true));
    },

    async stat(options) {
      const info = await settle(sb.stat(at(opts(options, "options").path, "options.path"), true));
      if (info === null) return null;
      const type = info.kind === "file" || info.kind === "directory" ? info.kind : "other";
      return { type, size: info.size };
    },

    async listDirectory(options) {
      try {
        const entries = await settle(sb.readDir(at(opts(options, "options").path, "options.path")));
        return entries.map((e) => ({
          name: e.name,
          type: ["file", "directory", "symlink"].includes(e.kind) ? e.kind : "other",
        }));
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },

    async deleteFile(options) {
      const path = at(opts(options, "options").path, "options.path");
      const info = await settle(sb.stat(path, false));
      if (info === null) return false;
      if (info.kind === "directory") {
        const err = new Error(`EISDIR: is a directory, unlink '${path}'`);
        err.code = "EISDIR";
        throw err;
      }
      await settle(sb.remove(path, false, false));
      return true;
    },

    resolvePath(path) {
      return at(path);
    },

    async removePath(options) {
      const o = opts(options, "options");
      await settle(sb.remove(at(o.path, "options.path"), Boolean(o.recursive), Boolean(o.force)));
    },

    async stop() {
      await settle(sb.stop());
    },

    async delete() {
      await settle(sb.stop());
    },

    /** An O(1) snapshot of the filesystem, for `restore`. */
    snapshot() {
      return sync(() => sb.snapshot());
    },

    restore(snapshot) {
      if (!(snapshot instanceof native.NativeSnapshot)) throw new TypeError("restore takes a snapshot of a session");
      sync(() => sb.restore(snapshot));
    },

    /** A new session over an O(1) copy of this one's files (same commands and limits). */
    async fork() {
      return sessionOf(sync(() => sb.fork()), settings);
    },

    /** Saves the session to the store in `storeDir` as `name`. */
    async save(storeDir, name) {
      return settle(sb.save(expectString(storeDir, "storeDir"), expectString(name, "name")));
    },

    /** Calls an agent tool (`read_file`, `write_file`, `edit_file`, `glob`, `grep`, `bash`). */
    async callTool(name, input) {
      const json = JSON.stringify(input ?? {});
      return JSON.parse(await settle(sb.callTool(expectString(name, "name"), json)));
    },

    /** A persistent shell over the session's files: variables and `cd` carry over. */
    shell() {
      const sh = sync(() => sb.shell(settings.base, null));
      return {
        async run(command, options = {}) {
          const o = opts(options, "options");
          const init = { cwd: o.cwd === undefined ? undefined : at(o.cwd, "options.cwd"), env: expectEnv(o.env, "options.env") };
          const signal = expectSignal(o.abortSignal, "options.abortSignal");
          const r = await withSignal(signal, (cancel) => settle(sh.run(expectString(command, "command"), init, cancel)));
          return { exitCode: r.exitCode, stdout: decode(r.stdout), stderr: decode(r.stderr) };
        },
      };
    },
  };
  fsObject = new ShellboxFs(() => sb);
  Object.defineProperty(session, "fs", { value: fsObject, enumerable: true });
  Object.defineProperty(session, "_native", { value: sb });
  return session;
}

/** A new sandbox session: `files` (relative to `/workspace`), `env`, `cwd`, `limits`, `customCommands`. */
async function createSandbox(options = {}) {
  const settings = settingsOf(options);
  const files = expectObject(options?.files, "options.files");
  let session;
  const sb = new native.NativeSandbox(nativeInit(settings), serve(settings, () => session.fs));
  const records = Object.entries(files).map(([path, content]) => ({
    path: absolute(settings.base, path),
    content: typeof content === "string" ? content : toBuffer(content, `files[${path}]`),
  }));
  await seed(sb, records, settings.base);
  session = sessionOf(sb, settings);
  return session;
}

/** Session `name` of the store in `storeDir`, with these commands and limits. */
async function loadSandbox(storeDir, name, options = {}) {
  const settings = settingsOf(options);
  let session;
  const sb = await settle(
    native.loadSandbox(
      expectString(storeDir, "storeDir"),
      expectString(name, "name"),
      nativeInit(settings),
      serve(settings, () => session.fs),
    ),
  );
  session = sessionOf(sb, settings);
  return session;
}

module.exports = { createSandbox, loadSandbox, sessionOf, settingsOf };
