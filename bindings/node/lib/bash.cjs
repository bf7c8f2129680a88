"use strict";
// `Bash`, a drop-in for just-bash 3.4's class of the same name: `new Bash({files, env,
// cwd, executionLimits, customCommands})`, `await bash.exec(script, {env, cwd, stdin,
// signal, args})` -> `{stdout, stderr, exitCode, env}`, and `bash.fs`. As in
// just-bash, each exec starts from the same shell state and only the filesystem
// persists; `keepState: true` keeps variables, functions and the directory too.
//
// Where just-bash differs from bash, this follows bash: the script is run as given
// (just-bash trims leading whitespace from lines unless `rawScript`), and output is
// bash's. Bytes are kept: `stdoutBytes`/`stderrBytes` (not enumerable) hold the raw
// output, and `stdout`/`stderr` are its UTF-8 decoding.

const nodePath = require("node:path").posix;
const native = require("./native.cjs");
const { ShellboxFs } = require("./fs.cjs");
const { absolute, seed, seedStrings } = require("./seed.cjs");
const { dispatcher, normalizeCommands } = require("./commands.cjs");
const { fromJustBash } = require("./limits.cjs");
const { decode, toBuffer } = require("./bytes.cjs");
const {
  expectEnv,
  expectObject,
  expectOptionalString,
  expectSignal,
  expectString,
  expectStringArray,
  fromNative,
  settle,
  sync,
} = require("./errors.cjs");

const ABORTED = "bash: execution aborted\n";
const CANCELLED = "bash: cancelled\n";

/** Initial files as native file records (lazy providers resolved first). */
async function fileRecords(files) {
  const out = [];
  for (const [name, spec] of Object.entries(files)) {
    // As in just-bash, relative paths start at the root.
    const path = absolute("/", name);
    let value = spec;
    if (typeof value === "function") value = await value();
    if (typeof value === "string") {
      // Strings cross as they are: `seed` encodes them all at once.
      out.push({ path, content: value });
    } else if (value instanceof Uint8Array) {
      out.push({ path, content: toBuffer(value, `files[${path}]`) });
    } else if (value !== null && typeof value === "object" && "content" in value) {
      let content = value.content;
      if (typeof value.lazy === "function") content = await value.lazy();
      out.push({
        path,
        content: toBuffer(content, `files[${path}].content`),
        mode: value.mode,
        mtime: value.mtime instanceof Date ? value.mtime.getTime() : undefined,
      });
    } else {
      throw new TypeError(`files[${JSON.stringify(path)}] must be a string, Uint8Array, {content} or a function`);
    }
  }
  return out;
}

/** The variables of a run (`NAME=value` entries ended by NUL) as an object. */
function parseEnv(block) {
  const env = {};
  if (typeof block !== "string") return env;
  for (const entry of block.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

/** The result object of an exec: just-bash's fields, with the bytes alongside. */
function execResult(r, aborted) {
  let stderrBytes = r.stderr;
  let exitCode = r.exitCode;
  if (aborted) {
    // just-bash's code and message for an aborted run, in place of the engine's.
    let text = stderrBytes.toString("latin1");
    if (text.endsWith(CANCELLED)) text = text.slice(0, -CANCELLED.length);
    stderrBytes = Buffer.from(text + ABORTED, "latin1");
    exitCode = 124;
  }
  const result = {
    stdout: r.stdout.length === 0 ? "" : decode(r.stdout),
    stderr: stderrBytes.length === 0 ? "" : decode(stderrBytes),
    exitCode,
  };
  // `env` is parsed when first read (most callers never read it): an enumerable
  // accessor that parses once; assigning to it makes it a plain property.
  let env;
  Object.defineProperty(result, "env", {
    enumerable: true,
    configurable: true,
    get() {
      env ??= parseEnv(r.env);
      return env;
    },
    set(value) {
      Object.defineProperty(result, "env", { value, enumerable: true, configurable: true, writable: true });
    },
  });
  Object.defineProperties(result, {
    stdoutBytes: { value: r.stdout },
    stderrBytes: { value: stderrBytes },
    stopped: { value: r.stopped ?? undefined },
  });
  return result;
}

class Bash {
  constructor(options = {}) {
    const o = expectObject(options, "options");
    const files = expectObject(o.files, "options.files");
    this._env = { ...expectEnv(o.env, "options.env") };
    // just-bash's default directory: /home/user, or / when files are given.
    this._cwd = nodePath.resolve("/", expectOptionalString(o.cwd, "options.cwd") ?? (o.files === undefined ? "/home/user" : "/"));
    this._limits = fromJustBash(o);
    this._commands = normalizeCommands(o.customCommands);
    const init = { limits: this._limits, commands: [...this._commands.keys()] };
    this._native = new native.NativeSandbox(init, dispatcher(this._commands, () => this.fs));
    const fs = new ShellboxFs(
      () => this._native,
      () => this._ready,
    );
    Object.defineProperty(this, "fs", { value: fs, enumerable: true });
    this._keepState = Boolean(o.keepState);
    this._shell = null;
    this._seeded = false;
    // As in just-bash, relative paths start at the root.
    const seeded = seedStrings(this._native, files, "/", this._cwd);
    this._ready = (seeded ?? fileRecords(files).then((records) => seed(this._native, records, this._cwd)))
      .then(() => {
        if (this._keepState) this._shell = sync(() => this._native.shell(this._cwd, this._env));
        this._seeded = true;
      });
    // A failed seed is reported by the next call, not as an unhandled rejection.
    this._ready.catch(() => {});
  }

  /** Adds a command (or replaces one) for later execs. */
  registerCommand(command) {
    const added = normalizeCommands([command], "registerCommand");
    for (const [name, execute] of added) this._commands.set(name, execute);
    const names = [...added.keys()];
    sync(() => this._native.registerCommands(names));
    if (this._shell !== null) sync(() => this._shell.registerCommands(names));
  }

  async exec(commandLine, options = {}) {
    const script = expectString(commandLine, "commandLine");
    const o = expectObject(options, "options");
    const env = expectEnv(o.env, "options.env");
    const dir = expectOptionalString(o.cwd, "options.cwd");
    const cwd = dir === undefined ? this._cwd : nodePath.resolve(this._cwd, dir);
    const signal = expectSignal(o.signal, "options.signal");
    const args = expectStringArray(o.args, "options.args");
    const stdin = o.stdin === undefined ? undefined : toBuffer(o.stdin, "options.stdin", o.stdinKind === "bytes" ? "latin1" : "utf8");
    if (!this._seeded) await this._ready;
    const cancel = signal === undefined ? null : new native.NativeCancel();
    const onAbort = () => cancel.cancel();
    if (signal !== undefined) {
      if (signal.aborted) cancel.cancel();
      else signal.addEventListener("abort", onAbort, { once: true });
    }
    const init = { cwd, env: o.replaceEnv ? env : { ...this._env, ...env }, stdin, args, captureEnv: true };
    if (this._shell !== null) {
      // The shell keeps its own directory and variables; only what this exec names
      // is set for it.
      init.cwd = dir === undefined ? undefined : cwd;
      init.env = env;
    } else if (!o.replaceEnv && o.env === undefined) {
      init.env = this._env;
    }
    const runner = this._shell ?? this._native;
    let r;
    try {
      r = await runner.run(script, init, cancel);
    } catch (e) {
      throw fromNative(e);
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    return execResult(r, r.stopped?.kind === "cancelled" && signal?.aborted === true);
  }

  async readFile(path) {
    return this.fs.readFile(path);
  }

  async writeFile(path, content) {
    return this.fs.writeFile(path, content);
  }

  getCwd() {
    return this._cwd;
  }

  getEnv() {
    return { ...this._env };
  }
}

module.exports = { Bash };
